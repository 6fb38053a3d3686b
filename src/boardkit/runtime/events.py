"""Typed events: every effect of the rules emits one, so a log can be replayed or shown."""

from __future__ import annotations

from typing import Any, TypeAlias

import attrs


@attrs.frozen
class Moved:
    """Pieces (by id) went from one zone to another."""

    pieces: tuple[int, ...]
    source: str
    dest: str


@attrs.frozen
class Shuffled:
    """A zone's pieces were put in a random order."""

    zone: str


@attrs.frozen
class Created:
    """New pieces (by id) were made in a zone."""

    pieces: tuple[int, ...]
    zone: str


@attrs.frozen
class VarSet:
    """A variable's new value.

    Pieces in it are named by id, `{"piece": 7}`, as every event names them (see `pieces.by_id`).
    """

    var: str
    value: Any


@attrs.frozen
class Chose:
    """A player's decision, by its label."""

    player: int
    label: str
    prompt: str


@attrs.frozen
class TurnStarted:
    """A player's turn began; `turn` numbers it among the game's turns, from 1."""

    player: int
    turn: int


@attrs.frozen
class TurnEnded:
    """A player's turn ended."""

    player: int


@attrs.frozen
class GameEnded:
    """The game ended, for this reason."""

    reason: str


@attrs.frozen
class Logged:
    """What a `log` statement wrote: its message, then the labels of its values."""

    message: str


@attrs.frozen
class Peeked:
    """A player now knows these hidden pieces (by id)."""

    pieces: tuple[int, ...]
    player: int


@attrs.frozen
class Revealed:
    """Every player now knows these pieces (by id)."""

    pieces: tuple[int, ...]


@attrs.frozen
class Placed:
    """A piece (by id) went onto cells of a grid zone, at a level (docs/reference/grid.md)."""

    piece: int
    source: str
    dest: str
    cells: tuple[str, ...]
    level: int


Event: TypeAlias = (Moved | Shuffled | Created | VarSet | Chose | TurnStarted | TurnEnded | GameEnded | Logged | Peeked
                    | Revealed | Placed)
