"""The public API's contracts on Mandala: bad options, bad saves, impossible positions, the end."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import boardkit

RULESETS = ["mandala", "mandala_seed"]


def played(name: str, seed: int = 5, decisions: int = 37) -> boardkit.Game:
    """A game some decisions in (mid-turn, as a rule), by a fixed random choice."""
    game = boardkit.load_ruleset(name).new_game(players=2, seed=seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        game.play(rng.choice(game.legal_moves()))
    return game


def finished(name: str, seed: int = 5) -> boardkit.Game:
    game = boardkit.load_ruleset(name).new_game(players=2, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    return game


def test_both_rulesets_are_bundled() -> None:
    assert {"mandala", "mandala_seed"} <= set(boardkit.list_rulesets())
    assert boardkit.load_ruleset("mandala").title == "Mandala"


def test_error_classes_share_one_base() -> None:
    for cls in (boardkit.IllegalMove, boardkit.StateError, boardkit.OptionError, boardkit.RuleError,
                boardkit.RuleRuntimeError):
        assert issubclass(cls, boardkit.BoardkitError)


# Options.
@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("players", [0, 1, 3, 4, "2", 2.0])
def test_only_two_players(name: str, players: Any) -> None:
    with pytest.raises(boardkit.OptionError):
        boardkit.load_ruleset(name).new_game(players=players, seed=1)


@pytest.mark.parametrize("name", RULESETS)
def test_unknown_option(name: str) -> None:
    with pytest.raises(boardkit.OptionError, match="handlimit"):
        boardkit.load_ruleset(name).new_game(players=2, options={"handlimit": 8})


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("value", [7, -1, "8", 8.5, None, [8]])
def test_bad_option_value(name: str, value: Any) -> None:
    with pytest.raises(boardkit.OptionError, match="hand_limit"):
        boardkit.load_ruleset(name).new_game(players=2, options={"hand_limit": value})


@pytest.mark.parametrize("name", RULESETS)
def test_every_declared_option_value_is_accepted(name: str) -> None:
    rules = boardkit.load_ruleset(name)
    for value in rules.options["hand_limit"].choices:
        game = rules.new_game(players=2, seed=1, options={"hand_limit": value})
        assert game.legal_moves()


# Saved games.
@pytest.mark.parametrize("name", RULESETS)
def test_a_saved_game_loads_and_continues(name: str) -> None:
    game = played(name)
    loaded = boardkit.load_ruleset(name).load_game(game.to_json())
    assert loaded.to_json() == game.to_json()
    assert [m.label for m in loaded.legal_moves()] == [m.label for m in game.legal_moves()]


@pytest.mark.parametrize(("saved_by", "loaded_by"), [("mandala", "mandala_seed"), ("mandala_seed", "mandala")])
def test_a_game_of_another_ruleset_is_refused(saved_by: str, loaded_by: str) -> None:
    text = played(saved_by).to_json()
    with pytest.raises(boardkit.StateError):
        boardkit.load_ruleset(loaded_by).load_game(text)


def _edit(text: str, change: Any) -> str:
    doc = json.loads(text)
    change(doc)
    return json.dumps(doc)


def _move_card(doc: dict) -> None:
    doc["zones"]["hand[1]"].append(doc["zones"]["hand[0]"][0])


CORRUPTIONS = {
    "not json": lambda text: text[: len(text) // 2],
    "empty": lambda text: "",
    "a list": lambda text: "[]",
    "null": lambda text: "null",
    "other format version": lambda text: _edit(text, lambda d: d.update(format_version=99)),
    "missing seed": lambda text: _edit(text, lambda d: d.pop("seed")),
    "seed of the wrong type": lambda text: _edit(text, lambda d: d.update(seed="five")),
    "a card lost": lambda text: _edit(text, lambda d: d["zones"]["deck"].pop()),
    "a card in two zones": lambda text: _edit(text, _move_card),
    "an unknown card id": lambda text: _edit(text, lambda d: d["zones"]["deck"].append(999)),
    "an unknown zone": lambda text: _edit(text, lambda d: d["zones"].update({"hand[2]": []})),
    "an unknown variable": lambda text: _edit(text, lambda d: d["vars"].update(turns=3)),
    "a missing variable": lambda text: _edit(text, lambda d: d["vars"].pop("passes")),
    "a bad program step": lambda text: _edit(text, lambda d: d["frames"][-1].update(pc=10**6)),
    "an unknown procedure": lambda text: _edit(text, lambda d: d["frames"][-1].update(proc="nope")),
    "running without frames": lambda text: _edit(text, lambda d: d.update(frames=[])),
    "a foreign piece type": lambda text: _edit(text, lambda d: d["pieces"][0].update(type="Tile")),
    "three players": lambda text: _edit(text, lambda d: d.update(players=3)),
    "a bad option": lambda text: _edit(text, lambda d: d["options"].update(hand_limit=7)),
}


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("corruption", sorted(CORRUPTIONS))
def test_a_corrupt_saved_game_is_refused(name: str, corruption: str) -> None:
    text = CORRUPTIONS[corruption](played(name).to_json())
    with pytest.raises(boardkit.StateError):
        boardkit.load_ruleset(name).load_game(text)


# Positions.
BAD_POSITIONS = {
    "19 reds": {"zones": {"hand[0]": ["red"] * 19}, "rest": "deck"},
    "19 reds over two zones": {"zones": {"hand[0]": ["red"] * 10, "cup[1]": ["red"] * 9}, "rest": "deck"},
    "an unknown colour": {"zones": {"hand[0]": ["blue"]}, "rest": "deck"},
    "an unknown zone": {"zones": {"hand[2]": ["red"]}, "rest": "deck"},
    "an unknown zone name": {"zones": {"hands[0]": ["red"]}, "rest": "deck"},
    "an unknown rest zone": {"zones": {"hand[0]": ["red"]}, "rest": "box"},
    "an unknown variable": {"vars": {"turn": 3}},
    "a variable of the wrong type": {"vars": {"first": "0"}},
    "an unknown key": {"zones": {}, "cards": []},
    "not a dict": ["hand[0]"],
    "zone contents not a list": {"zones": {"hand[0]": "red"}, "rest": "deck"},
}


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("position", sorted(BAD_POSITIONS))
def test_an_impossible_position_is_refused(name: str, position: str) -> None:
    with pytest.raises(boardkit.StateError):
        boardkit.load_ruleset(name).new_game(players=2, seed=1, position=BAD_POSITIONS[position])


@pytest.mark.parametrize("name", RULESETS)
def test_eighteen_of_a_colour_is_a_possible_position(name: str) -> None:
    game = boardkit.load_ruleset(name).new_game(
        players=2, seed=1, position={"zones": {"hand[0]": ["red"] * 9, "cup[1]": ["red"] * 9}, "rest": "deck"})
    assert [c["colour"] for c in game.zone("hand", 0)] == ["red"] * 9
    assert all(c["colour"] != "red" for c in game.zone("deck"))


@pytest.mark.parametrize("name", RULESETS)
def test_a_position_game_saves_loads_and_undoes_to_its_start(name: str) -> None:
    rules = boardkit.load_ruleset(name)
    position = {"zones": {"hand[0]": ["red", "red", "yellow"], "hand[1]": ["green"], "mountain[m1]": ["orange"],
                          "mountain[m2]": ["purple"]}, "vars": {"first": 0}, "rest": "deck"}
    game = rules.new_game(players=2, seed=3, position=position)
    start = game.to_json()
    for label in ("mountain", "red", "m1"):
        game.play(label)
    loaded = rules.load_game(game.to_json())
    for _ in range(3):
        loaded.undo()
    assert loaded.to_json() == start


# The end of the game.
@pytest.mark.parametrize("name", RULESETS)
def test_play_after_the_end_is_illegal(name: str) -> None:
    game = finished(name)
    assert game.is_over and game.end_reason
    assert game.legal_moves() == []
    assert game.to_move is None
    before = game.to_json()
    for label in ("mountain", "pass", game.history[-1], ""):
        with pytest.raises(boardkit.IllegalMove):
            game.play(label)
    assert game.to_json() == before


@pytest.mark.parametrize("name", RULESETS)
def test_undo_at_the_start_is_illegal(name: str) -> None:
    game = boardkit.load_ruleset(name).new_game(players=2, seed=1)
    with pytest.raises(boardkit.IllegalMove):
        game.undo()


@pytest.mark.parametrize("name", RULESETS)
def test_undo_reopens_a_finished_game(name: str) -> None:
    game = finished(name)
    last = game.history[-1]
    game.undo()
    assert not game.is_over
    assert last in [m.label for m in game.legal_moves()]
    game.play(last)
    assert game.is_over


def _ended_by_passes(name: str, zones: dict[str, list[str]]) -> boardkit.Game:
    base = {"hand[0]": [], "hand[1]": [], "mountain[m1]": ["yellow"], "mountain[m2]": ["green"]}
    game = boardkit.load_ruleset(name).new_game(players=2, seed=2,
                                                position={"zones": {**base, **zones}, "vars": {"first": 0},
                                                          "rest": "deck"})
    assert game.winners() == []  # none while the game goes on
    game.play("pass")
    game.play("pass")
    assert game.is_over
    return game


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize(("cups", "winners"), [
    ((["red", "orange", "orange"], ["red", "red", "red", "red", "red"]), [0]),   # 5 vs 5, 3 cards vs 5
    ((["red"] * 5, ["red", "orange", "orange"]), [1]),                          # the same, mirrored
    ((["red", "orange", "orange"], ["orange", "orange", "red"]), [0, 1]),       # fully tied: shared
])
def test_winners_tie_break_by_fewer_cup_cards(name: str, cups: tuple[list[str], list[str]],
                                              winners: list[int]) -> None:
    game = _ended_by_passes(name, {"river[0]": ["red", "orange"], "river[1]": ["red", "orange"],
                                   "cup[0]": cups[0], "cup[1]": cups[1]})
    assert game.scores() == [5, 5]
    assert game.winners() == winners


@pytest.mark.parametrize("name", RULESETS)
def test_the_higher_score_wins_whatever_the_cups(name: str) -> None:
    game = _ended_by_passes(name, {"river[0]": ["red", "orange"], "river[1]": ["red"],
                                   "cup[0]": ["orange"] * 6, "cup[1]": ["red"]})
    assert game.scores() == [12, 1]
    assert game.winners() == [0]


# Saved games the loader accepts although they are corrupt (engine bugs; see the reasons).
def _bad_piece_local(doc: dict) -> None:
    doc["frames"][-1]["locals"]["ghost"] = {"piece": 999}


def _bad_iterator_local(doc: dict) -> None:
    doc["frames"][-1]["locals"]["ghost"] = {"colour": "red"}


def _unknown_colour(doc: dict) -> None:
    doc["pieces"][0]["attrs"]["colour"] = "blue"


def test_a_saved_local_naming_no_piece_is_refused() -> None:
    with pytest.raises(boardkit.StateError):
        boardkit.load_ruleset("mandala").load_game(_edit(played("mandala").to_json(), _bad_piece_local))


def test_a_saved_local_of_unknown_shape_is_refused() -> None:
    with pytest.raises(boardkit.StateError):
        boardkit.load_ruleset("mandala").load_game(_edit(played("mandala").to_json(), _bad_iterator_local))


# No Mandala zone declares a capacity (the river's limit of 6 follows from its distinct colours),
# so capacities are checked on a tiny ruleset.
TRAY = """game "Tray"
players 2
enum Colour { red, blue }
component Card { colour: Colour } label .colour
zone deck: stack, hidden
zone tray: row, public, capacity 2
setup {
  create 3 Card(colour: c) for c in Colour into deck
}
play {
  loop {
    turn 0 {
      choose {
        option wait { }
      }
    }
  }
}
"""


def test_a_position_over_a_zone_capacity_is_refused() -> None:
    rules = boardkit.parse_ruleset(TRAY, filename="tray.bk")
    assert rules.new_game(players=2, position={"zones": {"tray": ["red", "blue"]}, "rest": "deck"}).legal_moves()
    with pytest.raises(boardkit.StateError, match="capacity"):
        rules.new_game(players=2, position={"zones": {"tray": ["red", "red", "blue"]}, "rest": "deck"})


def _tray_over_capacity(doc: dict) -> None:
    doc["zones"]["tray"] = doc["zones"]["deck"][:3]
    doc["zones"]["deck"] = doc["zones"]["deck"][3:]


def test_a_saved_zone_over_its_capacity_is_refused() -> None:
    rules = boardkit.parse_ruleset(TRAY, filename="tray.bk")
    text = _edit(rules.new_game(players=2, seed=1).to_json(), _tray_over_capacity)
    with pytest.raises(boardkit.StateError):
        rules.load_game(text)


def test_a_saved_piece_with_an_unknown_colour_is_refused() -> None:
    with pytest.raises(boardkit.StateError):
        boardkit.load_ruleset("mandala").load_game(_edit(played("mandala").to_json(), _unknown_colour))


def test_option_errors_show_values_as_the_rules_write_them() -> None:
    chakra = boardkit.load_ruleset("chakra")
    with pytest.raises(boardkit.OptionError, match=r"cannot be 'yes'; choose one of \[false, true\]"):
        chakra.new_game(players=2, options={"module_a": "yes"})
    with pytest.raises(boardkit.OptionError, match="takes true or false, not 1"):
        chakra.new_game(players=2, options={"module_a": 1})
