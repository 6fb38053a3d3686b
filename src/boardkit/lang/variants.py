"""Variants: a rule file may extend another and replace only the parts it names."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from boardkit.errors import Diagnostic, RuleError
from boardkit.lang import ast
from boardkit.lang.parse import parse
from boardkit.source import SourceFile

Resolver = Callable[[str, str], Path | None]

# How deep blocks and expressions may nest: far beyond any real rule (the bundled games stay
# under 16), and shallow enough that compiling them cannot exhaust Python's stack.
MAX_NESTING = 50


def _key(item: Any) -> tuple[str, str]:
    if isinstance(item, ast.Score):
        return (item.kind, "")
    if isinstance(item, (ast.GameDecl, ast.PlayersDecl, ast.Extends)):
        return (type(item).__name__, "")
    return ("name", item.name)


def load_items(source: SourceFile, resolve: Resolver, sources: dict[str, SourceFile],
               diags: list[Diagnostic], depth: int = 0) -> list[Any]:
    """Returns the declarations of a rule file with those of the file it extends merged in."""
    sources[source.filename] = source
    tree = parse(source)
    deep = ast.too_deep(tree, MAX_NESTING)
    if deep is not None:
        msg = (f"the rules nest more than {MAX_NESTING} levels deep here (blocks and expressions); "
               "name a part with 'func' or 'proc'")
        raise RuleError([Diagnostic(deep.span, msg)], source)
    own: dict[tuple[str, str], Any] = {}
    tiebreaks: list[ast.Score] = []
    base: list[Any] = []
    for item in tree.items:
        if isinstance(item, ast.Extends):
            path = resolve(item.target, source.filename)
            if path is None:
                diags.append(Diagnostic(item.span, f"cannot find ruleset {item.target!r} to extend"))
            elif depth > 8:
                diags.append(Diagnostic(item.span, "rulesets extend each other in a cycle"))
            else:
                try:
                    text = path.read_text(encoding="utf-8")
                except (OSError, UnicodeDecodeError) as exc:
                    diags.append(Diagnostic(item.span, f"cannot read {str(path)!r} to extend: {exc}"))
                    continue
                base = load_items(SourceFile(text, str(path)), resolve, sources, diags, depth + 1)
            continue
        if isinstance(item, ast.Score) and item.kind == "tiebreak":
            tiebreaks.append(item)
            continue
        key = _key(item)
        if key in own:
            what = getattr(item, "name", key[0])
            diags.append(Diagnostic(item.span, f"{what!r} is declared twice (first at {own[key].span})"))
        own[key] = item
    merged: dict[tuple[str, str], Any] = {}
    base_tiebreaks = [i for i in base if isinstance(i, ast.Score) and i.kind == "tiebreak"]
    for item in base:
        if not (isinstance(item, ast.Score) and item.kind == "tiebreak"):
            merged[_key(item)] = item
    merged.update(own)
    return [*merged.values(), *(tiebreaks or base_tiebreaks)]
