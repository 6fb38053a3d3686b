"""How decisions become moves: unique labels, what look-ahead may use, typed errors."""

from __future__ import annotations

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
