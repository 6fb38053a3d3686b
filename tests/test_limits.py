"""Limits on the size and shape of rule text: each is a located RuleError found by one scan
of the text, before the parser runs; the steps after it do bounded work."""

from __future__ import annotations

import difflib
import random

import pytest

import boardkit
from boardkit.errors import SHOWN_DIAGNOSTICS, Diagnostic, RuleError
from boardkit.lang import limits, parse
from boardkit.lang.resolve import SUGGEST_PER_CHECK
from boardkit.source import SourceFile, Span

HEAD = 'game "g"\nplayers 2\n'
TAIL = 'play { end game "x" }\nscore p = 0\n'


@pytest.fixture
def no_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    """The refusal must come from the scan: the parser is not reached."""
    def refuse() -> None:
        pytest.fail("the parser ran on a text past the limits")
    monkeypatch.setattr(parse, "_driver", refuse)
    monkeypatch.setattr(parse, "_parser", refuse)


CASES = {
    "characters": (HEAD + "# " + "x" * limits.MAX_CHARS + "\n" + TAIL, 3, limits.MAX_CHARS - len(HEAD) + 1,
                   "characters long, over the limit of 1,000,000"),
    # 4 tokens in HEAD, 4 more, then 2 for each " + 1": the one past the limit is the 24,997th '+'.
    "tokens": (HEAD + "const a = 0" + " + 1" * (limits.MAX_TOKENS // 2) + "\n" + TAIL, 3, 11 + 4 * 24_996 + 2,
               "more than 50,000 tokens"),
    "nesting": (HEAD + "const a = " + "(" * 51 + "1" + ")" * 51 + "\n" + TAIL, 3, 11 + 50,
                "nest more than 50 levels deep"),
    "items": (HEAD + "enum E { " + ", ".join(f"m{i}" for i in range(limits.MAX_ITEMS + 1)) + " }\n" + TAIL, 3, 8,
              "more than 2,000 items between these brackets"),
    "declarations": (HEAD + "const c = 1\n" * (limits.MAX_DECLARATIONS + 1) + TAIL, 3 + limits.MAX_DECLARATIONS - 2, 1,
                     "more than 5,000 declarations"),
    "name": (HEAD + "const " + "n" * 101 + " = 1\n" + TAIL, 3, 7, "a name of 101 characters, over the limit of 100"),
}


@pytest.mark.usefixtures("no_parser")
@pytest.mark.parametrize("case", CASES)
def test_rule_text_past_a_limit_is_a_located_rule_error(case: str) -> None:
    text, line, column, message = CASES[case]
    with pytest.raises(RuleError, match=message) as caught:
        boardkit.parse_ruleset(text, "big.bk")
    assert (caught.value.filename, caught.value.line, caught.value.column) == ("big.bk", line, column)
    # The excerpt quotes a part of the line around the column, not the whole line.
    assert len(str(caught.value)) < 600


def test_rule_text_at_the_limits_passes_the_scan() -> None:
    limits.check_limits(SourceFile(HEAD + "const a = " + "(" * 50 + "1" + ")" * 50 + "\n" + "const " + "n" * 100
                                   + " = [" + ", ".join(["1"] * limits.MAX_ITEMS) + "]\n" + TAIL, "ok.bk"))
    for name in boardkit.list_rulesets():  # the bundled games are far within them
        boardkit.load_ruleset(name)


def test_did_you_mean_does_bounded_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """500 unknown names among 1,000 known ones: the comparisons stop at the check's budget."""
    compared = 0
    set_seq1 = difflib.SequenceMatcher.set_seq1

    def counting(self: difflib.SequenceMatcher[str], a: str) -> None:
        nonlocal compared
        compared += 1
        set_seq1(self, a)
    monkeypatch.setattr(difflib.SequenceMatcher, "set_seq1", counting)
    known = "".join(f"const known_{i} = {i}\n" for i in range(1_000))
    unknown = "".join(f"const u{i} = knwn_{i}\n" for i in range(500))
    with pytest.raises(RuleError) as caught:
        boardkit.parse_ruleset(HEAD + known + unknown + TAIL, "slips.bk")
    assert len(caught.value.diagnostics) == 500
    assert 0 < compared <= SUGGEST_PER_CHECK + 500  # one more for each matcher made
    # The first slips still get their suggestion.
    assert "unknown name 'knwn_0'; did you mean 'known_0'?" in str(caught.value)


def test_a_rule_error_shows_its_first_diagnostics_only() -> None:
    diags = [Diagnostic(Span("f.bk", i + 1, 1), f"fault {i}") for i in range(SHOWN_DIAGNOSTICS + 50)]
    err = RuleError(diags, SourceFile("x\n" * (SHOWN_DIAGNOSTICS + 50), "f.bk"))
    assert len(err.diagnostics) == SHOWN_DIAGNOSTICS + 50
    message = str(err)
    assert f"fault {SHOWN_DIAGNOSTICS - 1}" in message
    assert f"fault {SHOWN_DIAGNOSTICS}\n" not in message
    assert message.endswith("... and 50 more (all in .diagnostics)")


def test_excerpts_of_one_file_split_its_text_once() -> None:
    """Each diagnostic quotes a line of the file: the file is cut into lines once, not per quote."""
    splits = 0

    class Counting(str):
        __slots__ = ()

        def split(self, *args: object, **kwargs: object) -> list[str]:  # type: ignore[override]
            nonlocal splits
            splits += 1
            return super().split(*args, **kwargs)  # type: ignore[arg-type]

    # A text of its own (ending in a fresh id), which no earlier excerpt has cut.
    text = Counting("".join(f"line {i}\n" for i in range(5_000)) + f"# {object()!r}\n")
    diags = [Diagnostic(Span("f.bk", i + 1, 1), f"fault {i}") for i in range(0, 5_000, 50)]
    message = str(RuleError(diags, SourceFile(text, "f.bk")))
    assert "f.bk:4951:1: fault 4950\nline 4950\n^" in message
    assert splits == 1


@pytest.mark.parametrize("seed", range(4))
def test_brackets_by_passes_agree_with_counting_one_by_one(seed: int) -> None:
    """The quick bracket check (C loops, a pass per level) decides as the count mark by mark does."""
    rng = random.Random(seed)
    answers = set()
    for trial in range(60):
        marks: list[str] = []
        depth = 0
        commas = 0.9 if trial % 2 else 0.6  # many commas: some bracket may hold over MAX_ITEMS
        for _ in range(rng.choice([50, 3000, 8000])):
            r = rng.random()
            if r < commas:
                marks.append(",")
            elif r < commas + 0.06 or (depth == 0 and trial % 3):
                marks.append(rng.choice("[({"))
                depth += 1
            else:
                marks.append(rng.choice("])}"))
                depth -= 1
        if trial % 5 == 0:
            marks = ["["] * rng.randint(40, 60) + marks
        quick = limits._brackets_within(marks)
        assert quick == limits._brackets_counted(marks), (seed, trial)
        answers.add(quick)
    assert answers == {True, False}
