"""Copies of bundled rulesets with a planted bug are caught by the property-test kit.

Each mutation changes one rule of a bundled ruleset (copied to a temporary directory); the
kit must find the bug through the invariants the ruleset declares, and shrink the game that
shows it to a short trace, which replays to the same failure.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import boardkit
from boardkit.testing import Checks, explore, load_trace, replay

RULESETS = Path(__file__).resolve().parents[1] / "rulesets"
# Invariants only, after every decision: the costly guarantees are checked elsewhere.
CHECKS = Checks(max_decisions=300, every=10_000, follow=0)

MUTATIONS = {
    # A card played to a mountain goes nowhere any zone of the game counts.
    "card vanishes": ("mandala", "move 1 of hand[p] where .colour == c to mountain[m]",
                      "move 1 of hand[p] where .colour == c to limbo", "zone limbo: pile, hidden",
                      "108 cards, 18 of each colour"),
    # The draw after a mountain play ignores the hand limit.
    "limit not enforced": ("mandala", "func mountain_draw(p) = if hand_limit == 0 then 3 else min(3, hand_limit - size(hand[p]))",
                           "func mountain_draw(p) = 3", None, "hand limit"),
    # A colour may go to any area of a mandala: the Colour Rule is not enforced.
    "colour rule not enforced": ("mandala", "func fits(c, area, m) = c in area.colour or c not in cards_in(m).colour",
                                 "func fits(c, area, m) = true", None, "colour rule"),
    # Taking an energy into a bubble copies it: the original stays in the river.
    "piece duplicated": ("chakra", "move 1 of maya[f] where .colour == c to bubbles[p]",
                         "create 1 Energy(colour: c) into bubbles[p]", None, "energies conserved"),
}


def mutant(tmp_path: Path, name: str, old: str, new: str, extra: str | None) -> Path:
    text = (RULESETS / f"{name}.bk").read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    text = text.replace(old, new)
    if extra is not None:
        text += f"\n{extra}\n"
    path = tmp_path / f"{name}.bk"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_a_planted_bug_is_caught_and_shrunk(mutation: str, tmp_path: Path) -> None:
    name, old, new, extra, invariant = MUTATIONS[mutation]
    path = mutant(tmp_path, name, old, new, extra)
    report = explore(str(path), games=10, seed=1, checks=CHECKS)
    trace = report.failure
    assert trace is not None, f"{mutation}: not caught"
    assert isinstance(report.error, boardkit.InvariantError)
    assert report.error.invariant == invariant
    assert len(trace.labels) <= 30, trace
    # The trace file replays to the same failure, at its last decision.
    saved = tmp_path / "failure.trace.json"
    trace.save(saved)
    loaded = load_trace(saved)
    assert loaded == trace
    steps = 0
    with pytest.raises(boardkit.InvariantError) as caught:
        for step in replay(loaded):
            steps = step.number
    assert caught.value.invariant == invariant
    assert caught.value.decision == len(trace.labels) == steps + 1


def test_the_unchanged_rulesets_pass_the_same_search() -> None:
    for name in ("mandala", "chakra"):
        report = explore(name, games=3, seed=1, checks=CHECKS)
        assert report.ok, report.failure
        assert report.games == 3
