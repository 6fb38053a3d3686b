"""Paired comparison of one board's seats in two `bench_agents.py` runs on the same seeds.

Both runs deal the same boards to the same seats game by game (a variant that changes only data
the deal does not read keeps the deal), so each seat of the board is a pair: won in the first
run or not, won in the second or not. The exact two-sided sign test on the discordant pairs
says whether the change moved the board's wins. A shared win counts as a win.

    python benchmarks/results/paired_seats.py FIRST.txt SECOND.txt BOARD
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any


def games(path: Path) -> dict[int, dict[str, Any]]:
    """The run's games by seed (the JSON lines of its output)."""
    lines = path.read_text().splitlines()
    return {g["seed"]: g for g in (json.loads(line) for line in lines if line.startswith("{"))}


def sign_test(a: int, b: int) -> float:
    """Exact two-sided binomial p of a split a:b of discordant pairs under an even chance."""
    n = a + b
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(a, b) + 1)) / (1 << n)
    return min(1.0, 2 * tail)


def main() -> int:
    first, second, board = games(Path(sys.argv[1])), games(Path(sys.argv[2])), sys.argv[3]
    only_first = only_second = both = neither = 0
    for seed in sorted(first.keys() & second.keys()):
        g1, g2 = first[seed], second[seed]
        for seat, tags in enumerate(g1["tags"]):
            if tags[0] != board:
                continue
            if g2["tags"][seat][0] != board:
                msg = f"seed {seed}: the runs dealt different boards"
                raise SystemExit(msg)
            w1, w2 = seat in g1["winners"], seat in g2["winners"]
            both += w1 and w2
            neither += not w1 and not w2
            only_first += w1 and not w2
            only_second += w2 and not w1
    seats = both + neither + only_first + only_second
    print(f"{board}: {seats} seats in {len(first.keys() & second.keys())} common games")
    print(f"  won in both {both}, in neither {neither}, "
          f"only in the first run {only_first}, only in the second {only_second}")
    print(f"  wins: first run {both + only_first} of {seats}, second run {both + only_second} of {seats}")
    p = sign_test(only_first, only_second)
    print(f"  sign test on the discordant pairs ({only_first}:{only_second}): two-sided p = {p:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
