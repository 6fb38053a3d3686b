"""`Move`, one option of a pending decision, and the moves a decision offers.

Its own module so that the compiled build can make `Move` a native class: `legal_moves`
builds one per option, and an attrs frozen class pays a generic attribute set for each field
(about 5,000 instructions a move), where a native constructor stores the fields directly.
"""

from __future__ import annotations

import copy
import operator
from itertools import repeat
from typing import Any, ClassVar, Final, SupportsIndex, final

from attrs.exceptions import FrozenInstanceError


@final
class Move:
    """One option of the pending decision. `label` is unique among the legal moves.

    A move remembers the decision it was offered at: `play` refuses it at another decision,
    in another game, or for another player. Moves compare by label and player, and cannot be
    changed. `player` may be any integer (a numpy one too); it is kept as an `int`.
    """

    __slots__: ClassVar = ("label", "offered_at", "option", "player")
    __match_args__: ClassVar = ("label", "player", "option", "offered_at")

    label: str
    player: int
    option: Any
    offered_at: object

    def __init__(self, label: str, player: SupportsIndex, option: Any = None, offered_at: object = None) -> None:  # noqa: ANN401 - any option value
        if not isinstance(label, str):  # the compiled build checks it on the way in
            msg = f"a move's label is a text, not {type(label).__name__}"
            raise TypeError(msg)
        # object.__setattr__: compiled, a direct store; pure, past the refusal below.
        object.__setattr__(self, "label", label)
        object.__setattr__(self, "player", player if type(player) is int else operator.index(player))
        object.__setattr__(self, "option", option)
        object.__setattr__(self, "offered_at", offered_at)

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError

    def __eq__(self, other: object) -> bool:
        if type(other) is not Move:
            return NotImplemented
        return self.label == other.label and self.player == other.player

    def __hash__(self) -> int:
        return hash((_SALT, self.label, self.player))

    def __repr__(self) -> str:
        return f"Move(label={self.label!r}, player={self.player!r})"

    def __str__(self) -> str:
        return self.label

    def __copy__(self) -> Move:
        return self  # unchangeable: a copy would be the same move

    def __deepcopy__(self, memo: dict[int, object]) -> Move:
        # A deep copy of a game offers its moves at its own copy of the decision.
        return Move(self.label, self.player, copy.deepcopy(self.option, memo), copy.deepcopy(self.offered_at, memo))

    def __reduce__(self) -> tuple[type[Move], tuple[str, int]]:
        # A move from another process is matched like one made by hand: by label and player.
        return Move, (self.label, self.player)


# Keeps a move's hash apart from its (label, player) tuple's.
_SALT: Final = "boardkit.Move"

# Whether `Move` is compiled: `Move(...)` is then a direct constructor. Pure Python pays a call
# for each `object.__setattr__` in `__init__`, so it fills new moves' slots itself.
_NATIVE: Final = not hasattr(Move.__init__, "__code__")
_set_label, _set_player, _set_option, _set_point = (
    getattr(Move, name).__set__ for name in ("label", "player", "option", "offered_at"))


def offered(labels: list[str], player: int, options: list[Any], point: object) -> list[Move]:
    """The moves of a decision: one per option, with its label, all offered at `point`."""
    if _NATIVE:
        return [Move(labels[i], player, options[i], point) for i in range(len(labels))]
    return list(map(_filled, labels, repeat(player), options, repeat(point)))


def _filled(label: str, player: int, option: Any, point: object) -> Move:  # noqa: ANN401 - any option value
    move: Move = object.__new__(Move)
    _set_label(move, label)
    _set_player(move, player)
    _set_option(move, option)
    _set_point(move, point)
    return move
