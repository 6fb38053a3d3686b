"""Comparing two rulesets (a game and its variant) played by the same agents from the same seeds.

Each figure is given for both with the difference (variant minus base) and its 95% interval:
Newcombe's for proportions, Welch's (normal approximation) for means. A difference is called
significant when its interval leaves out zero.
"""

from __future__ import annotations

import statistics
from typing import TYPE_CHECKING, Any

from boardkit.tools.stats import mean_difference, proportion_difference
from boardkit.tools.tournament import run_tournament

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from boardkit import Ruleset
    from boardkit.tools.simulate import GameRecord
    from boardkit.tools.tournament import Tournament


def compare_rulesets(base: Ruleset, variant: Ruleset, *, agents: Sequence[str], games: int, players: int,
                     seed: int = 0, jobs: int = 1, options: Mapping[str, Any] | None = None,
                     max_moves: int = 20000, stall: int | None = 200, backend: str = "local",
                     address: str | None = None) -> dict[str, Any]:
    """Plays both rulesets with the same settings and returns the figures and their differences."""
    runs = [run_tournament(rules, agents=agents, games=games, players=players, seed=seed, jobs=jobs, options=options,
                           max_moves=max_moves, stall=stall, backend=backend, address=address)
            for rules in (base, variant)]
    return differences(*runs)


def _proportion(name: str, a: tuple[float, float], b: tuple[float, float]) -> dict[str, Any]:
    d, low, high = proportion_difference(a[0], a[1], b[0], b[1])
    return {"measure": name, "base": a[0] / a[1] if a[1] else None, "variant": b[0] / b[1] if b[1] else None,
            "difference": d, "low": low, "high": high, "significant": low > 0 or high < 0}


def _mean(name: str, a: list[float], b: list[float]) -> dict[str, Any]:
    d, low, high = mean_difference(a, b)
    return {"measure": name, "base": statistics.fmean(a) if a else None,
            "variant": statistics.fmean(b) if b else None, "difference": d, "low": low, "high": high,
            "significant": low > 0 or high < 0}


def _first_wins(done: list[GameRecord]) -> tuple[float, float]:
    known = [r for r in done if r.first_player is not None]
    return (sum(1 / len(r.winners) for r in known if r.first_player in r.winners), float(len(known)))


def differences(base: Tournament, variant: Tournament) -> dict[str, Any]:
    """The figures of two tournaments side by side, with the differences and their intervals."""
    a, b = base.finished, variant.finished
    rows = [
        _proportion("first player wins", _first_wins(a), _first_wins(b)),
        _mean("turns per game", [float(r.turns) for r in a], [float(r.turns) for r in b]),
        _mean("decisions per game", [float(r.decisions) for r in a], [float(r.decisions) for r in b]),
        _proportion("games ended by the rules", (float(len(a)), float(len(base.result.records))),
                    (float(len(b)), float(len(variant.result.records)))),
    ]
    for seat in range(base.result.players):
        rows.append(_proportion(f"seat {seat} wins", (sum(1 / len(r.winners) for r in a if seat in r.winners),
                                                      float(len(a))),
                                (sum(1 / len(r.winners) for r in b if seat in r.winners), float(len(b)))))
        rows.append(_mean(f"seat {seat} score", [float(r.scores[seat]) for r in a if r.scores],
                          [float(r.scores[seat]) for r in b if r.scores]))
    return {"base": base.result.ruleset, "variant": variant.result.ruleset, "players": base.result.players,
            "agents": list(base.agents), "games": len(base.result.records), "seed": base.result.seed,
            "rows": rows, "end_reasons": {"base": base.end_reasons(), "variant": variant.end_reasons()}}


def render_comparison(d: dict[str, Any]) -> str:
    """A comparison as plain text: one line per measure, significant differences marked."""
    lines = [(f"{d['variant']} against {d['base']}: {d['games']} games each, {d['players']} players, "
              f"agents {', '.join(d['agents'])}, seed {d['seed']}"),
             f"{'measure':<26}{'base':>10}{'variant':>10}{'difference [95% interval]':>36}"]

    def show(x: float | None) -> str:
        return "-" if x is None else f"{x:.3g}"

    for row in d["rows"]:
        mark = "  significant" if row["significant"] else ""
        interval = f"{row['difference']:+.3g} [{row['low']:+.3g}, {row['high']:+.3g}]"
        lines.append(f"{row['measure']:<26}{show(row['base']):>10}{show(row['variant']):>10}{interval:>36}{mark}")
    for side in ("base", "variant"):
        reasons = d["end_reasons"][side]
        lines.append(f"end reasons ({side}): " + ", ".join(f"{k} {v}" for k, v in reasons.items()))
    return "\n".join(lines)
