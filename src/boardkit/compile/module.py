"""The checked model -> the source of one Python module that runs the ruleset.

The module defines constants `K_*`, functions `F_*`, one function `P_*` per procedure and the
tables the runtime reads (`PROCS`, `SITES`, `VARS`, ...). A procedure function runs from the
program counter saved in its frame to the next decision, call, return or end, so that where a
game stands stays plain data. Every statement is preceded by a `#@ N file:line:col` comment:
N indexes `SPANS`, which the runtime uses to locate a rule's runtime errors, and the rest
points a reader at the rule text.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING, Any, Final, TypeGuard

from boardkit._version import __version__
from boardkit.compile.exprgen import ExprGen
from boardkit.compile.lookahead import Lookahead
from boardkit.compile.writer import Writer
from boardkit.model import defs as d
from boardkit.model import expr as m

if TYPE_CHECKING:
    from boardkit.source import Span

# What a procedure function returns to the runtime's loop. TURN_DONE: a trial stands where
# nothing ahead in the turn can fail.
DECISION: Final = 0
RETURNED: Final = 1
OVER: Final = 2
TURN_DONE: Final = 3
# What a call of a rule's function costs in the work budget (runtime/work.py): about as much
# time as walking five items of a list.
CALL_COST = 5
# The deepest procedure calls may nest.
CALL_DEPTH = 200


def _pyname(name: str) -> str:
    """A rule name as part of a Python identifier (rule names are identifiers already)."""
    return name.replace("$", "_")


def generate(game: d.GameDef) -> str:
    """Returns the module source for a checked ruleset."""
    ex = ExprGen(game)
    ex.remembered, inlined = _kinds_of_functions(ex, game)
    ex.inlined = {name: game.funcs[name] for name in inlined}
    ex.list_locals = _listed_names(ex, game)
    ex.number_locals = _numbered_names(ex, game)
    w = Writer(ex)
    files = ", ".join(sorted(game.sources)) or game.name
    body = w.part()
    _constants(body, game)
    _functions(body, game)
    _declarations(body, game)
    for proc in game.procs.values():
        _procedure(body, proc, game.procs)
    _sites(body, game)
    _projections(body, game)
    body.line("# Grid zones whose top pieces the code above looks up by (x, y) as well as by cell name.")
    body.line(f"TOPS_BY_XY = {tuple(sorted(ex.tops_by_xy))!r}")
    w.line(f"# The rules of {game.title!r} compiled by boardkit {__version__} from {files}.")
    w.line("# Generated code: edit the rule files, not this module. Names bound by the runtime: s is")
    w.line("# the game state, L the locals of the running procedure, F its frame; _* are its helpers.")
    w.line("")
    # One text of "file line column end_line end_column" per span: a literal compile() reads at
    # once, where a tuple per span was a tenth of compiling the module.
    names = sorted({sp.filename for sp in w.spans})
    index = {f: i for i, f in enumerate(names)}
    table = ";".join(f"{index[sp.filename]} {sp.line} {sp.column} {sp.end_line} {sp.end_column}" for sp in w.spans)
    w.line("# Where each `#@ N` points: span N of the table, as 'file line column end_line end_column'.")
    w.line(f"SPANS = _spans({tuple(names)!r}, {table!r})")
    w.line("")
    return "\n".join(w.lines + body.lines) + "\n"


def _constants(w: Writer, game: d.GameDef) -> None:
    w.line("# Constants, in the order they are declared.")
    for c in game.consts.values():
        w.line(f"def _k_{c.name}(s):")
        idx = w.at(c.span, 1)
        data = _literal(c.value)
        # A table written out as data: compile() reads one text, not a list display per row.
        value = w.ex.gen(c.value) if data is None else f"_data({json.dumps(data, separators=(',', ':'))!r})"
        w.line(f"return {value}", 1)
        w.line(f"K_{c.name} = _const(_k_{c.name}, {idx})")
    w.line("")
    w.line("# Options: (default, choices or None, where declared).")
    entries = []
    for o in game.options.values():
        w.line(f"def _o_{o.name}(s):")
        idx = w.at(o.span, 1)
        w.line(f"return {w.ex.gen(o.default)}", 1)
        choices = "None"
        if o.choices is not None:
            w.line(f"def _oc_{o.name}(s):")
            w.at(o.choices.span, 1)
            w.line(f"return {w.ex.gen(o.choices)}", 1)
            choices = f"_oc_{o.name}"
        entries.append(f"{o.name!r}: (_o_{o.name}, {choices}, {idx})")
    w.line(f"OPTIONS = {{{', '.join(entries)}}}")
    w.line("")


def _literal(node: m.Expr) -> m.Scalar | list[Any] | None:
    """The value of an expression made only of literals and lists of them, as JSON data; else None."""
    if isinstance(node, m.ListLit):
        items = [_literal(item) for item in node.items]
        return None if any(item is None for item in items) else items
    if isinstance(node, m.Lit) and node.value is not None:
        return node.value
    return None


def _functions(w: Writer, game: d.GameDef) -> None:
    w.line("# Functions. Those marked 'remembered' keep their results in s.memo while the game")
    w.line("# stands still: rules ask the same question many times between two effects.")
    remembered = w.ex.remembered
    early = _sizing_grids(game)
    for f in game.funcs.values():
        params = "".join(f", {p.ident}" for p in f.params)
        w.line(f"def F_{f.name}(s{params}):{'  # remembered' if f.name in remembered else ''}")
        w.at(f.span, 1)
        w.ex.hoisting = f.name not in early  # (as `_declarations` does for the sizes themselves)
        try:
            body, cost, setup = _charged(w, f.body, CALL_COST)
        finally:
            w.ex.hoisting = True
        if f.name not in remembered:
            w.line(f"s.work -= {cost}", 1)
            w.line("if s.work < 0:", 1)
            w.line("_over_budget()", 2)
            for line in setup:
                w.line(line, 1)
            w.line(f"return {body}", 1)
            continue
        by_identity = w.ex.keyed_by_identity(f)
        numbers = {p.ident for p in f.params if w.ex.number(p)}
        _remembered_fn(w, f"({f.name!r}, {_key(f, by_identity, numbers)})", body, cost=cost, kept=by_identity,
                       setup=setup)
    w.line("")


def _sizing_grids(game: d.GameDef) -> set[str]:
    """The functions that the sizes of grid zones call, directly or not: they run before the state has boards."""
    todo = [n for z in game.zones.values() if z.grid is not None
            for size in (z.grid.width, z.grid.height) for n in m.walk(size)]
    found: set[str] = set()
    while todo:
        n = todo.pop()
        if isinstance(n, m.FuncCall) and n.name not in found:
            found.add(n.name)
            todo.extend(m.walk(game.funcs[n.name].body))
    return found


def _key(f: d.FuncDef, by_identity: set[str], numbers: set[str]) -> str:
    """Source of a remembered function's key, but for its name: its arguments, a truth value apart from 0 and 1.

    A list given from a local (`by_identity`) keys by its identity: the memo keeps the list alive
    (`_remembered_fn`), so no other list takes its identity while the key stands, and rules
    never change a list in place. A parameter every call gives a number (`numbers`) is never a
    truth value: it keys as it is.
    """
    return "".join(f"((_LISTED, _id({p.ident})) if {p.ident}.__class__ is list else {p.ident}), "
                   f"{p.ident}.__class__ is bool, " if p.ident in by_identity
                   else f"{p.ident}, " if p.ident in numbers
                   else f"{p.ident}, {p.ident}.__class__ is bool, " for p in f.params)


def _remembered_fn(w: Writer, key: str, value: str, *, cost: int = 0,
                   kept: set[str] | frozenset[str] = frozenset(), setup: list[str] | None = None) -> None:
    """Writes the body of a function that keeps `value` in s.memo under the key `key`.

    The key may hold a list (the arguments of a call): then there is no key, and no memo.
    `cost`: what working the value out charges to the work budget (a rule's function: its call).
    `kept`: parameters whose lists the key holds by identity, kept alive in s.memo beside it.
    `setup`: lines that work out what `value` reads (`_charged`).
    """
    w.line(f"_k = {key}", 1)
    w.line("try:", 1)
    w.line("_r = s.memo.get(_k, _MISS)", 2)
    w.line("except TypeError:  # a list among the arguments: no key", 1)
    w.line("_r = _MISS", 2)
    w.line("_k = None", 2)
    w.line("if _r is _MISS:", 1)
    if cost:
        w.line(f"s.work -= {cost}", 2)
        w.line("if s.work < 0:", 2)
        w.line("_over_budget()", 3)
    for line in setup or ():
        w.line(line, 2)
    w.line(f"_r = {value}", 2)
    if kept:  # lists made afresh at each call would each keep an entry: the memo stays bounded
        w.line(f"if _k is not None and len(s.memo) < {_KEPT_MAX}:", 2)
    else:
        w.line("if _k is not None:", 2)
    w.line("s.memo[_k] = _r", 3)
    for name in sorted(kept):
        w.line(f"if {name}.__class__ is list:", 3)
        w.line(f"s.memo[(_LISTED, _id({name}))] = {name}", 4)
    w.line("return _r", 1)


# The most entries s.memo may hold for a remembered function that keys lists by identity to add
# one: a list made afresh for each call keys an entry no later call finds.
_KEPT_MAX = 4096


def _projections(w: Writer, game: d.GameDef) -> None:
    """Writes the remembered projections of remembered functions' results that the rules read."""
    w.line("# Projections of remembered functions' results, remembered too: FA_f__attr.")
    for fname, names in w.ex.projections.items():
        f = game.funcs[fname]
        args = "".join(f", {p.ident}" for p in f.params)
        by_identity = w.ex.keyed_by_identity(f)
        numbers = {p.ident for p in f.params if w.ex.number(p)}
        for attr in sorted(names):
            w.line(f"def FA_{fname}__{attr}(s{args}):")
            w.at(f.span, 1)
            _remembered_fn(w, f"({f'{fname}.{attr}'!r}, {_key(f, by_identity, numbers)})",
                           f"[_x.attrs[{attr!r}] for _x in F_{fname}(s{args})]", kept=by_identity)
    w.line("")


def _kinds_of_functions(ex: ExprGen, game: d.GameDef) -> tuple[frozenset[str], frozenset[str]]:
    """The functions whose results may be remembered until the next effect, and those written out at their calls.

    Neither draws at random or calls itself (directly or not: the work budget bounds such
    recursion, and a remembered or written-out one would change what it allows). Remembered:
    those not always given a list (no key: trying one costs a TypeError) that walk a list
    (where remembering pays for its key), themselves or through a function that is always
    given one and so remembers nothing. Written out: the other small ones.
    """
    calls: dict[str, set[str]] = {}
    chance: set[str] = set()
    walks: set[str] = set()
    sizes: dict[str, int] = {}
    for f in game.funcs.values():
        nodes = m.walk(f.body)
        sizes[f.name] = len(nodes)
        calls[f.name] = {n.name for n in nodes if isinstance(n, m.FuncCall)}
        if any(isinstance(n, m.BuiltinCall) and n.name == "random" for n in nodes):
            chance.add(f.name)
        if any(isinstance(n, (m.ListComp, m.Where)) or (isinstance(n, m.Attr) and ex.pieces(n.obj)) for n in nodes):
            walks.add(f.name)
    listed = {name for name, f in game.funcs.items() if any(ex.takes_lists(p.ident) for p in f.params)}
    out, small = set(), set()
    for name, direct in calls.items():
        reach, todo = set(), list(direct)
        while todo:
            g = todo.pop()
            if g not in reach:
                reach.add(g)
                todo.extend(calls.get(g, ()))
        if name in reach or (reach | {name}) & chance:
            continue
        if name not in listed and (name in walks or reach & walks & listed):
            out.add(name)
        elif sizes[name] <= _INLINE_SIZE:
            small.add(name)
    return frozenset(out), frozenset(small)


# The most expressions a function's body may hold to be written out at its calls.
_INLINE_SIZE = 40


def _charged(w: Writer, node: m.Expr, cost: int) -> tuple[str, int, list[str]]:
    """Source of a function's body, what one evaluation of it charges the work budget up front, and its set-up.

    `cost` and the walks of lists of fixed length (ExprGen.charged). The set-up binds the
    tables of boards the body reads (`ExprGen.hoisted_here`): a board's tops, read cell by
    cell, are looked up once.
    """
    w.ex.charged = cost
    try:
        with w.ex.hoisted_here() as hoisted:
            value = w.ex.gen(node)
        return value, w.ex.charged, [f"{name} = {table}" for table, name in hoisted.items()]
    finally:
        w.ex.charged = None


def _expr_fn(w: Writer, name: str, node: m.Expr, span: Span, *, args: str = "s, L") -> str:
    """Writes a function `name(args)` that returns the value of `node`."""
    w.line(f"def {name}({args}):")
    w.at(span, 1)
    value, cost, setup = _charged(w, node, 0)
    if cost:
        w.line(f"s.work -= {cost}", 1)
        w.line("if s.work < 0:", 1)
        w.line("_over_budget()", 2)
    for line in setup:
        w.line(line, 1)
    w.line(f"return {value}", 1)
    return name


def _memo_fn(w: Writer, name: str, node: m.Expr, span: Span, site: int, *, lists: frozenset[str]) -> str:
    """Writes the function of a choice's options (distinct), remembered in s.memo while the game stands still.

    The look-ahead of one decision, the decision itself and those after it ask for them again.
    Keyed by the locals they read (a truth value apart from 0 and 1). A local among `lists`
    always holds a list, which keys no memo: read only by its size, the size keys it; read
    otherwise, the options are worked out at every call.
    """
    nodes = m.walk(node)
    names = sorted({n.name for n in nodes if isinstance(n, m.Local)})
    sized = _sized_locals(nodes) & lists
    unkeyed = lists - sized
    key = "".join(f"(len(_v) if (_v := L[{n!r}]).__class__ is list else _v), " if n in sized
                  else f"L[{n!r}], L[{n!r}].__class__ is bool, " for n in names)
    w.line(f"def {name}(s, L):")
    w.at(span, 1)
    value, cost, setup = _charged(w, node, 0)
    if not w.ex.distinct(node):
        value = f"_offered({value}, s)"
    if unkeyed.isdisjoint(names):
        _remembered_fn(w, f"({site}, {key})", value, cost=cost, setup=setup)
        return name
    if cost:
        w.line(f"s.work -= {cost}", 1)
        w.line("if s.work < 0:", 1)
        w.line("_over_budget()", 2)
    for line in setup:
        w.line(line, 1)
    w.line(f"return {value}", 1)
    return name


def _sized_locals(nodes: list[m.Expr | m.KeyFunc | m.CompFor]) -> frozenset[str]:
    """The locals that `nodes` read only as `size(local)`."""
    reads = Counter(n.name for n in nodes if isinstance(n, m.Local))
    sizes = Counter(n.args[0].name for n in nodes if isinstance(n, m.BuiltinCall) and n.name == "size"
                    and len(n.args) == 1 and isinstance(n.args[0], m.Local))
    return frozenset(name for name, count in sizes.items() if reads[name] == count)


def _list_locals(ex: ExprGen, proc: d.ProcDef) -> frozenset[str]:
    """The locals of `proc` that hold a list whenever they hold anything but none (a skipped choice)."""
    return frozenset(n for n, listed in _local_kinds(ex, proc).items() if listed and n not in proc.params)


def _listed_names(ex: ExprGen, game: d.GameDef) -> frozenset[str]:
    """The names of locals that hold a list (or none) in every procedure that has a local of that name.

    A call's arguments are read without their procedure (`ExprGen.keyed_by_identity`), so by name alone.
    """
    listed: set[str] = set()
    other: set[str] = set()
    for proc in game.procs.values():
        kinds = _local_kinds(ex, proc)
        listed.update(n for n, is_list in kinds.items() if is_list)
        other.update(n for n, is_list in kinds.items() if not is_list)
        other.update(proc.params)
    return frozenset(listed - other)


def _of_attributes(label: m.Expr, it: str) -> bool:
    """Whether a label reads nothing but its piece's attributes, literals, constants and options."""
    for n in m.walk(label):
        if isinstance(n, m.Attr | m.PieceAttr):
            obj = n.obj if isinstance(n, m.Attr) else n.piece
            if not (isinstance(obj, m.Bound) and obj.ident == it):
                return False
        elif isinstance(n, m.BuiltinCall):
            if n.needs_state:
                return False
        elif not isinstance(n, _LABEL_PARTS) and not (isinstance(n, m.Bound) and n.ident == it):
            return False
    return True


# What a label may be made of and still read only its piece's attributes (with `_of_attributes`).
_LABEL_PARTS = (m.Lit, m.ConstRef, m.OptionRef, m.EnumList, m.ListLit, m.Unary, m.Binary, m.BoolOp, m.Ternary)


def _numbered_names(ex: ExprGen, game: d.GameDef) -> frozenset[str]:
    """The names of locals that hold a whole number in every procedure that has a local of that name.

    Every local is taken to hold one, and those given anything else are dropped until none is
    (`set n = n + 1` keeps a number if `n` held one). A procedure's parameters are given their
    values by its calls. A local's number may come from a function (`let y = height(x)`) whose
    parameter is a number because a local is (`height(x)`): what `ExprGen` knows of functions
    is worked out again for each round.
    """
    bound = [(proc, ins) for proc in game.procs.values() for ins in proc.code
             if isinstance(ins, d.Let | d.SetLocal | d.Choose | d.IterNext | d.CallProc | d.Create)]
    names = frozenset(name for proc, ins in bound for name, _ in _given(ex, proc, ins, game, judged=False))
    while True:
        ex.number_locals = names
        ex.forget_numbers()
        dropped = {name for proc, ins in bound for name, number in _given(ex, proc, ins, game) if not number}
        if names.isdisjoint(dropped):
            return names
        names -= dropped


def _given(ex: ExprGen, proc: d.ProcDef, ins: d.Let | d.SetLocal | d.Choose | d.IterNext | d.CallProc | d.Create,  # noqa: PLR0911
           game: d.GameDef, *, judged: bool = True) -> list[tuple[str, bool]]:
    """The locals an instruction gives a value, each with whether it is a whole number (or a fault).

    Not `judged`: the locals alone, each with False. The loop variables of `create ... for` are
    locals of the statement, given the items of their lists.
    """
    if isinstance(ins, d.Create):
        return [(f.var.ident, judged and ex.numbers(f.iter)) for f in ins.fors]
    if isinstance(ins, d.CallProc):
        params = game.procs[ins.proc].params
        return [(p, judged and ex.number(a)) for p, a in zip(params, ins.args, strict=True)]
    if not judged:
        return [(ins.var if isinstance(ins, d.Choose | d.IterNext) else ins.name, False)]
    if isinstance(ins, d.Choose):
        return [(ins.var, ins.optional is None and ex.numbers(ins.domain))]
    if isinstance(ins, d.IterNext):
        items = next(i.items for i in proc.code if isinstance(i, d.IterInit) and i.slot == ins.slot)
        return [(ins.var, items is not None and ex.numbers(items))]
    if isinstance(ins, d.SetLocal) and ins.op != "=":
        return [(ins.name, True)]  # `+=` or `-=` on a number gives a number, or fails
    return [(ins.name, ex.number(ins.value))]


def _local_kinds(ex: ExprGen, proc: d.ProcDef) -> dict[str, bool]:
    """Each local that `proc` gives a value, and whether every value it gives it is a list."""
    holds: dict[str, bool] = {}
    for ins in proc.code:
        if isinstance(ins, d.Let) or (isinstance(ins, d.SetLocal) and ins.op == "="):
            name, listed = ins.name, ex.lists(ins.value)
        elif isinstance(ins, d.SetLocal):
            name, listed = ins.name, ins.op == "+="  # a list that grows stays one
        elif isinstance(ins, d.Choose):
            name, listed = ins.var, ex.nested(ins.domain)
        elif isinstance(ins, d.IterNext):
            name, listed = ins.var, False
        else:
            continue
        holds[name] = holds.get(name, True) and listed
    return holds


def _branch_fn(w: Writer, name: str, ins: d.Branch) -> str:
    """Writes the function of a branch's options: the indexes of those whose conditions hold, (plain, otherwise)."""
    w.line(f"def {name}(s, L):")
    w.at(ins.span, 1)
    lists: dict[bool, list[str]] = {False: [], True: []}
    fixed = True  # while no option has a condition, the lists are literals
    for i, o in enumerate(ins.options):
        if o.when is None and fixed:
            lists[o.otherwise].append(str(i))
            continue
        if fixed:
            w.line(f"_plain, _other = [{', '.join(lists[False])}], [{', '.join(lists[True])}]", 1)
            fixed = False
        target = "_other" if o.otherwise else "_plain"
        if o.when is None:
            w.line(f"{target}.append({i})", 1)
        else:
            w.line(f"if {w.ex.gen(o.when)}:", 1)
            w.line(f"{target}.append({i})", 2)
    if fixed:
        w.line(f"return [{', '.join(lists[False])}], [{', '.join(lists[True])}]", 1)
    else:
        w.line("return _plain, _other", 1)
    return name


def _guard_fns(w: Writer, name: str, ins: d.Branch) -> str:
    """Writes each condition of a branch's options as a function of its own; the source of their tuple.

    Look-ahead tries a branch's options in order and stops at the first after which the turn
    can be completed: it works out the conditions one at a time, and only as far as it goes.
    None where no option has a condition.
    """
    if all(o.when is None for o in ins.options):
        return "None"
    names = []
    for i, o in enumerate(ins.options):
        if o.when is None:
            names.append("None")
            continue
        names.append(f"{name}_{i}")
        w.line(f"def {name}_{i}(s, L):")
        w.at(ins.span, 1)  # a fault is located as in the branch's W_ function
        w.line(f"return {w.ex.gen(o.when)}", 1)
    return f"({', '.join(names)}, )"


def _declarations(w: Writer, game: d.GameDef) -> None:
    w.line("# Initial values of variables, capacities and sizes of zones, labels and parts of pieces.")
    w.ex.hoisting = False  # worked out while the state is made, its boards among the last
    vars_ = [f"{v.name!r}: {_expr_fn(w, f'V_{v.name}', v.init, v.span)}" for v in game.vars.values()]
    w.line(f"VARS = {{{', '.join(vars_)}}}")
    caps, grids = [], []
    for z in game.zones.values():
        if z.capacity is not None:
            caps.append(f"{z.name!r}: {_expr_fn(w, f'C_{z.name}', z.capacity, z.span)}")
        if z.grid is not None:
            gw = _expr_fn(w, f"GW_{z.name}", z.grid.width, z.span)
            gh = _expr_fn(w, f"GH_{z.name}", z.grid.height, z.span)
            grids.append(f"{z.name!r}: ({gw}, {gh})")
    w.ex.hoisting = True
    w.line(f"CAPACITY = {{{', '.join(caps)}}}")
    w.line(f"GRIDS = {{{', '.join(grids)}}}")
    labels, parts = [], []
    for c in game.components.values():
        if c.label is not None:
            labels.append(f"{c.name!r}: {_expr_fn(w, f'LABEL_{c.name}', c.label, c.span, args='s, ' + c.it.ident)}")
        if c.parts is not None:
            parts.append(f"{c.name!r}: {_expr_fn(w, f'PARTS_{c.name}', c.parts, c.span, args='s, ' + c.it.ident)}")
    w.line(f"LABELS = {{{', '.join(labels)}}}")
    alike = sorted(c.name for c in game.components.values() if c.label is None or _of_attributes(c.label, c.it.ident))
    w.line("# Components whose label reads only the piece's attributes: pieces made alike share one.")
    w.line(f"LABELS_OF_ATTRIBUTES = {tuple(alike)!r}")
    w.line(f"PARTS = {{{', '.join(parts)}}}")
    w.line("# Scores and tiebreaks: expressions of one player, a local.")
    score = _expr_fn(w, "SCORE", game.score.expr, game.score.span) if game.score is not None else "None"
    w.line(f"SCORE_PARAM = {game.score.param if game.score is not None else ''!r}")
    w.line(f"SCORE = {score}")
    tbs = [(_expr_fn(w, f"TIEBREAK_{i}", t.expr, t.span), t.param) for i, t in enumerate(game.tiebreaks)]
    w.line(f"TIEBREAKS = ({''.join(f'({fn}, {p!r}), ' for fn, p in tbs)})")
    w.line("# The heuristic agents evaluate games by (None: the score).")
    h = game.heuristic
    w.line(f"HEURISTIC_PARAM = {h.param if h is not None else ''!r}")
    w.line(f"HEURISTIC = {_expr_fn(w, 'HEURISTIC', h.expr, h.span) if h is not None else 'None'}")
    w.line("# Invariants, in the order of GameDef.invariants; a `for p` one reads its player as a local.")
    invs = [_expr_fn(w, f"INVARIANT_{i}", inv.expr, inv.span) for i, inv in enumerate(game.invariants)]
    w.line(f"INVARIANTS = ({''.join(f'{fn}, ' for fn in invs)})")
    w.line("")


def _leaders(code: tuple[d.Instr, ...]) -> set[int]:
    """The program counters where a block starts: where a procedure may resume or jump to."""
    leaders = {0}
    for pc, ins in enumerate(code):
        if isinstance(ins, (d.Jump, d.JumpIfNot, d.IterNext, d.CallProc, d.Return, d.Choose, d.Branch,
                            d.EndGame, d.TurnEnd)):
            leaders.add(pc + 1)
        if isinstance(ins, (d.Jump, d.JumpIfNot)):
            leaders.add(ins.target)
        elif isinstance(ins, d.IterNext):
            leaders.add(ins.end)
        elif isinstance(ins, d.Branch):
            leaders.update(o.target for o in ins.options)
    return {pc for pc in leaders if pc < len(code)}


def _procedure(w: Writer, proc: d.ProcDef, procs: dict[str, d.ProcDef]) -> None:
    w.line(f"# proc {proc.name}({', '.join(proc.params)})")
    w.line(f"def P_{_pyname(proc.name)}(s, F, probe):")
    w.line("L = F[2]", 1)
    w.line("pc = F[1]", 1)
    w.line("while True:", 1)
    leaders = _leaders(proc.code)
    fresh = False  # whether s.memo was just emptied and nothing since could have filled it
    for pc, ins in enumerate(proc.code):
        if pc in leaders:
            w.line(f"if pc == {pc}:", 2)
            fresh = False
        idx = w.at(ins.span, 3)
        for text in _instr(w, ins, pc, idx, procs, proc=proc, memo_fresh=fresh):
            w.line(text, 3)
        fresh = _plain_set(ins)
        if pc + 1 in leaders and not _ends_block(ins):
            w.line(f"pc = {pc + 1}", 3)
    w.line("_bad_pc(pc)", 2)
    w.line("")


def _ends_block(ins: d.Instr) -> bool:
    """Whether the code of `ins` always leaves its block by itself (sets pc, returns)."""
    return isinstance(ins, (d.Jump, d.JumpIfNot, d.IterNext, d.CallProc, d.Return, d.Choose, d.Branch, d.EndGame,
                            d.TurnEnd))


def _goto(target: int, pc: int, idx: int) -> list[str]:
    """A jump: forward ones fall through the blocks between; backward ones count a step."""
    if target > pc:
        return [f"pc = {target}"]
    return [f"pc = {target}", "s.steps -= 1", "if s.steps < 0:", f"    _runaway({idx})", "continue"]


def _runs_on(flags: d.Probe) -> bool:
    """Whether a trial standing here must run on: a dead end here or ahead, or no return."""
    return flags.here or flags.fail or not flags.ret


def _trial_at_call(callee: d.ProcDef, caller: d.ProcDef, pc: int, idx: int) -> list[str]:
    """Where a trial ends at a call: nothing in the callee, nor after it in the turn, can fail.

    The flags settle it here, or the new frame's own (`_below_callee`) at run time. In play,
    and in a trial that runs on, the callee runs at once and the block goes on where it returns.
    """
    flags = caller.probe[pc]
    if _runs_on(callee.probe[0]) or flags.fail:
        return []
    done = ["    s.steps -= 1", "    if s.steps < 0:", f"        _runaway({idx})", f"    return {TURN_DONE}"]
    return ["if probe:" if not flags.ret else "if probe and not _f[3]:", *done]


def _below_callee(flags: d.Probe) -> str:
    """A new frame's fourth item (`Probe.below_callee`), worked out here where the call's flags settle it."""
    settled = {flags.below_callee(below=below) for below in (False, True)}
    return repr(settled.pop()) if len(settled) == 1 else "F[3]"


def _trial_after_call(caller: d.ProcDef, pc: int) -> list[str]:
    """Where a trial ends after a call returned: nothing after it, in the caller or below, can fail."""
    if pc + 1 < len(caller.probe) and _runs_on(caller.probe[pc + 1]):
        return []
    return ["if probe and not F[3]:", f"    F[1] = {pc + 1}", f"    return {TURN_DONE}"]


def _scalar(w: Writer, node: m.Expr) -> bool:
    """Whether a value is never a list: a literal, a number or `next`'s player."""
    return isinstance(node, m.Lit) or w.ex.number(node) or (isinstance(node, m.BuiltinCall) and node.name == "next")


def _copied(w: Writer, node: m.Expr) -> str:
    """Source of a value a local keeps: a list is copied (`_cp`); a value that is never one, or a new one, is not."""
    if _scalar(w, node):
        return w.ex.gen(node)
    if isinstance(node, (m.Where, m.ListComp)):  # a list made here, held by nothing else
        return w.ex.gen(node)
    if isinstance(node, (m.Local, m.Bound)):  # a name: `_cp` written out, no call
        return f"(_cv if (_cv := {w.ex.gen(node)}).__class__ is not list else list(_cv))"
    return f"_cp({w.ex.gen(node)})"


def _plain_set(ins: d.Instr) -> TypeGuard[d.SetVar]:
    """Whether `ins` is a `set` of a variable that always exists (written out in `_instr`): it empties s.memo."""
    return isinstance(ins, d.SetVar) and ins.item is None and ins.op == "=" and not ins.args


# Expressions that never run rule code (functions, labels, parts) and so never read s.memo,
# and built-ins of lists and players that do not either.
_NO_MEMO = (m.Lit, m.ConstRef, m.EnumList, m.Local, m.Bound, m.OptionRef, m.StateRef, m.VarRef, m.ZoneRef,
            m.Attr, m.PieceAttr, m.Unary, m.Binary, m.BoolOp, m.Ternary, m.ListLit)
_NO_MEMO_BUILTINS = frozenset({"size", "nth", "first", "last", "next"})


def _reads_memo(node: m.Expr) -> bool:
    """Whether working out `node` may read or fill s.memo: it may run a rule's function.

    Not only calls do: `joining` reads a piece's parts, a label its component's label, and
    either may call a function.
    """
    return not all(isinstance(n, _NO_MEMO) or (isinstance(n, m.BuiltinCall) and n.name in _NO_MEMO_BUILTINS)
                   for n in m.walk(node))


def _instr(w: Writer, ins: d.Instr, pc: int, idx: int, procs: dict[str, d.ProcDef], *,  # noqa: C901, PLR0911, PLR0912
           proc: d.ProcDef, memo_fresh: bool = False) -> list[str]:
    if isinstance(ins, d.Let):
        return [f"L[{ins.name!r}] = {_copied(w, ins.value)}"]
    if isinstance(ins, d.SetLocal):
        name = ins.name
        if ins.op == "=":
            return [f"L[{name!r}] = {_copied(w, ins.value)}"]
        value = w.ex.gen(ins.value)
        if ins.op == "+=":
            return [f"L[{name!r}] = _add(s, L[{name!r}], {value})"]
        return [f"L[{name!r}] = L[{name!r}] - {value}"]
    if isinstance(ins, d.SetVar) and ins.item is not None:
        key, item, value = w.ex.var_key(ins.var, ins.args), w.ex.gen(ins.item), w.ex.gen(ins.value)
        return [f"s.set_item({key}, {item}, {value}, {ins.op!r})"]
    if _plain_set(ins):
        # `State.set_var` written out for the commonest set: a variable that always exists.
        # Right after another such set, and with a value that calls no function, the memo is
        # empty and stays so: no need to empty it again.
        key = repr(ins.var)
        copy = [] if _scalar(w, ins.value) else ["if _sv.__class__ is list:", "    _sv = list(_sv)"]
        forget = [] if memo_fresh and not _reads_memo(ins.value) else ["s.memo = {}"]
        return [f"_sv = {w.ex.gen(ins.value)}", *copy, *forget, f"s.vars[{key}] = _sv",
                "if s.probing is None:", f"    s.elog.append((_var_set, {key}, _sv))"]
    if isinstance(ins, d.SetVar):
        return [f"s.set_var({w.ex.var_key(ins.var, ins.args)}, {w.ex.gen(ins.value)}, {ins.op!r})"]
    if isinstance(ins, d.MovePieces):
        # `move` takes a list of its own: a slice or a filter is one already.
        out = [f"_c = {w.ex.gen(ins.pieces)}"]
        if ins.amount is not None:
            chosen = f"_c[:{w.ex.gen(ins.amount)}]"
        else:
            chosen = "_c" if isinstance(ins.pieces, (m.Where, m.ListComp)) else "list(_c)"
        out.append(f"_move(s, {chosen}, {w.ex.zone_slot(ins.dest)}, {ins.end!r}, {ins.drawn!r})")
        return out
    if isinstance(ins, d.Shuffle):
        return [f"s.shuffle({w.ex.zone_slot(ins.zone)})"]
    if isinstance(ins, d.Create):
        fors = "".join(f"({f.var.ident!r}, lambda s, L: {w.ex.gen(f.iter)}, "
                       f"{'lambda s, L: ' + w.ex.gen(f.cond) if f.cond is not None else 'None'}), " for f in ins.fors)
        kwargs = ", ".join(f"{k.name!r}: {w.ex.gen(k.value)}" for k in ins.kwargs)
        return [(f"_create(s, L, {ins.type!r}, ({fors}), lambda s, L: {w.ex.gen(ins.count)}, "
                 f"lambda s, L: {{{kwargs}}}, lambda s, L: {w.ex.zone_slot(ins.dest)})")]
    if isinstance(ins, d.Log):
        return [f"s.log({ins.message!r}, [{', '.join(w.ex.gen(a) for a in ins.args)}])"]
    if isinstance(ins, d.Peek):
        return [f"s.peek({w.ex.gen(ins.pieces)}, {w.ex.gen(ins.player)})"]
    if isinstance(ins, d.Reveal):
        return [f"s.reveal({w.ex.gen(ins.pieces)})"]
    if isinstance(ins, d.Place):
        return [f"s.place({w.ex.gen(ins.piece)}, {w.ex.zone_slot(ins.zone)}, {w.ex.gen(ins.cells)})"]
    if isinstance(ins, d.Jump):
        return _goto(ins.target, pc, idx)
    if isinstance(ins, d.JumpIfNot):
        if ins.target > pc:
            return [f"pc = {pc + 1} if {w.ex.gen(ins.cond)} else {ins.target}"]
        return [f"if not {w.ex.gen(ins.cond)}:", *("    " + t for t in _goto(ins.target, pc, idx)), f"pc = {pc + 1}"]
    if isinstance(ins, d.IterInit):
        if ins.items is not None:
            return [f"L[{ins.slot!r}] = (tuple({w.ex.gen(ins.items)}), 0)"]
        return [f"L[{ins.slot!r}] = (_repeats(s, {w.ex.gen(ins.count)}), 0)"]  # type: ignore[arg-type]
    if isinstance(ins, d.IterNext):
        return [f"_items, _i = L[{ins.slot!r}]",
                "if _i < len(_items):",
                f"    L[{ins.var!r}] = _items[_i]",
                f"    L[{ins.slot!r}] = (_items, _i + 1)",
                f"    pc = {pc + 1}",
                "else:",
                f"    pc = {ins.end}"]
    if isinstance(ins, d.CallProc):
        params = procs[ins.proc].params
        local = "".join(f"{p!r}: {_copied(w, a)}, " for p, a in zip(params, ins.args, strict=True))
        return [f"F[1] = {pc}",
                f"if len(s.frames) >= {CALL_DEPTH}:",
                f"    _too_deep({idx})",
                f"_f = [{ins.proc!r}, 0, {{{local}'$actor': L.get('$actor')}}, {_below_callee(proc.probe[pc])}]",
                "s.frames.append(_f)",
                *_trial_at_call(procs[ins.proc], proc, pc, idx),
                "s.steps -= 1",
                "if s.steps < 0:",
                f"    _runaway({idx})",
                f"_r = P_{_pyname(ins.proc)}(s, _f, probe)",
                f"if _r != {RETURNED}:",
                "    return _r",
                "s.frames.pop()",
                f"pc = {pc + 1}",
                *_trial_after_call(proc, pc)]
    if isinstance(ins, d.Return):
        return [f"return {RETURNED}"]
    if isinstance(ins, (d.Choose, d.Branch)):
        return [f"F[1] = {pc}", f"return {DECISION}"]
    if isinstance(ins, d.Require):
        return [f"if not {w.ex.gen(ins.cond)}:", f"    _dead_end({idx}, {ins.message!r})"]
    if isinstance(ins, d.EndGame):
        return [f"s.end_game(str({w.ex.gen(ins.reason)}))", f"return {OVER}"]
    if isinstance(ins, d.TurnBegin):
        return [f"_p = {w.ex.gen(ins.player)}", "L['$actor'] = _p", "s.turn_player = _p", "s.turn_count += 1",
                "s.elog.append((_TurnStarted, _p, s.turn_count))"]
    if isinstance(ins, d.TurnEnd):
        return ["s.elog.append((_TurnEnded, s.turn_player))",
                "if probe:", f"    F[1] = {pc + 1}", f"    return {TURN_DONE}", f"pc = {pc + 1}"]
    msg = f"no code for {type(ins).__name__}"
    raise TypeError(msg)


def _sites(w: Writer, game: d.GameDef) -> None:
    """Writes what the runtime evaluates of a decision or a call without running the procedure.

    That is a choice's options and chooser, a branch's conditions, a call's arguments (look-ahead).
    """
    w.line("# Decisions and calls, read by the runtime and the look-ahead: SITES[proc][pc].")
    ahead = Lookahead(w, game, CALL_DEPTH)
    entries_all: list[str] = []
    quick = []
    procs = []
    for proc in game.procs.values():
        entries = []
        lists = _list_locals(w.ex, proc)
        for pc, ins in enumerate(proc.code):
            base = f"{_pyname(proc.name)}_{pc}"
            by = "None"
            if isinstance(ins, (d.Choose, d.Branch)) and ins.by is not None:
                by = _expr_fn(w, f"BY_{base}", ins.by, ins.span)
            if isinstance(ins, d.Choose):
                dom = _memo_fn(w, f"D_{base}", ins.domain, ins.span, len(entries_all), lists=lists)
                entries_all.append(dom)
                entries.append(f"{pc}: ({dom}, {by})")
                passing = isinstance(proc.code[pc + 1], (d.Jump, d.CallProc, d.Choose))
                if ins.by is None and passing:
                    quick.append(f"({proc.name!r}, {pc}): {ahead.entry(proc.name, pc + 1)}")
            elif isinstance(ins, d.Branch):
                options = _branch_fn(w, f"W_{base}", ins)
                entries.append(f"{pc}: ({options}, {by}, {_guard_fns(w, f'G_{base}', ins)})")
                if ins.by is None:
                    targets = "".join(f"{ahead.entry(proc.name, o.target)}, " for o in ins.options)
                    quick.append(f"({proc.name!r}, {pc}): ({targets})")
            elif isinstance(ins, d.CallProc):
                w.line(f"def A_{base}(s, L):")
                w.at(ins.span, 1)
                w.line(f"return [{', '.join(w.ex.gen(a) for a in ins.args)}]", 1)
                entries.append(f"{pc}: A_{base}")
        procs.append(f"{proc.name!r}: {{{', '.join(entries)}}}")
    w.line("SITES = {" + ", ".join(procs) + "}")
    w.line("")
    w.line("# The look-ahead's shortcut (compile/lookahead.py): QUICK[(proc, pc)] is the function")
    w.line("# for a choice's continuation, or a tuple of one per option of a branch.")
    ahead.write_all()
    w.line("QUICK = {" + ", ".join(quick) + "}")
    w.line("PROCS = {" + ", ".join(f"{p!r}: P_{_pyname(p)}" for p in game.procs) + "}")
