"""The checked model of a ruleset: declarations and procedures as typed, frozen data.

Procedures are flat instruction lists, so that where a running procedure stands is plain data
(a program counter) that saves and the look-ahead can hold. The compiler turns this model into
Python source; nothing here runs.
"""

from __future__ import annotations

from typing import TypeAlias

import attrs

from boardkit.errors import Diagnostic
from boardkit.model.expr import Bound, CompFor, Expr, ZoneRef
from boardkit.source import SourceFile, Span


@attrs.frozen
class EnumDef:
    name: str
    members: tuple[str, ...]


@attrs.frozen
class Field:
    """An attribute of a component: its name and type (an enum name, or int, bool, str)."""

    name: str
    type: str


@attrs.frozen
class ComponentDef:
    name: str
    fields: tuple[Field, ...]
    # Evaluated with `it` bound to the piece.
    it: Bound
    label: Expr | None
    parts: Expr | None  # what a piece shows on each grid cell it covers (a list)
    span: Span


@attrs.frozen
class GridSize:
    width: Expr
    height: Expr


@attrs.frozen
class ZoneDef:
    """A zone family: one zone per combination of its index values."""

    name: str
    dims: tuple[str, ...]  # enum names or "Player"
    kind: str  # stack, pile, row, bag, grid
    visibility: str  # public, owner, hidden
    capacity: Expr | None
    span: Span
    grid: GridSize | None = None


@attrs.frozen
class VarDef:
    name: str
    dims: tuple[str, ...]
    init: Expr
    span: Span


@attrs.frozen
class ConstDef:
    name: str
    value: Expr
    span: Span


@attrs.frozen
class OptionDef:
    """An option as declared; its values are worked out when the compiled rules load."""

    name: str
    default: Expr
    choices: Expr | None
    span: Span


@attrs.frozen
class FuncDef:
    name: str
    params: tuple[Bound, ...]
    body: Expr
    span: Span


@attrs.frozen
class ScoreDef:
    """A score or tiebreak: an expression of one player, `param`."""

    param: str
    expr: Expr
    span: Span


# Instructions. Each carries the span of the rule it comes from, for runtime errors.
@attrs.frozen
class Let:
    span: Span
    name: str
    value: Expr


@attrs.frozen
class SetLocal:
    span: Span
    name: str
    op: str  # "=", "+=", "-="
    value: Expr


@attrs.frozen
class SetVar:
    span: Span
    var: str
    args: tuple[Expr, ...]
    op: str
    value: Expr


@attrs.frozen
class MovePieces:
    """`move [amount of] pieces to dest [top|bottom]`."""

    span: Span
    pieces: Expr
    amount: Expr | None
    dest: ZoneRef
    end: str | None
    drawn: bool  # the first pieces of a zone, not named ones: from a bag, a draw
    limited: bool  # the destination has a capacity: the move may be a dead end


@attrs.frozen
class Shuffle:
    span: Span
    zone: ZoneRef


@attrs.frozen
class KeywordArg:
    name: str
    value: Expr


@attrs.frozen
class Create:
    span: Span
    type: str
    fors: tuple[CompFor, ...]
    count: Expr
    kwargs: tuple[KeywordArg, ...]
    dest: ZoneRef


@attrs.frozen
class Log:
    span: Span
    message: str
    args: tuple[Expr, ...]


@attrs.frozen
class Peek:
    span: Span
    pieces: Expr
    player: Expr


@attrs.frozen
class Reveal:
    span: Span
    pieces: Expr


@attrs.frozen
class Place:
    span: Span
    piece: Expr
    zone: ZoneRef
    cells: Expr


@attrs.frozen
class Jump:
    span: Span
    target: int


@attrs.frozen
class JumpIfNot:
    span: Span
    cond: Expr
    target: int


@attrs.frozen
class IterInit:
    """Starts a `for` (over `items`) or a `repeat` (`count` times) kept in local `slot`."""

    span: Span
    slot: str
    items: Expr | None
    count: Expr | None


@attrs.frozen
class IterNext:
    span: Span
    slot: str
    var: str
    end: int


@attrs.frozen
class CallProc:
    span: Span
    proc: str
    args: tuple[Expr, ...]


@attrs.frozen
class Return:
    span: Span


@attrs.frozen
class Choose:
    """A decision over values. `total` means the enclosing condition proves its domain non-empty."""

    span: Span
    var: str
    domain: Expr
    by: Expr | None
    optional: str | None
    prompt: str
    total: bool


@attrs.frozen
class BranchOption:
    name: str
    when: Expr | None
    target: int
    otherwise: bool


@attrs.frozen
class Branch:
    """A decision among named options, each jumping to its block."""

    span: Span
    options: tuple[BranchOption, ...]
    by: Expr | None
    prompt: str


@attrs.frozen
class Require:
    span: Span
    cond: Expr
    message: str


@attrs.frozen
class EndGame:
    span: Span
    reason: Expr


@attrs.frozen
class TurnBegin:
    span: Span
    player: Expr


@attrs.frozen
class TurnEnd:
    span: Span


Effect: TypeAlias = Let | SetLocal | SetVar | MovePieces | Shuffle | Create | Log | Peek | Reveal | Place
Instr: TypeAlias = (Effect | Jump | JumpIfNot | IterInit | IterNext | CallProc | Return | Choose | Branch
                    | Require | EndGame | TurnBegin | TurnEnd)
Decision: TypeAlias = Choose | Branch


@attrs.frozen
class Probe:
    """What may follow an instruction within its procedure: whether a dead end (a require, a
    move into a zone with a capacity, a decision that may have no option) is reachable, and
    whether the procedure's return is. Decisions with neither need no look-ahead."""

    fail: bool
    ret: bool


@attrs.frozen
class ProcDef:
    name: str
    params: tuple[str, ...]
    code: tuple[Instr, ...]
    probe: tuple[Probe, ...]
    span: Span


@attrs.frozen
class GameDef:
    """A checked ruleset: everything the compiler needs, nothing that runs."""

    name: str
    title: str
    min_players: int
    max_players: int
    enums: dict[str, EnumDef]
    components: dict[str, ComponentDef]
    zones: dict[str, ZoneDef]
    vars: dict[str, VarDef]
    consts: dict[str, ConstDef]
    options: dict[str, OptionDef]
    funcs: dict[str, FuncDef]
    procs: dict[str, ProcDef]
    score: ScoreDef | None
    tiebreaks: tuple[ScoreDef, ...]
    warnings: tuple[Diagnostic, ...] = ()
    sources: dict[str, SourceFile] = attrs.field(factory=dict, repr=False)
