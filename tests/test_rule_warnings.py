"""Golden tests of checker warnings: each `warnings/NAME.bk` loads, with exactly the warnings
in `warnings/NAME.expected`. Regenerate with `UPDATE_GOLDEN=1` and review the diff."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import boardkit

WARNINGS = Path(__file__).parent / "warnings"
CASES = sorted(WARNINGS.glob("*.bk"))
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"

# Each case is there for one warning; its message must say so.
MUST_SAY = {
    "unused_zone": "zone 'tray' is declared but never used",
    "unused_variable": "variable 'spare' is declared but never used",
    "unused_option": "option 'speed' is declared but never used",
    "unused_function": "function 'double' is declared but never used",
    "unused_constant": "constant 'limit' is declared but never used",
    "procedure_never_called": "procedure 'tidy' is never called from setup or play",
    "game_never_ends": "the game can never end",
    "condition_never_holds": "this condition can never hold",
    "keyword_as_name": "'at' is a keyword of the rule language",
}


def test_every_case_is_named() -> None:
    assert {p.stem for p in CASES} == set(MUST_SAY)


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_warnings_match_golden(path: Path) -> None:
    rules = boardkit.parse_ruleset(path.read_text(encoding="utf-8"), filename=path.name)
    text = "\n".join(rules.warnings)
    expected = path.with_suffix(".expected")
    if UPDATE:
        expected.write_text(text + "\n", encoding="utf-8")
    assert text == expected.read_text(encoding="utf-8").rstrip("\n")
    assert len(rules.warnings) == 1
    assert MUST_SAY[path.stem] in text
