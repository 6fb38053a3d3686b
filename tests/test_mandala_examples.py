"""Mandala scenarios of examples.md §3 and the published-rules points of DECISIONS.md.

Every scenario is set up exactly through a position (listed zones hold the given cards, all
other cards go to the deck or the discard pile), then played through the public API. Player 0
is "You"/"P1" of the examples and player 1 is "Opp"/"P2". The examples' "blue" is black.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import boardkit

BOTH = ["mandala", "mandala_seed"]


def start(ruleset: str, zones: dict[str, list[str]], *, first: int = 0, rest: str = "deck",
          vars_: dict[str, Any] | None = None, options: dict[str, Any] | None = None,
          seed: int = 1) -> boardkit.Game:
    """Starts a 2-player game from a position; every zone not named is emptied into `rest`."""
    position = {"zones": zones, "vars": {"first": first, **(vars_ or {})}, "rest": rest}
    return boardkit.load_ruleset(ruleset).new_game(players=2, seed=seed, options=options or {},
                                                   position=position)


def colours(game: boardkit.Game, zone: str, *index: Any) -> list[str]:
    return [card["colour"] for card in game.zone(zone, *index)]


def play_all(game: boardkit.Game, *labels: str) -> None:
    for label in labels:
        game.play(label)


def complete_plays(game: boardkit.Game) -> list[tuple[str, ...]]:
    """Every complete play of the current turn, as label paths, found with play and undo.

    A path ends when the turn count changes, the game ends, or another player must decide.
    """
    turn, decider = game.turn_count, game.to_move
    before = game.to_json()
    plays: list[tuple[str, ...]] = []

    def walk(path: tuple[str, ...]) -> None:
        for move in game.legal_moves():
            game.play(move)
            try:
                if game.is_over or game.turn_count != turn or game.to_move != decider:
                    plays.append((*path, move.label))
                else:
                    walk((*path, move.label))
            finally:
                game.undo()

    walk(())
    assert game.to_json() == before
    return plays


# MD-EX-1: mtn(M1)={blue,green}, fld(M1,Opp)={red,red}, fld(M1,You)={yellow},
# mtn(M2)={orange,purple}, both M2 fields empty; You hold {red, red, yellow, blue}.
EX1_ZONES = {
    "mountain[m1]": ["black", "green"],
    "field[m1,1]": ["red", "red"],
    "field[m1,0]": ["yellow"],
    "mountain[m2]": ["orange", "purple"],
    "field[m2,0]": [],
    "field[m2,1]": [],
    "hand[0]": ["red", "red", "yellow", "black"],
    "hand[1]": ["red", "orange", "green"],
}

EX1_MOUNTAIN = {
    ("mountain", "red", "m2"), ("mountain", "yellow", "m2"),
    ("mountain", "black", "m1"), ("mountain", "black", "m2"),
}
EX1_FIELD = {
    ("field", "red", "m2", "1"), ("field", "red", "m2", "2"), ("field", "yellow", "m1", "1"),
    ("field", "yellow", "m2", "1"), ("field", "black", "m2", "1"),
}


@pytest.mark.parametrize("ruleset", BOTH)
def test_md_ex_1_colour_rule_gives_exactly_nine_plays(ruleset: str) -> None:
    game = start(ruleset, EX1_ZONES)
    plays = complete_plays(game)
    assert len(plays) == len(set(plays))
    placing = {p for p in plays if p[0] in ("mountain", "field")}
    assert placing == EX1_MOUNTAIN | EX1_FIELD
    assert len(placing) == 9
    illegal = [("mountain", "red", "m1"), ("field", "red", "m1"), ("mountain", "yellow", "m1"),
               ("field", "black", "m1")]
    for path in illegal:
        assert not any(p[: len(path)] == path for p in plays), path
    if ruleset == "mandala":
        # Published rules add discard plays: any number of one colour.
        assert {p for p in plays if p[0] == "discard"} == {
            ("discard", "red", "1"), ("discard", "red", "2"), ("discard", "yellow", "1"),
            ("discard", "black", "1")}
        assert len(plays) == 13
    else:
        assert len(plays) == 9


@pytest.mark.parametrize("ruleset", BOTH)
def test_md_ex_1_on_the_opponents_turn_red_goes_to_their_field_not_the_mountain(ruleset: str) -> None:
    game = start(ruleset, EX1_ZONES, first=1)
    assert game.to_move == 1
    plays = complete_plays(game)
    assert ("field", "red", "m1", "1") in plays
    assert not any(p[:3] == ("mountain", "red", "m1") for p in plays)
    play_all(game, "field", "red", "m1", "1")
    assert colours(game, "field", "m1", 1) == ["red", "red", "red"]


@pytest.mark.parametrize("ruleset", BOTH)
def test_md_t2_plays_place_one_colour_in_ones_own_field_and_one_card_on_a_mountain(ruleset: str) -> None:
    game = start(ruleset, EX1_ZONES)
    opp_fields = {m: colours(game, "field", m, 1) for m in ("m1", "m2")}
    for path in sorted(EX1_FIELD | EX1_MOUNTAIN):
        play_all(game, *path)
        # Never the opponent's field.
        assert {m: colours(game, "field", m, 1) for m in ("m1", "m2")} == opp_fields
        for _ in path:
            game.undo()
    # {red, red} to fld(M2, You): both reds and nothing else.
    play_all(game, "field", "red", "m2", "2")
    assert colours(game, "field", "m2", 0) == ["red", "red"]
    assert colours(game, "hand", 0) == ["yellow", "black"]
    assert game.to_move == 1
    # A mountain play moves exactly one card, even with two of the colour in hand.
    for _ in range(4):
        game.undo()
    deck = colours(game, "deck")
    play_all(game, "mountain", "red", "m2")
    assert colours(game, "mountain", "m2") == ["orange", "purple", "red"]
    assert Counter(colours(game, "hand", 0)) == Counter(["red", "yellow", "black", *deck[:3]])


# MD-EX-2: river values and cup scoring, played through three real destructions.
def _destroy_alone(ruleset: str, *, colour: str, mountain: list[str], river: list[str], cup: list[str],
                   mandala: str) -> boardkit.Game:
    """Player 0 completes `mandala` by playing `colour` to its mountain, which then holds only
    that colour; player 0 has the bigger field, so picks it first and alone."""
    others = [c for c in ("red", "orange", "yellow", "green", "purple", "black") if c != colour]
    other = "m2" if mandala == "m1" else "m1"
    game = start(ruleset, {
        f"mountain[{mandala}]": mountain,
        f"field[{mandala},0]": others[:3],
        f"field[{mandala},1]": others[3:],
        f"mountain[{other}]": ["red", "orange"],
        "river[0]": river,
        "cup[0]": cup,
        "hand[0]": [colour, "red"],
        "hand[1]": ["orange", "orange"],
    })
    play_all(game, "mountain", colour, mandala)
    assert (game.to_move, game.prompt) == (0, "claim a colour")
    assert [m.label for m in game.legal_moves()] == [colour]
    game.play(colour)
    assert game.to_move == 1 and not game.is_over
    assert colours(game, "mountain", mandala) != [] and set(colours(game, "field", mandala, 0)) == set()
    return game


@pytest.mark.parametrize("ruleset", BOTH)
def test_md_ex_2_three_destructions_score_ten(ruleset: str) -> None:
    # 1. You gain 3 yellow: river = [yellow]; cup + 2 yellow.
    g1 = _destroy_alone(ruleset, colour="yellow", mountain=["yellow", "yellow"], river=[], cup=["green", "purple"],
                        mandala="m1")
    assert colours(g1, "river", 0) == ["yellow"]
    assert Counter(colours(g1, "cup", 0)) == Counter(green=1, purple=1, yellow=2)
    # 2. You gain 2 green: river = [yellow, green]; cup + 1 green.
    g2 = _destroy_alone(ruleset, colour="green", mountain=["green"], river=colours(g1, "river", 0),
                        cup=colours(g1, "cup", 0), mandala="m2")
    assert colours(g2, "river", 0) == ["yellow", "green"]
    assert Counter(colours(g2, "cup", 0)) == Counter(green=2, purple=1, yellow=2)
    # 3. You gain 4 yellow: all to the cup, yellow is already in the river.
    g3 = _destroy_alone(ruleset, colour="yellow", mountain=["yellow"] * 3, river=colours(g2, "river", 0),
                        cup=colours(g2, "cup", 0), mandala="m1")
    assert colours(g3, "river", 0) == ["yellow", "green"]
    assert Counter(colours(g3, "cup", 0)) == Counter(yellow=6, green=2, purple=1)
    assert g3.scores()[0] == 6 * 1 + 2 * 2 + 1 * 0 == 10


@pytest.mark.parametrize("ruleset", BOTH)
def test_md_ex_2_end_position_scores_ten_and_river_cards_score_nothing(ruleset: str) -> None:
    game = start(ruleset, {"river[0]": ["yellow", "green"], "cup[0]": ["yellow"] * 6 + ["green"] * 2 + ["purple"],
                           "river[1]": ["yellow", "green"], "cup[1]": []})
    assert game.scores() == [10, 0]


@pytest.mark.parametrize("ruleset", BOTH)
@pytest.mark.parametrize("position_value", [1, 2, 3, 4, 5, 6])
def test_md_ex_2_a_cup_card_is_worth_its_colours_river_slot(ruleset: str, position_value: int) -> None:
    river = ["red", "orange", "yellow", "green", "purple", "black"][:position_value]
    game = start(ruleset, {"river[0]": river, "cup[0]": [river[-1]] * 3})
    assert game.scores()[0] == 3 * position_value


# MD-T3: drawing.
def _t3_game(ruleset: str, options: dict[str, Any] | None = None) -> boardkit.Game:
    return start(ruleset, {
        "hand[0]": ["red", "red", "red", "orange", "yellow", "green"],
        "hand[1]": ["black"] * 4,
        "mountain[m1]": ["orange", "yellow"],
        "mountain[m2]": ["green", "purple"],
    }, options=options)


@pytest.mark.parametrize(("ruleset", "options", "sizes"), [
    ("mandala_seed", {}, [6, 8, 10]),              # 6 -> 5 -> 8 -> 7 -> 10: no hand limit
    ("mandala_seed", {"hand_limit": 8}, [6, 8, 8]),  # flag handLimit8: 7 + 1 = 8
    ("mandala", {}, [6, 8, 8]),                    # published: draw up to 3, hand limit 8
    ("mandala", {"hand_limit": 0}, [6, 8, 10]),   # 0: no hand limit, as in mandala_seed
])
def test_md_t3_a_mountain_play_draws_up_to_the_hand_limit(ruleset: str, options: dict, sizes: list[int]) -> None:
    game = _t3_game(ruleset, options)
    assert len(game.zone("hand", 0)) == sizes[0]
    deck = colours(game, "deck")
    play_all(game, "mountain", "red", "m1")
    hand = colours(game, "hand", 0)
    assert Counter(hand) == Counter(["red", "red", "orange", "yellow", "green", *deck[:3]])
    assert colours(game, "deck") == deck[3:]
    assert len(hand) == sizes[1]
    play_all(game, "mountain", "black", "m2")  # the opponent's turn
    assert game.to_move == 0
    before = colours(game, "hand", 0)
    colour = before[0]
    play_all(game, "mountain", colour)
    deck = colours(game, "deck")
    game.play(game.legal_moves()[0])  # neither mountain can be completed by one card
    drawn = sizes[2] - (sizes[1] - 1)
    expected = Counter(before)
    expected[colour] -= 1
    assert Counter(colours(game, "hand", 0)) == expected + Counter(deck[:drawn])
    assert len(game.zone("hand", 0)) == sizes[2]


@pytest.mark.parametrize("ruleset", BOTH)
def test_md_t3_a_field_play_of_three_from_six_leaves_three_and_draws_nothing(ruleset: str) -> None:
    game = _t3_game(ruleset)
    deck = colours(game, "deck")
    play_all(game, "field", "red", "m1", "3")
    assert colours(game, "hand", 0) == ["orange", "yellow", "green"]
    assert colours(game, "field", "m1", 0) == ["red"] * 3
    assert colours(game, "deck") == deck


def test_published_a_field_play_keeps_one_card_in_hand() -> None:
    game = start("mandala", {"hand[0]": ["red", "red", "red"], "hand[1]": ["black"],
                             "mountain[m1]": ["orange"], "mountain[m2]": ["green"]})
    play_all(game, "field", "red", "m1")
    assert [m.label for m in game.legal_moves()] == ["1", "2"]
    only_red = start("mandala", {"hand[0]": ["red"], "hand[1]": ["black"], "mountain[m1]": ["orange"],
                                 "mountain[m2]": ["green"]})
    assert [m.label for m in only_red.legal_moves()] == ["mountain", "discard"]


def test_seed_a_field_play_may_empty_the_hand() -> None:
    game = start("mandala_seed", {"hand[0]": ["red", "red", "red"], "hand[1]": ["black"],
                                  "mountain[m1]": ["orange"], "mountain[m2]": ["green"]})
    play_all(game, "field", "red", "m1")
    assert [m.label for m in game.legal_moves()] == ["1", "2", "3"]
    game.play("3")
    assert game.zone("hand", 0) == []
    assert game.to_move == 1


def test_published_discard_and_redraw() -> None:
    game = start("mandala", {"hand[0]": ["red", "red", "yellow"], "hand[1]": ["black"],
                             "mountain[m1]": ["orange"], "mountain[m2]": ["green"], "discard": ["purple"]})
    deck = colours(game, "deck")
    play_all(game, "discard", "red")
    assert [m.label for m in game.legal_moves()] == ["1", "2"]
    game.play("2")
    assert colours(game, "discard") == ["purple", "red", "red"]
    assert Counter(colours(game, "hand", 0)) == Counter(["yellow", *deck[:2]])
    assert colours(game, "deck") == deck[2:]
    assert game.to_move == 1


def test_seed_has_no_discard_play() -> None:
    game = start("mandala_seed", {"hand[0]": ["red", "red", "yellow"], "hand[1]": ["black"],
                                  "mountain[m1]": ["orange"], "mountain[m2]": ["green"]})
    assert [m.label for m in game.legal_moves()] == ["mountain", "field"]


# MD-T4: a sixth river colour ends the game once the destruction is finished.
@pytest.mark.parametrize("ruleset", BOTH)
def test_md_t4_sixth_river_colour_ends_the_game_after_the_destruction(ruleset: str) -> None:
    game = start(ruleset, {
        "river[0]": ["orange", "yellow", "green", "purple", "black"],
        "mountain[m1]": ["yellow", "black"],
        "field[m1,0]": ["orange", "green"],
        "field[m1,1]": ["purple"],
        "mountain[m2]": ["red", "orange"],
        "hand[0]": ["red", "green"],
        "hand[1]": ["orange"],
    })
    play_all(game, "mountain", "red", "m1")
    # P1 has more field cards, so picks first; X = red is P1's 6th river colour.
    assert (game.to_move, game.prompt) == (0, "claim a colour")
    assert sorted(m.label for m in game.legal_moves()) == ["black", "red", "yellow"]
    game.play("red")
    assert colours(game, "river", 0) == ["orange", "yellow", "green", "purple", "black", "red"]
    # The trigger fired, but P2 still picks, then P1 takes the last colour into the cup.
    assert not game.is_over
    assert game.to_move == 1
    assert sorted(m.label for m in game.legal_moves()) == ["black", "yellow"]
    game.play("yellow")
    assert colours(game, "river", 1) == ["yellow"]
    assert not game.is_over and game.to_move == 0
    assert [m.label for m in game.legal_moves()] == ["black"]
    turn = game.turn_count
    game.play("black")
    assert game.is_over
    assert game.end_reason == "a sixth river colour"
    assert game.turn_count == turn
    assert colours(game, "cup", 0) == ["black"]
    # Cleanup happened before the end: fields discarded, the mountain dealt anew.
    assert game.zone("field", "m1", 0) == [] and game.zone("field", "m1", 1) == []
    assert Counter(colours(game, "discard")) >= Counter(["orange", "green", "purple"])
    assert len(game.zone("mountain", "m1")) == 2
    assert game.scores() == [5, 0]
    assert game.winners() == [0]
    assert game.legal_moves() == []


# MD-T5: deck exhaustion during a draw (seed variant); the published rules reshuffle instead.
def _t5_zones() -> dict[str, list[str]]:
    return {
        "deck": ["red", "orange"],
        "hand[0]": ["black"],
        "hand[1]": ["yellow", "green"],
        "mountain[m1]": ["purple", "black"],
        "mountain[m2]": ["red", "yellow"],
    }


def test_md_t5_seed_deck_exhausted_by_a_draw_ends_the_game_at_the_end_of_the_turn() -> None:
    game = start("mandala_seed", _t5_zones(), first=1, rest="discard")
    assert len(game.zone("deck")) == 2
    play_all(game, "mountain", "yellow", "m1")
    assert colours(game, "hand", 1) == ["green", "red", "orange"]
    assert game.zone("deck") == []
    assert game.is_over
    assert game.end_reason == "the deck is exhausted"
    assert game.turn_count == 1


def test_seed_deck_exhausted_by_the_deal_after_a_destruction_ends_the_game() -> None:
    # MD-10: the destruction comes first, then the draw at the end of the turn.
    game = start("mandala_seed", {
        "deck": ["orange", "purple"],
        "mountain[m1]": ["yellow"],
        "field[m1,0]": ["red", "orange", "green"],
        "field[m1,1]": ["purple", "black"],
        "mountain[m2]": ["green"],
        "hand[0]": ["yellow"],
        "hand[1]": ["green"],
    }, rest="discard")
    play_all(game, "mountain", "yellow", "m1")
    assert len(game.zone("deck")) == 2 and not game.is_over
    game.play("yellow")
    assert colours(game, "mountain", "m1") == ["orange", "purple"]
    assert game.zone("deck") == [] and game.zone("hand", 0) == []
    assert game.is_over
    assert game.end_reason == "the deck is exhausted"


def test_published_deck_runs_out_the_discard_pile_is_reshuffled_once() -> None:
    game = start("mandala", _t5_zones(), first=1, rest="discard")
    discard = Counter(colours(game, "discard"))
    assert sum(discard.values()) == 108 - 2 - 1 - 2 - 4
    play_all(game, "mountain", "yellow", "m1")
    assert not game.is_over
    hand = colours(game, "hand", 1)
    assert hand[:3] == ["green", "red", "orange"] and len(hand) == 4
    assert game.zone("discard") == []
    assert Counter(colours(game, "deck")) + Counter([hand[3]]) == discard
    assert game.var("reshuffles") == 1
    assert game.var("last_mandala") is True
    assert game.to_move == 0


def test_published_the_deck_running_out_again_ends_the_game() -> None:
    game = start("mandala", _t5_zones(), first=1, rest="discard", vars_={"reshuffles": 1, "last_mandala": True})
    play_all(game, "mountain", "yellow", "m1")
    assert colours(game, "hand", 1) == ["green", "red", "orange"]
    assert game.is_over
    assert game.end_reason == "the deck ran out again"


def test_published_the_next_completed_mandala_after_the_reshuffle_is_the_last() -> None:
    game = start("mandala", _completing_zones(), vars_={"reshuffles": 1, "last_mandala": True})
    play_all(game, "mountain", "yellow", "m1")
    assert not game.is_over
    game.play("yellow")
    assert game.is_over
    assert game.end_reason == "the last mandala was destroyed"
    assert colours(game, "river", 0) == ["yellow"]
    assert game.scores()[0] == 2


def _completing_zones() -> dict[str, list[str]]:
    """Player 0 completes m1 by playing yellow to its mountain, then claims the yellows alone."""
    return {
        "mountain[m1]": ["yellow", "yellow"],
        "field[m1,0]": ["red", "orange", "green"],
        "field[m1,1]": ["purple", "black"],
        "mountain[m2]": ["red", "orange"],
        "hand[0]": ["yellow", "red"],
        "hand[1]": ["green"],
    }


def test_published_a_reshuffle_in_the_completing_draw_makes_that_mandala_the_last() -> None:
    # The mountain play draws before completion is checked: 1 card, a reshuffle, 2 more.
    game = start("mandala", {**_completing_zones(), "deck": ["black"]}, rest="discard")
    play_all(game, "mountain", "yellow", "m1")
    assert game.var("reshuffles") == 1 and game.var("last_mandala") is True
    assert len(game.zone("hand", 0)) == 4
    game.play("yellow")
    assert game.is_over
    assert game.end_reason == "the last mandala was destroyed"


def test_published_a_reshuffle_refilling_the_destroyed_mountain_makes_the_next_mandala_the_last() -> None:
    # Three cards: the draw empties the deck, the new mountain's deal reshuffles.
    game = start("mandala", {**_completing_zones(), "deck": ["black", "black", "black"]}, rest="discard")
    play_all(game, "mountain", "yellow", "m1")
    assert game.var("reshuffles") == 0
    game.play("yellow")
    assert game.var("reshuffles") == 1 and game.var("last_mandala") is True
    assert len(game.zone("mountain", "m1")) == 2
    assert not game.is_over
    assert game.to_move == 1


def test_published_a_completed_mandala_before_any_reshuffle_does_not_end_the_game() -> None:
    game = start("mandala", _completing_zones())
    play_all(game, "mountain", "yellow", "m1", "yellow")
    assert not game.is_over
    assert game.to_move == 1


# MD-T6: no legal play; two passes in a row end the game.
def _t6_zones(opponent_hand: list[str]) -> dict[str, list[str]]:
    return {
        "hand[0]": ["red"],
        "field[m1,1]": ["red"],
        "field[m2,1]": ["red"],
        "field[m1,0]": ["orange"],
        "field[m2,0]": ["orange"],
        "mountain[m1]": ["yellow", "green"],
        "mountain[m2]": ["yellow", "green"],
        "hand[1]": opponent_hand,
    }


def test_md_t6_seed_no_legal_play_passes_and_two_passes_end_the_game() -> None:
    game = start("mandala_seed", _t6_zones(["orange"]))
    assert [m.label for m in game.legal_moves()] == ["pass"]
    game.play("pass")
    assert not game.is_over
    assert game.var("passes") == 1
    assert game.to_move == 1
    assert [m.label for m in game.legal_moves()] == ["pass"]
    game.play("pass")
    assert game.is_over
    assert game.end_reason == "two passes in a row"
    assert game.turn_count == 2


def test_md_t6_seed_a_play_between_two_passes_resets_the_count() -> None:
    game = start("mandala_seed", _t6_zones(["orange", "yellow"]))
    game.play("pass")
    assert [m.label for m in game.legal_moves()] == ["mountain"]
    play_all(game, "mountain", "yellow")
    game.play(game.legal_moves()[0])
    assert game.var("passes") == 0
    assert game.to_move == 0 and not game.is_over
    game.play("pass")
    assert not game.is_over
    assert game.var("passes") == 1


def test_md_t6_published_a_blocked_colour_can_still_be_discarded() -> None:
    game = start("mandala", _t6_zones(["orange"]))
    assert [m.label for m in game.legal_moves()] == ["discard"]


def test_published_an_empty_hand_passes_and_two_passes_end_the_game() -> None:
    game = start("mandala", {"hand[0]": [], "hand[1]": [], "mountain[m1]": ["red"], "mountain[m2]": ["green"]})
    assert [m.label for m in game.legal_moves()] == ["pass"]
    game.play("pass")
    assert [m.label for m in game.legal_moves()] == ["pass"]
    game.play("pass")
    assert game.is_over
    assert game.end_reason == "two passes in a row"


# Destruction order and claims.
def _claim_zones(completer_field: list[str], other_field: list[str]) -> dict[str, list[str]]:
    return {
        "mountain[m1]": ["yellow", "yellow", "black"],
        "field[m1,0]": completer_field,
        "field[m1,1]": other_field,
        "mountain[m2]": ["red", "orange"],
        "hand[0]": ["red", "green"],
        "hand[1]": ["green"],
    }


def test_published_a_player_with_an_empty_field_discards_what_they_pick() -> None:
    game = start("mandala", _claim_zones(["orange", "green", "purple"], []))
    play_all(game, "mountain", "red", "m1")
    assert game.to_move == 0
    game.play("red")
    assert game.to_move == 1
    game.play("yellow")
    assert game.zone("river", 1) == [] and game.zone("cup", 1) == []
    assert colours(game, "discard") == ["yellow", "yellow"]
    game.play("black")
    assert colours(game, "river", 0) == ["red", "black"]
    assert game.zone("cup", 0) == []
    assert Counter(colours(game, "discard")) == Counter(yellow=2, orange=1, green=1, purple=1)


def test_seed_a_player_with_an_empty_field_still_gains() -> None:
    game = start("mandala_seed", _claim_zones(["orange", "green", "purple"], []))
    play_all(game, "mountain", "red", "m1", "red", "yellow")
    assert colours(game, "river", 1) == ["yellow"]
    assert colours(game, "cup", 1) == ["yellow"]
    game.play("black")
    assert colours(game, "river", 0) == ["red", "black"]
    assert Counter(colours(game, "discard")) == Counter(orange=1, green=1, purple=1)


@pytest.mark.parametrize("ruleset", BOTH)
def test_on_equal_fields_the_player_who_did_not_complete_picks_first(ruleset: str) -> None:
    game = start(ruleset, _claim_zones(["orange", "green"], ["purple", "purple"]))
    play_all(game, "mountain", "red", "m1")
    assert (game.to_move, game.prompt) == (1, "claim a colour")
    game.play("yellow")
    assert colours(game, "river", 1) == ["yellow"] and colours(game, "cup", 1) == ["yellow"]
    assert game.to_move == 0
    game.play("red")
    assert game.to_move == 1
    game.play("black")
    assert colours(game, "river", 1) == ["yellow", "black"]
    assert colours(game, "river", 0) == ["red"]
    assert game.to_move == 1 and game.prompt == "action"  # the destruction is over; P2's turn


@pytest.mark.parametrize("ruleset", BOTH)
def test_tie_break_fewer_cup_cards_wins_then_shared(ruleset: str) -> None:
    # Scores 2 and 2; player 0 has one cup card, player 1 two.
    zones = {"hand[0]": [], "hand[1]": [], "mountain[m1]": ["yellow"], "mountain[m2]": ["green"],
             "river[0]": ["red", "orange"], "cup[0]": ["orange"], "river[1]": ["red"], "cup[1]": ["red", "red"]}
    game = start(ruleset, zones)
    play_all(game, "pass", "pass")
    assert game.is_over
    assert game.scores() == [2, 2]
    assert game.winners() == [0]
    zones["cup[0]"] = ["red", "red"]
    zones["river[0]"] = ["red", "orange"]
    shared = start(ruleset, zones)
    play_all(shared, "pass", "pass")
    assert shared.scores() == [2, 2]
    assert shared.winners() == [0, 1]


def test_no_hand_limit_is_written_alike_in_both_rulesets() -> None:
    """0 says "no hand limit" in Mandala and in its seed-text variant (99 in one was an odd limit)."""
    choices = {name: set(boardkit.load_ruleset(name).options["hand_limit"].choices)
               for name in ("mandala", "mandala_seed")}
    assert choices == {"mandala": {0, 8}, "mandala_seed": {0, 8}}
