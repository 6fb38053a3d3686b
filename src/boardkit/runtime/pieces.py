"""Pieces: the physical components of a game, created by setup and never destroyed."""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr


def label_of(value: object) -> str:
    """A value as players read it: pieces by label, yes/no, none, lists joined by '+'.

    Texts and pieces, the commonest, are tested first: options' labels are made at every decision.
    """
    if type(value) is str:
        return value
    if isinstance(value, Piece):
        return value.label
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, (list, tuple)):
        return "+".join([v if type(v) is str else label_of(v) for v in value])
    return str(value)


def by_id(value: object) -> object:
    """Returns a value with its pieces named by id, `{"piece": 7}`: plain data, for events and saves."""
    if isinstance(value, Piece):
        return {"piece": value.id}
    if isinstance(value, (list, tuple)):
        return [by_id(v) for v in value]
    return value


# A plain Python class in the compiled build too: generated code reads `attrs` and `label` at
# every step, which CPython reads fastest from a plain class's slots.
@mypyc_attr(native_class=False)
class Piece:
    """One component. Identity is its `id`; its attributes never change."""

    __slots__ = ("attrs", "id", "label", "type")

    def __init__(self, piece_id: int, type_name: str, attrs: dict[str, Any], label: str) -> None:
        self.id = piece_id
        self.type = type_name
        self.attrs = attrs
        self.label = label

    def __repr__(self) -> str:
        return f"<{self.type} {self.label} #{self.id}>"

    def public(self) -> dict[str, Any]:
        """Returns what anyone who sees the piece knows of it."""
        return {"type": self.type, "label": self.label, **self.attrs}
