"""Lists the checker knows to be non-empty where a choice is made from them (lang/nonempty.py).

Such a choice is no dead end, so the decisions before it need no look-ahead. Each case is a
turn whose first decision is followed by one choice: the checker must see that the choice
always has an option where it does, and must not where a statement in between may empty the
list (a wrong "always" would let the game offer a move that leads to a dead end).
"""

from __future__ import annotations

import random

import pytest

import boardkit
from boardkit.lang import nonempty

HEAD = """
game "Facts"
players {players}
component Card {{ n: int }}
zone deck: stack, hidden
zone hand[Player]: pile, public
zone discard: pile, public
var v = 0
func odd(q) = [c for c in hand[q] if c.n % 2 == 1]
func odd_at(q) = [c for c in hand[q] if c.n % 2 == 1 and v == 0]
setup {{
  create 1 Card(n: k) for k in range(1, 6) into deck
  shuffle deck
  move 1 of deck to hand[0]
}}
proc tidy() {{
  move all of hand[0] to discard
}}
play {{
  let xs = [1, 2]
  turn 0 {{
    choose first from [1, 2] prompt "first"
{body}
  }}
  end game "done"
}}
score p = v
"""


def _rules(body: str, players: str = "2") -> boardkit.Ruleset:
    return boardkit.parse_ruleset(HEAD.format(body=body, players=players), filename="facts.bk")


def _sure(body: str, players: str = "2") -> bool:
    """Whether the checker knows the last choice of the turn to have an option."""
    proc = _rules(body, players).program.game.procs["play"]
    last = [ins for ins in proc.code if type(ins).__name__ == "Choose"][-1]
    return bool(last.total)


def _may_fail_after_first(body: str) -> bool:
    """Whether the checker sees a possible dead end after the turn's first decision."""
    proc = _rules(body).program.game.procs["play"]
    pc = next(i for i, ins in enumerate(proc.code) if type(ins).__name__ == "Choose")
    return proc.probe[pc].fail


SURE = {
    "a card drawn into an empty hand": """
    if empty(hand[0]) {
      if empty(deck) {
        return
      }
      move 1 of deck to hand[0]
    }
    choose c from distinct(hand[0].n)""",
    "a condition that leaves the loop": """
    loop {
      let open = odd(0)
      if v > 3 or empty(open) {
        break
      }
      choose prompt "more" {
        option stop { break }
        option take {
          choose c from open
          set v += 1
        }
      }
    }""",
    "a requirement": """
    require not empty(hand[0])
    choose c from hand[0]""",
    "a variable the list does not read": """
    choose prompt "b" {
      option a when not empty(odd(0)) {
        set v = 1
        choose c from odd(0)
      }
      option b otherwise { }
    }""",
    "a while condition": """
    while not empty(hand[0]) {
      choose c from hand[0]
      move 1 of [c] to discard
    }""",
    "the players but one": """
    choose q from [q for q in players if q != 0]""",
    "a local kept by a move": """
    let mine = hand[0] where .n > 0
    if not empty(mine) {
      move all of mine to discard
      choose c from mine
    }""",
}


@pytest.mark.parametrize("body", SURE.values(), ids=SURE.keys())
def test_a_choice_from_a_list_known_to_have_an_item_is_no_dead_end(body: str) -> None:
    assert _sure(body)
    # With no other dead end after it, the turn's first decision needs no look-ahead.
    assert _may_fail_after_first(body) == ("require" in body)
    for seed in range(4):
        game = _rules(body).new_game(seed=seed)
        assert [m.label for m in game.legal_moves()] == ["1", "2"]
        while not game.is_over:
            game.play(game.legal_moves()[seed % len(game.legal_moves())])


UNSURE = {
    "a move out of the zone": """
    if not empty(hand[0]) {
      move 1 of hand[0] to discard
      choose c from hand[0]
    }""",
    "a variable the list reads": """
    if not empty(odd_at(0)) {
      set v = 1
      choose c from odd_at(0)
    }""",
    "a local set again": """
    let q = 0
    if not empty(hand[q]) {
      set q = 1
      choose c from hand[q]
    }""",
    "a procedure called between": """
    if not empty(hand[0]) {
      tidy()
      choose c from hand[0]
    }""",
    "one path of two": """
    if first == 1 {
      if empty(deck) {
        return
      }
    }
    choose c from deck""",
    "a loop that empties the zone": """
    if empty(deck) {
      return
    }
    loop {
      choose c from deck
      move 1 of deck to discard
      if v == 0 {
        break
      }
    }""",
    "moved pieces from a list": """
    if not empty(deck) {
      move all of [first(deck)] to discard
      choose c from deck
    }""",
    "a zone picked by what a move changes": """
    if not empty(hand[first(deck).n % 2]) {
      move all of discard to top of deck
      choose c from hand[first(deck).n % 2]
    }""",
    "a destination picked by what the move changes": """
    if not empty(deck) {
      move 1 of deck to hand[first(deck).n % 2]
      choose c from hand[first(deck).n % 2]
    }""",
    "a filtered zone": """
    if not empty(deck) {
      move 1 of deck where .n > 9 to hand[1]
      choose c from hand[1]
    }""",
}


@pytest.mark.parametrize("body", UNSURE.values(), ids=UNSURE.keys())
def test_a_statement_that_may_empty_the_list_leaves_the_choice_to_the_look_ahead(body: str) -> None:
    assert not _sure(body)
    assert _may_fail_after_first(body)


def test_the_players_but_one_may_be_none_where_one_player_plays() -> None:
    body = SURE["the players but one"]
    assert not _sure(body, players="1..3")
    assert _sure(body, players="2..3")


ONE_PIECE = """
component Card { name: str, word: str }
zone deck: pile, public
setup { create 1 Card(name: "x", word: "") into deck }
play {
  turn 0 {
    choose k from [1, 2]
    if k == 1 {
      let card = first(deck)
      if not empty(GUARD) {
        choose c from card.word
      }
    }
  }
  end game "done"
}"""

# Rule texts where a name does not mean what it seems: a local hides a zone, a rule function
# is named like a built-in, or one piece's attribute stands beside another.
MISLEADING = {
    "a parameter hides a zone": """
component Card { n: int }
zone deck: pile, public
zone out: pile, public
setup { create 2 Card(n: 1) into out }
proc draw(deck) {
  if not empty(out) {
    move 1 of out to deck
    choose c from deck
  }
}
play {
  turn 0 {
    choose k from [1, 2]
    if k == 1 { draw([]) }
  }
  end game "done"
}""",
    "a parameter names the zone it empties": """
component Card { n: int }
zone deck: pile, public
zone out: pile, public
zone discard: pile, public
setup { create 2 Card(n: 1) into out }
proc toss(deck) {
  if not empty(out) {
    move all of deck to discard
    choose c from out
  }
}
play {
  turn 0 {
    choose k from [1, 2]
    if k == 1 { toss(out) }
  }
  end game "done"
}""",
    "a choice hides a zone on one path": """
component Card { n: int }
zone deck: pile, public
play {
  turn 0 {
    choose k from [1, 2]
    loop {
      if k == 1 {
        choose deck from [[1, 2]]
        if empty(deck) { break }
      } elif empty(deck) {
        break
      }
      choose c from deck
      break
    }
  }
  end game "done"
}""",
    # A fact about one piece, or about one of its attributes, says nothing of another attribute.
    "another attribute of one piece": ONE_PIECE.replace("GUARD", "card.name"),
    "an attribute of the piece itself": ONE_PIECE.replace("GUARD", "card"),
    "a choice hides an enum member in an earlier turn": """
enum Suit { red, blue }
component Card { suit: Suit }
zone pile[Suit]: pile, public
setup { create 1 Card(suit: blue) into pile[blue] }
play {
  turn 0 {
    choose red from [blue]
    require not empty(pile[red])
  }
  turn 0 {
    choose k from [1, 2]
    if k == 1 { choose c from pile[red] }
  }
  end game "done"
}""",
    "a local hides a constant on both paths": """
enum Suit { red, blue }
component Card { suit: Suit }
zone pile[Suit]: pile, public
const mine = red
setup { create 1 Card(suit: blue) into pile[blue] }
play {
  turn 0 {
    choose j from [1, 2]
    if j == 1 {
      let mine = blue
      require not empty(pile[mine])
    } else {
      let mine = blue
      require not empty(pile[mine])
    }
  }
  turn 0 {
    choose k from [1, 2]
    if k == 1 { choose c from pile[mine] }
  }
  end game "done"
}""",
    "a local hides an option": """
component Card { n: int }
zone out: pile, public
option src = []
setup { create 1 Card(n: 1) into out }
play {
  turn 0 {
    choose {
      option a {
        let src = out
        require not empty(src)
      }
    }
  }
  turn 0 {
    choose k from [1, 2]
    if k == 1 { choose c from src }
  }
  end game "done"
}""",
    "a rule function named empty": """
component Card { n: int }
zone deck: pile, public
func empty(xs) = false
play {
  turn 0 {
    choose k from [1, 2]
    if k == 1 {
      if not empty(deck) { choose c from deck }
    }
  }
  end game "done"
}""",
    "a rule function named sorted": """
component Card { n: int }
zone deck: pile, public
func sorted(xs) = xs where .n > 5
setup { create 1 Card(n: 1) into deck }
play {
  turn 0 {
    choose k from [1, 2]
    if k == 1 {
      if not empty(deck) { choose c from sorted(deck) }
    }
  }
  end game "done"
}""",
}


@pytest.mark.parametrize("text", MISLEADING.values(), ids=MISLEADING.keys())
def test_names_that_are_not_what_they_seem_prove_nothing(text: str) -> None:
    rules = boardkit.parse_ruleset(f'game "Names"\nplayers 2\n{text}\nscore p = 0\n', filename="names.bk")
    chosen = [ins for proc in rules.program.game.procs.values() for ins in proc.code
              if type(ins).__name__ == "Choose" and ins.var == "c"]
    assert chosen
    assert not any(ins.total for ins in chosen)
    # Without a wrong certainty, the look-ahead keeps every dead end out of the offered moves.
    for seed in range(12):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.play(rng.choice(game.legal_moves()))


def test_checking_a_long_procedure_full_of_facts_stays_linear(monkeypatch: pytest.MonkeyPatch) -> None:
    """Facts are kept once each, and at most a few dozen: a long procedure checks in steps, not in powers."""
    lines = [f"    require not empty(deck where .n != {i})" for i in range(300)]
    lines += ["    if first == 1 { set v = 1 }"] * 300
    compared = []
    same = nonempty._same

    def counted(a: object, b: object) -> bool:
        compared.append(1)
        assert len(compared) < 500_000, "facts compared without end"
        return same(a, b)

    monkeypatch.setattr(nonempty, "_same", counted)
    assert _sure(f"{chr(10).join(lines)}\n    choose c from deck where .n != 290")


def test_what_a_fact_reads_is_worked_out_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fact is asked what it reads at every statement that changes something, in every loop around it."""
    facts = [f"    require not empty(deck where .n != {i})" for i in range(32)]
    nested = "    loop {\n" * 10 + "      set v = 1\n" * 100 + "      break\n" + "    }\n" * 10
    walked = []
    walk = nonempty.Flow._walk_names

    def counted(self: nonempty.Flow, node: object) -> set[str]:
        walked.append(node)
        return walk(self, node)  # type: ignore[arg-type]

    monkeypatch.setattr(nonempty.Flow, "_walk_names", counted)
    _rules("\n".join(facts) + "\n" + nested)
    assert len(walked) <= len({id(n) for n in walked}) <= 200
