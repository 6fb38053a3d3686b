"""Resolves the names in AST expressions: AST -> checked model expressions, with diagnostics.

Name resolution happens here, in one place: locals, constants, options, variables, zones,
enums and their members, built-in names. Problems become diagnostics, never exceptions; a
node that cannot be resolved becomes `none`, so that checking goes on and reports them all.
"""

from __future__ import annotations

import functools
import itertools
from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias

import attrs

from boardkit.errors import Diagnostic
from boardkit.lang import ast
from boardkit.model import expr as m
from boardkit.model.defs import number_range
from boardkit.model.signatures import SIGNATURES, STATE_NAMES

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from boardkit.source import Span


# Literals as other languages write them.
_LITERAL_SLIPS = {"True": "; write 'true'", "False": "; write 'false'", "None": "; write 'none'",
                  "null": "; write 'none'", "TRUE": "; write 'true'", "FALSE": "; write 'false'"}


# Did-you-mean compares a misspelt name with known ones, one by one: at most this many for one
# name, and this many in all for one check, so that a file full of unknown names is checked in
# time in proportion to its size (far more than real rules need: a slip in the largest bundled ruleset is compared
# with 145).
SUGGEST_PER_NAME = 2_000
SUGGEST_PER_CHECK = 20_000


def _written(value: object) -> str:
    """A literal as the rules write it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "none" if value is None else repr(value)


class Suggester:
    """Did-you-mean for one check, its work bounded: `compared` counts the names compared."""

    def __init__(self) -> None:
        self.compared = 0

    def __call__(self, name: str, *pools: Iterable[str]) -> str:
        """Returns "; did you mean 'x'?" for the known name closest to a misspelt `name`, or "".

        The pools are read lazily, in order, and only as far as the budget goes.
        """
        left = min(SUGGEST_PER_NAME, SUGGEST_PER_CHECK - self.compared)
        if left <= 0:
            return ""
        candidates = list(itertools.islice(itertools.chain.from_iterable(pools), left))
        self.compared += len(candidates)
        import difflib  # noqa: PLC0415 - only where a name is misspelt: most checks never need it

        close = difflib.get_close_matches(name, candidates, n=1)
        return f"; did you mean {close[0]!r}?" if close else ""


class Symbols:
    """Every global name of a ruleset, by kind."""

    def __init__(self) -> None:
        self.enums: dict[str, tuple[str, ...]] = {}
        self.members: dict[str, str] = {}  # member -> enum
        self.zones: dict[str, tuple[str, ...]] = {}  # name -> dims
        self.vars: dict[str, tuple[str, ...]] = {}
        self.consts: set[str] = set()
        self.options: set[str] = set()
        self.funcs: dict[str, ast.FuncDecl] = {}
        self.procs: dict[str, tuple[str, ...]] = {}
        self.attributes: set[str] = set()
        self.grids: set[str] = set()  # zones declared with grid(w, h)
        self.no_list: set[str] = set()  # variables that start as a number, text or truth value

    def all_names(self) -> Iterable[str]:
        """Every name an expression may use, for suggestions (read lazily)."""
        return itertools.chain(self.enums, self.members, self.zones, self.vars, self.consts, self.options,
                               STATE_NAMES)


Bindings: TypeAlias = dict[str, m.Bound]


class Resolver:
    """Turns AST expressions into model expressions, recording diagnostics as it goes.

    `scope` is the set of procedure locals; `bound` maps names bound inside an expression
    (comprehension variables, `it`, function parameters) to their `Bound` nodes.
    """

    def __init__(self, symbols: Symbols, diagnostics: list[Diagnostic]) -> None:
        self.sym = symbols
        self.diags = diagnostics
        self.used: set[str] = set()
        self.suggest = Suggester()
        self._counter = 0
        # `.attr` nodes just after a `where` (by id), for a message that explains why they are
        # outside it.
        self._after_where: dict[int, str] = {}
        # Where the expression being resolved is read rather than run (see `resolve`).
        self._reading: str | None = None
        # Procedure locals by name, with their procedure, where none is in scope (an
        # invariant): named in the message for one used there.
        self.proc_locals: dict[str, str] = {}

    @functools.cached_property
    def _drawing_funcs(self) -> set[str]:
        # Computed on first use: the symbols are complete by the time expressions resolve.
        return _drawing_funcs(self.sym.funcs)

    def error(self, span: Span, msg: str) -> None:
        """Records a problem at `span`."""
        self.diags.append(Diagnostic(span, msg))

    def fresh(self, span: Span, base: str) -> m.Bound:
        """Returns a new bound name, unique in the ruleset."""
        self._counter += 1
        return m.Bound(span, f"_{base}{self._counter}")

    # Public entry points.
    def resolve(self, node: ast.Expr, scope: set[str], reading: str | None = None,
                bound: Bindings | None = None) -> m.Expr:
        """Resolves an expression.

        `reading` names where it is evaluated on reads of the game (a choice's options, a
        score): there `random` would change the game by looking at it.
        """
        self._reading = reading
        try:
            return self.gen(node, scope, bound or {})
        finally:
            self._reading = None

    def zone(self, node: ast.Expr, scope: set[str], bound: Bindings | None = None) -> m.ZoneRef | None:
        """Resolves a reference to one zone (not its contents)."""
        bound = bound or {}
        args: tuple[ast.Expr, ...]
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
            wanted = ", ".join(dims) or "none"
            self.error(node.span, f"zone {name!r} takes {len(dims)} index(es) ({wanted}), got {len(args)}")
            return None
        return m.ZoneRef(node.span, name, tuple(self.gen(a, scope, bound) for a in args))

    def var_args(self, name: str, args: tuple[ast.Expr, ...], span: Span, scope: set[str],
                 bound: Bindings | None = None) -> tuple[m.Expr, ...] | None:
        """Resolves the indexes of variable `name`; None, with a diagnostic, if their number is wrong."""
        dims = self.sym.vars[name]
        self.used.add(name)
        if len(args) != len(dims):
            items = len(args) == len(dims) + 1 and name in self.sym.no_list
            hint = "; it starts as a number, text or truth value, which has no items" if items else ""
            self.error(span, f"variable {name!r} takes {len(dims)} index(es), got {len(args)}{hint}")
            return None
        out = tuple(self.gen(a, scope, bound or {}) for a in args)
        for dim, arg in zip(dims, out, strict=True):
            self._check_number_index(name, dim, arg)
        return out

    def _check_number_index(self, name: str, dim: str, arg: m.Expr) -> None:
        """An index written as a value, checked against a range of numbers the variable takes."""
        numbers = number_range(dim)
        negative = isinstance(arg, m.Unary) and arg.op == "-" and isinstance(arg.operand, m.Lit)
        literal = arg.operand if isinstance(arg, m.Unary) and negative else arg
        if numbers is None or not isinstance(literal, m.Lit):
            return
        if type(literal.value) is not int:
            self.error(arg.span, f"variable {name!r} is indexed by the numbers {dim}, not by {_written(literal.value)}")
        elif (-literal.value if negative else literal.value) not in numbers:
            value = -literal.value if negative else literal.value
            self.error(arg.span, f"index {value} is outside {dim}, the indexes of variable {name!r}")

    def var_item(self, name: str, args: tuple[ast.Expr, ...], span: Span, scope: set[str],
                 bound: Bindings | None = None) -> tuple[tuple[m.Expr, ...], m.Expr] | None:
        """The indexes of a variable and the position of an item in the list it holds.

        That is for `name[..., i]`, written with one index more than the variable has; None if
        it is not written so.
        """
        if len(args) != len(self.sym.vars[name]) + 1 or name in self.sym.no_list:
            return None
        indexes = self.var_args(name, args[:-1], span, scope, bound)
        item = self.gen(args[-1], scope, bound or {})
        if isinstance(item, m.Lit) and (type(item.value) is not int or item.value < 1):
            self.error(item.span, f"the items of a list count from 1: {_written(item.value)} is no item of {name!r}")
        return None if indexes is None else (indexes, item)

    # Expressions.
    def gen(self, node: ast.Expr, scope: set[str], bound: Bindings) -> m.Expr:
        """Resolves an expression within another; `bound` holds the names bound around it."""
        method = self._METHODS.get(type(node))
        if method is None:
            self.error(node.span, "not an expression")
            return m.Lit(node.span, None)
        return method(self, node, scope, bound)

    def _literal(self, node: ast.Num | ast.Str | ast.Bool, _scope: set[str], _bound: Bindings) -> m.Expr:
        return m.Lit(node.span, node.value)

    def _none(self, node: ast.NoneLit, _scope: set[str], _bound: Bindings) -> m.Expr:
        return m.Lit(node.span, None)

    def _name(self, node: ast.Name, scope: set[str], bound: Bindings) -> m.Expr:  # noqa: C901, PLR0911 - one case per kind of name
        name, sym, span = node.name, self.sym, node.span
        if name in bound:
            return attrs.evolve(bound[name], span=span)
        if name in scope:
            return m.Local(span, name)
        if name in sym.consts:
            self.used.add(name)
            return m.ConstRef(span, name)
        if name in sym.options:
            self.used.add(name)
            return m.OptionRef(span, name)
        if name in sym.vars:
            if sym.vars[name]:
                self.error(span, f"variable {name!r} needs an index: {name}[{', '.join(sym.vars[name])}]")
            self.used.add(name)
            return m.VarRef(span, name, ())
        if name in sym.zones:
            zone = self.zone(node, scope, bound)
            return zone if zone is not None else m.ListLit(span, ())
        if name in sym.enums:
            return m.EnumList(span, tuple(sym.enums[name]))
        if name in ("Player", "players"):
            return m.StateRef(span, "players")
        if name == "player_count":
            return m.StateRef(span, "player_count")
        if name in sym.members:
            return m.Lit(span, name)
        if name in self.proc_locals:
            self.error(span, f"{name!r} is a local of procedure {self.proc_locals[name]!r}: {self._reading} reads "
                             "only what the game keeps between decisions (zones, variables, constants, options)")
            return m.Lit(span, None)
        hint = _LITERAL_SLIPS.get(name) or self.suggest(name, scope, bound, sym.all_names())
        self.error(span, f"unknown name {name!r}{hint}")
        return m.Lit(span, None)

    def _it(self, node: ast.It, _scope: set[str], bound: Bindings) -> m.Expr:
        if "it" not in bound:
            self.error(node.span, "'it' is only defined inside 'where'")
            return m.Lit(node.span, None)
        return bound["it"]

    def _check_attr(self, name: str, span: Span) -> None:
        if name not in self.sym.attributes:
            self.error(span, f"no component has an attribute {name!r}{self.suggest(name, self.sym.attributes)}")

    def _it_attr(self, node: ast.ItAttr, _scope: set[str], bound: Bindings) -> m.Expr:
        self._check_attr(node.attr, node.span)
        if "it" not in bound:
            after = self._after_where.get(id(node))
            if after is not None:
                self.error(node.span, f"'.{node.attr}' is outside the 'where' before it: 'where' takes only "
                                      f"the comparison after it, so '{after}' ends the filter; put the whole "
                                      "condition in parentheses: xs where (... and ...)")
            else:
                self.error(node.span, f"'.{node.attr}' is only defined inside 'where' or a component label")
            return m.Lit(node.span, None)
        return m.PieceAttr(node.span, bound["it"], node.attr)

    def _attr(self, node: ast.Attr, scope: set[str], bound: Bindings) -> m.Expr:
        self._check_attr(node.attr, node.span)
        return m.Attr(node.span, self.gen(node.obj, scope, bound), node.attr)

    def _index(self, node: ast.Index, scope: set[str], bound: Bindings) -> m.Expr:
        if isinstance(node.obj, ast.Name) and node.obj.name not in scope and node.obj.name not in bound:
            name = node.obj.name
            if name in self.sym.zones:
                zone = self.zone(node, scope, bound)
                return zone if zone is not None else m.ListLit(node.span, ())
            if name in self.sym.vars:
                item = self.var_item(name, node.args, node.span, scope, bound)
                if item is not None:  # an item of the list it holds, as nth() reads it
                    return m.BuiltinCall(node.span, "nth", (m.VarRef(node.span, name, item[0]), item[1]),
                                         needs_state=False)
                args = self.var_args(name, node.args, node.span, scope, bound)
                return m.VarRef(node.span, name, args) if args is not None else m.Lit(node.span, None)
        self.error(node.span, "only zones and variables can be indexed; use first(), last() or position() on lists")
        return m.Lit(node.span, None)

    def _call(self, node: ast.Call, scope: set[str], bound: Bindings) -> m.Expr:
        name, span = node.func, node.span
        sig = SIGNATURES.get(name)
        if sig is not None and sig.grid_zone_first and name not in self.sym.funcs:
            return self._grid_call(node, scope, bound)
        args = tuple(self.gen(a, scope, bound) for a in node.args)
        if self._reading is not None and (name == "random" or name in self._drawing_funcs):
            via = "" if name == "random" else f" ({name}() uses random)"
            hint = ("an invariant only reads the game, it cannot draw" if self._reading == "an invariant" else
                    "draw into a variable with 'let' or 'set' first")
            self.error(span, f"random() cannot be used in {self._reading}{via}: it is evaluated whenever "
                             f"the game is read; {hint}")
        if name in self.sym.funcs:
            decl = self.sym.funcs[name]
            self.used.add(name)
            if len(args) != len(decl.params):
                self.error(span, f"{name}() takes {len(decl.params)} argument(s), got {len(args)}")
                return m.Lit(span, None)
            return m.FuncCall(span, name, args)
        if sig is None:
            if name in self.sym.procs:
                self.error(span, f"{name!r} is a procedure; call it as a statement, not in an expression")
            else:
                self.error(span, f"unknown function {name!r}{self.suggest(name, SIGNATURES, self.sym.funcs)}")
            return m.Lit(span, None)
        if not sig.low <= len(args) <= sig.high:
            want = str(sig.low) if sig.low == sig.high else f"{sig.low} to {sig.high}"
            self.error(span, f"{name}() takes {want} argument(s), got {len(args)}")
            return m.Lit(span, None)
        return m.BuiltinCall(span, name, args, sig.needs_state)

    def _grid_call(self, node: ast.Call, scope: set[str], bound: Bindings) -> m.Expr:
        """Resolves a call of a grid built-in.

        Its first argument names a grid zone, and a key argument is an expression of `it`, the
        cell (docs/reference/grid.md).
        """
        name, span = node.func, node.span
        sig = SIGNATURES[name]
        if not sig.low <= len(node.args) <= sig.high:
            want = str(sig.low) if sig.low == sig.high else f"{sig.low} to {sig.high}"
            self.error(span, f"{name}() takes {want} argument(s), got {len(node.args)}")
            return m.Lit(span, None)
        zone_node = node.args[0]
        target = zone_node.obj if isinstance(zone_node, ast.Index) else zone_node
        if not (isinstance(target, ast.Name) and target.name in self.sym.grids and target.name not in bound
                and target.name not in scope):
            shown = (f" ({target.name!r} is not one)"
                     if isinstance(target, ast.Name) and target.name in self.sym.zones else "")
            msg = f"{name}() needs a grid zone first, such as 'board' declared with grid(w, h){shown}"
            self.error(zone_node.span, msg)
            return m.Lit(span, None)
        zone = self.zone(zone_node, scope, bound)
        if zone is None:
            return m.Lit(span, None)
        args: list[m.Expr | m.KeyFunc] = []
        for i, a in enumerate(node.args[1:], 1):
            if sig.key_arg == i:
                cell = self.fresh(a.span, "cell")
                args.append(m.KeyFunc(a.span, cell, self.gen(a, scope, {**bound, "it": cell})))
            else:
                args.append(self.gen(a, scope, bound))
        return m.GridCall(span, name, zone, tuple(args))

    def _unary(self, node: ast.Unary, scope: set[str], bound: Bindings) -> m.Expr:
        return m.Unary(node.span, node.op, self.gen(node.operand, scope, bound))

    def _binary(self, node: ast.Binary, scope: set[str], bound: Bindings) -> m.Expr:
        return m.Binary(node.span, node.op, self.gen(node.left, scope, bound), self.gen(node.right, scope, bound))

    def _bool_op(self, node: ast.BoolOp, scope: set[str], bound: Bindings) -> m.Expr:
        # `xs where .a > 1 and .b == c` reads as `(xs where .a > 1) and .b == c`: say so at `.b`.
        if "it" not in bound and isinstance(node.values[0], ast.Where):
            for value in node.values[1:]:
                for inner in ast.walk(value):
                    if isinstance(inner, ast.ItAttr):
                        self._after_where[id(inner)] = node.op
        return m.BoolOp(node.span, node.op, tuple(self.gen(v, scope, bound) for v in node.values))

    def _ternary(self, node: ast.Ternary, scope: set[str], bound: Bindings) -> m.Expr:
        return m.Ternary(node.span, self.gen(node.cond, scope, bound), self.gen(node.then, scope, bound),
                         self.gen(node.other, scope, bound))

    def _list(self, node: ast.ListLit, scope: set[str], bound: Bindings) -> m.Expr:
        return m.ListLit(node.span, tuple(self.gen(x, scope, bound) for x in node.items))

    def _where(self, node: ast.Where, scope: set[str], bound: Bindings) -> m.Expr:
        coll = self.gen(node.coll, scope, bound)
        it = self.fresh(node.span, "it")
        return m.Where(node.span, coll, it, self.gen(node.cond, scope, {**bound, "it": it}))

    def _list_comp(self, node: ast.ListComp, scope: set[str], bound: Bindings) -> m.Expr:
        inner = dict(bound)
        fors: list[m.CompFor] = []
        for f in node.fors:
            it = self.gen(f.iter, scope, inner)
            var = self.fresh(f.span, f"v_{f.var}_")
            inner = {**inner, f.var: var}
            cond = self.gen(f.cond, scope, inner) if f.cond is not None else None
            fors.append(m.CompFor(f.span, var, it, cond))
        return m.ListComp(node.span, self.gen(node.elt, scope, inner), tuple(fors))

    # The method that resolves each kind of expression node.
    _METHODS: ClassVar[dict[type[ast.Expr], Callable[[Resolver, Any, set[str], Bindings], m.Expr]]] = {
        ast.Num: _literal, ast.Str: _literal, ast.Bool: _literal, ast.NoneLit: _none, ast.Name: _name, ast.It: _it,
        ast.ItAttr: _it_attr, ast.Attr: _attr, ast.Index: _index, ast.Call: _call, ast.Unary: _unary,
        ast.Binary: _binary, ast.BoolOp: _bool_op, ast.Ternary: _ternary, ast.ListLit: _list, ast.Where: _where,
        ast.ListComp: _list_comp,
    }


def _drawing_funcs(funcs: dict[str, ast.FuncDecl]) -> set[str]:
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


def _calls(node: ast.Expr) -> set[str]:
    """Names of the functions an expression calls."""
    return {n.func for n in ast.walk(node) if isinstance(n, ast.Call)}
