"""Warnings for rule files that compile but are probably wrong: unused declarations,
procedures never called, conditions that can never hold, a game that can never end.

Only declarations of the file being checked are reported: a variant is not blamed for the
parts of its base it leaves unused.
"""

from __future__ import annotations

from typing import Any

from boardkit import ast
from boardkit.errors import Diagnostic
from boardkit.exprs import ConstState, ConstVars, ExprCompiler
from boardkit.model import CALL, END, GameDef

_KINDS = {ast.ZoneDecl: "zone", ast.VarDecl: "variable", ast.OptionDecl: "option", ast.FuncDecl: "function",
          ast.ConstDecl: "constant"}


def lint(items: list[Any], game: GameDef, ex: ExprCompiler, main_file: str) -> list[Diagnostic]:
    warnings: list[Diagnostic] = []

    def warn(span: Any, msg: str) -> None:
        if span.filename == main_file:
            warnings.append(Diagnostic(span, msg, "warning"))

    for item in items:
        kind = _KINDS.get(type(item))
        if kind and item.name not in ex.used:
            warn(item.span, f"{kind} {item.name!r} is declared but never used")

    # Procedures that nothing reachable from setup and play calls.
    reached, todo = set(), [p for p in ("setup", "play") if p in game.procs]
    while todo:
        name = todo.pop()
        if name in reached:
            continue
        reached.add(name)
        todo.extend(i[1] for i in game.procs[name].code if i[0] == CALL)
    procs = [i for i in items if isinstance(i, ast.ProcDecl)]
    for p in procs:
        if p.name not in reached:
            warn(p.span, f"procedure {p.name!r} is never called from setup or play")
    if "play" in game.procs and not any(i[0] == END for name in reached for i in game.procs[name].code):
        play = next(p for p in procs if p.name == "play")
        warn(play.span, "the game can never end: no 'end game' is reachable from play")

    # Conditions that fold to false with the variables no statement ever sets.
    assigned = {n.name for p in procs for n in ast.walk(p.body) if isinstance(n, ast.Set)}
    consts: dict[str, Any] = {}
    for item in items:
        if isinstance(item, ast.VarDecl) and not item.dims and item.name not in assigned:
            try:
                consts[item.name] = ex.compile(item.init, set())(ConstState({}), {})
            except Exception:  # noqa: BLE001, S112 - not a constant initial value
                continue
    state = ConstState(consts)
    for p in procs:
        if p.name not in reached:
            continue
        for node in ast.walk(p.body):
            conds = []
            if isinstance(node, ast.If):
                conds = [c for c, _ in node.branches]
            elif isinstance(node, ast.While):
                conds = [node.cond]
            elif isinstance(node, ast.Branch) and node.when is not None:
                conds = [node.when]
            for cond in conds:
                if _always_false(ex, cond, state):
                    warn(cond.span, "this condition can never hold, so what it guards never happens")
    return warnings


def _always_false(ex: ExprCompiler, cond: Any, state: ConstState) -> bool:
    globals_ = {*ex.sym.all_names(), *ex.sym.members, "Player"}
    if any(isinstance(n, ast.Name) and n.name not in globals_ for n in ast.walk(cond)):
        return False  # it reads locals: not a constant
    before = len(ex.diags)
    try:
        fn = ex.compile(cond, set())
        if len(ex.diags) > before:  # it reads locals: not a constant
            return False
        return not fn(state, ConstVars())
    except Exception:  # noqa: BLE001 - anything not foldable is not constant
        return False
    finally:
        del ex.diags[before:]
