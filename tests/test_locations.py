"""Errors point at the right place, however the rule text is shaped."""

from __future__ import annotations

from pathlib import Path

import pytest

import boardkit


def test_an_empty_loop_that_never_decides_is_located_at_the_loop() -> None:
    text = 'game "T"\nplayers 2\nplay {\n  turn 0 {\n    loop { }\n  }\n}\n'
    with pytest.raises(boardkit.RuleRuntimeError, match=r"^l\.bk:5:5: no decision after"):
        boardkit.parse_ruleset(text, filename="l.bk").new_game(players=2)


def test_an_empty_file_is_named_by_its_path(tmp_path: Path) -> None:
    path = tmp_path / "empty.bk"
    path.write_text("", encoding="utf-8")
    with pytest.raises(boardkit.RuleError) as info:
        boardkit.load_ruleset(str(path))
    assert info.value.filename == str(path)


@pytest.mark.parametrize("odd", ["\f", "\u2028", "\x1c", "\v"], ids=["form feed", "line separator", "FS", "VT"])
def test_odd_characters_in_a_comment_do_not_shift_the_quoted_line(odd: str) -> None:
    text = f'game "T"\n# a comment{odd}with an odd character\nplayers 2\nplay {{\n  let x = nosuch\n}}\n'
    with pytest.raises(boardkit.RuleError) as info:
        boardkit.parse_ruleset(text, filename="odd.bk")
    assert (info.value.line, info.value.column) == (5, 11)
    assert str(info.value).split("\n")[1] == "  let x = nosuch"


def test_a_long_line_is_cut_around_the_error() -> None:
    text = 'game "T"\nplayers 2\nplay {\n  let x = [' + "1, " * 1900 + "nosuch]\n}\n"
    with pytest.raises(boardkit.RuleError) as info:
        boardkit.parse_ruleset(text, filename="long.bk")
    quoted, caret = str(info.value).split("\n")[1:3]
    assert len(quoted) < 200
    assert quoted[caret.index("^"):].startswith("nosuch")


@pytest.mark.parametrize(("statement", "message"), [
    ("let x = size(hand[5])", "KeyError: nothing at 5: a zone, variable or attribute was asked for"),
    ("set v = [1] + 2", "TypeError: cannot add a number to a list"),
    ("set v = 1 - [2]", "TypeError: cannot subtract a list from a number"),
    ('set v = "a" < 3', "TypeError: cannot compare a text with a number using '<'"),
])
def test_runtime_faults_are_said_in_the_rule_languages_words(statement: str, message: str) -> None:
    text = (f'game "T"\nplayers 2\nzone hand[Player]: pile\nvar v = 0\nplay {{\n  turn 0 {{\n'
            f'    {statement}\n  }}\n  end game "x"\n}}\n')
    with pytest.raises(boardkit.RuleRuntimeError) as info:
        boardkit.parse_ruleset(text, filename="f.bk").new_game(players=2)
    assert str(info.value).startswith("f.bk:7:")
    assert message in str(info.value)
