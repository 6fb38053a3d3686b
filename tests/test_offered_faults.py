"""An offered option whose turn meets a rule fault: checking games raise it from legal_moves()."""

from __future__ import annotations

import pytest

import boardkit
from boardkit.testing import RulesetTestError, check_rules

# A newcomer's drop game: the column choice does not leave out full columns, so the third
# disc in a column lands off the board.
DROP = """\
game "Drop"
players 2
component Disc { seat: int } label text(.seat)
zone supply[Player]: pile, public
zone board: grid(3, 2), public
setup {
  for p in players {
    create 3 Disc(seat: p) into supply[p]
  }
}
func height(x) = size([y for y in range(0, 1) if top(board, cell(x, y)) != none])
play {
  let p = 0
  loop {
    turn p {
      choose x from range(0, 2) prompt "column"
      place first(supply[p]) on board at cell(x, height(x))
    }
    if size(occupied(board)) == 6 {
      end game "full"
    }
    set p = next(p)
  }
}
score p = 0
"""


@pytest.fixture(scope="module")
def rules() -> boardkit.Ruleset:
    return boardkit.parse_ruleset(DROP, filename="drop.bk")


def test_without_checking_the_fault_is_met_when_played(rules: boardkit.Ruleset) -> None:
    game = rules.new_game(players=2, seed=1)
    game.play("0")
    game.play("0")
    assert [m.label for m in game.legal_moves()] == ["0", "1", "2"]
    before = game.to_json()
    with pytest.raises(boardkit.RuleRuntimeError, match="'0,2' is not a cell of grid 'board'") as caught:
        game.play("0")
    assert (caught.value.span.line, caught.value.span.column) == (17, 13)
    assert game.to_json() == before


@pytest.mark.parametrize("path", ["moves", "actions"])
def test_a_checking_game_raises_it_located_before_offering(rules: boardkit.Ruleset, path: str) -> None:
    game = rules.new_game(players=2, seed=1, check_invariants=True)
    game.play("0")
    game.play("0")
    before = game.to_json()
    with pytest.raises(boardkit.RuleRuntimeError) as caught:
        game.legal_moves() if path == "moves" else game.legal_actions()
    assert "option '0' is offered but fails when played" in str(caught.value)
    assert "'0,2' is not a cell of grid 'board'" in str(caught.value)
    assert (caught.value.span.filename, caught.value.span.line, caught.value.span.column) == ("drop.bk", 17, 13)
    # Trying the options ahead changed nothing: no events, no moves, the same state.
    assert game.to_json() == before
    assert len(game.history) == 2


def test_a_checking_game_plays_sound_rules_as_before() -> None:
    rules = boardkit.load_ruleset("mandala")
    plain, checking = rules.new_game(players=2, seed=3), rules.new_game(players=2, seed=3, check_invariants=True)
    for _ in range(60):
        assert [m.label for m in checking.legal_moves()] == [m.label for m in plain.legal_moves()]
        action = len(plain.legal_actions()) // 2
        plain.apply_action(action)
        checking.apply_action(action)
    assert checking.to_json() == plain.to_json()
    assert [str(e) for e in checking.events] == [str(e) for e in plain.events]


def test_the_test_kit_finds_it(rules: boardkit.Ruleset) -> None:
    with pytest.raises(RulesetTestError, match="fails when played"):
        check_rules(rules, games=5, players=2)


def test_a_fault_met_by_the_look_ahead_is_raised_from_legal_moves() -> None:
    # A `require` later in the turn makes the look-ahead try each column: the fault it meets
    # there is the rules' bug, raised located, in any game.
    text = DROP.replace('      place first(supply[p]) on board at cell(x, height(x))\n',
                        '      place first(supply[p]) on board at cell(x, height(x))\n'
                        '      require size(occupied(board)) > 0\n')
    game = boardkit.parse_ruleset(text, filename="drop_require.bk").new_game(players=2, seed=1)
    game.play("0")
    game.play("0")
    before = game.to_json()
    with pytest.raises(boardkit.RuleRuntimeError, match="'0,2' is not a cell of grid 'board'") as caught:
        game.legal_moves()
    assert (caught.value.span.line, caught.value.span.column) == (17, 13)
    assert game.to_json() == before
