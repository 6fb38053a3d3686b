"""House rules of the code base, checked: one-way imports, lark behind the parser, no game
names in the engine, and the README's example runs."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).parents[1]
SRC = ROOT / "src" / "boardkit"


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_only_the_parser_modules_import_lark() -> None:
    users = {p.name for p in SRC.glob("*.py") if any(m.split(".")[0] == "lark" for m in imports(p))}
    assert users <= {"parse.py", "ast_build.py"}


def test_the_front_end_never_imports_the_runtime() -> None:
    front = ["source", "errors", "parse", "ast", "ast_build", "exprs", "compiler", "model", "lint"]
    runtime = {"boardkit.state", "boardkit.interpreter", "boardkit.game", "boardkit.ruleset", "boardkit.serialize",
               "boardkit.position", "boardkit.simulate", "boardkit.cli"}
    for name in front:
        assert not imports(SRC / f"{name}.py") & runtime, name


def test_no_game_is_named_in_the_engine() -> None:
    pattern = re.compile(r"mandala|ananda|chakra|meenakshi", re.IGNORECASE)
    offenders = [p.name for p in SRC.rglob("*") if p.is_file() and p.suffix in {".py", ".lark"}
                 and pattern.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


def test_readme_example_runs() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.DOTALL)
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})  # noqa: S102
