"""Chakra property tests over random games (shared/rules/invariants.md §2), for 2, 3 and 4
players and every combination of Module A and Module D.

The property-test kit plays them (boardkit.testing): it checks the invariants the ruleset
declares (energies conserved, capacities, three of a colour, the Earth, inspiration tokens,
notches, fulfilment tokens, chips) after every decision, and the engine's guarantees (JSON
round trips, determinism, undo, views, refused moves, every offered move completing its
turn) every few decisions. What compares a state with the one before, or reads the log or the
views, is checked by a watcher the kit runs after every decision.

Random play almost never harmonizes a chakra, let alone five, so the games are cut after a
number of decisions (the ruleset stays faithful; `simulate` reports such games as aborted).
"""

from __future__ import annotations

import json

from hypothesis import settings

import boardkit
from boardkit.testing import Checks, check_rules

CHAKRAS = ["red", "orange", "yellow", "green", "lightblue", "darkblue", "purple"]
DECISIONS = 150
# Games a test plays: a fifth of the Hypothesis profile's examples (5 by default).
GAMES = max(2, settings.default.max_examples // 5)


class Watcher:
    """What only grows or changes by one, the end of a Module A turn, and the views."""

    calls = 0  # in all games: the kit does run it

    def __init__(self, game: boardkit.Game) -> None:
        n = game.players
        self.game = game
        self.harmonized: list[set[str]] = [set() for _ in range(n)]
        self.halves = [0] * n
        self.soothed = [0] * n
        self.turn = game.turn_count
        self()

    def __call__(self) -> None:
        Watcher.calls += 1
        g = self.game
        z = g.zones()
        for p in range(g.players):
            # I-CH-13: the Earth changes by one at most.
            soothed = len(z[f"soothed[{p}]"])
            assert abs(soothed - self.soothed[p]) <= 1
            self.soothed[p] = soothed
            # I-CH-8: harmonization only grows; I-CH-18: halves never decrease.
            harmonized = {c for c in CHAKRAS if [e["colour"] for e in z[f"chakra[{p},{c}]"]] == [c, c, c]}
            assert harmonized >= self.harmonized[p]
            self.harmonized[p] = harmonized
            assert g.var("halves", p) >= self.halves[p]
            self.halves[p] = g.var("halves", p)
        if g.turn_count != self.turn:
            self._turn_ended(z)
            self.turn = g.turn_count
        self.check_views(z)

    def _turn_ended(self, z: dict[str, list[dict]]) -> None:
        # I-CH-18: after a turn of Module A, no chakra of its player holds white and black.
        ended = [e.player for e in self.game.events if type(e).__name__ == "TurnEnded"]
        if ended:
            p = ended[-1]
            for c in CHAKRAS:
                here = {e["colour"] for e in z[f"chakra[{p},{c}]"]}
                assert not {"white", "black"} <= here

    def check_views(self, z: dict[str, list[dict]]) -> None:
        """A view shows a plenitude token only to a player who has looked at it."""
        g = self.game
        for p in range(g.players):
            view = g.view(p)
            text = json.dumps(view)
            held = {c["colour"] for c in z[f"chips[{p}]"]}
            for c in CHAKRAS:
                entry = view["zones"][f"karma[{c}]"]
                assert entry["count"] == 1
                if c in held or g.is_over:
                    assert entry["known"] == z[f"karma[{c}]"]
                else:
                    assert "known" not in entry
            assert text.count('"Plenitude"') == (7 if g.is_over else len(held))
            assert view["zones"]["bag"] == {"count": len(z["bag"])}
            assert view["zones"]["token_box"] == {"count": 1}


def test_random_games_keep_the_invariants_and_guarantees() -> None:
    calls = Watcher.calls
    report = check_rules("chakra", games=GAMES, checks=Checks(max_decisions=DECISIONS, every=25, watcher=Watcher))
    assert report.games == GAMES
    assert Watcher.calls - calls >= report.decisions
    assert set(report.invariants) >= {"energies conserved", "three of a colour", "five inspiration tokens"}


def test_every_module_combination_is_played() -> None:
    for players, module_a, module_d in ((2, True, False), (3, False, True), (4, True, True)):
        report = check_rules("chakra", games=1, players=players, seed=players,
                             options={"module_a": module_a, "module_d": module_d},
                             checks=Checks(max_decisions=DECISIONS, every=50, watcher=Watcher))
        assert report.games == 1


def test_the_short_game_keeps_them_too() -> None:
    report = check_rules("chakra_short", games=2, checks=Checks(max_decisions=60, every=30, watcher=Watcher))
    assert report.games == 2
