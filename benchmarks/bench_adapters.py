"""Decisions per second of random play through the adapters, against the Game API directly.

Three paths play seeded random games of each ruleset, interleaved (the order rotates
every repeat), each capped at --cap decisions per game:

- direct: `game.legal_actions()` and `game.apply_action(i)`;
- pettingzoo: the AEC env, `last()` (the observation vector and action mask) and `step(a)`;
- openspiel: `state.legal_actions()`, `state.observation_tensor()` and `state.apply_action(a)`.

Reported: median decisions/s of each path over --repeats, and the ratio adapter/direct (the
median of the per-repeat ratios). Needs the pettingzoo and openspiel extras.

    python benchmarks/bench_adapters.py --repeats 5 --games 4
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

import boardkit
from boardkit.adapters.openspiel import load_game
from boardkit.adapters.pettingzoo import env

ROOT = Path(__file__).resolve().parent.parent
RULESETS = [*boardkit.list_rulesets(), str(ROOT / "examples" / "go_fish.bk"), str(ROOT / "benchmarks" / "connect_four.bk")]


def direct(name: str, seed: int, cap: int) -> int:
    """Random play through the Game API's integer actions."""
    rules = boardkit.load_ruleset(name)
    game = rules.new_game(players=2, seed=seed)
    rng = random.Random(seed)
    n = 0
    while not game.is_over and n < cap:
        game.apply_action(rng.randrange(len(game.legal_actions())))
        n += 1
    return n


# The environments and games are made once per ruleset (making them works out the spaces).
_MADE: dict[tuple[str, str, int], Any] = {}


def pettingzoo(name: str, seed: int, cap: int) -> int:
    """Random play through the AEC env: each decision reads the observation and the mask."""
    e = _MADE.get(("pz", name, cap)) or _MADE.setdefault(("pz", name, cap), env(name, players=2, max_moves=cap))
    e.reset(seed=seed)
    rng = random.Random(seed)
    n = 0
    for _ in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        n += 1
    return n


def openspiel(name: str, seed: int, cap: int) -> int:
    """Random play through the pyspiel game: each decision reads the observation tensor."""
    game = _MADE.get(("os", name, cap)) or _MADE.setdefault(("os", name, cap), load_game(name, players=2, max_moves=cap, rng_seed=0))
    state = game.new_initial_state()
    rng = random.Random(seed)
    n = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(0)  # sampled chance: the game's generator draws the deal
            continue
        state.observation_tensor()
        state.apply_action(rng.choice(state.legal_actions()))
        n += 1
    return n


PATHS = {"direct": direct, "pettingzoo": pettingzoo, "openspiel": openspiel}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", default=RULESETS)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--cap", type=int, default=200)
    args = parser.parse_args()
    print(f"{'ruleset':<14}{'direct/s':>10}{'pettingzoo/s':>14}{'ratio':>7}{'openspiel/s':>13}{'ratio':>7}")
    for name in args.rulesets:
        for path in PATHS.values():  # warm up: compile and cache the rules, make the spaces
            path(name, 0, args.cap)
        rates: dict[str, list[float]] = {p: [] for p in PATHS}
        for r in range(args.repeats):
            order = list(PATHS)[r % 3:] + list(PATHS)[:r % 3]
            for p in order:
                start = time.perf_counter()
                steps = sum(PATHS[p](name, 100 * r + g, args.cap) for g in range(args.games))
                rates[p].append(steps / (time.perf_counter() - start))
        med = {p: statistics.median(v) for p, v in rates.items()}
        ratio = {p: statistics.median(a / d for a, d in zip(rates[p], rates["direct"], strict=True)) for p in PATHS}
        print(f"{Path(name).stem:<14}{med['direct']:>10,.0f}{med['pettingzoo']:>14,.0f}{ratio['pettingzoo']:>7.2f}"
              f"{med['openspiel']:>13,.0f}{ratio['openspiel']:>7.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
