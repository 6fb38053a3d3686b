"""The general vocabulary Chakra brought into the language, tested on small rule files of its
own: knowledge of hidden pieces (`peek`, `reveal`, views, positions, saved games), enums
sharing members, and the list and track built-ins (`path`, `nth`, `remove`, `subsets`)."""

from __future__ import annotations

import json

import pytest

import boardkit
from boardkit.errors import RuleRuntimeError

TILES = """
game "Tiles"
players 2..3

enum Slot { a, b, c }
component Tile { value: int } label .value

zone pool: pile, hidden
zone face_down[Slot]: pile, hidden
zone screen[Player]: pile, owner
zone table: pile, public

setup {
  create 1 Tile(value: v) for v in range(1, 5) into pool
  for s in Slot {
    move 1 of pool to face_down[s]
  }
}

play {
  let p = 0
  loop {
    turn p {
      choose prompt "action" {
        option look {
          choose s from Slot prompt "tile to look at"
          peek face_down[s] by p
        }
        option hide {
          choose s from [s for s in Slot if not empty(face_down[s])] prompt "tile to hide"
          move all of face_down[s] to screen[p]
        }
        option show {
          choose s from [s for s in Slot if not empty(face_down[s])] prompt "tile to show"
          move all of face_down[s] to table
        }
        option back {
          require not empty(table) "nothing on the table"
          move all of table to face_down[a]
        }
        option tell {
          reveal pool
        }
        option stop {
          end game "stopped"
        }
      }
    }
    set p = next(p)
  }
}
"""


@pytest.fixture(scope="module")
def rules() -> boardkit.Ruleset:
    return boardkit.parse_ruleset(TILES, filename="tiles.bk")


def known(game: boardkit.Game, player: int, zone: str) -> list[int]:
    return [t["value"] for t in game.view(player)["zones"][zone].get("known", [])]


def test_peek_is_known_to_that_player_only(rules: boardkit.Ruleset) -> None:
    game = rules.new_game(players=3, seed=1)
    value = game.zone("face_down", "b")[0]["value"]
    assert game.view(0)["zones"]["face_down[b]"] == {"count": 1}
    game.play("look")
    game.play("b")
    assert game.view(0)["zones"]["face_down[b]"] == {"count": 1, "known": [
        {"type": "Tile", "label": str(value), "value": value}]}
    assert game.view(1)["zones"]["face_down[b]"] == {"count": 1}
    assert game.view(2)["zones"]["face_down[b]"] == {"count": 1}
    peeked = [e for e in game.events if type(e).__name__ == "Peeked"]
    assert [(e.player, len(e.pieces)) for e in peeked] == [(0, 1)]


def test_reveal_is_known_to_everyone(rules: boardkit.Ruleset) -> None:
    game = rules.new_game(players=2, seed=1)
    game.play("tell")
    in_pool = [t["value"] for t in game.zone("pool")]
    assert len(in_pool) == 2
    assert known(game, 0, "pool") == known(game, 1, "pool") == in_pool


def test_knowledge_follows_a_piece_between_unseen_zones(rules: boardkit.Ruleset) -> None:
    game = rules.new_game(players=2, seed=1)
    value = game.zone("face_down", "a")[0]["value"]
    for label in ("look", "a", "look", "c"):  # 0 looks at a, 1 looks at c
        game.play(label)
    for label in ("hide", "a"):  # 0 hides a behind the screen: still only 0 knows it
        game.play(label)
    assert game.view(0)["zones"]["screen[0]"] == [{"type": "Tile", "label": str(value), "value": value}]
    assert game.view(1)["zones"]["screen[0]"] == {"count": 1}
    assert known(game, 1, "face_down[c]") == [game.zone("face_down", "c")[0]["value"]]


def test_a_public_zone_ends_knowledge(rules: boardkit.Ruleset) -> None:
    game = rules.new_game(players=2, seed=1)
    for label in ("look", "b", "look", "c", "show", "b"):  # 0 looks at b and shows it
        game.play(label)
    game.play("back")  # 1 puts it face down again: nobody knows it any more
    assert game.view(0)["zones"]["face_down[a]"]["count"] == 2
    assert known(game, 0, "face_down[a]") == []
    assert known(game, 1, "face_down[c]") != []


def test_undo_and_illegal_moves_keep_knowledge_consistent(rules: boardkit.Ruleset) -> None:
    game = rules.new_game(players=2, seed=1)
    game.play("look")
    before = game.view(0)
    game.play("b")
    assert known(game, 0, "face_down[b]")
    with pytest.raises(boardkit.IllegalMove):
        game.play("nonsense")
    assert known(game, 0, "face_down[b]")
    game.undo()
    assert game.view(0) == before
    assert known(game, 0, "face_down[b]") == []


def test_saved_games_keep_knowledge(rules: boardkit.Ruleset) -> None:
    game = rules.new_game(players=3, seed=1)
    for label in ("look", "a", "look", "b", "tell"):
        game.play(label)
    text = game.to_json()
    loaded = rules.load_game(text)
    assert [loaded.view(p) for p in range(3)] == [game.view(p) for p in range(3)]
    doc = json.loads(text)
    pool = game.zones()["pool"]
    assert len(doc["known"]) == 3 and all(len(ids) == 1 + len(pool) for ids in doc["known"][:2])
    for bad in ([[0], [0], [0], [0]], [[999]], [[-1]]):
        broken = dict(doc, known=bad)
        with pytest.raises(boardkit.StateError):
            rules.load_game(json.dumps(broken))


def test_a_position_says_who_knows_what(rules: boardkit.Ruleset) -> None:
    position = {"zones": {"face_down[a]": ["2"]}, "rest": "pool", "known": {"1": ["face_down[a]"]}}
    game = rules.new_game(players=2, seed=1, position=position)
    assert known(game, 1, "face_down[a]") == [2]
    assert known(game, 0, "face_down[a]") == []
    for bad in ({"5": ["pool"]}, {"0": ["deck"]}, ["pool"]):
        with pytest.raises(boardkit.StateError):
            rules.new_game(players=2, seed=1, position={"known": bad})


@pytest.mark.parametrize(("statement", "message"), [
    ('peek pool by 7', "peek needs a player"),
    ('peek 3 by 0', "peek needs pieces"),
    ('reveal "tiles"', "reveal needs pieces"),
])
def test_bad_peek_and_reveal_are_located_errors(statement: str, message: str) -> None:
    text = TILES.replace('        option tell {\n          reveal pool', f'        option tell {{\n          {statement}')
    game = boardkit.parse_ruleset(text, filename="bad.bk").new_game(players=2, seed=1)
    with pytest.raises(RuleRuntimeError, match=message) as err:
        game.play("tell")
    assert err.value.span is not None and err.value.span.filename == "bad.bk"


ENUMS = """
game "Enums"
players 2
enum Colour { red, orange, yellow, black }
enum Warm { red, orange, yellow }
zone space[Warm]: pile, public
var out = []
play {
  set out = [position(Colour, c) for c in Warm] + [size(Colour)]
  end game "done"
}
"""


def test_an_enum_may_list_members_of_another() -> None:
    game = boardkit.parse_ruleset(ENUMS).new_game(players=2, seed=0)
    assert game.var("out") == [1, 2, 3, 4]
    assert set(game.zones()) == {"space[red]", "space[orange]", "space[yellow]"}


def test_a_member_listed_twice_in_one_enum_is_an_error() -> None:
    with pytest.raises(boardkit.RuleError, match="'red' is listed twice in enum 'Warm'"):
        boardkit.parse_ruleset(ENUMS.replace("enum Warm { red, orange, yellow }", "enum Warm { red, orange, red }"))


LISTS = """
game "Lists"
players 2
enum Level { ground, l1, l2, l3, l4, top }
var out = []
play {
  set out = [path(Level, ground, 3, [l2]), path(Level, l3, -5, []), path(Level, top, 2, []),
             nth([10, 20, 30], 3), remove([[1], [1], [2]], [1]), subsets([1, 2, 3], 2, 3),
             subsets([1, 2], 0, 1)]
  end game "done"
}
"""


def test_list_and_track_builtins() -> None:
    game = boardkit.parse_ruleset(LISTS).new_game(players=2, seed=0)
    assert game.var("out") == [["l1", "l3", "l4"], ["l2", "l1", "ground"], [], 30, [[1], [2]],
                               [[1, 2], [1, 3], [2, 3], [1, 2, 3]], [[], [1], [2]]]


@pytest.mark.parametrize(("expr", "message"), [("nth([1], 2)", "outside a list"), ("remove([1], 2)", "remove"),
                                               ("path(Level, nowhere, 1, [])", "not in list")])
def test_list_builtins_fail_with_a_location(expr: str, message: str) -> None:
    text = LISTS.replace("set out = [", f"set out = [{expr}, ").replace("enum Level {", "enum Other { nowhere }\nenum Level {")
    with pytest.raises(RuleRuntimeError, match=message) as err:
        boardkit.parse_ruleset(text, filename="lists.bk").new_game(players=2, seed=0)
    assert err.value.span is not None


def test_moving_into_a_public_zone_forgets_exactly_the_pieces_there() -> None:
    """What `move` forgets of the pieces now in a public zone, whichever of the zone or the
    known pieces it walks, is what a walk of every known piece forgets."""
    import random

    from boardkit.runtime.pieces import Piece
    from boardkit.runtime.state import _forget_in

    rng = random.Random(5)
    pieces = [Piece(i, "Tile", {}, str(i)) for i in range(40)]
    for _ in range(300):
        loc = [rng.randrange(4) for _ in pieces]
        dest = rng.randrange(4)
        here = [p for p in pieces if loc[p.id] == dest]
        chosen = rng.sample(here, rng.randrange(len(here) + 1))
        staying = [p for p in here if p not in chosen]
        known = {p.id: rng.randrange(1, 8) for p in rng.sample(pieces, rng.randrange(1, 40))}
        expected = {i: m for i, m in known.items() if loc[i] != dest}
        kept = _forget_in(known, loc, dest, staying, chosen)
        assert kept == expected
        assert list(kept) == list(expected)  # the order of what is kept, too
