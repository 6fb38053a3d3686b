"""Warnings for rule files that check but are probably wrong.

Unused declarations, procedures never called, conditions that can never hold, a game that can
never end. Only declarations of the file being checked are reported: a variant is not blamed
for the parts of its base it leaves unused. Lint reads the checked model; it runs nothing.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any

from boardkit.errors import Diagnostic
from boardkit.lang import ast
from boardkit.lang.parse import keyword_names
from boardkit.model import defs as d
from boardkit.model import expr as m

if TYPE_CHECKING:
    from collections.abc import Callable

    from boardkit.source import Span

_KINDS = {ast.ZoneDecl: "zone", ast.VarDecl: "variable", ast.OptionDecl: "option", ast.FuncDecl: "function",
          ast.ConstDecl: "constant"}


def lint(items: list[ast.Decl], game: d.GameDef, used: set[str], main_file: str) -> list[Diagnostic]:
    """Returns warnings about the declarations of `main_file` that are probably mistakes.

    Args:
        items: the merged declarations the checker read.
        game: the checked model built from them.
        used: the global names some rule refers to.
        main_file: the file being checked; declarations of the files it extends are not reported.
    """
    warnings: list[Diagnostic] = []

    def warn(span: Span, msg: str) -> None:
        if span.filename == main_file:
            warnings.append(Diagnostic(span, msg, "warning"))

    for item in items:
        if isinstance(item, (ast.ZoneDecl, ast.VarDecl, ast.OptionDecl, ast.FuncDecl, ast.ConstDecl)) and (
                item.name not in used):
            warn(item.span, f"{_KINDS[type(item)]} {item.name!r} is declared but never used")
    _lint_names(items, warn)
    reached = _reached(game)
    _lint_procs(items, game, reached, warn)
    _lint_conditions(game, reached, warn)
    return warnings


def _lint_names(items: list[ast.Decl], warn: Callable[[Span, str], None]) -> None:
    """Warns of names that are also keywords.

    They are legal where the grammar expects a name, but read wrongly and give confusing errors
    elsewhere.
    """
    named: list[tuple[str, Span]] = []
    for item in items:
        # Zones may take the name of their kind (`zone bag: bag`): that reads as it means.
        if isinstance(item, (ast.VarDecl, ast.OptionDecl, ast.FuncDecl, ast.ConstDecl, ast.ProcDecl)) and (
                item.name not in ("setup", "play")):
            named.append((item.name, item.span))
        if isinstance(item, (ast.FuncDecl, ast.ProcDecl)):
            named.extend((p, item.span) for p in item.params)
        if isinstance(item, ast.ProcDecl):
            nodes = list(ast.walk(item.body))
            named.extend((n.name, n.span) for n in nodes if isinstance(n, ast.Let))
            named.extend((n.var, n.span) for n in nodes if isinstance(n, (ast.For, ast.Choose)))
    keywords = keyword_names()
    for name, span in named:
        if name in keywords:
            warn(span, f"{name!r} is a keyword of the rule language; "
                       "another name reads better and avoids confusing errors")


def _reached(game: d.GameDef) -> set[str]:
    """Returns the procedures that setup and play call, directly or not, and those two."""
    reached: set[str] = set()
    todo: list[str] = [p for p in ("setup", "play") if p in game.procs]
    while todo:
        name = todo.pop()
        if name in reached:
            continue
        reached.add(name)
        todo.extend(i.proc for i in game.procs[name].code if isinstance(i, d.CallProc))
    return reached


def _lint_procs(items: list[ast.Decl], game: d.GameDef, reached: set[str], warn: Callable[[Span, str], None]) -> None:
    """Warns of procedures never called, and of a game that no reachable `end game` ends."""
    procs = [i for i in items if isinstance(i, ast.ProcDecl)]
    for p in procs:
        if p.name not in reached:
            warn(p.span, f"procedure {p.name!r} is never called from setup or play")
    if "play" in game.procs and not any(isinstance(i, d.EndGame) for name in reached for i in game.procs[name].code):
        play = next(p for p in procs if p.name == "play")
        warn(play.span, "the game can never end: no 'end game' is reachable from play")


def _lint_conditions(game: d.GameDef, reached: set[str], warn: Callable[[Span, str], None]) -> None:
    """Warns of conditions that fold to false with the variables no statement ever sets."""
    assigned = {i.var for p in game.procs.values() for i in p.code if isinstance(i, d.SetVar)}
    known: dict[str, object] = {}
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


_UNKNOWN = object()
_BINARY: dict[str, Callable[[Any, Any], object]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "==": operator.eq, "!=": operator.ne, "<": operator.lt,
    "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}


def _fold(node: m.Expr, known: dict[str, object], game: d.GameDef) -> object:  # noqa: PLR0911
    """Returns the value of `node` if the rules alone fix it, else _UNKNOWN.

    Literals, never-set variables, constants and the operators on them are fixed.
    """
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
        return _fold_binary(node, known, game)
    if isinstance(node, m.BoolOp):
        return _fold_bool_op(node, known, game)
    return _UNKNOWN


def _fold_binary(node: m.Binary, known: dict[str, object], game: d.GameDef) -> object:
    left, right = _fold(node.left, known, game), _fold(node.right, known, game)
    if left is _UNKNOWN or right is _UNKNOWN or type(left) is not type(right):
        return _UNKNOWN
    try:
        return _BINARY[node.op](left, right)
    except TypeError:
        return _UNKNOWN


def _fold_bool_op(node: m.BoolOp, known: dict[str, object], game: d.GameDef) -> object:
    """Folds `and` and `or` to false when that is certain; never to true (a lint only needs false)."""
    values = [_fold(v, known, game) for v in node.values]
    if node.op == "and" and any(v is not _UNKNOWN and not v for v in values):
        return False
    if node.op == "or" and values and all(v is not _UNKNOWN and not v for v in values):
        return False
    return _UNKNOWN
