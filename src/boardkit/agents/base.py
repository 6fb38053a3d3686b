"""The agent protocol, the random agent, and agents made from a spec such as ``mcts:400``."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from boardkit.errors import AgentError

if TYPE_CHECKING:
    from boardkit.game import Game

AgentFactory = Callable[[str | None, int], "Agent"]
"""Makes an agent from the budget part of a spec (``"400"`` of ``mcts:400``, or None) and a seed."""


@runtime_checkable
class Agent(Protocol):
    """Chooses a move for whoever decides now.

    ``act`` returns an index for ``game.apply_action``. It may clone the game to search, but
    never changes the game it is given, and reads only what ``game.to_move`` may know.
    """

    name: str

    def act(self, game: Game) -> int:
        """The index of the chosen action in ``game.legal_actions()``."""
        ...


class RandomAgent:
    """Picks uniformly among the legal actions: the baseline every other agent is measured against."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)  # noqa: S311 - an opponent, not a secret

    def act(self, game: Game) -> int:
        """A uniform index; ``randrange(n)`` draws what ``choice`` over n moves would, so records replay."""
        return self._rng.randrange(len(game.legal_actions()))


_FACTORIES: dict[str, AgentFactory] = {}


def register_agent(name: str, factory: AgentFactory) -> AgentFactory | None:
    """Makes ``name`` (and ``name:budget``) a spec that ``make_agent`` understands; gives the factory it replaces.

    A caller may wrap an agent kind this way, e.g. to keep the agents a run makes.
    """
    replaced = _FACTORIES.get(name)
    _FACTORIES[name] = factory
    return replaced


def agent_names() -> list[str]:
    """The agent names a spec may use, sorted."""
    return sorted(_FACTORIES)


def make_agent(spec: str, seed: int = 0) -> Agent:
    """Makes an agent from a spec such as ``random`` or ``mcts:400``.

    Raises:
        AgentError: an unknown name (the message lists the known ones) or a bad budget.
    """
    name, _, budget = spec.strip().partition(":")
    factory = _FACTORIES.get(name)
    if factory is None:
        msg = f"unknown agent {spec!r}; agents: {', '.join(agent_names())}"
        raise AgentError(msg)
    return factory(budget or None, seed)


def _random(budget: str | None, seed: int) -> Agent:
    if budget is not None:
        msg = f"the random agent takes no budget, got 'random:{budget}'"
        raise AgentError(msg)
    return RandomAgent(seed)


register_agent("random", _random)
