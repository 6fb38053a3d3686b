"""Lists a procedure knows to be non-empty where it chooses from them: such a choice is no dead end.

A fact is an expression (as written) whose value is a non-empty list at a point of a procedure.
Facts come from conditions: `not empty(X)` holds inside `if`, `when` and `while` and after
`require`; X holds after `if empty(X) { return }` and in the branches after that condition. A move
of one or more pieces from a zone a fact holds of makes its destination a fact. A statement that
may change what a fact reads ends it; where paths meet, what holds on every one of them holds.

Without these facts the look-ahead tries every option ahead of such a choice, in case it is left
with none: a choice made sure here costs no trial. Names are taken as written, so a procedure
whose locals hide a zone or a variable knows nothing (`NoFacts`), and rule functions named like
the built-ins read here (`empty`, `distinct`, `sorted`) are not taken for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardkit.lang import ast

if TYPE_CHECKING:
    from collections.abc import Iterable

Facts = tuple[ast.Expr, ...]

# The most facts kept at a point: more would make checking a long procedure slow, and fewer
# facts only means more trials.
_MOST = 32


def _same(a: object, b: object) -> bool:
    """Tells if two AST nodes are equal in structure, wherever they were written."""
    cls = type(a)
    if cls is not type(b):
        return False
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    names = ast.child_fields(cls)
    if names is None:
        return bool(a == b)
    return all(_same(getattr(a, name), getattr(b, name)) for name in names)


def _parts(cond: ast.Expr, op: str) -> tuple[ast.Expr, ...]:
    return cond.values if isinstance(cond, ast.BoolOp) and cond.op == op else (cond,)


def with_facts(known: Facts, found: Iterable[ast.Expr]) -> Facts:
    """`known` and the facts `found`, each once; the newest _MOST of them."""
    out = list(known)
    for k in found:
        if not _among(k, tuple(out)):
            out.append(k)
    return tuple(out[-_MOST:])


class Flow:
    """The facts of one rule file's procedures: what its zones, variables and functions read."""

    def __init__(self, zones: Iterable[str], variables: Iterable[str], funcs: dict[str, ast.FuncDecl]) -> None:
        self.zones = frozenset(zones)
        self.globals = self.zones | frozenset(variables)
        self.funcs = frozenset(funcs)
        self._reads = _function_reads(funcs, self.globals)
        # The names each fact reads, by the node's identity: facts are nodes of the rule text,
        # alive while it is checked, and asked again at every statement that changes something.
        self._read_by: dict[int, set[str]] = {}

    def _builtin(self, node: ast.Expr, names: set[str]) -> ast.Call | None:
        """`node`, if it calls one of the built-ins `names` with one argument (not a rule function of that name)."""
        if isinstance(node, ast.Call) and node.func in names and node.func not in self.funcs and len(node.args) == 1:
            return node
        return None

    def _list_of(self, node: ast.Expr) -> ast.Expr:
        """X of `distinct(X)` or `sorted(X)`: a list with an item exactly when X has one."""
        while (call := self._builtin(node, {"distinct", "sorted"})) is not None:
            node = call.args[0]
        return node

    def _empty_of(self, node: ast.Expr) -> ast.Expr | None:
        """X, if `node` is `empty(X)`."""
        call = self._builtin(node, {"empty"})
        return self._list_of(call.args[0]) if call is not None else None

    # Facts from conditions.
    def if_true(self, cond: ast.Expr | None) -> Facts:
        """What `cond` being true makes known: X of each `not empty(X)` it is an `and` of."""
        if cond is None:
            return ()
        found = (self._empty_of(c.operand) for c in _parts(cond, "and") if isinstance(c, ast.Unary) and c.op == "not")
        return tuple(x for x in found if x is not None)

    def if_false(self, cond: ast.Expr) -> Facts:
        """What `cond` being false makes known: X of each `empty(X)` it is an `or` of."""
        found = (self._empty_of(c) for c in _parts(cond, "or"))
        return tuple(x for x in found if x is not None)

    def holds(self, known: Facts, domain: ast.Expr) -> bool:
        """Whether a choice from `domain` has an option wherever `known` holds.

        `distinct(X.attr)` has one when X is a list that has an item (a fact about `X.attr`, where X
        may be one piece, says nothing of `X.other`).
        """
        node = self._list_of(domain)
        while True:
            if _among(node, known):
                return True
            # `X.attr` has an item for each piece of X only where X is sure to be a list (one piece
            # is not empty, while its attribute may be).
            if not isinstance(node, ast.Attr) or not self._listed(node.obj):
                return False
            node = self._list_of(node.obj)

    def _listed(self, node: ast.Expr) -> bool:
        """Whether `node` is a list by its form: a zone, a `where` or a comprehension."""
        return isinstance(node, ast.Where | ast.ListComp) or self._zone_name(node) is not None

    # Facts through statements.
    def block(self, body: ast.Block, known: Facts) -> Facts | None:
        """What holds after `body`, run where `known` holds; None if it never ends by its last statement."""
        for st in body:
            now = self.after(st, known)
            if now is None:
                return None
            known = now
        return known

    def after(self, st: ast.Stmt, known: Facts) -> Facts | None:  # noqa: PLR0911 - one case per statement
        """What holds after `st`, run where `known` holds; None if control never goes on past it."""
        if isinstance(st, (ast.Return, ast.Break, ast.EndGame)):
            return None
        if isinstance(st, ast.Require):
            return with_facts(known, self.if_true(st.cond))
        if isinstance(st, ast.Move):
            return with_facts(self._kills(st, known), self._moved_into(st, known))
        if isinstance(st, ast.Turn):
            return self.block(st.body, known)
        if isinstance(st, ast.If):
            ends: list[Facts | None] = []
            before = known
            for cond, body in st.branches:
                ends.append(self.block(body, with_facts(before, self.if_true(cond))))
                before = with_facts(before, self.if_false(cond))
            ends.append(self.block(st.other, before) if st.other is not None else before)
            return _meet(ends)
        if isinstance(st, ast.ChooseBranch):
            return _meet([self.block(br.body, with_facts(known, self.if_true(br.when))) for br in st.branches])
        if isinstance(st, (ast.For, ast.While, ast.Repeat, ast.Loop)):
            return self.loop_entry(st, known, with_condition=False)
        return self._kills(st, known)

    def loop_entry(self, st: ast.For | ast.While | ast.Repeat | ast.Loop, known: Facts, *,
                   with_condition: bool = True) -> Facts:
        """What holds at the start of every pass of a loop's body, and after the loop.

        That is what no statement in the body ends, and (in the body) the condition of a `while`.
        """
        kept = self._survive(known, st.body)
        if isinstance(st, ast.For):
            kept = self._rebound(kept, st.var)
        if with_condition and isinstance(st, ast.While):
            kept = with_facts(kept, self.if_true(st.cond))
        return kept

    def _kills(self, st: ast.Stmt, known: Facts) -> Facts:  # noqa: PLR0911 - one case per statement
        """The facts a statement leaves standing, by what it changes alone (not by what it makes known)."""
        if isinstance(st, ast.Let):
            return self._rebound(known, st.name)
        if isinstance(st, ast.Choose):
            return self._rebound(known, st.var)
        if isinstance(st, ast.Set):
            return self._changed(known, {st.name}) if st.name in self.globals else self._rebound(known, st.name)
        if isinstance(st, ast.Move):
            zone = self._zone_name(st.pieces)
            # Pieces moved from a list of them leave whatever zones hold them.
            left = self._changed(known, {zone} if zone is not None else self.zones)
            return self._changed(left, self._zones_in(st.dest), grows=True)
        if isinstance(st, (ast.Create, ast.Shuffle)):
            # A zone that gains pieces, or is reordered, is no emptier than before.
            return self._changed(known, self._zones_in(st.dest if isinstance(st, ast.Create) else st.zone), grows=True)
        if isinstance(st, (ast.Log, ast.Require, ast.Return, ast.Break, ast.EndGame)):
            return known
        # A call, a placement, a peek or a reveal may change any zone or variable.
        return self._changed(known, self.globals)

    def _moved_into(self, st: ast.Move, known: Facts) -> Facts:
        """The destination of a move of at least one piece from a zone known to hold one.

        Only where the move leaves what the destination names as it was: `pile[first(deck).suit]`
        after a move from `deck` may be another pile.
        """
        some = st.amount is None or (isinstance(st.amount, ast.Num) and isinstance(st.amount.value, int)
                                     and not isinstance(st.amount.value, bool) and st.amount.value >= 1)
        if some and self._zone_name(st.pieces) is not None and self.holds(known, st.pieces) \
                and self._zone_name(st.dest) is not None:
            return self._kills(st, (st.dest,))
        return ()

    def _survive(self, known: Facts, body: ast.Block) -> Facts:
        """The facts no statement of `body`, however nested, ends: they hold on every pass of a loop."""
        kept = known
        for st in body:
            if isinstance(st, ast.If):
                for _, inner in st.branches:
                    kept = self._survive(kept, inner)
                if st.other is not None:
                    kept = self._survive(kept, st.other)
            elif isinstance(st, ast.ChooseBranch):
                for br in st.branches:
                    kept = self._survive(kept, br.body)
            elif isinstance(st, (ast.For, ast.While, ast.Repeat, ast.Loop, ast.Turn)):
                if isinstance(st, ast.For):
                    kept = self._rebound(kept, st.var)
                kept = self._survive(kept, st.body)
            else:
                kept = self._kills(st, kept)
        return kept

    # What facts read, and what ends them.
    def _names(self, node: ast.Expr) -> set[str]:
        """The names `node` reads, through the functions it calls.

        (A choice's options never draw at random: the checker refuses `random` there.)
        """
        known = self._read_by.get(id(node))
        if known is None:
            known = self._read_by[id(node)] = self._walk_names(node)
        return known

    def _walk_names(self, node: ast.Expr) -> set[str]:
        names: set[str] = set()
        for x in ast.walk(node):
            if isinstance(x, ast.Name):
                names.add(x.name)
            elif isinstance(x, ast.Call):
                names |= self._reads.get(x.func, set())
        return names

    def _rebound(self, known: Facts, name: str) -> Facts:
        """The facts left once the local `name` holds another value."""
        return tuple(k for k in known if name not in self._names(k))

    def _changed(self, known: Facts, names: Iterable[str], *, grows: bool = False) -> Facts:
        """The facts left once the zones or variables `names` change.

        `grows`: they only gain pieces or are reordered, so a fact that is one of those zones stays,
        if what picks it (`pile[first(deck).suit]`) reads none of them.
        """
        changed = set(names)

        def kept(k: ast.Expr) -> bool:
            if not self._names(k) & changed:
                return True
            if not grows or self._zone_name(k) is None:
                return False
            return not isinstance(k, ast.Index) or not any(self._names(a) & changed for a in k.args)
        return tuple(k for k in known if kept(k))

    def _zone_name(self, node: ast.Expr) -> str | None:
        """The zone `node` is (`deck`, `hand[p]`), if it is one."""
        if isinstance(node, ast.Index):
            node = node.obj
        return node.name if isinstance(node, ast.Name) and node.name in self.zones else None

    def _zones_in(self, node: ast.Expr) -> set[str]:
        zone = self._zone_name(node)
        return {zone} if zone is not None else set(self.zones)


class NoFacts(Flow):
    """The flow of a procedure whose locals hide a zone or a variable: its names are not what they seem there."""

    def holds(self, known: Facts, domain: ast.Expr) -> bool:  # noqa: ARG002 - the signature of Flow.holds
        """Nothing is known to hold here."""
        return False


def _meet(ends: list[Facts | None]) -> Facts | None:
    """What holds where paths meet: the facts of every path that goes on (None: none does)."""
    going = [e for e in ends if e is not None]
    if not going:
        return None
    first, rest = going[0], going[1:]
    return tuple(k for k in first if all(_among(k, other) for other in rest))


def _among(fact: ast.Expr, known: Facts) -> bool:
    """Whether `fact` is in `known`: most often the very node, carried along each path."""
    return any(fact is k for k in known) or any(_same(fact, k) for k in known)


def _function_reads(funcs: dict[str, ast.FuncDecl], globals_: frozenset[str]) -> dict[str, set[str]]:
    """The zones and variables each function reads, through the functions it calls."""
    reads: dict[str, set[str]] = {}
    calls: dict[str, set[str]] = {}
    for name, decl in funcs.items():
        nodes = list(ast.walk(decl.body))
        reads[name] = {x.name for x in nodes if isinstance(x, ast.Name) and x.name in globals_}
        calls[name] = {x.func for x in nodes if isinstance(x, ast.Call) and x.func in funcs}
    changed = True
    while changed:
        changed = False
        for name, callees in calls.items():
            for callee in callees:
                if reads[callee] - reads[name]:
                    reads[name] |= reads[callee]
                    changed = True
    return reads
