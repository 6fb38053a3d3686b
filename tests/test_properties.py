"""Random Mandala games keep the invariants of invariants.md §3 (as DECISIONS.md adapts them).

The property-test kit plays them (boardkit.testing): it checks the invariants the rulesets
declare (cards, the Colour Rule, rivers, the hand limit) after every decision, and the
engine's guarantees (JSON round trips, determinism, undo, views, refused moves, no dead ends)
every few decisions. What the rules cannot state, since it compares a state with the ones
before it or reads the log, is checked here, by a watcher the kit runs after every decision.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import settings

import boardkit
from boardkit.testing import Checks, check_rules

RULESETS = ["mandala", "mandala_seed"]
COLOURS = ("red", "orange", "yellow", "green", "purple", "black")
MANDALAS = ("m1", "m2")
# invariants.md §3: the seed rules end within 730 turns (I-MD-14 potential argument), so a
# game still on after that many decisions is a failure; the published rules end too (about
# 800 turns at most), and a game reaching this bound is reported.
SEED_DECISIONS = 4 * 730
PUBLISHED_DECISIONS = 6000
END_REASONS = {
    "mandala": {"a sixth river colour", "the last mandala was destroyed", "the deck ran out again",
                "two passes in a row"},
    "mandala_seed": {"a sixth river colour", "the deck is exhausted", "two passes in a row"},
}
# Games a test plays: a fifth of the Hypothesis profile's examples (5 by default).
GAMES = max(2, settings.default.max_examples // 5)


def colour_zones(game: boardkit.Game) -> dict[str, list[str]]:
    return {key: [card["colour"] for card in cards] for key, cards in game.zones().items()}


def mandala_areas(zones: dict[str, list[str]], m: str) -> list[list[str]]:
    return [zones[f"mountain[{m}]"], zones[f"field[{m},0]"], zones[f"field[{m},1]"]]


def expected_view(game: boardkit.Game, p: int) -> dict[str, Any]:
    other = 1 - p
    hidden = {"deck", f"hand[{other}]", f"cup[{other}]"}
    return {key: {"count": len(cards)} if key in hidden else cards for key, cards in game.zones().items()}


class Watcher:
    """What only grows, what a destruction does, how the game ends, and what each player sees."""

    calls = 0  # in all games: the kit does run it

    def __init__(self, game: boardkit.Game) -> None:
        self.game = game
        self.seed_rules = game.rules.name == "mandala_seed"
        self.prev: dict[str, list[str]] | None = None
        self()

    def __call__(self) -> None:
        Watcher.calls += 1
        game = self.game
        zones = colour_zones(game)
        # I-MD-3: a complete mandala is destroyed at once; only claims can see one.
        if not game.is_over and game.prompt != "claim a colour":
            for m in MANDALAS:
                assert len({c for area in mandala_areas(zones, m) for c in area}) < 6, (m, zones)
        if self.prev is not None:
            for p in (0, 1):
                # I-MD-6: rivers only grow and keep their order; cups only grow.
                old = self.prev[f"river[{p}]"]
                assert zones[f"river[{p}]"][: len(old)] == old
                assert not Counter(self.prev[f"cup[{p}]"]) - Counter(zones[f"cup[{p}]"])
                # I-MD-5: a gained colour is in the gainer's river.
                gained = Counter(zones[f"cup[{p}]"]) - Counter(self.prev[f"cup[{p}]"])
                assert set(gained) <= set(zones[f"river[{p}]"])
            if self.seed_rules:
                # I-MD-8: no reshuffle, so the deck only shrinks and the discard pile only grows.
                assert len(zones["deck"]) <= len(self.prev["deck"])
                assert zones["discard"][: len(self.prev["discard"])] == self.prev["discard"]
        if self.seed_rules and not game.is_over and game.prompt == "action":
            # I-MD-9: mountains are refilled while the deck lasts.
            assert all(zones[f"mountain[{m}]"] for m in MANDALAS), zones
        # Views: the deck and the other player's hand and cup show their sizes only.
        for p in (0, 1):
            assert game.view(p)["zones"] == expected_view(game, p)
        if game.is_over:
            self.check_end(zones)
        self.prev = zones

    def check_end(self, zones: dict[str, list[str]]) -> None:
        """I-MD-14: the game ends only for one of the rules' reasons, and that reason holds."""
        game = self.game
        reason = game.end_reason
        assert reason in END_REASONS[game.rules.name]
        if reason == "a sixth river colour":
            assert any(len(zones[f"river[{p}]"]) == 6 for p in (0, 1))
        elif reason == "the deck is exhausted":
            assert zones["deck"] == []
        elif reason == "two passes in a row":
            assert game.history[-1] == "pass" and game.var("passes") >= 2
        elif reason == "the last mandala was destroyed":
            assert game.var("last_mandala") is True
        scores = game.scores()
        assert len(scores) == 2 and all(isinstance(s, int) and s >= 0 for s in scores)
        assert game.winners() and set(game.winners()) <= {0, 1}


@pytest.mark.parametrize("name", RULESETS)
def test_random_games_keep_the_invariants_and_guarantees(name: str) -> None:
    seed_rules = name == "mandala_seed"
    checks = Checks(max_decisions=SEED_DECISIONS if seed_rules else PUBLISHED_DECISIONS, every=40,
                    stall_fails=seed_rules, watcher=Watcher)
    calls = Watcher.calls
    report = check_rules(name, games=GAMES, checks=checks)
    assert report.games == GAMES
    assert Watcher.calls - calls >= report.decisions
    assert set(report.invariants) >= {"108 cards, 18 of each colour", "colour rule", "river shape", "hand limit"}


def test_every_option_is_played() -> None:
    """The hand limit option changes the game: both values are played and checked."""
    for limit in (8, 0):
        report = check_rules("mandala", games=2, options={"hand_limit": limit}, seed=limit,
                             checks=Checks(every=200, watcher=Watcher))
        assert report.ended == 2
