"""Meenakshi Temple on the engine: random playouts per second and legal_moves() latency.

For each player count, plays random games (the agent picks uniformly among the legal
moves, seeded with the game seed) and reports:

- playouts per second and decisions per game (whole games, legal_moves and play included),
- the latency of the first legal_moves() call at each decision point: median, 99th
  percentile and maximum, in µs, both as wall-clock time and as this thread's CPU time
  (on a loaded machine the wall-clock tail holds scheduler pauses of a few ms; CPU time
  does not),
- the slowest kind of decision (by prompt), by median CPU time,
- the time to load (parse, check, compile) the ruleset.

    python benchmarks/bench_meenakshi.py [--games 20] [--players 2 3 4 5] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import boardkit  # noqa: E402
from boardkit.ruleset import parse_ruleset  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile, q in 0..100."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def load_seconds(repeat: int = 3) -> float:
    path = Path(boardkit.load_ruleset("meenakshi").source_path)
    text = path.read_text(encoding="utf-8")
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        parse_ruleset(text, filename=str(path))
        best = min(best, time.perf_counter() - t0)
    return best


def run(players: int, games: int, seed: int) -> dict:
    rules = boardkit.load_ruleset("meenakshi")
    wall: list[float] = []
    cpu: list[float] = []
    by_prompt: dict[str, list[float]] = defaultdict(list)
    decisions = []
    t_start = time.perf_counter()
    for s in range(seed, seed + games):
        rng = random.Random(s)
        game = rules.new_game(players=players, seed=s)
        n = 0
        while not game.is_over:
            w0, c0 = time.perf_counter(), time.thread_time()
            moves = game.legal_moves()
            c1, w1 = time.thread_time(), time.perf_counter()
            wall.append((w1 - w0) * 1e6)
            cpu.append((c1 - c0) * 1e6)
            by_prompt[game.prompt].append((c1 - c0) * 1e6)
            game.play(rng.choice(moves))
            n += 1
        decisions.append(n)
    elapsed = time.perf_counter() - t_start
    slowest = max(by_prompt.items(), key=lambda kv: statistics.median(kv[1]))
    return {
        "players": players,
        "playouts/s": games / elapsed,
        "decisions/game": statistics.mean(decisions),
        "wall median": statistics.median(wall), "wall p99": percentile(wall, 99), "wall max": max(wall),
        "cpu median": statistics.median(cpu), "cpu p99": percentile(cpu, 99), "cpu max": max(cpu),
        "slowest": f"{slowest[0]} ({statistics.median(slowest[1]):.0f} µs)",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="random games per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"load (parse, check, compile): {load_seconds() * 1000:.0f} ms")
    head = (f"{'players':>7} {'playouts/s':>10} {'decisions':>9} | {'legal_moves µs: wall median':>27} {'p99':>7} "
            f"{'max':>7} | {'cpu median':>10} {'p99':>7} {'max':>7} | slowest decision")
    print(head)
    for players in args.players:
        r = run(players, args.games, args.seed)
        print(f"{r['players']:>7} {r['playouts/s']:>10.2f} {r['decisions/game']:>9.0f} | {r['wall median']:>27.0f} "
              f"{r['wall p99']:>7.0f} {r['wall max']:>7.0f} | {r['cpu median']:>10.0f} {r['cpu p99']:>7.0f} "
              f"{r['cpu max']:>7.0f} | {r['slowest']}")


if __name__ == "__main__":
    main()
