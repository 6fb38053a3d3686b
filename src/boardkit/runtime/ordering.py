"""Built-ins that order and name values: general vocabulary merged into `builtins.BUILTINS`.

`order(xs, keys)` sorts a list by a parallel list of keys (turn orders computed from the
board, markets sorted by cost, display orders); `text(x)` turns a value into a string for
labels (`"B" + text(17)`). Nothing here knows a game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from boardkit.runtime.pieces import label_of

if TYPE_CHECKING:
    from collections.abc import Callable

T = TypeVar("T")


def _order(xs: list[T], keys: list[Any]) -> list[T]:
    """Returns xs ordered by keys (one per item), smallest key first; ties keep list order.

    Keys are numbers, strings, or lists of them compared item by item, so `[0 - height,
    seat]` orders by height, highest first, then by seat.

    >>> _order(["a", "b", "c", "d"], [2, 1, 2, 0])
    ['d', 'b', 'a', 'c']
    >>> _order([0, 1, 2], [[1, 5], [0, 9], [1, 2]])
    [1, 2, 0]
    """
    if len(xs) != len(keys):
        msg = f"order(): {len(xs)} items but {len(keys)} keys"
        raise ValueError(msg)
    ranked = sorted(range(len(xs)), key=lambda i: keys[i])
    return [xs[i] for i in ranked]


def _text(value: object) -> str:
    """Returns a value as text: numbers in decimal, pieces by their label, lists joined by '+'.

    >>> _text(17)
    '17'
    >>> _text([1, "red", True])
    '1+red+yes'
    """
    return label_of(value)


ORDER_BUILTINS: dict[str, Callable[..., Any]] = {
    "order": _order,
    "text": _text,
}
