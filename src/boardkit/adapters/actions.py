"""A fixed action space for any ruleset: every option of every decision gets a stable number.

Learning libraries want `Discrete(N)` and a mask of the legal actions, while a game offers a
short list of options that changes from state to state. The catalogue gives each decision site
of the rules (a `choose`) a block of action numbers and, inside the block, one number per value
the choice can ever offer. The values are worked out from the checked rules and the game's
layout (players, options, zones, grid cells, the pieces setup makes): enums, pieces by kind and
zone, cells, whole numbers with bounds, lists of these. The same value at the same decision is
the same action in every state.

Where the values cannot be worked out (a choice of computed texts, say) but their number can,
the block is positional: action k is the decision's k-th option in its stable order. Where
neither can be, making the space fails with a located error.
"""

from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING, Any, TypeAlias

import attrs

from boardkit.errors import Diagnostic, IllegalMove, RuleError, RuleRuntimeError
from boardkit.model import expr as m
from boardkit.model.defs import Branch, CallProc, Choose, IterInit, IterNext, Let, SetLocal, SetVar
from boardkit.runtime.options import SKIP
from boardkit.runtime.pieces import Piece
from boardkit.source import Span

if TYPE_CHECKING:
    from boardkit.game import Game
    from boardkit.model.defs import ComponentDef, FuncDef, GameDef, ProcDef
    from boardkit.move import Move
    from boardkit.registry import Ruleset

#: A choice value made hashable and comparable across states (see `value_key`).
Key: TypeAlias = tuple[Any, ...]
# An ordered set of keys; None where the values cannot be worked out.
_Univ: TypeAlias = dict[Key, None] | None
# The most values one decision's block may hold: a larger one would be no use to a learner.
BLOCK_LIMIT = 50_000
# How deep the analysis follows functions and locals into each other.
_DEPTH = 12


def value_key(value: object, loc: list[int]) -> Key:  # noqa: PLR0911 - one return per kind of value
    """A choice value as the catalogue knows it.

    Pieces are known by kind (type and attributes) and the zone they lie in, as decisions offer
    them: interchangeable pieces make one option. `loc` gives each piece's zone slot.
    """
    if value is SKIP:
        return ("skip",)
    if isinstance(value, Piece):
        return ("piece", value.type, tuple(value.attrs.items()), loc[value.id])
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int):
        return ("int", value)
    if isinstance(value, str):
        return ("str", value)
    if value is None:
        return ("none",)
    if isinstance(value, (list, tuple)):
        return ("list", tuple(value_key(v, loc) for v in value))
    return ("other", repr(value))


@attrs.frozen
class Block:
    """The action numbers of one decision site: `offset` up to `offset + size`.

    `keys` lists the values in block order; None for a positional block.
    """

    proc: str
    pc: int
    prompt: str
    span: Span
    offset: int
    size: int
    keys: tuple[Key, ...] | None
    branch: bool

    def describe(self, action: int) -> str:
        """What an action number of this block means, for people."""
        k = action - self.offset
        if self.keys is None:
            return f"{self.prompt}: option #{k + 1}"
        return f"{self.prompt}: {_key_text(self.keys[k])}"


class ActionSpace:
    """The fixed action space of a ruleset for a player count and options.

    Args:
        rules: the ruleset.
        players: the player count.
        options: the game options (the layout, and so the values, may depend on them).
    """

    def __init__(self, rules: Ruleset, players: int, options: dict[str, Any] | None = None) -> None:
        sample = rules.new_game(players=players, seed=0, options=options)
        self.rules = rules
        self.players = players
        self.options = dict(options or {})
        self.blocks: list[Block] = []
        self._by_site: dict[tuple[str, int], Block] = {}
        self._index: dict[tuple[str, int], dict[Key, int]] = {}
        self._last: tuple[object, list[int]] = (None, [])  # the last decision asked about, and its answer
        facts = _Facts(rules, sample)
        problems: list[Diagnostic] = []
        offset = 0
        for proc in rules.definition.procs.values():
            for pc, ins in enumerate(proc.code):
                if not isinstance(ins, (Choose, Branch)):
                    continue
                keys, size = _block_values(ins, proc, facts)
                if size is None:
                    msg = ("the adapters cannot bound the options of this decision: neither its values nor how "
                           "many there are follow from the rules (choose from a list whose size is known, such as "
                           "an enum, a zone, a grid's cells or a range)")
                    problems.append(Diagnostic(ins.span, msg))
                    continue
                block = Block(proc.name, pc, ins.prompt, ins.span, offset, size, keys, isinstance(ins, Branch))
                self.blocks.append(block)
                self._by_site[proc.name, pc] = block
                if keys is not None:
                    self._index[proc.name, pc] = {k: i for i, k in enumerate(keys)}
                offset += size
        if problems:
            raise RuleError(problems, rules.definition.sources)
        self.size = offset
        #: Distinct prompts of the decisions, in order: the observation's decision one-hot.
        self.prompts: list[str] = list(dict.fromkeys(b.prompt for b in self.blocks))

    def block(self, game: Game) -> Block:
        """The block of the pending decision."""
        frame = game.state.frames[-1]
        return self._by_site[frame[0], frame[1]]

    def legal(self, game: Game) -> list[int]:
        """The action numbers of the legal moves, in the order of `game.legal_moves()`."""
        if game.is_over:
            return []
        moves = game.legal_moves()
        # Asked again at the same decision (the mask, then the move): the same answer.
        point = moves[0].offered_at if moves else None
        if point is not None and point is self._last[0]:
            return list(self._last[1])
        out = self._legal(game, moves)
        self._last = (point, out)
        return list(out)

    def _legal(self, game: Game, moves: list[Move]) -> list[int]:
        block = self.block(game)
        if block.keys is None:
            if len(moves) > block.size:
                msg = f"{len(moves)} options at {block.prompt!r}, more than the {block.size} the action space allows"
                raise RuleRuntimeError(msg, block.span)
            return [block.offset + i for i in range(len(moves))]
        index = self._index[block.proc, block.pc]
        loc = game.state.loc
        out = []
        for mv in moves:
            key = ("branch", mv.option) if block.branch else value_key(mv.option, loc)
            i = index.get(key)
            if i is None:
                msg = f"option {mv.label!r} of {block.prompt!r} is outside the action space worked out from the rules"
                raise RuleRuntimeError(msg, block.span)
            out.append(block.offset + i)
        return out

    def move_index(self, game: Game, action: object) -> int:
        """The index (for `Game.apply_action`) of the legal move with this action number.

        Raises IllegalMove when the number is not one of the legal actions now.
        """
        if type(action) is not int and not _is_integer(action):
            msg = f"an action is a whole number, not {action!r:.40}"
            raise IllegalMove(msg)
        number = int(action)  # type: ignore[call-overload]
        legal = self.legal(game)
        if number not in legal:
            what = self.describe(number) if 0 <= number < self.size else "outside the action space"
            msg = f"action {number} ({what}) is not legal now; legal actions: {legal}"
            raise IllegalMove(msg)
        return legal.index(number)

    def describe(self, action: int) -> str:
        """What an action number means, for people: the decision's prompt and the value."""
        for b in self.blocks:
            if b.offset <= action < b.offset + b.size:
                return b.describe(action)
        msg = f"no action {action} in a space of {self.size}"
        raise IndexError(msg)


def _is_integer(value: object) -> bool:
    """Whether a value is a whole number of another type (numpy's integers)."""
    return hasattr(value, "__index__") and not isinstance(value, bool)


def _key_text(key: Key) -> str:
    kind = key[0]
    if kind == "piece":
        attrs_text = ", ".join(f"{k}={v}" for k, v in key[2])
        return f"{key[1]}({attrs_text}) in zone slot {key[3]}"
    if kind == "list":
        return "+".join(_key_text(k) for k in key[1])
    if kind == "branch":
        return f"branch {key[1]}"
    if kind in {"skip", "none"}:
        return str(kind)
    return str(key[1])


class _Facts:
    """What the analysis knows of a game: the rules, and the layout of a sample game."""

    def __init__(self, rules: Ruleset, sample: Game) -> None:
        self.game: GameDef = rules.definition
        self.consts = rules.program.consts
        self.options = rules.program.options
        s = sample.state
        self.players = s.nplayers
        self.min_players, self.max_players = rules.min_players, rules.max_players
        self.total_pieces = len(s.pieces)
        # Locals being worked out, against analysis loops.
        self.active: set[tuple[str, str, bool]] = set()
        # Pieces by kind, in the order setup made them. Setup may draw an attribute at random:
        # each piece stands for every kind its enum and truth-value attributes could give it.
        kinds: dict[tuple[str, tuple[tuple[str, Any], ...]], None] = {}
        for p in s.pieces:
            fields = {f.name: f.type for f in self.game.components[p.type].fields}
            choices = [self._alternatives(fields.get(name), v) for name, v in p.attrs.items()]
            for combo in itertools.product(*choices):
                kinds[p.type, tuple(zip(p.attrs, combo, strict=True))] = None
        self.kinds = list(kinds)
        self.field_values: dict[str, dict[Key, None]] = {}
        for p in s.pieces:
            for name, v in p.attrs.items():
                self.field_values.setdefault(name, {})[value_key(v, [])] = None
        self.slots: dict[str, list[int]] = {}
        for i, key in enumerate(s.layout.zone_keys):
            self.slots.setdefault(key[0] if isinstance(key, tuple) else key, []).append(i)
        self.cells: dict[str, list[str]] = {}
        for slot, board in s.boards.items():
            key = s.layout.zone_keys[slot]
            family = key[0] if isinstance(key, tuple) else key
            self.cells.setdefault(family, [])
            self.cells[family] = list(dict.fromkeys([*self.cells[family], *board.geo.cells]))
        self.all_cells = list(dict.fromkeys(c for cs in self.cells.values() for c in cs))
        self.parts = max((len(c.parts.items) for c in self.game.components.values()
                          if isinstance(c.parts, m.ListLit)), default=1)

    def _alternatives(self, type_name: str | None, value: object) -> list[Any]:
        """The values an attribute of a given type could take: an enum's members, both truths."""
        if type_name in self.game.enums:
            return list(self.game.enums[type_name].members)
        if type_name == "bool":
            return [False, True]
        return [value]

    def field_universe(self, name: str) -> _Univ:
        """The values an attribute takes: an enum's members, or those setup's pieces show."""
        out: dict[Key, None] = {}
        declared = False
        for comp in self.game.components.values():
            for f in comp.fields:
                if f.name != name:
                    continue
                declared = True
                if f.type in self.game.enums:
                    out.update(dict.fromkeys(("str", x) for x in self.game.enums[f.type].members))
                elif f.type == "bool":
                    out.update(dict.fromkeys([("bool", False), ("bool", True)]))
        if not declared:
            return None
        out.update(self.field_values.get(name, {}))
        return out

    def pieces_in(self, families: list[str]) -> dict[Key, None]:
        return {("piece", t, a, slot): None for fam in families for slot in self.slots.get(fam, [])
                for t, a in self.kinds}

    def component(self, name: str) -> ComponentDef | None:
        return self.game.components.get(name)


def _block_values(ins: Choose | Branch, proc: ProcDef, facts: _Facts) -> tuple[tuple[Key, ...] | None, int | None]:
    """A decision's values (or None) and how many action numbers its block takes (None: unbounded)."""
    if isinstance(ins, Branch):
        branches: tuple[Key, ...] = tuple(("branch", i) for i in range(len(ins.options)))
        return branches, len(branches)
    a = _Analysis(facts, proc)
    univ = a.elems(ins.domain, {}, 0)
    extra: list[Key] = [("skip",)] if ins.optional is not None else []
    if univ is not None and len(univ) <= BLOCK_LIMIT:
        keys = (*univ, *extra)
        return keys, len(keys)
    bound = a.count(ins.domain, {}, 0)
    if bound is None or bound > BLOCK_LIMIT:
        return None, None
    return None, bound + len(extra)


def _items(univ: _Univ) -> _Univ:
    """The items of lists: for a value known to be one of the lists in `univ`."""
    if not univ or any(k[0] != "list" for k in univ):
        return None
    return _union(*(dict.fromkeys(k[1]) for k in univ))


def _ints(lo: int, hi: int) -> _Univ:
    if hi - lo > BLOCK_LIMIT:
        return None
    return {("int", i): None for i in range(lo, hi + 1)}


def _union(*parts: _Univ) -> _Univ:
    out: dict[Key, None] = {}
    for p in parts:
        if p is None:
            return None
        out.update(p)
    return out if len(out) <= BLOCK_LIMIT else None


Scope: TypeAlias = dict[str, _Univ]


class _Analysis:
    """Works out, from the checked rules, the values an expression may take.

    It is an over-approximation: a value set may hold values that never occur, never miss one
    that does. None means unknown.
    """

    def __init__(self, facts: _Facts, proc: ProcDef) -> None:
        self.f = facts
        self.proc = proc
        self.funcs: dict[str, FuncDef] = facts.game.funcs

    # The values of a scalar expression.
    def value(self, e: m.Expr, scope: Scope, depth: int) -> _Univ:  # noqa: C901, PLR0911, PLR0912
        if depth > _DEPTH:
            return None
        d = depth + 1
        match e:
            case m.Lit(value=v):
                return {value_key(v, []): None}
            case m.ConstRef(name=name):
                v = self.f.consts.get(name)
                return None if isinstance(v, list) else {value_key(v, []): None}
            case m.OptionRef(name=name):
                opt = self.f.options[name]
                return {value_key(v, []): None for v in (opt.choices or (opt.default,))}
            case m.StateRef(name="player_count"):
                return _ints(self.f.min_players, self.f.max_players)
            case m.Bound(ident=ident):
                return scope.get(ident)
            case m.VarRef(name=name):
                return self._var(name, d)
            case m.Local(name=name):
                return self._local(name, d, elems=False)
            case m.Attr(name=name) | m.PieceAttr(name=name):
                return self.f.field_universe(name)
            case m.BuiltinCall(name="first" | "last" | "nth" | "random", args=args):
                return self.elems(args[0], scope, d)
            case m.BuiltinCall(name="next"):
                return _ints(0, self.f.players - 1)
            case m.BuiltinCall(name="cell"):
                return {("str", c): None for c in self.f.all_cells}
            case m.BuiltinCall(name="min" | "max", args=args) if len(args) == 1:
                return self.elems(args[0], scope, d)
            case m.GridCall(name="top", zone=zone):
                return _union(self.f.pieces_in([zone.name]), {("none",): None})
            case m.FuncCall(name=name, args=args):
                fn = self.funcs[name]
                return self.value(fn.body, self._bind(fn, args, scope, d), d)
            case m.Ternary(then=then, other=other):
                return _union(self.value(then, scope, d), self.value(other, scope, d))
            case m.ListLit() | m.ListComp() | m.Where() | m.ZoneRef() | m.EnumList():
                return None
        iv = self.interval(e, scope, d)
        return _ints(*iv) if iv is not None else None

    # The values of the items of a list expression.
    def elems(self, e: m.Expr, scope: Scope, depth: int) -> _Univ:  # noqa: C901, PLR0911, PLR0912
        if depth > _DEPTH:
            return None
        d = depth + 1
        match e:
            case m.EnumList(members=members):
                return {("str", x): None for x in members}
            case m.ConstRef(name=name):
                v = self.f.consts.get(name)
                return {value_key(x, []): None for x in v} if isinstance(v, list) else None
            case m.ListLit(items=items):
                return _union(*(self.value(x, scope, d) for x in items))
            case m.ListComp(elt=elt, fors=fors):
                inner = dict(scope)
                for clause in fors:
                    inner[clause.var.ident] = self.elems(clause.iter, inner, d)
                    inner[clause.var.ident + "[]"] = self._inner(clause.iter, inner, d)
                return self.value(elt, inner, d)
            case m.Where(coll=coll):
                return self.elems(coll, scope, d)
            case m.ZoneRef(name=name):
                return self.f.pieces_in([name])
            case m.Bound(ident=ident) if scope.get(ident + "[]") is not None:
                return scope[ident + "[]"]
            case m.Attr(obj=obj, name=name):
                return self.f.field_universe(name) if self.elems(obj, scope, d) is not None else None
            case m.StateRef(name="players"):
                return _ints(0, self.f.players - 1)
            case m.Local(name=name):
                return self._local(name, d, elems=True)
            case m.BuiltinCall(name="distinct" | "sorted" | "remove" | "order", args=args):
                return self.elems(args[0], scope, d)
            case m.BuiltinCall(name="concat", args=(arg,)):
                return self._inner(arg, scope, d)
            case m.BuiltinCall(name="range", args=(lo, hi)):
                a, b = self.interval(lo, scope, d), self.interval(hi, scope, d)
                return _ints(a[0], b[1]) if a is not None and b is not None else None
            case m.BuiltinCall(name="subsets", args=(xs, _, hi)):
                return self._sequences(self.elems(xs, scope, d), self.interval(hi, scope, d))
            case m.GridCall(name="cells" | "occupied" | "neighbours", zone=zone):
                return {("str", c): None for c in self.f.cells.get(zone.name, [])}
            case m.GridCall(name="tops" | "stack", zone=zone):
                return self.f.pieces_in([zone.name])
            case m.GridCall(name="placements" | "joining", zone=zone):
                cells = {("str", c): None for c in self.f.cells.get(zone.name, [])}
                return self._sequences(cells, (self.f.parts, self.f.parts), exact=True)
            case m.FuncCall(name=name, args=args):
                fn = self.funcs[name]
                return self.elems(fn.body, self._bind(fn, args, scope, d), d)
            case m.Ternary(then=then, other=other):
                return _union(self.elems(then, scope, d), self.elems(other, scope, d))
            case m.Binary(op="+", left=left, right=right):
                return _union(self.elems(left, scope, d), self.elems(right, scope, d))
        # A value known to be one of some lists: their items.
        return _items(self.value(e, scope, d))

    def _inner(self, e: m.Expr, scope: Scope, depth: int) -> _Univ:
        """The items of the lists that a list of lists holds (what `concat` joins)."""
        match e:
            case m.ListLit(items=items):
                return _union(*(self.elems(x, scope, depth) for x in items))
            case m.ListComp(elt=elt, fors=fors):
                inner = dict(scope)
                for clause in fors:
                    inner[clause.var.ident] = self.elems(clause.iter, inner, depth)
                return self.elems(elt, inner, depth)
            case m.Where(coll=coll):
                return self._inner(coll, scope, depth)
            case m.GridCall(name="regions", zone=zone):
                return {("str", c): None for c in self.f.cells.get(zone.name, [])}
            case m.BuiltinCall(name="subsets", args=(xs, *_)):
                return self.elems(xs, scope, depth)
        return _items(self.elems(e, scope, depth))

    def _sequences(self, univ: _Univ, sizes: tuple[int, int] | None, *, exact: bool = False) -> _Univ:
        """Lists of distinct items of `univ`, in any order, of the sizes given."""
        if univ is None or sizes is None:
            return None
        lo, hi = (sizes[0] if exact else 1), min(sizes[1], len(univ))
        total = sum(math.perm(len(univ), n) for n in range(max(lo, 0), hi + 1))
        if total > BLOCK_LIMIT:
            return None
        items = list(univ)
        return {("list", seq): None for n in range(max(lo, 0), hi + 1) for seq in itertools.permutations(items, n)}

    def _bind(self, fn: FuncDef, args: tuple[m.Expr, ...], scope: Scope, depth: int) -> Scope:
        """A function's scope: each parameter with the values its argument may take."""
        out: Scope = {}
        for p, a in zip(fn.params, args, strict=True):
            out[p.ident] = self.value(a, scope, depth)
            out[p.ident + "[]"] = self.elems(a, scope, depth)
        return out

    def _var(self, name: str, depth: int) -> _Univ:
        """The values a variable may hold: its initial value and every value set to it."""
        found = [self.value(self.f.game.vars[name].init, {}, depth)]
        for proc in self.f.game.procs.values():
            a = _Analysis(self.f, proc)
            found.extend(a.value(ins.value, {}, depth) if ins.op == "=" else None
                         for ins in proc.code if isinstance(ins, SetVar) and ins.var == name)
        return _union(*found)

    def _local(self, name: str, depth: int, *, elems: bool) -> _Univ:
        """The values a procedure local may hold: the union over every assignment to it.

        A parameter holds what the calls of the procedure pass it. An assignment that reads the
        local itself (`set xs = remove(xs, x)`) adds what its other parts add.
        """
        here = (self.proc.name, name, elems)
        if here in self.f.active:
            return {}
        self.f.active.add(here)
        try:
            return self._local_values(name, depth, elems=elems)
        finally:
            self.f.active.discard(here)

    def _local_values(self, name: str, depth: int, *, elems: bool) -> _Univ:
        found: list[_Univ] = []
        code = self.proc.code
        for ins in code:
            match ins:
                case Let(name=n, value=v) | SetLocal(name=n, op="=", value=v) if n == name:
                    found.append(self.elems(v, {}, depth) if elems else self.value(v, {}, depth))
                case Choose(var=n, domain=dom) if n == name:
                    found.append(_items(self.elems(dom, {}, depth)) if elems else self.elems(dom, {}, depth))
                case SetLocal(name=n) if n == name:
                    found.append(None)
                case IterNext(var=n, slot=slot) if n == name:
                    found.extend(self._iterated(i, depth, elems=elems)
                                 for i in code if isinstance(i, IterInit) and i.slot == slot)
        if name in self.proc.params:
            found.extend(self._passed(self.proc.params.index(name), depth, elems=elems))
        if not found:
            return None
        return _union(*found)

    def _iterated(self, init: IterInit, depth: int, *, elems: bool) -> _Univ:
        if init.items is None:
            return None if elems else _ints(0, BLOCK_LIMIT)
        univ = self.elems(init.items, {}, depth)
        return _items(univ) if elems else univ

    def _passed(self, index: int, depth: int, *, elems: bool) -> list[_Univ]:
        """What the calls of this procedure pass as its index-th argument."""
        out: list[_Univ] = []
        for caller in self.f.game.procs.values():
            a = _Analysis(self.f, caller)
            for ins in caller.code:
                if isinstance(ins, CallProc) and ins.proc == self.proc.name:
                    arg = ins.args[index]
                    out.append(a.elems(arg, {}, depth) if elems else a.value(arg, {}, depth))
        return out or [None]

    # Bounds of whole numbers.
    def interval(self, e: m.Expr, scope: Scope, depth: int) -> tuple[int, int] | None:  # noqa: C901, PLR0911, PLR0912
        if depth > _DEPTH:
            return None
        d = depth + 1
        match e:
            case m.Lit(value=v) if type(v) is int:
                return v, v
            case m.ConstRef(name=name) if type(self.f.consts.get(name)) is int:
                v = self.f.consts[name]
                return v, v
            case m.StateRef(name="player_count"):
                return self.f.min_players, self.f.max_players
            case m.BuiltinCall(name="size" | "count", args=args):
                n = self.count(args[0], scope, d)
                return (0, n) if n is not None else None
            case m.BuiltinCall(name="min" | "max" | "abs", args=args) if len(args) > 1 or e.name == "abs":
                parts = [self.interval(a, scope, d) for a in args]
                if any(p is None for p in parts):
                    return None
                ps = [p for p in parts if p is not None]
                if e.name == "abs":
                    lo, hi = ps[0]
                    return (0 if lo <= 0 <= hi else min(abs(lo), abs(hi))), max(abs(lo), abs(hi))
                pick = min if e.name == "min" else max
                return pick(p[0] for p in ps), pick(p[1] for p in ps)
            case m.Binary(op="+" | "-" | "*", left=left, right=right):
                a, b = self.interval(left, scope, d), self.interval(right, scope, d)
                if a is None or b is None:
                    return None
                if e.op == "+":
                    return a[0] + b[0], a[1] + b[1]
                if e.op == "-":
                    return a[0] - b[1], a[1] - b[0]
                corners = [x * y for x in a for y in b]
                return min(corners), max(corners)
            case m.Unary(op="-", operand=x):
                iv = self.interval(x, scope, d)
                return (-iv[1], -iv[0]) if iv is not None else None
            case m.Ternary(then=then, other=other):
                a, b = self.interval(then, scope, d), self.interval(other, scope, d)
                return (min(a[0], b[0]), max(a[1], b[1])) if a is not None and b is not None else None
            case m.FuncCall(name=name, args=args):
                fn = self.funcs[name]
                return self.interval(fn.body, self._bind(fn, args, scope, d), d)
        univ = self.value(e, scope, d) if not isinstance(e, (m.Binary, m.Unary, m.BuiltinCall)) else None
        if univ and all(k[0] == "int" for k in univ):
            ints = [k[1] for k in univ]
            return min(ints), max(ints)
        return None

    # How many items a list may hold.
    def count(self, e: m.Expr, scope: Scope, depth: int) -> int | None:  # noqa: C901, PLR0911 - one case per form
        if depth > _DEPTH:
            return None
        d = depth + 1
        univ = self.elems(e, scope, d)
        match e:
            case m.ZoneRef() | m.Where(coll=m.ZoneRef()):
                return self.f.total_pieces
            case _ if univ is not None and not isinstance(e, (m.ListLit, m.Binary)):
                return len(univ)
            case m.ListLit(items=items):
                return len(items)
            case m.ListComp(fors=fors):
                inner = dict(scope)
                total = 1
                for clause in fors:
                    n = self.count(clause.iter, inner, d)
                    if n is None:
                        return None
                    inner[clause.var.ident] = self.elems(clause.iter, inner, d)
                    total *= n
                return total
            case m.Where(coll=coll) | m.BuiltinCall(name="distinct" | "sorted" | "remove", args=(coll, *_)):
                return self.count(coll, scope, d)
            case m.FuncCall(name=name, args=args):
                fn = self.funcs[name]
                return self.count(fn.body, self._bind(fn, args, scope, d), d)
            case m.Ternary(then=then, other=other):
                a, b = self.count(then, scope, d), self.count(other, scope, d)
                return max(a, b) if a is not None and b is not None else None
            case m.Binary(op="+", left=left, right=right):
                a, b = self.count(left, scope, d), self.count(right, scope, d)
                return a + b if a is not None and b is not None else None
            case m.Local(name=name):
                return self._local_count(name, d)
        return None

    def _local_count(self, name: str, depth: int) -> int | None:
        sizes = [self.count(ins.value, {}, depth) for ins in self.proc.code
                 if isinstance(ins, (Let, SetLocal)) and ins.name == name]
        if name in self.proc.params:
            index = self.proc.params.index(name)
            for caller in self.f.game.procs.values():
                a = _Analysis(self.f, caller)
                sizes.extend(a.count(ins.args[index], {}, depth) for ins in caller.code
                             if isinstance(ins, CallProc) and ins.proc == self.proc.name)
        if not sizes or any(n is None for n in sizes):
            return None
        return max(n for n in sizes if n is not None)
