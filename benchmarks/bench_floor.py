"""What one decision costs the engine when the rules ask almost nothing: the per-decision floor.

A two-player game whose every turn is one choice from three numbers added to a variable is
played at random through `legal_actions`/`apply_action` and through `legal_moves`/`play`, and
the same loop is run in plain Python (a list of three numbers, a random pick, an addition)
for scale. Whatever a ruleset's own rules cost comes on top of this floor, so it is the part of
every game's time that the engine's API, decision path and procedure runner own. Runs are
interleaved --repeat times; medians of decisions per second are reported.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchutil as bu

import boardkit

RULES = """
game "Floor"
players 2
var n = 0
play {
  let p = 0
  loop {
    turn p {
      choose x from [1, 2, 3] prompt "x"
      set n += x
    }
    set p = next(p)
  }
}
score p = n
"""


def engine(decisions: int, *, fast: bool) -> float:
    """Decisions per second of the engine through one path (a game that never ends, cut)."""
    game = boardkit.parse_ruleset(RULES, filename="floor.bk").new_game(players=2, seed=1)
    rng = random.Random(1)
    t0 = time.perf_counter()
    if fast:
        for _ in range(decisions):
            game.apply_action(rng.randrange(len(game.legal_actions())))
    else:
        for _ in range(decisions):
            game.play(rng.choice(game.legal_moves()))
    return decisions / (time.perf_counter() - t0)


def plain(decisions: int) -> float:
    """Decisions per second of the same turns in plain Python."""
    rng = random.Random(1)
    n, p = 0, 0
    t0 = time.perf_counter()
    for _ in range(decisions):
        options = [1, 2, 3]
        n += options[rng.randrange(len(options))]
        p = (p + 1) % 2
    return decisions / (time.perf_counter() - t0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=20_000, help="decisions per run (default 20,000)")
    parser.add_argument("--repeat", type=int, default=5, help="interleaved runs of each (default 5)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)

    runs: dict[str, list[float]] = {"fast path": [], "moves": [], "plain Python": []}
    for r in range(args.repeat):
        runs["fast path"].append(engine(args.decisions, fast=True))
        runs["moves"].append(engine(args.decisions, fast=False))
        runs["plain Python"].append(plain(args.decisions))
        bu.note(f"round {r + 1}/{args.repeat} done", args.json)
    plain_median = bu.median(runs["plain Python"]) or 1.0
    rows = [{"path": path, "decisions_per_s": bu.median(values),
             "microseconds_per_decision": 1e6 / (bu.median(values) or 1.0),
             "of_plain_python": (bu.median(values) or 0.0) / plain_median}
            for path, values in runs.items()]
    if args.json:
        bu.dump_json({"provenance": bu.provenance(), "decisions": args.decisions, "repeat": args.repeat,
                       "results": rows})
        return 0
    bu.print_table(f"The per-decision floor: {args.decisions:,} decisions x {args.repeat} interleaved runs",
                   ["path", "decisions/s median", "µs a decision", "of plain Python"],
                   [[row["path"], bu.fmt(row["decisions_per_s"]), bu.fmt(row["microseconds_per_decision"], ".2f"),
                     bu.fmt(row["of_plain_python"], ".4f")] for row in rows])
    return 0


if __name__ == "__main__":
    sys.exit(main())
