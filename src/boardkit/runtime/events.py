"""Typed events: every effect of the rules emits one, so a log can be replayed or shown."""

from __future__ import annotations

from typing import Any, Union

import attrs

event = attrs.frozen(slots=True)


@event
class Moved:
    """Pieces (by id) went from one zone to another."""

    pieces: tuple[int, ...]
    source: str
    dest: str


@event
class Shuffled:
    zone: str


@event
class Created:
    pieces: tuple[int, ...]
    zone: str


@event
class VarSet:
    """A variable's new value; pieces in it are named by id, `{"piece": 7}`, as every event
    names them (see `pieces.by_id`)."""

    var: str
    value: Any


@event
class Chose:
    """A player's decision, by its label."""

    player: int
    label: str
    prompt: str


@event
class TurnStarted:
    player: int
    turn: int


@event
class TurnEnded:
    player: int


@event
class GameEnded:
    reason: str


@event
class Logged:
    message: str


@event
class Peeked:
    """A player now knows these hidden pieces (by id)."""

    pieces: tuple[int, ...]
    player: int


@event
class Revealed:
    """Every player now knows these pieces (by id)."""

    pieces: tuple[int, ...]


@event
class Placed:
    """A piece (by id) went onto cells of a grid zone, at a level (docs/reference/grid.md)."""

    piece: int
    source: str
    dest: str
    cells: tuple[str, ...]
    level: int


Event = Union[Moved, Shuffled, Created, VarSet, Chose, TurnStarted, TurnEnded, GameEnded, Logged, Peeked, Revealed,
              Placed]
