"""Compiles checked expressions to Python functions `f(state, locals)`, once, at load time.

Each expression becomes Python source that is compiled with `eval`, so evaluating it costs one
call, not one per tree node. Name resolution happens here, in one place: locals, constants,
options, variables, zones, enums and their members, built-in names. Problems become
diagnostics, never exceptions.
"""

from __future__ import annotations

import difflib
import functools
from typing import Any, Callable

import attrs

from boardkit import ast
from boardkit.builtins import BUILTINS, STATE_NAMES
from boardkit.errors import Diagnostic
from boardkit.grid import GRID_KEY_ARG, GRID_ZONE_FIRST
from boardkit.listops import LIST_LIMIT
from boardkit.pieces import Piece
from boardkit.source import Span

Expr = Callable[[Any, dict], Any]

_OPS = {"+": "+", "-": "-", "*": "*", "/": "//", "%": "%", "==": "==", "!=": "!=", "<": "<", "<=": "<=",
        ">": ">", ">=": ">=", "in": "in", "not in": "not in"}


# How much work (items iterated by comprehensions and filters, items joined by `+`, function
# calls) one run to a decision, one look-ahead or one score may do: ample for any rule, and a
# bound on a rule that would otherwise work for ever inside a single expression.
WORK_LIMIT = 10_000_000
# The largest whole number a rule may make by multiplying, in bits.
INT_BITS = 1024


def _over_budget() -> None:
    msg = f"an expression did more than {WORK_LIMIT} steps of work: is a list or a recursion unbounded?"
    raise ValueError(msg)


def each(s: Any, xs: Any) -> Any:
    """What a comprehension or filter walks, charged to the work budget."""
    if isinstance(xs, (list, tuple, str)):
        s.work -= len(xs)
        if s.work < 0:
            _over_budget()
    return xs


def charge(s: Any) -> None:
    """One function call, charged to the work budget."""
    s.work -= 1
    if s.work < 0:
        _over_budget()


def add(s: Any, a: Any, b: Any) -> Any:
    """`+`, and `+=`: joined lists and texts stay within LIST_LIMIT; the items added are charged
    to the work budget (so a list built item by item costs in proportion to its length)."""
    out = a + b
    if isinstance(out, (list, str)):
        if len(out) > LIST_LIMIT:
            msg = f"joining would make {len(out)} items, more than {LIST_LIMIT}"
            raise ValueError(msg)
        s.work -= len(b) + 1
        if s.work < 0:
            _over_budget()
    return out


def multiply(a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int and a.bit_length() + b.bit_length() > INT_BITS:
        msg = f"a product over {INT_BITS} bits: numbers in rules stay small"
        raise ValueError(msg)
    if isinstance(a, (list, str)) or isinstance(b, (list, str)):
        msg = f"cannot multiply {a!r:.30} by {b!r:.30}"
        raise TypeError(msg)
    return a * b


class NotConstant(Exception):  # noqa: N818 - a signal to constant folding, never seen by callers
    """The expression read something that changes during a game."""


class ConstVars(dict):
    def __missing__(self, key: Any) -> Any:
        raise NotConstant


class ConstState:
    """Stands in for a game state where expressions are evaluated before any game (constants,
    the checker's folding): only the given never-set variables and the work budget exist."""

    def __init__(self, consts: dict[str, Any]) -> None:
        self.vars = ConstVars(consts)
        self.work = WORK_LIMIT

    def __getattr__(self, name: str) -> Any:
        raise NotConstant


def attribute(value: Any, name: str) -> Any:
    """Reads an attribute of a piece, or projects it over a list of pieces."""
    if isinstance(value, Piece):
        return value.attrs[name]
    if isinstance(value, list):
        return [p.attrs[name] for p in value]
    msg = f"cannot read attribute {name!r} of {value!r}"
    raise TypeError(msg)


def suggest(name: str, candidates: Any) -> str:
    close = difflib.get_close_matches(name, list(candidates), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


@attrs.define
class Symbols:
    """Every global name of a ruleset, by kind."""

    enums: dict[str, tuple[str, ...]] = attrs.field(factory=dict)
    members: dict[str, str] = attrs.field(factory=dict)  # member -> enum
    zones: dict[str, tuple[str, ...]] = attrs.field(factory=dict)  # name -> dims
    vars: dict[str, tuple[str, ...]] = attrs.field(factory=dict)
    consts: dict[str, Any] = attrs.field(factory=dict)
    options: set[str] = attrs.field(factory=set)
    funcs: dict[str, ast.FuncDecl] = attrs.field(factory=dict)
    procs: dict[str, tuple[str, ...]] = attrs.field(factory=dict)
    attributes: set[str] = attrs.field(factory=set)
    grids: set[str] = attrs.field(factory=set)  # zones declared with grid(w, h)

    def all_names(self) -> list[str]:
        return [*self.enums, *self.members, *self.zones, *self.vars, *self.consts, *self.options, *STATE_NAMES]


_NONE = "None"


class ExprCompiler:
    """Turns AST expressions into compiled Python functions, recording diagnostics as it goes.

    `scope` is the set of procedure locals (read from the locals dict `L`); `bound` maps names
    bound inside an expression (comprehension variables, `it`, function parameters) to Python
    identifiers.
    """

    def __init__(self, symbols: Symbols, diagnostics: list[Diagnostic]) -> None:
        self.sym = symbols
        self.diags = diagnostics
        self.used: set[str] = set()
        self.ns: dict[str, Any] = {"_attr": attribute, "Piece": Piece, "_each": each, "_charge": charge,
                                   "_add": add, "_mul": multiply}
        for name, (fn, *_rest) in BUILTINS.items():
            self.ns[f"_b_{name}"] = fn
        self._counter = 0
        # Where the expression being compiled is read rather than run (see `compile`).
        self._reading: str | None = None

    @functools.cached_property
    def _drawing_funcs(self) -> set[str]:
        # Computed on first use: the symbols are complete by the time expressions compile.
        return _drawing_funcs(self.sym.funcs)

    def error(self, span: Span, msg: str) -> None:
        self.diags.append(Diagnostic(span, msg))

    def _const(self, value: Any) -> str:
        self._counter += 1
        name = f"_k{self._counter}"
        self.ns[name] = value
        return name

    def _fresh(self, base: str) -> str:
        self._counter += 1
        return f"_{base}{self._counter}"

    def _make(self, src: str) -> Expr:
        return eval(f"lambda s, L: {src}", self.ns)  # noqa: S307 - source generated from checked AST

    # Public entry points.
    def compile(self, node: Any, scope: set[str], reading: str | None = None) -> Expr:
        """Compiles an expression. `reading` names where it is evaluated on reads of the game
        (a choice's options, a score): there `random` would change the game by looking at it."""
        self._reading = reading
        try:
            return self._make(self.gen(node, scope, {}))
        finally:
            self._reading = None

    def compile_label(self, node: Any, what: str = "a label") -> Expr:
        """Compiles a component's label or parts, where `it` and `.attr` name the piece (passed
        as L['it'])."""
        self._reading = what
        try:
            return self._make(self.gen(node, set(), {"it": "L['it']"}))
        finally:
            self._reading = None

    def zone_key(self, node: Any, scope: set[str]) -> Expr | None:
        """Compiles a reference to one zone (not its contents) to a function giving its slot."""
        src = self._zone_slot(node, scope, {})
        return self._make(src) if src is not None else None

    def var_key(self, name: str, args: tuple, span: Span, scope: set[str]) -> Expr | None:
        src = self._var_key(name, args, span, scope, {})
        return self._make(src) if src is not None else None

    def compile_funcs(self) -> None:
        """Compiles every user function into the shared namespace; calls resolve by name."""
        for name, decl in self.sym.funcs.items():
            params = {p: f"_p_{p}" for p in decl.params}
            body = self.gen(decl.body, set(), params)
            args = "".join(f", {p}" for p in params.values())
            exec(f"def _f_{name}(s{args}):\n    _charge(s)\n    return {body}\n", self.ns)  # noqa: S102

    # Zones and variables.
    def _zone_slot(self, node: Any, scope: set[str], bound: dict[str, str]) -> str | None:
        if isinstance(node, ast.Name) and node.name in self.sym.zones and node.name not in bound:
            name, args = node.name, ()
        elif (isinstance(node, ast.Index) and isinstance(node.obj, ast.Name) and node.obj.name in self.sym.zones
              and node.obj.name not in bound):
            name, args = node.obj.name, node.args
        else:
            self.error(node.span, "expected a zone, such as 'deck' or 'hand[p]'")
            return None
        self.used.add(name)
        dims = self.sym.zones[name]
        if len(args) != len(dims):
            self.error(node.span, f"zone {name!r} takes {len(dims)} index(es) ({', '.join(dims) or 'none'}), got {len(args)}")
            return None
        if not dims:
            return f"s.zslot[{name!r}]"
        parts = ", ".join(self.gen(a, scope, bound) for a in args)
        return f"s.zslot[({name!r}, {parts})]"

    def _var_key(self, name: str, args: tuple, span: Span, scope: set[str], bound: dict[str, str]) -> str | None:
        dims = self.sym.vars[name]
        self.used.add(name)
        if len(args) != len(dims):
            self.error(span, f"variable {name!r} takes {len(dims)} index(es), got {len(args)}")
            return None
        if not dims:
            return repr(name)
        parts = ", ".join(self.gen(a, scope, bound) for a in args)
        return f"({name!r}, {parts})"

    # Expressions to Python source.
    def gen(self, node: Any, scope: set[str], bound: dict[str, str]) -> str:
        method = getattr(self, "_" + type(node).__name__, None)
        if method is None:
            self.error(node.span, "not an expression")
            return _NONE
        return method(node, scope, bound)

    def _Num(self, node: Any, scope: set[str], bound: dict[str, str]) -> str:
        return repr(node.value)

    _Str = _Bool = _Num

    def _NoneLit(self, node: ast.NoneLit, scope: set[str], bound: dict[str, str]) -> str:
        return "None"

    def _Name(self, node: ast.Name, scope: set[str], bound: dict[str, str]) -> str:  # noqa: PLR0911
        name = node.name
        sym = self.sym
        if name in bound:
            return bound[name]
        if name in scope:
            return f"L[{name!r}]"
        if name in sym.consts:
            self.used.add(name)
            return self._const(sym.consts[name])
        if name in sym.options:
            self.used.add(name)
            return f"s.options[{name!r}]"
        if name in sym.vars:
            if sym.vars[name]:
                self.error(node.span, f"variable {name!r} needs an index: {name}[{', '.join(sym.vars[name])}]")
            self.used.add(name)
            return f"s.vars[{name!r}]"
        if name in sym.zones:
            slot = self._zone_slot(node, scope, bound)
            return f"s.zones[{slot}]" if slot is not None else "[]"
        if name in sym.enums:
            return f"list({self._const(tuple(sym.enums[name]))})"
        if name in ("Player", "players"):
            return "list(s.players)"
        if name == "player_count":
            return "s.nplayers"
        if name in sym.members:
            return repr(name)
        self.error(node.span, f"unknown name {name!r}{suggest(name, [*scope, *bound, *sym.all_names()])}")
        return _NONE

    def _It(self, node: ast.It, scope: set[str], bound: dict[str, str]) -> str:
        if "it" not in bound:
            self.error(node.span, "'it' is only defined inside 'where'")
            return _NONE
        return bound["it"]

    def _check_attr(self, name: str, span: Span) -> None:
        if name not in self.sym.attributes:
            self.error(span, f"no component has an attribute {name!r}{suggest(name, self.sym.attributes)}")

    def _ItAttr(self, node: ast.ItAttr, scope: set[str], bound: dict[str, str]) -> str:
        self._check_attr(node.attr, node.span)
        if "it" not in bound:
            self.error(node.span, f"'.{node.attr}' is only defined inside 'where' or a component label")
            return _NONE
        return f"{bound['it']}.attrs[{node.attr!r}]"

    def _Attr(self, node: ast.Attr, scope: set[str], bound: dict[str, str]) -> str:
        self._check_attr(node.attr, node.span)
        return f"_attr({self.gen(node.obj, scope, bound)}, {node.attr!r})"

    def _Index(self, node: ast.Index, scope: set[str], bound: dict[str, str]) -> str:
        if isinstance(node.obj, ast.Name) and node.obj.name not in scope and node.obj.name not in bound:
            name = node.obj.name
            if name in self.sym.zones:
                slot = self._zone_slot(node, scope, bound)
                return f"s.zones[{slot}]" if slot is not None else "[]"
            if name in self.sym.vars:
                key = self._var_key(name, node.args, node.span, scope, bound)
                return f"s.vars[{key}]" if key is not None else _NONE
        self.error(node.span, "only zones and variables can be indexed; use first(), last() or position() on lists")
        return _NONE

    def _Call(self, node: ast.Call, scope: set[str], bound: dict[str, str]) -> str:
        name = node.func
        if name in GRID_ZONE_FIRST and name not in self.sym.funcs:
            return self._grid_call(node, scope, bound)
        args = [self.gen(a, scope, bound) for a in node.args]
        if self._reading is not None and (name == "random" or name in self._drawing_funcs):
            via = "" if name == "random" else f" ({name}() uses random)"
            self.error(node.span, f"random() cannot be used in {self._reading}{via}: it is evaluated whenever "
                                  "the game is read; draw into a variable with 'let' or 'set' first")
        if name in self.sym.funcs:
            decl = self.sym.funcs[name]
            self.used.add(name)
            if len(args) != len(decl.params):
                self.error(node.span, f"{name}() takes {len(decl.params)} argument(s), got {len(args)}")
                return _NONE
            return f"_f_{name}(s{''.join(', ' + a for a in args)})"
        if name not in BUILTINS:
            if name in self.sym.procs:
                self.error(node.span, f"{name!r} is a procedure; call it as a statement, not in an expression")
            else:
                self.error(node.span, f"unknown function {name!r}{suggest(name, [*BUILTINS, *self.sym.funcs])}")
            return _NONE
        _fn, low, high, needs_state = BUILTINS[name]
        if not low <= len(args) <= high:
            want = str(low) if low == high else f"{low} to {high}"
            self.error(node.span, f"{name}() takes {want} argument(s), got {len(args)}")
            return _NONE
        if needs_state:
            args = ["s", *args]
        return f"_b_{name}({', '.join(args)})"

    def _grid_call(self, node: ast.Call, scope: set[str], bound: dict[str, str]) -> str:
        """A grid built-in: its first argument names a grid zone (compiled to the zone's slot),
        and a key argument is an expression of `it`, the cell (docs/reference/grid.md)."""
        name = node.func
        _fn, low, high, _ = BUILTINS[name]
        if not low <= len(node.args) <= high:
            want = str(low) if low == high else f"{low} to {high}"
            self.error(node.span, f"{name}() takes {want} argument(s), got {len(node.args)}")
            return _NONE
        zone = node.args[0]
        target = zone.obj if isinstance(zone, ast.Index) else zone
        if not (isinstance(target, ast.Name) and target.name in self.sym.grids and target.name not in bound
                and target.name not in scope):
            shown = f" ({target.name!r} is not one)" if isinstance(target, ast.Name) and target.name in self.sym.zones else ""
            self.error(zone.span, f"{name}() needs a grid zone first, such as 'board' declared with grid(w, h){shown}")
            return _NONE
        slot = self._zone_slot(zone, scope, bound)
        args = [slot or _NONE]
        for i, a in enumerate(node.args[1:], 1):
            if GRID_KEY_ARG.get(name) == i:
                var = self._fresh("cell")
                args.append(f"(lambda {var}: {self.gen(a, scope, {**bound, 'it': var})})")
            else:
                args.append(self.gen(a, scope, bound))
        return f"_b_{name}(s, {', '.join(args)})"

    def _Unary(self, node: ast.Unary, scope: set[str], bound: dict[str, str]) -> str:
        inner = self.gen(node.operand, scope, bound)
        return f"(not {inner})" if node.op == "not" else f"(-{inner})"

    def _Binary(self, node: ast.Binary, scope: set[str], bound: dict[str, str]) -> str:
        left = self.gen(node.left, scope, bound)
        right = self.gen(node.right, scope, bound)
        if node.op == "+":
            return f"_add(s, {left}, {right})"
        if node.op == "*":
            return f"_mul({left}, {right})"
        return f"({left} {_OPS[node.op]} {right})"

    def _BoolOp(self, node: ast.BoolOp, scope: set[str], bound: dict[str, str]) -> str:
        return "(" + f" {node.op} ".join(self.gen(v, scope, bound) for v in node.values) + ")"

    def _Ternary(self, node: ast.Ternary, scope: set[str], bound: dict[str, str]) -> str:
        c, t, o = (self.gen(x, scope, bound) for x in (node.cond, node.then, node.other))
        return f"({t} if {c} else {o})"

    def _ListLit(self, node: ast.ListLit, scope: set[str], bound: dict[str, str]) -> str:
        return "[" + ", ".join(self.gen(x, scope, bound) for x in node.items) + "]"

    def _Where(self, node: ast.Where, scope: set[str], bound: dict[str, str]) -> str:
        coll = self.gen(node.coll, scope, bound)
        var = self._fresh("it")
        cond = self.gen(node.cond, scope, {**bound, "it": var})
        return f"[{var} for {var} in _each(s, {coll}) if {cond}]"

    def _ListComp(self, node: ast.ListComp, scope: set[str], bound: dict[str, str]) -> str:
        inner = dict(bound)
        clauses = []
        for f in node.fors:
            it = self.gen(f.iter, scope, inner)
            var = self._fresh(f"v_{f.var}_")
            inner = {**inner, f.var: var}
            clause = f"for {var} in _each(s, {it})"
            if f.cond is not None:
                clause += f" if {self.gen(f.cond, scope, inner)}"
            clauses.append(clause)
        return f"[{self.gen(node.elt, scope, inner)} {' '.join(clauses)}]"


def _drawing_funcs(funcs: dict[str, Any]) -> set[str]:
    """User functions that call random(), directly or through one another."""
    calls = {name: _calls(decl.body) for name, decl in funcs.items()}
    drawing = {name for name, called in calls.items() if "random" in called}
    grew = True
    while grew:
        grew = False
        for name, called in calls.items():
            if name not in drawing and called & drawing:
                drawing.add(name)
                grew = True
    return drawing


def _calls(node: Any) -> set[str]:
    """Names of the functions an expression calls."""
    return {n.func for n in ast.walk(node) if isinstance(n, ast.Call)}
