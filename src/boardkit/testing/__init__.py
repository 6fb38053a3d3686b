"""Property tests for any ruleset: invariants and the engine's guarantees, with shrunk traces.

`check_rules` is the one call a test file needs; `games` and `move_sequences` are Hypothesis
strategies for tests of one's own; `replay` steps through a trace or a saved game.
"""

from boardkit.testing.guarantees import Checks, GuaranteeError, Run, play_checked
from boardkit.testing.search import (
    GameStart,
    Report,
    RulesetTestError,
    check_rules,
    describe_failure,
    explore,
    game_starts,
    games,
    move_sequences,
)
from boardkit.testing.trace import Step, Trace, load_trace, replay

__all__ = [
    "Checks",
    "GameStart",
    "GuaranteeError",
    "Report",
    "RulesetTestError",
    "Run",
    "Step",
    "Trace",
    "check_rules",
    "describe_failure",
    "explore",
    "game_starts",
    "games",
    "load_trace",
    "move_sequences",
    "play_checked",
    "replay",
]
