"""What both adapters share: loading a ruleset with its spaces, and the rewards at the end."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardkit.adapters.actions import ActionSpace
from boardkit.adapters.encoding import Observation
from boardkit.errors import OptionError
from boardkit.registry import Ruleset, load_ruleset

if TYPE_CHECKING:
    from boardkit.game import Game

#: How rewards are worked out from a finished game (see `rewards`).
REWARDS = ("win", "score")


class Spaces:
    """A ruleset with its action space and observation layout, for one player count and options.

    Args:
        rules: a ruleset, or the name of a bundled one, or the path of a rule file.
        players: the player count (default: the fewest the game is for).
        options: the game options.
        levels: grid levels with planes of their own in the observation.
    """

    def __init__(self, rules: Ruleset | str, players: int | None = None, options: dict[str, Any] | None = None,
                 levels: int = 2) -> None:
        self.rules = rules if isinstance(rules, Ruleset) else load_ruleset(rules)
        self.players = self.rules.min_players if players is None else players
        self.options = self.rules.resolve_options(self.players, options)
        self.actions = ActionSpace(self.rules, self.players, self.options)
        self.observation = Observation(self.actions, levels)


def rewards(game: Game, kind: str) -> list[float]:
    """Each player's reward for a finished game; zeros for one still going (cut short).

    "win": 1 for a winner, -1 for the others, 0 for all when everyone wins.
    "score": the player's score less the mean score.
    """
    n = game.players
    if not game.is_over:
        return [0.0] * n
    if kind == "score":
        scores = game.scores()
        mean = sum(scores) / n
        return [s - mean for s in scores]
    winners = set(game.winners())
    if len(winners) == n:
        return [0.0] * n
    return [1.0 if p in winners else -1.0 for p in range(n)]


def check_reward(kind: str) -> None:
    """Raises OptionError for a reward kind that is not one of `REWARDS`."""
    if kind not in REWARDS:
        msg = f"reward must be one of {', '.join(map(repr, REWARDS))}, not {kind!r:.40}"
        raise OptionError(msg)
