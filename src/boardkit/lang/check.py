"""The checker: merged declarations (AST) -> the checked model, with every problem located.

Names, arities, scopes and statement forms are checked here; procedures become flat
instruction lists. Every problem found is collected; one RuleError carries them all. Nothing
here runs rules or generates code.
"""

from __future__ import annotations

import attrs

from boardkit.errors import Diagnostic, RuleError
from boardkit.lang import ast
from boardkit.lang.lint import lint
from boardkit.lang.nonempty import Facts, Flow, NoFacts, with_facts
from boardkit.lang.resolve import Resolver, Symbols
from boardkit.lang.variants import Resolver as FileResolver
from boardkit.lang.variants import load_items
from boardkit.model import defs as d
from boardkit.model import expr as m
from boardkit.source import SourceFile, Span

_KIND_NAMES = {ast.ConstDecl: "constant", ast.VarDecl: "variable", ast.ZoneDecl: "zone", ast.OptionDecl: "option"}

# The most players a game may name: far beyond any table.
MAX_PLAYERS = 64
# The most numbers a variable's range index holds, and the most index combinations (counting
# Player as 64) a zone or variable family has: each is kept for every game.
MAX_RANGE = 1_000
MAX_KEYS = 100_000

# What a constant may be made of: no game state, no procedure locals, no user functions.
_CONSTANT_NODES = (m.Lit, m.ConstRef, m.EnumList, m.Bound, m.Attr, m.PieceAttr, m.Unary, m.Binary, m.BoolOp,
                   m.Ternary, m.ListLit, m.Where, m.ListComp, m.CompFor)


# The fields of each class met in a model expression; None for a class that holds no expression.
_FIELDS: dict[type, tuple[str, ...] | None] = {Span: None, str: None, int: None, bool: None, type(None): None}


def _fields(cls: type) -> tuple[str, ...] | None:
    if cls not in _FIELDS:
        _FIELDS[cls] = tuple(f.name for f in attrs.fields(cls)) if attrs.has(cls) else None
    return _FIELDS[cls]


def is_constant(node: m.Expr) -> bool:
    """Whether `node` can be worked out from the rules alone, before any game.

    Looks at the expressions `m.walk` gives, as they come: a constant of a thousand
    numbers is one look at each, and a list of literals alone (a row of a data table) one
    look in all.
    """
    todo: list[object] = [node]
    known = _FIELDS
    lit, list_lit = m.Lit, m.ListLit
    while todo:
        n = todo.pop()
        cls = n.__class__
        if cls is list_lit:
            items = n.items  # type: ignore[attr-defined]
            if set(map(type, items)) != {lit}:
                todo += items
            continue
        if not (isinstance(n, _CONSTANT_NODES) or (isinstance(n, m.BuiltinCall) and not n.needs_state)):
            return False
        for name in _fields(cls) or ():
            value = getattr(n, name)
            if isinstance(value, tuple):
                todo += [v for v in value if (known[type(v)] if type(v) in known else _fields(type(v))) is not None]
            elif (known[type(value)] if type(value) in known else _fields(type(value))) is not None:
                todo.append(value)
    return True


class _ProcBuilder:
    """Emits the instructions of one procedure; jumps are patched once their target is known."""

    def __init__(self) -> None:
        self.code: list[d.Instr] = []
        self.loops: list[list[int]] = []

    def emit(self, ins: d.Instr) -> int:
        self.code.append(ins)
        return len(self.code) - 1

    def patch(self, pc: int, **changes: object) -> None:
        # The fields are those of the instruction at pc (a jump, a loop, a branch), not of every Instr.
        self.code[pc] = attrs.evolve(self.code[pc], **changes)  # type: ignore[arg-type]

    def here(self) -> int:
        return len(self.code)


class Checker:
    """Checks the merged declarations of a ruleset named `name`, adding every problem to `diags`."""

    def __init__(self, items: list[ast.Decl], name: str, diags: list[Diagnostic], filename: str) -> None:
        self.items = items
        self.name = name
        self.filename = filename
        self.diags = diags
        self.sym = Symbols()
        self.ex = Resolver(self.sym, diags)
        self.capacity_zones: set[str] = set()
        self.min_players = 1
        # What the procedure being checked knows of its lists (`_proc`), from the declarations (`run`).
        self.flow = self._facts = self._no_facts = Flow((), (), {})

    def error(self, span: Span, msg: str) -> None:
        """Records a problem at `span`."""
        self.diags.append(Diagnostic(span, msg))

    def constant(self, node: ast.Expr) -> m.Expr:
        """Resolves an expression that must be a constant (see `is_constant`)."""
        before = len(self.diags)
        value = self.ex.resolve(node, set())
        if len(self.diags) == before and not is_constant(value):
            self.error(node.span, "expected a constant value")
        return value

    # Declarations.
    def run(self) -> d.GameDef:  # noqa: C901, PLR0912, PLR0915 - one pass per kind of declaration
        """Returns the checked model; its problems are in `diags` (the model is then incomplete)."""
        sym = self.sym
        title, low, high = self.name, 2, 2
        enums: dict[str, d.EnumDef] = {}
        zones_ast: list[ast.ZoneDecl] = []
        vars_ast: list[ast.VarDecl] = []
        procs_ast: list[ast.ProcDecl] = []
        scores: list[ast.Score] = []
        invariants: list[ast.Invariant] = []
        for item in self.items:
            if isinstance(item, ast.GameDecl):
                title = item.title
            elif isinstance(item, ast.PlayersDecl):
                low, high = item.low, item.high
                if not 1 <= low <= high <= MAX_PLAYERS:
                    self.error(item.span, f"bad player range {low}..{high}: from 1 to {MAX_PLAYERS} players")
            elif isinstance(item, ast.EnumDecl):
                members = tuple(name for name, _ in item.members)
                # A member may belong to several enums (a subset of colours beside all colours):
                # it is one value, a string, wherever it is listed. Twice in one enum is an error.
                for i, (member, span) in enumerate(item.members):
                    if member in members[:i]:
                        self.error(span, f"{member!r} is listed twice in enum {item.name!r}")
                    sym.members.setdefault(member, item.name)
                sym.enums[item.name] = members
                enums[item.name] = d.EnumDef(item.name, members)
            elif isinstance(item, ast.ComponentDecl):
                for fname, _, _ in item.fields:
                    sym.attributes.add(fname)
            elif isinstance(item, ast.ZoneDecl):
                sym.zones[item.name] = tuple(dim for dim, _ in item.dims)
                if item.grid is not None:
                    sym.grids.add(item.name)
                zones_ast.append(item)
            elif isinstance(item, ast.VarDecl):
                sym.vars[item.name] = tuple(dim for dim, _ in item.dims)
                if isinstance(item.init, (ast.Num, ast.Str, ast.Bool)):  # a variable keeps its kind
                    sym.no_list.add(item.name)
                vars_ast.append(item)
            elif isinstance(item, ast.FuncDecl):
                sym.funcs[item.name] = item
            elif isinstance(item, ast.ProcDecl):
                sym.procs[item.name] = item.params
                procs_ast.append(item)
            elif isinstance(item, ast.Score):
                scores.append(item)
            elif isinstance(item, ast.Invariant):
                invariants.append(item)
        for item in self.items:
            name = getattr(item, "name", None)
            # Values only: procedures, functions and components are named where no value can be.
            if name in sym.members and type(item) in _KIND_NAMES:
                self.error(item.span, f"{name!r} is a member of enum {sym.members[name]!r}; give the "
                                      f"{_KIND_NAMES[type(item)]} another name")
        consts: dict[str, d.ConstDef] = {}
        options: dict[str, d.OptionDef] = {}
        for item in self.items:
            if isinstance(item, ast.ConstDecl):
                consts[item.name] = d.ConstDef(item.name, self.constant(item.value), item.span)
                sym.consts.add(item.name)
            elif isinstance(item, ast.OptionDecl):
                default = self.constant(item.default)
                choices = self.constant(item.choices) if item.choices is not None else None
                options[item.name] = d.OptionDef(item.name, default, choices, item.span)
                sym.options.add(item.name)
        self._check_dims(zones_ast, vars_ast)
        components = {item.name: self._component(item) for item in self.items if isinstance(item, ast.ComponentDecl)}
        zones = {z.name: self._zone(z) for z in zones_ast}
        self.capacity_zones = {z.name for z in zones_ast if z.capacity is not None}
        vars_ = {v.name: d.VarDef(v.name, tuple(dim for dim, _ in v.dims), self.ex.resolve(v.init, set()), v.span)
                 for v in vars_ast}
        funcs: dict[str, d.FuncDef] = {}
        for name, decl in sym.funcs.items():
            params = {p: self.ex.fresh(decl.span, f"p_{p}_") for p in decl.params}
            body = self.ex.resolve(decl.body, set(), bound=params)
            funcs[name] = d.FuncDef(name, tuple(params.values()), body, decl.span)
        self.min_players = low
        self._facts = Flow(sym.zones, sym.vars, sym.funcs)
        self._no_facts = NoFacts(sym.zones, sym.vars, sym.funcs)
        procs = {p.name: self._proc(p) for p in procs_ast}
        if "play" not in procs:
            span = self.items[0].span if self.items else Span(self.filename, 1, 1)
            self.error(span, "a ruleset needs a 'play { ... }' procedure")
        score = heuristic = None
        tiebreaks: list[d.ScoreDef] = []
        for sc in scores:
            value = d.ScoreDef(sc.param, self.ex.resolve(sc.expr, {sc.param}, f"a {sc.kind}"), sc.span)
            if sc.kind == "score":
                score = value
            elif sc.kind == "heuristic":
                heuristic = value
            else:
                tiebreaks.append(value)
        # A name that is a procedure's local means nothing between decisions: an invariant that
        # reads one is told so, rather than that the name is unknown.
        locals_ = {name: proc.name for proc in procs_ast for name in _locals_of(proc)} if invariants else {}
        checked = tuple(self._invariant(inv, locals_) for inv in invariants)
        return d.GameDef(self.name, title, low, high, enums, components, zones, vars_, consts, options, funcs,
                         _with_probe_flags(procs), score, tuple(tiebreaks), checked, heuristic=heuristic)

    def _invariant(self, inv: ast.Invariant, proc_locals: dict[str, str]) -> d.InvariantDef:
        """Checks an invariant: it reads the game (and its player) only, so it can never change one."""
        if inv.domain is not None and inv.domain[0] not in ("players", "Player"):
            self.error(inv.domain[1], f"an invariant ranges over players only: write 'for {inv.param} in players', "
                                      f"not 'in {inv.domain[0]}'")
        scope = {inv.param} if inv.param is not None else set()
        self.ex.proc_locals = proc_locals
        try:
            expr = self.ex.resolve(inv.expr, scope, "an invariant")
        finally:
            self.ex.proc_locals = {}
        return d.InvariantDef(inv.name, inv.param, expr, inv.span)

    def _check_dims(self, zones: list[ast.ZoneDecl], vars_: list[ast.VarDecl]) -> None:
        decls: list[ast.ZoneDecl | ast.VarDecl] = [*zones, *vars_]
        for decl in decls:
            keys = 1
            for dim, span in decl.dims:
                numbers = d.number_range(dim)
                if numbers is not None:
                    keys *= max(0, numbers.stop - numbers.start)
                    if numbers.stop <= numbers.start:
                        self.error(span, f"the range {dim} holds no number: write the lower end first")
                    elif numbers.stop - numbers.start > MAX_RANGE:
                        self.error(span, f"the range {dim} holds {numbers.stop - numbers.start:,} numbers, "
                                         f"over the limit of {MAX_RANGE:,}")
                    continue
                keys *= MAX_PLAYERS if dim == "Player" else len(self.sym.enums.get(dim, ()))
                if dim != "Player" and dim not in self.sym.enums:
                    hint = self.ex.suggest(dim, self.sym.enums, ["Player"])
                    self.error(span, f"unknown index {dim!r}: use an enum name or Player{hint}")
            if keys > MAX_KEYS:
                self.error(decl.span, f"{decl.name!r} has up to {keys:,} index combinations, over the limit of "
                                      f"{MAX_KEYS:,}")

    def _component(self, item: ast.ComponentDecl) -> d.ComponentDef:
        for _, ftype, span in item.fields:
            if ftype not in self.sym.enums and ftype not in ("int", "bool", "str"):
                hint = self.ex.suggest(ftype, self.sym.enums, ["int", "bool", "str"])
                self.error(span, f"unknown attribute type {ftype!r}: use an enum name, int, bool or str{hint}")
        it = self.ex.fresh(item.span, "piece")
        label = self.ex.resolve(item.label, set(), "a label", {"it": it}) if item.label is not None else None
        parts = self.ex.resolve(item.parts, set(), "a piece's parts", {"it": it}) if item.parts is not None else None
        fields = tuple(d.Field(f, t) for f, t, _ in item.fields)
        return d.ComponentDef(item.name, fields, it, label, parts, item.span)

    def _zone(self, z: ast.ZoneDecl) -> d.ZoneDef:
        capacity = self.ex.resolve(z.capacity, set(), "a capacity") if z.capacity is not None else None
        dims = tuple(dim for dim, _ in z.dims)
        if z.grid is None:
            return d.ZoneDef(z.name, dims, z.kind or "pile", z.visibility, capacity, z.span)
        if z.kind is not None:
            self.error(z.span, f"zone {z.name!r} is a grid: 'grid(w, h)' is its kind, so it cannot also be a {z.kind}")
        width, height = z.grid
        size = d.GridSize(self.ex.resolve(width, set(), "a grid size"), self.ex.resolve(height, set(), "a grid size"))
        return d.ZoneDef(z.name, dims, "grid", z.visibility, capacity, z.span, size)

    def _grid_zone(self, node: ast.Expr) -> str | None:
        """The name of the grid zone `node` refers to (`board`, `board[p]`), or None."""
        target = node.obj if isinstance(node, ast.Index) else node
        if isinstance(target, ast.Name) and target.name in self.sym.grids:
            return target.name
        return None

    # Procedures.
    def _proc(self, decl: ast.ProcDecl) -> d.ProcDef:
        b = _ProcBuilder()
        # Facts name things as written: where a local hides any global name, none are kept.
        self.flow = self._no_facts if _locals_of(decl) & set(self.sym.all_names()) else self._facts
        self._block(b, decl.body, set(decl.params) | {"$actor"}, in_turn=False)
        b.emit(d.Return(decl.span))
        return d.ProcDef(decl.name, decl.params, tuple(b.code), (), decl.span)

    def _block(self, b: _ProcBuilder, body: ast.Block, scope: set[str], *, in_turn: bool, known: Facts = ()) -> None:
        """Emits a block's statements; `known`: the lists known to be non-empty where it starts (lang/nonempty.py)."""
        scope = set(scope)
        for stmt in body:
            self._stmt(b, stmt, scope, in_turn=in_turn, known=known)
            # After a statement control never goes past, nothing is known (the code is not reached).
            known = self.flow.after(stmt, known) or ()

    def _stmt(self, b: _ProcBuilder, st: ast.Stmt, scope: set[str], *, in_turn: bool,  # noqa: C901, PLR0912, PLR0915
              known: Facts = ()) -> None:
        ex = self.ex
        sp = st.span
        if isinstance(st, ast.Let):
            value = ex.resolve(st.value, scope)
            if st.name in self.sym.vars or st.name in self.sym.zones:
                self.error(sp, f"local {st.name!r} hides a global of the same name")
            scope.add(st.name)
            b.emit(d.Let(sp, st.name, value))
        elif isinstance(st, ast.Set):
            self._set(b, st, scope)
        elif isinstance(st, ast.If):
            ends = []
            for cond, body in st.branches:
                jf = b.emit(d.JumpIfNot(cond.span, ex.resolve(cond, scope), -1))
                self._block(b, body, scope, in_turn=in_turn, known=with_facts(known, self.flow.if_true(cond)))
                ends.append(b.emit(d.Jump(sp, -1)))
                b.patch(jf, target=b.here())
                known = with_facts(known, self.flow.if_false(cond))
            if st.other is not None:
                self._block(b, st.other, scope, in_turn=in_turn, known=known)
            for e in ends:
                b.patch(e, target=b.here())
        elif isinstance(st, (ast.For, ast.Repeat)):
            slot = f"$it{b.here()}"
            if isinstance(st, ast.For):
                var = st.var
                b.emit(d.IterInit(sp, slot, ex.resolve(st.iter, scope), None))
            else:
                var = f"$r{b.here()}"
                b.emit(d.IterInit(sp, slot, None, ex.resolve(st.count, scope)))
            top = b.emit(d.IterNext(sp, slot, var, -1))
            b.loops.append([])
            self._block(b, st.body, scope | {var}, in_turn=in_turn, known=self.flow.loop_entry(st, known))
            b.emit(d.Jump(sp, top))
            end = b.here()
            b.patch(top, end=end)
            for pc in b.loops.pop():
                b.patch(pc, target=end)
        elif isinstance(st, ast.While):
            top = b.emit(d.JumpIfNot(sp, ex.resolve(st.cond, scope), -1))
            b.loops.append([])
            self._block(b, st.body, scope, in_turn=in_turn, known=self.flow.loop_entry(st, known))
            b.emit(d.Jump(sp, top))
            b.patch(top, target=b.here())
            for pc in b.loops.pop():
                b.patch(pc, target=b.here())
        elif isinstance(st, ast.Loop):
            top = b.here()
            b.loops.append([])
            self._block(b, st.body, scope, in_turn=in_turn, known=self.flow.loop_entry(st, known))
            b.emit(d.Jump(sp, top))
            for pc in b.loops.pop():
                b.patch(pc, target=b.here())
        elif isinstance(st, ast.Break):
            if not b.loops:
                self.error(sp, "'break' outside a loop")
            else:
                b.loops[-1].append(b.emit(d.Jump(sp, -1)))
        elif isinstance(st, ast.Return):
            b.emit(d.Return(sp))
        elif isinstance(st, ast.Move):
            self._move(b, st, scope)
        elif isinstance(st, ast.Shuffle):
            if self._grid_zone(st.zone) is not None:
                self.error(st.zone.span, f"a grid zone cannot be shuffled: {self._grid_zone(st.zone)!r} is a grid")
            zone = ex.zone(st.zone, scope)
            if zone is not None:
                b.emit(d.Shuffle(sp, zone))
        elif isinstance(st, ast.Create):
            self._create(b, st, scope)
        elif isinstance(st, ast.Choose):
            domain = ex.resolve(st.domain, scope, "a choice's options")
            by = ex.resolve(st.by, scope, "'by'") if st.by is not None else None
            scope.add(st.var)
            total = _never_empty(domain, self.min_players) or self.flow.holds(known, st.domain)
            b.emit(d.Choose(sp, st.var, domain, by, st.optional, st.prompt or f"choose {st.var}", total))
        elif isinstance(st, ast.ChooseBranch):
            by = ex.resolve(st.by, scope, "'by'") if st.by is not None else None
            pc = b.emit(d.Branch(sp, (), by, st.prompt or "choose an option"))
            options, ends, names = [], [], []
            for br in st.branches:
                if br.name in names:
                    self.error(br.span, f"option {br.name!r} appears twice")
                names.append(br.name)
                when = ex.resolve(br.when, scope, "'when'") if br.when is not None else None
                options.append(d.BranchOption(br.name, when, b.here(), br.otherwise))
                # The option is taken only where its condition held, and choosing it changed nothing.
                self._block(b, br.body, scope, in_turn=in_turn, known=with_facts(known, self.flow.if_true(br.when)))
                ends.append(b.emit(d.Jump(sp, -1)))
            for e in ends:
                b.patch(e, target=b.here())
            b.patch(pc, options=tuple(options))
        elif isinstance(st, ast.Require):
            b.emit(d.Require(sp, ex.resolve(st.cond, scope), st.message or "requirement not met"))
        elif isinstance(st, ast.EndGame):
            b.emit(d.EndGame(sp, ex.resolve(st.reason, scope)))
        elif isinstance(st, ast.Turn):
            if in_turn:
                self.error(sp, "a 'turn' block cannot be nested in another")
            b.emit(d.TurnBegin(sp, ex.resolve(st.player, scope)))
            self._block(b, st.body, scope, in_turn=True, known=known)
            b.emit(d.TurnEnd(sp))
        elif isinstance(st, ast.CallStmt):
            if st.name not in self.sym.procs:
                self.error(sp, f"unknown procedure {st.name!r}{self.ex.suggest(st.name, self.sym.procs)}")
                return
            params = self.sym.procs[st.name]
            if len(params) != len(st.args):
                self.error(sp, f"{st.name}() takes {len(params)} argument(s), got {len(st.args)}")
                return
            self.ex.used.add(st.name)
            b.emit(d.CallProc(sp, st.name, tuple(ex.resolve(a, scope) for a in st.args)))
        elif isinstance(st, ast.Log):
            b.emit(d.Log(sp, st.message, tuple(ex.resolve(a, scope) for a in st.args)))
        elif isinstance(st, ast.Peek):
            b.emit(d.Peek(sp, ex.resolve(st.pieces, scope), ex.resolve(st.player, scope)))
        elif isinstance(st, ast.Reveal):
            b.emit(d.Reveal(sp, ex.resolve(st.pieces, scope)))
        elif isinstance(st, ast.Place):
            self._place(b, st, scope)
        else:
            self.error(sp, "not a statement")

    def _place(self, b: _ProcBuilder, st: ast.Place, scope: set[str]) -> None:
        if self._grid_zone(st.zone) is None:
            msg = "'place' puts a piece on a grid zone, such as 'board' or 'board[p]' declared with grid(w, h)"
            self.error(st.zone.span, msg)
            return
        piece, cells = self.ex.resolve(st.piece, scope), self.ex.resolve(st.cells, scope)
        zone = self.ex.zone(st.zone, scope)
        if zone is not None:
            b.emit(d.Place(st.span, piece, zone, cells))

    def _set(self, b: _ProcBuilder, st: ast.Set, scope: set[str]) -> None:
        value = self.ex.resolve(st.value, scope)
        if st.index is None and st.name in scope:
            b.emit(d.SetLocal(st.span, st.name, st.op, value))
            return
        if st.name not in self.sym.vars:
            hint = self.ex.suggest(st.name, scope, self.sym.vars)
            self.error(st.span, f"cannot set {st.name!r}: not a variable or local{hint}")
            return
        item = self.ex.var_item(st.name, st.index or (), st.span, scope)
        if item is not None:  # one item of the list the variable holds
            b.emit(d.SetVar(st.span, st.name, item[0], st.op, value, item[1]))
            return
        args = self.ex.var_args(st.name, st.index or (), st.span, scope)
        if args is not None:
            b.emit(d.SetVar(st.span, st.name, args, st.op, value))

    def _move(self, b: _ProcBuilder, st: ast.Move, scope: set[str]) -> None:
        if self._grid_zone(st.dest) is not None:
            msg = f"pieces go on grid zone {self._grid_zone(st.dest)!r} with 'place PIECE on ZONE at CELLS', not 'move'"
            self.error(st.dest.span, msg)
            return
        pieces = self.ex.resolve(st.pieces, scope)
        amount = self.ex.resolve(st.amount, scope) if st.amount is not None else None
        dest = self.ex.zone(st.dest, scope)
        if dest is None:
            return
        # `move 2 of bag to ...` takes the first pieces in the zone's order: from a bag, a draw.
        source = st.pieces.coll if isinstance(st.pieces, ast.Where) else st.pieces
        source = source.obj if isinstance(source, ast.Index) else source
        drawn = amount is not None and isinstance(source, ast.Name) and source.name in self.sym.zones
        # A move into a zone with a capacity may overflow it: a dead end the look-ahead must see.
        limited = dest.name in self.capacity_zones
        b.emit(d.MovePieces(st.span, pieces, amount, dest, st.end, drawn, limited))

    def _create(self, b: _ProcBuilder, st: ast.Create, scope: set[str]) -> None:
        decls = {i.name: i for i in self.items if isinstance(i, ast.ComponentDecl)}
        if st.type not in decls:
            self.error(st.span, f"unknown component type {st.type!r}")
            return
        inner = set(scope)
        fors: list[m.CompFor] = []
        for f in st.fors:
            items = self.ex.resolve(f.iter, inner)
            inner = inner | {f.var}
            cond = self.ex.resolve(f.cond, inner) if f.cond is not None else None
            # The loop variables of `create ... for` are locals of the statement.
            fors.append(m.CompFor(f.span, m.Bound(f.span, f.var), items, cond))
        count = self.ex.resolve(st.count, scope)
        fields = decls[st.type].fields
        given = {k for k, _, _ in st.kwargs}
        for k, _, span in st.kwargs:
            if k not in {f for f, _, _ in fields}:
                self.error(span, f"component {st.type!r} has no attribute {k!r}")
        for fname, _, _ in fields:
            if fname not in given:
                self.error(st.span, f"attribute {fname!r} of {st.type!r} is not given")
        kwargs = tuple(d.KeywordArg(k, self.ex.resolve(v, inner)) for k, v, _ in st.kwargs)
        grid = self._grid_zone(st.dest)
        if grid is not None:
            msg = f"pieces cannot be created on grid zone {grid!r}: create them elsewhere, then 'place' them"
            self.error(st.dest.span, msg)
            return
        dest = self.ex.zone(st.dest, scope)
        if dest is not None:
            b.emit(d.Create(st.span, st.type, tuple(fors), count, kwargs, dest))


def _never_empty(domain: m.Expr, min_players: int) -> bool:
    """Tells if a choice's options can never be none.

    That is an enum, a list display, the players, a range of two numbers in order, the players
    but one where the game has two at least, or the distinct or sorted values of one of these.
    """
    while isinstance(domain, m.BuiltinCall) and domain.name in {"distinct", "sorted"} and len(domain.args) == 1:
        domain = domain.args[0]
    length = m.written_length(domain)
    if length is not None:
        return length > 0
    if isinstance(domain, m.StateRef):
        return domain.name == "players"
    if isinstance(domain, m.ListComp) and len(domain.fors) == 1 and min_players >= 2:  # noqa: PLR2004 - one left
        clause = domain.fors[0]
        cond = clause.cond
        if (isinstance(clause.iter, m.StateRef) and clause.iter.name == "players" and isinstance(cond, m.Binary)
                and cond.op == "!="):
            var = clause.var.ident
            sides = [cond.left, cond.right]
            ours = [isinstance(x, m.Bound) and x.ident == var for x in sides]
            # `[q for q in players if q != p]`: players are distinct, so only one is left out.
            return ours.count(True) == 1 and not any(
                isinstance(n, m.Bound) and n.ident == var for n in m.walk(sides[ours.index(False)]))
    return False


def _fail_point(ins: d.Instr, fails: dict[str, bool]) -> bool:
    if isinstance(ins, d.Choose):
        # An optional choice always offers to pass, so it is never left without an option.
        return not ins.total and ins.optional is None
    if isinstance(ins, d.MovePieces):
        return ins.limited
    if isinstance(ins, d.Branch):
        # An option without a condition is always offered (an `otherwise` one when no other is).
        return all(o.when is not None for o in ins.options)
    return isinstance(ins, d.Require) or (isinstance(ins, d.CallProc) and fails.get(ins.proc, False))


def successors(ins: d.Instr, pc: int) -> list[int]:
    """Where control may go after the instruction at `pc`, within its procedure."""
    if isinstance(ins, d.Jump):
        return [ins.target]
    if isinstance(ins, d.JumpIfNot):
        return [pc + 1, ins.target]
    if isinstance(ins, d.IterNext):
        return [pc + 1, ins.end]
    if isinstance(ins, d.Branch):
        return [o.target for o in ins.options]
    if isinstance(ins, (d.Return, d.EndGame, d.TurnEnd)):
        return []
    return [pc + 1]


def _with_probe_flags(procs: dict[str, d.ProcDef]) -> dict[str, d.ProcDef]:
    """Marks, for each instruction, whether a dead end may lie after it before the turn ends (see `Probe`)."""
    fails = {name: any(_fail_point(i, {}) for i in p.code) for name, p in procs.items()}
    changed = True
    while changed:
        changed = False
        for name, p in procs.items():
            if not fails[name] and any(isinstance(i, d.CallProc) and fails.get(i.proc, False) for i in p.code):
                fails[name] = changed = True
    return {name: attrs.evolve(p, probe=_probes(p.code, fails)) for name, p in procs.items()}


def _probes(code: tuple[d.Instr, ...], fails: dict[str, bool]) -> tuple[d.Probe, ...]:
    """Each instruction's probe: whether a fail point, a `return`, can be reached after it.

    What can be reached after an instruction is what its successors are and can reach: the
    flags grow to a fixed point (loops go back), in one pass over the code or a few.
    """
    n = len(code)
    point = [_fail_point(i, fails) for i in code]
    returns = [isinstance(i, d.Return) for i in code]
    succ = [[q for q in successors(i, pc) if q < n] for pc, i in enumerate(code)]
    fail, ret = [False] * n, [False] * n
    changed = True
    while changed:
        changed = False
        for pc in reversed(range(n)):  # most jumps go forward: their targets are done first
            f = fail[pc] or any(point[q] or fail[q] for q in succ[pc])
            r = ret[pc] or any(returns[q] or ret[q] for q in succ[pc])
            if f != fail[pc] or r != ret[pc]:
                fail[pc], ret[pc], changed = f, r, True
    return tuple(d.Probe(fail[pc], ret[pc], point[pc]) for pc in range(n))


def _locals_of(proc: ast.ProcDecl) -> set[str]:
    """The names a procedure binds: its parameters, `let`s, loop variables and choices."""
    names = set(proc.params)
    for node in ast.walk(proc.body):
        if isinstance(node, ast.Let):
            names.add(node.name)
        elif isinstance(node, (ast.For, ast.Choose)):
            names.add(node.var)
    return names


def check_source(source: SourceFile, name: str, resolve: FileResolver) -> d.GameDef:
    """Parses and checks a rule file and the files it extends."""
    diags: list[Diagnostic] = []
    sources: dict[str, SourceFile] = {}
    try:
        items = load_items(source, resolve, sources, diags)
    except RuleError as err:
        raise RuleError(diags + err.diagnostics, {**sources, **err.sources}) from None
    checker = Checker(items, name, diags, source.filename)
    game = checker.run() if not diags else None
    if diags or game is None:
        diags.sort(key=lambda x: (x.span.filename != source.filename, x.span.filename, x.span.line, x.span.column))
        raise RuleError(diags, sources)
    warnings = lint(items, game, checker.ex.used, source.filename)
    options = {name: attrs.evolve(o, doc=sources[o.span.filename].comment_before(o.span.line))
               for name, o in game.options.items()}
    return attrs.evolve(game, warnings=tuple(warnings), sources=sources, options=options)
