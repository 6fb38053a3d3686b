"""Signatures of the rule language's built-in functions.

What the checker needs to validate a call without importing the runtime that implements it
(`runtime/builtins.py`).
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Signature:
    """How a built-in is called.

    Its arity, whether it reads the game state, whether its first argument is a grid zone,
    which argument (if any) is a per-cell key expression, and what it always returns when that
    is a list: LIST, or LISTS (a list of lists). The code generator reads `returns`.
    """

    low: int
    high: int
    needs_state: bool = False
    grid_zone_first: bool = False
    key_arg: int | None = None
    returns: str | None = None


LIST = "list"
LISTS = "lists"


def _sig(low: int, high: int | None = None, *, state: bool = False, returns: str | None = None) -> Signature:
    return Signature(low, low if high is None else high, state, returns=returns)


def _grid(low: int, high: int | None = None, key_arg: int | None = None, returns: str | None = None) -> Signature:
    return Signature(low, low if high is None else high, needs_state=True, grid_zone_first=True, key_arg=key_arg,
                     returns=returns)


SIGNATURES: dict[str, Signature] = {
    # Numbers and lists.
    "count": _sig(1, 2), "size": _sig(1), "sum": _sig(1), "min": _sig(1, 9), "max": _sig(1, 9), "abs": _sig(1),
    "distinct": _sig(1, returns=LIST), "sorted": _sig(1, returns=LIST), "empty": _sig(1), "any": _sig(1),
    "all": _sig(1), "concat": _sig(1, returns=LIST), "range": _sig(2, returns=LIST), "position": _sig(2),
    "first": _sig(1), "last": _sig(1), "rank": _sig(2, returns=LIST),
    "next": _sig(1, 2, state=True), "random": _sig(1, state=True),
    # Lists and tracks: docs/reference/tracks.md.
    "path": _sig(4, returns=LIST), "nth": _sig(2), "remove": _sig(2, returns=LIST), "subsets": _sig(3, returns=LISTS),
    # Ordering and naming values.
    "order": _sig(2, returns=LIST), "text": _sig(1),
    # Grids: docs/reference/grid.md. Cells are plain values; the rest take a grid zone first.
    "cell": _sig(2), "cell_x": _sig(1), "cell_y": _sig(1),
    "cells": _grid(1, 2, returns=LIST), "occupied": _grid(1, returns=LIST), "neighbours": _grid(2, returns=LIST),
    "stack": _grid(2, returns=LIST), "top": _grid(2), "level": _grid(2), "part": _grid(2),
    "tops": _grid(2, returns=LIST), "regions": _grid(1, 3, key_arg=2, returns=LISTS),
    "region": _grid(2, 4, key_arg=3, returns=LIST), "placements": _grid(2, 3, returns=LISTS),
    "joining": _grid(4, returns=LISTS),
}

# Names that read the state without arguments.
STATE_NAMES = ("players", "player_count")
