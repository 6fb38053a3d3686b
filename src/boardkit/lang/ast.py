"""Syntax tree of a rule file: frozen nodes, each with the span it came from. No semantics."""

from __future__ import annotations

from typing import Any, Iterator

import attrs

from boardkit.source import Span

node = attrs.frozen(kw_only=True)


# Expressions.
@node
class Num:
    span: Span
    value: int


@node
class Str:
    span: Span
    value: str


@node
class Bool:
    span: Span
    value: bool


@node
class NoneLit:
    """`none`: no value, e.g. what `choose ... optional` binds when the player declines."""

    span: Span


@node
class Name:
    span: Span
    name: str


@node
class It:
    """The item under test in `xs where cond`."""

    span: Span


@node
class ItAttr:
    span: Span
    attr: str


@node
class Attr:
    span: Span
    obj: Any
    attr: str


@node
class Index:
    span: Span
    obj: Any
    args: tuple


@node
class Call:
    span: Span
    func: str
    args: tuple


@node
class Unary:
    span: Span
    op: str
    operand: Any


@node
class Binary:
    span: Span
    op: str
    left: Any
    right: Any


@node
class BoolOp:
    span: Span
    op: str
    values: tuple


@node
class Ternary:
    span: Span
    cond: Any
    then: Any
    other: Any


@node
class ListLit:
    span: Span
    items: tuple


@node
class CompFor:
    span: Span
    var: str
    iter: Any
    cond: Any


@node
class ListComp:
    span: Span
    elt: Any
    fors: tuple


@node
class Where:
    span: Span
    coll: Any
    cond: Any


# Statements.
@node
class Let:
    span: Span
    name: str
    value: Any


@node
class Set:
    span: Span
    name: str
    index: tuple | None
    op: str
    value: Any


@node
class If:
    span: Span
    branches: tuple  # of (cond, body)
    other: tuple | None


@node
class For:
    span: Span
    var: str
    iter: Any
    body: tuple


@node
class While:
    span: Span
    cond: Any
    body: tuple


@node
class Repeat:
    span: Span
    count: Any
    body: tuple


@node
class Loop:
    span: Span
    body: tuple


@node
class Break:
    span: Span


@node
class Return:
    span: Span


@node
class Move:
    span: Span
    amount: Any  # None means all
    pieces: Any
    end: str | None  # "top", "bottom" or None for the zone's own end
    dest: Any


@node
class Shuffle:
    span: Span
    zone: Any


@node
class Create:
    span: Span
    count: Any
    type: str
    kwargs: tuple  # of (name, expr, span)
    fors: tuple
    dest: Any


@node
class Choose:
    span: Span
    var: str
    domain: Any
    by: Any
    optional: str | None
    prompt: str | None


@node
class Branch:
    """An option of a choice; `otherwise` options are offered only when no other one is legal."""

    span: Span
    name: str
    when: Any
    otherwise: bool
    body: tuple


@node
class ChooseBranch:
    span: Span
    by: Any
    prompt: str | None
    branches: tuple


@node
class Require:
    span: Span
    cond: Any
    message: str | None


@node
class EndGame:
    span: Span
    reason: Any


@node
class Turn:
    span: Span
    player: Any
    body: tuple


@node
class CallStmt:
    span: Span
    name: str
    args: tuple


@node
class Log:
    span: Span
    message: str
    args: tuple


@node
class Peek:
    """`peek PIECES by PLAYER`: that player now knows those pieces."""

    span: Span
    pieces: Any
    player: Any


@node
class Reveal:
    """`reveal PIECES`: every player now knows those pieces."""

    span: Span
    pieces: Any


@node
class Place:
    """`place PIECE on GRID at CELLS`: one piece onto cells of a grid zone."""

    span: Span
    piece: Any
    zone: Any
    cells: Any


# Declarations.
@node
class GameDecl:
    span: Span
    title: str


@node
class PlayersDecl:
    span: Span
    low: int
    high: int


@node
class Extends:
    span: Span
    target: str


@node
class EnumDecl:
    span: Span
    name: str
    members: tuple  # of (name, span)


@node
class ComponentDecl:
    span: Span
    name: str
    fields: tuple  # of (name, type name, span)
    label: Any
    parts: Any = None  # `parts [e, ...]`: what the piece shows on each cell it covers


@node
class ZoneDecl:
    span: Span
    name: str
    dims: tuple  # of (name, span)
    kind: str | None  # None when not written: a pile, or the grid's own kind
    visibility: str
    capacity: Any
    grid: Any = None  # (width, height) expressions of a `grid(w, h)` zone


@node
class VarDecl:
    span: Span
    name: str
    dims: tuple
    init: Any


@node
class ConstDecl:
    span: Span
    name: str
    value: Any


@node
class OptionDecl:
    span: Span
    name: str
    default: Any
    choices: Any


@node
class FuncDecl:
    span: Span
    name: str
    params: tuple
    body: Any


@node
class ProcDecl:
    span: Span
    name: str
    params: tuple
    body: tuple


@node
class Score:
    span: Span
    kind: str  # "score" or "tiebreak"
    param: str
    expr: Any


@node
class RuleFile:
    span: Span
    items: tuple


def walk(node: Any) -> Iterator[Any]:
    """Yields every node under `node` (a node or a tuple of them), `node` first."""
    if isinstance(node, tuple):
        for x in node:
            yield from walk(x)
    elif attrs.has(type(node)):
        yield node
        for f in attrs.fields(type(node)):
            if f.name != "span":
                yield from walk(getattr(node, f.name))


def too_deep(root: Any, limit: int) -> Any | None:
    """The first node nested more than `limit` levels under `root`, or None. Iterative, so
    that a pathological file cannot exhaust the stack before it is reported."""
    stack = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, tuple):
            stack.extend((x, depth) for x in node)
        elif attrs.has(type(node)):
            if depth > limit:
                return node
            stack.extend((getattr(node, f.name), depth + 1) for f in attrs.fields(type(node)) if f.name != "span")
    return None
