"""Ananda property tests over random games (shared/rules/invariants.md §1), for 2, 3 and 4
players, checked after every decision and re-derived from the whole state each time.

Random games end by the rules (a player places their last tile with the supply empty); the
decision cap only guards against a game that never ends, which the rules allow (AN-21).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from strategies import Script, scripts

import boardkit

RULES = boardkit.load_ruleset("ananda")
CAP = 4000
players_ = st.sampled_from([2, 3, 4])
options_ = st.fixed_dictionaries({"size": st.sampled_from([8, 10, 12]), "stall_end": st.booleans()})


def shown(temple: list[dict]) -> dict[str, str]:
    """The colour on top of each occupied cell, from the temple's pieces (lowest first)."""
    out = {}
    for t in temple:
        for c, colour in zip(t["cells"], (t["a"], t["b"])):
            out[c] = colour
    return out


def area(colours: dict[str, str], start: str) -> set[str]:
    """The cells connected to start through orthogonal neighbours of its colour."""
    seen, todo = {start}, [start]
    while todo:
        x, y = map(int, todo.pop().split(","))
        for n in (f"{x - 1},{y}", f"{x + 1},{y}", f"{x},{y - 1}", f"{x},{y + 1}"):
            if n not in seen and colours.get(n) == colours[start]:
                seen.add(n)
                todo.append(n)
    return seen


class Tracker:
    """Checks invariants I-AN-1 to I-AN-18 (those a state shows) after every decision."""

    def __init__(self, game: boardkit.Game) -> None:
        self.game = game
        n = game.players
        self.deck_size = 30 if n == 2 else 24
        self.karma = [0] * n
        self.supply = len(game.zone("supply"))
        self.events = len(game.events)
        self.built_before = False
        self.check()

    def check(self) -> None:
        g = self.game
        n = g.players
        zones = g.zones()
        temple = g.zone("temple")
        # I-AN-1: 63 tiles, covered ones included.
        tiles = len(zones["supply"]) + sum(len(zones[f"rack[{p}]"]) for p in range(n)) + len(temple)
        assert tiles == 63
        assert all(t["type"] == "Tile" for t in temple)
        # I-AN-2, I-AN-3: cards per player and in all.
        for p in range(n):
            mine = zones[f"deck[{p}]"] + zones[f"hand[{p}]"] + zones[f"karma[{p}]"]
            assert len(mine) == self.deck_size
            assert {c["back"] for c in mine} == {p + 1}
        assert sum(1 for ps in zones.values() for c in ps if c["type"] == "Card") == 108
        # I-AN-4, I-AN-5: racks and hands hold at most 8.
        for p in range(n):
            assert len(zones[f"rack[{p}]"]) <= 8
            assert len(zones[f"hand[{p}]"]) <= 8
        # I-AN-7: karma never decreases.
        karma = g.scores()
        assert all(k >= old for k, old in zip(karma, self.karma))
        self.karma = karma
        # I-AN-8: meditation value <= area value.
        assert 0 <= g.var("meditation") <= g.var("area_value")
        # I-AN-10: stacks: level 1 on the foundation, level h on two different tiles of h - 1.
        tops: dict[str, tuple[int, int]] = {}
        for i, t in enumerate(temple):
            cells = t["cells"]
            assert len(cells) == 2
            (x1, y1), (x2, y2) = (map(int, c.split(",")) for c in cells)
            assert abs(x1 - x2) + abs(y1 - y2) == 1
            under = [tops.get(c) for c in cells]
            if t["level"] == 1:
                assert under == [None, None]
            else:
                assert None not in under
                assert under[0][0] != under[1][0]
                assert under[0][1] == under[1][1] == t["level"] - 1
            for c in cells:
                tops[c] = (i, t["level"])
        # I-AN-11, I-AN-12: monks stand on visible cells, one per player at most.
        figures = g.zone("figures")
        owners = [m["owner"] for m in figures] + [m["owner"] for m in zones["beside"]]
        assert sorted(owners) == list(range(n))
        assert all(m["cells"][0] in tops for m in figures)
        # I-AN-15: the supply never grows.
        supply = len(zones["supply"])
        assert supply <= self.supply
        self.supply = supply

    def before_move(self, move: str) -> None:
        g = self.game
        self.monks = {m["cells"][0] for m in g.zone("figures")}
        self.mover = g.to_move
        self.karma_before = Counter(c["label"] for c in g.zone("karma", self.mover))
        if g.prompt == "cell for your monk":
            # I-AN-13: the area holds no monk (the own one stands on its start area).
            assert not area(shown(g.zone("temple")), move) & self.monks

    def after_move(self) -> None:
        g = self.game
        events = g.events[self.events:]
        self.events = len(g.events)
        colours = shown(g.zone("temple"))
        home = [m["cells"][0] for m in g.zone("figures") if m["owner"] == self.mover]
        for e in events:
            if type(e).__name__ == "Placed" and e.dest == "temple":
                # I-AN-11: no tile goes onto a cell that held a monk (the own one included).
                assert not set(e.cells) & self.monks
                # I-AN-16: the placed tile has a cell in the monk's area right after.
                assert set(e.cells) & area(colours, home[0])
        # I-AN-8: every card played has the area's colour.
        played = Counter(c["label"] for c in g.zone("karma", self.mover)) - self.karma_before
        assert all(label.split()[0] == colours[home[0]] for label in played)
        # I-AN-6: after a turn that built (so phase 5 ran), hand >= rack or no draw pile left.
        names = [type(e).__name__ for e in events]
        for i, e in enumerate(events):
            if names[i] != "TurnEnded" or any(
                    names[j] == "TurnStarted" and events[j].player == e.player for j in range(i, len(events))):
                continue
            begun = max((j for j in range(i) if names[j] == "TurnStarted"), default=None)
            built = any(names[j] == "Placed" and events[j].dest == "temple" for j in range(begun or 0, i))
            if built or (begun is None and self.built_before):
                hand, rack = len(g.zone("hand", e.player)), len(g.zone("rack", e.player))
                assert hand >= rack or not g.zone("deck", e.player)
        self.built_before = g.var("built") > 0
        self.check()


def play_out(game: boardkit.Game, script: Script, tracker: Tracker | None = None) -> list[str]:
    pick = script.picker()
    moves = []
    while not game.is_over and len(moves) < CAP:
        legal = game.legal_moves()
        assert legal
        move = pick(legal)
        if tracker:
            tracker.before_move(move.label)
        game.play(move)
        moves.append(move.label)
        if tracker:
            tracker.after_move()
    return moves


@given(script=scripts, players=players_, options=options_)
def test_invariants_hold_in_random_games(script: Script, players: int, options: dict[str, Any]) -> None:
    game = RULES.new_game(players=players, seed=script.seed, options=options)
    tracker = Tracker(game)
    play_out(game, script, tracker)
    # The game ends; I-AN-17 and I-AN-18 at its end.
    assert game.is_over, "no end after the cap"
    zones = game.zones()
    if game.end_reason == "a player placed their last tile and the supply is empty":
        last = game.events[-1]
        assert type(last).__name__ == "GameEnded"
        assert zones["supply"] == []
        turns = [e for e in game.events if type(e).__name__ == "TurnStarted"]
        assert zones[f"rack[{turns[-1].player}]"] == []
    else:
        assert options["stall_end"]
        assert zones["supply"] == []
    keys = [(s, -len(zones[f"rack[{p}]"])) for p, s in enumerate(game.scores())]
    assert game.winners() == [p for p, k in enumerate(keys) if k == max(keys)]
    assert game.legal_moves() == []


@given(script=scripts, players=players_, cut=st.integers(min_value=0, max_value=300))
def test_json_round_trip_and_determinism(script: Script, players: int, cut: int) -> None:
    game = RULES.new_game(players=players, seed=script.seed)
    moves = play_out(game, script)
    cut = min(cut, len(moves))
    # Same seed and moves: the same game.
    replay = RULES.new_game(players=players, seed=script.seed)
    for m in moves[:cut]:
        replay.play(m)
    # A game saved mid-way (mid-turn too) continues identically.
    loaded = RULES.load_game(replay.to_json())
    assert loaded.to_json() == replay.to_json()
    for m in moves[cut:]:
        replay.play(m)
        loaded.play(m)
    assert replay.to_json() == game.to_json()
    assert loaded.zones() == game.zones()
    assert loaded.scores() == game.scores()
    assert Counter(type(e).__name__ for e in loaded.events) == Counter(type(e).__name__ for e in game.events)
