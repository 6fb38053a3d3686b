"""Compiles checked expressions to closures `f(state, locals)`, once, at load time.

Name resolution happens here, in one place: locals, then constants, options, variables,
zones, enums and their members, built-in names. Problems become diagnostics, never exceptions.
"""

from __future__ import annotations

import difflib
import operator
from typing import Any, Callable

import attrs

from boardkit import ast
from boardkit.builtins import BUILTINS, STATE_NAMES
from boardkit.errors import Diagnostic
from boardkit.pieces import Piece
from boardkit.source import Span

Expr = Callable[[Any, dict], Any]

_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.floordiv, "%": operator.mod,
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
    ">=": operator.ge, "in": lambda a, b: a in b, "not in": lambda a, b: a not in b,
}


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

    def all_names(self) -> list[str]:
        return [*self.enums, *self.members, *self.zones, *self.vars, *self.consts, *self.options, *STATE_NAMES]


class ExprCompiler:
    """Turns AST expressions into closures, recording diagnostics as it goes."""

    def __init__(self, symbols: Symbols, diagnostics: list[Diagnostic]) -> None:
        self.sym = symbols
        self.diags = diagnostics
        self._funcs: dict[str, Expr] = {}
        self.used: set[str] = set()

    def error(self, span: Span, msg: str) -> None:
        self.diags.append(Diagnostic(span, msg))

    # Zones and variables addressed by name and index.
    def zone_key(self, node: Any, scope: set[str]) -> Expr | None:
        """Compiles a reference to one zone (not its contents) to a closure giving its slot."""
        if isinstance(node, ast.Name) and node.name in self.sym.zones:
            name, args = node.name, ()
        elif isinstance(node, ast.Index) and isinstance(node.obj, ast.Name) and node.obj.name in self.sym.zones:
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
            return lambda s, L: s.zslot[name]
        fns = [self.compile(a, scope) for a in args]
        if len(fns) == 1:
            f0 = fns[0]
            return lambda s, L: s.zslot[(name, f0(s, L))]
        return lambda s, L: s.zslot[(name, *(f(s, L) for f in fns))]

    def var_key(self, name: str, args: tuple, span: Span, scope: set[str]) -> Expr | None:
        dims = self.sym.vars[name]
        self.used.add(name)
        if len(args) != len(dims):
            self.error(span, f"variable {name!r} takes {len(dims)} index(es), got {len(args)}")
            return None
        if not dims:
            return lambda s, L: name
        fns = [self.compile(a, scope) for a in args]
        return lambda s, L: (name, *(f(s, L) for f in fns))

    # Expressions.
    def compile(self, node: Any, scope: set[str]) -> Expr:
        method = getattr(self, "_" + type(node).__name__, None)
        if method is None:
            self.error(node.span, "not an expression")
            return lambda s, L: None
        return method(node, scope)

    def _Num(self, node: ast.Num, scope: set[str]) -> Expr:
        v = node.value
        return lambda s, L: v

    _Str = _Bool = _Num

    def _Name(self, node: ast.Name, scope: set[str]) -> Expr:
        name = node.name
        sym = self.sym
        if name in scope:
            return lambda s, L: L[name]
        if name in sym.consts:
            v = sym.consts[name]
            return lambda s, L: v
        if name in sym.options:
            self.used.add(name)
            return lambda s, L: s.options[name]
        if name in sym.vars:
            if sym.vars[name]:
                self.error(node.span, f"variable {name!r} needs an index: {name}[{', '.join(sym.vars[name])}]")
            self.used.add(name)
            return lambda s, L: s.vars[name]
        if name in sym.zones:
            key = self.zone_key(node, scope)
            if key is None:
                return lambda s, L: []
            return lambda s, L: s.zones[key(s, L)]
        if name in sym.enums:
            members = list(sym.enums[name])
            return lambda s, L: list(members)
        if name == "Player" or name == "players":
            return lambda s, L: list(s.players)
        if name == "player_count":
            return lambda s, L: s.nplayers
        if name in sym.members:
            return lambda s, L: name
        self.error(node.span, f"unknown name {name!r}{suggest(name, [*scope, *sym.all_names()])}")
        return lambda s, L: None

    def _It(self, node: ast.It, scope: set[str]) -> Expr:
        if "it" not in scope:
            self.error(node.span, "'it' is only defined inside 'where'")
        return lambda s, L: L["it"]

    def _check_attr(self, name: str, span: Span) -> None:
        if name not in self.sym.attributes:
            self.error(span, f"no component has an attribute {name!r}{suggest(name, self.sym.attributes)}")

    def _ItAttr(self, node: ast.ItAttr, scope: set[str]) -> Expr:
        if "it" not in scope:
            self.error(node.span, f"'.{node.attr}' is only defined inside 'where' or a component label")
        self._check_attr(node.attr, node.span)
        name = node.attr
        return lambda s, L: L["it"].attrs[name]

    def _Attr(self, node: ast.Attr, scope: set[str]) -> Expr:
        self._check_attr(node.attr, node.span)
        obj = self.compile(node.obj, scope)
        name = node.attr
        return lambda s, L: attribute(obj(s, L), name)

    def _Index(self, node: ast.Index, scope: set[str]) -> Expr:
        if isinstance(node.obj, ast.Name) and node.obj.name not in scope:
            name = node.obj.name
            if name in self.sym.zones:
                key = self.zone_key(node, scope)
                if key is None:
                    return lambda s, L: []
                return lambda s, L: s.zones[key(s, L)]
            if name in self.sym.vars:
                key = self.var_key(name, node.args, node.span, scope)
                if key is None:
                    return lambda s, L: None
                return lambda s, L: s.vars[key(s, L)]
        self.error(node.span, "only zones and variables can be indexed; use first(), last() or position() on lists")
        return lambda s, L: None

    def _Call(self, node: ast.Call, scope: set[str]) -> Expr:
        name = node.func
        args = [self.compile(a, scope) for a in node.args]
        if name in self.sym.funcs:
            return self._call_func(node, args)
        if name not in BUILTINS:
            if name in self.sym.procs:
                self.error(node.span, f"{name!r} is a procedure; call it as a statement, not in an expression")
            else:
                self.error(node.span, f"unknown function {name!r}{suggest(name, [*BUILTINS, *self.sym.funcs])}")
            return lambda s, L: None
        fn, low, high, needs_state = BUILTINS[name]
        if not low <= len(args) <= high:
            want = str(low) if low == high else f"{low} to {high}"
            self.error(node.span, f"{name}() takes {want} argument(s), got {len(args)}")
            return lambda s, L: None
        if needs_state:
            return lambda s, L: fn(s, *(a(s, L) for a in args))
        if len(args) == 1:
            a0 = args[0]
            return lambda s, L: fn(a0(s, L))
        if len(args) == 2:
            a0, a1 = args
            return lambda s, L: fn(a0(s, L), a1(s, L))
        return lambda s, L: fn(*(a(s, L) for a in args))

    def _call_func(self, node: ast.Call, args: list[Expr]) -> Expr:
        decl = self.sym.funcs[node.func]
        self.used.add(node.func)
        if len(args) != len(decl.params):
            self.error(node.span, f"{node.func}() takes {len(decl.params)} argument(s), got {len(args)}")
            return lambda s, L: None
        params = decl.params
        funcs = self._funcs
        fname = node.func
        return lambda s, L: funcs[fname](s, dict(zip(params, [a(s, L) for a in args])))

    def compile_funcs(self) -> None:
        """Compiles every user function; calls resolve through a table, so recursion works."""
        for name, decl in self.sym.funcs.items():
            self._funcs[name] = self.compile(decl.body, set(decl.params))

    def _Unary(self, node: ast.Unary, scope: set[str]) -> Expr:
        f = self.compile(node.operand, scope)
        if node.op == "not":
            return lambda s, L: not f(s, L)
        return lambda s, L: -f(s, L)

    def _Binary(self, node: ast.Binary, scope: set[str]) -> Expr:
        left = self.compile(node.left, scope)
        right = self.compile(node.right, scope)
        op = _BINARY[node.op]
        if node.op == "in":
            return lambda s, L: left(s, L) in right(s, L)
        if node.op == "not in":
            return lambda s, L: left(s, L) not in right(s, L)
        if node.op == "==":
            return lambda s, L: left(s, L) == right(s, L)
        return lambda s, L: op(left(s, L), right(s, L))

    def _BoolOp(self, node: ast.BoolOp, scope: set[str]) -> Expr:
        fs = [self.compile(v, scope) for v in node.values]
        if node.op == "and":
            if len(fs) == 2:
                a, b = fs
                return lambda s, L: a(s, L) and b(s, L)
            return lambda s, L: all(f(s, L) for f in fs)
        if len(fs) == 2:
            a, b = fs
            return lambda s, L: a(s, L) or b(s, L)
        return lambda s, L: any(f(s, L) for f in fs)

    def _Ternary(self, node: ast.Ternary, scope: set[str]) -> Expr:
        c, t, o = (self.compile(x, scope) for x in (node.cond, node.then, node.other))
        return lambda s, L: t(s, L) if c(s, L) else o(s, L)

    def _ListLit(self, node: ast.ListLit, scope: set[str]) -> Expr:
        fs = [self.compile(x, scope) for x in node.items]
        return lambda s, L: [f(s, L) for f in fs]

    def _Where(self, node: ast.Where, scope: set[str]) -> Expr:
        coll = self.compile(node.coll, scope)
        cond = self.compile(node.cond, scope | {"it"})

        def where(s: Any, L: dict) -> list:
            inner = dict(L)
            out = []
            for x in coll(s, L):
                inner["it"] = x
                if cond(s, inner):
                    out.append(x)
            return out

        return where

    def _ListComp(self, node: ast.ListComp, scope: set[str]) -> Expr:
        inner_scope = set(scope)
        loops = []
        for f in node.fors:
            it = self.compile(f.iter, inner_scope)
            inner_scope = inner_scope | {f.var}
            cond = self.compile(f.cond, inner_scope) if f.cond is not None else None
            loops.append((f.var, it, cond))
        elt = self.compile(node.elt, inner_scope)
        if len(loops) == 1:
            var, it, cond = loops[0]

            def comp1(s: Any, L: dict) -> list:
                inner = dict(L)
                out = []
                for x in it(s, L):
                    inner[var] = x
                    if cond is None or cond(s, inner):
                        out.append(elt(s, inner))
                return out

            return comp1

        def comp(s: Any, L: dict) -> list:
            out: list = []

            def walk(i: int, env: dict) -> None:
                if i == len(loops):
                    out.append(elt(s, env))
                    return
                var, it, cond = loops[i]
                for x in it(s, env):
                    inner = dict(env)
                    inner[var] = x
                    if cond is None or cond(s, inner):
                        walk(i + 1, inner)

            walk(0, L)
            return out

        return comp
