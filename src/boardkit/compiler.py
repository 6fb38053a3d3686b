"""Rule files to a compiled GameDef: merges variants, checks names, compiles procedures.

Procedures become flat instruction lists so that where a running procedure stands is plain
data. Every problem found is collected; one RuleError carries them all.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import attrs

from boardkit import ast
from boardkit.errors import RULE_FAULTS, Diagnostic, RuleError, RuleRuntimeError
from boardkit.exprs import WORK_LIMIT, ConstState, ExprCompiler, Symbols, add, suggest
from boardkit.listops import LIST_LIMIT
from boardkit.model import (
    BRANCH, CALL, CHOOSE, END, EXEC, ITER_INIT, ITER_NEXT, JUMP, JUMP_IF_NOT, REQUIRE, RETURN,
    TURN_BEGIN, TURN_END, BranchInfo, ChooseInfo, ComponentDef, EnumDef, GameDef, OptionDef,
    ProcCode, VarDef, ZoneDef,
)
from boardkit.lint import lint
from boardkit.parse import parse
from boardkit.source import SourceFile, Span

Resolver = Callable[[str, str], Path | None]


_KIND_NAMES = {ast.ConstDecl: "constant", ast.VarDecl: "variable", ast.ZoneDecl: "zone", ast.OptionDecl: "option"}


def _key(item: Any) -> tuple[str, str]:
    if isinstance(item, ast.Score):
        return (item.kind, "")
    if isinstance(item, (ast.GameDecl, ast.PlayersDecl, ast.Extends)):
        return (type(item).__name__, "")
    return ("name", item.name)


# The most players a game may name: far beyond any table.
MAX_PLAYERS = 64
# How deep blocks and expressions may nest: far beyond any real rule (the bundled games stay
# under 16), and shallow enough that compiling them cannot exhaust Python's stack.
MAX_NESTING = 50


def load_items(source: SourceFile, resolve: Resolver, sources: dict[str, SourceFile],
               diags: list[Diagnostic], depth: int = 0) -> list[Any]:
    """Returns the declarations of a rule file with those of the file it extends merged in."""
    sources[source.filename] = source
    tree = parse(source)
    deep = ast.too_deep(tree, MAX_NESTING)
    if deep is not None:
        msg = (f"the rules nest more than {MAX_NESTING} levels deep here (blocks and expressions); "
               "name a part with 'func' or 'proc'")
        raise RuleError([Diagnostic(deep.span, msg)], source)
    own: dict[tuple[str, str], Any] = {}
    tiebreaks: list[ast.Score] = []
    base: list[Any] = []
    for item in tree.items:
        if isinstance(item, ast.Extends):
            path = resolve(item.target, source.filename)
            if path is None:
                diags.append(Diagnostic(item.span, f"cannot find ruleset {item.target!r} to extend"))
            elif depth > 8:
                diags.append(Diagnostic(item.span, "rulesets extend each other in a cycle"))
            else:
                try:
                    text = path.read_text(encoding="utf-8")
                except (OSError, UnicodeDecodeError) as exc:
                    diags.append(Diagnostic(item.span, f"cannot read {str(path)!r} to extend: {exc}"))
                    continue
                base = load_items(SourceFile(text, str(path)), resolve, sources, diags, depth + 1)
            continue
        if isinstance(item, ast.Score) and item.kind == "tiebreak":
            tiebreaks.append(item)
            continue
        key = _key(item)
        if key in own:
            what = getattr(item, "name", key[0])
            diags.append(Diagnostic(item.span, f"{what!r} is declared twice (first at {own[key].span})"))
        own[key] = item
    merged: dict[tuple[str, str], Any] = {}
    base_tiebreaks = [i for i in base if isinstance(i, ast.Score) and i.kind == "tiebreak"]
    for item in base:
        if not (isinstance(item, ast.Score) and item.kind == "tiebreak"):
            merged[_key(item)] = item
    merged.update(own)
    return [*merged.values(), *(tiebreaks or base_tiebreaks)]


class _ProcBuilder:
    """Emits the instructions of one procedure."""

    def __init__(self, proc: ProcCode) -> None:
        self.proc = proc
        self.loops: list[list[int]] = []

    def emit(self, span: Span, *ins: Any) -> int:
        self.proc.code.append(tuple(ins))
        self.proc.spans.append(span)
        return len(self.proc.code) - 1

    def patch(self, pc: int, *ins: Any) -> None:
        self.proc.code[pc] = tuple(ins)

    def here(self) -> int:
        return len(self.proc.code)


def _copy(v: Any) -> Any:
    return list(v) if isinstance(v, list) else v


class Compiler:
    def __init__(self, items: list[Any], name: str, diags: list[Diagnostic]) -> None:
        self.items = items
        self.name = name
        self.diags = diags
        self.sym = Symbols()
        self.ex = ExprCompiler(self.sym, diags)
        self.capacity_zones: set[str] = set()

    def error(self, span: Span, msg: str) -> None:
        self.diags.append(Diagnostic(span, msg))

    def const_value(self, node: Any) -> Any:
        before = len(self.diags)
        fn = self.ex.compile(node, set())
        if len(self.diags) > before:
            return None
        try:
            return fn(ConstState({}), {})
        except Exception:  # noqa: BLE001 - any failure means it was not a constant
            self.error(node.span, "expected a constant value")
            return None

    # Declarations.
    def run(self) -> GameDef:
        sym = self.sym
        title, low, high = self.name, 2, 2
        enums: dict[str, EnumDef] = {}
        components: dict[str, ComponentDef] = {}
        zones_ast: list[ast.ZoneDecl] = []
        vars_ast: list[ast.VarDecl] = []
        options: dict[str, OptionDef] = {}
        procs_ast: list[ast.ProcDecl] = []
        scores: list[ast.Score] = []
        for item in self.items:
            if isinstance(item, ast.GameDecl):
                title = item.title
            elif isinstance(item, ast.PlayersDecl):
                low, high = item.low, item.high
                if not 1 <= low <= high <= MAX_PLAYERS:
                    self.error(item.span, f"bad player range {low}..{high}: from 1 to {MAX_PLAYERS} players")
            elif isinstance(item, ast.EnumDecl):
                members = tuple(m for m, _ in item.members)
                # A member may belong to several enums (a subset of colours beside all colours):
                # it is one value, a string, wherever it is listed. Twice in one enum is an error.
                for i, (m, span) in enumerate(item.members):
                    if m in members[:i]:
                        self.error(span, f"{m!r} is listed twice in enum {item.name!r}")
                    sym.members.setdefault(m, item.name)
                sym.enums[item.name] = members
                enums[item.name] = EnumDef(item.name, members)
            elif isinstance(item, ast.ComponentDecl):
                for fname, _, _ in item.fields:
                    sym.attributes.add(fname)
            elif isinstance(item, ast.ZoneDecl):
                sym.zones[item.name] = tuple(d for d, _ in item.dims)
                if item.grid is not None:
                    sym.grids.add(item.name)
                zones_ast.append(item)
            elif isinstance(item, ast.VarDecl):
                sym.vars[item.name] = tuple(d for d, _ in item.dims)
                vars_ast.append(item)
            elif isinstance(item, ast.FuncDecl):
                sym.funcs[item.name] = item
            elif isinstance(item, ast.ProcDecl):
                sym.procs[item.name] = item.params
                procs_ast.append(item)
            elif isinstance(item, ast.Score):
                scores.append(item)
        for item in self.items:
            name = getattr(item, "name", None)
            # Values only: procedures, functions and components are named where no value can be.
            if name in sym.members and type(item) in _KIND_NAMES:
                self.error(item.span, f"{name!r} is a member of enum {sym.members[name]!r}; give the "
                                      f"{_KIND_NAMES[type(item)]} another name")
        for item in self.items:
            if isinstance(item, ast.ConstDecl):
                sym.consts[item.name] = self.const_value(item.value)
            elif isinstance(item, ast.OptionDecl):
                default = self.const_value(item.default)
                choices = self.const_value(item.choices) if item.choices is not None else None
                if choices is not None and not isinstance(choices, list):
                    self.error(item.choices.span, "option choices must be a list")
                    choices = None
                if choices is not None and default not in choices:
                    self.error(item.default.span, f"default {default!r} is not one of the choices {choices!r}")
                options[item.name] = OptionDef(item.name, default, tuple(choices) if choices else None)
                sym.options.add(item.name)
        self._check_dims(zones_ast, vars_ast)
        for item in self.items:
            if isinstance(item, ast.ComponentDecl):
                components[item.name] = self._component(item)
        zones = {z.name: self._zone(z) for z in zones_ast}
        self.capacity_zones = {z.name for z in zones_ast if z.capacity is not None}
        vars_ = {v.name: VarDef(v.name, tuple(d for d, _ in v.dims), self.ex.compile(v.init, set()), v.span)
                 for v in vars_ast}
        self.ex.compile_funcs()
        procs = {p.name: self._proc(p) for p in procs_ast}
        if "play" not in procs:
            span = self.items[0].span if self.items else Span(self.name, 1, 1)
            self.error(span, "a ruleset needs a 'play { ... }' procedure")
        score = None
        tiebreaks = []
        for sc in scores:
            bound = _per_player(self.ex.compile(sc.expr, {sc.param}, f"a {sc.kind}"), sc.param, sc.span)
            if sc.kind == "score":
                score = bound
            else:
                tiebreaks.append(bound)
        _set_probe_flags(procs)
        return GameDef(self.name, title, low, high, enums, components, zones, vars_, dict(sym.consts), options,
                       procs, score, tuple(tiebreaks))

    def _check_dims(self, zones: list[ast.ZoneDecl], vars_: list[ast.VarDecl]) -> None:
        for decl in [*zones, *vars_]:
            for dim, span in decl.dims:
                if dim != "Player" and dim not in self.sym.enums:
                    self.error(span, f"unknown index {dim!r}: use an enum name or Player{suggest(dim, [*self.sym.enums, 'Player'])}")

    def _component(self, item: ast.ComponentDecl) -> ComponentDef:
        for fname, ftype, span in item.fields:
            if ftype not in self.sym.enums and ftype not in ("int", "bool", "str"):
                self.error(span, f"unknown attribute type {ftype!r}: use an enum name, int, bool or str{suggest(ftype, [*self.sym.enums, 'int', 'bool', 'str'])}")
        label = self.ex.compile_label(item.label) if item.label is not None else None
        parts = self.ex.compile_label(item.parts, "a piece's parts") if item.parts is not None else None
        return ComponentDef(item.name, tuple((f, t) for f, t, _ in item.fields), label, parts)

    def _zone(self, z: ast.ZoneDecl) -> ZoneDef:
        capacity = self.ex.compile(z.capacity, set(), "a capacity") if z.capacity is not None else None
        dims = tuple(d for d, _ in z.dims)
        if z.grid is None:
            return ZoneDef(z.name, dims, z.kind or "pile", z.visibility, capacity, z.span)
        if z.kind is not None:
            self.error(z.span, f"zone {z.name!r} is a grid: 'grid(w, h)' is its kind, so it cannot also be a {z.kind}")
        size = (self.ex.compile(z.grid[0], set(), "a grid size"), self.ex.compile(z.grid[1], set(), "a grid size"))
        return ZoneDef(z.name, dims, "grid", z.visibility, capacity, z.span, size)

    def _grid_zone(self, node: Any) -> str | None:
        """The name of the grid zone `node` refers to (`board`, `board[p]`), or None."""
        target = node.obj if isinstance(node, ast.Index) else node
        if isinstance(target, ast.Name) and target.name in self.sym.grids:
            return target.name
        return None

    def _place(self, b: _ProcBuilder, st: ast.Place, scope: set[str]) -> None:
        if self._grid_zone(st.zone) is None:
            self.error(st.zone.span, "'place' puts a piece on a grid zone, such as 'board' or 'board[p]' declared with grid(w, h)")
            return
        piece, cells = self.ex.compile(st.piece, scope), self.ex.compile(st.cells, scope)
        slot = self.ex.zone_key(st.zone, scope)
        if slot is not None:
            b.emit(st.span, EXEC, lambda s, L: s.place(piece(s, L), slot(s, L), cells(s, L)))

    # Procedures.
    def _proc(self, decl: ast.ProcDecl) -> ProcCode:
        proc = ProcCode(decl.name, decl.params)
        b = _ProcBuilder(proc)
        self._block(b, decl.body, set(decl.params) | {"$actor"}, in_turn=False)
        b.emit(decl.span, RETURN)
        return proc

    def _block(self, b: _ProcBuilder, body: tuple, scope: set[str], in_turn: bool, guard: Any = None) -> None:
        scope = set(scope)
        for i, stmt in enumerate(body):
            self._stmt(b, stmt, scope, in_turn, guard if i == 0 else None)

    def _stmt(self, b: _ProcBuilder, st: Any, scope: set[str], in_turn: bool, guard: Any = None) -> None:  # noqa: C901, PLR0912, PLR0915
        ex = self.ex
        sp = st.span
        if isinstance(st, ast.Let):
            fn = ex.compile(st.value, scope)
            name = st.name
            if name in self.sym.vars or name in self.sym.zones:
                self.error(sp, f"local {name!r} hides a global of the same name")
            scope.add(name)

            def let(s: Any, L: dict) -> None:
                L[name] = _copy(fn(s, L))

            b.emit(sp, EXEC, let)
        elif isinstance(st, ast.Set):
            self._set(b, st, scope)
        elif isinstance(st, ast.If):
            ends = []
            for cond, body in st.branches:
                c = ex.compile(cond, scope)
                jf = b.emit(cond.span, JUMP_IF_NOT, c, None)
                self._block(b, body, scope, in_turn, cond)
                ends.append(b.emit(sp, JUMP, None))
                b.patch(jf, JUMP_IF_NOT, c, b.here())
            if st.other is not None:
                self._block(b, st.other, scope, in_turn)
            for e in ends:
                b.patch(e, JUMP, b.here())
        elif isinstance(st, (ast.For, ast.Repeat)):
            if isinstance(st, ast.For):
                coll, var = ex.compile(st.iter, scope), st.var
            else:
                count = ex.compile(st.count, scope)
                coll, var = (lambda s, L: range(count(s, L))), f"$r{b.here()}"
            slot = f"$it{b.here()}"
            b.emit(sp, ITER_INIT, slot, coll)
            top = b.emit(sp, ITER_NEXT, slot, var, None)
            b.loops.append([])
            self._block(b, st.body, scope | {var}, in_turn)
            b.emit(sp, JUMP, top)
            end = b.here()
            b.patch(top, ITER_NEXT, slot, var, end)
            for pc in b.loops.pop():
                b.patch(pc, JUMP, end)
        elif isinstance(st, ast.While):
            c = ex.compile(st.cond, scope)
            top = b.emit(sp, JUMP_IF_NOT, c, None)
            b.loops.append([])
            self._block(b, st.body, scope, in_turn, st.cond)
            b.emit(sp, JUMP, top)
            b.patch(top, JUMP_IF_NOT, c, b.here())
            for pc in b.loops.pop():
                b.patch(pc, JUMP, b.here())
        elif isinstance(st, ast.Loop):
            top = b.here()
            b.loops.append([])
            self._block(b, st.body, scope, in_turn)
            b.emit(sp, JUMP, top)
            for pc in b.loops.pop():
                b.patch(pc, JUMP, b.here())
        elif isinstance(st, ast.Break):
            if not b.loops:
                self.error(sp, "'break' outside a loop")
            else:
                b.loops[-1].append(b.emit(sp, JUMP, None))
        elif isinstance(st, ast.Return):
            b.emit(sp, RETURN)
        elif isinstance(st, ast.Move):
            self._move(b, st, scope)
        elif isinstance(st, ast.Shuffle):
            if self._grid_zone(st.zone) is not None:
                self.error(st.zone.span, f"a grid zone cannot be shuffled: {self._grid_zone(st.zone)!r} is a grid")
            key = ex.zone_key(st.zone, scope)
            if key is not None:
                b.emit(sp, EXEC, lambda s, L: s.shuffle(key(s, L)))
        elif isinstance(st, ast.Create):
            self._create(b, st, scope)
        elif isinstance(st, ast.Choose):
            domain = ex.compile(st.domain, scope, "a choice's options")
            by = ex.compile(st.by, scope, "'by'") if st.by is not None else None
            scope.add(st.var)
            total = guard is not None and _guarantees_nonempty(guard, st.domain)
            b.emit(sp, CHOOSE, ChooseInfo(st.var, domain, by, st.optional, st.prompt or f"choose {st.var}", sp, total))
        elif isinstance(st, ast.ChooseBranch):
            by = ex.compile(st.by, scope, "'by'") if st.by is not None else None
            pc = b.emit(sp, BRANCH, None)
            targets, ends, names, whens, others = [], [], [], [], []
            for br in st.branches:
                if br.name in names:
                    self.error(br.span, f"option {br.name!r} appears twice")
                names.append(br.name)
                others.append(br.otherwise)
                whens.append(ex.compile(br.when, scope, "'when'") if br.when is not None else None)
                targets.append(b.here())
                self._block(b, br.body, scope, in_turn)
                ends.append(b.emit(sp, JUMP, None))
            for e in ends:
                b.patch(e, JUMP, b.here())
            b.patch(pc, BRANCH, BranchInfo(tuple(names), tuple(whens), tuple(targets), tuple(others), by, st.prompt or "choose an option", sp))
        elif isinstance(st, ast.Require):
            b.emit(sp, REQUIRE, ex.compile(st.cond, scope), st.message or "requirement not met")
        elif isinstance(st, ast.EndGame):
            b.emit(sp, END, ex.compile(st.reason, scope))
        elif isinstance(st, ast.Turn):
            if in_turn:
                self.error(sp, "a 'turn' block cannot be nested in another")
            b.emit(sp, TURN_BEGIN, ex.compile(st.player, scope))
            self._block(b, st.body, scope, in_turn=True)
            b.emit(sp, TURN_END)
        elif isinstance(st, ast.CallStmt):
            if st.name not in self.sym.procs:
                self.error(sp, f"unknown procedure {st.name!r}{suggest(st.name, self.sym.procs)}")
                return
            params = self.sym.procs[st.name]
            if len(params) != len(st.args):
                self.error(sp, f"{st.name}() takes {len(params)} argument(s), got {len(st.args)}")
                return
            self.ex.used.add(st.name)
            b.emit(sp, CALL, st.name, tuple(ex.compile(a, scope) for a in st.args))
        elif isinstance(st, ast.Log):
            args = [ex.compile(a, scope) for a in st.args]
            msg = st.message
            b.emit(sp, EXEC, lambda s, L: s.log(msg, [a(s, L) for a in args]))
        elif isinstance(st, ast.Peek):
            pieces, who = ex.compile(st.pieces, scope), ex.compile(st.player, scope)
            b.emit(sp, EXEC, lambda s, L: s.peek(pieces(s, L), who(s, L)))
        elif isinstance(st, ast.Reveal):
            pieces = ex.compile(st.pieces, scope)
            b.emit(sp, EXEC, lambda s, L: s.reveal(pieces(s, L)))
        elif isinstance(st, ast.Place):
            self._place(b, st, scope)
        else:
            self.error(sp, "not a statement")

    def _set(self, b: _ProcBuilder, st: ast.Set, scope: set[str]) -> None:
        value = self.ex.compile(st.value, scope)
        op = st.op
        name = st.name
        if st.index is None and name in scope:
            def set_local(s: Any, L: dict) -> None:
                v = value(s, L)
                L[name] = _copy(v) if op == "=" else (add(s, L[name], v) if op == "+=" else L[name] - v)

            b.emit(st.span, EXEC, set_local)
            return
        if name not in self.sym.vars:
            self.error(st.span, f"cannot set {name!r}: not a variable or local{suggest(name, [*scope, *self.sym.vars])}")
            return
        key = self.ex.var_key(name, st.index or (), st.span, scope)
        if key is not None:
            b.emit(st.span, EXEC, lambda s, L: s.set_var(key(s, L), value(s, L), op))

    def _move(self, b: _ProcBuilder, st: ast.Move, scope: set[str]) -> None:
        if self._grid_zone(st.dest) is not None:
            self.error(st.dest.span, f"pieces go on grid zone {self._grid_zone(st.dest)!r} with 'place PIECE on ZONE at CELLS', not 'move'")
            return
        pieces = self.ex.compile(st.pieces, scope)
        amount = self.ex.compile(st.amount, scope) if st.amount is not None else None
        dest = self.ex.zone_key(st.dest, scope)
        if dest is None:
            return
        end = st.end
        # `move 2 of bag to ...` takes the first pieces in the zone's order: from a bag, a draw.
        source = st.pieces.coll if isinstance(st.pieces, ast.Where) else st.pieces
        source = source.obj if isinstance(source, ast.Index) else source
        drawn = amount is not None and isinstance(source, ast.Name) and source.name in self.sym.zones

        def move(s: Any, L: dict) -> None:
            chosen = pieces(s, L)
            if amount is not None:
                chosen = chosen[: amount(s, L)]
            s.move(list(chosen), dest(s, L), end, drawn)

        # A move into a zone with a capacity may overflow it: a dead end the look-ahead must see.
        target = st.dest.obj if isinstance(st.dest, ast.Index) else st.dest
        limited = isinstance(target, ast.Name) and target.name in self.capacity_zones
        b.emit(st.span, EXEC, move, limited)

    def _create(self, b: _ProcBuilder, st: ast.Create, scope: set[str]) -> None:
        if st.type not in {i.name for i in self.items if isinstance(i, ast.ComponentDecl)}:
            self.error(st.span, f"unknown component type {st.type!r}")
            return
        inner = set(scope)
        loops = []
        for f in st.fors:
            it = self.ex.compile(f.iter, inner)
            inner = inner | {f.var}
            loops.append((f.var, it, self.ex.compile(f.cond, inner) if f.cond is not None else None))
        count = self.ex.compile(st.count, scope)
        fields = {i.name: i for i in self.items if isinstance(i, ast.ComponentDecl)}[st.type].fields
        given = {k for k, _, _ in st.kwargs}
        for k, _, span in st.kwargs:
            if k not in {f for f, _, _ in fields}:
                self.error(span, f"component {st.type!r} has no attribute {k!r}")
        for f, _, _ in fields:
            if f not in given:
                self.error(st.span, f"attribute {f!r} of {st.type!r} is not given")
        kw = [(k, self.ex.compile(v, inner)) for k, v, _ in st.kwargs]
        if self._grid_zone(st.dest) is not None:
            self.error(st.dest.span, f"pieces cannot be created on grid zone {self._grid_zone(st.dest)!r}: create them elsewhere, then 'place' them")
            return
        dest = self.ex.zone_key(st.dest, scope)
        if dest is None:
            return
        type_name = st.type

        def create(s: Any, L: dict) -> None:
            envs = [dict(L)]
            for var, it, cond in loops:
                nxt = []
                for env in envs:
                    for x in it(s, env):
                        e2 = dict(env)
                        e2[var] = x
                        if cond is None or cond(s, e2):
                            nxt.append(e2)
                envs = nxt
            for env in envs:
                attrs_ = {k: f(s, env) for k, f in kw}
                n = count(s, env)
                if not isinstance(n, int) or len(s.pieces) + n > LIST_LIMIT:
                    msg = f"create {n!r:.40} pieces: a game holds at most {LIST_LIMIT} pieces"
                    raise ValueError(msg)
                s.create(type_name, attrs_, n, dest(s, L))

        b.emit(st.span, EXEC, create)


def _per_player(fn: Any, param: str, span: Span) -> Callable[[Any, int], Any]:
    """A score or tiebreak as a function of the state and a player; faults point at the rule."""

    def score(s: Any, p: int) -> Any:
        s.work = WORK_LIMIT
        try:
            value = fn(s, {param: p})
        except RULE_FAULTS as exc:
            raise RuleRuntimeError(f"{type(exc).__name__}: {exc}", span) from None
        if type(value) is not int:
            msg = f"a score or tiebreak must be a whole number, not {value!r:.60} (player {p})"
            raise RuleRuntimeError(msg, span)
        return value

    return score


def _same(a: Any, b: Any) -> bool:
    """Structural equality of AST nodes, ignoring where they were written."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if not hasattr(a, "__attrs_attrs__"):
        return a == b
    return all(_same(getattr(a, f.name), getattr(b, f.name)) for f in a.__attrs_attrs__ if f.name != "span")


def _guarantees_nonempty(cond: Any, domain: Any) -> bool:
    """Whether `cond` (just checked) proves `domain` non-empty: `not empty(X)` guarding a choice
    from X, X.attr or distinct(...) of those. Such a choice can never be a dead end."""
    base = domain
    while True:
        if isinstance(base, ast.Call) and base.func in ("distinct", "sorted") and len(base.args) == 1:
            base = base.args[0]
        elif isinstance(base, ast.Attr):
            base = base.obj
        else:
            break
    conjuncts = cond.values if isinstance(cond, ast.BoolOp) and cond.op == "and" else (cond,)
    return any(isinstance(c, ast.Unary) and c.op == "not" and isinstance(c.operand, ast.Call)
               and c.operand.func == "empty" and len(c.operand.args) == 1 and _same(c.operand.args[0], base)
               for c in conjuncts)


def _fail_point(ins: tuple, fails: dict[str, bool]) -> bool:
    op = ins[0]
    if op == CHOOSE:
        return not ins[1].total
    if op == EXEC:
        return len(ins) > 2 and bool(ins[2])
    return op in (REQUIRE, BRANCH) or (op == CALL and fails.get(ins[1], False))


def _successors(ins: tuple, pc: int) -> list[int]:
    op = ins[0]
    if op == JUMP:
        return [ins[1]]
    if op == JUMP_IF_NOT:
        return [pc + 1, ins[2]]
    if op == ITER_NEXT:
        return [pc + 1, ins[3]]
    if op == BRANCH:
        return list(ins[1].targets)
    if op in (RETURN, END, TURN_END):
        return []
    return [pc + 1]


def _set_probe_flags(procs: dict[str, ProcCode]) -> None:
    """Marks, for each instruction, whether a dead end may lie after it before the turn ends.

    probe[pc] is a pair: (a require, a move into a zone with a capacity, or a decision that may have
    no option, is reachable after pc;
    the procedure's return is reachable after pc). Decisions with neither need no look-ahead.
    """
    fails = {name: any(_fail_point(i, {}) for i in p.code) for name, p in procs.items()}
    changed = True
    while changed:
        changed = False
        for name, p in procs.items():
            if not fails[name] and any(i[0] == CALL and fails.get(i[1], False) for i in p.code):
                fails[name] = changed = True
    for p in procs.values():
        flags = []
        for pc, ins in enumerate(p.code):
            seen: set[int] = set()
            stack = _successors(ins, pc)
            fail = ret = False
            while stack:
                q = stack.pop()
                if q in seen or q >= len(p.code):
                    continue
                seen.add(q)
                i = p.code[q]
                if _fail_point(i, fails):
                    fail = True
                if i[0] == RETURN:
                    ret = True
                stack.extend(_successors(i, q))
            flags.append((fail, ret))
        p.probe = flags


def compile_source(source: SourceFile, name: str, resolve: Resolver) -> GameDef:
    """Parses, checks and compiles a rule file and the files it extends."""
    diags: list[Diagnostic] = []
    sources: dict[str, SourceFile] = {}
    try:
        items = load_items(source, resolve, sources, diags)
    except RuleError as err:
        raise RuleError(diags + err.diagnostics, {**sources, **err.sources}) from None
    compiler = Compiler(items, name, diags)
    game = compiler.run() if not diags else None
    if diags or game is None:
        diags.sort(key=lambda d: (d.span.filename != source.filename, d.span.filename, d.span.line, d.span.column))
        raise RuleError(diags, sources)
    warnings = lint(items, game, compiler.ex, source.filename)
    return attrs.evolve(game, warnings=tuple(warnings), sources=sources)
