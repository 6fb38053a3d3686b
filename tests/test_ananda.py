"""Ananda: the Faye example and every Ananda scenario of shared/rules/examples.md, through
positions, plus checks of the grid vocabulary the ruleset stands on.

Cells are the examples' `(x,y)` written as the language's "x,y". Colours: the examples' P
(purple) is the ruleset's violet. Faye is player 0, Bob 1, Carol 2 (Dan 3 in four-player
fixtures); each player's meditation cards are set `back = player + 1`.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest

import boardkit
from boardkit.errors import RuleError, StateError

COLOURS = ["red", "orange", "yellow", "green", "blue", "violet"]
FAYE, BOB, CAROL, DAN = 0, 1, 2, 3
REST = {"Tile": "supply", "Card": "box", "Monk": "beside"}

RULES = boardkit.load_ruleset("ananda")


def tile(k1: str, k2: str) -> dict[str, str]:
    """A tile by its two colours (the ruleset names a tile's colours in Colour order)."""
    a, b = sorted([k1, k2], key=COLOURS.index)
    return {"type": "Tile", "a": a, "b": b}


def on(c1: str, k1: str, c2: str, k2: str) -> dict[str, Any]:
    """A tile on the temple showing colour k1 on cell c1 and k2 on c2."""
    t = tile(k1, k2)
    return {"piece": t, "at": [c1, c2] if t["a"] == k1 else [c2, c1]}


def monk(player: int, c: str) -> dict[str, Any]:
    return {"piece": f"monk {player}", "at": [c]}


def card(player: int, colour: str, value: int) -> dict[str, Any]:
    return {"type": "Card", "back": player + 1, "colour": colour, "value": value}


def cards_worth(player: int, total: int, avoid: list[dict]) -> list[dict]:
    """Cards of a player's set (values 1-4) adding up to `total`, none of `avoid`."""
    out: list[dict] = []
    for v in (4, 3, 2, 1):
        for c in COLOURS:
            x = card(player, c, v)
            if x not in avoid and sum(y["value"] for y in out) + v <= total:
                out.append(x)
    assert sum(y["value"] for y in out) == total
    return out


class Tiles:
    """The 63 tiles (three of each colour pair), handed out so that none is used twice."""

    def __init__(self) -> None:
        self.left = Counter({(a, b): 3 for i, a in enumerate(COLOURS) for b in COLOURS[i:]})

    def take(self, t: dict[str, str]) -> dict[str, str]:
        key = (t["a"], t["b"])
        assert self.left[key] > 0, f"no {key} tile left"
        self.left[key] -= 1
        return t

    def any(self, n: int) -> list[dict[str, str]]:
        out = []
        for (a, b), k in sorted(self.left.items()):
            while k and len(out) < n:
                out.append(self.take({"type": "Tile", "a": a, "b": b}))
                k -= 1
        assert len(out) == n
        return out


def position(players: int, temple: list[dict], figures: list[dict], racks: dict[int, list[dict]],
             hands: dict[int, list[dict]], karma: dict[int, list[dict]] | None = None,
             decks: dict[int, int] | None = None, supply: int | None = None, first: int = FAYE,
             variables: dict[str, Any] | None = None) -> dict[str, Any]:
    """A whole Ananda position. Tiles not listed go to the supply; with `supply`, all but that
    many are laid as filler on the bottom rows of the (14 x 14) temple, far from the others.
    `decks` gives how many cards each player's draw pile keeps (default: all that are left)."""
    karma = karma or {}
    tiles = Tiles()
    for entry in temple:
        tiles.take(entry["piece"])
    for rack in racks.values():
        for t in rack:
            tiles.take(t)
    temple = list(temple)
    if supply is not None:
        fill = sum(tiles.left.values()) - supply
        for i, t in enumerate(tiles.any(fill)):
            x, y = 2 * (i % 7), 13 - i // 7
            temple.append({"piece": t, "at": [f"{x},{y}", f"{x + 1},{y}"]})
    zones: dict[str, list[Any]] = {"temple": temple, "figures": figures}
    top = 5 if players == 2 else 4
    for p in range(players):
        zones[f"rack[{p}]"] = racks.get(p, [])
        zones[f"hand[{p}]"] = hands.get(p, [])
        zones[f"karma[{p}]"] = karma.get(p, [])
        used = zones[f"hand[{p}]"] + zones[f"karma[{p}]"]
        deck = [card(p, c, v) for c in COLOURS for v in range(1, top + 1) if card(p, c, v) not in used]
        if decks is not None and p in decks:
            deck = deck[: decks[p]]
        zones[f"deck[{p}]"] = deck
    return {"zones": zones, "vars": {"first": first, **(variables or {})}, "rest": REST}


def start(players: int, pos: dict[str, Any], **options: Any) -> boardkit.Game:
    return RULES.new_game(players=players, seed=1, position=pos, options=options or None)


def labels(game: boardkit.Game) -> list[str]:
    return [m.label for m in game.legal_moves()]


def size(game: boardkit.Game, zone: str, *index: Any) -> int:
    return len(game.zone(zone, *index))


def karma_total(game: boardkit.Game, player: int) -> int:
    return sum(c["value"] for c in game.zone("karma", player))


# The Faye example (examples.md AN-EX-1 to AN-EX-5): the fixture's layout, three players.
FAYE_HAND = [card(FAYE, "violet", 2), card(FAYE, "violet", 3), card(FAYE, "violet", 4), card(FAYE, "red", 1),
             card(FAYE, "yellow", 4), card(FAYE, "green", 2)]
A, BT = tile("violet", "green"), tile("violet", "yellow")


def faye_position() -> dict[str, Any]:
    temple = [on("0,0", "violet", "1,0", "violet"), on("0,1", "violet", "1,1", "violet"),
              on("4,0", "violet", "5,0", "violet"), on("4,1", "yellow", "5,1", "yellow"),
              on("6,0", "red", "6,1", "red")]
    figures = [monk(BOB, "0,0"), monk(CAROL, "5,1"), monk(FAYE, "6,0")]
    rack = [A, BT, tile("red", "orange"), tile("orange", "orange"), tile("orange", "blue")]
    return position(3, temple, figures, {FAYE: rack}, {FAYE: FAYE_HAND})


@pytest.fixture
def faye() -> boardkit.Game:
    return start(3, faye_position())


def test_an_ex_1_the_only_free_area_is_the_small_purple_one(faye: boardkit.Game) -> None:
    assert faye.to_move == FAYE
    assert faye.prompt == "cell for your monk"
    # L holds Bob, yellow holds Carol, red is where Faye stood: only S = {(4,0), (5,0)} is left.
    assert sorted(labels(faye)) == ["4,0", "5,0"]


def test_an_ex_2_building_joins_the_large_area_for_a_value_of_8(faye: boardkit.Game) -> None:
    faye.play("5,0")
    assert set(labels(faye)) == {"green-violet", "yellow-violet", "done"}  # no other tile has violet
    faye.play("green-violet")
    assert "3,1+3,0" in labels(faye)  # (3,0) violet, (3,1) green, on the foundation
    faye.play("3,1+3,0")
    assert faye.var("built") == 1
    faye.play("yellow-violet")
    # The negative check: (2,0) yellow and (2,1) violet touches only L, not Faye's area.
    assert "2,0+2,1" not in labels(faye)
    assert "2,1+2,0" in labels(faye)
    faye.play("2,1+2,0")
    assert size(faye, "rack", FAYE) == 3
    # No tile left on the rack can join a violet area, so building is over: meditation.
    assert faye.prompt == "card to meditate with"
    assert faye.var("area_value") == 8
    # Bob's monk now stands inside her area; that is allowed.
    view = faye.view(FAYE)
    assert {"type": "Monk", "label": "monk 1", "owner": 1, "cells": ["0,0"], "level": 1} in view["zones"]["figures"]


def test_an_ex_2_area_after_the_first_tile_is_3() -> None:
    game = start(3, faye_position())
    for move in ["5,0", "green-violet", "3,1+3,0"]:
        game.play(move)
    # Stop here: meditation reads the area as it stands.
    game.play("done")
    assert game.var("area_value") == 3


def test_an_ex_3_to_5_meditating_refilling_and_balancing(faye: boardkit.Game) -> None:
    for move in ["5,0", "green-violet", "3,1+3,0", "yellow-violet", "2,1+2,0"]:
        faye.play(move)
    supply, deck = size(faye, "supply"), size(faye, "deck", FAYE)
    # AN-EX-3: only purple cards; {2,3,4} = 9 > 8 is never reachable.
    assert labels(faye) == ["violet 2", "violet 3", "violet 4", "done"]
    faye.play("violet 2")
    assert labels(faye) == ["violet 3", "violet 4", "done"]
    faye.play("violet 3")
    # 8 - 5 = 3 left: violet 4 does not fit, so meditation ends by itself.
    assert faye.to_move == BOB
    assert faye.var("meditation") == 5
    assert karma_total(faye, FAYE) == 5
    # AN-EX-4: 8 - 5 = 3 tiles, rack 3 -> 6.
    assert size(faye, "rack", FAYE) == 6
    assert size(faye, "supply") == supply - 3
    # AN-EX-5: rack 6 > hand 4, so 2 cards: hand 6.
    assert size(faye, "hand", FAYE) == 6
    assert size(faye, "deck", FAYE) == deck - 2


def test_an_ex_3_every_legal_subset_and_no_other() -> None:
    def subsets(game: boardkit.Game, chosen: tuple[int, ...]) -> set[tuple[int, ...]]:
        out = {tuple(sorted(chosen))}
        if game.to_move != FAYE:
            return out
        for label in labels(game):
            if label != "done":
                game.play(label)
                out |= subsets(game, (*chosen, int(label.split()[1])))
                game.undo()
        return out

    game = start(3, faye_position())
    for move in ["5,0", "green-violet", "3,1+3,0", "yellow-violet", "2,1+2,0"]:
        game.play(move)
    assert subsets(game, ()) == {(), (2,), (3,), (4,), (2, 3), (2, 4), (3, 4)}


def four_player_board(area: list[dict], figures: list[dict], rack: list[dict], hand: list[dict], **kw: Any
                      ) -> dict[str, Any]:
    """Four players; Bob, Carol and Dan hold full racks of whatever tiles are left."""
    tiles = Tiles()
    for entry in area:
        tiles.take(entry["piece"])
    for t in rack:
        tiles.take(t)
    others = {p: tiles.any(8) for p in (BOB, CAROL, DAN)}
    return position(4, area, figures, {FAYE: rack, **others}, {FAYE: hand}, **kw)


def test_an_t1_the_rack_holds_8_and_the_rest_is_lost() -> None:
    # Five violet cells after building, plus the tile Faye places: area value 7.
    area = [on("0,0", "violet", "1,0", "violet"), on("2,0", "violet", "3,0", "violet"),
            on("4,1", "green", "4,0", "violet")]
    rack = [tile("violet", "violet"), tile("red", "red"), tile("red", "orange"), tile("red", "yellow"),
            tile("orange", "orange"), tile("orange", "yellow")]
    hand = [card(FAYE, "red", 1), card(FAYE, "red", 2), card(FAYE, "green", 1), card(FAYE, "blue", 1)]
    game = start(4, four_player_board(area, [], rack, hand, decks={FAYE: 20}))
    assert size(game, "supply") == 30
    game.play("0,0")
    game.play("violet-violet")
    game.play("5,0+6,0")
    # Rack 5: no tile left joins a violet area, so building ends; no violet card in hand, so
    # the meditation value is 0; both without a decision.
    assert game.to_move == BOB
    assert game.var("area_value") == 7
    assert game.var("meditation") == 0
    assert size(game, "rack", FAYE) == 8
    assert size(game, "supply") == 27
    # Phase 5: rack 8 > hand 4: 4 cards, hand 8; no card replaced the 4 lost tiles.
    assert size(game, "hand", FAYE) == 8
    assert size(game, "deck", FAYE) == 16


def test_an_t2_an_empty_supply_gives_cards_up_to_a_hand_of_8() -> None:
    area = [on("0,0", "violet", "1,0", "violet"), on("2,0", "violet", "3,0", "violet")]
    rack = [tile("violet", "violet"), tile("red", "red"), tile("red", "orange")]
    hand = [card(FAYE, "violet", 2), card(FAYE, "red", 1), card(FAYE, "red", 2), card(FAYE, "red", 3),
            card(FAYE, "green", 1), card(FAYE, "green", 2), card(FAYE, "blue", 1), card(FAYE, "blue", 2)]
    tiles = Tiles()
    for t in [*[e["piece"] for e in area], *rack]:
        tiles.take(t)
    others = {p: tiles.any(8) for p in (BOB, CAROL, DAN)}
    karma = {FAYE: [c for c in [card(FAYE, k, v) for k in COLOURS for v in range(1, 5)] if c not in hand][:6]}
    pos = position(4, area, [], {FAYE: rack, **others}, {FAYE: hand}, karma=karma, decks={FAYE: 10}, supply=0)
    game = RULES.new_game(players=4, seed=1, position=pos, options={"size": 14})
    assert size(game, "supply") == 0
    assert size(game, "deck", FAYE) == 10
    game.play("0,0")
    game.play("violet-violet")
    game.play("4,0+5,0")
    game.play("violet 2")
    # Supply 0, rack 2, hand 7, draw pile 10, area 6, meditation 2: 4 owed, 0 tiles, 1 card.
    assert game.to_move == BOB
    assert (game.var("area_value"), game.var("meditation")) == (6, 2)
    assert size(game, "rack", FAYE) == 2
    assert size(game, "hand", FAYE) == 8
    assert size(game, "deck", FAYE) == 9
    # An empty rack would have ended the game; a rack of 2 does not.
    assert not game.is_over


def test_an_t4_only_cards_of_the_area_colour_and_at_most_its_value() -> None:
    area = [on("0,0", "violet", "1,0", "violet")]
    hand = [card(FAYE, "violet", 3), card(FAYE, "violet", 2), card(FAYE, "red", 1)]
    game = start(3, position(3, area, [], {FAYE: [tile("violet", "violet")]}, {FAYE: hand}))
    game.play("0,0")
    game.play("violet-violet")
    game.play("2,0+3,0")
    assert game.var("area_value") == 4
    assert sorted(labels(game)) == ["done", "violet 2", "violet 3"]
    game.play("violet 3")
    assert game.to_move == BOB  # 2 more would make 5 > 4
    game.undo()
    game.play("violet 2")
    assert game.to_move == BOB  # 3 more would make 5 > 4
    assert karma_total(game, FAYE) == 2


def three_areas(rack: int, hand: int) -> dict[str, Any]:
    # FIXTURE: examples.md gives a supply of 10, which 63 tiles and only three areas cannot
    # give (two full racks and three tiles leave 40); the checks are on the changes.
    area = [on("0,0", "red", "1,0", "red"), on("0,2", "yellow", "1,2", "yellow"), on("0,4", "green", "1,4", "green")]
    figures = [monk(BOB, "0,0"), monk(CAROL, "0,2"), monk(FAYE, "0,4")]
    tiles = Tiles()
    for e in area:
        tiles.take(e["piece"])
    racks = {FAYE: tiles.any(rack), BOB: tiles.any(8), CAROL: tiles.any(8)}
    hands = {FAYE: [card(FAYE, "blue", 1), card(FAYE, "blue", 2)][:hand]}
    return position(3, area, figures, racks, hands)


def test_an_t5_no_unoccupied_area_takes_a_tile_and_ends_the_turn() -> None:
    game = start(3, three_areas(rack=4, hand=2))
    # Faye's turn passed without a decision of hers.
    assert game.to_move == BOB
    assert size(game, "rack", FAYE) == 5
    assert size(game, "supply") == 40 - 1
    assert size(game, "hand", FAYE) == 2  # phase 5 is skipped
    assert [m["label"] for m in game.zone("beside")] == ["monk 0"]
    assert [e.player for e in game.events if type(e).__name__ == "Chose"] == []


def test_an_t5_with_a_full_rack_nothing_changes() -> None:
    game = start(3, three_areas(rack=8, hand=2))
    assert game.to_move == BOB
    assert size(game, "rack", FAYE) == 8
    assert size(game, "supply") == 36
    assert size(game, "hand", FAYE) == 2


def test_an_t5_next_turn_the_start_restriction_is_void() -> None:
    game = start(3, three_areas(rack=4, hand=2))
    # Bob and Carol each move to a free area and build nothing, so their monks leave the
    # board too. Faye's monk, beside the board, may then go anywhere: the green area where
    # it stood before included.
    for player in (BOB, CAROL):
        assert game.to_move == player
        game.play("0,4")
        game.play("done")
    assert game.to_move == FAYE
    assert sorted(labels(game)) == ["0,0", "0,2", "0,4", "1,0", "1,2", "1,4"]


def test_an_t6_not_building_takes_the_monk_off_and_a_tile() -> None:
    area = [on("0,0", "violet", "1,0", "violet")]
    rack = [tile("violet", "violet"), tile("red", "red"), tile("red", "orange")]
    tiles = Tiles()
    for t in [area[0]["piece"], *rack]:
        tiles.take(t)
    others = {p: tiles.any(8) for p in (BOB, CAROL, DAN)}
    pos = position(4, area, [], {FAYE: rack, **others}, {FAYE: [card(FAYE, "red", 1)]}, supply=5)
    game = RULES.new_game(players=4, seed=1, position=pos, options={"size": 14})
    assert size(game, "supply") == 5
    game.play("0,0")
    assert "violet-violet" in labels(game)
    game.play("done")
    assert game.to_move == BOB
    assert [m["label"] for m in game.zone("beside")][-1] == "monk 0"
    assert size(game, "rack", FAYE) == 4
    assert size(game, "supply") == 4
    assert size(game, "hand", FAYE) == 1
    assert karma_total(game, FAYE) == 0


def end_position(bob_rack: int) -> dict[str, Any]:
    area = [on("0,0", "violet", "1,0", "violet")]
    rack = [tile("violet", "violet")]
    hand = [card(FAYE, "violet", 4)]
    karma = {FAYE: cards_worth(FAYE, 36, hand), BOB: cards_worth(BOB, 40, []), CAROL: cards_worth(CAROL, 35, [])}
    tiles = Tiles()
    for t in [area[0]["piece"], *rack]:
        tiles.take(t)
    racks = {FAYE: rack, BOB: tiles.any(bob_rack), CAROL: tiles.any(8)}
    return position(3, area, [], racks, {FAYE: hand}, karma=karma, supply=0)


@pytest.mark.parametrize(("bob_rack", "winners"), [(3, [FAYE]), (0, [FAYE, BOB])])
def test_an_t8_the_last_tile_ends_the_game_and_the_tie_break(bob_rack: int, winners: list[int]) -> None:
    game = RULES.new_game(players=3, seed=1, position=end_position(bob_rack), options={"size": 14})
    game.play("0,0")
    game.play("violet-violet")
    game.play("2,0+3,0")
    assert game.prompt == "card to meditate with"  # phases 3 to 5 still run
    game.play("violet 4")
    assert game.is_over
    assert game.end_reason == "a player placed their last tile and the supply is empty"
    assert game.turn_count == 1  # Bob and Carol get no further turn
    assert game.scores() == [40, 40, 35]
    assert game.winners() == winners


def test_setup() -> None:
    for players, deck in [(2, 30), (3, 24), (4, 24)]:
        game = RULES.new_game(players=players, seed=players)
        (start_tile,) = game.zone("temple")
        assert start_tile["a"] != start_tile["b"]
        assert start_tile["cells"] == ["4,4", "5,4"]  # the two centre cells of 10 x 10
        assert size(game, "supply") == 63 - 1 - 6 * players
        assert size(game, "box") == 108 - deck * players
        for p in range(players):
            assert size(game, "rack", p) == 6
            assert size(game, "hand", p) == 6
            assert size(game, "deck", p) == deck - 6
            values = {c["value"] for c in game.zone("hand", p) + game.zone("deck", p)}
            assert max(values) == (5 if players == 2 else 4)
        assert all(m["type"] == "Monk" for m in game.zone("beside"))


def test_the_board_size_is_an_option() -> None:
    game = RULES.new_game(players=2, seed=0, options={"size": 8})
    assert game.zone("temple")[0]["cells"] == ["3,3", "4,3"]


def test_a_tile_covers_exactly_two_tiles_of_one_level() -> None:
    # Two level-1 tiles side by side and one alone: a tile may bridge the two, not lie on the
    # single one, not half on the foundation, and not across levels.
    area = [on("0,0", "violet", "1,0", "violet"), on("2,0", "violet", "3,0", "red"),
            on("0,1", "green", "1,1", "green")]
    rack = [tile("violet", "violet"), tile("violet", "blue")]
    game = start(3, position(3, area, [], {FAYE: rack}, {}))
    game.play("0,0")
    game.play("violet-violet")
    ways = set(labels(game))
    assert "1,0+2,0" in ways  # covers two different tiles of level 1
    assert "0,1+1,1" not in ways  # covers exactly one tile
    assert "3,0+4,0" not in ways  # half on the foundation
    game.play("1,0+2,0")
    (top,) = [t for t in game.zone("temple") if t["level"] == 2]
    assert top["cells"] == ["1,0", "2,0"]
    game.play("blue-violet")
    ways = set(labels(game))
    assert ways
    assert not {"2,0+3,0", "3,0+2,0"} & ways  # across levels 2 and 1


def test_no_tile_covers_any_monk() -> None:
    area = [on("0,0", "violet", "1,0", "violet"), on("2,0", "violet", "3,0", "violet"),
            on("0,1", "yellow", "1,1", "yellow")]
    figures = [monk(BOB, "2,0")]
    game = start(3, position(3, area, figures, {FAYE: [tile("yellow", "violet")]}, {}))
    game.play("0,1")
    game.play("yellow-violet")
    ways = labels(game)
    assert ways
    assert not any("2,0" in w.split("+") for w in ways)  # Bob's monk
    assert not any("0,1" in w.split("+") for w in ways)  # her own


def test_json_round_trip_mid_turn_continues_identically(faye: boardkit.Game) -> None:
    for move in ["5,0", "green-violet", "3,1+3,0"]:
        faye.play(move)
    text = faye.to_json()
    doc = json.loads(text)
    assert {"piece", "cells", "level"} <= set(doc["boards"]["temple"][0])
    again = RULES.load_game(text)
    assert again.to_json() == text
    for move in ["yellow-violet", "2,1+2,0", "violet 2", "violet 3"]:
        faye.play(move)
        again.play(move)
    assert again.to_json() == faye.to_json()
    assert again.zone("temple") == faye.zone("temple")


def test_a_corrupt_board_is_refused(faye: boardkit.Game) -> None:
    doc = json.loads(faye.to_json())
    doc["boards"]["temple"][0]["cells"] = ["99,0", "0,0"]
    with pytest.raises(StateError, match="not a cell of grid 'temple'"):
        RULES.load_game(json.dumps(doc))
    doc = json.loads(faye.to_json())
    doc["boards"]["temple"][0]["level"] = 2
    with pytest.raises(StateError, match="levels"):
        RULES.load_game(json.dumps(doc))


def test_undo_restores_the_board(faye: boardkit.Game) -> None:
    faye.play("5,0")
    before = faye.zone("temple")
    faye.play("green-violet")
    faye.play("3,1+3,0")
    faye.undo()
    faye.undo()
    assert faye.zone("temple") == before


def test_views_hide_racks_and_hands_but_show_the_temple(faye: boardkit.Game) -> None:
    view = faye.view(BOB)
    assert view["zones"]["rack[0]"] == {"count": 5}
    assert view["zones"]["hand[0]"] == {"count": 6}
    assert view["zones"]["supply"] == {"count": size(faye, "supply")}
    assert len(view["zones"]["temple"]) == 5
    assert all({"cells", "level"} <= set(t) for t in view["zones"]["temple"])
    json.dumps(view)


def test_a_position_needs_cells_on_a_grid() -> None:
    pos = faye_position()
    pos["zones"]["temple"][0] = tile("violet", "violet")
    with pytest.raises(StateError, match="takes entries"):
        RULES.new_game(players=3, seed=1, position=pos)
    pos = faye_position()
    pos["rest"] = "temple"
    with pytest.raises(StateError, match="no 'rest' zone"):
        RULES.new_game(players=3, seed=1, position=pos)


GRID_GAME = """
game "Grid check"
players 2
enum Colour { red, blue }
component Tile { a: Colour, b: Colour } parts [.a, .b]
zone box: pile, public
zone board: grid(4, 3), public
setup {
  create 2 Tile(a: red, b: blue) into box
}
play {
  %s
  end game "done"
}
"""


@pytest.mark.parametrize(("statement", "message"), [
    ("move 1 of box to board", "with 'place PIECE on ZONE at CELLS', not 'move'"),
    ("place first(box) on box at \"0,0\"", "'place' puts a piece on a grid zone"),
    ("log \"x\", top(box, \"0,0\")", "top() needs a grid zone first"),
    ("shuffle board", "a grid zone cannot be shuffled"),
    ("create 1 Tile(a: red, b: red) into board", "cannot be created on grid zone"),
    ("log \"x\", regions(board, 1, 2, 3)", "regions() takes 1 to 3 argument(s), got 4"),
])
def test_grid_misuse_is_a_located_rule_error(statement: str, message: str) -> None:
    with pytest.raises(RuleError, match=re.escape(message)) as caught:
        boardkit.parse_ruleset(GRID_GAME % statement, filename="grid.bk")
    assert caught.value.line == 12


def test_a_grid_cannot_have_another_kind() -> None:
    text = GRID_GAME.replace("grid(4, 3), public", "stack, grid(4, 3)") % ""
    with pytest.raises(RuleError, match="cannot also be a stack"):
        boardkit.parse_ruleset(text, filename="grid.bk")


@pytest.mark.parametrize(("statement", "message"), [
    ("place first(box) on board at \"4,0\"", "'4,0' is not a cell of grid 'board'"),
    ("place first(box) on board at [\"0,0\", \"0,0\"]", "cannot cover a cell twice"),
    ("place first(box) on board at [\"0,0\"]", "has 2 parts, so it covers 2 cells, not 1"),
])
def test_bad_placements_are_located_runtime_errors(statement: str, message: str) -> None:
    rules = boardkit.parse_ruleset(GRID_GAME % statement, filename="grid.bk")
    with pytest.raises(boardkit.BoardkitError, match=message) as caught:
        rules.new_game()
    assert "grid.bk:12:" in str(caught.value)


def test_a_covered_piece_cannot_leave_the_grid() -> None:
    body = """place first(box) on board at ["0,0", "1,0"]
  place last(box) on board at ["1,0", "2,0"]
  move 1 of board where it == first(board) to box"""
    rules = boardkit.parse_ruleset(GRID_GAME % body, filename="grid.bk")
    with pytest.raises(boardkit.BoardkitError, match="cannot leave the grid"):
        rules.new_game()


def test_the_grid_reference_values() -> None:
    """The values docs/reference/grid.md shows after three placements on a 4 x 3 grid."""
    text = """
game "Grid values"
players 2
enum Colour { red, blue }
component Tile { a: Colour, b: Colour } label text(.a) + "-" + text(.b) parts [.a, .b]
zone box: stack, public
zone board: grid(4, 3), public
var out = []
setup {
  create 2 Tile(a: red, b: blue) into box
  create 1 Tile(a: blue, b: blue) into box
}
play {
  let t1 = first(box)
  place t1 on board at ["0,0", "1,0"]
  let t2 = first(box)
  place t2 on board at ["2,0", "3,0"]
  let t3 = first(box)
  place t3 on board at ["1,0", "2,0"]
  set out = [occupied(board), stack(board, "1,0") == [t3, t1], top(board, "2,0") == t3, level(board, "2,0"),
             level(board, t1), cells(board, t3), part(board, "0,0"), part(board, "1,0"),
             tops(board, ["0,0", "1,0"]) == [t1, t3], regions(board), region(board, "3,0"),
             joining(board, "0,0", t1, [["0,1", "1,1"], ["1,1", "0,1"]])]
  end game "done"
}
"""
    game = boardkit.parse_ruleset(text, filename="values.bk").new_game()
    assert game.var("out") == [
        ["0,0", "1,0", "2,0", "3,0"], True, True, 2, 1, ["1,0", "2,0"], "red", "blue", True,
        [["0,0"], ["1,0", "2,0", "3,0"]], ["1,0", "2,0", "3,0"], [["0,1", "1,1"]]]
