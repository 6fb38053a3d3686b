"""The AST node classes (made by one metaclass in lang/ast.py, not by attrs) and the walks over trees.

A node is built by keyword only, is frozen, and compares, hashes and prints by its class and
fields; `too_deep` finds the same node as a plain depth-first search over every rule file.
"""

from __future__ import annotations

import contextlib
import copy
import pickle
from pathlib import Path

import pytest
from attrs.exceptions import FrozenInstanceError

from boardkit.errors import RuleError
from boardkit.lang import ast
from boardkit.lang.parse import parse
from boardkit.source import SourceFile, Span

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(p for p in [*ROOT.glob("rulesets/*.bk"), *ROOT.glob("examples/*.bk"), *ROOT.glob("benchmarks/*.bk"),
                           *ROOT.glob("tests/**/*.bk")])
AT = Span("f.bk", 1, 2, 1, 5)


def test_a_node_is_built_by_keyword_with_its_defaults() -> None:
    zone = ast.ZoneDecl(span=AT, name="deck", dims=(), kind=None, visibility="hidden", capacity=None)
    assert (zone.name, zone.visibility, zone.grid) == ("deck", "hidden", None)
    assert ast.ComponentDecl(span=AT, name="Card", fields=(), label=None).parts is None
    with pytest.raises(TypeError, match="positional"):
        ast.Num(AT, 3)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="missing 1 required keyword-only argument: 'value'"):
        ast.Num(span=AT)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        ast.Name(span=AT, name="x", colour=1)  # type: ignore[call-arg]


def test_a_node_is_frozen_and_has_no_dict() -> None:
    node = ast.Name(span=AT, name="x")
    with pytest.raises(FrozenInstanceError):
        node.name = "y"  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del node.name
    assert not hasattr(node, "__dict__")
    assert node.name == "x"


def test_equality_hash_and_repr_follow_class_and_fields() -> None:
    a = ast.Binary(span=AT, op="+", left=ast.Num(span=AT, value=1), right=ast.Name(span=AT, name="x"))
    same = ast.Binary(span=AT, op="+", left=ast.Num(span=AT, value=1), right=ast.Name(span=AT, name="x"))
    other = ast.Binary(span=AT, op="-", left=ast.Num(span=AT, value=1), right=ast.Name(span=AT, name="x"))
    assert a == same
    assert hash(a) == hash(same)
    assert a != other
    # The same fields in another class: not equal.
    assert ast.Str(span=AT, value="x") != ast.Name(span=AT, name="x")
    assert ast.It(span=AT) != ast.NoneLit(span=AT)
    assert repr(ast.Num(span=AT, value=7)) == (
        "Num(span=Span(filename='f.bk', line=1, column=2, end_line=1, end_column=5), value=7)")


def test_a_node_copies_and_pickles_whole() -> None:
    node = ast.ComponentDecl(span=AT, name="Card", fields=(("colour", "Colour", AT),),
                             label=ast.Attr(span=AT, obj=ast.It(span=AT), attr="colour"))
    for twin in [copy.copy(node), copy.deepcopy(node), pickle.loads(pickle.dumps(node))]:  # noqa: S301 - our own bytes
        assert twin == node
        assert type(twin) is ast.ComponentDecl
        assert twin.parts is None
    assert copy.deepcopy(node).label is not node.label


def test_child_fields_are_the_fields_but_the_span() -> None:
    assert ast.child_fields(ast.Move) == ("amount", "pieces", "end", "dest")
    assert ast.child_fields(ast.Break) == ()
    assert ast.child_fields(Span) is None
    assert ast.child_fields(tuple) is None


def _first_too_deep(root: object, limit: int) -> object | None:
    """The search `too_deep` stands for: depth first, last child first, a node's depth its number of node ancestors."""
    stack = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, tuple):
            stack += [(x, depth) for x in node]
            continue
        names = ast.child_fields(type(node))
        if names is not None:
            if depth > limit:
                return node
            stack += [(getattr(node, name), depth + 1) for name in names]
    return None


def _trees() -> list[ast.RuleFile]:
    trees = []
    for path in FILES:
        with contextlib.suppress(RuleError):  # files of errors that do not parse
            trees.append(parse(SourceFile(path.read_text(encoding="utf-8", errors="replace"), str(path))))
    return trees


def test_too_deep_finds_the_node_a_depth_first_search_finds() -> None:
    trees = _trees()
    assert len(trees) > 40
    found = 0
    for tree in trees:
        for limit in range(20):
            expected = _first_too_deep(tree, limit)
            assert ast.too_deep(tree, limit) is expected
            found += expected is not None
    assert found > 100  # most limits here are below the trees' depths


def test_too_deep_on_a_deep_chain() -> None:
    node: ast.Expr = ast.Num(span=AT, value=0)
    for k in range(60):
        node = ast.Unary(span=Span("f.bk", k + 2, 1), op="-", operand=node)
    root = ast.RuleFile(span=AT, items=(ast.ConstDecl(span=AT, name="X", value=node),))
    deep = ast.too_deep(root, 50)
    assert deep is not None
    assert deep is _first_too_deep(root, 50)
    # Depth 51: under the file, the constant and 49 minus signs, the outermost (line 61) first.
    assert deep.span.line == 61 - 49
    assert ast.too_deep(root, 62) is None


def test_walk_gives_every_node_in_source_order() -> None:
    tree = parse(SourceFile("const A = [1, x.y, f(2)]\nfunc g(p) = p + 1\n", "w.bk"))
    names = [type(n).__name__ for n in ast.walk(tree)]
    assert names == ["RuleFile", "ConstDecl", "ListLit", "Num", "Attr", "Name", "Call", "Num",
                     "FuncDecl", "Binary", "Name", "Num"]
