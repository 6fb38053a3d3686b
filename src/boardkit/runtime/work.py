"""The work budget and the operators whose cost depends on their operands.

Generated code calls these where an expression walks, joins or multiplies: one place bounds
what a single expression may cost, so that a runaway rule stops with a located error.
"""

from __future__ import annotations

from typing import Any, Final, Protocol, TypeAlias

from boardkit.runtime.listops import LIST_LIMIT
from boardkit.runtime.pieces import Piece

#: What a rule expression evaluates to: a number, text, truth value, piece, list of them, or
#: None. Generated code passes such values around unchecked; a closer type would need checks
#: on the hot path.
Value: TypeAlias = Any

# How much work (items iterated by comprehensions and filters, items joined by `+`, function
# calls at compile.module.CALL_COST each, repetitions) one run to a decision, one look-ahead or one score may
# do: ample for any rule (the bundled games use a few thousand), and a bound that stops a
# runaway rule in about a second.
WORK_LIMIT: Final = 2_000_000
# The largest whole number a rule may make by multiplying, in bits.
INT_BITS: Final = 1024


class Budget(Protocol):
    """What the operators charge: a game state, or a `ConstState`."""

    work: int


def over_budget() -> None:
    """Stops an expression that ran out of work budget."""
    msg = f"an expression did more than {WORK_LIMIT} steps of work: is a list or a recursion unbounded?"
    raise ValueError(msg)


def repeats(s: Budget, n: Value) -> tuple[int, ...]:
    """What `repeat n` counts through: n is a whole number, charged to the work budget first."""
    if type(n) is not int:
        msg = f"repeat needs a whole number of times, not {n!r:.40}"
        raise TypeError(msg)
    left = s.work - max(n, 0)
    s.work = left
    if left < 0:
        over_budget()
    return tuple(range(n))


def each(s: Budget, xs: Value) -> Value:
    """What a comprehension or filter walks, charged to the work budget."""
    if type(xs) is list or isinstance(xs, (tuple, str)):
        # One read of the budget: the state is a plain Python object, each read a lookup by name.
        left = s.work - len(xs)
        s.work = left
        if left < 0:
            over_budget()
    return xs


def add(s: Budget, a: Value, b: Value) -> Value:
    """`+` and `+=`: joined lists and texts stay within LIST_LIMIT.

    The items added are charged to the work budget, so a list built item by item costs in
    proportion to its length.
    """
    return joined(s, a + b, b)


def joined(s: Budget, out: Value, b: Value) -> Value:
    """`add`'s checks of `out`, made as a + b (generated code adds numbers in place, and calls this otherwise)."""
    if isinstance(out, (list, str)):
        if len(out) > LIST_LIMIT:
            msg = f"joining would make {len(out)} items, more than {LIST_LIMIT}"
            raise ValueError(msg)
        left = s.work - len(b) - 1
        s.work = left
        if left < 0:
            over_budget()
    return out


def kept(v: Value) -> Value:
    """A value as a local keeps it: lists are copied, so that changing one changes no other."""
    return list(v) if isinstance(v, list) else v


def multiply(a: Value, b: Value) -> Value:
    """`*`: products stay within INT_BITS; lists and texts are not repeated."""
    if type(a) is int and type(b) is int and a.bit_length() + b.bit_length() > INT_BITS:
        msg = f"a product over {INT_BITS} bits: numbers in rules stay small"
        raise ValueError(msg)
    if isinstance(a, (list, str)) or isinstance(b, (list, str)):
        msg = f"cannot multiply {a!r:.30} by {b!r:.30}"
        raise TypeError(msg)
    return a * b


#: `State.proj`: by attribute name, a list by zone slot of (the zone's list, its pieces' values).
Projections: TypeAlias = dict[str, list[Any]]


def zone_attr(zones: list[list[Piece]], proj: Projections, slot: int, name: str) -> list[Value]:
    """`zone.attr`: the attribute of every piece in a zone, worked out again only once the zone changed.

    Generated code passes the state's `zones` and `proj`: it reads them cheaply, and a compiled
    helper would read them from the (plain Python) state the generic way.
    """
    zone = zones[slot]
    by_slot = proj.get(name)  # by name, then slot: no key is made to look an entry up
    if by_slot is None:
        by_slot = proj[name] = [None] * len(zones)
    known = by_slot[slot]
    if known is not None and known[0] is zone:
        values: list[Value] = known[1]
        return values
    found = [p.attrs[name] for p in zone]
    by_slot[slot] = (zone, found)
    return found


def zone_count(s: Budget, zones: list[list[Piece]], proj: Projections, slot: int, name: str,  # noqa: PLR0917
               value: Value) -> int:
    """`count(zone where .attr == value)`: charged as the walk it stands for."""
    work = s.work - len(zones[slot])
    s.work = work
    if work < 0:
        over_budget()
    return zone_attr(zones, proj, slot, name).count(value)


def attribute(value: Value, name: str) -> Value:
    """Reads an attribute of a piece, or projects it over a list of pieces."""
    if type(value) is list:
        return [p.attrs[name] for p in value]
    if isinstance(value, Piece):
        return value.attrs[name]
    msg = f"cannot read attribute {name!r} of {value!r}"
    raise TypeError(msg)


class ConstState:
    """Stands in for a game state where expressions are worked out before any game.

    Constants and option values need a work budget and nothing else.
    """

    def __init__(self) -> None:
        self.work = WORK_LIMIT
