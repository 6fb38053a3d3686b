"""Traces: a game's start and its decisions, written when a check fails, replayed step by step.

A trace file is JSON: the ruleset (a bundled name or a path, with its name and fingerprint),
players, seed, options, the actions taken (indexes into `legal_actions()`) with their labels,
and the failure found. A game saved with `Game.to_json` replays the same way, by the labels of
its history. A trace or save of another ruleset is refused before its first decision; one of
the same ruleset since edited (another fingerprint) replays, to show where the edit leads.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from boardkit.errors import BoardkitError, OptionError, StateError
from boardkit.game import Game
from boardkit.io.serialize import fingerprint
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
    #: The ruleset's name and fingerprint when the trace was made (None in older traces).
    name: str | None = None
    fingerprint: str | None = None

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


def trace_of(rules: Ruleset, *, players: int, seed: int, options: dict[str, Any], actions: tuple[int, ...],
             labels: tuple[str, ...], failure: str | None = None) -> Trace:
    """The trace of a game of `rules`, naming the ruleset with its fingerprint."""
    return Trace(ruleset_ref(rules), players, seed, options, actions, labels, failure,
                 name=rules.name, fingerprint=fingerprint(rules))


def _whole(doc: dict[str, Any], key: str) -> int:
    value = doc[key]
    if not isinstance(value, int) or isinstance(value, bool):
        msg = f"{key!r} is a whole number, not {value!r:.40}"
        raise TypeError(msg)
    return value


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def load_trace(path: str | Path, rules: Ruleset | None = None) -> Trace:
    """Reads a trace file, or a game saved with `Game.to_json` (replayed by its history's labels).

    Raises:
        StateError: the file is neither, or is damaged, or belongs to a ruleset other than `rules`.
    """
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:  # ValueError: JSON, or a 5000-digit number
        msg = f"{str(path)!r} is not a trace or a saved game: {str(exc)[:200]}"
        raise StateError(msg) from None
    if not isinstance(doc, dict):
        msg = f"{str(path)!r} is not a trace or a saved game"
        raise StateError(msg)
    try:
        if doc.get("format") == TRACE_FORMAT:
            trace = Trace(str(doc["ruleset"]), _whole(doc, "players"), _whole(doc, "seed"), dict(doc["options"]),
                          tuple(_whole({"action": a}, "action") for a in doc["actions"]),
                          tuple(str(x) for x in doc["labels"]), _text(doc.get("failure")), doc.get("position"),
                          _text(doc.get("name")), _text(doc.get("fingerprint")))
        elif "format_version" in doc and "history" in doc:
            name = rules.source_path or rules.name if rules is not None else str(doc["ruleset"])
            trace = Trace(name, _whole(doc, "players"), _whole(doc, "seed"), dict(doc["options"] or {}), (),
                          tuple(str(x) for x in doc["history"]), None, doc.get("position"),
                          str(doc["ruleset"]), _text(doc.get("fingerprint")))
        else:
            msg = f"{str(path)!r} is not a trace or a saved game"
            raise StateError(msg)
    except (KeyError, TypeError, ValueError, OverflowError) as exc:
        msg = f"{str(path)!r} is a damaged trace: {exc!r:.80}"
        raise StateError(msg) from None
    if rules is not None:
        check_ruleset(trace, rules)
    return trace


def check_ruleset(trace: Trace, rules: Ruleset) -> None:
    """Refuses a trace made with another ruleset than `rules` (by name; an edited one is let through).

    Raises:
        StateError: the trace names another ruleset.
    """
    name = trace.name if trace.name is not None else _name_of(trace.ruleset, rules)
    if name != rules.name:
        msg = (f"the trace belongs to ruleset {name!r} ({trace.fingerprint or 'fingerprint not recorded'}), "
               f"not {rules.name!r} ({fingerprint(rules)})")
        raise StateError(msg)


def _name_of(ref: str, rules: Ruleset) -> str:
    """The name of the ruleset an older trace refers to (`rules.name` when it cannot be loaded)."""
    if ref in {rules.name, rules.source_path}:
        return rules.name
    try:
        return load_ruleset(ref).name
    except (BoardkitError, OSError):  # moved or gone: the labels will tell
        return rules.name


def replay(trace: Trace, rules: Ruleset | None = None, *, check_invariants: bool = True) -> Iterator[Step]:
    """Plays a trace again, yielding each decision with the game after it.

    The game of the trace's start is made at once, so a trace of another ruleset or with a start
    the rules refuse fails here, before any decision. It is checked as it goes
    (`check_invariants`), so a failure the trace records is raised again at the decision that
    causes it.

    Raises:
        StateError: a trace of another ruleset, or a start the rules refuse (players, options,
            position), or a decision after the game ended.
        IllegalMove: a decision of the trace is not offered (the rules changed since).
        InvariantError, RuleRuntimeError: as the original game raised them.
    """
    rules = rules if rules is not None else load_ruleset(trace.ruleset)
    check_ruleset(trace, rules)
    try:
        game = rules.new_game(players=trace.players, seed=trace.seed, options=trace.options, position=trace.position,
                              check_invariants=check_invariants)
    except (OptionError, StateError) as exc:
        msg = f"the trace's start is not a game of {rules.name!r}: {exc}"
        raise StateError(msg) from None
    return _steps(trace, game)


def _steps(trace: Trace, game: Game) -> Iterator[Step]:
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
