"""Speed of rulesets/chakra.bk: random playouts per second and legal_moves() latency.

Random play never harmonizes five chakras (shared/rules/DECISIONS.md), so a playout is a
random game cut after --decisions decisions (the cut games count as aborted playouts, as
`boardkit simulate` reports them). The agent loop is the usual one:

    rng = random.Random(seed)
    while not game.is_over and decisions < cap:
        game.play(rng.choice(game.legal_moves()))

For every player count and module combination asked for, the script prints playouts per
second, decisions per second, and the median and 99th percentile of the first
legal_moves() call at each decision point (the engine caches the answer, so later calls at
the same point are not timed).

    python benchmarks/bench_chakra.py [--games 20] [--decisions 300] [--players 2 3 4] [--modules all]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

MODULES = {"base": {}, "A": {"module_a": True}, "D": {"module_d": True}, "A+D": {"module_a": True, "module_d": True}}


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile, q in 0..100."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def run(rules, players: int, options: dict, games: int, decisions: int, seed: int) -> dict[str, float]:
    """Plays `games` random games; returns rates and legal_moves() latencies (µs)."""
    clock = time.perf_counter
    latencies: list[float] = []
    played = 0
    finished = 0
    start = clock()
    for s in range(seed, seed + games):
        rng = random.Random(s)
        game = rules.new_game(players=players, seed=s, options=options)
        n = 0
        while not game.is_over and n < decisions:
            t0 = clock()
            moves = game.legal_moves()
            latencies.append((clock() - t0) * 1e6)
            game.play(rng.choice(moves))
            n += 1
        played += n
        finished += game.is_over
    seconds = clock() - start
    return {"playouts/s": games / seconds, "decisions/s": played / seconds, "finished": finished,
            "median": statistics.median(latencies), "p99": percentile(latencies, 99), "max": max(latencies)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Chakra playouts per second and legal_moves() latency.")
    parser.add_argument("--games", type=int, default=20, help="random games per configuration (default 20)")
    parser.add_argument("--decisions", type=int, default=300, help="decisions after which a game is cut (default 300)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--modules", nargs="+", default=list(MODULES), choices=list(MODULES))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    import boardkit

    t0 = time.perf_counter()
    rules = boardkit.load_ruleset("chakra")
    load_ms = (time.perf_counter() - t0) * 1e3
    print(f"chakra: parsed and compiled in {load_ms:.0f} ms; {args.games} random games per row, "
          f"cut at {args.decisions} decisions")
    header = f"{'players':>7} {'modules':>7} {'playouts/s':>10} {'decisions/s':>11} {'finished':>8} " \
             f"{'median µs':>9} {'p99 µs':>8} {'max µs':>8}"
    print(header)
    print("-" * len(header))
    medians = []
    for players in args.players:
        for name in args.modules:
            r = run(rules, players, MODULES[name], args.games, args.decisions, args.seed)
            medians.append(r["median"])
            print(f"{players:>7} {name:>7} {r['playouts/s']:>10.2f} {r['decisions/s']:>11.0f} "
                  f"{r['finished']:>8} {r['median']:>9.0f} {r['p99']:>8.0f} {r['max']:>8.0f}")
    print(f"legal_moves() median over all rows: {statistics.median(medians):.0f} µs (target: well under 1000 µs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
