"""Chakra property tests over random games (shared/rules/invariants.md §2), for 2, 3 and 4
players and every combination of Module A and Module D.

Random play almost never harmonizes a chakra, let alone five, so the games are cut after a
number of decisions (the ruleset stays faithful; `simulate` reports such games as aborted).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import Script, check_points, scripts

import boardkit

CHAKRAS = ["red", "orange", "yellow", "green", "lightblue", "darkblue", "purple"]
LIMITED = set(CHAKRAS)  # black and white are not limited to 3 a board
DECISIONS = 150
# More decisions than any one Chakra turn takes: a turn that goes on longer never ends.
TURN_DECISIONS = 200

RULES = boardkit.load_ruleset("chakra")
players_ = st.sampled_from([2, 3, 4])
options_ = st.fixed_dictionaries({"module_a": st.booleans(), "module_d": st.booleans()})


def new_game(script: Script, players: int, options: dict[str, Any]) -> boardkit.Game:
    return RULES.new_game(players=players, seed=script.seed, options=options)


def energy_counts(zones: dict[str, list[dict]]) -> Counter:
    return Counter(p["colour"] for ps in zones.values() for p in ps if p["type"] == "Energy")


class Tracker:
    """Checks the invariants after every decision, re-deriving them from the whole state."""

    def __init__(self, game: boardkit.Game, options: dict[str, Any]) -> None:
        n = game.players
        self.game = game
        self.initial = Counter({c: 3 * n for c in [*CHAKRAS, "black"]})
        if options["module_a"]:
            self.initial["white"] = 3 * n
        self.harmonized: list[set[str]] = [set() for _ in range(n)]
        self.halves = [0] * n
        self.soothed = [0] * n
        self.turn = game.turn_count

    def check(self) -> None:
        g, n = self.game, self.game.players
        z = g.zones()
        # I-CH-1: energies conserved per colour (bag + Maya + boards + Earth + removed).
        assert energy_counts(z) == self.initial
        assert all(len(z[f"maya[{f}]"]) <= 3 for f in ("f1", "f2", "f3"))
        for p in range(n):
            board: Counter = Counter()
            harmonized = set()
            for c in CHAKRAS:
                here = [e["colour"] for e in z[f"chakra[{p},{c}]"]]
                assert len(here) <= 3  # I-CH-3
                board.update(here)
                if here == [c, c, c]:
                    harmonized.add(c)
                    assert z[f"notch[{p},{c}]"] == []  # I-CH-7
                assert len(z[f"notch[{p},{c}]"]) <= 1
            assert len(z[f"bubbles[{p}]"]) <= 3
            board.update(e["colour"] for e in z[f"bubbles[{p}]"])
            # I-CH-4: at most 3 of a colour on a board, black (and white) not counted.
            assert all(k <= 3 for col, k in board.items() if col in LIMITED), board
            # I-CH-5: only black in the Earth; I-CH-13: it changes by one at most.
            soothed = [e["colour"] for e in z[f"soothed[{p}]"]]
            assert set(soothed) <= {"black"}
            assert abs(len(soothed) - self.soothed[p]) <= 1
            self.soothed[p] = len(soothed)
            # I-CH-6: five inspiration tokens, each spot holding one at most.
            spots = [k for k in z if k.startswith(f"spot[{p},")]
            assert all(len(z[k]) <= 1 for k in spots)
            tokens = len(z[f"supply[{p}]"]) + sum(len(z[k]) for k in spots) + sum(
                len(z[f"notch[{p},{c}]"]) for c in CHAKRAS)
            assert tokens == 5
            # I-CH-8: harmonization only grows; I-CH-18: halves never decrease.
            assert harmonized >= self.harmonized[p]
            self.harmonized[p] = harmonized
            assert g.var("halves", p) >= self.halves[p]
            self.halves[p] = g.var("halves", p)
            # I-CH-10: chips held, one of each colour at most.
            held = [c["colour"] for c in z[f"chips[{p}]"]]
            assert held and len(held) == len(set(held))
        assert sum(len(v) for k, v in z.items() if k.startswith("chips[") or k == "chip_pool") == 28
        # I-CH-9: seven face-down tokens, values 1-4.
        assert all(len(z[f"karma[{c}]"]) == 1 for c in CHAKRAS)
        assert all(1 <= t["value"] <= 4 for c in CHAKRAS for t in z[f"karma[{c}]"])
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


def play_random(game: boardkit.Game, script: Script, decisions: int, tracker: Tracker | None = None) -> None:
    pick = script.picker()
    for _ in range(decisions):
        if game.is_over:
            return
        moves = game.legal_moves()
        assert moves, "no dead ends: a game that is not over always offers a move"
        assert len({m.label for m in moves}) == len(moves)
        game.play(pick(moves))
        if tracker is not None:
            tracker.check()


@given(script=scripts, players=players_, options=options_)
def test_invariants_hold_in_random_games(script: Script, players: int, options: dict[str, Any]) -> None:
    game = new_game(script, players, options)
    tracker = Tracker(game, options)
    tracker.check()
    play_random(game, script, DECISIONS, tracker)


@given(script=scripts, players=players_, options=options_, points=check_points)
def test_every_offered_move_completes_a_turn(script: Script, players: int, options: dict[str, Any],
                                             points: set[int]) -> None:
    game = new_game(script, players, options)
    pick = script.picker()
    points = {p % DECISIONS for p in points}
    for i in range(max(points) + 1):
        if game.is_over:
            return
        moves = game.legal_moves()
        if i in points:
            saved = game.to_json()
            turn = game.turn_count
            for move in moves:
                trial = RULES.load_game(saved)
                trial.play(move.label)
                for _ in range(TURN_DECISIONS):
                    if trial.is_over or trial.turn_count != turn:
                        break
                    options = trial.legal_moves()
                    assert options, f"a dead end in the turn after {move.label!r}"
                    trial.play(pick(options))
                # The turn ended (the next one began) or the game did: no offered move leads
                # into a turn that cannot be finished.
                assert trial.is_over or trial.turn_count > turn, move.label
        game.play(pick(moves))


@given(script=scripts, players=players_, options=options_, cut=st.integers(0, DECISIONS))
def test_json_round_trip_and_determinism(script: Script, players: int, options: dict[str, Any], cut: int) -> None:
    game = new_game(script, players, options)
    play_random(game, script, cut)
    text = game.to_json()
    loaded = RULES.load_game(text)
    assert loaded.to_json() == text
    assert [loaded.view(p) for p in range(players)] == [game.view(p) for p in range(players)]
    # The same seed and moves give the same game.
    replay = new_game(script, players, options)
    for label in game.history:
        replay.play(label)
    assert replay.to_json() == text
    # Both continue identically.
    tail = Script(script.seed + 1, (), script.tail_seed + 1)
    play_random(game, tail, 30)
    play_random(loaded, tail, 30)
    assert loaded.events == game.events
    assert loaded.to_json() == game.to_json()


@given(script=scripts, players=players_, options=options_, cut=st.integers(0, 60))
def test_an_illegal_move_changes_nothing(script: Script, players: int, options: dict[str, Any], cut: int) -> None:
    game = new_game(script, players, options)
    play_random(game, script, cut)
    if game.is_over:
        return
    before = game.to_json()
    with pytest.raises(boardkit.IllegalMove):
        game.play("not a move")
    assert game.to_json() == before
