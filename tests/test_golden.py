"""The engine reproduces every golden playthrough exactly: offered labels, events, scores.

Records live in tests/golden/ (see playthrough.py there for what they hold and how to record
them again). A mismatch names the first decision that differs.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent / "golden"))
import playthrough  # noqa: E402

# One test per ruleset and player count keeps the report short and the failures specific.
GROUPS = sorted({(name, rec["players"]) for name in playthrough.RULESETS for rec in playthrough.read(name)})


def _first_difference(want: dict[str, Any], got: dict[str, Any]) -> str | None:
    if want["setup"] != got["setup"]:
        return "events of setup differ"
    for i, (w, g) in enumerate(zip(want["decisions"], got["decisions"])):
        if w != g:
            fields = ["player", "prompt", "offered labels", "chosen label", "events"]
            what = next(f for f, a, b in zip(fields, w, g) if a != b)
            return f"decision {i}: {what} differ:\n  recorded {w}\n  now      {g}"
    if len(want["decisions"]) != len(got["decisions"]):
        return f"{len(want['decisions'])} decisions recorded, {len(got['decisions'])} now"
    for key in ("end", "scores", "winners"):
        if want[key] != got[key]:
            return f"{key}: recorded {want[key]!r}, now {got[key]!r}"
    return None


@pytest.mark.parametrize(("name", "players"), GROUPS, ids=[f"{Path(n).stem}-{p}p" for n, p in GROUPS])
def test_engine_reproduces_the_golden_playthroughs(name: str, players: int) -> None:
    records = [r for r in playthrough.read(name) if r["players"] == players]
    assert len(records) >= playthrough.GAMES
    for rec in records:
        chosen = [d[3] for d in rec["decisions"]]
        got = playthrough.play(name, rec["players"], rec["options"], rec["seed"], chosen)
        problem = _first_difference(rec, got)
        assert problem is None, f"{name} seed {rec['seed']} options {rec['options']}: {problem}"


def test_the_records_cover_every_setup() -> None:
    for name in playthrough.RULESETS:
        recorded = {(r["players"], tuple(sorted(r["options"].items()))) for r in playthrough.read(name)}
        wanted = {(p, tuple(sorted(o.items()))) for p, o, _ in playthrough.setups(name)}
        assert recorded == wanted, name
