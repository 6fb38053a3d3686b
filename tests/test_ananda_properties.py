"""Ananda property tests over random games (shared/rules/invariants.md §1), for 2, 3 and 4
players, checked after every decision and re-derived from the whole state each time.

The property-test kit plays them (boardkit.testing): it checks the invariants the ruleset
declares (tiles, cards, racks, hands, meditation, monks) after every decision, and the
engine's guarantees (JSON round trips, determinism, undo, views, refused moves, no dead ends)
every few decisions. What the rules cannot state (stacks, monks on top, what a move did, what
only grows, the end) is checked by a watcher the kit runs after every decision.

Random games end by the rules (a player places their last tile with the supply empty); the
decision cap only guards against a game that never ends, which the rules allow (AN-21).
"""

from __future__ import annotations

from collections import Counter

from hypothesis import settings

import boardkit
from boardkit.testing import Checks, check_rules

CAP = 4000
# Games a test plays: a fifth of the Hypothesis profile's examples (5 by default).
GAMES = max(2, settings.default.max_examples // 5)


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


class Watcher:
    """Checks invariants I-AN-6 to I-AN-18 that a state and the one before it show, after every decision."""

    calls = 0  # in all games: the kit does run it

    def __init__(self, game: boardkit.Game) -> None:
        self.game = game
        self.karma = [0] * game.players
        self.supply = len(game.zone("supply"))
        self.events = len(game.events)
        self.built_before = False
        self.check()
        self.before_move()

    def __call__(self) -> None:
        Watcher.calls += 1
        self.after_move()
        if self.game.is_over:
            self.check_end()
        else:
            self.before_move()

    def check(self) -> None:
        g = self.game
        zones = g.zones()
        temple = g.zone("temple")
        assert all(t["type"] == "Tile" for t in temple)
        # I-AN-7: karma never decreases.
        karma = g.scores()
        assert all(k >= old for k, old in zip(karma, self.karma))
        self.karma = karma
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
        # I-AN-11: monks stand on visible cells.
        assert all(m["cells"][0] in tops for m in g.zone("figures"))
        # I-AN-15: the supply never grows.
        supply = len(zones["supply"])
        assert supply <= self.supply
        self.supply = supply

    def before_move(self) -> None:
        g = self.game
        self.monks = {m["cells"][0] for m in g.zone("figures")}
        self.mover = g.to_move
        self.karma_before = Counter(c["label"] for c in g.zone("karma", self.mover))
        self.placing_monk = g.prompt == "cell for your monk"
        self.shown_before = shown(g.zone("temple")) if self.placing_monk else {}

    def after_move(self) -> None:
        g = self.game
        if self.placing_monk:
            # I-AN-13: the area of the monk's cell held no monk (the own one stands on its start area).
            assert not area(self.shown_before, g.history[-1]) & self.monks
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

    def check_end(self) -> None:
        """I-AN-17 and I-AN-18 at the end."""
        game = self.game
        zones = game.zones()
        if game.end_reason == "a player placed their last tile and the supply is empty":
            last = game.events[-1]
            assert type(last).__name__ == "GameEnded"
            assert zones["supply"] == []
            turns = [e for e in game.events if type(e).__name__ == "TurnStarted"]
            assert zones[f"rack[{turns[-1].player}]"] == []
        else:
            assert game.options["stall_end"]
            assert zones["supply"] == []
        keys = [(s, -len(zones[f"rack[{p}]"])) for p, s in enumerate(game.scores())]
        assert game.winners() == [p for p, k in enumerate(keys) if k == max(keys)]


def test_random_games_keep_the_invariants_and_guarantees() -> None:
    calls = Watcher.calls
    # Random games end by the rules; the bound only guards against one that never ends.
    report = check_rules("ananda", games=GAMES, checks=Checks(max_decisions=CAP, every=60, watcher=Watcher))
    assert report.games == report.ended == GAMES
    assert Watcher.calls - calls >= report.decisions
    assert set(report.invariants) >= {"63 tiles", "own cards", "108 cards", "rack limit", "hand limit"}


def test_the_stall_end_option_and_board_sizes_are_played() -> None:
    for players, size in ((3, 8), (4, 12)):
        report = check_rules("ananda", games=1, players=players, seed=size,
                             options={"size": size, "stall_end": True},
                             checks=Checks(max_decisions=CAP, every=200, watcher=Watcher))
        assert report.ended == 1
