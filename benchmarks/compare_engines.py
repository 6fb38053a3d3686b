"""Decisions per second of two boardkit engines on the same games, runs interleaved.

Compares this checkout's engine with another one (a `src` directory, for example an export of
an older commit: `git archive COMMIT src rulesets | tar -x -C /tmp/old`), each run in a fresh
process so that both pay the same, one after the other, repeatedly; reports medians and the
ratio new/old per ruleset and player count. Both engines play the rule files of this checkout,
so the comparison is of engines, not of rules; an engine older than the language those files use
plays its own commit's files instead (bundled names resolve next to its `src`; `--old-root` for
the .bk paths), which compares engine and rules together. A shared machine makes single figures noisy:
read the ratios, and repeat.

    python benchmarks/compare_engines.py --old /tmp/old/src [--repeat 5] [--decisions 1500]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = [("mandala", 2), ("mandala_seed", 2), ("ananda", 2), ("ananda", 4), ("chakra", 2), ("chakra_short", 3),
         ("meenakshi", 2), ("meenakshi", 4), ("examples/go_fish.bk", 3), ("benchmarks/connect_four.bk", 2)]

# Plays random games until `decisions` decisions, timed by CPU time (less sensitive to other
# processes than the wall clock); prints decisions per second.
_WORKER = """
import random, sys, time
import boardkit
name, players, decisions, fast = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
rules = boardkit.load_ruleset(name)
rng, seed, made = random.Random(0), 0, 0
start = time.process_time()
while made < decisions:
    game, seed, n = rules.new_game(players=players, seed=seed), seed + 1, 0
    while not game.is_over and made < decisions and n < 2000:
        if fast:
            game.apply_action(rng.randrange(len(game.legal_actions())))
        else:
            game.play(rng.choice(game.legal_moves()))
        made, n = made + 1, n + 1
print(made / (time.process_time() - start))
"""


def _run(src: Path, name: str, players: int, decisions: int, fast: bool, root: Path = ROOT) -> float:
    path = str(root / name) if name.endswith(".bk") else name
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run([sys.executable, "-c", _WORKER, path, str(players), str(decisions), "1" if fast else "0"],
                         env=env, capture_output=True, text=True, check=True, cwd=ROOT)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old", type=Path, required=True, help="the other engine's src directory")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--decisions", type=int, default=1500)
    parser.add_argument("--old-root", type=Path, default=ROOT,
                        help="where the old engine reads the .bk files of GAMES (default: this checkout); for an "
                             "engine older than the rule files' language, an export of its own commit")
    args = parser.parse_args()
    new_src = ROOT / "src"
    print(f"{'game':32} {'old moves/s':>12} {'new moves/s':>12} {'new actions/s':>14} {'moves x':>8} {'actions x':>10}")
    for name, players in GAMES:
        old, new, fast = [], [], []
        for _ in range(args.repeat):
            old.append(_run(args.old, name, players, args.decisions, fast=False, root=args.old_root))
            new.append(_run(new_src, name, players, args.decisions, fast=False))
            fast.append(_run(new_src, name, players, args.decisions, fast=True))
        o, n, f = statistics.median(old), statistics.median(new), statistics.median(fast)
        print(f"{Path(name).stem + f' {players}p':32} {o:12,.0f} {n:12,.0f} {f:14,.0f} {n / o:8.2f} {f / o:10.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
