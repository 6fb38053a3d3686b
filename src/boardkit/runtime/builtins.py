"""Built-in functions of the rule language: general vocabulary, never a game's special case.

Each entry maps a DSL name to its implementation; its signature (arity, whether it needs the
state) is in model/signatures.py. Functions that need the state (the player count, the seeded
RNG) receive it as their first argument.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from boardkit.errors import Horizon
from boardkit.runtime.grid import GRID_BUILTINS
from boardkit.runtime.listops import LIST_BUILTINS, LIST_LIMIT
from boardkit.runtime.ordering import ORDER_BUILTINS
from boardkit.runtime.pieces import Piece

if TYPE_CHECKING:
    from collections.abc import Callable

    from boardkit.runtime.state import State
    from boardkit.runtime.work import Value

# Arguments are rule values, typed `Value`: rules may pass anything, and each function fails
# on a wrong one as plain Python does (the compiled build checks no narrower type first).


# Up to this many items, `distinct` compares each with those kept: cheaper than a dict for the
# short lists rules pass (a hand's colours), and the same result (equal items are one).
_SHORT: Final = 16


def _distinct(xs: Value) -> list[Value]:
    if type(xs) is list and len(xs) <= _SHORT:
        return _kept(xs)
    try:
        return list(dict.fromkeys(xs))
    except TypeError:  # unhashable items, such as lists
        return _kept(xs)


def _kept(xs: Value) -> list[Value]:
    seen: list[Value] = []
    for x in xs:
        if x not in seen:
            seen.append(x)
    return seen


def _range(low: Value, high: Value) -> list[int]:
    """Both ends included, as in '1 to 3 cards'."""
    if high - low >= LIST_LIMIT:
        msg = f"range({low}, {high}) would hold more than {LIST_LIMIT} numbers"
        raise ValueError(msg)
    if type(low) is int and type(high) is int:  # compiled, a loop of its own, not a call of range()
        first: int = low
        last: int = high
        return [i for i in range(first, last + 1)]  # noqa: C416 - see above
    return list(range(low, high + 1))


def _position(xs: Value, x: Value) -> int:
    """1-based position of x in xs, 0 when absent."""
    try:
        i: int = xs.index(x)
    except ValueError:
        return 0
    return i + 1


def _concat(lists: Value) -> list[Value]:
    out: list[Value] = []
    for xs in lists:
        if type(xs) is list:  # a list's items are copied at once; an iterator's one by one
            out.extend(xs)
        else:
            out.extend(iter(xs))  # iter: Python's own message for a value that is no list, in both builds
    return out


def _next(state: State, p: Value, k: Value = 1) -> Value:
    return (p + k) % state.nplayers


def _random(state: State, xs: Value) -> Value:
    if state.probing is not None:
        raise Horizon
    if not xs:
        msg = "random() of an empty list"
        raise ValueError(msg)
    return xs[state.rng.randrange(len(xs))]


def _sorted(xs: Value) -> list[Value]:
    return sorted(xs, key=lambda x: x.id if isinstance(x, Piece) else x)


def _count(xs: Value, value: Value = None) -> int:
    return len(xs) if value is None else xs.count(value)


def _first(xs: Value) -> Value:
    return xs[0]


def _last(xs: Value) -> Value:
    return xs[-1]


def _rank(_xs: Value, keys: Value) -> list[int]:
    """Competition ranks (1 is best, ties share a rank) of xs by keys, higher key better."""
    return [1 + sum(1 for k in keys if k > key) for key in keys]


BUILTINS: dict[str, Callable[..., Any]] = {
    "count": _count,
    "size": len,
    "sum": sum,
    "min": min,  # of a list, or of values
    "max": max,
    "abs": abs,
    "distinct": _distinct,
    "sorted": _sorted,
    "empty": lambda xs: not xs,
    "any": any,
    "all": all,
    "concat": _concat,
    "range": _range,
    "position": _position,
    "first": _first,
    "last": _last,
    "rank": _rank,
    "next": _next,
    "random": _random,
}
# Lists and tracks (path, nth, remove, subsets): docs/reference/tracks.md.
BUILTINS.update(LIST_BUILTINS)
# Ordering and naming values (order, text): see boardkit/ordering.py.
BUILTINS.update(ORDER_BUILTINS)
# Grids: cells, neighbours, stacks, levels, regions, placements: docs/reference/grid.md.
BUILTINS.update(GRID_BUILTINS)
