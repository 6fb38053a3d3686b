"""The checked, compiled model of a ruleset: immutable definitions plus per-procedure code.

Expressions are Python closures `f(state, locals)` built once by the compiler; procedures are
flat instruction lists, so that where a procedure stands is plain data (a program counter).
"""

from __future__ import annotations

from typing import Any, Callable

import attrs

from boardkit.source import Span

Expr = Callable[[Any, dict], Any]

# Instruction opcodes.
EXEC, JUMP, JUMP_IF_NOT, ITER_INIT, ITER_NEXT, CALL, RETURN, CHOOSE, BRANCH, REQUIRE, END, TURN_BEGIN, TURN_END = range(13)


@attrs.frozen
class EnumDef:
    name: str
    members: tuple[str, ...]


@attrs.frozen
class ComponentDef:
    name: str
    fields: tuple[tuple[str, str], ...]  # (attribute, enum name or int/bool/str)
    label: Expr | None
    parts: Expr | None = None  # what a piece shows on each grid cell it covers (a list)


@attrs.frozen
class ZoneDef:
    """A zone family: one zone per combination of its index values."""

    name: str
    dims: tuple[str, ...]  # enum names or "Player"
    kind: str  # stack, pile, row, bag, grid
    visibility: str  # public, owner, hidden
    capacity: Expr | None
    span: Span
    grid: tuple[Expr, Expr] | None = None  # a grid zone's width and height (docs/reference/grid.md)


@attrs.frozen
class VarDef:
    name: str
    dims: tuple[str, ...]
    init: Expr
    span: Span


@attrs.frozen
class OptionDef:
    """A named option of a ruleset; `choices` is None when any value of the default's type goes."""

    name: str
    default: Any
    choices: tuple | None = None


@attrs.frozen
class ChooseInfo:
    """A decision over values. `total` means the enclosing condition proves its domain non-empty."""

    var: str
    domain: Expr
    by: Expr | None
    optional: str | None
    prompt: str
    span: Span
    total: bool = False


@attrs.frozen
class BranchInfo:
    names: tuple[str, ...]
    whens: tuple[Expr | None, ...]
    targets: tuple[int, ...]
    otherwise: tuple[bool, ...]
    by: Expr | None
    prompt: str
    span: Span


@attrs.define
class ProcCode:
    """A procedure compiled to instructions; `probe[pc]` says whether a decision at pc needs look-ahead."""

    name: str
    params: tuple[str, ...]
    code: list[tuple] = attrs.field(factory=list)
    spans: list[Span] = attrs.field(factory=list)
    probe: list[bool] = attrs.field(factory=list)


@attrs.frozen
class GameDef:
    name: str
    title: str
    min_players: int
    max_players: int
    enums: dict[str, EnumDef]
    components: dict[str, ComponentDef]
    zones: dict[str, ZoneDef]
    vars: dict[str, VarDef]
    consts: dict[str, Any]
    options: dict[str, OptionDef]
    procs: dict[str, ProcCode]
    score: Expr | None
    tiebreaks: tuple[Expr, ...]
    warnings: tuple = ()
    sources: dict = attrs.field(factory=dict, repr=False)
