"""Traces: a game's start and its decisions, written when a check fails, replayed step by step.

A trace file is JSON: the ruleset (a bundled name or a path), players, seed, options, the
actions taken (indexes into `legal_actions()`) with their labels, and the failure found. A
game saved with `Game.to_json` replays the same way, by the labels of its history.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from boardkit.errors import StateError
from boardkit.game import Game
from boardkit.registry import list_rulesets, load_ruleset

if TYPE_CHECKING:
    from collections.abc import Iterator

    from boardkit.registry import Ruleset

TRACE_FORMAT = "boardkit-trace"
TRACE_VERSION = 1


@attrs.frozen
class Trace:
    """A game's start and decisions, with the failure they led to (None for a saved game)."""

    ruleset: str
    players: int
    seed: int
    options: dict[str, Any]
    actions: tuple[int, ...]
    labels: tuple[str, ...]
    failure: str | None = None
    position: dict[str, Any] | None = None

    def to_json(self) -> str:
        """The trace as the JSON of a trace file."""
        doc = {"format": TRACE_FORMAT, "version": TRACE_VERSION, **attrs.asdict(self)}
        doc["actions"], doc["labels"] = list(self.actions), list(self.labels)
        return json.dumps(doc, indent=1)

    def save(self, path: str | Path) -> None:
        """Writes the trace file."""
        Path(path).write_text(self.to_json() + "\n", encoding="utf-8")


@attrs.frozen
class Step:
    """One decision of a replay: its number (from 1), who made it, the label, and the game after it."""

    number: int
    player: int
    label: str
    game: Game


def ruleset_ref(rules: Ruleset) -> str:
    """How a trace names a ruleset: its bundled name, or the path of its file."""
    path = rules.source_path
    if path is not None and rules.name in list_rulesets() and load_ruleset(rules.name).source_path == path:
        return rules.name
    return path or rules.source_filename


def load_trace(path: str | Path, rules: Ruleset | None = None) -> Trace:
    """Reads a trace file, or a game saved with `Game.to_json` (replayed by its history's labels).

    Raises:
        StateError: the file is neither, or is damaged.
    """
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        msg = f"{str(path)!r} is not a trace or a saved game: {exc}"
        raise StateError(msg) from None
    if not isinstance(doc, dict):
        msg = f"{str(path)!r} is not a trace or a saved game"
        raise StateError(msg)
    try:
        if doc.get("format") == TRACE_FORMAT:
            return Trace(str(doc["ruleset"]), int(doc["players"]), int(doc["seed"]), dict(doc["options"]),
                         tuple(int(a) for a in doc["actions"]), tuple(str(x) for x in doc["labels"]),
                         doc.get("failure"), doc.get("position"))
        if "format_version" in doc and "history" in doc:
            name = rules.source_path or rules.name if rules is not None else str(doc["ruleset"])
            return Trace(name, int(doc["players"]), int(doc["seed"]), dict(doc["options"] or {}), (),
                         tuple(str(x) for x in doc["history"]), None, doc.get("position"))
    except (KeyError, TypeError, ValueError) as exc:
        msg = f"{str(path)!r} is a damaged trace: {exc!r:.80}"
        raise StateError(msg) from None
    msg = f"{str(path)!r} is not a trace or a saved game"
    raise StateError(msg)


def replay(trace: Trace, rules: Ruleset | None = None, *, check_invariants: bool = True) -> Iterator[Step]:
    """Plays a trace again, yielding each decision with the game after it.

    The game of the trace's start is checked as it goes (`check_invariants`), so a failure
    the trace records is raised again at the decision that causes it.

    Raises:
        IllegalMove: a decision of the trace is not offered (the rules changed since).
        InvariantError, RuleRuntimeError: as the original game raised them.
    """
    rules = rules if rules is not None else load_ruleset(trace.ruleset)
    game = rules.new_game(players=trace.players, seed=trace.seed, options=trace.options, position=trace.position,
                          check_invariants=check_invariants)
    for n, label in enumerate(trace.labels, 1):
        player = game.to_move
        if player is None:
            msg = f"decision {n} of the trace, {label!r}, comes after the game ended"
            raise StateError(msg)
        if n <= len(trace.actions):
            game.apply_action(trace.actions[n - 1])
            if game.history[-1] != label:
                msg = f"decision {n} of the trace was {label!r}; the rules now call it {game.history[-1]!r}"
                raise StateError(msg)
        else:
            game.play(label)
        yield Step(n, player, label, game)
