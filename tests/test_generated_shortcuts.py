"""Shortcuts the code generator takes for common rule shapes give what the plain forms give.

`count(zone where .attr == x)` counts the zone's remembered projection, projections outlive
moves elsewhere, and `top(grid, cell(x, y))` is one lookup: each is checked here against the
same question written so that the generator cannot take the shortcut.
"""

from __future__ import annotations

import random

import pytest

import boardkit
from boardkit.runtime.program import _LISTED

CARDS = '''game "Sorting"
players 2
enum Colour { red, blue, green }
component Card { colour: Colour } label .colour
zone deck: stack, hidden
zone hand[Player]: pile, owner
zone table: pile, public
setup {
  create 6 Card(colour: c) for c in Colour into deck
  shuffle deck
  for p in players {
    move 4 of deck to hand[p]
  }
}
play {
  let p = 0
  loop {
    turn p {
      choose c from distinct(hand[p].colour) prompt "colour"
      choose n from range(1, count(hand[p] where .colour == c)) prompt "how many"
      move n of hand[p] where .colour == c to table
      move min(2, size(deck)) of deck to hand[p]
    }
    if empty(deck) {
      end game "the deck ran out"
    }
    set p = next(p)
  }
}
score p = size(hand[p])
invariant "counts agree" for p in players :
  all([count(hand[p] where .colour == c) == size([x for x in hand[p] if x.colour == c])
       and count(table where c == .colour) == size([x for x in table if x.colour == c])
       for c in Colour])
invariant "projections agree" for p in players :
  hand[p].colour == [x.colour for x in hand[p]] and table.colour == [x.colour for x in table]
'''


def cards_rules() -> boardkit.Ruleset:
    return boardkit.parse_ruleset(CARDS, filename="sorting.bk")


def test_counts_and_projections_agree_with_the_plain_forms_in_random_games() -> None:
    rules = cards_rules()
    source = rules.program.source
    assert source.count("_zcount(") >= 3  # noqa: PLR2004 - the choice and both invariant counts
    for seed in range(12):
        game = rules.new_game(players=2, seed=seed)
        game.check_invariants = True  # every invariant, after every decision
        rng = random.Random(seed)
        steps = 0
        while not game.is_over:
            game.apply_action(rng.randrange(len(game.legal_actions())))
            steps += 1
            assert steps < 200  # noqa: PLR2004 - the deck runs out long before
        assert game.end_reason == "the deck ran out"


def test_the_count_choice_offers_one_option_per_card_of_the_colour() -> None:
    game = cards_rules().new_game(players=2, seed=3)
    hand = [p.label for p in game.state.zones[game.state.layout.zslot[("hand", 0)]]]
    colour = game.legal_moves()[0].label
    game.play(colour)
    assert [m.label for m in game.legal_moves()] == [str(n) for n in range(1, hand.count(colour) + 1)]


GRID = '''game "Columns"
players 2
component Disc { seat: int } label text(.seat)
zone supply: pile, public
zone board: grid(3, 2), public
setup {
  create 6 Disc(seat: 0) into supply
}
play {
  turn 0 {
    choose x from [0, 1, 7] prompt "column"
    if TOP == none {
      place first(supply) on board at cell(x, 0)
    }
  }
  end game "placed"
}
'''


@pytest.mark.parametrize("top", ["top(board, cell(x, 0))", 'top(board, text(x) + ",0")'])
def test_top_of_a_cell_off_the_grid_is_the_same_located_error_either_way(top: str) -> None:
    rules = boardkit.parse_ruleset(GRID.replace("TOP", top), filename="columns.bk")
    assert ("_topxy(" in rules.program.source) == top.startswith("top(board, cell")
    game = rules.new_game(players=2, seed=1)
    game.play("0")
    assert game.end_reason == "placed"
    assert [p.label for p in game.state.zones[game.state.layout.zslot["supply"]]] == ["0"] * 5
    game = rules.new_game(players=2, seed=1)
    with pytest.raises(boardkit.RuleRuntimeError, match=r"'7,0' is not a cell of grid 'board' \(3 x 2") as err:
        game.play("7")
    assert err.value.span is not None
    assert err.value.span.line == 12  # noqa: PLR2004 - the `if` that asks
    assert [m.label for m in game.legal_moves()] == ["0", "1", "7"]  # the game did not move


# A game that adds up the numbers its players choose, FUNCS and TURN filled in by each test.
SUMS = '''game "Sums"
players 2
var total = 0
FUNCS
setup { }
play {
  let p = 0
  loop {
    turn p {
      TURN
    }
    if total > 10 {
      end game "enough"
    }
    set p = next(p)
  }
}
score p = total
'''
LISTED = SUMS.replace("FUNCS", """func odd(xs) = [x for x in xs if x % 2 == 1]
func upto(n) = [x for x in range(1, n) if x > 1]""").replace(
    "TURN", """choose n from odd(range(1, 5)) + upto(3) prompt "number"
      set total += n""")


def test_a_function_always_given_a_list_is_not_remembered() -> None:
    """A list keys no memo: trying one would only raise and catch a TypeError at every call."""
    rules = boardkit.parse_ruleset(LISTED, filename="listed.bk")
    source = rules.python_source
    assert "def F_odd(s, " in source
    assert "# remembered" not in next(line for line in source.splitlines() if line.startswith("def F_odd("))
    assert next(line for line in source.splitlines() if line.startswith("def F_upto(")).endswith("# remembered")
    game = rules.new_game(players=2, seed=1)
    assert [m.label for m in game.legal_moves()] == ["1", "3", "5", "2"]  # odd numbers, then 2 and 3, each once


CHOSEN_LIST = SUMS.replace("FUNCS", "").replace("TURN", """choose t from subsets([1, 2, 3], 1, 2) prompt "numbers"
      choose n from [x for x in range(1, 4) if x not in t] prompt "another"
      set total += n + size(t)""")


def test_options_that_read_a_chosen_list_are_not_remembered() -> None:
    """`t` always holds a list (a choice from subsets): no memo key is tried with it."""
    rules = boardkit.parse_ruleset(CHOSEN_LIST, filename="chosen.bk")
    assert "L['t'], L['t'].__class__ is bool" not in rules.python_source
    game = rules.new_game(players=2, seed=1)
    assert [m.label for m in game.legal_moves()] == ["1", "2", "3", "1+2", "1+3", "2+3"]
    game.play("1+3")
    assert [m.label for m in game.legal_moves()] == ["2", "4"]  # range(1, 4) holds 4


THROUGH_A_LIST = SUMS.replace("FUNCS", """func odd(xs) = [x for x in xs if x % 2 == 1]
func odd_upto(n) = odd(range(1, n))""").replace(
    "TURN", """choose n from [x for x in range(1, 4) if x in odd_upto(5)] prompt "number"
      choose m from odd_upto(n + 2) prompt "another"
      set total += n + m""")


def test_a_function_that_walks_through_one_given_a_list_is_remembered() -> None:
    """`odd` remembers nothing (always given a list): `odd_upto`, keyed by a number, remembers its walk."""
    rules = boardkit.parse_ruleset(THROUGH_A_LIST, filename="through.bk")
    lines = rules.python_source.splitlines()
    assert "# remembered" not in next(line for line in lines if line.startswith("def F_odd("))
    assert next(line for line in lines if line.startswith("def F_odd_upto(")).endswith("# remembered")
    game = rules.new_game(players=2, seed=1)
    assert [m.label for m in game.legal_moves()] == ["1", "3"]
    game.play("3")
    assert [m.label for m in game.legal_moves()] == ["1", "3", "5"]


SIZED_LIST = SUMS.replace("FUNCS", "").replace("TURN", """choose t from subsets([1, 2, 3], 1, 2) prompt "numbers"
      choose n from range(size(t), 3) prompt "another"
      set total += n + size(t)""")


def test_options_that_read_a_chosen_list_only_by_its_size_are_keyed_by_it() -> None:
    """`t` keys no memo, but `size(t)` does: the options of every `t` of one size are worked out once."""
    rules = boardkit.parse_ruleset(SIZED_LIST, filename="sized.bk")
    assert "(len(_v) if (_v := L['t']).__class__ is list else _v)" in rules.python_source
    game = rules.new_game(players=2, seed=1)
    game.play("1+3")
    assert [m.label for m in game.legal_moves()] == ["2", "3"]
    game.play("3")
    game.play("2")
    assert [m.label for m in game.legal_moves()] == ["1", "2", "3"]


HEIGHTS = '''game "Heights"
players 2
component Disc { seat: int } label text(.seat)
zone supply: pile, public
zone board: grid(3, 3), public
setup {
  create 9 Disc(seat: 0) into supply
}
const ROWS = range(0, 2)
func height(x) = size([y for y in ROWS if top(board, cell(x, y)) != none])
play {
  loop {
    turn 0 {
      choose x from [x for x in range(0, 2) if height(x) < 3] prompt "column"
      place first(supply) on board at cell(x, height(x))
    }
    if size(occupied(board)) == 9 {
      end game "full"
    }
  }
}
'''


def test_a_comprehension_looks_up_a_board_once_and_sees_every_placement() -> None:
    """The zone's slot and board's table are bound before the function's body; each call binds them anew."""
    rules = boardkit.parse_ruleset(HEIGHTS, filename="heights.bk")
    assert "_z1 = s.zf[1]\n        _g1_tops = s.boards[_z1].tops\n        _r = len([" in rules.python_source
    assert "_g1_tops.get((_p_x_2, _v_y_3), _OFF)" in rules.python_source  # each item reads the table bound once
    assert "_topxy(s, _z1, " in rules.python_source  # the slot, read once, where an item needs it
    game = rules.new_game(players=2, seed=1)
    for column in ["1", "1", "1", "0", "2", "0"]:
        game.play(column)
    assert [m.label for m in game.legal_moves()] == ["0", "2"]
    game.play("0")
    game.play("2")
    assert [m.label for m in game.legal_moves()] == ["2"]
    game.play("2")
    assert game.end_reason == "full"


BY_IDENTITY = SUMS.replace("FUNCS", "func positive(xs) = sum([x for x in xs if x > 0])").replace(
    "TURN", """let xs = [1, 2]
      let a = positive(xs)
      set xs = [5, 6]
      let b = positive(xs)
      choose n from [a, b, positive(xs)] prompt "number"
      set total += n""")


def test_a_list_given_from_a_local_keys_the_memo_by_identity_and_stays_alive() -> None:
    """A new list in the local, with no effect between, is another key: the old one is kept so no list takes its identity."""
    rules = boardkit.parse_ruleset(BY_IDENTITY, filename="identity.bk")
    assert "((_LISTED, _id(_p_xs_" in rules.python_source
    game = rules.new_game(players=2, seed=1)
    assert [m.label for m in game.legal_moves()] == ["3", "11"]
    kept = [v for k, v in game.state.memo.items() if k[0] is _LISTED]
    assert sorted(kept) == [[1, 2], [5, 6]]


WALKED = SUMS.replace("FUNCS", """var recs = [[1, -2, 3], [0, 4]]
func kept(rec) = [x for x in rec if x > 0]
func twice(rec) = size(kept(rec)) + sum(kept(rec))""").replace(
    "TURN", """choose n from [twice(rec) for rec in recs] prompt "number"
      set total += n""")


def test_a_list_a_function_walks_keys_its_memo_by_identity() -> None:
    """Items of a list variable are not known to be lists, but `kept` walks its parameter: lists key it by identity.

    Otherwise every call given a list would try a key, raise a TypeError and work the value out anew.
    """
    rules = boardkit.parse_ruleset(WALKED, filename="walked.bk")
    source = rules.python_source
    assert "_k = ('kept', ((_LISTED, _id(_p_rec_" in source
    game = rules.new_game(players=2, seed=1)
    assert [m.label for m in game.legal_moves()] == ["6", "5"]
    memo = game.state.memo
    kept = [v for k, v in memo.items() if k[0] is _LISTED]
    assert sorted(kept) == [[0, 4], [1, -2, 3]]
    assert memo[("kept", (_LISTED, id(kept[0])), False)] == [x for x in kept[0] if x > 0]
    game.play("5")
    assert game.state.vars["total"] == 5  # noqa: PLR2004 - the chosen option


# `kept` walks its parameter, but here it is also given lists made afresh at every call (by the
# score, the heuristic and the options).
FRESH_LISTS = """game "Fresh"
players 2
var recs = [[1, -2, 3], [0, 4]]
func kept(rec) = [x for x in rec if x > 0]
play {
  let p = 0
  let n = 0
  loop {
    turn p {
      choose x from [size(kept(r)) for r in recs] + kept([n, 1]) prompt "number"
      set n = n + x
    }
    set p = next(p)
  }
}
score p = size(kept([p, 1]))
heuristic p = size(kept([1, p, 2]))
"""


def test_asking_for_scores_again_at_one_position_does_not_grow_the_memo() -> None:
    """A list made afresh for one question would key an entry no later question finds: each ask would keep one more.

    A host that asks for the scores or the heuristic of one position again and again (a
    display, a search that revisits it) would fill the memo, and the lists it keeps alive,
    until the next effect. So a function given a list built for the call keys no list by identity.
    """
    rules = boardkit.parse_ruleset(FRESH_LISTS, filename="fresh.bk")
    assert "_k = ('kept', _p_rec_" in rules.python_source
    game = rules.new_game(players=2, seed=1)
    game.legal_moves()
    game.scores()
    game.heuristic(0)
    settled = len(game.state.memo)
    for _ in range(200):
        game.scores()
        game.heuristic(0)
    assert len(game.state.memo) == settled


# Here every call gives `kept` a name, so lists key it by identity; but the comprehension's
# name is bound to lists made afresh at every question.
FRESH_THROUGH_A_NAME = FRESH_LISTS.replace("score p = size(kept([p, 1]))",
                                           "score p = sum([size(kept(r)) for r in [[p, 1], [1, p]]])").replace(
    "heuristic p = size(kept([1, p, 2]))\n", "").replace(" + kept([n, 1])", "")


def test_lists_made_afresh_under_a_name_fill_the_memo_only_up_to_a_bound() -> None:
    """The memo stops taking entries from a function that keys lists by identity once it holds 4096."""
    rules = boardkit.parse_ruleset(FRESH_THROUGH_A_NAME, filename="fresh_name.bk")
    assert "_k = ('kept', ((_LISTED, _id(_p_rec_" in rules.python_source
    game = rules.new_game(players=2, seed=1)
    assert [m.label for m in game.legal_moves()] == ["2", "1"]
    for _ in range(3000):
        assert game.scores() == [2, 4]
    assert 4096 <= len(game.state.memo) <= 4096 + 4  # noqa: PLR2004 - the bound, and an entry with its kept list
    game.play("1")
    assert game.scores() == [2, 4]  # noqa: PLR2004 - past the bound, worked out without the memo


DISTINCT_THROUGH_CALLS = SUMS.replace("FUNCS", """func small(xs) = [x for x in xs if x < 4]
func pairs(xs) = [t for t in xs if size(t) == 2]""").replace(
    "TURN", """choose t from pairs(subsets(small([1, 2, 3, 4]), 1, 2)) prompt "numbers"
      set total += sum(t)""")


def test_options_from_subsets_of_distinct_values_through_functions_are_offered_as_they_are() -> None:
    """Sub-lists of distinct values are distinct, through the functions that pass them on: no check of each option."""
    rules = boardkit.parse_ruleset(DISTINCT_THROUGH_CALLS, filename="through.bk")
    options_fn = next(line for line in rules.python_source.splitlines() if "F_pairs(s, _b_subsets(" in line)
    assert "_offered(" not in options_fn
    game = rules.new_game(players=2, seed=1)
    assert [m.label for m in game.legal_moves()] == ["1+2", "1+3", "2+3"]
    game.play("2+3")
    assert game.state.vars["total"] == 5  # noqa: PLR2004 - the sum of the chosen pair


def test_a_grid_size_that_reads_a_board_in_a_comprehension_is_worked_out_before_the_boards() -> None:
    """Sizes are worked out while the state is made, before its boards: no table is looked up ahead there."""
    text = HEIGHTS.replace(
        "zone board: grid(3, 3), public",
        "zone board: grid(3, 3), public\n"
        "zone side: grid(3 + size([x for x in range(1, 3) if x > 5 and level(board, cell(x, 0)) > 0]), 1), public")
    rules = boardkit.parse_ruleset(text, filename="sizes.bk")
    game = rules.new_game(players=2, seed=1)
    assert [m.label for m in game.legal_moves()] == ["0", "1", "2"]


STACKS = '''game "Stacks"
players 2
component Disc { seat: int } label text(.seat)
zone supply: pile, public
zone board: grid(2, 2), public
setup {
  create 40 Disc(seat: 0) into supply
}
play {
  loop {
    turn 0 {
      choose c from cells(board) + (if empty(occupied(board)) then [] else ["lift"]) prompt "cell"
      if c == "lift" {
        move 1 of [top(board, first(occupied(board)))] to supply
      } else {
        place first(supply) on board at c
      }
    }
    if size(occupied(board)) == 4 {
      end game "covered"
    }
  }
}
invariant "occupied counted" : size(occupied(board)) == size([c for c in cells(board) if top(board, c) != none])
'''


def test_a_count_of_occupied_cells_counts_each_cell_once_as_pieces_stack_and_leave() -> None:
    """`size(occupied(g))` is the board's count of cells that hold a piece, not a list made to be counted."""
    rules = boardkit.parse_ruleset(STACKS, filename="stacks.bk")
    assert "len(s.boards[s.zf[1]].stacks)" in rules.python_source
    game = rules.new_game(players=2, seed=1)
    game.check_invariants = True
    for label in ["0,0", "0,0", "1,0", "lift", "lift", "lift", "0,1", "0,1", "1,1", "0,0"]:
        game.play(label)
        assert not game.is_over
    game.play("1,0")
    assert game.end_reason == "covered"
    for seed in range(6):
        game = rules.new_game(players=2, seed=seed)
        game.check_invariants = True
        rng = random.Random(seed)
        for _ in range(60):
            if game.is_over:
                break
            game.apply_action(rng.randrange(len(game.legal_actions())))


COUNTED = SUMS.replace("FUNCS", """func down(n) = if n > 0 then 1 + down(n - 1) else 0
func both(n) = down(n) + down(n)
func widen(xs) = 1 + xs
func evens(n) = [both(k) for k in range(1, n)]""").replace(
    "TURN", """let xs = [1]
      choose n from evens(down(2)) + [0] prompt "number"
      if n == 0 {
        set total += widen(xs)
      }
      set total += n""")


def test_sums_of_functions_that_give_numbers_add_in_place_and_keep_their_faults() -> None:
    """`down` gives a number whenever it gives anything, so `both` adds without `_add`; `1 + xs` fails where it did."""
    rules = boardkit.parse_ruleset(COUNTED, filename="counted.bk")
    both = next(line for line in rules.python_source.splitlines()[1:] if "F_down(s, " in line and "return" in line
                and "F_down(s, (" not in line)
    assert "_add(" not in both
    assert "('evens', _p_n_4, )" in rules.python_source  # every call gives `evens` a number: never a truth value
    game = rules.new_game(players=2, seed=1)
    assert [m.label for m in game.legal_moves()] == ["2", "4", "0"]
    game.play("4")
    assert game.state.vars["total"] == 4  # noqa: PLR2004 - twice down(2)
    with pytest.raises(boardkit.RuleRuntimeError, match="cannot add a list to a number") as err:
        game.play("0")
    assert err.value.span is not None
    assert (err.value.span.line, err.value.span.column) == (16, 13)  # the statement that called `widen`
    assert game.state.vars["total"] == 4  # noqa: PLR2004 - the game did not move


LINES = '''game "Lines"
players 2
component Disc { seat: int } label text(.seat)
zone supply[Player]: pile, public
zone board: grid(4, 1), public
var winner = none
setup {
  for p in players {
    create 4 Disc(seat: p) into supply[p]
  }
}
func mine(p, x) = x >= 0 and x <= 3 and top(board, cell(x, 0)) != none and top(board, cell(x, 0)).seat == p
func run(p, x, dx) = if mine(p, x + dx) then 1 + run(p, x + dx, dx) else 0
func line(p, x) = 1 + run(p, x, 1) + run(p, x, 0 - 1)
play {
  let p = 0
  loop {
    turn p {
      choose x from [x for x in range(0, 3) if top(board, cell(x, 0)) == none] prompt "cell"
      place first(supply[p]) on board at cell(x, 0)
      if line(p, x) >= 2 {
        set winner = p
        end game "two in a row"
      }
    }
    set p = next(p)
  }
}
score p = if p == winner then 1 else 0
'''


def test_numbers_known_from_locals_and_calls_look_up_cells_without_checks_and_find_the_same_lines() -> None:
    """`x` is chosen from numbers and `p` counts players, so `run(p, x + dx, dx)` is always given numbers."""
    rules = boardkit.parse_ruleset(LINES, filename="lines.bk")
    mine = next(line for line in rules.python_source.splitlines() if "tops.get((" in line)
    assert "__class__ is _int" not in mine
    run = rules.python_source.split("def F_run(")[1].split("def ")[0]
    assert "_joined(" not in run  # `x + dx` adds numbers in place
    game = rules.new_game(players=2, seed=1)
    for label in ["0", "2", "3"]:
        game.play(label)
    assert game.scores() == [0, 0] and not game.is_over
    assert [m.label for m in game.legal_moves()] == ["1"]
    game.play("1")
    assert game.end_reason == "two in a row"
    assert game.state.vars["winner"] == 1


def test_pieces_made_alike_share_a_label_that_reads_only_their_attributes() -> None:
    """A label of attributes is worked out once per `create`; one that reads the game, for each piece."""
    text = CARDS.replace("label .colour", 'label text(.colour) + "-" + text(size(table))')
    assert "LABELS_OF_ATTRIBUTES = ()" in boardkit.parse_ruleset(text, filename="t.bk").python_source
    rules = cards_rules()
    assert "LABELS_OF_ATTRIBUTES = ('Card',)" in rules.python_source
    game = rules.new_game(players=2, seed=1)
    labels = sorted(p.label for p in game.state.pieces)
    assert labels == sorted(["red", "blue", "green"] * 6)
    game = boardkit.parse_ruleset(text, filename="t.bk").new_game(players=2, seed=1)
    assert sorted(p.label for p in game.state.pieces) == sorted(["red-0", "blue-0", "green-0"] * 6)


UNROLLED = CARDS.replace("play {", '''func held(p) = [c for c in Colour if count(hand[p] where .colour == c) > 0]
func held_count(p) = size([c for c in Colour if count(hand[p] where .colour == c) > 0])
func tenths(k) = [nth([10, 20], i) for i in range(1, k)]
func tenths_spelled() = [nth([10, 20], i) for i in range(1, 3)]
play {''', 1) + '''invariant "written out agrees" for p in players :
  held(p) == [c for c in Colour if c in hand[p].colour] and held_count(p) == size(distinct(hand[p].colour))
'''


def test_comprehensions_over_short_spelled_lists_are_written_out_and_agree_with_the_loop() -> None:
    """`[... for c in Colour ...]` in a function is a list display, one item per colour, in the same order."""
    rules = boardkit.parse_ruleset(UNROLLED, filename="unrolled.bk")
    source = rules.python_source
    held = source.split("def F_held(")[1].split("def ")[0]
    assert "*(('red',) if " in held and " for " not in held
    assert "(1 if " in source.split("def F_held_count(")[1].split("def ")[0]
    for seed in range(8):
        game = rules.new_game(players=2, seed=seed)
        game.check_invariants = True
        rng = random.Random(seed)
        while not game.is_over:
            game.apply_action(rng.randrange(len(game.legal_actions())))


def test_a_fault_in_a_written_out_item_is_the_loop_s_fault() -> None:
    """The third item fails in both forms, with the same message, at the same place."""
    messages = []
    for call in ["tenths(3)", "tenths_spelled()"]:
        text = UNROLLED.replace("move min(2, size(deck)) of deck to hand[p]", f"set total += size({call})").replace(
            "players 2", "players 2\nvar total = 0", 1)
        game = boardkit.parse_ruleset(text, filename="fault.bk").new_game(players=2, seed=1)
        game.play(game.legal_moves()[0].label)
        with pytest.raises(boardkit.RuleRuntimeError) as err:
            game.play(game.legal_moves()[0].label)
        messages.append(str(err.value))
    assert messages[0] == messages[1]
    assert "position 3 is outside a list of 2" in messages[0]


CREATED_FOR = '''game "Created"
players 2
component Disc { seat: int } label text(.seat)
zone supply: pile, public
zone board: grid(2, 1), public
zone out: pile, public
setup {
  create 2 Disc(seat: 0) into supply
  place first(supply) on board at cell(1, 0)
  create 1 Disc(seat: 9) for x in LIST if top(board, cell(x, 0)) != none into out
}
play {
  let x = 0
  turn x {
    choose k from [1, 2] prompt "k"
  }
  end game "done"
}
'''


def test_a_create_loop_variable_is_a_number_only_when_its_list_holds_numbers() -> None:
    """`x` is a number in `play`, but `create ... for x in [true]` gives it a truth value: no cell matches it."""
    with pytest.raises(boardkit.RuleRuntimeError, match=r"'True,0' is not a cell of grid 'board'"):
        boardkit.parse_ruleset(CREATED_FOR.replace("LIST", "[true]"), filename="created.bk").new_game(players=2, seed=1)
    rules = boardkit.parse_ruleset(CREATED_FOR.replace("LIST", "[0, 1]"), filename="created.bk")
    assert "(L['x']).__class__ is _int" not in rules.python_source
    game = rules.new_game(players=2, seed=1)
    assert [p.label for p in game.state.zones[game.state.layout.zslot["out"]]] == ["9"]


# Three cases a review of the eighteenth session's changes found (each failed before its fix).
PARTS_READ_MEMO = """game "Memo"
players 2
component Tile { a: int } label text(.a) parts [pv(2), pv(2)]
zone supply: pile, public
zone board: grid(3, 3), public
var v1 = 0
var v2 = 0
func pv(k) = size([x for x in range(0, k) if x < v2])
setup {
  create 2 Tile(a: 1) into supply
  place first(supply) on board at [cell(0, 0), cell(0, 1)]
}
play {
  loop {
    turn 0 {
      choose x from [0, 1] prompt "x"
      set v1 = x
      set v2 = x + size(joining(board, cell(0, 0), first(supply), [[cell(1, 0), cell(2, 0)]]))
      let r = pv(2)
      choose y from [r, 7] prompt "r"
    }
  }
}
"""


def test_a_set_whose_value_reads_parts_empties_the_memo_after_another_set() -> None:
    """`joining` reads a tile's parts, whose function is remembered: the second set must empty s.memo again."""
    rules = boardkit.parse_ruleset(PARTS_READ_MEMO, filename="parts_memo.bk")
    game = rules.new_game(players=2, seed=1)
    game.play("1")  # v2 becomes 1 + 1: pv(2) counts 2, not what it counted while v2 was 0
    assert [m.label for m in game.legal_moves()] == ["2", "7"]


GRID_SIZED_BY_A_FUNCTION = """game "GridSize"
players 2
component Disc { seat: int } label text(.seat)
zone supply: pile, public
zone board: grid(w(max(0, 0)), 3), public
setup {
  create 3 Disc(seat: 0) into supply
}
func w(a) = if a == 1 and top(board, cell(0, 0)) != none then 2 else 3
play {
  loop {
    turn 0 {
      choose x from range(0, 2) prompt "column"
      place first(supply) on board at cell(x, 0)
    }
    if size(occupied(board)) == 3 {
      end game "full"
    }
  }
}
"""


def test_a_function_that_sizes_a_grid_looks_no_board_up_before_it_reads_one() -> None:
    """Grid sizes are worked out before the state has boards: their functions bind no board's table first."""
    rules = boardkit.parse_ruleset(GRID_SIZED_BY_A_FUNCTION, filename="grid_size.bk")
    assert "_g1_tops = " not in rules.python_source.split("def F_w(")[1].split("\ndef ")[0]
    assert [m.label for m in rules.new_game(players=2, seed=1).legal_moves()] == ["0", "1", "2"]


TOPS_OF_A_RANDOM_BOARD = """game "Rand"
players 2
component Disc { seat: int } label text(.seat)
zone supply: pile, public
zone boards[Player]: grid(3, 3), public
var n = 0
setup {
  create 3 Disc(seat: 0) into supply
  place first(supply) on boards[0] at cell(0, 0)
}
play {
  loop {
    turn 0 {
      set n = size(tops(boards[random(players)], [cell(0, 0), cell(1, 0)]))
      let r = random([10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21])
      choose x from [n, r] prompt "n"
    }
  }
}
"""


def test_the_tops_of_a_board_chosen_at_random_draw_once() -> None:
    """`size(tops(boards[random(players)], cs))` works the board out once: one draw, the same board for both reads."""
    rules = boardkit.parse_ruleset(TOPS_OF_A_RANDOM_BOARD, filename="random_board.bk")
    game = rules.new_game(players=2, seed=1)
    assert [m.label for m in game.legal_moves()] == ["0", "11"]
    game.play("0")
    assert [m.label for m in game.legal_moves()] == ["1", "21"]
