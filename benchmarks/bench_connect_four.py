"""Random Connect Four playouts per second: the engine on benchmarks/connect_four.bk, through
legal_moves/play and (when the engine has it) the legal_actions/apply_action fast path,
against the bitboard baseline (benchmarks/connect_four_baseline.py).

The contenders run in one process, interleaved (the order rotates every repeat), each on
the same seeds with the agent `rng.choice(...)` seeded by the game's seed. A batch is
repeated until it lasts --min-seconds, so the fast baseline is timed over more than a few
milliseconds. Reported: median playouts/s and decisions/s of each, and the ratio
engine/baseline of each path as the median of the per-repeat ratios. With game.clone(),
the clones per second of a game 10 moves in are reported too.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchutil as bu
import connect_four_baseline as baseline

import boardkit

Player = Callable[[Any, random.Random, int], int]


def run_batch(new_game: Callable[[int], Any], play: Player, seeds: list[int], min_seconds: float
              ) -> tuple[float, float]:
    """Plays one game per seed, again until min_seconds pass; returns (playouts/s, decisions/s)."""
    games = decisions = 0
    t0 = time.perf_counter()
    while True:
        for seed in seeds:
            decisions += play(new_game(seed), random.Random(seed), 10_000)
        games += len(seeds)
        elapsed = time.perf_counter() - t0
        if elapsed >= min_seconds:
            return games / elapsed, decisions / elapsed


def baseline_play(game: baseline.Game, rng: random.Random, cap: int) -> int:
    return bu.play_moves(game, rng, cap)


def clones_per_second(rules: boardkit.Ruleset, min_seconds: float) -> float | None:
    """game.clone() rate on a game 10 random moves in; None while the engine has no clone()."""
    game = rules.new_game(players=2, seed=0)
    if not hasattr(game, "clone"):
        return None
    bu.play_moves(game, random.Random(0), 10)
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < min_seconds:
        for _ in range(100):
            game.clone()
        n += 100
    return n / (time.perf_counter() - t0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per batch (default 200)")
    parser.add_argument("--repeat", type=int, default=7, help="interleaved runs of each (default 7)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--min-seconds", type=float, default=0.3, help="shortest batch (default 0.3)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)

    rules = boardkit.load_ruleset(str(baseline.RULES))
    seeds = list(range(args.seed, args.seed + args.games))
    fast = bu.has_fast_path(rules.new_game(players=2, seed=0))

    def engine(seed: int) -> Any:
        return rules.new_game(players=2, seed=seed)

    contenders: dict[str, tuple[Callable[[int], Any], Player]] = {"engine moves": (engine, bu.play_moves)}
    if fast:
        contenders["engine actions"] = (engine, bu.play_actions)
    contenders["baseline"] = (baseline.new_game, baseline_play)
    rates: dict[str, list[float]] = {name: [] for name in contenders}
    dps: dict[str, list[float]] = {name: [] for name in contenders}
    names = list(contenders)
    for r in range(args.repeat):
        for name in names[r % len(names):] + names[:r % len(names)]:
            new_game, play = contenders[name]
            pps, dec = run_batch(new_game, play, seeds, args.min_seconds)
            rates[name].append(pps)
            dps[name].append(dec)
            bu.note(f"run {r + 1}/{args.repeat} {name:15s} {pps:10.1f} playouts/s", args.json)

    def paired_ratio(name: str) -> float | None:
        if name not in rates:
            return None
        return bu.median([a / b for a, b in zip(rates[name], rates["baseline"], strict=True)])

    figures: dict[str, Any] = {"games": args.games, "repeat": args.repeat, "fast_path": fast}
    for name in ("engine moves", "engine actions", "baseline"):
        figures[name.replace(" ", "_")] = {
            "playouts_per_s": bu.median(rates.get(name, [])),
            "decisions_per_s": bu.median(dps.get(name, [])),
            "runs": rates.get(name),
        }
    figures["ratio_moves_vs_baseline"] = paired_ratio("engine moves")
    figures["ratio_actions_vs_baseline"] = paired_ratio("engine actions")
    figures["clones_per_s"] = clones_per_second(rules, args.min_seconds)
    if args.json:
        bu.dump_json(figures)
        return 0
    rows = []
    for name, key in (("engine legal_moves/play", "engine_moves"),
                      ("engine legal_actions/apply_action", "engine_actions"), ("baseline", "baseline")):
        f = figures[key]
        runs = f["runs"]
        ratio = figures.get(f"ratio_{key.split('_')[-1]}_vs_baseline") if key != "baseline" else 1.0
        rows.append([name, bu.fmt(f["playouts_per_s"], ",.1f"), bu.fmt(f["decisions_per_s"]),
                     f"{min(runs):,.0f}..{max(runs):,.0f}" if runs else bu.NA, bu.fmt(ratio, ".4f")])
    bu.print_table(f"Connect Four random playouts: {args.games} games x {args.repeat} interleaved runs",
                   ["path", "playouts/s median", "decisions/s median", "playouts/s min..max",
                    "engine/baseline"], rows)
    print(f"game.clone() per second: {bu.fmt(figures['clones_per_s'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
