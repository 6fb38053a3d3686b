"""Win rate of each board over its seats, from the JSON lines of a `bench_agents.py` run.

The counting of `bench_agents.py --by board` (a shared win counts as a fraction; the winners are
those each game's line names) and the 95% Wilson interval, for a run stopped before its summary
was printed: only the games it finished are counted. On a finished run it prints the summary's
figures.

    python benchmarks/results/board_rates.py RUN.txt [RUN.txt ...]
"""

from __future__ import annotations

import collections
import json
import sys
from pathlib import Path

from boardkit.tools.stats import wilson


def main() -> int:
    for name in sys.argv[1:]:
        wins: collections.Counter[str] = collections.Counter()
        seats: collections.Counter[str] = collections.Counter()
        ends: collections.Counter[str] = collections.Counter()
        for line in Path(name).read_text().splitlines():
            if not line.startswith("{"):
                continue
            game = json.loads(line)
            ends[game["end_reason"]] += 1
            winners = game["winners"]
            for seat, tags in enumerate(game["tags"]):
                board = tags[0]
                seats[board] += 1
                if seat in winners:
                    wins[board] += 1 / len(winners)
        print(f"{name}: {sum(ends.values())} games; end reasons {dict(ends)}")
        for board in sorted(seats):
            low, high = wilson(wins[board], seats[board])
            print(f"  {board:10} {100 * wins[board] / seats[board]:5.1f}% [{100 * low:.1f}, {100 * high:.1f}] "
                  f"of {seats[board]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
