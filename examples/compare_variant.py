"""Comparing a variant's balance against its base with simulate.

Plays the published Mandala and its seed-text variant with random agents and prints, side by
side, game length, the first seat's win rate and how games end. Run:
python examples/compare_variant.py [games]
"""

from __future__ import annotations

import sys

import boardkit
from boardkit.tools.simulate import simulate


def main(games: int = 40) -> None:
    for name in ("mandala", "mandala_seed"):
        result = simulate(boardkit.load_ruleset(name), games=games, players=2, seed=1)
        s = result.summary
        reasons = ", ".join(f"{reason}: {n}" for reason, n in s.end_reasons.items())
        print(f"{name:14} turns/game {s.mean_turns:6.1f}  seat 0 wins {s.win_rates[0]:.0%}  "
              f"mean scores {', '.join(f'{x:.1f}' for x in s.mean_scores)}  ({reasons})")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
