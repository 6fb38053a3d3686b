"""House rules of the code base, checked: one-way layers (the import-linter contracts in
pyproject.toml), no import cycles, no reaching into another module's private names, no game
names in the engine, and the README's example runs."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import grimp
from importlinter.cli import lint_imports

ROOT = Path(__file__).parents[1]
SRC = ROOT / "src" / "boardkit"


def test_the_layer_contracts_are_kept() -> None:
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True) == 0


def test_no_module_imports_itself_through_others() -> None:
    graph = grimp.build_graph("boardkit", exclude_type_checking_imports=True)
    cycles = []
    for module in sorted(graph.modules):
        for imported in graph.find_modules_directly_imported_by(module):
            if imported != module and graph.find_shortest_chain(importer=imported, imported=module):
                cycles.append((module, imported))
    assert cycles == []


def _private_uses(path: Path) -> list[str]:
    """`x._name` where x is not self or cls, and `from m import _name`, unless the same module
    defines `_name` itself."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    defined = {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    defined |= {t.attr for n in ast.walk(tree) if isinstance(n, ast.Assign) for t in n.targets
                if isinstance(t, ast.Attribute)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("boardkit"):
            found += [f"{node.module}.{a.name}" for a in node.names if a.name.startswith("_") and a.name != "__version__"]
        elif (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
              and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
              and node.attr not in defined):
            found.append(f"line {node.lineno}: .{node.attr}")
    return found


def test_no_module_reaches_into_another_modules_private_names() -> None:
    offenders = {str(p.relative_to(SRC)): uses for p in sorted(SRC.rglob("*.py")) if (uses := _private_uses(p))}
    assert offenders == {}


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
