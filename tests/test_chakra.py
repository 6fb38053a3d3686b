"""Chakra: the worked example and every Chakra scenario of shared/rules/examples.md, through
positions, plus rule-derived checks of movement, the modules and hidden knowledge.

Chakra names (bottom to top): red, orange, yellow, green, lightblue, darkblue (the examples'
"blue", BL), purple. Spots use the ruleset's names, in the order of components.md 1.6.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import boardkit

CHAKRAS = ["red", "orange", "yellow", "green", "lightblue", "darkblue", "purple"]
SPOTS = ["down3", "down1_x3", "down2_down1", "up2", "up1_x2", "down1_up1", "down1_or_up1", "renew"]
GOALS = ["all_chips", "soothe_three", "seven_colours", "three_adjacent", "two_pairs", "purple_red",
         "lightblue_yellow", "darkblue_orange"]
# Plenitude values used unless a test gives its own: those of the example [L141]-[L151],
# purple 3, and the unused token (4) in the box.
EXAMPLE_VALUES = {"red": 1, "orange": 2, "yellow": 3, "green": 1, "lightblue": 2, "darkblue": 4, "purple": 3}


@pytest.fixture(scope="module")
def rules() -> boardkit.Ruleset:
    return boardkit.load_ruleset("chakra")


def energy(colour: str) -> dict[str, str]:
    return {"type": "Energy", "colour": colour}


def position(players: int = 2, *, chakras: dict | None = None, bubbles: dict | None = None,
             soothed: dict | None = None, maya: dict | None = None, values: dict | None = None,
             spots: dict | None = None, notches: dict | None = None, chips: dict | None = None,
             objectives: list[str] | None = None, first: int = 0, variables: dict | None = None) -> dict:
    """A whole Chakra position: every zone is listed, remaining energies go to the bag.

    chakras: {(player, chakra): [colours]}; bubbles / soothed: {player: [colours] / count};
    maya: {flow: [colours]}; values: {chakra: plenitude value}; spots: {player: [spot names]};
    notches: {player: [chakras]}; chips: {player: [colours]} (each player knows the tokens of
    the chips they hold); objectives: the two dealt goals (Module D).
    """
    chakras, bubbles, soothed = chakras or {}, bubbles or {}, soothed or {}
    spots, notches = spots or {}, notches or {}
    chips = chips if chips is not None else {p: [CHAKRAS[p]] for p in range(players)}
    values = values or EXAMPLE_VALUES
    maya = maya if maya is not None else {"f1": ["purple", "green", "red"], "f2": ["lightblue", "yellow", "black"],
                                          "f3": ["orange", "darkblue", "purple"]}
    zones: dict[str, list[Any]] = {}
    for p in range(players):
        for c in CHAKRAS:
            zones[f"chakra[{p},{c}]"] = [energy(x) for x in chakras.get((p, c), [])]
            zones[f"notch[{p},{c}]"] = ["inspiration"] if c in notches.get(p, []) else []
        for sp in SPOTS:
            zones[f"spot[{p},{sp}]"] = ["inspiration"] if sp in spots.get(p, []) else []
        zones[f"supply[{p}]"] = ["inspiration"] * (5 - len(spots.get(p, [])) - len(notches.get(p, [])))
        zones[f"bubbles[{p}]"] = [energy(x) for x in bubbles.get(p, [])]
        zones[f"soothed[{p}]"] = [energy("black")] * soothed.get(p, 0)
        zones[f"chips[{p}]"] = [{"type": "Chip", "colour": c} for c in chips.get(p, [])]
    for f, colours in maya.items():
        zones[f"maya[{f}]"] = [energy(x) for x in colours]
    left = Counter([1, 1, 2, 2, 3, 3, 4, 4])
    for c in CHAKRAS:
        zones[f"karma[{c}]"] = [{"type": "Plenitude", "value": values[c]}]
        left[values[c]] -= 1
    zones["token_box"] = [{"type": "Plenitude", "value": v} for v in left.elements()]
    held = Counter(c for cs in chips.values() for c in cs)
    zones["chip_pool"] = [{"type": "Chip", "colour": c} for c in CHAKRAS for _ in range(4 - held[c])]
    zones["removed"] = []
    doc: dict[str, Any] = {"zones": zones, "rest": "bag", "vars": {"first": first, **(variables or {})},
                           "known": {str(p): [f"karma[{c}]" for c in cs] for p, cs in chips.items()}}
    if objectives is not None:
        zones["objectives"] = [{"type": "Objective", "goal": g} for g in objectives]
        zones["objective_box"] = [{"type": "Objective", "goal": g} for g in GOALS if g not in objectives]
    return doc


def start(rules: boardkit.Ruleset, players: int = 2, options: dict | None = None, **kw: Any) -> boardkit.Game:
    return rules.new_game(players=players, seed=3, options=options, position=position(players, **kw))


def labels(game: boardkit.Game) -> set[str]:
    return {m.label for m in game.legal_moves()}


def play(game: boardkit.Game, *moves: str) -> None:
    for m in moves:
        game.play(m)


def meditate(game: boardkit.Game) -> None:
    """Plays a whole Meditate turn, looking at the first token offered (if any is left)."""
    player = game.to_move
    game.play("meditate")
    if game.to_move == player and game.prompt == "plenitude token to look at":
        game.play(game.legal_moves()[0])


def colours(game: boardkit.Game, zone: str, *index: Any) -> list[str]:
    return sorted(p["colour"] for p in game.zone(zone, *index))


def harmonized(game: boardkit.Game, p: int) -> list[str]:
    return [c for c in CHAKRAS if colours(game, "chakra", p, c) == [c, c, c]]


def full(c: str) -> list[str]:
    return [c, c, c]


# CH-EX-1: the example scoring, 14 against 12, the bonus to the second player.
EXAMPLE = {
    "chakras": {**{(0, c): full(c) for c in ["orange", "yellow", "green", "lightblue", "darkblue"]},
                (0, "red"): ["black"],
                **{(1, c): full(c) for c in ["red", "orange", "yellow", "darkblue"]}},
    "soothed": {0: 2},
    "maya": {"f1": ["purple", "purple", "green"], "f2": ["lightblue", "red", "black"], "f3": ["purple", "green", "red"]},
}


def test_example_scoring(rules: boardkit.Ruleset) -> None:
    game = start(rules, **EXAMPLE)
    assert harmonized(game, 0) == ["orange", "yellow", "green", "lightblue", "darkblue"]
    assert harmonized(game, 1) == ["red", "orange", "yellow", "darkblue"]
    # 2+3+1+2+4 = 12, 2 soothed, no bonus (red is not harmonized); 1+2+3+4 = 10, bonus 2.
    assert game.scores() == [14, 12]


def test_example_ends_the_game_after_the_round(rules: boardkit.Ruleset) -> None:
    game = start(rules, **EXAMPLE)
    meditate(game)  # player 0 ends a turn with five harmonized chakras: the end is triggered
    assert not game.is_over and game.to_move == 1
    meditate(game)  # the round is completed
    assert game.is_over
    assert game.scores() == [14, 12]
    assert game.winners() == [0]
    # Scoring reveals the seven plenitude tokens to everyone.
    for p in (0, 1):
        view = game.view(p)
        assert [view["zones"][f"karma[{c}]"]["known"][0]["value"] for c in CHAKRAS] == [1, 2, 3, 1, 2, 4, 3]
        assert "known" not in view["zones"]["token_box"]


# CH-T1: at most 3 energies of one colour on a board; black is compulsory and not limited.
def test_colour_limit_and_compulsory_black(rules: boardkit.Ruleset) -> None:
    game = start(rules, chakras={(0, "green"): ["green", "green", "yellow"]}, bubbles={0: ["green"]},
                 spots={0: ["down3", "up2", "renew"]}, maya={"f1": ["green", "yellow", "black"], "f2": [], "f3": []})
    play(game, "receive", "f1")
    assert labels(game) == {"black", "yellow+black"}


def test_black_does_not_count_for_the_limit(rules: boardkit.Ruleset) -> None:
    # examples.md's variant counted black; DECISIONS.md settles that black is not limited.
    game = start(rules, chakras={(0, "green"): ["green", "green", "yellow"], (0, "red"): ["black"],
                                 (0, "orange"): ["black"], (0, "yellow"): ["black"]},
                 bubbles={0: ["green"]}, spots={0: ["down3", "up2", "renew"]},
                 maya={"f1": ["green", "yellow", "black"], "f2": [], "f3": []})
    play(game, "receive", "f1")
    assert labels(game) == {"black", "yellow+black"}


# CH-T2: different colours only.
def test_different_colours_only(rules: boardkit.Ruleset) -> None:
    game = start(rules, maya={"f1": [], "f2": ["red", "red", "darkblue"], "f3": []})
    play(game, "receive")
    assert labels(game) == {"f2"}
    play(game, "f2")
    assert labels(game) == {"red", "darkblue", "red+darkblue"}


# CH-T5: direct placement; harmonizing returns the notch token at once.
def test_direct_placement_returns_the_notch_token(rules: boardkit.Ruleset) -> None:
    game = start(rules, chakras={(0, "darkblue"): ["darkblue", "darkblue"]}, spots={0: ["down2_down1", "up1_x2"]},
                 maya={"f1": [], "f2": [], "f3": ["darkblue", "yellow", "green"]})
    assert len(game.zone("supply", 0)) == 3
    play(game, "receive", "f3", "darkblue")
    assert "darkblue" in labels(game)
    game.play("darkblue")
    assert harmonized(game, 0) == ["darkblue"]
    assert game.zone("notch", 0, "darkblue") == []
    assert len(game.zone("supply", 0)) == 3
    notch_moves = [e for e in game.events if type(e).__name__ == "Moved" and e.dest == "notch[0,darkblue]"]
    assert len(notch_moves) == 1  # the token went into the notch, then came back


def test_direct_placement_needs_room_for_every_energy(rules: boardkit.Ruleset) -> None:
    game = start(rules, chakras={(0, "darkblue"): ["darkblue", "darkblue"]}, spots={0: ["down2_down1", "up1_x2"]},
                 maya={"f1": [], "f2": [], "f3": ["darkblue", "yellow", "green"]})
    play(game, "receive", "f3", "yellow+darkblue")
    places = labels(game)
    assert "darkblue" not in places  # two energies, one free space
    assert "bhagya" in places


def test_a_notch_holding_a_token_blocks_direct_placement(rules: boardkit.Ruleset) -> None:
    game = start(rules, notches={0: ["yellow"]}, maya={"f1": [], "f2": [], "f3": ["darkblue", "yellow", "green"]})
    play(game, "receive", "f3", "yellow")
    assert "yellow" not in labels(game)
    assert {"bhagya", "red", "purple"} <= labels(game)


def test_no_token_left_means_bubbles_only(rules: boardkit.Ruleset) -> None:
    game = start(rules, spots={0: SPOTS[:5]}, maya={"f1": [], "f2": [], "f3": ["darkblue", "yellow", "green"]})
    play(game, "receive", "f3", "yellow")
    assert labels(game) == {"bhagya"}


def test_the_flow_is_refilled_without_sliding(rules: boardkit.Ruleset) -> None:
    game = start(rules, maya={"f1": ["red", "orange", "yellow"], "f2": [], "f3": []})
    bag = len(game.zone("bag"))
    play(game, "receive", "f1", "red+yellow", "bhagya")
    assert len(game.zone("maya", "f1")) == 3
    assert game.zone("maya", "f1")[0]["colour"] == "orange"
    assert len(game.zone("bag")) == bag - 2
    assert game.zone("maya", "f2") == []  # only the emptied spaces are refilled


# CH-T6: the end of the game completes the round.
def _turns(game: boardkit.Game) -> Counter:
    return Counter(e.player for e in game.events if type(e).__name__ == "TurnStarted")


@pytest.mark.parametrize(("trigger", "turns_after"), [(1, 1), (2, 0), (0, 2)])
def test_the_round_is_completed(rules: boardkit.Ruleset, trigger: int, turns_after: int) -> None:
    # Players 0 (start), 1, 2. The trigger player has four harmonized chakras and two purple
    # energies on purple; they meditate for six rounds, then complete purple in round 7.
    four = {(trigger, c): full(c) for c in ["red", "orange", "yellow", "green"]}
    game = start(rules, players=3, chakras={**four, (trigger, "purple"): ["purple", "purple"]},
                 maya={"f1": ["purple", "lightblue", "green"], "f2": [], "f3": []})
    for _ in range(6 * 3 + trigger):
        meditate(game)
    assert _turns(game)[trigger] == 7  # the seventh turn has begun
    play(game, "receive", "f1", "purple", "purple")
    assert harmonized(game, trigger) == ["red", "orange", "yellow", "green", "purple"]
    for _ in range(turns_after):
        assert not game.is_over
        meditate(game)
    assert game.is_over
    assert game.end_reason == "5 chakras harmonized"
    assert _turns(game) == {0: 7, 1: 7, 2: 7}


def test_the_short_game_ends_at_four_chakras(rules: boardkit.Ruleset) -> None:
    # The same fourth-chakra situation ends the short variant's game, but not the base game.
    three = {(1, c): full(c) for c in ["red", "orange", "yellow"]}
    for name, over in (("chakra_short", True), ("chakra", False)):
        variant = boardkit.load_ruleset(name)
        game = start(variant, players=3, chakras={**three, (1, "purple"): ["purple", "purple"]},
                     maya={"f1": ["purple", "lightblue", "green"], "f2": [], "f3": []})
        meditate(game)
        play(game, "receive", "f1", "purple", "purple")
        assert harmonized(game, 1) == ["red", "orange", "yellow", "purple"]
        meditate(game)
        assert game.is_over is over
        if over:
            assert game.end_reason == "4 chakras harmonized"


# CH-T8: meditate.
def test_meditate(rules: boardkit.Ruleset) -> None:
    game = start(rules, spots={0: ["down3", "up2", "down1_or_up1"]}, notches={0: ["yellow"]}, chips={0: ["red"], 1: ["red"]})
    assert len(game.zone("supply", 0)) == 1
    assert "darkblue" not in game.view(0)["zones"]["karma[darkblue]"].get("known", [])
    play(game, "meditate")
    assert "red" not in labels(game)  # a new colour only
    game.play("darkblue")
    assert len(game.zone("supply", 0)) == 4
    assert len(game.zone("notch", 0, "yellow")) == 1
    assert all(game.zone("spot", 0, sp) == [] for sp in SPOTS)
    # The player now knows the blue token; the other player does not.
    assert game.view(0)["zones"]["karma[darkblue]"] == {"count": 1, "known": [
        {"type": "Plenitude", "label": "4", "value": 4}]}
    assert game.view(1)["zones"]["karma[darkblue]"] == {"count": 1}


def test_meditate_with_no_token_on_the_spots(rules: boardkit.Ruleset) -> None:
    game = start(rules)
    assert "meditate" in labels(game)
    meditate(game)
    assert len(game.zone("supply", 0)) == 5


def test_meditate_with_every_colour_known(rules: boardkit.Ruleset) -> None:
    game = start(rules, chips={0: CHAKRAS, 1: ["red"]}, spots={0: ["up2"]})
    play(game, "meditate")  # nothing left to look at: the turn ends
    assert game.to_move == 1
    assert len(game.zone("supply", 0)) == 5


def test_meditate_takes_a_new_chip(rules: boardkit.Ruleset) -> None:
    game = start(rules, chips={0: ["red"], 1: ["red"]})
    play(game, "meditate")
    assert labels(game) == set(CHAKRAS) - {"red"}  # a chip must be taken while one is left


# CH-T9: Module A, the compulsory white and Yin-Yang.
def test_module_a_compulsory_white_or_black(rules: boardkit.Ruleset) -> None:
    game = start(rules, options={"module_a": True}, maya={"f1": ["white", "black", "yellow"], "f2": [], "f3": []})
    play(game, "receive", "f1")
    assert labels(game) == {"white", "black", "black+white", "yellow+white", "yellow+black", "yellow+black+white"}


def test_module_a_yin_yang_exchange(rules: boardkit.Ruleset) -> None:
    game = start(rules, options={"module_a": True}, chakras={(0, "red"): ["white", "black", "red"]})
    meditate(game)
    assert colours(game, "chakra", 0, "red") == ["red"]
    assert colours(game, "removed") == ["black", "white"]
    assert game.var("halves", 0) == 1
    assert game.scores()[0] == 1


@pytest.mark.parametrize(("halves", "points"), [(0, 0), (1, 1), (2, 3), (3, 4), (4, 6)])
def test_module_a_yin_yang_points(rules: boardkit.Ruleset, halves: int, points: int) -> None:
    game = start(rules, options={"module_a": True}, variables={"halves[0]": halves})
    assert game.scores()[0] == points


def test_module_a_temporary_harmonization_is_skipped(rules: boardkit.Ruleset) -> None:
    board = {(0, "green"): ["purple"], (0, "yellow"): ["white", "yellow", "red"]}
    game = start(rules, options={"module_a": True}, chakras=board)
    play(game, "channel", "down1_or_up1", "green", "purple", "1")
    assert colours(game, "chakra", 0, "orange") == ["purple"]
    assert harmonized(game, 0) == []  # it counts for nothing else
    plain = start(rules, chakras={**board, (0, "yellow"): ["purple", "yellow", "red"]})
    # Without Module A the full yellow chakra blocks the way down: only up is left, and with a
    # single way no question is asked.
    play(plain, "channel", "down1_or_up1", "green", "purple")
    assert plain.to_move == 1
    assert colours(plain, "chakra", 0, "lightblue") == ["purple"]


# Movement rules (components.md 1.6, CH-18, CH-19).
def test_harmonized_chakras_are_skipped(rules: boardkit.Ruleset) -> None:
    game = start(rules, chakras={(0, "yellow"): ["green"], (0, "orange"): full("orange")})
    play(game, "channel", "down1_or_up1", "yellow", "green", "1")
    assert colours(game, "chakra", 0, "red") == ["green"]


def test_energies_of_a_harmonized_chakra_do_not_move(rules: boardkit.Ruleset) -> None:
    game = start(rules, chakras={(0, "orange"): full("orange"), (0, "green"): ["red"]})
    play(game, "channel", "down1_or_up1")
    assert labels(game) == {"green"}


def test_a_crossed_chakra_needs_a_free_space(rules: boardkit.Ruleset) -> None:
    game = start(rules, chakras={(0, "green"): ["red"], (0, "yellow"): ["red", "red", "black"]})
    play(game, "channel", "down3")
    # The red energy on green would cross the full yellow chakra; the black one on yellow
    # reaches the Earth.
    assert labels(game) == {"yellow"}
    play(game, "yellow")
    assert labels(game) == {"black"}


def test_black_is_soothed_in_the_earth_with_steps_left(rules: boardkit.Ruleset) -> None:
    game = start(rules, chakras={(0, "orange"): ["black"]})
    play(game, "channel", "down3", "orange", "black")
    assert colours(game, "soothed", 0) == ["black"]
    assert game.scores()[0] == 1


def test_only_black_enters_the_earth(rules: boardkit.Ruleset) -> None:
    game = start(rules, chakras={(0, "red"): ["green"]})
    play(game, "channel")
    assert labels(game) == {"up2", "down1_or_up1"}


def test_nothing_moves_into_the_bubbles(rules: boardkit.Ruleset) -> None:
    game = start(rules, chakras={(0, "purple"): ["green"]})
    play(game, "channel")
    assert "up2" not in labels(game)
    assert "up1_x2" not in labels(game)


def test_bubbles_move_down_into_the_highest_free_chakra(rules: boardkit.Ruleset) -> None:
    game = start(rules, bubbles={0: ["red"]}, chakras={(0, "purple"): full("purple")})
    play(game, "channel", "down1_or_up1", "bhagya", "red")
    assert colours(game, "chakra", 0, "darkblue") == ["red"]


def test_all_movements_or_none(rules: boardkit.Ruleset) -> None:
    game = start(rules, chakras={(0, "green"): ["red"], (0, "yellow"): ["purple"]})
    play(game, "channel")
    # Two energies on the board: three-energy spots are not offered.
    assert "down1_x3" not in labels(game)
    assert {"down2_down1", "up1_x2", "down1_up1"} <= labels(game)


def test_each_movement_moves_a_different_energy(rules: boardkit.Ruleset) -> None:
    game = start(rules, chakras={(0, "green"): ["red"]})
    play(game, "channel")
    assert "down1_up1" not in labels(game)
    assert "down3" in labels(game)


def test_movements_in_the_order_the_player_likes(rules: boardkit.Ruleset) -> None:
    game = start(rules, chakras={(0, "green"): ["red"], (0, "purple"): ["orange"]})
    play(game, "channel", "down2_down1", "purple", "orange")
    assert labels(game) == {"1", "2"}
    game.play("1")
    play(game, "green", "red")  # only the two-chakra movement is left: no question asked
    assert colours(game, "chakra", 0, "darkblue") == ["orange"]
    assert colours(game, "chakra", 0, "orange") == ["red"]
    assert game.to_move == 1


def test_a_spot_is_used_once_until_meditation(rules: boardkit.Ruleset) -> None:
    game = start(rules, chakras={(0, "green"): ["red"]}, spots={0: ["down3"]})
    play(game, "channel")
    assert "down3" not in labels(game)


def test_renew_discards_a_soothed_energy_for_one_from_the_bag(rules: boardkit.Ruleset) -> None:
    game = start(rules, soothed={0: 2}, bubbles={0: ["red", "red"]}, chakras={(0, "red"): ["red"]})
    play(game, "channel", "renew")
    assert "red" not in labels(game)  # three red on the board already
    assert "black" in labels(game)
    game.play("green")
    assert colours(game, "bubbles", 0) == ["green", "red", "red"]
    assert colours(game, "soothed", 0) == ["black"]
    assert colours(game, "removed") == ["black"]


def test_renew_needs_a_soothed_energy_and_a_free_bubble(rules: boardkit.Ruleset) -> None:
    game = start(rules, soothed={0: 1}, bubbles={0: ["red", "green", "yellow"]})
    play(game, "channel")
    assert "renew" not in labels(game)
    game2 = start(rules, bubbles={0: ["red"]})
    play(game2, "channel")
    assert "renew" not in labels(game2)


# Module D.
def test_module_d_objectives_first_and_second(rules: boardkit.Ruleset) -> None:
    both = {(p, c): full(c) for p in (0, 1) for c in ["red", "purple"]}
    game = start(rules, options={"module_d": True}, chakras=both, objectives=["purple_red", "two_pairs"],
                 maya={"f1": ["green"], "f2": [], "f3": []})
    base = game.scores()
    meditate(game)
    assert game.var("goal_first", "purple_red") == 0
    meditate(game)
    assert game.var("goal_second", "purple_red") == 1
    assert game.var("goal_first", "two_pairs") == -1
    assert [s - b for s, b in zip(game.scores(), base)] == [2, 1]


@pytest.mark.parametrize(("goal", "board", "reached"), [
    ("three_adjacent", ["yellow", "green", "lightblue"], True),
    ("three_adjacent", ["red", "orange", "green"], False),
    ("two_pairs", ["red", "orange", "green", "lightblue"], True),
    ("two_pairs", ["red", "orange", "yellow", "green"], True),
    ("two_pairs", ["red", "orange", "yellow"], False),
    ("lightblue_yellow", ["lightblue", "yellow"], True),
    ("darkblue_orange", ["darkblue", "orange"], True),
    ("darkblue_orange", ["darkblue"], False),
])
def test_module_d_objectives(rules: boardkit.Ruleset, goal: str, board: list[str], reached: bool) -> None:
    game = start(rules, options={"module_d": True}, chakras={(0, c): full(c) for c in board},
                 objectives=[goal, "all_chips"])
    meditate(game)
    assert (game.var("goal_first", goal) == 0) == reached


def test_module_d_other_objectives(rules: boardkit.Ruleset) -> None:
    seven = {(0, c): [c] for c in CHAKRAS}
    game = start(rules, options={"module_d": True}, chakras=seven, soothed={0: 3}, chips={0: CHAKRAS[:6], 1: ["red"]},
                 objectives=["seven_colours", "soothe_three"])
    meditate(game)
    assert game.var("goal_first", "seven_colours") == 0
    assert game.var("goal_first", "soothe_three") == 0
    game2 = start(rules, options={"module_d": True}, chips={0: CHAKRAS[:6], 1: ["red"]}, objectives=["all_chips", "two_pairs"])
    meditate(game2)  # looks at the seventh token
    assert game2.var("goal_first", "all_chips") == 0


def test_setup(rules: boardkit.Ruleset) -> None:
    for players in (2, 3, 4):
        for options in ({}, {"module_a": True, "module_d": True}):
            game = rules.new_game(players=players, seed=players, options=options)
            counts = Counter(p["colour"] for z in game.zones().values() for p in z if p["type"] == "Energy")
            expected = {c: 3 * players for c in [*CHAKRAS, "black"]}
            if options:
                expected["white"] = 3 * players
            assert counts == expected
            assert all(len(game.zone("maya", f)) == 3 for f in ("f1", "f2", "f3"))
            values = sorted(game.zone("karma", c)[0]["value"] for c in CHAKRAS)
            assert sorted([*values, game.zone("token_box")[0]["value"]]) == [1, 1, 2, 2, 3, 3, 4, 4]
            for p in range(players):
                assert len(game.zone("supply", p)) == 5
                (chip,) = game.zone("chips", p)
                zones = game.view(p)["zones"]
                assert [c for c in CHAKRAS if "known" in zones[f"karma[{c}]"]] == [chip["colour"]]
                assert "known" not in zones["token_box"]
            assert len(game.zone("objectives")) == (2 if options else 0)


def test_random_games_that_do_not_end_are_reported_as_aborted(rules: boardkit.Ruleset) -> None:
    from boardkit.tools.simulate import simulate

    result = simulate(rules, games=3, players=3, max_moves=60, options={"module_a": True, "module_d": True})
    assert [r.end_reason for r in result.records] == ["aborted"] * 3
    assert all(r.scores is None and r.winners == () for r in result.records)
    assert result.summary.finished == 0 and result.summary.aborted == 3
