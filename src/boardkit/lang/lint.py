"""Warnings for rule files that check but are probably wrong: unused declarations,
procedures never called, conditions that can never hold, a game that can never end.

Only declarations of the file being checked are reported: a variant is not blamed for the
parts of its base it leaves unused. Lint reads the checked model; it runs nothing.
"""

from __future__ import annotations

import operator
from typing import Any

from boardkit.errors import Diagnostic
from boardkit.lang import ast
from boardkit.model import defs as d
from boardkit.model import expr as m

_KINDS = {ast.ZoneDecl: "zone", ast.VarDecl: "variable", ast.OptionDecl: "option", ast.FuncDecl: "function",
          ast.ConstDecl: "constant"}


def lint(items: list[Any], game: d.GameDef, used: set[str], main_file: str) -> list[Diagnostic]:
    warnings: list[Diagnostic] = []

    def warn(span: Any, msg: str) -> None:
        if span.filename == main_file:
            warnings.append(Diagnostic(span, msg, "warning"))

    for item in items:
        kind = _KINDS.get(type(item))
        if kind and item.name not in used:
            warn(item.span, f"{kind} {item.name!r} is declared but never used")

    # Procedures that nothing reachable from setup and play calls.
    reached: set[str] = set()
    todo = [p for p in ("setup", "play") if p in game.procs]
    while todo:
        name = todo.pop()
        if name in reached:
            continue
        reached.add(name)
        todo.extend(i.proc for i in game.procs[name].code if isinstance(i, d.CallProc))
    procs = [i for i in items if isinstance(i, ast.ProcDecl)]
    for p in procs:
        if p.name not in reached:
            warn(p.span, f"procedure {p.name!r} is never called from setup or play")
    if "play" in game.procs and not any(isinstance(i, d.EndGame) for name in reached for i in game.procs[name].code):
        play = next(p for p in procs if p.name == "play")
        warn(play.span, "the game can never end: no 'end game' is reachable from play")

    # Conditions that fold to false with the variables no statement ever sets.
    assigned = {i.var for p in game.procs.values() for i in p.code if isinstance(i, d.SetVar)}
    known: dict[str, Any] = {}
    for v in game.vars.values():
        if not v.dims and v.name not in assigned:
            value = _fold(v.init, {}, game)
            if value is not _UNKNOWN:
                known[v.name] = value
    for name in reached:
        for ins in game.procs[name].code:
            conds: list[m.Expr] = []
            if isinstance(ins, d.JumpIfNot):
                conds = [ins.cond]
            elif isinstance(ins, d.Branch):
                conds = [o.when for o in ins.options if o.when is not None]
            for cond in conds:
                if _fold(cond, known, game) is False:
                    warn(cond.span, "this condition can never hold, so what it guards never happens")
    return warnings


_UNKNOWN = object()
_BINARY = {"+": operator.add, "-": operator.sub, "*": operator.mul, "==": operator.eq, "!=": operator.ne,
           "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def _fold(node: m.Expr, known: dict[str, Any], game: d.GameDef) -> Any:  # noqa: PLR0911
    """The value of `node` if the rules alone fix it (literals, never-set variables, constants
    and the operators on them), else _UNKNOWN."""
    if isinstance(node, m.Lit):
        return node.value
    if isinstance(node, m.VarRef) and not node.args:
        return known.get(node.name, _UNKNOWN)
    if isinstance(node, m.ConstRef):
        return _fold(game.consts[node.name].value, known, game)
    if isinstance(node, m.Unary):
        inner = _fold(node.operand, known, game)
        if inner is _UNKNOWN:
            return _UNKNOWN
        return (not inner) if node.op == "not" else (-inner if isinstance(inner, int) else _UNKNOWN)
    if isinstance(node, m.Binary) and node.op in _BINARY:
        left, right = _fold(node.left, known, game), _fold(node.right, known, game)
        if left is _UNKNOWN or right is _UNKNOWN or type(left) is not type(right):
            return _UNKNOWN
        try:
            return _BINARY[node.op](left, right)
        except TypeError:
            return _UNKNOWN
    if isinstance(node, m.BoolOp):
        values = [_fold(v, known, game) for v in node.values]
        if node.op == "and" and any(v is not _UNKNOWN and not v for v in values):
            return False
        if node.op == "or" and values and all(v is not _UNKNOWN and not v for v in values):
            return False
    return _UNKNOWN
