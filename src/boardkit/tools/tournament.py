"""Tournaments: agents play a ruleset in rotating seats; win rates, ratings and distributions.

Win rates carry 95% Wilson intervals; ratings are Bradley-Terry strengths on the Elo scale
(mean 0) with 95% bootstrap intervals, from every pair of seats held by different agents in a
finished game (a win over the other, or a draw when both or neither won). Games that did not
end by the rules (stalled, or cut at the move cap) count in the end reasons only.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import TYPE_CHECKING, Any

import attrs

from boardkit.tools.simulate import SimulationResult, simulate
from boardkit.tools.stats import distribution, rating_intervals, wilson

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from boardkit import Ruleset
    from boardkit.tools.simulate import GameRecord, ProgressCallback
    from boardkit.tools.stats import Pair


def run_tournament(rules: Ruleset, *, agents: Sequence[str], games: int, players: int, seed: int = 0,
                   jobs: int = 1, options: Mapping[str, Any] | None = None, max_moves: int = 20000,
                   stall: int | None = 200, by: Sequence[str] = (), backend: str = "local",
                   address: str | None = None, progress: ProgressCallback | None = None) -> Tournament:
    """Plays ``games`` games with the agents seated in turn (game i seats them from the i-th on).

    Raises:
        AgentError: an unknown agent or a bad budget, before any game is played.
        SimulationError: a game or an agent raised (with the game's seed and position).
    """
    result = simulate(rules, games=games, players=players, seed=seed, jobs=jobs, options=options,
                      max_moves=max_moves, progress=progress, agents=agents, rotate=True, stall=stall, by=by,
                      backend=backend, address=address)
    return Tournament(rules.title, tuple(dict.fromkeys(agents)), tuple(by), result)


def _rate(wins: float, n: float) -> dict[str, Any]:
    low, high = wilson(wins, n)
    return {"games": n, "wins": wins, "rate": wins / n if n else None, "low": low, "high": high}


@attrs.frozen
class Tournament:
    """A tournament's games and the figures drawn from them."""

    title: str
    agents: tuple[str, ...]
    by: tuple[str, ...]
    result: SimulationResult

    @property
    def finished(self) -> list[GameRecord]:
        """The games that ended by the rules."""
        return [r for r in self.result.records if not r.aborted]

    def by_agent(self) -> dict[str, dict[str, Any]]:
        """Each agent's seats played and won in finished games (a shared win split), with its interval."""
        played: Counter[str] = Counter()
        won: defaultdict[str, float] = defaultdict(float)
        for r in self.finished:
            for seat, spec in enumerate(r.agents):
                played[spec] += 1
                if seat in r.winners:
                    won[spec] += 1 / len(r.winners)
        return {a: _rate(won[a], played[a]) for a in self.agents}

    def by_seat(self) -> list[dict[str, Any]]:
        """Each seat's win rate over finished games."""
        done = self.finished
        return [_rate(sum(1 / len(r.winners) for r in done if seat in r.winners), len(done))
                for seat in range(self.result.players)]

    def first_player(self) -> dict[str, Any]:
        """How often the player of the first turn won."""
        done = [r for r in self.finished if r.first_player is not None]
        return _rate(sum(1 / len(r.winners) for r in done if r.first_player in r.winners), len(done))

    def by_tag(self) -> dict[str, dict[str, dict[str, Any]]]:
        """For each ``by`` name, the win rate of the seats by what it held."""
        out: dict[str, dict[str, dict[str, Any]]] = {}
        for k, name in enumerate(self.by):
            played: Counter[str] = Counter()
            won: defaultdict[str, float] = defaultdict(float)
            for r in self.finished:
                for seat, tags in enumerate(r.tags):
                    played[tags[k]] += 1
                    if seat in r.winners:
                        won[tags[k]] += 1 / len(r.winners)
            out[name] = {tag: _rate(won[tag], played[tag]) for tag in sorted(played)}
        return out

    def ratings(self) -> dict[str, dict[str, float]]:
        """Bradley-Terry ratings (Elo scale, mean 0) with 95% bootstrap intervals."""
        index = {a: i for i, a in enumerate(self.agents)}
        games: list[list[Pair]] = []
        for r in self.finished:
            pairs: list[Pair] = []
            for i in range(len(r.agents)):
                for j in range(i + 1, len(r.agents)):
                    a, b = r.agents[i], r.agents[j]
                    if a == b:
                        continue
                    wi, wj = i in r.winners, j in r.winners
                    pairs.append((index[a], index[b], 0.5 if wi == wj else float(wi)))
            games.append(pairs)
        if len(self.agents) < 2:  # noqa: PLR2004 - ratings compare two or more
            return {a: {"rating": 0.0, "low": 0.0, "high": 0.0} for a in self.agents}
        rated = rating_intervals(games, len(self.agents), seed=self.result.seed)
        return {a: {"rating": r, "low": lo, "high": hi} for a, (r, lo, hi) in zip(self.agents, rated, strict=True)}

    def scores(self) -> dict[str, Any]:
        """Final score distributions by agent and by seat (finished games)."""
        done = self.finished
        agents = {a: distribution([float(r.scores[s]) for r in done if r.scores for s, x in enumerate(r.agents)
                                   if x == a]) for a in self.agents}
        seats = [distribution([float(r.scores[s]) for r in done if r.scores]) for s in range(self.result.players)]
        return {"by_agent": agents, "by_seat": seats}

    def lengths(self) -> dict[str, Any]:
        """Turns and decisions per finished game."""
        done = self.finished
        return {"turns": distribution([float(r.turns) for r in done]),
                "decisions": distribution([float(r.decisions) for r in done])}

    def end_reasons(self) -> dict[str, int]:
        """How many games ended for each reason, stalled and aborted included."""
        return dict(Counter(r.end_reason for r in self.result.records).most_common())

    def to_dict(self) -> dict[str, Any]:
        """Everything as JSON-compatible data: the figures, then the games."""
        run = self.result
        return {"title": self.title, "ruleset": run.ruleset, "players": run.players, "seed": run.seed,
                "agents": list(self.agents), "games": len(run.records), "finished": len(self.finished),
                "by_agent": self.by_agent(), "by_seat": self.by_seat(), "first_player": self.first_player(),
                "by": self.by_tag(), "ratings": self.ratings(), "scores": self.scores(), "lengths": self.lengths(),
                "end_reasons": self.end_reasons(), "wall_seconds": run.wall_seconds,
                "records": [r.to_dict() for r in run.records]}

    def text(self) -> str:
        """The figures as a plain-text report."""
        return render_text(self.to_dict())


def _pct(rate: dict[str, Any]) -> str:
    if rate["rate"] is None:
        return "-"
    return f"{rate['rate']:6.1%} [{rate['low']:.1%}, {rate['high']:.1%}] of {rate['games']:g}"


def render_text(d: dict[str, Any]) -> str:
    """A tournament's figures (``Tournament.to_dict``) as plain text."""
    lines = [(f"{d['title']} ({d['ruleset']}), {d['players']} players, seed {d['seed']}: "
              f"{d['games']} games, {d['finished']} ended by the rules")]
    lines.append("win rate by agent (95% Wilson interval, seats played):")
    lines.extend(f"  {a:<16} {_pct(r)}" for a, r in d["by_agent"].items())
    lines.append("rating (Bradley-Terry, Elo scale, 95% bootstrap interval):")
    lines.extend(f"  {a:<16} {r['rating']:+7.0f} [{r['low']:+.0f}, {r['high']:+.0f}]" for a, r in d["ratings"].items())
    lines.append("win rate by seat:")
    lines.extend(f"  seat {s:<11} {_pct(r)}" for s, r in enumerate(d["by_seat"]))
    lines.append(f"first player wins: {_pct(d['first_player'])}")
    for name, tags in d["by"].items():
        lines.append(f"win rate by {name}:")
        lines.extend(f"  {t:<16} {_pct(r)}" for t, r in tags.items())
    lines.append("final score by agent (mean, median, 10%-90%):")
    for a, dist in d["scores"]["by_agent"].items():
        lines.append(f"  {a:<16} " + ("-" if dist is None else
                                      f"{dist['mean']:.1f}, {dist['median']:g}, {dist['p10']:g}-{dist['p90']:g}"))
    turns = d["lengths"]["turns"]
    if turns is not None:
        lines.append(f"turns per game: mean {turns['mean']:.1f}, median {turns['median']:g}, "
                     f"10%-90% {turns['p10']:g}-{turns['p90']:g}, max {turns['max']:g}")
    lines.append("end reasons: " + ", ".join(f"{k} {v} ({v / max(1, d['games']):.0%})"
                                              for k, v in d["end_reasons"].items()))
    return "\n".join(lines)
