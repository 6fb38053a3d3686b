"""What invariant checking costs: random Mandala playouts with checking off, on, and (optionally)
on an older boardkit source tree, the way bench_playouts.py plays them.

Each variant runs in its own subprocess (same agent loop: `game.play(rng.choice(game.legal_moves()))`),
rounds interleaved --repeat times; the median seconds of each and the ratios to "off" are
printed. With --callgrind, each variant instead runs once under
`valgrind --tool=callgrind --callgrind-out-file=/dev/null`, for G games and for 0 games, and
the difference of instructions executed is the playouts' own count: robust on a busy machine.

    python benchmarks/bench_invariants.py [--games 50] [--repeat 7] [--before DIR] [--callgrind]

`--before DIR` is a source tree of another version (e.g. `git archive COMMIT | tar -x -C DIR`):
its `src/` is put first on the path, and its `rulesets/` are the ones it loads. Do not edit
the package while it runs (the compiled cache is keyed by its files): to keep working, run it
on a copy, `PYTHONPATH=COPY/src`.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

CHILD = r"""
import random, sys, time
import boardkit
games, seed, mode = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rules = boardkit.load_ruleset("mandala")
kwargs = {"check_invariants": True} if mode == "on" else {}
t0 = time.perf_counter()
decisions = 0
for s in range(seed, seed + games):
    rng = random.Random(s)
    game = rules.new_game(players=2, seed=s, **kwargs)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
        decisions += 1
print(time.perf_counter() - t0, decisions)
"""


def command(variant: str, before: Path | None, games: int, seed: int) -> tuple[list[str], dict[str, str]]:
    env = dict(os.environ, PYTHONHASHSEED="0")
    if variant == "before":
        assert before is not None
        env["PYTHONPATH"] = str(before / "src")
    mode = "on" if variant == "on" else "off"
    return [sys.executable, "-c", CHILD, str(games), str(seed), mode], env


def timed(variant: str, before: Path | None, games: int, seed: int) -> tuple[float, int]:
    cmd, env = command(variant, before, games, seed)
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout.split()
    return float(out[0]), int(out[1])


def instructions(variant: str, before: Path | None, games: int, seed: int) -> int:
    cmd, env = command(variant, before, games, seed)
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd], env=env,
                         check=True, capture_output=True, text=True)
    found = re.search(r"Collected : (\d+)", run.stderr)
    assert found, run.stderr[-2000:]
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--before", type=Path, help="source tree of the version to compare with")
    parser.add_argument("--callgrind", action="store_true", help="count instructions instead of timing")
    args = parser.parse_args()
    variants = ["off", "on"] + (["before"] if args.before else [])
    for v in variants:  # warm the compiled cache of each version
        timed(v, args.before, 1, args.seed)
    if args.callgrind:
        counts = {v: instructions(v, args.before, args.games, args.seed) - instructions(v, args.before, 0, args.seed)
                  for v in variants}
        for v in variants:
            print(f"{v:>7}: {counts[v]:>15,} instructions for {args.games} playouts "
                  f"(ratio to off {counts[v] / counts['off']:.4f})")
        return
    seconds: dict[str, list[float]] = {v: [] for v in variants}
    decisions = {}
    for _ in range(args.repeat):
        for v in variants:
            t, n = timed(v, args.before, args.games, args.seed)
            seconds[v].append(t)
            decisions[v] = n
    off = statistics.median(seconds["off"])
    for v in variants:
        med = statistics.median(seconds[v])
        print(f"{v:>7}: median {med:.3f} s for {args.games} playouts ({decisions[v]} decisions), "
              f"{args.games / med:.1f} playouts/s, time ratio to off {med / off:.3f}; runs {sorted(seconds[v])}")


if __name__ == "__main__":
    main()
