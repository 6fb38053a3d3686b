"""Syntax tree of a rule file: frozen nodes, each with the span it came from. No semantics."""

from __future__ import annotations

from operator import attrgetter
from types import FunctionType
from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias, dataclass_transform

from attrs.exceptions import FrozenInstanceError

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from boardkit.source import Span

_set = object.__setattr__


# The `__init__`s a node class's is copied from, by its number of fields: the same code under the
# class's own field names (`_init_for`). Copying code is a fraction of compiling new text.
def _init1(self: object, *, f0: object) -> None:
    _set(self, "f0", f0)


def _init2(self: object, *, f0: object, f1: object) -> None:
    _set(self, "f0", f0)
    _set(self, "f1", f1)


def _init3(self: object, *, f0: object, f1: object, f2: object) -> None:
    _set(self, "f0", f0)
    _set(self, "f1", f1)
    _set(self, "f2", f2)


def _init4(self: object, *, f0: object, f1: object, f2: object, f3: object) -> None:
    _set(self, "f0", f0)
    _set(self, "f1", f1)
    _set(self, "f2", f2)
    _set(self, "f3", f3)


def _init5(self: object, *, f0: object, f1: object, f2: object, f3: object, f4: object) -> None:
    _set(self, "f0", f0)
    _set(self, "f1", f1)
    _set(self, "f2", f2)
    _set(self, "f3", f3)
    _set(self, "f4", f4)


def _init6(self: object, *, f0: object, f1: object, f2: object, f3: object, f4: object, f5: object) -> None:
    _set(self, "f0", f0)
    _set(self, "f1", f1)
    _set(self, "f2", f2)
    _set(self, "f3", f3)
    _set(self, "f4", f4)
    _set(self, "f5", f5)


def _init7(self: object, *, f0: object, f1: object, f2: object, f3: object, f4: object, f5: object,
           f6: object) -> None:
    _set(self, "f0", f0)
    _set(self, "f1", f1)
    _set(self, "f2", f2)
    _set(self, "f3", f3)
    _set(self, "f4", f4)
    _set(self, "f5", f5)
    _set(self, "f6", f6)


_TEMPLATES = (_init1, _init2, _init3, _init4, _init5, _init6, _init7)


def _init_for(qualname: str, fields: tuple[str, ...], defaults: dict[str, object]) -> FunctionType:
    """A keyword-only `__init__` that sets `fields`: a template's code with the names replaced."""
    template = _TEMPLATES[len(fields) - 1].__code__
    names = dict(zip(template.co_varnames[1:], fields, strict=True))
    code = template.replace(co_varnames=("self", *fields), co_consts=tuple(names.get(c, c) for c in template.co_consts),
                            co_name="__init__", co_qualname=f"{qualname}.__init__")
    init = FunctionType(code, globals(), "__init__")
    init.__kwdefaults__ = defaults or None
    return init


# The fields of each node class that can hold nodes: all but its span.
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}
# Of those, the fields whose type lets them hold a node (not a name, a number, a truth value).
_NODE_FIELDS: dict[type, tuple[str, ...]] = {}
_SCALARS = frozenset({"str", "int", "bool", "str | None"})


@dataclass_transform(kw_only_default=True, frozen_default=True)
class _NodeType(type):
    """Makes a node class from its annotations: a slot per field, the field names in order, an `__init__`.

    Nodes used to be attrs classes; building 56 of them (and their methods) was most of
    importing the front end.
    """

    def __new__(cls, name: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> _NodeType:
        own = tuple(f for f, hint in namespace.get("__annotations__", {}).items() if not hint.startswith("ClassVar"))
        defaults = {f: namespace.pop(f) for f in own if f in namespace}
        namespace["__slots__"] = own
        if own:
            namespace["_fields"] = own
            namespace["__init__"] = _init_for(namespace["__qualname__"], own, defaults)
        node_type = super().__new__(cls, name, bases, namespace)
        if own:
            _CHILD_FIELDS[node_type] = tuple(f for f in own if f != "span")
            hints = namespace["__annotations__"]
            _NODE_FIELDS[node_type] = tuple(f for f in own if f != "span" and hints[f] not in _SCALARS)
        return node_type


class _Node(metaclass=_NodeType):
    """What every node has: frozen fields, its repr, equality and hash (as attrs wrote them).

    Nodes form trees (frozen: no cycles), which the repr relies on; nodes are compared in
    tests, and rarely hashed.
    """

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]]  # in order, `span` first

    def __repr__(self) -> str:
        values = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__qualname__}({values})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self._fields)

    def __hash__(self) -> int:
        return hash((type(self).__qualname__, *(getattr(self, name) for name in self._fields)))

    def __reduce__(self) -> tuple[Callable[..., _Node], tuple[type[_Node], dict[str, object]]]:
        # For copy and pickle, which would set the fields one by one.
        return _rebuilt, (type(self), {name: getattr(self, name) for name in self._fields})

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError


# Expressions.
class Num(_Node):
    """`42`: a whole number."""

    span: Span
    value: int


class Str(_Node):
    """`"red"`: a text."""

    span: Span
    value: str


class Bool(_Node):
    """`true` or `false`."""

    span: Span
    value: bool


class NoneLit(_Node):
    """`none`: no value, e.g. what `choose ... optional` binds when the player declines."""

    span: Span


class Name(_Node):
    """`deck`, `score`, `p`: a name, resolved by the checker."""

    span: Span
    name: str


class It(_Node):
    """The item under test in `xs where cond`."""

    span: Span


class ItAttr(_Node):
    """`.colour`: an attribute of `it`, inside `where` or a component label."""

    span: Span
    attr: str


class Attr(_Node):
    """`x.colour`: an attribute of a piece, or of each piece of a list."""

    span: Span
    obj: Expr
    attr: str


class Index(_Node):
    """`hand[p]`, `score[p, c]`: a zone or variable with its indexes."""

    span: Span
    obj: Expr
    args: tuple[Expr, ...]


class Call(_Node):
    """`count(xs)`, `f(x)`: a call of a built-in or of a function of the rules."""

    span: Span
    func: str
    args: tuple[Expr, ...]


class Unary(_Node):
    """`not x` or `-x`."""

    span: Span
    op: str
    operand: Expr


class Binary(_Node):
    """`x op y`: arithmetic (`+ - * / %`), a comparison, or `in` and `not in`."""

    span: Span
    op: str
    left: Expr
    right: Expr


class BoolOp(_Node):
    """`x and y and ...` or `x or y or ...`; a chained comparison is an `and` of comparisons."""

    span: Span
    op: str
    values: tuple[Expr, ...]


class Ternary(_Node):
    """`if cond then x else y`."""

    span: Span
    cond: Expr
    then: Expr
    other: Expr


class ListLit(_Node):
    """`[a, b, c]`."""

    span: Span
    items: tuple[Expr, ...]


class CompFor(_Node):
    """`for var in iter [if cond]`, one clause of a list comprehension or of `create`."""

    span: Span
    var: str
    iter: Expr
    cond: Expr | None


class ListComp(_Node):
    """`[elt for v in xs if cond ...]`: a list comprehension, its clauses outermost first."""

    span: Span
    elt: Expr
    fors: tuple[CompFor, ...]


class Where(_Node):
    """`xs where cond`: the items of a list for which `cond` holds of `it`."""

    span: Span
    coll: Expr
    cond: Expr


# Statements.
class Let(_Node):
    """`let x = e`: binds a new local."""

    span: Span
    name: str
    value: Expr


class Set(_Node):
    """`set x = e`, `set score[p] += e`: assigns a local or a variable; `index` is None without brackets."""

    span: Span
    name: str
    index: tuple[Expr, ...] | None
    op: str
    value: Expr


class If(_Node):
    """`if c { ... } elif c { ... } else { ... }`."""

    span: Span
    branches: tuple[tuple[Expr, Block], ...]  # of (cond, body)
    other: Block | None


class For(_Node):
    """`for x in xs { ... }`."""

    span: Span
    var: str
    iter: Expr
    body: Block


class While(_Node):
    """`while cond { ... }`."""

    span: Span
    cond: Expr
    body: Block


class Repeat(_Node):
    """`repeat n { ... }`: the block n times."""

    span: Span
    count: Expr
    body: Block


class Loop(_Node):
    """`loop { ... }`: the block until a `break` or `return`."""

    span: Span
    body: Block


class Break(_Node):
    """`break`: leaves the innermost loop."""

    span: Span


class Return(_Node):
    """`return`: leaves the running procedure."""

    span: Span


class Move(_Node):
    """`move n of xs to top of zone`: moves pieces to a zone, at its top, its bottom or its own end."""

    span: Span
    amount: Expr | None  # None means all
    pieces: Expr
    end: str | None  # "top", "bottom" or None for the zone's own end
    dest: Expr


class Shuffle(_Node):
    """`shuffle deck`: puts a zone's pieces in a random order."""

    span: Span
    zone: Expr


class Create(_Node):
    """`create n Card(colour: c) for c in Colour into deck`: makes new pieces in a zone."""

    span: Span
    count: Expr
    type: str
    kwargs: tuple[tuple[str, Expr, Span], ...]  # of (name, expr, span)
    fors: tuple[CompFor, ...]
    dest: Expr


class Choose(_Node):
    """`choose x from xs [by p] [optional "pass"] [prompt "..."]`: a decision over values."""

    span: Span
    var: str
    domain: Expr
    by: Expr | None
    optional: str | None
    prompt: str | None


class Branch(_Node):
    """An option of a choice; `otherwise` options are offered only when no other one is legal."""

    span: Span
    name: str
    when: Expr | None
    otherwise: bool
    body: Block


class ChooseBranch(_Node):
    """`choose [by p] [prompt "..."] { option a { ... } option b when c { ... } }`: a decision among blocks."""

    span: Span
    by: Expr | None
    prompt: str | None
    branches: tuple[Branch, ...]


class Require(_Node):
    """`require cond "message"`: a turn where `cond` fails is a dead end, never offered."""

    span: Span
    cond: Expr
    message: str | None


class EndGame(_Node):
    """`end game reason`: ends the game with that reason."""

    span: Span
    reason: Expr


class Turn(_Node):
    """`turn p { ... }`: a turn of player p."""

    span: Span
    player: Expr
    body: Block


class CallStmt(_Node):
    """`name(args)` as a statement: runs a procedure of the rules."""

    span: Span
    name: str
    args: tuple[Expr, ...]


class Log(_Node):
    """`log "message", x, y`: adds a message to the game's events."""

    span: Span
    message: str
    args: tuple[Expr, ...]


class Peek(_Node):
    """`peek PIECES by PLAYER`: that player now knows those pieces."""

    span: Span
    pieces: Expr
    player: Expr


class Reveal(_Node):
    """`reveal PIECES`: every player now knows those pieces."""

    span: Span
    pieces: Expr


class Place(_Node):
    """`place PIECE on GRID at CELLS`: one piece onto cells of a grid zone."""

    span: Span
    piece: Expr
    zone: Expr
    cells: Expr


# Declarations.
class GameDecl(_Node):
    """`game "Title"`."""

    span: Span
    title: str


class PlayersDecl(_Node):
    """`players 2..4`, or `players 2` for exactly two."""

    span: Span
    low: int
    high: int


class Extends(_Node):
    """`extends "base"`: this file is a variant of another ruleset."""

    span: Span
    target: str


class EnumDecl(_Node):
    """`enum Colour { red, blue }`."""

    span: Span
    name: str
    members: tuple[tuple[str, Span], ...]  # of (name, span)


class ComponentDecl(_Node):
    """`component Card { colour: Colour value: int } label ... parts ...`: a kind of piece."""

    span: Span
    name: str
    fields: tuple[tuple[str, str, Span], ...]  # of (name, type name, span)
    label: Expr | None
    parts: Expr | None = None  # `parts [e, ...]`: what the piece shows on each cell it covers


class ZoneDecl(_Node):
    """`zone hand[Player]: row, owner, capacity 5`: a zone family; `grid(w, h)` makes it a grid."""

    span: Span
    name: str
    dims: tuple[tuple[str, Span], ...]  # of (name, span)
    kind: str | None  # None when not written: a pile, or the grid's own kind
    visibility: str
    capacity: Expr | None
    grid: tuple[Expr, Expr] | None = None  # (width, height) expressions of a `grid(w, h)` zone


class VarDecl(_Node):
    """`var score[Player] = 0`: a variable family, one value per combination of its indexes."""

    span: Span
    name: str
    dims: tuple[tuple[str, Span], ...]
    init: Expr


class ConstDecl(_Node):
    """`const HAND = 5`."""

    span: Span
    name: str
    value: Expr


class OptionDecl(_Node):
    """`option rounds = 3 from [3, 5]`: a setting chosen when a game starts."""

    span: Span
    name: str
    default: Expr
    choices: Expr | None


class FuncDecl(_Node):
    """`func double(x) = x * 2`."""

    span: Span
    name: str
    params: tuple[str, ...]
    body: Expr


class ProcDecl(_Node):
    """`proc name(params) { ... }`; `setup { ... }` and `play { ... }` are procedures too."""

    span: Span
    name: str
    params: tuple[str, ...]
    body: Block


class Score(_Node):
    """`score p = ...`, `tiebreak p = ...` or `heuristic p = ...`: an expression of one player."""

    span: Span
    kind: str  # "score", "tiebreak" or "heuristic"
    param: str
    expr: Expr


class Invariant(_Node):
    """`invariant "hand limit" for p in players : size(hand[p]) <= 8`: a truth the rules keep."""

    span: Span
    name: str
    param: str | None  # `p` of `for p in players`; None for one truth of the whole game
    domain: tuple[str, Span] | None  # what `for p in` names, as written (the checker wants `players`)
    expr: Expr


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


def _rebuilt(cls: type[_Node], fields: dict[str, object]) -> _Node:
    """A node from its fields: how a copied or unpickled node is made."""
    return cls(**fields)


# The values of a node's fields that may hold nodes, in one call (its span among them when there is one
# such field, for a tuple); none for a class whose fields cannot hold a node (a name, a number).
_GETTERS = {cls: attrgetter(*names) if len(names) > 1 else attrgetter(*names, "span")
            for cls, names in _NODE_FIELDS.items() if names}


def child_fields(cls: type) -> tuple[str, ...] | None:
    """The fields of a node class that can hold nodes (all but its span); None for other types."""
    return _CHILD_FIELDS.get(cls)


def walk(node: object) -> Iterator[object]:
    """Yields every node under `node` (a node or a tuple of them), `node` first, in source order."""
    todo = [node]
    known, getters = _CHILD_FIELDS, _GETTERS
    while todo:
        x = todo.pop()
        cls = type(x)
        if cls in known:
            yield x
            get = getters.get(cls)
            if get is not None:
                todo += reversed(get(x))
        elif isinstance(x, tuple):
            todo += reversed(x)


def too_deep(root: Node, limit: int) -> Node | None:
    """Returns the first node nested more than `limit` levels under `root`, or None.

    Iterative, so that a pathological file cannot exhaust the stack before it is reported.
    One level at a time, with a C call per node for its fields: the tree of a bundled ruleset is
    not searched node by node (`_first_too_deep`), which finds the first offending node.
    """
    getters = _GETTERS
    level: list[object] = [root]
    for _ in range(limit + 1):
        below: list[object] = []
        for x in level:  # the items of a tuple lie at the tuple's depth: they are added to the level
            if type(x) is tuple:
                level += x
            else:
                get = getters.get(type(x))
                if get is not None:
                    below += get(x)
        level = below
    for x in level:
        if type(x) is tuple:
            level += x
        elif type(x) in _CHILD_FIELDS:
            return _first_too_deep(root, limit)
    return None


def _first_too_deep(root: Node, limit: int) -> Node:
    """The first node nested more than `limit` levels under `root`, depth first, when there is one."""
    stack: list[tuple[object, int]] = [(root, 0)]
    known = _CHILD_FIELDS
    while stack:
        node, depth = stack.pop()
        if isinstance(node, tuple):
            stack += [(x, depth) for x in node]
            continue
        cls = type(node)
        names = known.get(cls)
        if names is not None:
            if depth > limit:
                return node  # type: ignore[return-value]
            depth += 1
            stack += [(getattr(node, name), depth) for name in names]
    raise AssertionError  # not reached: too_deep found such a node
