"""Speed of Ananda (rulesets/ananda.bk): random playouts per second, and the latency of
game.legal_moves() and game.play() at the start, middle and late game.

    python benchmarks/bench_ananda.py [--games 30] [--players 2 3 4] [--seed 0] [--size 10]

A playout is a whole random game (agent: `rng.choice(game.legal_moves())`, seeded with the
game's seed). The latencies come from separate games: the first legal_moves() call at each
decision point is timed (the engine may cache the answer), and so is the play() of the
chosen move, which runs the rules up to the next decision (Ananda computes what the next
decision offers there). Buckets by progress through a game's decisions: start = the first
10%, late = the last 20%, middle = the rest. Medians and 99th percentiles in microseconds.
Targets (issue 3): legal_moves() late game median < 1 ms, p99 < 5 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import boardkit

BUCKETS = ("start", "middle", "late")


def bucket_of(index: int, total: int) -> str:
    fraction = index / total
    if fraction < 0.1:
        return "start"
    return "late" if fraction >= 0.8 else "middle"


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile, q in 0..100."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def playouts(rules: boardkit.Ruleset, players: int, seeds: list[int], options: dict) -> tuple[float, float, float]:
    """Returns (playouts per second, decisions per game, turns per game)."""
    decisions = turns = 0
    t0 = time.perf_counter()
    for seed in seeds:
        game = rules.new_game(players=players, seed=seed, options=options)
        rng = random.Random(seed)
        while not game.is_over:
            game.play(rng.choice(game.legal_moves()))
            decisions += 1
        turns += game.turn_count
    elapsed = time.perf_counter() - t0
    return len(seeds) / elapsed, decisions / len(seeds), turns / len(seeds)


def latencies(rules: boardkit.Ruleset, players: int, seeds: list[int], options: dict
              ) -> dict[str, dict[str, list[float]]]:
    clock = time.perf_counter
    out: dict[str, dict[str, list[float]]] = {"legal_moves": {b: [] for b in BUCKETS}, "play": {b: [] for b in BUCKETS}}
    for seed in seeds:
        game = rules.new_game(players=players, seed=seed, options=options)
        rng = random.Random(seed)
        legal, play = [], []
        while not game.is_over:
            t0 = clock()
            moves = game.legal_moves()
            t1 = clock()
            game.play(rng.choice(moves))
            t2 = clock()
            legal.append((t1 - t0) * 1e6)
            play.append((t2 - t1) * 1e6)
        for i, (a, b) in enumerate(zip(legal, play)):
            out["legal_moves"][bucket_of(i, len(legal))].append(a)
            out["play"][bucket_of(i, len(play))].append(b)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Ananda playouts per second and legal_moves() latency.")
    parser.add_argument("--games", type=int, default=30, help="games per player count, for each measure")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", type=int, default=10, help="board size option")
    args = parser.parse_args(argv)
    rules = boardkit.load_ruleset("ananda")
    options = {"size": args.size}
    print(f"Ananda, {args.size} x {args.size} board, {args.games} random games per player count")
    print(f"{'players':>7} {'playouts/s':>11} {'decisions':>10} {'turns':>7}")
    for players in args.players:
        seeds = list(range(args.seed, args.seed + args.games))
        rate, decisions, turns = playouts(rules, players, seeds, options)
        print(f"{players:>7} {rate:>11.1f} {decisions:>10.1f} {turns:>7.1f}")
    print()
    print(f"{'players':>7} {'call':>12} {'bucket':>7} {'calls':>6} {'median µs':>10} {'p99 µs':>9} {'max µs':>9}")
    for players in args.players:
        seeds = list(range(args.seed + 10_000, args.seed + 10_000 + args.games))
        for call, buckets in latencies(rules, players, seeds, options).items():
            everything = [t for b in BUCKETS for t in buckets[b]]
            for bucket, values in [*buckets.items(), ("overall", everything)]:
                print(f"{players:>7} {call:>12} {bucket:>7} {len(values):>6} {statistics.median(values):>10.1f} "
                      f"{percentile(values, 99):>9.1f} {max(values):>9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
