"""How decisions become moves: unique labels, what look-ahead may use, typed errors."""

from __future__ import annotations

import random
import re

import pytest

import boardkit

PICK_GAME = """
game "Pick"
players 2
enum Colour { red, blue }
component Chip { colour: Colour, size: int } label .colour
zone left: pile, public
zone right: pile, public
zone kept[Player]: pile, public
setup {
  create 2 Chip(colour: red, size: 1) into left
  create 1 Chip(colour: red, size: 1) into right
  create 1 Chip(colour: red, size: 2) into right
  create 1 Chip(colour: blue, size: 1) into right
}
play {
  turn 0 {
    choose c from left + right prompt "chip"
    move 1 of [c] to kept[0]
  }
  end game "one pick"
}
score p = sum(kept[p].size)
"""


def test_labels_are_unique_and_name_the_zone_when_pieces_look_alike() -> None:
    game = boardkit.parse_ruleset(PICK_GAME, filename="pick.bk").new_game(players=2)
    labels = [m.label for m in game.legal_moves()]
    # The two red chips on the left are interchangeable: one option. The red chips on the
    # right differ from them by zone and from each other by size.
    assert labels == ["red from left", "red from right #1", "red from right #2", "blue"]


def test_each_alike_looking_move_plays_its_own_piece() -> None:
    rules = boardkit.parse_ruleset(PICK_GAME, filename="pick.bk")
    scores = set()
    for label in ["red from right #1", "red from right #2"]:
        game = rules.new_game(players=2)
        game.play(label)
        scores.add(game.scores()[0])
    assert scores == {1, 2}


DRAW_GAME = """
game "Draw"
players 2
enum Colour { red, blue }
component Card { colour: Colour } label .colour
zone deck: stack, hidden
zone hand[Player]: pile, owner
zone table: pile, public
setup {
  create 3 Card(colour: c) for c in Colour into deck
  shuffle deck
}
play {
  turn 0 {
    choose {
      option draw {
        move 1 of deck to hand[0]
        choose c from hand[0] where .colour == red prompt "red card to lay"
        move 1 of [c] to table
      }
      option roll {
        require random([1, 2]) == 1
      }
      option pass otherwise { }
    }
  }
  end game "one turn"
}
"""


def test_look_ahead_does_not_peek_at_hidden_cards_or_random_outcomes() -> None:
    rules = boardkit.parse_ruleset(DRAW_GAME, filename="draw.bk")
    for top in ["red", "blue"]:
        game = rules.new_game(players=2, position={"zones": {"deck": [top]}, "rest": "deck"})
        # Whether the top card is red, and what the roll gives, is unknown when choosing:
        # every option stays on offer whatever the deck and generator hold.
        assert [m.label for m in game.legal_moves()] == ["draw", "roll"]


def test_a_failure_before_anything_hidden_happens_still_drops_the_option() -> None:
    rules = boardkit.parse_ruleset(DRAW_GAME.replace("move 1 of deck to hand[0]",
                                                     "require size(deck) > 9\n        move 1 of deck to hand[0]"),
                                   filename="draw.bk")
    game = rules.new_game(players=2)
    assert [m.label for m in game.legal_moves()] == ["roll"]


FAULTY = """
game "Faulty"
players 2
zone pot: pile, public
var n = 0
setup {
  SETUP
}
play {
  turn 0 {
    choose x from [1, 2] by BY prompt "number"
    set n = x
  }
  end game "done"
}
score p = SCORE
"""


def faulty(setup: str = "set n = 0", by: str = "0", score: str = "n") -> boardkit.Ruleset:
    text = FAULTY.replace("SETUP", setup).replace("BY", by).replace("SCORE", score)
    return boardkit.parse_ruleset(text, filename="faulty.bk")


@pytest.mark.parametrize(("rules", "where", "message"), [
    (dict(setup='require n > 0 "n must be positive"'), "faulty.bk:7:11", "a rule failed in setup"),
    (dict(setup='end game "too soon"'), None, "setup ended the game (too soon)"),
    (dict(by="last([q for q in players if q > 5])"), "faulty.bk:11:", "IndexError"),
])
def test_a_misbehaving_rule_is_a_located_runtime_error_before_the_first_move(rules: dict, where: str | None,
                                                                    message: str) -> None:
    with pytest.raises(boardkit.RuleRuntimeError) as err:
        faulty(**rules).new_game().legal_moves()
    assert message in str(err.value)
    if where is not None:
        assert where in str(err.value)


def test_a_score_that_fails_is_a_located_runtime_error() -> None:
    game = faulty(score="10 / (n - 1)").new_game()
    game.play("1")
    with pytest.raises(boardkit.RuleRuntimeError, match=r"faulty\.bk:16:7: ZeroDivisionError"):
        game.scores()


@pytest.mark.parametrize("player", ["0", True, 2, -1, None])
def test_a_view_for_no_player_is_an_option_error(player: object) -> None:
    game = faulty().new_game()
    with pytest.raises(boardkit.OptionError, match="no player"):
        game.view(player)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", ["7", 1.5, None, True])
def test_a_seed_must_be_an_integer(seed: object) -> None:
    with pytest.raises(boardkit.OptionError, match="seed must be an integer"):
        faulty().new_game(seed=seed)  # type: ignore[arg-type]


def test_the_game_keeps_its_own_copy_of_the_position() -> None:
    rules = boardkit.parse_ruleset(DRAW_GAME, filename="draw.bk")
    position = {"zones": {"deck": ["red"]}, "rest": "deck"}
    game = rules.new_game(players=2, position=position)
    position["zones"]["deck"] = ["blue"]
    game.play("draw")
    game.undo()
    assert game.position == {"zones": {"deck": ["red"]}, "rest": "deck"}
    assert game.zone("deck")[0]["colour"] == "red"


@pytest.mark.parametrize(("name", "players"), [("mandala", 2), ("ananda", 3), ("chakra", 2), ("meenakshi", 4),
                                               ("examples/go_fish.bk", 3)])
def test_the_look_ahead_shortcut_offers_what_full_trials_offer(name: str, players: int,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The look-ahead's shortcut settles trials without running them; it must never change a result."""

    rules = boardkit.load_ruleset(name)
    game = rules.new_game(players=players, seed=11)
    rng = random.Random(11)
    for _ in range(300):
        if game.is_over:
            break
        quick = [m.label for m in game.legal_moves()]
        with monkeypatch.context() as m:
            m.setattr(rules.interpreter, "shortcuts", False)  # the instance's: compiled code reads no class attribute
            assert [mv.label for mv in game.clone().legal_moves()] == quick  # a clone lists afresh
        game.play(rng.choice(quick))


HORIZONS = {
    "peek": ("zone deck: stack, hidden", "peek first(deck) by 0\n        move 1 of deck to table"),
    "place": ("zone deck: stack, hidden", 'place first(deck) on board at "0,0"'),
    "bag": ("zone deck: bag, public", "move 1 of deck to table"),
    "shuffle": ("zone deck: stack, public", "shuffle deck\n        move 1 of deck to table"),
}
HORIZON_GAME = """
game "Horizon"
players 2
enum Colour { red, blue }
component Card { colour: Colour } label .colour
DECK
zone table: pile, public
zone board: grid(2, 1), public
setup {
  create 1 Card(colour: c) for c in Colour into deck
  shuffle deck
}
play {
  turn 0 {
    choose prompt "action" {
      option draw {
        DRAW
        require not empty(table where .colour == red) or not empty(board.colour where it == red)
      }
      option pass otherwise { }
    }
  }
  end game "one turn"
}
"""


@pytest.mark.parametrize("case", sorted(HORIZONS))
def test_look_ahead_stops_at_peeks_placed_hidden_pieces_bags_and_shuffles(case: str) -> None:
    deck, draw = HORIZONS[case]
    rules = boardkit.parse_ruleset(HORIZON_GAME.replace("DECK", deck).replace("DRAW", draw), filename="h.bk")
    offered = {tuple(m.label for m in rules.new_game(players=2, seed=seed).legal_moves()) for seed in range(8)}
    # Whichever card the seed puts first, the player cannot know it: "draw" is always offered.
    assert offered == {("draw",)}


SHORTCUT_CASES = {
    # A call argument drawn at random: the shortcut must stop at the horizon like a trial.
    "random argument": ("pick(random([1, 2]))", "proc pick(k) {\n  choose b from [1, 2] prompt \"b\"\n  require b == k\n}",
                        ["1", "2"]),
    # A decision whose procedure then returns into a caller that may still fail: a trial decides.
    "return into a require": ("pick()\n    require a == 2", "proc pick() {\n  choose b from [1, 2] prompt \"b\"\n}",
                              ["2"]),
    # A loop left by `break`, then the procedure returns and nothing below can fail.
    "break and return": ("act()", "proc act() {\n  loop {\n    choose prompt \"next\" {\n      option done { break }\n"
                         "      option more { require false }\n    }\n  }\n}", ["1", "2"]),
    # Equal lists of values: one option each, the same with or without the shortcut.
    "unhashable": ("choose b from [[a], [a]] prompt \"b\"\n    require first(b) == 1", "", ["1"]),
}
SHORTCUT_GAME = """
game "Shortcut"
players 2
play {
  turn 0 {
    choose a from [1, 2] prompt "a"
    BODY
  }
  end game "x"
}
PROCS
"""


@pytest.mark.parametrize("case", sorted(SHORTCUT_CASES))
def test_the_shortcut_agrees_with_trials_on_awkward_rules(case: str, monkeypatch: pytest.MonkeyPatch) -> None:

    body, procs, expected = SHORTCUT_CASES[case]
    rules = boardkit.parse_ruleset(SHORTCUT_GAME.replace("BODY", body).replace("PROCS", procs), filename="s.bk")
    assert [m.label for m in rules.new_game(players=2, seed=1).legal_moves()] == expected
    monkeypatch.setattr(rules.interpreter, "shortcuts", False)
    assert [m.label for m in rules.new_game(players=2, seed=1).legal_moves()] == expected


def test_a_loop_that_never_decides_is_reported_not_followed_forever() -> None:
    text = SHORTCUT_GAME.replace("BODY", "spin()").replace("PROCS", "proc spin() {\n  loop { }\n  require false\n}")
    game = boardkit.parse_ruleset(text, filename="spin.bk").new_game(players=2)
    with pytest.raises(boardkit.RuleRuntimeError, match="no decision after"):
        game.legal_moves()


CAPACITY_GAME = """
game "Trays"
players 2
option n = 2 from [0, 1, 2]
var cap = 2
var ratio = 10 / n
component Chip { v: int } label text(.v)
zone supply: pile, public
zone tray: pile, public, capacity cap
zone small: pile, public, capacity 1
setup { create 1 Chip(v: i) for i in range(1, 4) into supply }
play {
  turn 0 {
    choose c from supply prompt "chip"
    move 1 of [c] to tray
  }
  end game "done"
}
"""


@pytest.fixture
def trays() -> boardkit.Ruleset:
    return boardkit.parse_ruleset(CAPACITY_GAME, filename="trays.bk")


def test_a_save_whose_capacity_reads_a_variable_loads(trays: boardkit.Ruleset) -> None:
    game = trays.new_game(players=2)
    game.play("1")
    assert trays.load_game(game.to_json()).zone("tray") == game.zone("tray")


@pytest.mark.parametrize(("position", "message"), [
    ({"zones": {"tray": ["1", "2"]}, "vars": {"cap": 0}}, "zone 'tray' holds 2 pieces, over its capacity 0"),
    ({"zones": {"supply": []}, "rest": "small"}, "zone 'small' holds 4 pieces, over its capacity 1"),
])
def test_capacities_hold_for_the_whole_position(trays: boardkit.Ruleset, position: dict, message: str) -> None:
    with pytest.raises(boardkit.StateError, match=re.escape(message)):
        trays.new_game(players=2, position=position)


def test_a_capacity_raised_by_the_position_admits_its_pieces(trays: boardkit.Ruleset) -> None:
    game = trays.new_game(players=2, position={"zones": {"tray": ["1", "2", "3"]}, "vars": {"cap": 3}})
    assert [p["v"] for p in game.zone("tray")] == [1, 2, 3]


@pytest.mark.parametrize("options", ["abc", [("n", 1)]])
def test_options_must_be_a_dict(trays: boardkit.Ruleset, options: object) -> None:
    with pytest.raises(boardkit.OptionError, match="options are a dict"):
        trays.new_game(players=2, options=options)  # type: ignore[arg-type]


def test_a_variable_whose_initial_value_fails_is_a_located_runtime_error(trays: boardkit.Ruleset) -> None:
    with pytest.raises(boardkit.RuleRuntimeError, match=r"trays\.bk:6:5: ZeroDivisionError"):
        trays.new_game(players=2, options={"n": 0})


def test_unknown_zones_and_variables_are_key_errors_even_with_odd_indexes(trays: boardkit.Ruleset) -> None:
    game = trays.new_game(players=2)
    with pytest.raises(KeyError, match="no zone"):
        game.zone("tray", [0])
    with pytest.raises(KeyError, match="no variable"):
        game.var("cap", {})


BAG_GAME = """
game "Bags"
players 2
component Chip { v: int } label text(.v)
zone supply: pile, public
zone bag: bag, public, capacity 6
zone table: pile, public
var total = []
setup {
  create 1 Chip(v: i) for i in range(1, 5) into bag
  create 1 Chip(v: i) for i in range(6, 7) into supply
}
play {
  turn 0 {
    choose prompt "act" {
      option pick {
        choose c from bag prompt "chip"
        move 1 of [c] to table
        require c.v > 1 "too small"
      }
      option fill { move 2 of supply to bag }
      option pass otherwise { }
    }
  }
  end game "x"
}
"""


def test_bags_choose_named_pieces_check_capacity_and_hide_their_order() -> None:
    rules = boardkit.parse_ruleset(BAG_GAME, filename="bags.bk")
    for seed in range(4):
        game = rules.new_game(players=2, seed=seed)
        # Filling overflows the bag (5 + 2 > 6): dropped, although the bag mixes what enters.
        assert [m.label for m in game.legal_moves()] == ["pick"]
        game.play("pick")
        # A chip named by the player is no draw: the require after it still prunes chip 1,
        # and the bag's chips are offered in one order whatever the seed mixed.
        assert [m.label for m in game.legal_moves()] == ["2", "3", "4", "5"]


def test_adding_to_a_variable_keeps_the_list_bound() -> None:
    text = 'game "Grow"\nplayers 2\nvar xs = [1]\nplay {\n  repeat 20 {\n    set xs += xs\n  }\n}\n'
    with pytest.raises(boardkit.RuleRuntimeError, match="joining would make 131072 items"):
        boardkit.parse_ruleset(text, filename="grow.bk").new_game(players=2)


@pytest.mark.parametrize("count", ["99999999999999999", "50000000", '"three"'])
def test_repeat_is_bounded_by_the_work_budget_before_it_counts(count: str) -> None:
    """`repeat N` charges N to the work budget before it starts: a huge N is a located error,
    not a MemoryError or minutes of counting."""
    text = f'game "R"\nplayers 2\nvar n = 0\nplay {{\n  repeat {count} {{\n    set n += 1\n  }}\n  end game "x"\n}}\n'
    with pytest.raises(boardkit.RuleRuntimeError, match=r"r\.bk:5:\d+: .*(steps of work|whole number)"):
        boardkit.parse_ruleset(text, filename="r.bk").new_game(players=2)


@pytest.mark.parametrize("where", ["func", "score"])
def test_walks_of_fixed_lists_nested_in_a_function_are_bounded(where: str) -> None:
    """A function's first walk of a list of fixed length is charged with its call; the walks
    nested in it are charged each time: a billion-step comprehension is a located error."""
    walk = "size([a for a in range(1, 1000) for b in range(1, 1000) for c in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]])"
    if where == "func":
        text = (f'game "W"\nplayers 2\nfunc big() = {walk}\nvar n = 0\n'
                'play {\n  set n = big()\n  end game "x"\n}\n')
        line = 6  # where the function is called
    else:
        text = f'game "W"\nplayers 2\nplay {{\n  end game "x"\n}}\nscore p = {walk}\n'
        line = 6
    rules = boardkit.parse_ruleset(text, filename="w.bk")
    with pytest.raises(boardkit.RuleRuntimeError, match=rf"w\.bk:{line}:\d+: .*steps of work"):
        rules.new_game(players=2).outcome()


def test_a_function_walking_fixed_lists_is_charged_for_them() -> None:
    """What a function walks of a list of fixed length counts towards the work budget: called
    3,000 times, a function walking 1,000 numbers (3 million steps) runs out of budget."""
    text = ('game "W"\nplayers 2\nfunc f(x) = size([a for a in range(1, 1000) if a > x])\nvar n = 0\n'
            'play {\n  set n = size([f(i) for i in range(1, 3000)])\n  end game "x"\n}\n')
    with pytest.raises(boardkit.RuleRuntimeError, match=r"w\.bk:\d+:\d+: .*steps of work"):
        boardkit.parse_ruleset(text, filename="w.bk").new_game(players=2)
