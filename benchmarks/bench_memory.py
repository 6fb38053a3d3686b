"""Retained memory of one finished game kept alive with its undo history: Mandala (2 players)
and Meenakshi (4 players), random play from a fixed seed.

Memory is what tracemalloc counts as still allocated after the game ends and gc runs, minus
what was allocated before the game started. The ruleset is loaded, and one game of another
seed is played through, before tracing starts, so lazily built structures shared by all
games (layouts, grammar, caches) are not charged to the measured game. With the fast path,
the same game played through legal_actions/apply_action is measured too, and with
game.clone(), the memory a clone of the finished game adds.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchutil as bu

import boardkit

CASES = [("mandala", 2), ("meenakshi", 4)]


def traced(build: Callable[[], Any]) -> tuple[Any, int, int]:
    """Runs build() under tracemalloc; returns (its result, retained bytes, peak bytes)."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    result = build()
    gc.collect()
    after, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return result, after - before, peak - before


def finished_game(rules: Any, players: int, seed: int, play: Callable[[Any, random.Random, int], int],
                  cap: int) -> Callable[[], tuple[Any, int]]:
    def build() -> tuple[Any, int]:
        game = rules.new_game(players=players, seed=seed)
        return game, play(game, random.Random(seed), cap)
    return build


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1, help="game seed (default 1)")
    parser.add_argument("--repeat", type=int, default=3, help="measurements per case, median (default 3)")
    parser.add_argument("--max-decisions", type=int, default=20_000, help="cap per game (default 20000)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)

    results: list[dict[str, Any]] = []
    for name, players in CASES:
        rules = boardkit.load_ruleset(name)
        warm = rules.new_game(players=players, seed=args.seed + 1)
        bu.play_moves(warm, random.Random(args.seed + 1), args.max_decisions)
        fast = bu.has_fast_path(warm)
        del warm
        paths = {"moves": bu.play_moves, "actions": bu.play_actions} if fast else {"moves": bu.play_moves}
        row: dict[str, Any] = {"ruleset": name, "players": players, "seed": args.seed, "fast_path": fast}
        for path, play in paths.items():
            kept, peaks = [], []
            for _ in range(args.repeat):
                (game, decisions), retained, peak = traced(finished_game(rules, players, args.seed, play,
                                                                         args.max_decisions))
                kept.append(retained)
                peaks.append(peak)
            row[f"{path}_retained_kb"] = statistics.median(kept) / 1024
            row[f"{path}_peak_kb"] = statistics.median(peaks) / 1024
            row["decisions"], row["finished"], row["events"] = decisions, game.is_over, len(game.events)
            if path == "moves":
                clone_kb = None
                if hasattr(game, "clone"):
                    _, clone_bytes, _ = traced(game.clone)
                    clone_kb = clone_bytes / 1024
                row["clone_kb"] = clone_kb
            del game
        row.setdefault("actions_retained_kb", None)
        row.setdefault("actions_peak_kb", None)
        results.append(row)
        bu.note(f"{name} {players}p: {row['moves_retained_kb']:,.0f} KB", args.json)
    if args.json:
        bu.dump_json({"repeat": args.repeat, "results": results})
        return 0
    rows = [[f"{x['ruleset']} {x['players']}p", str(x["decisions"]), str(x["events"]),
             bu.fmt(x["moves_retained_kb"]), bu.fmt(x["moves_peak_kb"]), bu.fmt(x["actions_retained_kb"]),
             bu.fmt(x["clone_kb"])] for x in results]
    bu.print_table(f"Memory of one finished game with its undo history, KB (seed {args.seed}, median of "
                   f"{args.repeat})",
                   ["game", "decisions", "events", "retained (moves path)", "peak while playing",
                    "retained (actions path)", "clone()"], rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
