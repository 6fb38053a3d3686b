"""Syntax tree of a rule file: frozen nodes, each with the span it came from. No semantics."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias

import attrs

from boardkit.source import Span

if TYPE_CHECKING:
    from collections.abc import Iterator


class _Node:
    """What every node has: its repr, equality and hash, as attrs would write them for each class.

    Written once here, so that attrs builds only each class's `__init__`: building the classes
    was most of importing the front end. Nodes form trees (frozen: no cycles), which the repr
    relies on; nodes are compared in tests, and rarely hashed.
    """

    __slots__ = ()
    __attrs_attrs__: ClassVar[tuple[attrs.Attribute[Any], ...]]

    def __repr__(self) -> str:
        values = ", ".join(f"{a.name}={getattr(self, a.name)!r}" for a in self.__attrs_attrs__)
        return f"{type(self).__qualname__}({values})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, a.name) == getattr(other, a.name) for a in self.__attrs_attrs__)

    def __hash__(self) -> int:
        return hash((type(self).__qualname__, *(getattr(self, a.name) for a in self.__attrs_attrs__)))


# Expressions.
@attrs.frozen(kw_only=True, repr=False, eq=False)
class Num(_Node):
    """`42`: a whole number."""

    span: Span
    value: int


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Str(_Node):
    """`"red"`: a text."""

    span: Span
    value: str


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Bool(_Node):
    """`true` or `false`."""

    span: Span
    value: bool


@attrs.frozen(kw_only=True, repr=False, eq=False)
class NoneLit(_Node):
    """`none`: no value, e.g. what `choose ... optional` binds when the player declines."""

    span: Span


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Name(_Node):
    """`deck`, `score`, `p`: a name, resolved by the checker."""

    span: Span
    name: str


@attrs.frozen(kw_only=True, repr=False, eq=False)
class It(_Node):
    """The item under test in `xs where cond`."""

    span: Span


@attrs.frozen(kw_only=True, repr=False, eq=False)
class ItAttr(_Node):
    """`.colour`: an attribute of `it`, inside `where` or a component label."""

    span: Span
    attr: str


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Attr(_Node):
    """`x.colour`: an attribute of a piece, or of each piece of a list."""

    span: Span
    obj: Expr
    attr: str


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Index(_Node):
    """`hand[p]`, `score[p, c]`: a zone or variable with its indexes."""

    span: Span
    obj: Expr
    args: tuple[Expr, ...]


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Call(_Node):
    """`count(xs)`, `f(x)`: a call of a built-in or of a function of the rules."""

    span: Span
    func: str
    args: tuple[Expr, ...]


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Unary(_Node):
    """`not x` or `-x`."""

    span: Span
    op: str
    operand: Expr


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Binary(_Node):
    """`x op y`: arithmetic (`+ - * / %`), a comparison, or `in` and `not in`."""

    span: Span
    op: str
    left: Expr
    right: Expr


@attrs.frozen(kw_only=True, repr=False, eq=False)
class BoolOp(_Node):
    """`x and y and ...` or `x or y or ...`; a chained comparison is an `and` of comparisons."""

    span: Span
    op: str
    values: tuple[Expr, ...]


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Ternary(_Node):
    """`if cond then x else y`."""

    span: Span
    cond: Expr
    then: Expr
    other: Expr


@attrs.frozen(kw_only=True, repr=False, eq=False)
class ListLit(_Node):
    """`[a, b, c]`."""

    span: Span
    items: tuple[Expr, ...]


@attrs.frozen(kw_only=True, repr=False, eq=False)
class CompFor(_Node):
    """`for var in iter [if cond]`, one clause of a list comprehension or of `create`."""

    span: Span
    var: str
    iter: Expr
    cond: Expr | None


@attrs.frozen(kw_only=True, repr=False, eq=False)
class ListComp(_Node):
    """`[elt for v in xs if cond ...]`: a list comprehension, its clauses outermost first."""

    span: Span
    elt: Expr
    fors: tuple[CompFor, ...]


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Where(_Node):
    """`xs where cond`: the items of a list for which `cond` holds of `it`."""

    span: Span
    coll: Expr
    cond: Expr


# Statements.
@attrs.frozen(kw_only=True, repr=False, eq=False)
class Let(_Node):
    """`let x = e`: binds a new local."""

    span: Span
    name: str
    value: Expr


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Set(_Node):
    """`set x = e`, `set score[p] += e`: assigns a local or a variable; `index` is None without brackets."""

    span: Span
    name: str
    index: tuple[Expr, ...] | None
    op: str
    value: Expr


@attrs.frozen(kw_only=True, repr=False, eq=False)
class If(_Node):
    """`if c { ... } elif c { ... } else { ... }`."""

    span: Span
    branches: tuple[tuple[Expr, Block], ...]  # of (cond, body)
    other: Block | None


@attrs.frozen(kw_only=True, repr=False, eq=False)
class For(_Node):
    """`for x in xs { ... }`."""

    span: Span
    var: str
    iter: Expr
    body: Block


@attrs.frozen(kw_only=True, repr=False, eq=False)
class While(_Node):
    """`while cond { ... }`."""

    span: Span
    cond: Expr
    body: Block


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Repeat(_Node):
    """`repeat n { ... }`: the block n times."""

    span: Span
    count: Expr
    body: Block


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Loop(_Node):
    """`loop { ... }`: the block until a `break` or `return`."""

    span: Span
    body: Block


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Break(_Node):
    """`break`: leaves the innermost loop."""

    span: Span


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Return(_Node):
    """`return`: leaves the running procedure."""

    span: Span


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Move(_Node):
    """`move n of xs to top of zone`: moves pieces to a zone, at its top, its bottom or its own end."""

    span: Span
    amount: Expr | None  # None means all
    pieces: Expr
    end: str | None  # "top", "bottom" or None for the zone's own end
    dest: Expr


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Shuffle(_Node):
    """`shuffle deck`: puts a zone's pieces in a random order."""

    span: Span
    zone: Expr


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Create(_Node):
    """`create n Card(colour: c) for c in Colour into deck`: makes new pieces in a zone."""

    span: Span
    count: Expr
    type: str
    kwargs: tuple[tuple[str, Expr, Span], ...]  # of (name, expr, span)
    fors: tuple[CompFor, ...]
    dest: Expr


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Choose(_Node):
    """`choose x from xs [by p] [optional "pass"] [prompt "..."]`: a decision over values."""

    span: Span
    var: str
    domain: Expr
    by: Expr | None
    optional: str | None
    prompt: str | None


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Branch(_Node):
    """An option of a choice; `otherwise` options are offered only when no other one is legal."""

    span: Span
    name: str
    when: Expr | None
    otherwise: bool
    body: Block


@attrs.frozen(kw_only=True, repr=False, eq=False)
class ChooseBranch(_Node):
    """`choose [by p] [prompt "..."] { option a { ... } option b when c { ... } }`: a decision among blocks."""

    span: Span
    by: Expr | None
    prompt: str | None
    branches: tuple[Branch, ...]


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Require(_Node):
    """`require cond "message"`: a turn where `cond` fails is a dead end, never offered."""

    span: Span
    cond: Expr
    message: str | None


@attrs.frozen(kw_only=True, repr=False, eq=False)
class EndGame(_Node):
    """`end game reason`: ends the game with that reason."""

    span: Span
    reason: Expr


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Turn(_Node):
    """`turn p { ... }`: a turn of player p."""

    span: Span
    player: Expr
    body: Block


@attrs.frozen(kw_only=True, repr=False, eq=False)
class CallStmt(_Node):
    """`name(args)` as a statement: runs a procedure of the rules."""

    span: Span
    name: str
    args: tuple[Expr, ...]


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Log(_Node):
    """`log "message", x, y`: adds a message to the game's events."""

    span: Span
    message: str
    args: tuple[Expr, ...]


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Peek(_Node):
    """`peek PIECES by PLAYER`: that player now knows those pieces."""

    span: Span
    pieces: Expr
    player: Expr


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Reveal(_Node):
    """`reveal PIECES`: every player now knows those pieces."""

    span: Span
    pieces: Expr


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Place(_Node):
    """`place PIECE on GRID at CELLS`: one piece onto cells of a grid zone."""

    span: Span
    piece: Expr
    zone: Expr
    cells: Expr


# Declarations.
@attrs.frozen(kw_only=True, repr=False, eq=False)
class GameDecl(_Node):
    """`game "Title"`."""

    span: Span
    title: str


@attrs.frozen(kw_only=True, repr=False, eq=False)
class PlayersDecl(_Node):
    """`players 2..4`, or `players 2` for exactly two."""

    span: Span
    low: int
    high: int


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Extends(_Node):
    """`extends "base"`: this file is a variant of another ruleset."""

    span: Span
    target: str


@attrs.frozen(kw_only=True, repr=False, eq=False)
class EnumDecl(_Node):
    """`enum Colour { red, blue }`."""

    span: Span
    name: str
    members: tuple[tuple[str, Span], ...]  # of (name, span)


@attrs.frozen(kw_only=True, repr=False, eq=False)
class ComponentDecl(_Node):
    """`component Card { colour: Colour value: int } label ... parts ...`: a kind of piece."""

    span: Span
    name: str
    fields: tuple[tuple[str, str, Span], ...]  # of (name, type name, span)
    label: Expr | None
    parts: Expr | None = None  # `parts [e, ...]`: what the piece shows on each cell it covers


@attrs.frozen(kw_only=True, repr=False, eq=False)
class ZoneDecl(_Node):
    """`zone hand[Player]: row, owner, capacity 5`: a zone family; `grid(w, h)` makes it a grid."""

    span: Span
    name: str
    dims: tuple[tuple[str, Span], ...]  # of (name, span)
    kind: str | None  # None when not written: a pile, or the grid's own kind
    visibility: str
    capacity: Expr | None
    grid: tuple[Expr, Expr] | None = None  # (width, height) expressions of a `grid(w, h)` zone


@attrs.frozen(kw_only=True, repr=False, eq=False)
class VarDecl(_Node):
    """`var score[Player] = 0`: a variable family, one value per combination of its indexes."""

    span: Span
    name: str
    dims: tuple[tuple[str, Span], ...]
    init: Expr


@attrs.frozen(kw_only=True, repr=False, eq=False)
class ConstDecl(_Node):
    """`const HAND = 5`."""

    span: Span
    name: str
    value: Expr


@attrs.frozen(kw_only=True, repr=False, eq=False)
class OptionDecl(_Node):
    """`option rounds = 3 from [3, 5]`: a setting chosen when a game starts."""

    span: Span
    name: str
    default: Expr
    choices: Expr | None


@attrs.frozen(kw_only=True, repr=False, eq=False)
class FuncDecl(_Node):
    """`func double(x) = x * 2`."""

    span: Span
    name: str
    params: tuple[str, ...]
    body: Expr


@attrs.frozen(kw_only=True, repr=False, eq=False)
class ProcDecl(_Node):
    """`proc name(params) { ... }`; `setup { ... }` and `play { ... }` are procedures too."""

    span: Span
    name: str
    params: tuple[str, ...]
    body: Block


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Score(_Node):
    """`score p = ...`, `tiebreak p = ...` or `heuristic p = ...`: an expression of one player."""

    span: Span
    kind: str  # "score", "tiebreak" or "heuristic"
    param: str
    expr: Expr


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Invariant(_Node):
    """`invariant "hand limit" for p in players : size(hand[p]) <= 8`: a truth the rules keep."""

    span: Span
    name: str
    param: str | None  # `p` of `for p in players`; None for one truth of the whole game
    domain: tuple[str, Span] | None  # what `for p in` names, as written (the checker wants `players`)
    expr: Expr


@attrs.frozen(kw_only=True, repr=False, eq=False)
class RuleFile(_Node):
    """A whole rule file: its declarations in order."""

    span: Span
    items: tuple[Decl, ...]


Expr: TypeAlias = (Num | Str | Bool | NoneLit | Name | It | ItAttr | Attr | Index | Call | Unary | Binary | BoolOp
                   | Ternary | ListLit | ListComp | Where)
Stmt: TypeAlias = (Let | Set | If | For | While | Repeat | Loop | Break | Return | Move | Shuffle | Create | Choose
                   | ChooseBranch | Require | EndGame | Turn | CallStmt | Log | Peek | Reveal | Place)
#: A `{ ... }` block: its statements in order.
Block: TypeAlias = tuple[Stmt, ...]
Decl: TypeAlias = (GameDecl | PlayersDecl | Extends | EnumDecl | ComponentDecl | ZoneDecl | VarDecl | ConstDecl
                   | OptionDecl | FuncDecl | ProcDecl | Score | Invariant)
#: Any node of the tree.
Node: TypeAlias = Expr | Stmt | Decl | CompFor | Branch | RuleFile


_CHILD_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _child_fields(cls: type) -> tuple[str, ...] | None:
    """The fields of an attrs class that can hold nodes (all but its span); None for other types."""
    if cls not in _CHILD_FIELDS:
        _CHILD_FIELDS[cls] = tuple(f.name for f in attrs.fields(cls) if f.name != "span") if attrs.has(cls) else None
    return _CHILD_FIELDS[cls]


def walk(node: object) -> Iterator[object]:
    """Yields every attrs value under `node` (a node or a tuple of them), `node` first, in source order."""
    todo = [node]
    while todo:
        x = todo.pop()
        if isinstance(x, tuple):
            todo.extend(reversed(x))
            continue
        names = _child_fields(type(x))
        if names is not None:
            yield x
            todo.extend(getattr(x, name) for name in reversed(names))


def too_deep(root: Node, limit: int) -> Node | None:
    """Returns the first node nested more than `limit` levels under `root`, or None.

    Iterative, so that a pathological file cannot exhaust the stack before it is reported.
    """
    stack: list[tuple[object, int]] = [(root, 0)]
    known = _CHILD_FIELDS
    while stack:
        node, depth = stack.pop()
        if isinstance(node, tuple):
            stack += [(x, depth) for x in node]
            continue
        cls = type(node)
        names = known[cls] if cls in known else _child_fields(cls)
        if names is not None:
            if depth > limit and isinstance(node, Node):
                return node
            depth += 1
            stack += [(getattr(node, name), depth) for name in names]
    return None
