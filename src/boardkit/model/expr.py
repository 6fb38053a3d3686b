"""Checked expressions: every name resolved to what it denotes, every call to what it calls.

The checker builds these from the AST; the compiler turns them into Python source. They hold
no code and no runtime values: constants are named (`ConstRef`), not inlined, so the model is
plain data that can be read, compared and printed.
"""

from __future__ import annotations

from typing import TypeAlias, cast

import attrs

from boardkit.source import Span

#: A literal value of the rule language (enum members are strings).
Scalar: TypeAlias = int | str | bool | None


@attrs.frozen
class Lit:
    """A number, text, truth value, `none` or enum member written in the rules."""

    span: Span
    value: Scalar


@attrs.frozen
class ConstRef:
    """A declared constant, by name."""

    span: Span
    name: str


@attrs.frozen
class EnumList:
    """An enum used as a value: the list of its members, in declared order."""

    span: Span
    members: tuple[str, ...]


@attrs.frozen
class Local:
    """A procedure local (a parameter, `let`, a loop variable or a choice), kept in the frame."""

    span: Span
    name: str


@attrs.frozen
class Bound:
    """A name bound inside an expression (a comprehension variable, `it`, a function parameter).

    `ident` is unique within the ruleset and a valid Python identifier.
    """

    span: Span
    ident: str


@attrs.frozen
class OptionRef:
    """A declared option, by name: its value is chosen when a game starts."""

    span: Span
    name: str


@attrs.frozen
class StateRef:
    """A name that reads the game rather than the rules: `players`, `player_count`."""

    span: Span
    name: str


@attrs.frozen
class VarRef:
    """A variable's value; `args` index it when it is declared with dimensions."""

    span: Span
    name: str
    args: tuple[Expr, ...]


@attrs.frozen
class ZoneRef:
    """One zone of a zone family (`deck`, `hand[p]`): as a value, its pieces in order."""

    span: Span
    name: str
    args: tuple[Expr, ...]


@attrs.frozen
class Attr:
    """An attribute of a piece, or of each piece of a list (`hand[p].colour`)."""

    span: Span
    obj: Expr
    name: str


@attrs.frozen
class PieceAttr:
    """`.attr` inside `where` or a label: an attribute of the piece bound there."""

    span: Span
    piece: Bound
    name: str


@attrs.frozen
class BuiltinCall:
    """A call of a built-in function; `needs_state` when it reads the game (`random`, `next`)."""

    span: Span
    name: str
    args: tuple[Expr, ...]
    needs_state: bool


@attrs.frozen
class KeyFunc:
    """An argument evaluated once per cell with the cell bound (`regions(board, cells, .colour)`)."""

    span: Span
    cell: Bound
    body: Expr


@attrs.frozen
class GridCall:
    """A grid built-in: its first argument is a grid zone (the zone itself, not its pieces)."""

    span: Span
    name: str
    zone: ZoneRef
    args: tuple[Expr | KeyFunc, ...]


@attrs.frozen
class FuncCall:
    """A call of a function the rules declare."""

    span: Span
    name: str
    args: tuple[Expr, ...]


@attrs.frozen
class Unary:
    """`not x` or `-x`."""

    span: Span
    op: str  # "not" or "-"
    operand: Expr


@attrs.frozen
class Binary:
    """`x op y`: arithmetic (`+ - * / %`), a comparison, or `in` and `not in`."""

    span: Span
    op: str
    left: Expr
    right: Expr


@attrs.frozen
class BoolOp:
    """`x and y and ...` or `x or y or ...`, evaluated left to right, stopping early."""

    span: Span
    op: str  # "and" or "or"
    values: tuple[Expr, ...]


@attrs.frozen
class Ternary:
    """`if cond then x else y`."""

    span: Span
    cond: Expr
    then: Expr
    other: Expr


@attrs.frozen
class ListLit:
    """`[a, b, c]`."""

    span: Span
    items: tuple[Expr, ...]


@attrs.frozen
class Where:
    """`coll where cond`: the items of a list for which `cond` holds of `it`."""

    span: Span
    coll: Expr
    it: Bound
    cond: Expr


@attrs.frozen
class CompFor:
    """`for var in iter [if cond]`, one clause of a list comprehension or of `create`."""

    span: Span
    var: Bound
    iter: Expr
    cond: Expr | None


@attrs.frozen
class ListComp:
    """`[elt for v in xs if cond ...]`: a list comprehension, its clauses outermost first."""

    span: Span
    elt: Expr
    fors: tuple[CompFor, ...]


Expr: TypeAlias = (Lit | ConstRef | EnumList | Local | Bound | OptionRef | StateRef | VarRef | ZoneRef | Attr
                   | PieceAttr | BuiltinCall | GridCall | FuncCall | Unary | Binary | BoolOp | Ternary | ListLit
                   | Where | ListComp)


# Per expression class, the fields that may hold expressions (all but the span).
_FIELD_NAMES: dict[type, tuple[str, ...]] = {
    cls: tuple(f.name for f in attrs.fields(cls) if f.name != "span")
    for cls in (Lit, ConstRef, EnumList, Local, Bound, OptionRef, StateRef, VarRef, ZoneRef, Attr, PieceAttr,
                BuiltinCall, KeyFunc, GridCall, FuncCall, Unary, Binary, BoolOp, Ternary, ListLit, Where, CompFor,
                ListComp)}


def children(node: Expr | KeyFunc | CompFor) -> list[Expr | KeyFunc | CompFor]:
    """The expressions directly inside `node`."""
    out: list[Expr | KeyFunc | CompFor] = []
    nodes = _FIELD_NAMES
    for name in nodes[node.__class__]:
        value = getattr(node, name)
        if value.__class__ is tuple:
            out += [cast("Expr", v) for v in value if v.__class__ in nodes]
        elif value.__class__ in nodes:
            out.append(cast("Expr", value))
    return out


def walk(node: Expr | KeyFunc | CompFor) -> list[Expr | KeyFunc | CompFor]:
    """`node` and every expression inside it, outermost first."""
    out, todo = [], [node]
    while todo:
        n = todo.pop()
        out.append(n)
        todo.extend(reversed(children(n)))
    return out


def written_length(node: Expr) -> int | None:
    """The length of a list the rule text spells out: an enum, a list display, a range between two numbers."""
    if isinstance(node, EnumList):
        return len(node.members)
    if isinstance(node, ListLit):
        return len(node.items)
    if isinstance(node, BuiltinCall) and node.name == "range" and len(node.args) == 2:  # noqa: PLR2004 - both ends
        low, high = (a.value if isinstance(a, Lit) else None for a in node.args)
        if low.__class__ is int and high.__class__ is int:
            return max(0, high - low + 1)
    return None
