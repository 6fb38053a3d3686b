"""Variants: a rule file may extend another and replace only the parts it names."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeAlias

from boardkit.errors import Diagnostic, RuleError
from boardkit.lang import ast
from boardkit.lang.limits import MAX_NESTING
from boardkit.lang.parse import parse
from boardkit.source import SourceFile

#: Finds the file an `extends` names, given the name and the extending file's name.
Resolver: TypeAlias = Callable[[str, str], Path | None]

# How long a chain of `extends` may be before it counts as a cycle.
MAX_EXTENDS = 8


def _key(item: ast.Decl) -> tuple[str, str]:
    if isinstance(item, ast.Score):
        return (item.kind, "")
    if isinstance(item, ast.Invariant):  # a variant replaces an invariant of the same name
        return ("invariant", item.name)
    if isinstance(item, (ast.GameDecl, ast.PlayersDecl, ast.Extends)):
        return (type(item).__name__, "")
    return ("name", item.name)


def load_items(source: SourceFile, resolve: Resolver, sources: dict[str, SourceFile],
               diags: list[Diagnostic], depth: int = 0) -> list[ast.Decl]:
    """Returns the declarations of a rule file with those of the file it extends merged in."""
    sources[source.filename] = source
    tree = parse(source)
    deep = ast.too_deep(tree, MAX_NESTING)
    if deep is not None:
        msg = (f"the rules nest more than {MAX_NESTING} levels deep here (blocks and expressions); "
               "name a part with 'func' or 'proc'")
        raise RuleError([Diagnostic(deep.span, msg)], source)
    own: dict[tuple[str, str], ast.Decl] = {}
    tiebreaks: list[ast.Score] = []
    base: list[ast.Decl] = []
    for item in tree.items:
        if isinstance(item, ast.Extends):
            loaded = _base_items(item, source.filename, resolve, sources, diags, depth=depth)
            if loaded is not None:
                base = loaded
            continue
        if isinstance(item, ast.Score) and item.kind == "tiebreak":
            tiebreaks.append(item)
            continue
        key = _key(item)
        if key in own:
            what = getattr(item, "name", key[0])
            diags.append(Diagnostic(item.span, f"{what!r} is declared twice (first at {own[key].span})"))
        own[key] = item
    merged: dict[tuple[str, str], ast.Decl] = {}
    base_tiebreaks = [i for i in base if isinstance(i, ast.Score) and i.kind == "tiebreak"]
    for item in base:
        if not (isinstance(item, ast.Score) and item.kind == "tiebreak"):
            merged[_key(item)] = item
    merged.update(own)
    return [*merged.values(), *(tiebreaks or base_tiebreaks)]


def _base_items(item: ast.Extends, filename: str, resolve: Resolver, sources: dict[str, SourceFile],
                diags: list[Diagnostic], *, depth: int) -> list[ast.Decl] | None:
    """Returns the declarations of the ruleset `item` extends; None, with a diagnostic, if none can be read."""
    path = resolve(item.target, filename)
    if path is None:
        diags.append(Diagnostic(item.span, f"cannot find ruleset {item.target!r} to extend"))
        return None
    if depth > MAX_EXTENDS:
        diags.append(Diagnostic(item.span, "rulesets extend each other in a cycle"))
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        diags.append(Diagnostic(item.span, f"cannot read {str(path)!r} to extend: {exc}"))
        return None
    return load_items(SourceFile(text, str(path)), resolve, sources, diags, depth + 1)
