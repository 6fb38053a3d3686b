"""Decisions per second of random play, for every bundled ruleset and player count (default
options), through legal_moves/play and, when the engine has it, legal_actions/apply_action.

Decisions are counted, not games: random Chakra games never end, so each game is cut at
--max-decisions, and a run plays whole games (seeds --seed, --seed + 1, ...) until it has
made --decisions decisions; starting the games is included in the time. Runs are interleaved:
every repeat walks all (ruleset, players) pairs, both paths each (order alternating), so
noise on the shared machine spreads over all figures. Median decisions/s per pair and path,
and the median of the per-repeat ratios actions/moves.
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

import boardkit

FALLBACK_NAMES = ["mandala", "mandala_seed", "ananda", "chakra", "chakra_short", "meenakshi"]
PATHS = {"moves": bu.play_moves, "actions": bu.play_actions}


def bundled() -> list[str]:
    return boardkit.list_rulesets() if hasattr(boardkit, "list_rulesets") else FALLBACK_NAMES


def run(rules: Any, players: int, play: Callable[[Any, random.Random, int], int], seed: int, budget: int,
        cap: int) -> tuple[float, int, int, int]:
    """Plays whole random games (each cut at `cap`) until `budget` decisions are made; returns
    (decisions/s, games, games cut at the cap, games that raised).
    """
    decisions = games = unfinished = errors = 0
    t0 = time.perf_counter()
    while decisions < budget:
        game = rules.new_game(players=players, seed=seed + games)
        try:
            decisions += play(game, random.Random(seed + games), cap)
        except boardkit.BoardkitError as exc:
            errors += 1
            bu.note(f"  {rules.name} {players}p seed {seed + games}: {type(exc).__name__}: {exc}", False)
            decisions += 1  # never loop forever on a ruleset that fails at once
        games += 1
        unfinished += not game.is_over
    return decisions / (time.perf_counter() - t0), games, unfinished, errors


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rulesets", nargs="*", default=None, help="names (default: every bundled one)")
    parser.add_argument("--decisions", type=int, default=2000, help="decisions per run (default 2000)")
    parser.add_argument("--max-decisions", type=int, default=2000, help="cap per game (default 2000)")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved runs of each (default 3)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)

    names = args.rulesets or bundled()
    pairs: list[tuple[str, Any, int]] = []
    for name in names:
        rules = boardkit.load_ruleset(name)
        pairs += [(name, rules, p) for p in range(rules.min_players, rules.max_players + 1)]
    fast = bu.has_fast_path(pairs[0][1].new_game(players=pairs[0][2], seed=0))
    paths = ["moves", "actions"] if fast else ["moves"]
    rates: dict[tuple[str, int, str], list[float]] = {(n, p, path): [] for n, _, p in pairs for path in paths}
    info: dict[tuple[str, int], tuple[int, int, int]] = {}
    for r in range(args.repeat):
        for name, rules, players in pairs:
            for path in paths if r % 2 == 0 else paths[::-1]:
                dps, games, unfinished, errors = run(rules, players, PATHS[path], args.seed, args.decisions,
                                                     args.max_decisions)
                rates[(name, players, path)].append(dps)
                info[(name, players)] = (games, unfinished, errors)
                bu.note(f"run {r + 1}/{args.repeat} {name} {players}p {path}: {dps:,.0f} decisions/s", args.json)

    results: list[dict[str, Any]] = []
    for name, _, players in pairs:
        moves = bu.median(rates[(name, players, "moves")])
        actions = bu.median(rates.get((name, players, "actions"), []))
        paired = ([a / m for a, m in zip(rates[(name, players, "actions")], rates[(name, players, "moves")],
                                          strict=True)] if fast else [])
        games, unfinished, errors = info[(name, players)]
        results.append({"ruleset": name, "players": players, "moves_per_s": moves, "actions_per_s": actions,
                        "ratio_actions_vs_moves": bu.median(paired), "games_per_run": games,
                        "capped_per_run": unfinished, "errors_per_run": errors})
    if args.json:
        bu.dump_json({"decisions": args.decisions, "max_decisions": args.max_decisions, "repeat": args.repeat,
                      "fast_path": fast, "results": results})
        return 0
    rows = [[f"{x['ruleset']} {x['players']}p", bu.fmt(x["moves_per_s"]), bu.fmt(x["actions_per_s"]),
             bu.fmt(x["ratio_actions_vs_moves"], ".2f"), str(x["games_per_run"]), str(x["capped_per_run"]),
             str(x["errors_per_run"])] for x in results]
    bu.print_table(f"Random play, decisions/s (median of {args.repeat}; {args.decisions} decisions per run, "
                   f"games cut at {args.max_decisions})",
                   ["ruleset", "legal_moves/play", "legal_actions/apply_action", "actions/moves",
                    "games/run", "capped/run", "errors/run"], rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
