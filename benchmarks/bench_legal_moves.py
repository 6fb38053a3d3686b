"""Latency of game.legal_moves() for any bundled ruleset.

Plays random games and times the first legal_moves() call at each decision point (the
engine may cache the answer, so later calls at the same point are not timed; the agent
picks from the list that first call returned). The timings are bucketed by progress
through the game: start = the first 10% of its decisions, late = the last 20%, middle =
the rest. Median and 99th percentile are printed in microseconds per bucket and overall.

    python benchmarks/bench_legal_moves.py --ruleset mandala --players 2 --games 20

--baseline times benchmarks/mandala_baseline.py the same way (mandala only), for scale.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

BUCKETS = ("start", "middle", "late")


def bucket_of(index, total):
    fraction = index / total
    if fraction < 0.1:
        return "start"
    if fraction >= 0.8:
        return "late"
    return "middle"


def percentile(values, q):
    """Nearest-rank percentile, q in 0..100."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def parse_options(pairs):
    options = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        try:
            options[key] = int(value)
        except ValueError:
            options[key] = {"true": True, "false": False}.get(value, value)
    return options


def is_over(game):
    over = game.is_over
    return over() if callable(over) else over


def time_games(new_game, seeds, max_decisions):
    """Returns (per-bucket timings in µs, decisions per game, aborted game count)."""
    timings = {b: [] for b in BUCKETS}
    lengths = []
    aborted = 0
    clock = time.perf_counter
    for seed in seeds:
        rng = random.Random(seed)
        game = new_game(seed)
        samples = []
        while not is_over(game):
            t0 = clock()
            moves = game.legal_moves()
            samples.append(clock() - t0)
            if not moves:
                raise RuntimeError(f"seed {seed}: the game is not over but offers no move")
            game.play(rng.choice(moves))
            if len(samples) >= max_decisions:
                aborted += 1
                break
        lengths.append(len(samples))
        for i, seconds in enumerate(samples):
            timings[bucket_of(i, len(samples))].append(seconds * 1e6)
    return timings, lengths, aborted


def main(argv=None):
    parser = argparse.ArgumentParser(description="Time legal_moves() over random games.")
    parser.add_argument("--ruleset", default="mandala", help="bundled ruleset name (default mandala)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="ruleset option, repeatable")
    parser.add_argument("--max-decisions", type=int, default=20_000,
                        help="stop (and report as aborted) a game longer than this")
    parser.add_argument("--baseline", action="store_true",
                        help="also time the hand-written baseline (mandala only)")
    args = parser.parse_args(argv)

    import boardkit
    from rich.console import Console
    from rich.table import Table

    rules = boardkit.load_ruleset(args.ruleset)
    options = parse_options(args.option)

    def engine_new_game(seed):
        if options:
            return rules.new_game(players=args.players, seed=seed, options=options)
        return rules.new_game(players=args.players, seed=seed)

    contenders = {"engine": engine_new_game}
    if args.baseline:
        if args.ruleset != "mandala" or args.players != 2:
            parser.error("--baseline exists only for --ruleset mandala --players 2")
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import mandala_baseline

        contenders["baseline"] = mandala_baseline.new_game

    seeds = list(range(args.seed, args.seed + args.games))
    console = Console()
    if not console.is_terminal and console.width < 100:
        console = Console(width=100)
    table = Table(title=f"legal_moves() latency, {args.ruleset}, {args.players} players, "
                        f"{args.games} random games (µs)")
    table.add_column("")
    table.add_column("bucket")
    table.add_column("calls", justify="right")
    table.add_column("median µs", justify="right")
    table.add_column("p99 µs", justify="right")
    table.add_column("max µs", justify="right")
    for name, new_game in contenders.items():
        timings, lengths, aborted = time_games(new_game, seeds, args.max_decisions)
        everything = [t for b in BUCKETS for t in timings[b]]
        for bucket, values in [*timings.items(), ("overall", everything)]:
            if not values:
                continue
            table.add_row(name, bucket, str(len(values)), f"{statistics.median(values):.1f}",
                          f"{percentile(values, 99):.1f}", f"{max(values):.1f}",
                          end_section=bucket == "overall")
        note = f"{name}: {statistics.mean(lengths):.1f} decisions/game"
        if aborted:
            note += f", {aborted} game(s) aborted at {args.max_decisions} decisions"
        console.print(note, style="dim")
    console.print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
