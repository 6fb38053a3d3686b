"""Checked expressions -> Python expression source.

The source reads the game through `s` (the runtime state) and procedure locals through `L`;
everything else it names is a module global of the generated program: constants `K_*`,
functions `F_*`, built-ins `_b_*` and the helpers bound by the runtime (`_attr`, `_each`,
`_add`, `_mul`).

Where the checked model shows that a value is a list of pieces (a zone, a filter of one, a
join of such), the source reads attributes directly instead of through the generic helper.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, cast

import attrs

from boardkit.model import defs as d
from boardkit.model import expr as m
from boardkit.model import fields_getter
from boardkit.model.signatures import LIST, LISTS, SIGNATURES
from boardkit.source import SourceFile, Span

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

_OPS = {"+": "+", "-": "-", "*": "*", "/": "//", "%": "%", "==": "==", "!=": "!=", "<": "<", "<=": "<=",
        ">": ">", ">=": ">=", "in": "in", "not in": "not in"}


class ExprGen:
    """Generates the source of the expressions of one ruleset."""

    def __init__(self, game: d.GameDef) -> None:
        self.game = game
        # Zones are found through `s.zf[family][index]...`: one small lookup per index.
        self.family = {name: i for i, name in enumerate(game.zones)}
        # What `_holding` found, by test's name (`pieces`, `lists`, `nested`): the user functions whose
        # body always passes it, and the parameters that every call gives a value that does.
        self._holding_found: dict[str, tuple[set[str], set[str]]] = {}
        self._calls: dict[str, list[m.FuncCall]] | None = None
        self._list_params_found: set[str] | None = None
        # The name of the dict of procedure locals in the code being written.
        self.locals = "L"
        # The functions whose results s.memo keeps (set by the module writer before any
        # source is made), and the projections of their results the source reads: function
        # name -> attribute names, each written as a remembered function `FA_f__attr`.
        self.remembered: frozenset[str] = frozenset()
        # Small functions written out at their calls when every argument is a plain name
        # (set by the module writer): name -> parameters and body.
        self.inlined: dict[str, d.FuncDef] = {}
        # The names of procedure locals that hold a list (or none), wherever a local of that
        # name is (set by the module writer before any source is made): a function given one
        # keys it by identity (`keyed_by_identity`).
        self.list_locals: frozenset[str] = frozenset()
        # The names of procedure locals that always hold a whole number (set by the module
        # writer, `_numbered_names`): what `number` knows of a local.
        self.number_locals: frozenset[str] = frozenset()
        # Names bound to the items of a list of pieces (`for x in hand`): pieces themselves (as
        # comprehensions are written). And, found with the calls (`_gathered`), to the numbers
        # of a `range`: whole numbers (names are unique in a ruleset).
        self._piece_vars: set[str] = set()
        self._ranged: set[str] = set()
        self.projections: dict[str, set[str]] = {}
        # While a function's body is written: the work its comprehensions over lists of fixed
        # length do, charged once with the call instead of per walk (None elsewhere); and how
        # many comprehension bodies the source being written lies in.
        self.charged: int | None = None
        self._inside = 0
        # While the list a comprehension walks is written: no `:=` there (Python forbids it).
        self._iterable = 0
        # The grid zones whose top pieces the source looks up by (x, y) (runtime/grid.py Board).
        self.tops_by_xy: set[str] = set()
        # While a comprehension (or a function's body) is written: the tables of grid zones it
        # reads, each looked up once, before its first item (before the body), as a name of its
        # own (source -> name). Off where the state may have no boards yet (the sizes and
        # capacities of zones, initial values, the functions grid sizes call).
        self._hoisted: dict[str, str] | None = None
        self._hoisted_at = 0  # `_inside` where the comprehension or function that hoists began
        self.hoisting = True

    @contextlib.contextmanager
    def _walked_list(self) -> Iterator[None]:
        """While the list a comprehension walks is written: Python allows no `:=` in it."""
        self._iterable += 1
        try:
            yield
        finally:
            self._iterable -= 1

    @contextlib.contextmanager
    def hoisted_here(self) -> Iterator[dict[str, str]]:
        """While a function's body is written: its boards' tables looked up once, before it.

        Yields the tables (source -> name) the body reads; the caller binds each name first.
        Comprehensions within look theirs up there too, and the slots their items read.
        """
        if not self.hoisting or self._hoisted is not None:
            yield {}
            return
        hoisted: dict[str, str] = {}
        self._hoisted, self._hoisted_at = hoisted, self._inside
        try:
            yield hoisted
        finally:
            self._hoisted = None

    def gen_with(self, node: m.Expr, locals_name: str) -> str:
        """Source of `node` where procedure locals are in the dict `locals_name`."""
        saved, self.locals = self.locals, locals_name
        try:
            return self.gen(node)
        finally:
            self.locals = saved

    def lazily(self, node: m.Expr, locals_name: str) -> tuple[list[str], str, int] | None:
        """A filtered list (`[x for x in xs if c]`, `xs where c`) as a loop over the items that pass.

        Returns the lines that open the loop (its body goes one level in), the source of the
        item, and what the loop charges the work budget up front; None for any other expression.
        For the look-ahead, which asks only whether some option leads on: it stops at the first
        such option, and the conditions of the rest are never worked out.
        """
        elt: m.Expr | None = None
        if isinstance(node, m.Where):
            var, coll, cond = node.it.ident, node.coll, node.cond
        elif isinstance(node, m.ListComp) and len(node.fors) == 1:
            f = node.fors[0]
            if f.cond is None:
                return None
            var, coll, cond, elt = f.var.ident, f.iter, f.cond, node.elt
            if self.pieces(coll):
                self._piece_vars.add(var)
        else:
            return None
        saved = self.locals, self.charged, self._hoisted, self._hoisted_at
        hoisted: dict[str, str] = {}
        self.locals, self.charged, self._hoisted = locals_name, 0, hoisted if self.hoisting else None
        self._hoisted_at = self._inside
        try:
            source = self._walked(coll)
            self._inside += 1  # the loop's body is the comprehension's: worked out once per item
            try:
                test, item = self.gen(cond), var if elt is None else self.gen(elt)
            finally:
                self._inside -= 1
            charged = self.charged
        finally:
            self.locals, self.charged, self._hoisted, self._hoisted_at = saved
        lines = [f"{name} = {table}" for table, name in hoisted.items()]
        lines += [f"for {var} in {source}:", f"    if not {test}:", "        continue"]
        return lines, item, charged

    def zone_slot(self, z: m.ZoneRef) -> str:
        """Source of the slot of one zone: an index into the state's zone lists.

        Read once per item of a comprehension, a family's slots are looked up before the first
        item (`_hoisting`): they stay the same all game.
        """
        family = f"s.zf[{self.family[z.name]}]"
        if self._hoisted is not None and self._inside > self._hoisted_at:
            family = self._hoisted.setdefault(family, f"_z{self.family[z.name]}")
        return family + "".join(f"[{self.gen(a)}]" for a in z.args)

    def var_key(self, name: str, args: tuple[m.Expr, ...]) -> str:
        """Source of the key of one variable in `s.vars`: its name, or (name, index...)."""
        if not args:
            return repr(name)
        return f"({name!r}, {', '.join(self.gen(a) for a in args)})"

    # What is known to be a list of pieces.
    def pieces(self, node: m.Expr) -> bool:
        """Whether `node` always evaluates to a list of pieces."""
        if isinstance(node, m.ZoneRef):
            return True
        if isinstance(node, m.Where):
            return self.pieces(node.coll)
        if isinstance(node, m.Binary) and node.op == "+":
            return self.pieces(node.left) and self.pieces(node.right)
        if isinstance(node, m.BuiltinCall) and node.name == "concat" and len(node.args) == 1:
            arg = node.args[0]
            return isinstance(arg, m.ListComp) and self.pieces(arg.elt)
        if isinstance(node, m.FuncCall | m.Bound):
            return self._holds(self.pieces, node)
        return False

    def number(self, node: m.Expr) -> bool:  # noqa: C901, PLR0911 - one answer per kind of expression
        """Whether `node`, when it has a value, has a whole number: never a truth value, list or text.

        Arithmetic with one number on either side (on the left of `%`, which formats texts) gives
        a number or fails, and so does negation. A function whose body gives one, and a parameter
        that every call gives one, are known through `_holding`.
        """
        if isinstance(node, m.Lit):
            return node.value.__class__ is int
        if isinstance(node, m.Bound):
            return node.ident in self._range_vars() or self._holds(self.number, node)
        if isinstance(node, m.Local):
            return node.name in self.number_locals
        if isinstance(node, m.StateRef):
            return node.name != "players"  # the number of players
        if isinstance(node, m.FuncCall):
            return self._holds(self.number, node)
        if isinstance(node, m.Unary):
            return node.op == "-"
        if isinstance(node, m.Binary):
            if node.op == "%":
                return self.number(node.left)
            return node.op in {"+", "-", "*", "/"} and (self.number(node.left) or self.number(node.right))
        if isinstance(node, m.BuiltinCall):
            return node.name in {"size", "count", "position", "next", "abs"}
        if isinstance(node, m.Ternary):
            return self.number(node.then) and self.number(node.other)
        return False

    def numbers(self, node: m.Expr) -> bool:  # noqa: PLR0911 - one answer per kind of expression
        """Whether `node`, when it has a value, has a list of whole numbers: a choice from it binds a number."""
        if isinstance(node, m.ListLit):
            return all(self.number(x) for x in node.items)
        if isinstance(node, m.StateRef):
            return node.name == "players"
        if isinstance(node, m.BuiltinCall):
            return node.name == "range"
        if isinstance(node, m.ListComp):
            return self.number(node.elt)
        if isinstance(node, m.Binary):
            return node.op == "+" and self.numbers(node.left) and self.numbers(node.right)
        if isinstance(node, m.Ternary):
            return self.numbers(node.then) and self.numbers(node.other)
        if isinstance(node, m.FuncCall | m.Bound):
            return self._holds(self.numbers, node)
        return False

    def forget_numbers(self) -> None:
        """Drops what `number` and `numbers` found of functions and parameters: `number_locals` changed."""
        for test in (self.number, self.numbers):
            self._holding_found.pop(test.__name__, None)

    def distinct(self, node: m.Expr) -> bool:  # noqa: PLR0911 - one answer per kind of expression
        """Whether `node` always evaluates to distinct values, none of them pieces.

        A choice from such a list offers its values as they are (runtime/options.py).
        """
        if isinstance(node, (m.EnumList, m.StateRef)):
            return isinstance(node, m.EnumList) or node.name == "players"
        if isinstance(node, m.BuiltinCall):
            if node.name == "subsets":  # sub-lists of distinct values, each once
                return self.distinct(node.args[0])
            return node.name == "range" or (node.name == "distinct" and len(node.args) == 1
                                             and isinstance(node.args[0], m.Attr))
        if isinstance(node, m.FuncCall | m.Bound):
            return self._holds(self.distinct, node)
        if isinstance(node, m.ListLit):
            values = [x.value for x in node.items if isinstance(x, m.Lit) and x.value.__class__ in {int, str}]
            return len(values) == len(node.items) and len(set(values)) == len(values)
        if isinstance(node, m.Where):
            return self.distinct(node.coll)
        if isinstance(node, m.ListComp) and len(node.fors) == 1:
            elt = node.elt
            return isinstance(elt, m.Bound) and elt.ident == node.fors[0].var.ident and self.distinct(node.fors[0].iter)
        return False

    def takes_pieces(self, param: str) -> bool:
        """Whether every call of a function passes a list of pieces for its parameter `param`."""
        return param in self._holding(self.pieces)[1]

    def lists(self, node: m.Expr) -> bool:  # noqa: PLR0911 - one answer per kind of expression
        """Whether `node` always evaluates to a list (or fails): a value that keys no memo."""
        if self.pieces(node) or isinstance(node, (m.ListComp, m.Where, m.ListLit, m.EnumList)):
            return True
        if isinstance(node, m.Attr):  # a projection of a list
            return self.lists(node.obj)
        if isinstance(node, m.BuiltinCall | m.GridCall):
            return SIGNATURES[node.name].returns in {LIST, LISTS}
        if isinstance(node, m.Binary) and node.op == "+":
            return self.lists(node.left) or self.lists(node.right)
        if isinstance(node, m.Ternary):
            return self.lists(node.then) and self.lists(node.other)
        if isinstance(node, m.FuncCall | m.Bound):
            return self._holds(self.lists, node)
        return False

    def takes_lists(self, param: str) -> bool:
        """Whether every call of a function passes a list for its parameter `param`."""
        return param in self._holding(self.lists)[1]

    def nested(self, node: m.Expr) -> bool:  # noqa: PLR0911 - one answer per kind of expression
        """Whether `node` always evaluates to a list of lists (or fails): a choice from it binds a list."""
        if isinstance(node, m.BuiltinCall | m.GridCall):
            return SIGNATURES[node.name].returns == LISTS
        if isinstance(node, m.Where):
            return self.nested(node.coll)
        if isinstance(node, m.ListComp):
            elt, first = node.elt, node.fors[0]
            if len(node.fors) == 1 and isinstance(elt, m.Bound) and elt.ident == first.var.ident:
                return self.nested(first.iter)  # a filter
            return self.lists(elt)
        if isinstance(node, m.ListLit):
            return bool(node.items) and all(self.lists(x) for x in node.items)
        if isinstance(node, m.Ternary):
            return self.nested(node.then) and self.nested(node.other)
        if isinstance(node, m.FuncCall | m.Bound):
            return self._holds(self.nested, node)
        return False

    def keyed_by_identity(self, f: d.FuncDef) -> set[str]:
        """The parameters of `f` whose lists key its memo by identity.

        Those that every call gives a local of `list_locals` (a list that stays put there), and
        those its body walks as lists (`_list_params`) where no call gives a list built for it
        (`_kept_list`): a list there would otherwise key no memo, and trying it would cost a
        TypeError at every call.
        """
        calls = self._gathered().get(f.name) or []
        walked = self._list_params()
        return {param.ident for i, param in enumerate(f.params)
                if (param.ident in walked and not self.number(param) and calls
                    and all(self._kept_list(c.args[i]) for c in calls))
                or (calls and all(isinstance(a := c.args[i], m.Local) and a.name in self.list_locals for c in calls))}

    def _kept_list(self, node: m.Expr) -> bool:
        """Whether a list `node` gives may be one that outlives the call: not a list built for it.

        A name, a variable, a zone, a constant or a remembered function's result may be asked
        about again; a list display, a comprehension or a built-in's new list never is.
        """
        if isinstance(node, m.FuncCall):
            return node.name in self.remembered
        return isinstance(node, (m.Bound, m.Local, m.VarRef, m.ZoneRef, m.ConstRef))

    def _list_params(self) -> set[str]:
        """The parameters that their function walks as a list: iterates, tests with `in`, gives a list built-in.

        Or passes on to such a parameter of a function it calls.
        """
        if self._list_params_found is None:
            params = {p.ident for f in self.game.funcs.values() for p in f.params}
            found: set[str] = set()
            passed: list[tuple[str, str, int]] = []  # (parameter, callee, argument position)
            for f in self.game.funcs.values():
                for n in m.walk(f.body):
                    if isinstance(n, m.FuncCall):
                        passed.extend((a.ident, n.name, i) for i, a in enumerate(n.args)
                                      if isinstance(a, m.Bound) and a.ident in params)
                    walked = _walked_arg(n)
                    if isinstance(walked, m.Bound) and walked.ident in params:
                        found.add(walked.ident)
            changed = True
            while changed:
                changed = False
                for name, callee, i in passed:
                    target = self.game.funcs[callee].params
                    if name not in found and i < len(target) and target[i].ident in found:
                        found.add(name)
                        changed = True
            self._list_params_found = found
        return self._list_params_found

    def _gathered(self) -> dict[str, list[m.FuncCall]]:
        """Every call of a user function in the rules, by function name (and `_ranged`, on the way)."""
        if self._calls is None:
            self._calls = {}
            # Constants are left out: the checker allows no calls in them, and data tables are most of the model.
            for n in _all_nodes(self.game, skip=d.ConstDef):
                if isinstance(n, m.FuncCall):
                    self._calls.setdefault(n.name, []).append(n)
                elif isinstance(n, m.CompFor) and isinstance(n.iter, m.BuiltinCall) and n.iter.name == "range":
                    self._ranged.add(n.var.ident)
        return self._calls

    def _range_vars(self) -> set[str]:
        """The names comprehensions bind to the numbers of a `range`, anywhere in the rules."""
        self._gathered()
        return self._ranged

    def _holds(self, test: Callable[[m.Expr], bool], node: m.FuncCall | m.Bound) -> bool:
        """Whether a call's result, or a parameter, always passes `test` (`_holding`)."""
        funcs, params = self._holding(test)
        return node.name in funcs if isinstance(node, m.FuncCall) else node.ident in params

    def _holding(self, test: Callable[[m.Expr], bool]) -> tuple[set[str], set[str]]:
        """The user functions whose body always passes `test`, and the parameters every call gives one that does.

        Both sets grow together until neither does. While they grow, the test reads them as
        they stand, so a function that calls itself is judged by its other answers.

        Numbers (`_SHRINKING`) are found the other way: every function and parameter is taken
        to give one, and those whose body or calls do not are dropped until none is. A parameter
        that a function passes on to itself changed (`run(x + dx)`) stays a number: each call
        gives it one if the call before it did, and the first call comes from elsewhere.
        """
        found = self._holding_found.get(test.__name__)
        if found is not None:
            return found
        calls = self._gathered()
        shrinking = test.__name__ in _SHRINKING
        funcs: set[str] = set(self.game.funcs) if shrinking else set()
        params: set[str] = {p.ident for f in self.game.funcs.values() for p in f.params
                            if calls.get(f.name)} if shrinking else set()
        self._holding_found[test.__name__] = (funcs, params)
        # Growing, a name joins when it passes; shrinking, it leaves when it fails.
        change = funcs.discard if shrinking else funcs.add
        change_param = params.discard if shrinking else params.add
        changed = True
        while changed:
            changed = False
            for f in self.game.funcs.values():
                if (f.name in funcs) == shrinking and test(f.body) != shrinking:
                    change(f.name)
                    changed = True
                for i, param in enumerate(f.params):
                    if (param.ident in params) == shrinking:
                        sites = [c.args[i] for c in calls.get(f.name, ())]
                        if (bool(sites) and all(test(a) for a in sites)) != shrinking:
                            change_param(param.ident)
                            changed = True
        return funcs, params

    def gen(self, node: m.Expr | m.KeyFunc) -> str:  # noqa: C901, PLR0911, PLR0912
        """Python source of `node`."""
        if isinstance(node, m.Lit):
            return repr(node.value)
        if isinstance(node, m.ConstRef):
            return f"K_{node.name}"
        if isinstance(node, m.EnumList):
            return repr(list(node.members))
        if isinstance(node, m.Local):
            return f"{self.locals}[{node.name!r}]"
        if isinstance(node, m.Bound):
            return node.ident
        if isinstance(node, m.OptionRef):
            return f"s.options[{node.name!r}]"
        if isinstance(node, m.StateRef):
            # Shared, not copied: rules never change a list in place (let and set copy).
            return "s.players" if node.name == "players" else "s.nplayers"
        if isinstance(node, m.VarRef):
            return f"s.vars[{self.var_key(node.name, node.args)}]"
        if isinstance(node, m.ZoneRef):
            return f"s.zones[{self.zone_slot(node)}]"
        if isinstance(node, m.Attr):
            return self._attr(node)
        if isinstance(node, m.PieceAttr):
            return f"{node.piece.ident}.attrs[{node.name!r}]"
        if isinstance(node, m.BuiltinCall):
            return self._builtin(node)
        if isinstance(node, m.GridCall):
            at = node.args[0] if node.name == "top" and len(node.args) == 1 else None
            if isinstance(at, m.BuiltinCall) and at.name == "cell" and len(at.args) == 2:  # noqa: PLR2004 - x and y
                return self._top_at(node.zone, at.args[0], at.args[1])
            if node.name == "level" and not self._iterable and all(_plain(a) for a in node.zone.args):
                # A cell's level in place; anything else (a piece, a value off the grid) goes to
                # the call, with the argument as worked out once.
                slot, x = self.zone_slot(node.zone), self.gen(cast("m.Expr", node.args[0]))
                found = f"(_h := {self._board_table(node.zone, 'heights')}.get(_c := {x}))"
                return f"(_h if {found} is not None else _b_level(s, {slot}, _c))"
            args = ["s", self.zone_slot(node.zone), *(self.gen(a) for a in node.args)]
            return f"_b_{node.name}({', '.join(args)})"
        if isinstance(node, m.KeyFunc):
            self._inside += 1
            try:
                return f"(lambda {node.cell.ident}: {self.gen(node.body)})"
            finally:
                self._inside -= 1
        if isinstance(node, m.FuncCall):
            small = self.inlined.get(node.name)
            if small is not None and all(_plain(a) for a in node.args):
                # The body with the arguments in place of the parameters: no call, and what the
                # arguments are (a zone, say) is known to the body's source.
                values = {p.ident: a for p, a in zip(small.params, node.args, strict=True)}
                return self.gen(cast("m.Expr", _substitute(small.body, values)))
            return f"F_{node.name}({''.join(['s', *(', ' + self.gen(a) for a in node.args)])})"
        if isinstance(node, m.Unary):
            inner = self.gen(node.operand)
            return f"(not {inner})" if node.op == "not" else f"(-{inner})"
        if isinstance(node, m.Binary):
            left, right = self.gen(node.left), self.gen(node.right)
            if node.op == "+":
                if self.pieces(node.left) and self.pieces(node.right):
                    return f"({left} + {right})"  # pieces: a game holds too few to run away
                if self.number(node.left) or self.number(node.right):
                    return f"({left} + {right})"  # a sum, or the TypeError `_add` would raise
                if not self._iterable and _plain(node.right):
                    # Numbers, the common case, add in place; joined lists and texts go the way of `_add`.
                    return f"(_v if (_v := {left} + {right}).__class__ is _int else _joined(s, _v, {right}))"
                return f"_add(s, {left}, {right})"
            if node.op in {"==", "!="} and isinstance(node.right, m.Lit) and node.right.value is None:
                return f"({left} {'is' if node.op == '==' else 'is not'} None)"
            if node.op == "*":
                return f"_mul({left}, {right})"
            return f"({left} {_OPS[node.op]} {right})"
        if isinstance(node, m.BoolOp):
            return "(" + f" {node.op} ".join(self.gen(v) for v in node.values) + ")"
        if isinstance(node, m.Ternary):
            return f"({self.gen(node.then)} if {self.gen(node.cond)} else {self.gen(node.other)})"
        if isinstance(node, m.ListLit):
            return "[" + ", ".join(self.gen(x) for x in node.items) + "]"
        if isinstance(node, m.Where):
            return self._where(node)
        if isinstance(node, m.ListComp):
            return self._comprehension(node)
        msg = f"no source for {type(node).__name__}"
        raise TypeError(msg)

    def _builtin(self, node: m.BuiltinCall) -> str:
        counted = (self._zone_count(node) or self._occupied_count(node) or self._tops_count(node)
                   or self._unrolled_size(node))
        if counted is not None:
            return counted
        if node.name == "nth":
            nth = self._nth(*node.args)
            if nth is not None:
                return nth
        if node.name == "count" and len(node.args) == 2 and _plain(node.args[1]):  # noqa: PLR2004 - a list and a value
            # The list's own count, as the built-in's; `none` counts every item, as there.
            xs, v = self.gen(node.args[0]), self.gen(node.args[1])
            if isinstance(node.args[1], m.Lit):  # (Python warns at `is` with a literal)
                return f"len({xs})" if node.args[1].value is None else f"({xs}).count({v})"
            return f"(len({xs}) if {v} is None else ({xs}).count({v}))"
        inline = _INLINE.get(node.name)
        if inline is not None and len(node.args) == 1 and not _literal(node.args[0]):
            return inline.format(self.gen(node.args[0]))
        args = ["s"] if node.needs_state else []
        args += [self.gen(a) for a in node.args]
        return f"_b_{node.name}({', '.join(args)})"

    def _nth(self, items: m.Expr, at: m.Expr) -> str | None:
        """`nth(items, at)` written out: the item read in place when the list has it, else `_b_nth` says why not.

        The list is worked out before the position, as in the call.
        """
        if isinstance(items, m.Lit):
            return None  # (Python warns at a subscripted literal; the call says what is wrong)
        if isinstance(at, m.Lit):
            i = at.value
            if isinstance(i, bool) or not isinstance(i, int) or i < 1:
                return None  # a fault, or nothing to gain
            xs = self.gen(items)
            if _plain(items):
                return f"({xs}[{i - 1}] if len({xs}) >= {i} else _b_nth({xs}, {i}))"
            if not self._iterable:
                return f"(_n[{i - 1}] if len(_n := {xs}) >= {i} else _b_nth(_n, {i}))"
        elif not self._iterable and _plain(at):  # (a position worked out in place could use `_n` itself)
            # Both names are bound before any test (no value is `_OFF`), so that the call gets
            # them as they are and its tests, in its order, name any fault.
            xs, pos = self.gen(items), self.gen(at)
            bound = f"(_n := {xs}) is not _OFF and (_i := {pos}).__class__ is _int"
            return f"(_n[_i - 1] if {bound} and 0 < _i <= len(_n) else _b_nth(_n, _i))"
        return None

    def _top_at(self, zone: m.ZoneRef, x: m.Expr, y: m.Expr) -> str:
        """`top(zone, cell(x, y))`: looked up by (x, y) where both are whole numbers.

        Not truth values, whose keys would match. Anything else, or a cell off the grid, goes
        the way of `top_at`, which names the fault.
        """
        slot, gx, gy = self.zone_slot(zone), self.gen(x), self.gen(y)
        if self._iterable or not all(_plain(n) for n in (zone, x, y)):
            return f"_topxy(s, {slot}, {gx}, {gy})"
        self.tops_by_xy.add(zone.name)
        found = f"(_t := {self._board_table(zone, 'tops')}.get(({gx}, {gy}), _OFF))"
        tests = [f"({g}).__class__ is _int" for n, g in ((x, gx), (y, gy)) if not self.number(n)]
        return f"(_t if {' and '.join([*tests, f'{found} is not _OFF'])} else _topxy(s, {slot}, {gx}, {gy}))"

    def _board_table(self, zone: m.ZoneRef, table: str) -> str:
        """Source of one table of a grid zone's board (`tops`, `heights`).

        Inside a comprehension, the table of a zone without indexes is looked up once, before
        the first item: expressions change nothing, so it stays the same table throughout.
        """
        source = f"s.boards[{self.zone_slot(zone)}].{table}"
        if self._hoisted is None or zone.args:
            return source
        return self._hoisted.setdefault(source, f"_g{self.family[zone.name]}_{table}")

    def _hoisting(self, write: Callable[[], tuple[str, str]]) -> str:
        """A comprehension, from its item and clauses as `write` gives them, its tables looked up first.

        Each table (`_board_table`) is bound by a first clause over a 1-tuple: a name local to
        the comprehension, with no `:=`, which Python forbids in the lists a comprehension walks.
        """
        if self._hoisted is not None or not self.hoisting:  # inside another: looked up by the outermost
            item, clauses = write()
            return f"[{item} {clauses}]"
        hoisted: dict[str, str] = {}
        self._hoisted, self._hoisted_at = hoisted, self._inside
        try:
            item, clauses = write()
        finally:
            self._hoisted = None
        first = "".join(f"for {name} in ({table},) " for table, name in hoisted.items())
        return f"[{item} {first}{clauses}]"

    def _where(self, node: m.Where) -> str:
        def write() -> tuple[str, str]:
            var = node.it.ident
            source = self._walked(node.coll)
            self._inside += 1
            try:
                return var, f"for {var} in {source} if {self.gen(node.cond)}"
            finally:
                self._inside -= 1
        return self._hoisting(write)

    def _comprehension(self, node: m.ListComp) -> str:
        unrolled = self._unrolled(node)
        if unrolled is not None:
            return self._unrolled_list(unrolled)

        def write() -> tuple[str, str]:
            clauses = []
            base = self._inside
            try:
                for i, f in enumerate(node.fors):
                    if self.pieces(f.iter):
                        self._piece_vars.add(f.var.ident)
                    # The first list is walked once; the rest of the comprehension once per item.
                    self._inside = base + (i > 0)
                    clause = f"for {f.var.ident} in {self._walked(f.iter)}"
                    self._inside = base + 1
                    if f.cond is not None:
                        clause += f" if {self.gen(f.cond)}"
                    clauses.append(clause)
                return self.gen(node.elt), " ".join(clauses)
            finally:
                self._inside = base
        return self._hoisting(write)

    def _unrolled(self, node: m.ListComp) -> list[tuple[m.Expr, m.Expr | None]] | None:
        """Each item and condition of a comprehension over a short list the rule text spells out, or None.

        The variable is replaced by each value in turn, so the comprehension is written as a
        list display: in Python 3.11 a comprehension is a function made and called at every
        evaluation. Only where the list is charged with the function's call (`_walked`).
        """
        if len(node.fors) != 1 or self.charged is None or self._inside or self._iterable:
            return None
        f = node.fors[0]
        values = self._spelled(f.iter)
        if values is None or len(values) > _UNROLL_MAX:
            return None
        self.charged += len(values)
        out: list[tuple[m.Expr, m.Expr | None]] = []
        for v in values:
            each: dict[str, m.Expr] = {f.var.ident: m.Lit(f.var.span, v)}
            cond = None if f.cond is None else cast("m.Expr", _substitute(f.cond, each))
            out.append((cast("m.Expr", _substitute(node.elt, each)), cond))
        return out

    def _spelled(self, node: m.Expr) -> list[m.Scalar] | None:
        """The values of a list the rules write out: an enum, a display of literals, a range between two numbers."""
        if isinstance(node, m.ConstRef):
            node = self.game.consts[node.name].value
            if isinstance(node, m.BuiltinCall):
                return None  # walked as the constant's value, not as a range
        if isinstance(node, m.EnumList):
            return list(node.members)
        if isinstance(node, m.ListLit) and all(isinstance(x, m.Lit) for x in node.items):
            return [cast("m.Lit", x).value for x in node.items]
        if isinstance(node, m.BuiltinCall) and node.name == "range" and len(node.args) == 2:  # noqa: PLR2004 - both ends
            low, high = (a.value if isinstance(a, m.Lit) else None for a in node.args)
            if isinstance(low, int) and isinstance(high, int) and low.__class__ is high.__class__ is int:
                return list(range(low, high + 1))
        return None

    def _unrolled_list(self, items: list[tuple[m.Expr, m.Expr | None]]) -> str:
        """A list display of the items, each kept if its condition holds: the same order of evaluation."""
        self._inside += 1  # each item's source is the comprehension's body, once per value
        try:
            parts = []
            for elt, cond in items:
                item = self.gen(elt)
                parts.append(item if cond is None else f"*(({item},) if {self.gen(cond)} else ())")
        finally:
            self._inside -= 1
        return f"[{', '.join(parts)}]"

    def _unrolled_size(self, node: m.BuiltinCall) -> str | None:
        """`size` of a comprehension written out: a count of the conditions that hold, where the items cost nothing."""
        comp = node.args[0] if node.name == "size" and len(node.args) == 1 else None
        items = self._unrolled(comp) if isinstance(comp, m.ListComp) else None
        if items is None:
            return None
        if not all(cond is not None and _plain(elt) for elt, cond in items):
            return f"len({self._unrolled_list(items)})"
        self._inside += 1
        try:
            return "(" + " + ".join(["0", *(f"(1 if {self.gen(cast('m.Expr', c))} else 0)" for _, c in items)]) + ")"
        finally:
            self._inside -= 1

    def _walked(self, node: m.Expr) -> str:
        """Source of a list a comprehension walks, charged to the work budget.

        A list whose length the rule text fixes (or bounds: the players), walked once per
        evaluation of a function's body, is charged with the function's call (`charged`): no
        call per walk.
        """
        n = self._fixed_length(node) if self.charged is not None and self._inside == 0 else None
        if n is None:
            with self._walked_list():
                return f"_each(s, {self.gen(node)})"
        self.charged = cast("int", self.charged) + n
        if isinstance(node, m.EnumList):
            return repr(node.members)
        if isinstance(node, m.ListLit) and all(isinstance(x, m.Lit) for x in node.items):
            return repr(tuple(cast("m.Lit", x).value for x in node.items))
        if isinstance(node, m.BuiltinCall):  # a range between two numbers
            low, high = (cast("m.Lit", a).value for a in node.args)
            return f"range({low}, {cast('int', high) + 1})"
        with self._walked_list():
            return self.gen(node)

    def _fixed_length(self, node: m.Expr) -> int | None:
        """The length of a list the rule text fixes or bounds, if small.

        An enum, a list display, a range between two numbers, a constant that is one of these, the players.
        """
        if isinstance(node, m.ConstRef):
            node = self.game.consts[node.name].value
            if isinstance(node, m.BuiltinCall):
                return None  # walked as the constant's value, not as a range
        n = self.game.max_players if isinstance(node, m.StateRef) and node.name == "players" else m.written_length(node)
        return n if n is not None and n <= _FIXED_MAX else None

    def _zone_count(self, node: m.BuiltinCall) -> str | None:
        """`count(zone where .attr == x)` (or `size`) as a count of the zone's remembered projection."""
        if node.name not in {"count", "size"} or len(node.args) != 1 or not isinstance(node.args[0], m.Where):
            return None
        where = node.args[0]
        cond = where.cond
        if not isinstance(where.coll, m.ZoneRef) or not isinstance(cond, m.Binary) or cond.op != "==":
            return None
        for attr, value in ((cond.left, cond.right), (cond.right, cond.left)):
            if (isinstance(attr, m.PieceAttr) and isinstance(attr.piece, m.Bound) and attr.piece.ident == where.it.ident
                    and not any(isinstance(n, m.Bound) and n.ident == where.it.ident for n in _all_nodes(value))):
                return f"_zcount(s, s.zones, s.proj, {self.zone_slot(where.coll)}, {attr.name!r}, {self.gen(value)})"
        return None

    def _occupied_count(self, node: m.BuiltinCall) -> str | None:
        """`size(occupied(g))`: the board's count of cells that hold a piece, not a list made to be counted."""
        grid = node.args[0] if node.name == "size" and len(node.args) == 1 else None
        if isinstance(grid, m.GridCall) and grid.name == "occupied" and not grid.args:
            return f"len(s.boards[{self.zone_slot(grid.zone)}].stacks)"
        return None

    def _tops_count(self, node: m.BuiltinCall) -> str | None:
        """`size(tops(g, cs))` and `empty(tops(g, cs))` as a count of the tops: no list is made to be counted."""
        tops = node.args[0] if node.name in {"size", "empty"} and len(node.args) == 1 else None
        if not (isinstance(tops, m.GridCall) and tops.name == "tops" and len(tops.args) == 1):
            return None
        # A zone with indexes: the slot is worked out once, in the call, which looks the table up.
        table = "None" if tops.zone.args else self._board_table(tops.zone, "tops")
        count = f"_ntops({table}, s, {self.zone_slot(tops.zone)}, {self.gen(tops.args[0])})"
        return count if node.name == "size" else f"({count} == 0)"

    def _attr(self, node: m.Attr) -> str:
        """A projection: of a zone or a remembered function's result, remembered too."""
        obj = node.obj
        if isinstance(obj, m.Bound) and obj.ident in self._piece_vars:
            return f"{obj.ident}.attrs[{node.name!r}]"
        if not self.pieces(obj):
            return f"_attr({self.gen(obj)}, {node.name!r})"
        if isinstance(obj, m.ZoneRef):
            return f"_zattr(s.zones, s.proj, {self.zone_slot(obj)}, {node.name!r})"
        if isinstance(obj, m.FuncCall) and obj.name in self.remembered:
            self.projections.setdefault(obj.name, set()).add(node.name)
            return f"FA_{obj.name}__{node.name}({''.join(['s', *(', ' + self.gen(a) for a in obj.args)])})"
        with self._walked_list():
            return f"[_x.attrs[{node.name!r}] for _x in {self.gen(obj)}]"


# Built-ins of one argument written out where they are called: the same operations, and
# the same faults, without a call.
_INLINE = {"first": "({})[0]", "last": "({})[-1]", "empty": "(not {})", "size": "len({})",
           "next": "((({}) + 1) % s.nplayers)"}

# The tests `_holding` answers from the largest sets down (see there).
_SHRINKING = frozenset({"number", "numbers"})

# The longest list a comprehension over is written out item by item (`_unrolled`).
_UNROLL_MAX = 8

# The longest list of fixed length charged with a function's call rather than when walked.
_FIXED_MAX = 1000


def _literal(node: m.Expr) -> bool:
    """Whether `node` is made of literals alone: Python folds it to a constant, and warns when one is subscripted."""
    if isinstance(node, m.Lit):
        return True
    if isinstance(node, m.Unary):
        return _literal(node.operand)
    if isinstance(node, m.Binary):
        return _literal(node.left) and _literal(node.right)
    if isinstance(node, m.BoolOp):
        return all(_literal(v) for v in node.values)
    if isinstance(node, m.Ternary):
        return _literal(node.cond) and _literal(node.then) and _literal(node.other)
    return False


def _plain(node: m.Expr) -> bool:
    """Whether evaluating `node` twice, or not at all, costs and changes nothing: a name or a literal."""
    if isinstance(node, (m.Lit, m.Local, m.Bound, m.ConstRef, m.OptionRef, m.StateRef)):
        return True
    if isinstance(node, (m.ZoneRef, m.VarRef)):
        return all(_plain(a) for a in node.args)
    return False


def _substitute(node: m.Expr | m.CompFor | m.KeyFunc, values: dict[str, m.Expr]) -> object:
    """`node` with the names in `values` replaced by their expressions."""
    if isinstance(node, m.Bound):
        return values.get(node.ident, node)
    changes: dict[str, object] = {}
    for field in attrs.fields(type(node)):
        value = getattr(node, field.name)
        if isinstance(value, tuple):
            new = tuple(_substitute(v, values) if _is_node(v) else v for v in value)
            if any(a is not b for a, b in zip(new, value, strict=True)):
                changes[field.name] = new
        elif _is_node(value):
            new_value = _substitute(value, values)
            if new_value is not value:
                changes[field.name] = new_value
    return attrs.evolve(node, **changes) if changes else node  # type: ignore[arg-type]


def _is_node(value: object) -> bool:
    return attrs.has(type(value)) and not isinstance(value, Span)


def _all_nodes(value: object, skip: type | None = None) -> list[object]:
    """Every model node under `value` (declarations, instructions, expressions), but those of class `skip`.

    Spans, texts, numbers and source files hold no nodes and are most of the model: they are
    not entered, and a node's fields that are declared to hold only them are not read.
    """
    out: list[object] = []
    todo = [value]
    getters: dict[type | None, Callable[[object], tuple[object, ...]] | None] = {skip: None}
    while todo:
        v = todo.pop()
        cls = v.__class__
        if cls is tuple or cls is list:
            todo += cast("list[object]", v)
        elif cls is dict:
            todo += cast("dict[object, object]", v).values()
        else:
            get = getters[cls] if cls in getters else getters.setdefault(cls, _getter(cls))
            if get is not None:
                out.append(v)
                todo += get(v)
    return out


# Field types that hold no model node (a node's fields are read only where they may).
_NO_NODES = frozenset({"Span", "str", "int", "bool", "str | None", "tuple[str, ...]", "Scalar"})


def _getter(cls: type) -> Callable[[object], tuple[object, ...]] | None:
    """A function of a node of class `cls` to the values of its fields that may hold nodes; None for no node."""
    if not attrs.has(cls) or cls is Span or cls is SourceFile:
        return None
    return fields_getter([f.name for f in attrs.fields(cls) if f.type not in _NO_NODES])

# Built-ins whose first argument is a list they walk: a parameter given there is walked (`_list_params`).
_WALKS_FIRST = frozenset({"count", "size", "sum", "distinct", "sorted", "empty", "any", "all", "concat",
                          "first", "last", "nth", "position", "remove"})


def _walked_arg(node: m.Expr | m.KeyFunc | m.CompFor) -> m.Expr | None:
    """What `node` walks as a list, if anything: what a comprehension iterates, `in` tests, a built-in walks."""
    if isinstance(node, m.CompFor):
        return node.iter
    if isinstance(node, m.Binary) and node.op in {"in", "not in"}:
        return node.right
    if isinstance(node, m.BuiltinCall) and node.name in _WALKS_FIRST and node.args:
        return node.args[0]
    return None
