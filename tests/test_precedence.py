"""Operator precedence and associativity, as docs/reference/language.md documents them.

The grammar parses an operator chain flat and the AST builder groups it by precedence, so these
tests pin the grouping twice: by the value the engine computes (each case gives another value
under any other grouping), and by the shape and spans of the tree.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

import boardkit
from boardkit.lang import ast
from boardkit.lang.parse import parse
from boardkit.source import SourceFile

# Each expression, and its value; the comment says which grouping would give another value.
VALUES = [
    ("2 + 3 * 4", 14),  # (2 + 3) * 4 = 20
    ("2 * 3 + 4", 10),  # 2 * (3 + 4) = 14
    ("10 - 4 - 3", 3),  # 10 - (4 - 3) = 9
    ("100 / 10 / 5", 2),  # 100 / (10 / 5) = 50
    ("17 % 5 * 2", 4),  # 17 % (5 * 2) = 7
    ("2 * 7 % 4", 2),  # 2 * (7 % 4) = 6
    ("20 / 3 * 3", 18),  # 20 / (3 * 3) = 2
    ("-3 % 5", 2),  # -(3 % 5) = -3
    ("- 2 + 3", 1),  # -(2 + 3) = -5
    ("- -4 - 1", 3),  # unary minus nests; binary minus after it
    ("2 - -3 * 2", 8),  # a unary minus after a binary operator
    ("1 + 1 == 2", True),  # 1 + (1 == 2) is not a number
    ("2 == 2 == 2", True),  # (2 == 2) == 2 is false: comparisons chain
    ("1 < 3 < 2", False),  # (1 < 3) < 2 is not comparable
    ("3 > 2 > 2", False),
    ("1 + 1 in [2]", True),  # 1 + (1 in [2]) is not a number
    ("3 not in [1, 2]", True),
    ("1 not in [1] == false", False),  # chains as 1 not in [1] and [1] == false
    ("not 1 == 2", True),  # (not 1) == 2 is not a boolean test
    ("not 3 in [3]", False),
    ("not true and false", False),  # not (true and false) = true
    ("not true or true", True),  # not (true or true) = false
    ("not not true", True),
    ("true or true and false", True),  # (true or true) and false = false
    ("false and true or true", True),  # false and (true or true) = false
    ("true and not false and true", True),
    ("[1, 2] + [3] where it > 1", [2, 3]),  # [1, 2] + ([3] where it > 1) = [1, 2, 3]
    ("range(1, 6) where it > 1 where it < 4", [2, 3]),
    ("[1, 2, 3] where it * 2 == 4", [2]),
    ("size([1, 2, 3] where it > 1) == 2 and true", True),
    ("not [1, 2] where it > 5 == [1]", True),  # not ([1, 2] where (it > 5) == [1])
    ("if true then 1 else 2 + 10", 1),  # (if true then 1 else 2) + 10 = 11
    ("if false then 1 else 2 + 10", 12),
    ("if false then 1 else if true then 2 else 3", 2),
    ("if true or false then 1 else 2", 1),
    ("if 1 > 2 then 1 else 2 * 3", 6),
    ("[x * 2 + 1 for x in [1, 2] if x + 1 == 3]", [5]),
    # Built-ins the compiler writes out at their calls group as calls (2 players: next(0) is 1).
    ("-next(0)", -1),  # -(0 + 1) % 2 = 1
    ("7 / next(0)", 7),  # 7 / (0 + 1) % 2 = 1
    ("-first([3, 4]) * 2", -6),
    ("10 / last([3, 5])", 2),
    ("-size([1, 2]) + 3", 1),
    ("not empty([]) or true", True),
]


def _evaluate(cases: list[tuple[str, object]]) -> list[object]:
    """The values of the expressions, computed by one game that stores each in a variable."""
    decls = "".join(f"var v{i} = none\n" for i in range(len(cases)))
    sets = "".join(f"  set v{i} = ({expr})\n" for i, (expr, _) in enumerate(cases))
    text = f'game "precedence"\nplayers 2\n{decls}play {{\n{sets}  end game "done"\n}}\n'
    game = boardkit.parse_ruleset(text, filename="precedence.bk").new_game(seed=0)
    return [game.var(f"v{i}") for i in range(len(cases))]


def test_operators_group_as_documented() -> None:
    values = _evaluate(VALUES)
    wrong = [(expr, want, got) for (expr, want), got in zip(VALUES, values, strict=True) if got != want]
    assert not wrong


def _shape(node: object) -> str:
    """The expression fully parenthesized."""
    if isinstance(node, ast.Binary):
        return f"({_shape(node.left)} {node.op} {_shape(node.right)})"
    if isinstance(node, ast.BoolOp):
        return "(" + f" {node.op} ".join(_shape(v) for v in node.values) + ")"
    if isinstance(node, ast.Unary):
        return f"({node.op} {_shape(node.operand)})"
    if isinstance(node, ast.Where):
        return f"({_shape(node.coll)} where {_shape(node.cond)})"
    if isinstance(node, ast.Ternary):
        return f"(if {_shape(node.cond)} then {_shape(node.then)} else {_shape(node.other)})"
    if isinstance(node, ast.Name):
        return node.name
    if isinstance(node, ast.Num):
        return str(node.value)
    if isinstance(node, ast.Attr):
        return f"{_shape(node.obj)}.{node.attr}"
    if isinstance(node, ast.ItAttr):
        return f".{node.attr}"
    raise AssertionError(node)


def _expr(text: str) -> ast.Expr:
    decl = parse(SourceFile(f"const c = {text}\n", "e.bk")).items[0]
    assert isinstance(decl, ast.ConstDecl)
    return decl.value


@pytest.mark.parametrize(("text", "shape"), [
    ("a or b or c and d", "(a or b or (c and d))"),
    ("a and b and c", "(a and b and c)"),
    ("not a and not not b or c", "(((not a) and (not (not b))) or c)"),
    ("not a where b == c < d", "(not (a where ((b == c) and (c < d))))"),
    ("a where b where c", "((a where b) where c)"),
    ("a == b where .c != d", "((a == b) where (.c != d))"),
    ("a + b * c - d / e % f", "((a + (b * c)) - ((d / e) % f))"),
    ("-a.b * -c", "((- a.b) * (- c))"),
    ("a in b not in c", "((a in b) and (b not in c))"),
    ("if a or b then c + 1 else if d then e else f", "(if (a or b) then (c + 1) else (if d then e else f))"),
    ("(a + b) * c", "((a + b) * c)"),
    ("a - (b - c)", "(a - (b - c))"),
])
def test_the_tree_has_the_documented_shape(text: str, shape: str) -> None:
    assert _shape(_expr(text)) == shape


def _at(node: ast.Expr) -> tuple[int, int | None]:
    return node.span.column - len("const c = "), node.span.end_column and node.span.end_column - len("const c = ")


def test_nodes_of_one_level_span_the_whole_level() -> None:
    # Every node a level builds spans all of that level's operands, the operators outside
    # parentheses excluded; a prefix operator spans its operand only.
    tree = _expr("a * b + c - (d)")
    assert isinstance(tree, ast.Binary)
    assert isinstance(tree.left, ast.Binary)
    assert isinstance(tree.left.left, ast.Binary)
    assert [_at(tree), _at(tree.left), _at(tree.left.left)] == [(1, 15), (1, 15), (1, 6)]
    tree = _expr("not a < b < c")
    assert isinstance(tree, ast.Unary)
    assert isinstance(tree.operand, ast.BoolOp)
    assert [_at(tree), _at(tree.operand), *(_at(v) for v in tree.operand.values)] == [(5, 14)] * 4
    tree = _expr("xs where a where b")
    assert isinstance(tree, ast.Where)
    assert isinstance(tree.coll, ast.Where)
    assert [_at(tree), _at(tree.coll)] == [(1, 19), (1, 11)]


def test_a_builtin_of_literals_loads_without_a_python_warning() -> None:
    """`first(-1)` is written as a call, not as a subscript of a constant Python would warn about."""
    text = ('game "literal"\nplayers 2\nvar v = none\nplay {\n  if false {\n    set v = first(-1) + last(1 + 2)\n'
            '  }\n  set v = first(0 - 1)\n  end game "done"\n}\n')
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rules = boardkit.parse_ruleset(text, filename="literal.bk")
    with pytest.raises(boardkit.RuleRuntimeError) as err:
        rules.new_game(seed=0)
    assert "literal.bk:8" in str(err.value)


# Written out at their calls when their operands are names: `+`, `nth` with a fixed position,
# and `top(g, cell(x, y))`. Each value differs under any other grouping; a list walked by a
# comprehension keeps the call (Python allows no `:=` there).
NAMED = [
    ("n * 2 + n", 6),
    ("-nth(xs, 1) * 2", -6),  # -(nth(xs, 1) * 2) too, so: the sign binds first
    ("10 / nth(xs, 2) + n", 4),  # 10 / (4 + 2) = 1
    ("nth(t, 2) + t", "bab"),
    ("xs + xs", [3, 4, 3, 4]),
    ("nth(nth(m, n), 1) * 2", 6),
    ("nth(m, n - 1) + nth(m, n)", [1, 2, 3, 4]),
    ("nth(nth(m, nth(xs, 1) - 2), nth(xs, 1) - 2)", 1),
    ("nth(xs, yes) - n", 1),  # a truth value counts as 1, as in the call
    ("count(xs + xs, three) * 2", 4),
    ("count(xs, nothing) + 1", 3),  # `none` counts every item, as in the call
    ("count(t + t, t)", 2),
    ("[x + n for x in xs]", [5, 6]),
    ("[y for y in xs + xs if y > n + 1]", [4, 4]),
    ("top(board, cell(z, z)) == none", True),
    ("[top(board, cell(x, z)) == none for x in [0, 1]]", [True, True]),
    ("[c for c in [top(board, cell(z, 0))] if c == none]", [None]),
    ("level(board, cell(z, n - 1)) - 1", -1),
    # The numbers of a range need no check that they are whole numbers.
    ("[top(board, cell(x, z)) == none for x in range(0, 1)]", [True, True]),
    ("[top(board, cell(x, 0)) == none for x in range(yes, 1)]", [True]),
    ("[x + n for x in range(1, 2)]", [3, 4]),
    ("[level(board, c) for c in [cell(z, z), cell(n - 1, z)]]", [0, 0]),
]


def test_operators_written_out_with_names_group_as_documented() -> None:
    decls = "".join(f"var v{i} = none\n" for i in range(len(NAMED)))
    sets = "".join(f"  set v{i} = ({expr})\n" for i, (expr, _) in enumerate(NAMED))
    text = (f'game "named"\nplayers 2\nzone board: grid(2, 2), public\n{decls}play {{\n'
            f'  let n = 2\n  let z = 0\n  let xs = [3, 4]\n  let t = "ab"\n  let m = [[1, 2], [3, 4]]\n'
            f'  let yes = true\n  let three = 3\n  let nothing = none\n'
            f'{sets}  end game "done"\n}}\n')
    rules = boardkit.parse_ruleset(text, filename="named.bk")
    assert "_v :=" in rules.program.source and "_t :=" in rules.program.source
    game = rules.new_game(seed=0)
    wrong = [(expr, want, game.var(f"v{i}")) for i, (expr, want) in enumerate(NAMED) if game.var(f"v{i}") != want]
    assert not wrong


@pytest.mark.parametrize(("expr", "message"), [
    ("nth(xs, 3)", "nth(): position 3 is outside a list of 2"),
    ("nth(xs, n - 2)", "nth(): position 0 is outside a list of 2"),
    ("nth([xs], n)", "nth(): position 2 is outside a list of 1"),
    ("n + xs", "cannot add a list to a number"),
    ("top(board, cell(n, 0))", "'2,0' is not a cell of grid 'board'"),
    ("top(board, cell(yes, 0))", "'True,0' is not a cell of grid 'board'"),
    ("nth(xs, nothing)", "cannot compare a number with none using '<='"),
    ("nth(n, a)", "cannot compare a number with a text using '<='"),
    ("count(n, n)", "'int' object has no attribute 'count'"),
    ('level(board, text(n) + ",0")', "'2,0' is not a cell of grid 'board'"),
])
def test_operators_written_out_fail_as_their_calls_do(expr: str, message: str) -> None:
    text = (f'game "named"\nplayers 2\nzone board: grid(2, 2), public\nvar v = none\nplay {{\n'
            f'  let n = 2\n  let xs = [3, 4]\n  let yes = true\n  let nothing = none\n  let a = "a"\n'
            f'  set v = ({expr})\n  end game "done"\n}}\n')
    rules = boardkit.parse_ruleset(text, filename="named.bk")
    with pytest.raises(boardkit.RuleRuntimeError, match=re.escape(message)) as err:
        rules.new_game(seed=0)
    assert "named.bk:11:" in str(err.value)


PIECES = """\
game "pieces"
players 2
component Disc { seat: int } label text(.seat)
zone supply: pile, public
zone board: grid(2, 1), public
var v = none
var w = none
setup {
  create 4 Disc(seat: 2) into supply
  place first(supply) on board at cell(0, 0)
  place first(supply) on board at cell(1, 0)
  place first(supply) on board at cell(1, 0)
}
play {
  let n = 1
  set v = (supply where .seat == n + n).seat
  set w = level(board, random([top(board, cell(0, 0)), top(board, cell(1, 0))]))
  end game "done"
}
"""


def test_forms_written_out_in_a_list_walked_for_a_projection_compile() -> None:
    game = boardkit.parse_ruleset(PIECES, filename="pieces.bk").new_game(seed=0)
    assert game.var("v") == [2]


@pytest.mark.parametrize("seed", range(6))
def test_level_works_its_argument_out_once(seed: int) -> None:
    game = boardkit.parse_ruleset(PIECES, filename="pieces.bk").new_game(seed=seed)
    assert game.state.rng_draws == 1  # one draw: `random` ran once
    assert game.var("w") in (1, 2)


def test_the_generated_modules_of_bundled_rulesets_compile_without_warnings() -> None:
    root = Path(__file__).resolve().parent.parent
    sources = [boardkit.load_ruleset(name).program.source for name in boardkit.list_rulesets()]
    sources += [boardkit.load_ruleset(str(path)).program.source
                for path in [*sorted((root / "examples").glob("*.bk")), root / "benchmarks" / "connect_four.bk"]]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for source in sources:
            compile(source, "<rules>", "exec")
