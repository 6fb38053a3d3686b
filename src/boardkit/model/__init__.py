"""The checked model of a ruleset: typed, frozen data that the compiler reads and nothing runs."""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable


def fields_getter(names: list[str]) -> Callable[[object], tuple[object, ...]]:
    """One C call from a node to the values of its fields `names`, as a tuple (walks of the model read them so)."""
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda node: (one(node),)
    if not names:
        return lambda _node: ()
    return attrgetter(*names)
