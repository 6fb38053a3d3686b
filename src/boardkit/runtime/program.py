"""A compiled ruleset made runnable.

The generated module is executed with the runtime's vocabulary, its constants and options
worked out, its tables ready for the interpreter.

The generated code runs with a namespace that holds only what it needs: the built-ins of the
rule language, the runtime helpers, and no Python built-ins.
"""

from __future__ import annotations

import functools
import hashlib
import json
import linecache
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, TypeAlias

import attrs

from boardkit.compile.module import CALL_DEPTH
from boardkit.errors import RULE_FAULTS, DeadEnd, Diagnostic, Horizon, RuleError, RuleRuntimeError
from boardkit.model import defs as d
from boardkit.runtime.builtins import BUILTINS
from boardkit.runtime.events import TurnEnded, TurnStarted
from boardkit.runtime.grid import OFF_GRID, top_at, tops_count
from boardkit.runtime.listops import LIST_LIMIT
from boardkit.runtime.options import offered
from boardkit.runtime.proofs import cut_off
from boardkit.runtime.state import move_pieces, var_set_event
from boardkit.runtime.work import (
    ConstState,
    add,
    attribute,
    each,
    joined,
    kept,
    multiply,
    over_budget,
    repeats,
    zone_attr,
    zone_count,
)
from boardkit.source import Span

if TYPE_CHECKING:
    from types import CodeType, TracebackType

    from boardkit.runtime.pieces import Piece
    from boardkit.runtime.state import State
    from boardkit.runtime.work import Value

    #: A generated function of a rule expression, called with the state and the locals.
    SiteFn: TypeAlias = Callable[[State, dict[str, Value]], Value]
    #: A generated function of one piece: its label or its parts.
    PieceFn: TypeAlias = Callable[[State, Piece], Value]
    #: The look-ahead's shortcut for one continuation (compile/lookahead.py): called with the
    #: state, the locals, the depth and whether the frames below may fail; None when only a
    #: full trial can tell.
    QuickFn: TypeAlias = Callable[[State, dict[str, Value], int, bool], bool | None]


@attrs.frozen
class Option:
    """A declared option: its default and, where the rules list them, the values it may take."""

    name: str
    default: Any
    choices: tuple[Any, ...] | None = None
    #: The comment above its declaration in the rules ("" if none).
    doc: str = ""


@attrs.define
class ProcRun:
    """One procedure as the runtime uses it.

    That is its code (for the look-ahead's analysis), its generated function, and what
    decisions and calls evaluate.
    """

    name: str
    params: tuple[str, ...]
    code: tuple[d.Instr, ...]
    probe: tuple[d.Probe, ...]
    run: Callable[[Any, list[Any], bool], int]
    sites: dict[int, Any]

    def span(self, pc: int) -> Span:
        """Where the rule of the instruction at `pc` is written."""
        return self.code[pc].span


class Program:
    """The runnable form of one checked ruleset."""

    def __init__(self, game: d.GameDef, source: str, code: CodeType | None = None) -> None:
        self.game = game
        self.source = source
        self.code = code if code is not None else compile_module(game.name, source)
        self.filename = self.code.co_filename
        self.ns = ns = self._namespace()
        # Tracebacks and debuggers can show the generated lines.
        linecache.cache[self.filename] = (len(source), None, source.splitlines(keepends=True), self.filename)
        exec(self.code, ns)  # noqa: S102 - our own generated source, run with a namespace of our own
        self.options = self._options(ns["OPTIONS"])
        self.consts: dict[str, Any] = {name: ns[f"K_{name}"] for name in game.consts}
        self.procs = {name: ProcRun(name, p.params, p.code, p.probe, ns["PROCS"][name], ns["SITES"][name])
                      for name, p in game.procs.items()}
        self.var_init: dict[str, SiteFn] = ns["VARS"]
        self.capacity: dict[str, SiteFn] = ns["CAPACITY"]
        self.grid_size: dict[str, tuple[SiteFn, SiteFn]] = ns["GRIDS"]
        self.labels: dict[str, PieceFn] = ns["LABELS"]
        self.labels_of_attributes = frozenset[str](ns["LABELS_OF_ATTRIBUTES"])
        self.parts: dict[str, PieceFn] = ns["PARTS"]
        self.score: SiteFn | None = ns["SCORE"]
        self.score_param: str = ns["SCORE_PARAM"]
        self.tiebreaks: tuple[tuple[SiteFn, str], ...] = ns["TIEBREAKS"]
        self.heuristic: SiteFn | None = ns["HEURISTIC"]
        self.heuristic_param: str = ns["HEURISTIC_PARAM"]
        self.invariants: tuple[tuple[d.InvariantDef, SiteFn], ...] = tuple(
            zip(game.invariants, ns["INVARIANTS"], strict=True))
        self.quick: dict[tuple[str, int], QuickFn | tuple[QuickFn, ...]] = ns["QUICK"]
        self.tops_by_xy: tuple[str, ...] = ns["TOPS_BY_XY"]

    # Read only to report a rule's runtime error: worked out then, not at every load.
    @functools.cached_property
    def spans(self) -> list[Span]:
        """The rule text each span index of the generated code stands for."""
        return [Span(*t) for t in self.ns["SPANS"]]

    @functools.cached_property
    def _line_span(self) -> list[int]:
        return _line_spans(self.source)

    def _namespace(self) -> dict[str, Any]:
        ns: dict[str, Any] = {"__builtins__": {}, "__name__": f"boardkit_rules_{self.game.name}"}
        ns.update({f"_b_{name}": fn for name, fn in BUILTINS.items()})
        ns.update(_attr=attribute, _zattr=zone_attr, _zcount=zone_count, _topxy=top_at, _ntops=tops_count,
                  _each=each, _repeats=repeats, _over_budget=over_budget, _add=add,
                  _mul=multiply, _cp=kept, _move=move_pieces, list=list, tuple=tuple, range=range, len=len, str=str,
                  dict=dict,
                  isinstance=isinstance,
                  _TurnStarted=TurnStarted, _TurnEnded=TurnEnded, _const=self._const, _runaway=self._runaway,
                  _too_deep=self._too_deep, _dead_end=self._dead_end, _create=_create, _bad_pc=_bad_pc,
                  _offered=offered, _QUICK_FAULTS=(*RULE_FAULTS, Horizon),
                  _MISS=_MISS, TypeError=TypeError, bool=bool, _spans=_spans, _data=json.loads,
                  _cut_off=cut_off, _OFF=OFF_GRID, _int=int, _joined=joined, _var_set=var_set_event,
                  _id=id, _LISTED=_LISTED)
        return ns

    # Errors, located by the span indexes the generated code passes.
    def _const(self, fn: Callable[[ConstState], Value], idx: int) -> Value:
        try:
            return fn(ConstState())
        except Exception:  # noqa: BLE001 - any failure means it was not a constant
            raise self._rule_error(idx, "expected a constant value") from None

    def _rule_error(self, idx: int, msg: str) -> RuleError:
        # Constants are worked out while the module runs: read its span table as it stands.
        span = Span(*self.ns["SPANS"][idx])
        return RuleError([Diagnostic(span, msg)], self.game.sources)

    def _runaway(self, idx: int) -> None:
        msg = f"no decision after {STEP_LIMIT} steps: does a loop never end?"
        raise RuleRuntimeError(msg, self.spans[idx])

    def _too_deep(self, idx: int) -> None:
        msg = f"procedure calls nested more than {CALL_DEPTH} deep: is a recursion unbounded?"
        raise RuleRuntimeError(msg, self.spans[idx])

    def _dead_end(self, idx: int, message: str) -> None:
        msg = f"{self.spans[idx]}: {message}"
        raise DeadEnd(msg)

    def _options(self, declared: dict[str, tuple[Any, Any, int]]) -> dict[str, Option]:
        out: dict[str, Option] = {}
        for name, (default_fn, choices_fn, idx) in declared.items():
            default = self._const(default_fn, idx)
            choices = self._const(choices_fn, idx) if choices_fn is not None else None
            opt = self.game.options[name]
            if choices is not None and not isinstance(choices, list):
                span = opt.choices.span if opt.choices is not None else opt.span
                raise RuleError([Diagnostic(span, "option choices must be a list")], self.game.sources)
            if choices is not None and default not in choices:
                msg = f"default {default!r} is not one of the choices {choices!r}"
                raise RuleError([Diagnostic(opt.default.span, msg)], self.game.sources)
            out[name] = Option(name, default, tuple(choices) if choices else None, opt.doc)
        return out

    def locate_fn(self, fn: Callable[..., Any]) -> Span | None:
        """The rule a generated function runs: the span marked on the line after its `def`."""
        idx = self._line_span[fn.__code__.co_firstlineno]
        return self.spans[idx] if idx >= 0 else None

    def locate(self, tb: TracebackType | None) -> Span | None:
        """The rule a fault came from: the outermost generated line in its traceback."""
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self.filename:
                idx = self._line_span[tb.tb_lineno - 1]
                return self.spans[idx] if idx >= 0 else None
            tb = tb.tb_next
        return None


# What the memo holds for a key it has not seen.
_MISS = object()
# Marks a list in a memo key, held by its identity (compile/module.py `_key`).
_LISTED = object()


def compile_module(name: str, source: str) -> CodeType:
    """Compiles generated source under a name that tracebacks show and no other ruleset has."""
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()[:12]
    return compile(source, f"<boardkit rules {name} {digest}>", "exec")


# The most steps (backward jumps and calls) between two decisions.
STEP_LIMIT: Final = 1_000_000
_MARK = re.compile(r"\s*#@ (\d+) ")


def _spans(files: tuple[str, ...], table: str) -> tuple[tuple[str, int, int, int, int], ...]:
    """The generated module's span table from its text (see `compile.module.generate`)."""
    out = []
    for entry in table.split(";") if table else ():
        f, line, col, end_line, end_col = map(int, entry.split())
        out.append((files[f], line, col, end_line, end_col))
    return tuple(out)


def _line_spans(source: str) -> list[int]:
    """For each line of generated source, the index of the span of the rule it runs (-1: none)."""
    out: list[int] = []
    current = -1
    for line in source.splitlines():
        found = _MARK.match(line)
        if found:
            current = int(found.group(1))
        elif line and not line[0].isspace():
            current = -1
        out.append(current)
    return out


def _create(s: State, local: dict[str, Value], type_name: str,  # noqa: PLR0917 - generated code calls it by position
            fors: tuple[tuple[str, SiteFn, SiteFn | None], ...], count: SiteFn, kwargs: SiteFn, dest: SiteFn) -> None:
    """`create N Type(k: v, ...) for x in xs if c into zone`: one batch per combination."""
    envs = [dict(local)]
    for var, items, cond in fors:
        nxt: list[dict[str, Value]] = []
        for env in envs:
            for x in items(s, env):
                e2 = dict(env)
                e2[var] = x
                if cond is None or cond(s, e2):
                    nxt.append(e2)
        envs = nxt
    for env in envs:
        attrs_ = kwargs(s, env)
        n = count(s, env)
        if not isinstance(n, int) or len(s.pieces) + n > LIST_LIMIT:
            msg = f"create {n!r:.40} pieces: a game holds at most {LIST_LIMIT} pieces"
            raise ValueError(msg)
        s.create(type_name, attrs_, n, dest(s, local))


def _bad_pc(pc: int) -> None:
    msg = f"no instruction at {pc}"
    raise ValueError(msg)

