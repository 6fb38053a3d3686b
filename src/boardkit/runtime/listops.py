"""Built-ins over lists and tracks: general vocabulary merged into `builtins.BUILTINS`.

A *track* is any list whose order is a route: an enum, or a list constant.
`path` walks it, stepping over spaces a rule says to skip; the rules then check what the
walk crosses and where it ends. Nothing here knows a game.
"""

from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from collections.abc import Callable

    from boardkit.runtime.work import Value

# Arguments are rule values, typed `Value`, as in runtime/builtins.py.

# The most items a list builtin may build: rules never need more, and a bound keeps a
# mistaken rule from exhausting memory instead of failing with a located error.
LIST_LIMIT: Final = 100_000


def _path(track: Value, start: Value, steps: Value, skip: Value) -> list[Value]:
    """Returns the next `abs(steps)` spaces of `track` after `start`, not counting those in `skip`.

    Positive steps walk towards the end of the track, negative ones towards its start. The
    result is shorter than `abs(steps)` when the track ends first, and empty for 0 steps.

    >>> _path(["a", "b", "c", "d", "e"], "a", 2, ["b"])
    ['c', 'd']
    >>> _path(["a", "b", "c"], "c", -5, [])
    ['b', 'a']
    """
    items: Value = list(track)  # Value: the compiled build fails on a start off the track as Python does
    i = items.index(start)
    d = 1 if steps > 0 else -1
    out: list[Value] = []
    j = i + d
    while len(out) < abs(steps) and 0 <= j < len(track):
        if track[j] not in skip:
            out.append(track[j])
        j += d
    return out


def _nth(xs: Value, i: Value) -> Value:
    """Returns the i-th item of xs, counting from 1 as `position` does.

    >>> _nth(["a", "b"], 2)
    'b'
    """
    if not 1 <= i <= len(xs):
        msg = f"nth(): position {i} is outside a list of {len(xs)}"
        raise IndexError(msg)
    return xs[i - 1]


def _remove(xs: Value, x: Value) -> list[Value]:
    """Returns a copy of xs without its first occurrence of x (an error if x is absent).

    >>> _remove([[1], [1], [2]], [1])
    [[1], [2]]
    """
    out = list(xs)
    out.remove(x)
    return out


def _subsets(xs: Value, low: Value, high: Value) -> list[list[Value]]:
    """Returns every sub-list of xs, order kept, with low to high items, smallest first.

    >>> _subsets(["a", "b", "c"], 2, 3)
    [['a', 'b'], ['a', 'c'], ['b', 'c'], ['a', 'b', 'c']]
    """
    sizes = range(max(low, 0), min(high, len(xs)) + 1)
    total = sum(math.comb(len(xs), n) for n in sizes)
    if total > LIST_LIMIT:
        msg = f"subsets() of {len(xs)} items would make {total} lists, more than {LIST_LIMIT}"
        raise ValueError(msg)
    out: list[list[Value]] = []
    for n in sizes:
        out.extend(list(c) for c in itertools.combinations(xs, n))
    return out


LIST_BUILTINS: dict[str, Callable[..., Any]] = {
    "path": _path,
    "nth": _nth,
    "remove": _remove,
    "subsets": _subsets,
}
