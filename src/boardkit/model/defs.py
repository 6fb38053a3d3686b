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
    """`enum Colour { red, blue }`: a named list of members, in declared order."""

    name: str
    members: tuple[str, ...]


@attrs.frozen
class Field:
    """An attribute of a component: its name and type (an enum name, or int, bool, str)."""

    name: str
    type: str


@attrs.frozen
class ComponentDef:
    """`component Card { colour: Colour, value: int }`: a kind of piece, its attributes and label."""

    name: str
    fields: tuple[Field, ...]
    # Evaluated with `it` bound to the piece.
    it: Bound
    label: Expr | None
    parts: Expr | None  # what a piece shows on each grid cell it covers (a list)
    span: Span


@attrs.frozen
class GridSize:
    """The `grid(w, h)` of a grid zone: its width and height, evaluated when a game starts."""

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
    """`var score[Player] = 0`: a variable family, one value per combination of its indexes."""

    name: str
    dims: tuple[str, ...]  # enum names, "Player", or ranges of numbers as "low..high"
    init: Expr
    span: Span


def number_range(dim: str) -> range | None:
    """The numbers a variable's index `low..high` stands for (both included); None for a name."""
    low, sep, high = dim.partition("..")
    return range(int(low), int(high) + 1) if sep else None


@attrs.frozen
class ConstDef:
    """`const HAND = 5`: a constant, worked out from the rules alone."""

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
    #: The comment right above the declaration, shown to users choosing the option.
    doc: str = ""


@attrs.frozen
class FuncDef:
    """`func double(x) = x * 2`: a function of the rules, an expression of its parameters."""

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


@attrs.frozen
class InvariantDef:
    """`invariant "name" [for p in players] : expr`: a truth checked after every decision when asked.

    `param` is the player's name for a `for p in players` invariant, a local of its expression.
    """

    name: str
    param: str | None
    expr: Expr
    span: Span


# Instructions. Each carries the span of the rule it comes from, for runtime errors.
@attrs.frozen
class Let:
    """`let x = e`: binds a new local."""

    span: Span
    name: str
    value: Expr


@attrs.frozen
class SetLocal:
    """`set x = e` (or `+=`, `-=`) on a local."""

    span: Span
    name: str
    op: str  # "=", "+=", "-="
    value: Expr


@attrs.frozen
class SetVar:
    """`set score[p] += e` on a variable; `args` index it.

    `item`, when given, is the position (from 1) of the item of its list that is set:
    `set heights[x] += 1`.
    """

    span: Span
    var: str
    args: tuple[Expr, ...]
    op: str
    value: Expr
    item: Expr | None = None


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
    """`shuffle deck`: puts a zone's pieces in a random order."""

    span: Span
    zone: ZoneRef


@attrs.frozen
class KeywordArg:
    """`colour: c` in `create`: the value of one attribute of the pieces created."""

    name: str
    value: Expr


@attrs.frozen
class Create:
    """`create n Card(colour: c) for c in Colour into deck`: makes new pieces in a zone."""

    span: Span
    type: str
    fors: tuple[CompFor, ...]
    count: Expr
    kwargs: tuple[KeywordArg, ...]
    dest: ZoneRef


@attrs.frozen
class Log:
    """`log "message", x, y`: adds a message to the game's events."""

    span: Span
    message: str
    args: tuple[Expr, ...]


@attrs.frozen
class Peek:
    """`peek PIECES by PLAYER`: that player now knows those pieces."""

    span: Span
    pieces: Expr
    player: Expr


@attrs.frozen
class Reveal:
    """`reveal PIECES`: every player now knows those pieces."""

    span: Span
    pieces: Expr


@attrs.frozen
class Place:
    """`place PIECE on GRID at CELLS`: one piece onto cells of a grid zone."""

    span: Span
    piece: Expr
    zone: ZoneRef
    cells: Expr


@attrs.frozen
class Jump:
    """Goes on at instruction `target`."""

    span: Span
    target: int


@attrs.frozen
class JumpIfNot:
    """Goes on at instruction `target` unless `cond` holds."""

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
    """Binds `var` to the next item of the iteration in local `slot`, or jumps to `end` when none is left."""

    span: Span
    slot: str
    var: str
    end: int


@attrs.frozen
class CallProc:
    """`name(args)` as a statement: runs a procedure of the rules, then goes on."""

    span: Span
    proc: str
    args: tuple[Expr, ...]


@attrs.frozen
class Return:
    """`return`: leaves the running procedure (every procedure also ends with one)."""

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
    """One option of a `Branch`: its name, the condition that offers it and where its block starts."""

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
    """`require cond "message"`: a turn where `cond` fails is a dead end, never offered."""

    span: Span
    cond: Expr
    message: str


@attrs.frozen
class EndGame:
    """`end game reason`: ends the game with that reason."""

    span: Span
    reason: Expr


@attrs.frozen
class TurnBegin:
    """The start of a `turn PLAYER { ... }` block: that player's turn begins."""

    span: Span
    player: Expr


@attrs.frozen
class TurnEnd:
    """The end of a `turn` block: the turn ends."""

    span: Span


Effect: TypeAlias = Let | SetLocal | SetVar | MovePieces | Shuffle | Create | Log | Peek | Reveal | Place
Instr: TypeAlias = (Effect | Jump | JumpIfNot | IterInit | IterNext | CallProc | Return | Choose | Branch
                    | Require | EndGame | TurnBegin | TurnEnd)
Decision: TypeAlias = Choose | Branch


@attrs.frozen
class Probe:
    """What may follow an instruction within its procedure.

    Whether a dead end (a require, a move into a zone with a capacity, a decision that may have
    no option) is reachable, and whether the procedure's return is. Decisions with neither need
    no look-ahead.
    """

    fail: bool
    ret: bool
    here: bool = False  # the instruction itself may be a dead end

    def below_callee(self, *, below: bool) -> bool:
        """Whether a dead end may follow, in the turn, once a procedure called here returns.

        `below`: the same of the calling frame. A call where the caller may fail after it
        passes True, one after which the caller cannot return passes False, else the caller's.
        """
        return self.fail or (self.ret and below)


@attrs.frozen
class ProcDef:
    """A procedure (`setup`, `play` or `proc name(params)`) as flat instructions, with a `Probe` per instruction."""

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
    invariants: tuple[InvariantDef, ...] = ()
    warnings: tuple[Diagnostic, ...] = ()
    sources: dict[str, SourceFile] = attrs.field(factory=dict, repr=False)
    #: `heuristic p = ...`: how good the game looks for a player, for agents; None: the score.
    heuristic: ScoreDef | None = None
