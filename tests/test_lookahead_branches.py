"""Look-ahead at a `choose { }` met in a trial: the options' conditions are worked out one at a
time, in order, and only as far as the first option after which the turn can be completed."""

from __future__ import annotations

import random
import re

import pytest

import boardkit
from boardkit.runtime import interpreter


def _rules(play: str, name: str) -> boardkit.Ruleset:
    text = f'game "{name}"\nplayers 2\nvar v = 0\nplay {{\n{play}\n  end game "done"\n}}\nscore p = v\n'
    return boardkit.parse_ruleset(text, filename=f"{name}.bk")


def test_a_fault_in_a_condition_past_the_first_completable_option_shows_when_the_game_gets_there() -> None:
    rules = _rules("""\
  turn 0 {
    choose first from [1, 2] prompt "first"
    choose prompt "branch" {
      option a { set v = 1 }
      option b when 10 / (first - 1) > 0 { set v = 2 }
    }
    require v > 0
  }""", "later")
    game = rules.new_game(seed=0)
    # Option `a` completes the turn after either value, so `b`'s condition is not worked out ahead.
    assert [m.label for m in game.legal_moves()] == ["1", "2"]
    game.play("1")
    with pytest.raises(boardkit.RuleRuntimeError) as err:
        game.legal_moves()
    assert "later.bk:8:14:" in str(err.value)  # the branch, where its options function is located too
    assert "ZeroDivisionError" in str(err.value)


def test_otherwise_options_are_tried_when_no_plain_option_completes() -> None:
    rules = _rules("""\
  turn 0 {
    choose first from [1, 2, 3] prompt "first"
    choose prompt "branch" {
      option a when first == 1 { require false "a fails" }
      option b when first == 2 { set v = 1 }
      option o1 otherwise { require first != 3 "o1 fails at 3" }
      option o2 otherwise {
        require first != 1 "o2 fails at 1"
        set v = 2
      }
    }
  }""", "fallback")
    game = rules.new_game(seed=0)
    assert [m.label for m in game.legal_moves()] == ["1", "2", "3"]
    for first, offered in (("1", ["o1"]), ("2", ["b"]), ("3", ["o2"])):
        game = rules.new_game(seed=0)
        game.play(first)
        assert [m.label for m in game.legal_moves()] == offered


def test_a_condition_worked_out_after_a_trial_has_the_work_budget_it_had_before() -> None:
    # Option `a`'s trial spends nearly the whole work budget before it fails; `b`'s condition
    # then does work of its own, which must not be charged on top of the trial's.
    rules = _rules("""\
  turn 0 {
    choose first from [1, 2] prompt "first"
    choose prompt "branch" {
      option a {
        repeat 1999000 { break }
        require false "a fails"
      }
      option b when count([x for x in range(1, 2000)]) > 0 { set v = 1 }
    }
  }""", "budget")
    game = rules.new_game(seed=0)
    assert [m.label for m in game.legal_moves()] == ["1", "2"]
    game.play("1")
    assert [m.label for m in game.legal_moves()] == ["b"]


@pytest.mark.parametrize(("name", "players"), [("meenakshi", 2), ("chakra", 2), ("mandala", 2)])
def test_a_loaded_game_knows_where_dead_ends_may_follow_as_the_played_one_does(name: str, players: int) -> None:
    """Each frame carries whether a dead end may follow its return: set at the call, worked out again on load."""
    rules = boardkit.load_ruleset(name)
    game = rules.new_game(players=players, seed=8)
    rng = random.Random(8)
    depths = set()
    for _ in range(150):
        if game.is_over:
            break
        loaded = rules.load_game(game.to_json())
        assert [f[:2] + f[3:] for f in loaded.state.frames] == [f[:2] + f[3:] for f in game.state.frames]
        assert [m.label for m in loaded.legal_moves()] == [m.label for m in game.legal_moves()]
        depths.add(len(game.state.frames))
        game.apply_action(rng.randrange(len(game.legal_actions())))
    assert max(depths) >= 3


def _first_decision_may_fail(play: str, name: str) -> bool:
    """Whether the checker sees a possible dead end after the turn's first decision."""
    rules = _rules(play, name)
    proc = rules.program.game.procs["play"]
    pc = next(i for i, ins in enumerate(proc.code) if type(ins).__name__ in {"Choose", "Branch"})
    return proc.probe[pc].fail


@pytest.mark.parametrize("then", [
    "choose c from [3, 4]",
    "choose c from players",
    "choose c from range(1, 3)",
    "choose c from distinct([5, 5])",
    'choose prompt "b" {\n option a { set v = 1 }\n option b when v == 9 { set v = 2 }\n }',
    'choose prompt "b" {\n option a when v == 9 { set v = 1 }\n option b otherwise { set v = 2 }\n }',
    'choose prompt "b" {\n option a when v == 0 and not empty([x for x in [1, 2] if x > v]) {\n'
    '   choose c from [x for x in [1, 2] if x > v]\n }\n option b otherwise { }\n }',
])
def test_choices_that_always_have_an_option_need_no_look_ahead(then: str) -> None:
    play = f'  turn 0 {{\n    choose first from [1, 2] prompt "first"\n    {then}\n  }}'
    assert not _first_decision_may_fail(play, "sure")
    game = _rules(play, "sure").new_game(seed=1)
    assert [m.label for m in game.legal_moves()] == ["1", "2"]
    while not game.is_over:
        game.play(game.legal_moves()[-1])


@pytest.mark.parametrize("then", [
    "choose c from range(3, 1)",
    "choose c from [x for x in [1, 2] if x > v]",
    'choose prompt "b" {\n option a when v == 0 { set v = 1 }\n option b when v == 9 { set v = 2 }\n }',
    'choose prompt "b" {\n option a when v == 0 { set v = 1\n choose c from [1, v] where it > 1 }\n option b otherwise { }\n }',
])
def test_choices_that_may_have_no_option_are_looked_ahead(then: str) -> None:
    play = f'  turn 0 {{\n    choose first from [1, 2] prompt "first"\n    {then}\n  }}'
    assert _first_decision_may_fail(play, "unsure")


def test_an_option_whose_effects_cannot_lead_to_a_dead_end_is_settled_without_a_trial() -> None:
    rules = _rules("""\
  turn 0 {
    choose prompt "action" {
      option safe { set v += 1 }
      option risky {
        set v += 2
        require v < 2 "too much"
      }
    }
  }""", "settled")
    game = rules.new_game(seed=0)
    assert [m.label for m in game.legal_moves()] == ["safe"]
    # What the look-ahead used of its trial budget: the shortcut of each option (2) and one
    # full trial, of `risky`, which fails its requirement. `safe` is settled where it is
    # compiled: tried in full it would cost one more.
    assert interpreter.TRIAL_LIMIT - game.state.trials_left == 3
    game.play("safe")
    assert game.is_over
    assert game.scores()[0] == 1


FILTERED = """\
  turn 0 {
    choose prompt "action" {
      option pick { pick() }
      option rest otherwise { set v = -1 }
    }
  }
}
proc pick() {
  choose x from [x for x in [0, 1, 2, 3] if 6 / (limit - x) > 0 and x > limit - 2] prompt "x"
  choose y from [y for y in [1, 2] if y + x > 3] prompt "y"
  set v = x + y"""


def _filtered(limit: int) -> boardkit.Ruleset:
    text = f'game "filtered"\nplayers 2\nvar v = 0\nconst limit = {limit}\nplay {{\n{FILTERED}\n}}\nscore p = v\n'
    return boardkit.parse_ruleset(text, filename="filtered.bk")


def test_a_filtered_choice_is_looked_ahead_one_item_at_a_time() -> None:
    source = _filtered(4).program.source
    assert "_vals = D_pick_0" not in source  # the list of options is not made to be looked ahead
    assert re.search(r"for _v_x_\d+ in \(0, 1, 2, 3\):\n +if not .*\n +continue", source)


@pytest.mark.parametrize(("limit", "offered"), [(4, ["pick"]), (5, ["rest"]), (-2, ["rest"])])
def test_a_filtered_choice_leads_on_as_a_full_trial_finds(limit: int, offered: list[str]) -> None:
    # 4: x = 3 passes its filter and has a y; 5: no x passes; -2: no x passes (the divisions
    # are negative).
    rules = _filtered(limit)
    assert [m.label for m in rules.new_game(seed=0).legal_moves()] == offered
    rules.interpreter.shortcuts = False  # every option tried in full
    try:
        assert [m.label for m in rules.new_game(seed=0).legal_moves()] == offered
    finally:
        rules.interpreter.shortcuts = True


def test_a_fault_past_the_first_item_that_leads_on_shows_when_the_game_gets_there() -> None:
    # limit 3: x = 2 passes and has a y, so x = 3, whose division fails, is not worked out ahead.
    game = _filtered(3).new_game(seed=0)
    assert [m.label for m in game.legal_moves()] == ["pick"]
    game.play("pick")
    with pytest.raises(boardkit.RuleRuntimeError) as err:
        game.legal_moves()
    assert "filtered.bk:" in str(err.value)
    assert "ZeroDivisionError" in str(err.value)


# Where walking a list item by item would go wrong, the shortcut makes the list as the decision
# does. Pieces alike are one option (the first), and so are equal values (1 and true): walking
# their items, the shortcut found an item the decision never offers. A list that does not read
# the value chosen before it is remembered for all of them, not walked again after each (1,499
# values of x, then 1,499 of y, ran out of work budget).
WALKED_AS_OFFERED = {
    "pieces": """\
component Tok { c: int } label "tok"
zone row: pile, public
setup {
  create 2 Tok(c: 1) into row
}""", "truth": "", "budget": "var seq = range(1, 1500)"}
PICKS = {
    "pieces": ("choose x from row where .c == 1", "[y for y in [1, 2] if position(row, x) == 2]"),
    "truth": ("choose x from [a for a in [1, true, 2 / 2] if v == 0]", '[y for y in [1, 2] if text(x) != "1"]'),
    "budget": ("choose x from [x for x in range(1, 1500) if x > 0]", "[y for y in seq if y < 0]"),
}


@pytest.mark.parametrize("name", sorted(PICKS))
def test_a_list_the_shortcut_cannot_walk_alone_is_made_as_the_decision_makes_it(name: str) -> None:
    first, second = PICKS[name]
    text = (f'game "{name}"\nplayers 2\nvar v = 0\n{WALKED_AS_OFFERED[name]}\nplay {{\n  turn 0 {{\n'
            '    choose prompt "action" {\n      option pick { pick() }\n      option rest otherwise { set v = -1 }\n'
            f'    }}\n  }}\n}}\nproc pick() {{\n  {first} prompt "x"\n  choose y from {second} prompt "y"\n'
            '  set v = y\n}\nscore p = v\n')
    rules = boardkit.parse_ruleset(text, filename=f"{name}.bk")
    game = rules.new_game(seed=0)
    assert [m.label for m in game.legal_moves()] == ["rest"]
    game.play("rest")
    rules.interpreter.shortcuts = False
    try:
        assert [m.label for m in rules.new_game(seed=0).legal_moves()] == ["rest"]
    finally:
        rules.interpreter.shortcuts = True
