"""Malformed positions a host app may send to `new_game`: each is refused with a StateError that
names the fault (never a bare KeyError or TypeError), and the caller's dict is left as it was."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardkit

PLAYERS = {"mandala": 2, "ananda": 2, "chakra": 2, "meenakshi": 2}
ANANDA_REST = {"Tile": "supply", "Card": "box", "Monk": "beside"}


def refused(ruleset: str, position: Any) -> str:
    """The StateError message for `position`, checking that the position was not changed."""
    before = copy.deepcopy(position)
    with pytest.raises(boardkit.StateError) as info:
        boardkit.load_ruleset(ruleset).new_game(players=PLAYERS[ruleset], seed=1, position=position)
    assert position == before
    return str(info.value)


def on_temple(entry: Any) -> dict[str, Any]:
    return {"zones": {"temple": [entry]}, "rest": ANANDA_REST}


BAD = {
    # The position and its sections.
    "not a dict": ("mandala", ["hand[0]"],
                   "a position is a dict with keys ['known', 'rest', 'vars', 'zones'], got ['hand[0]']"),
    "an unknown key": ("mandala", {"zones": {}, "cards": []}, "a position is a dict with keys"),
    "zones a list": ("mandala", {"zones": ["hand[0]"]},
                     "a position's 'zones' maps zone names to lists of pieces, not ['hand[0]']"),
    "zones a string": ("mandala", {"zones": "hand[0]"},
                       "a position's 'zones' maps zone names to lists of pieces, not 'hand[0]'"),
    "vars a list": ("mandala", {"vars": ["first"]}, "a position's 'vars' maps variable names to values, not ['first']"),
    "known a list": ("mandala", {"known": ["cup[1]"]},
                     "a position's 'known' maps players to lists of zones, not ['cup[1]']"),
    # Zones.
    "a zone named by an int": ("mandala", {"zones": {0: ["red"]}, "rest": "deck"},
                               "position names no zone of this ruleset: 0"),
    "an unknown zone": ("mandala", {"zones": {"hand[2]": []}, "rest": "deck"},
                        "position names no zone of this ruleset: 'hand[2]'"),
    "zone contents a string": ("mandala", {"zones": {"hand[0]": "red"}, "rest": "deck"},
                               "zone 'hand[0]' must be given a list of pieces"),
    # Pieces.
    "a piece given as an int": ("mandala", {"zones": {"hand[0]": [3]}, "rest": "deck"},
                                "a piece for zone 'hand[0]' is a label or a dict of attributes, not 3"),
    "a piece given as None": ("mandala", {"zones": {"hand[0]": [None]}, "rest": "deck"},
                              "a piece for zone 'hand[0]' is a label or a dict of attributes, not None"),
    "a piece given as a list": ("mandala", {"zones": {"hand[0]": [["red"]]}, "rest": "deck"},
                                "a piece for zone 'hand[0]' is a label or a dict of attributes, not ['red']"),
    "attributes with an int key": ("mandala", {"zones": {"hand[0]": [{1: "red"}]}, "rest": "deck"},
                                   "a piece for zone 'hand[0]' is a label or a dict of attributes, not {1: 'red'}"),
    "an unknown component type": ("mandala", {"zones": {"hand[0]": [{"type": "Tile"}]}, "rest": "deck"},
                                  "a piece for zone 'hand[0]' names no component type of this ruleset: 'Tile'"),
    "a type given as a list": ("mandala", {"zones": {"hand[0]": [{"type": ["Card"]}]}, "rest": "deck"},
                               "names no component type of this ruleset: ['Card']"),
    "an unknown attribute": ("mandala", {"zones": {"hand[0]": [{"colour": "red", "size": 2}]}, "rest": "deck"},
                             "a piece for zone 'hand[0]' names an attribute no component has: 'size'"),
    "another type's attribute": ("chakra", {"zones": {"chip_pool": [{"type": "Chip", "value": 1}]}, "rest": "bag"},
                                 "a piece for zone 'chip_pool' names an attribute no type 'Chip' has: 'value'"),
    "an attribute of the wrong type": ("chakra", {"zones": {"token_box": [{"type": "Plenitude", "value": True}]},
                                       "rest": "bag"},
                                       "no piece {'type': 'Plenitude', 'value': True} left for zone 'token_box'"),
    "an unknown label": ("mandala", {"zones": {"hand[0]": ["blue"]}, "rest": "deck"},
                         "no piece 'blue' left for zone 'hand[0]': the game has too few of them"),
    "a duplicate piece": ("mandala", {"zones": {"hand[0]": ["red"] * 10, "cup[1]": ["red"] * 9}, "rest": "deck"},
                          "no piece 'red' left for zone 'cup[1]'"),
    "missing pieces without rest": ("mandala", {"zones": {"hand[0]": []}},
                                    "pieces of the listed zones have nowhere to go"),
    # Rest.
    "rest a list": ("mandala", {"zones": {"hand[0]": ["red"]}, "rest": ["deck"]},
                    "position's rest zone ['deck'] is not a zone of this ruleset"),
    "rest an int": ("mandala", {"zones": {"hand[0]": ["red"]}, "rest": 3},
                    "position's rest zone 3 is not a zone of this ruleset"),
    "rest for an unknown type": ("ananda", {"rest": {**ANANDA_REST, "Tyle": "supply"}},
                                 "position's rest names no component type of this ruleset: 'Tyle'"),
    "rest for a type a list": ("ananda", {"rest": {**ANANDA_REST, "Tile": ["supply"]}},
                               "position's rest zone ['supply'] for 'Tile' is not a zone of this ruleset"),
    "rest missing a type": ("ananda", {"rest": {"Tile": "supply"}},
                            "position's rest names no zone for the pieces of type"),
    # Grid zones.
    "a grid entry without cells": ("ananda", on_temple("red-blue"),
                                   "grid zone 'temple' takes entries {'piece': label or attributes, 'at': cells}"),
    "cells given as an int": ("ananda", on_temple({"piece": "red-blue", "at": 5}),
                              "grid zone 'temple': a piece is 'at' a cell or a list of cells such as '3,4', not 5"),
    "cells nested": ("ananda", on_temple({"piece": "red-blue", "at": [["0,0"], ["1,0"]]}),
                     "a piece is 'at' a cell or a list of cells"),
    "a cell off the grid": ("ananda", on_temple({"piece": "red-blue", "at": ["99,0", "0,0"]}),
                            "'99,0' is not a cell of grid 'temple'"),
    "a grid piece as an int": ("ananda", on_temple({"piece": 7, "at": ["0,0", "1,0"]}),
                               "a piece for zone 'temple' is a label or a dict of attributes, not 7"),
    # Variables.
    "an unknown variable": ("mandala", {"vars": {"firstt": 0}}, "position names no variable of this ruleset: 'firstt'"),
    "a variable named by an int": ("mandala", {"vars": {1: 0}}, "position names no variable of this ruleset: 1"),
    "a string for a counter": ("mandala", {"vars": {"passes": "2"}}, "variable 'passes' holds int values, not '2'"),
    "a bool for an int": ("mandala", {"vars": {"first": True}}, "variable 'first' holds int values, not True"),
    "a list for an int": ("mandala", {"vars": {"first": [0]}}, "variable 'first' holds int values, not [0]"),
    "a float for an int": ("mandala", {"vars": {"first": 0.0}}, "variable 'first' holds int values, not 0.0"),
    "None for an int": ("mandala", {"vars": {"first": None}}, "variable 'first' holds int values, not None"),
    "an int for a bool": ("mandala", {"vars": {"last_mandala": 1}}, "variable 'last_mandala' holds bool values, not 1"),
    "an int for a text": ("mandala", {"vars": {"ending": 3}}, "variable 'ending' holds str values, not 3"),
    "a dict in a list": ("meenakshi", {"vars": {"floors[0]": [{"a": 1}]}},
                         "variable 'floors[0]' takes a list of integers, booleans, texts, none and lists"),
    "a float in a list": ("meenakshi", {"vars": {"floors[0]": [1, 1.5]}},
                          "variable 'floors[0]' takes a list of integers"),
    # Knowledge.
    "a player out of range": ("mandala", {"known": {"2": ["cup[1]"]}},
                              "position's 'known' names no player of this game: '2'"),
    "a negative player": ("mandala", {"known": {-1: ["cup[1]"]}},
                          "position's 'known' names no player of this game: -1"),
    "a bool for a player": ("mandala", {"known": {True: ["cup[1]"]}},
                            "position's 'known' names no player of this game: True"),
    "a digit that is no number": ("mandala", {"known": {"²": ["cup[1]"]}},
                                  "position's 'known' names no player of this game: '²'"),
    "known zones a string": ("mandala", {"known": {"0": "cup[1]"}},
                             "position's 'known' gives player '0' a list of zones, not 'cup[1]'"),
    "known zones None": ("mandala", {"known": {"0": None}},
                         "position's 'known' gives player '0' a list of zones, not None"),
    "known zones a dict": ("mandala", {"known": {"0": {"cup[1]": True}}}, "gives player '0' a list of zones"),
    "a known zone as a list": ("mandala", {"known": {"0": [["cup[1]"]]}},
                               "position's 'known' names no zone of this ruleset: ['cup[1]']"),
    "an unknown known zone": ("mandala", {"known": {"0": ["cup[9]"]}},
                              "position's 'known' names no zone of this ruleset: 'cup[9]'"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_malformed_position_is_refused_with_its_fault_named(case: str) -> None:
    ruleset, position, message = BAD[case]
    assert message in refused(ruleset, position)


def test_a_cyclic_list_is_refused() -> None:
    loop: list[Any] = []
    loop.append(loop)
    with pytest.raises(boardkit.StateError, match="nested at most 32 deep"):
        boardkit.load_ruleset("meenakshi").new_game(players=2, seed=1, position={"vars": {"floors[0]": loop}})
    assert len(loop) == 1
    assert loop[0] is loop


def test_strict_attribute_types_still_match_the_right_piece() -> None:
    rules = boardkit.load_ruleset("chakra")
    game = rules.new_game(players=2, seed=1, position={"zones": {"token_box": [{"type": "Plenitude", "value": 1}]},
                                                       "rest": "bag"})
    assert game.zone("token_box") == [{"type": "Plenitude", "label": "1", "value": 1}]


def test_the_game_keeps_nothing_of_the_callers_position() -> None:
    rules = boardkit.load_ruleset("meenakshi")
    floors = [["red", 1]]
    position = {"vars": {"floors[0]": floors}}
    game = rules.new_game(players=2, seed=1, position=position)
    saved = game.to_json()
    floors[0].append("junk")
    position["vars"]["floors[1]"] = ["junk"]
    assert game.var("floors", 0) == [["red", 1]]
    assert game.to_json() == saved


@pytest.mark.parametrize("first", [2, -1])
def test_a_start_player_out_of_range_is_refused(first: int) -> None:
    assert "no player" in refused("mandala", {"vars": {"first": first}})


def test_a_position_nested_too_deep_to_copy_is_refused() -> None:
    deep: list[Any] = []
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(boardkit.StateError, match="a position is a dict"):
        boardkit.load_ruleset("mandala").new_game(players=2, seed=1, position=deep)


# Property: junk anywhere in a good position is refused with a StateError, or accepted and saved
# as given; nothing else.
GOOD = {"zones": {"hand[0]": ["red", {"colour": "orange"}], "mountain[m1]": ["black"]},
        "vars": {"first": 1, "ending": ""}, "rest": "deck", "known": {"0": ["cup[1]"]}}
JUNK = st.recursive(st.none() | st.booleans() | st.integers(-3, 3) | st.floats(allow_nan=False) | st.text(max_size=4)
                    | st.sampled_from(["deck", "hand[0]", "red", "first", "Card", "colour"]),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
                    max_leaves=6)


def paths(value: Any, here: tuple = ()) -> list[tuple]:
    """Every place in a nested value, as the keys and indexes leading there."""
    found = [here]
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
    for k, v in children:
        found += paths(v, (*here, k))
    return found


def replaced(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    out = copy.copy(value)
    out[path[0]] = replaced(value[path[0]], path[1:], new)
    return out


@settings(max_examples=100, deadline=None)
@given(path=st.sampled_from(paths(GOOD)), junk=JUNK)
def test_junk_anywhere_in_a_position_is_refused_or_accepted(path: tuple, junk: Any) -> None:
    position = replaced(GOOD, path, junk)
    before = copy.deepcopy(position)
    try:
        game = boardkit.load_ruleset("mandala").new_game(players=2, seed=1, position=position)
    except boardkit.StateError as err:
        assert re.search(r"position|zone|piece|variable", str(err))
    else:
        assert json.loads(game.to_json())["position"] == json.loads(json.dumps(position))
    assert position == before
