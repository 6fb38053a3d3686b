"""Random playouts per second: the boardkit engine playing rulesets/mandala.bk against
the hand-written Python baseline (benchmarks/mandala_baseline.py).

Both are driven by the same agent loop, in one process:

    rng = random.Random(seed)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))

The engine is also driven through its fast path for programs, `legal_actions`/`apply_action`
(`game.apply_action(rng.randrange(len(game.legal_actions())))`: the same random draws, so the
same games). Engine and baseline runs are interleaved --repeat times; the median playouts/s of
each is reported with the ratios to the baseline (issue #10's targets: 0.6 through
legal_moves/play, 1.0 through the fast path). The mean number of decisions
per game and the mean score per player of each are printed too: the two implementations
play the same rules with the same decision structure, so these should agree (a z-test on
the mean score is shown; use --games 1000 for a meaningful one).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mandala_baseline  # noqa: E402

TARGET_RATIO = 0.6
TARGET_FAST = 1.0


def engine_factory():
    import boardkit

    t0 = time.perf_counter()
    rules = boardkit.load_ruleset("mandala")
    load_seconds = time.perf_counter() - t0

    def new_game(seed):
        return rules.new_game(players=2, seed=seed)

    return new_game, load_seconds


def run_batch(new_game, seeds, max_decisions, fast=False):
    """Play one random game per seed. Returns (seconds, decisions per game, scores)."""
    decisions = []
    scores = []
    t0 = time.perf_counter()
    for seed in seeds:
        rng = random.Random(seed)
        game = new_game(seed)
        if callable(game.is_over):
            raise TypeError("game.is_over should be a property, not a method")
        n = 0
        while not game.is_over:
            if fast:
                game.apply_action(rng.randrange(len(game.legal_actions())))
            else:
                game.play(rng.choice(game.legal_moves()))
            n += 1
            if n >= max_decisions:
                raise RuntimeError(f"game with seed {seed} passed {max_decisions} decisions")
        decisions.append(n)
        scores.append(game.scores())
    elapsed = time.perf_counter() - t0
    return elapsed, decisions, scores


def flat_scores(scores):
    return [s for pair in scores for s in (pair.values() if isinstance(pair, dict) else pair)]


def z_test(a, b):
    """Two-sample z statistic for the difference of means (large samples)."""
    se = math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
    if se == 0:
        return 0.0
    return (statistics.mean(a) - statistics.mean(b)) / se


def main(argv=None):
    parser = argparse.ArgumentParser(description="Random Mandala playouts/s: engine vs baseline.")
    parser.add_argument("--games", type=int, default=200, help="games per run (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="first game seed (default 0)")
    parser.add_argument("--repeat", type=int, default=5, help="interleaved runs of each (default 5)")
    parser.add_argument("--max-decisions", type=int, default=100_000,
                        help="abort a game that runs longer than this")
    args = parser.parse_args(argv)

    from rich.console import Console
    from rich.table import Table

    console = Console()
    if not console.is_terminal and console.width < 100:
        console = Console(width=100)
    engine_new_game, load_seconds = engine_factory()
    seeds = list(range(args.seed, args.seed + args.games))
    contenders = {"engine": (engine_new_game, False), "engine fast": (engine_new_game, True),
                  "baseline": (mandala_baseline.new_game, False)}

    rates = {name: [] for name in contenders}
    first_run = {}
    deterministic = {name: True for name in contenders}
    for r in range(args.repeat):
        for name, (new_game, fast) in contenders.items():
            seconds, decisions, scores = run_batch(new_game, seeds, args.max_decisions, fast)
            rates[name].append(args.games / seconds)
            if name not in first_run:
                first_run[name] = (decisions, flat_scores(scores))
            elif first_run[name][0] != decisions:
                deterministic[name] = False
            console.print(f"run {r + 1}/{args.repeat} {name:11s} {args.games / seconds:8.1f} playouts/s",
                          style="dim")

    table = Table(title=f"Mandala random playouts: {args.games} games x {args.repeat} runs")
    table.add_column("")
    table.add_column("playouts/s\nmedian", justify="right")
    table.add_column("playouts/s\nmin..max", justify="right")
    table.add_column("decisions\n/game", justify="right")
    table.add_column("decisions/s\nmedian", justify="right")
    table.add_column("score/player\nmean (sd)", justify="right")
    table.add_column("same on\nrerun", justify="center")
    medians = {}
    for name in contenders:
        med = statistics.median(rates[name])
        medians[name] = med
        decisions, scores = first_run[name]
        dpg = statistics.mean(decisions)
        table.add_row(
            name,
            f"{med:.1f}",
            f"{min(rates[name]):.0f}..{max(rates[name]):.0f}",
            f"{dpg:.1f}",
            f"{med * dpg:,.0f}",
            f"{statistics.mean(scores):.2f} ({statistics.stdev(scores):.1f})",
            "yes" if deterministic[name] else "NO",
        )
    console.print(table)

    for name, target in (("engine", TARGET_RATIO), ("engine fast", TARGET_FAST)):
        ratio = medians[name] / medians["baseline"]
        verdict = "[green]meets[/green]" if ratio >= target else "[red]below[/red]"
        console.print(f"ratio {name}/baseline: [bold]{ratio:.3f}[/bold] ({verdict} the target {target})")
    e_dec, e_scores = first_run["engine"]
    b_dec, b_scores = first_run["baseline"]
    console.print(f"decisions/game: engine {statistics.mean(e_dec):.1f}, baseline {statistics.mean(b_dec):.1f}"
                  f" (z = {z_test(e_dec, b_dec):+.2f})")
    console.print(f"mean score/player: engine {statistics.mean(e_scores):.2f}, "
                  f"baseline {statistics.mean(b_scores):.2f} (z = {z_test(e_scores, b_scores):+.2f}; "
                  f"|z| > 3 suggests the two do not play the same rules)")
    console.print(f"load_ruleset('mandala'): {load_seconds * 1000:.1f} ms (not in the timings)", style="dim")
    return 0


if __name__ == "__main__":
    sys.exit(main())
