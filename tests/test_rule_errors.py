"""Golden tests of rule-text errors: each `errors/NAME.bk` must fail with `errors/NAME.expected`.

The expected text is `str(RuleError)` for the file parsed as "NAME.bk": one block per problem,
`NAME.bk:line:col: message`, the source line, and a caret under the column. Regenerate the
expected files after a deliberate change with `UPDATE_GOLDEN=1 pytest tests/test_rule_errors.py`
and review the diff.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import boardkit

ERRORS = Path(__file__).parent / "errors"
CASES = sorted(ERRORS.glob("*.bk"))
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
HEAD = re.compile(r"^(?P<file>[^\s:]+):(?P<line>\d+):(?P<col>\d+): (?P<msg>.+)$")

# Rule texts that must name the problem in their message, beyond the golden comparison.
MUST_SAY = {
    "unknown_name": "did you mean 'passes'?",
    "unknown_attribute": "did you mean 'colour'?",
    "unknown_procedure": "did you mean 'pass_turn'?",
    "variant_unknown_name": "did you mean 'hand_limit'?",
    "zone_index_count": "zone 'field' takes 2",
    "builtin_arity": "size() takes 1",
    "procedure_arity": "draw() takes 2",
    "duplicate_declaration": "'passes' is declared twice",
    "bad_extends": "'mandalla'",
    "unknown_index": "'Mandalla'",
    "syntax_bad_character": "'@'",
    "syntax_unclosed_block": "end of file",
    "missing_play": "play",
    "cannot_set_unknown": "did you mean 'score'?",
    "unknown_function": "did you mean 'size'?",
    "unknown_attribute_type": "did you mean 'Colour'?",
    "grid_with_another_kind": "cannot also be a pile",
    "slip_and_and": "write 'and' for '&&'",
    "slip_or_or": "write 'or' for '||'",
    "slip_not": "write 'not' for '!'",
    "slip_true": "unknown name 'True'; write 'true'",
    "slip_else_if": "write 'elif' for 'else if'",
    "where_and_precedence": "'.colour' is outside the 'where' before it",
    "invariant_random": "(pick() uses random)",
    "invariant_local": "'tries' is a local of procedure 'play'",
    "invariant_players": "ranges over players only",
    "var_range_index_outside": "index 7 is outside 0..6, the indexes of variable 'height'",
    "var_range_index_kind": "indexed by the numbers 0..6, not by 'red'",
    "list_item_from_zero": "the items of a list count from 1: 0 is no item of 'heights'",
    "var_range_empty": "the range 6..0 holds no number",
}


def rule_error(path: Path) -> boardkit.RuleError:
    with pytest.raises(boardkit.RuleError) as info:
        boardkit.parse_ruleset(path.read_text(encoding="utf-8"), filename=path.name)
    return info.value


def test_there_are_cases() -> None:
    assert len(CASES) >= 9


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_error_text_matches_golden(path: Path) -> None:
    text = str(rule_error(path))
    expected = path.with_suffix(".expected")
    if UPDATE:
        expected.write_text(text + "\n", encoding="utf-8")
    assert expected.is_file(), f"no golden file {expected.name}; run with UPDATE_GOLDEN=1"
    assert text == expected.read_text(encoding="utf-8").rstrip("\n")


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_each_problem_quotes_its_line_with_a_caret_under_the_column(path: Path) -> None:
    err = rule_error(path)
    source = path.read_text(encoding="utf-8").splitlines()
    lines = str(err).split("\n")
    blocks = []
    i = 0
    while i < len(lines):
        head = HEAD.match(lines[i])
        assert head, f"not a 'file:line:col: message' line: {lines[i]!r}"
        line, col = int(head["line"]), int(head["col"])
        assert head["file"] == path.name
        quoted, caret = lines[i + 1], lines[i + 2]
        assert set(caret.strip()) == {"^"}
        if quoted == source[line - 1]:
            assert caret.index("^") == col - 1
            assert caret.rstrip() == caret and col - 1 + len(caret.strip()) <= max(len(source[line - 1]), col)
        else:  # a long line, cut around the column: the caret is under the same text
            cut = quoted.removeprefix("...").removesuffix("...")
            assert cut in source[line - 1]
            shift = source[line - 1].index(cut) - (3 if quoted.startswith("...") else 0)
            assert caret.index("^") + shift == col - 1
        blocks.append((line, col, head["msg"]))
        i += 3
    assert len(blocks) == len(err.diagnostics)
    # The exception's location is the first problem's.
    assert (err.filename, err.line, err.column) == (path.name, blocks[0][0], blocks[0][1])
    assert blocks == sorted(blocks), "problems are reported in file order"
    if path.stem in MUST_SAY:
        assert MUST_SAY[path.stem] in str(err)


def test_several_errors_are_reported_together() -> None:
    err = rule_error(ERRORS / "several_errors.bk")
    assert len(err.diagnostics) >= 4
    assert {d.span.line for d in err.diagnostics} >= {11, 12, 13, 14, 15}


def test_a_syntax_error_points_at_the_offending_token() -> None:
    err = rule_error(ERRORS / "syntax_missing_comma.bk")
    assert (err.line, err.column) == (5, 18)
    assert "hidden" in str(err).split("\n")[0]


def test_the_bundled_rulesets_have_no_error() -> None:
    for name in ("mandala", "mandala_seed"):
        assert boardkit.load_ruleset(name).name == name


def test_a_fixed_file_parses() -> None:
    """The unknown-name case is one character from a good rule file."""
    text = (ERRORS / "unknown_name.bk").read_text(encoding="utf-8").replace("pases", "passes")
    rules = boardkit.parse_ruleset(text, filename="unknown_name.bk")
    assert rules.title == "Broken"


def test_expected_tokens_are_shown_as_written() -> None:
    first = str(rule_error(ERRORS / "syntax_missing_expression.bk")).split("\n")[0]
    assert "'dot'" not in first
    assert "'minus'" not in first
