"""boardkit: run board games from declarative rule files."""

from boardkit._version import __version__
from boardkit.errors import (
    AgentError,
    BoardkitError,
    IllegalMove,
    InvariantError,
    OptionError,
    RuleError,
    RuleRuntimeError,
    StateError,
)
from boardkit.game import Game, Outcome
from boardkit.move import Move
from boardkit.registry import Option, Ruleset, list_rulesets, load_ruleset, parse_ruleset

__all__ = [
    "AgentError",
    "BoardkitError",
    "Game",
    "IllegalMove",
    "InvariantError",
    "Move",
    "Option",
    "OptionError",
    "Outcome",
    "RuleError",
    "RuleRuntimeError",
    "Ruleset",
    "StateError",
    "__version__",
    "list_rulesets",
    "load_ruleset",
    "parse_ruleset",
]
