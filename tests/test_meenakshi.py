"""Meenakshi Temple: the worked examples and rule scenarios of shared/rules/examples.md §4,
the setup by player count, every board property and the end of the game, each played
through the public API from a position.

A position here is a normal deal (`dotted` sides, so no side choice) with some pieces moved:
`arrange` moves pieces between copies of the zone lists and hands every touched zone to
`new_game(position=...)`, so no piece is created or lost. Card data are the proposed tables
of rulesets/meenakshi.bk; the scenarios name the cards they use (A10 is the worked example's
floor W W W Y R B; C24's action side has the rows these tests need).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable

import pytest

import boardkit

RULES = boardkit.load_ruleset("meenakshi")
CONSTS = RULES.constants
PATRONS = ["red", "green", "blue", "yellow", "purple"]
# C24, action side: x1 roof red +1vp, x2 upgrade green, x3 shiva blue,
# x4 construction yellow +2 yellow, x5 gifts purple +3vp (2-player spots).
C24 = "C24"

Move = tuple  # (label, destination zone[, source zone[, "top"]])


def labels(zone: list[dict]) -> list[str]:
    return [p["label"] for p in zone]


def zone_of(zones: dict[str, list[str]], label: str) -> str:
    return next(k for k, v in zones.items() if label in v)


def arrange(players: int = 2, seed: int = 1, moves: list[Move] | Callable[[boardkit.Game], list[Move]] = (),
            vars: dict[str, Any] | None = None, options: dict[str, Any] | None = None,
            face: str | None = None, first: int | None = None) -> boardkit.Game:
    """Deals a game, then moves pieces (by label) and sets variables before play starts.

    `face` puts that construction card face up on the right stack (the one used in round 1),
    swapping it with the card there; `first` moves that player's (first) pawn to the highest
    spot, swapping pawns.
    """
    opts = {"dotted": True, **(options or {})}
    base = RULES.new_game(players=players, seed=seed, options=opts)
    zones = {k: labels(v) for k, v in base.zones().items()}
    plan: list[Move] = []
    if face is not None:
        old = zones["face[right]"][0]
        if old != face:
            home = zone_of(zones, face)
            assert not home.startswith("face"), "the card is face up on the other side"
            plan += [(face, "face[right]", home), (old, home, "face[right]")]
    if first is not None and players == 2:
        # Rows 1-4: the first player, the other player twice, the first player (MK-04).
        other = 1 - first
        plan += [(pw, f"spot[left,x{i}]") for i, pw in enumerate([f"pawn{first}", f"pawn{other}", f"pawn{other}b",
                                                                     f"pawn{first}b"], 1)]
    elif first is not None:
        top = next(k for k in (f"spot[left,x{i}]" for i in range(1, 10)) if zones.get(k))
        mine = zone_of(zones, f"pawn{first}")
        if top != mine:
            other = zones[top][0]
            plan += [(f"pawn{first}", top, mine), (other, mine, top)]
    plan += list(moves(base) if callable(moves) else moves)
    touched: set[str] = set()
    for move in plan:
        label, dest = move[0], move[1]
        src = move[2] if len(move) > 2 and move[2] else zone_of(zones, label)
        zones[src].remove(label)
        if len(move) > 3 and move[3] == "top":
            zones[dest].insert(0, label)
        else:
            zones[dest].append(label)
        touched |= {src, dest}
    position = {"zones": {k: zones[k] for k in sorted(touched)}, "vars": vars or {}}
    return RULES.new_game(players=players, seed=seed, options=opts, position=position)


def legal(game: boardkit.Game) -> list[str]:
    return [m.label for m in game.legal_moves()]


def play(game: boardkit.Game, *moves: str) -> None:
    for label in moves:
        offered = legal(game)
        assert label in offered, f"{label!r} is not offered at {game.prompt!r}: {offered}"
        game.play(label)


def spot(game: boardkit.Game, what: str) -> str:
    """The free spot whose label starts with `what` after the spot name ("roof", "construction
    yellow", "any action")."""
    assert game.prompt == "spot for your pawn", game.prompt
    found = [m for m in legal(game) if m.split(" ", 1)[1].startswith(what)]
    assert found, f"no free spot for {what!r}: {legal(game)}"
    return found[0]


QUIET = ["done", "stop", "keep", "storehouse", "main"]


def finish(game: boardkit.Game, cap: int = 5000) -> None:
    """Plays on with moves that leave floors, hands and gifts alone, until the game ends."""
    for _ in range(cap):
        if game.is_over:
            return
        offered = legal(game)
        if game.prompt == "spot for your pawn":
            calm = [m for m in offered if m.split(" ", 2)[1] in ("shiva", "construction", "any")]
            game.play((calm or offered)[0])
        elif game.prompt == "main action of the bottom row":
            game.play("shiva" if "shiva" in offered else offered[0])
        else:
            game.play(next((q for q in QUIET if q in offered), offered[0]))
    pytest.fail("the game did not end")


def storehouse(game: boardkit.Game, p: int) -> Counter:
    return Counter(s["colour"] for s in game.zone("storehouse", p))


def capacity(game: boardkit.Game, p: int) -> int:
    deity = game.zone("board", p)[0]["deity"]
    row = next(b for b in CONSTS["BOARDS"] if b[0] == deity)
    base = row[4] if game.var("side", p) == "dot" else row[6]
    return base + 2 * len(game.zone("store_cards", p))


def with_board(deity: str, p: int = 0) -> Callable[[boardkit.Game], list[Move]]:
    """Moves that give player p the board of `deity` (from another player or the box)."""
    def moves(base: boardkit.Game) -> list[Move]:
        zones = {k: labels(v) for k, v in base.zones().items()}
        mine = zones[f"board[{p}]"][0]
        if mine == deity:
            return []
        home = zone_of(zones, deity)
        return [(deity, f"board[{p}]", home), (mine, home, f"board[{p}]")]
    return moves


def moves_of(*parts: Any) -> Callable[[boardkit.Game], list[Move]]:
    """Chains fixed move lists and move functions."""
    def moves(base: boardkit.Game) -> list[Move]:
        out: list[Move] = []
        for part in parts:
            out += part(base) if callable(part) else list(part)
        return out
    return moves


def goal_moves(kind: str, p: int = 0) -> Callable[[boardkit.Game], list[Move]]:
    def moves(base: boardkit.Game) -> list[Move]:
        zones = {k: labels(v) for k, v in base.zones().items()}
        mine = zones[f"goal[{p}]"]
        if mine == [kind]:
            return []
        home = zone_of(zones, kind)
        return [(kind, f"goal[{p}]", home), *[(g, home, f"goal[{p}]") for g in mine]]
    return moves


# Setup ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("players", "market", "devs", "statues"),
                         [(2, 6, 16, 82), (3, 6, 22, 115), (4, 8, 28, 115), (5, 10, 28, 115)])
def test_setup_by_player_count(players: int, market: int, devs: int, statues: int) -> None:
    game = RULES.new_game(players=players, seed=3)
    zones = game.zones()
    assert sum(len(zones[f"market[{x}]"]) for x in "ABCDE") == market
    # Each market stack holds one letter [L72].
    assert all({c["letter"] for c in zones[f"market[{x}]"]} <= {x} for x in "ABCDE")
    left, right = len(zones["action_deck[left]"]) + 1, len(zones["action_deck[right]"]) + 1
    assert left + right == 50 - market and abs(left - right) <= 1
    assert len(zones["dev_deck"]) + len(zones["dev_market"]) == devs
    assert len(zones["dev_market"]) == 3
    # Level I on top of level II [L78].
    levels = [d["level"] for d in zones["dev_market"] + zones["dev_deck"]]
    assert levels == sorted(levels)
    in_play = sum(len(v) for k, v in zones.items() if k.startswith(("supply", "storehouse")))
    assert in_play == statues
    assert len(zones["token_pool"]) == 6
    deities = [zones[f"board[{p}]"][0]["deity"] for p in range(players)]
    assert len(set(deities)) == players
    for p in range(players):
        assert [c["label"] for c in zones[f"tower[{p}]"]] == [f"foundation-{deities[p]}"]
        assert len(zones[f"goal[{p}]"]) == 1
    pawns = [pw for k, v in zones.items() if k.startswith("spot[left") for pw in v]
    assert len(pawns) == (4 if players == 2 else players)


def test_two_players_leave_out_skanda_and_the_3plus_cards() -> None:
    for seed in range(12):
        zones = RULES.new_game(players=2, seed=seed).zones()
        assert "skanda" not in {zones[f"board[{p}]"][0]["deity"] for p in (0, 1)}
        assert all(zones[f"goal[{p}]"][0]["kind"] not in ("shiva_floor", "three_pairs") for p in (0, 1))
        assert all(d["mark"] == 0 for d in zones["dev_deck"] + zones["dev_market"])
        supply = Counter(s["colour"] for k, v in zones.items() if k.startswith("supply") for s in v)
        assert supply == Counter({"white": 12, **{c: 14 for c in PATRONS}})


def test_three_players_keep_3plus_but_not_4plus_development_cards() -> None:
    zones = RULES.new_game(players=3, seed=0).zones()
    marks = Counter(d["mark"] for d in zones["dev_deck"] + zones["dev_market"])
    assert marks == Counter({0: 16, 3: 6})


def test_first_game_options() -> None:
    game = RULES.new_game(players=4, seed=2, options={"objectives": False, "dotted": True})
    assert all(game.zone("goal", p) == [] for p in range(4))
    assert {t["side"] for t in game.zone("token_pool")} == {"dot"}
    assert game.prompt == "spot for your pawn"
    # Without `dotted`, each player picks a side, knowing their objective [L94].
    game = RULES.new_game(players=3, seed=2)
    assert game.prompt == "side of your board"
    play(game, "plain", "dot", "plain")
    assert [game.var("side", p) for p in range(3)] == ["plain", "dot", "plain"]


def test_gift_sides_are_random_without_the_first_game_option() -> None:
    sides = {t["side"] for seed in range(6) for t in RULES.new_game(players=2, seed=seed).zone("token_pool")}
    assert sides == {"dot", "plain"}


def test_objectives_are_hidden_from_other_players() -> None:
    game = RULES.new_game(players=3, seed=4)
    for p in range(3):
        view = game.view(p)
        for q in range(3):
            seen = view["zones"][f"goal[{q}]"]
            assert (seen == game.zone("goal", q)) if p == q else (seen == {"count": 1})
        assert "objective" not in str(view["vars"])


# MK-EX-6 and MK-EX-7: turn order and compensation ---------------------------------------

@pytest.mark.parametrize(("players", "received"), [(3, [0, 1, 2]), (4, [0, 1, 1, 2]), (5, [0, 1, 1, 2, 2])])
def test_mk_ex_6_compensation(players: int, received: list[int]) -> None:
    for seed in range(3):
        game = RULES.new_game(players=players, seed=seed)
        seats = [pw["who"] for i in range(1, 10) for pw in game.zone("spot", "left", f"x{i}")]
        assert len(seats) == players
        for q, n in zip(seats, received):
            colour = next(b[1] for b in CONSTS["BOARDS"] if b[0] == game.zone("board", q)[0]["deity"])
            assert storehouse(game, q) == Counter({colour: n} if n else {})
        supply = sum(len(v) for k, v in game.zones().items() if k.startswith("supply"))
        assert supply == 115 - sum(received)


def test_mk_ex_6_pawns_start_opposite_their_colour() -> None:
    game = RULES.new_game(players=5, seed=7)
    card = game.zone("face", "left")[0]
    rows = CONSTS["CONSTRUCTION"][card["id"] - 1][4]
    spot_rows = CONSTS["SPOT_ROWS"][4]
    for i in range(1, 10):
        for pw in game.zone("spot", "left", f"x{i}"):
            colour = next(b[1] for b in CONSTS["BOARDS"] if b[0] == game.zone("board", pw["who"])[0]["deity"])
            assert rows[spot_rows[i - 1] - 1][1] == colour


def test_mk_ex_7_two_player_first_round() -> None:
    for seed in range(4):
        game = RULES.new_game(players=2, seed=seed, options={"dotted": True})
        a = game.var("starter")
        b = 1 - a
        assert [game.zone("spot", "left", f"x{i}")[0]["who"] for i in range(1, 5)] == [a, b, b, a]
        assert all(game.zone("storehouse", p) == [] for p in (0, 1))
        order = []
        while game.var("round") == 1:
            if game.prompt == "spot for your pawn":
                order.append(game.to_move)
            offered = legal(game)
            game.play(next((q for q in QUIET if q in offered), offered[0]))
        assert order == [a, b, b, a]


# MK-EX-1: construction ------------------------------------------------------------------

BUILD = [("green", "s1"), ("white", "s2"), ("yellow", "s4"), ("red", "s5"), ("blue", "s6")]


def construction_game(s3: str | None, rules: boardkit.Ruleset = RULES) -> boardkit.Game:
    moves: list[Move] = [("A10", "tower[0]", None, "top"), *[(c, "storehouse[0]") for c, _ in BUILD]]
    if s3 is not None:
        moves.append((s3, "here[0,s3]"))
    base_rules = RULES
    game = arrange(moves=moves, first=0)
    if rules is base_rules:
        return game
    return rules.load_game(game.to_json().replace(f'"fingerprint":"{_fp(RULES)}"', f'"fingerprint":"{_fp(rules)}"')
                           .replace('"ruleset":"meenakshi"', f'"ruleset":"{rules.name}"'))


def _fp(rules: boardkit.Ruleset) -> str:
    from boardkit.io.serialize import fingerprint

    return fingerprint(rules)


def build_all(game: boardkit.Game) -> list[int]:
    play(game, spot(game, "construction"), "main")
    scores = []
    for colour, slot in BUILD:
        play(game, "place", colour, slot)
        scores.append(game.var("vp", 0))
    return scores


def test_mk_ex_1_five_statues_give_12_points() -> None:
    game = construction_game("purple")
    # G on a white slot 1; W 2 and the white scene {G, W, P} +3 at once; Y, R, B 2 each.
    assert build_all(game) == [1, 6, 8, 10, 12]
    assert game.zone("storehouse", 0) == []
    assert game.prompt == "next action"


def test_mk_ex_1_a_scene_with_a_repeated_colour_scores_nothing() -> None:
    assert build_all(construction_game("green"))[-1] == 9


def test_mk_ex_1_reading_r2_through_replaced_card_data(tmp_path: Any) -> None:
    # The same card with its scene on slots 1, 4 and 5 (reading R2): a variant replaces the
    # data table only.
    variant = tmp_path / "meenakshi_r2.bk"
    variant.write_text(
        'extends "meenakshi"\n'
        "const FLOOR_LAYOUTS = [if i == 10 then [[white, white, white, yellow, red, blue], [1, 4, 5], [[1, 4, 5]]]\n"
        "                      else [nth(nth(CONSTRUCTION, i), 2), nth(nth(CONSTRUCTION, i), 3), nth(nth(CONSTRUCTION, i), 4)]\n"
        "                      for i in range(1, size(CONSTRUCTION))]\n"
        "                      + [[nth(f, 2), nth(f, 3), nth(f, 4)] for f in FOUNDATIONS]\n", encoding="utf-8")
    rules = boardkit.load_ruleset(str(variant))
    assert build_all(construction_game(None, rules))[-1] == 12


# MK-EX-3, MK-EX-4, MK-T1: bonuses, order, capacity ---------------------------------------

def test_mk_ex_3_bonus_statues_and_points() -> None:
    game = arrange(face=C24, first=0)
    before = len(game.zone("supply", "yellow"))
    play(game, spot(game, "construction yellow +2 yellow"), "bonus")
    assert storehouse(game, 0) == Counter(yellow=2)
    assert len(game.zone("supply", "yellow")) == before - 2
    game = arrange(face=C24, first=0)
    play(game, spot(game, "gifts purple +3vp"), "bonus")
    assert game.var("vp", 0) == 3


def floor_c28(extra: list[Move] = ()) -> boardkit.Game:
    return arrange(face=C24, first=0, moves=[("C28", "tower[0]", None, "top"), ("red", "storehouse[0]"), *extra])


def test_mk_ex_4_bonus_first_then_build() -> None:
    game = floor_c28()
    play(game, spot(game, "construction yellow +2 yellow"), "bonus", "main")
    for colour, slot in [("red", "s4"), ("yellow", "s1"), ("yellow", "s2")]:
        play(game, "place", colour, slot)
    assert game.var("vp", 0) == 6


def test_mk_ex_4_build_first_then_bonus() -> None:
    game = floor_c28()
    play(game, spot(game, "construction yellow +2 yellow"), "main", "place", "red", "s4")
    assert game.var("vp", 0) == 2
    play(game, "bonus")
    assert storehouse(game, 0) == Counter(yellow=2)


def test_mk_t1_storehouse_capacity() -> None:
    def fill(base: boardkit.Game) -> list[Move]:
        dev = labels(base.zone("dev_deck"))[0]
        room = capacity(base, 0) + 2
        return [(dev, "store_cards[0]"), *[("blue", "storehouse[0]")] * (room - 1)]

    game = arrange(face=C24, first=0, moves=fill)
    cap = capacity(game, 0)
    assert len(game.zone("storehouse", 0)) == cap - 1
    before = len(game.zone("supply", "yellow"))
    play(game, spot(game, "construction yellow +2 yellow"), "bonus")
    assert storehouse(game, 0)["yellow"] == 1 and len(game.zone("storehouse", 0)) == cap
    assert len(game.zone("supply", "yellow")) == before - 1


def test_mk_t1_variant_b_the_player_chooses_which_statue_to_keep() -> None:
    # Room for one statue; the row's bonus (2 yellow) and a development card (dev7: on
    # Construction, a patron statue of choice) are both due. The order of the two actions is
    # the player's choice of which statue to keep.
    def fill(base: boardkit.Game) -> list[Move]:
        return [("dev7", "dev[0,d1]"), *[("blue", "storehouse[0]")] * (capacity(base, 0) - 1)]

    game = arrange(face=C24, first=0, moves=fill)
    play(game, spot(game, "construction yellow +2 yellow"), "bonus", "develop", "dev7")
    assert storehouse(game, 0)["yellow"] == 1 and game.prompt == "next action"
    game = arrange(face=C24, first=0, moves=fill)
    play(game, spot(game, "construction yellow +2 yellow"), "develop", "dev7", "red", "bonus")
    assert storehouse(game, 0)["red"] == 1 and storehouse(game, 0)["yellow"] == 0
    assert len(game.zone("storehouse", 0)) == capacity(game, 0)


def test_mk_t1_variant_a_shiva_with_a_full_storehouse() -> None:
    def fill(base: boardkit.Game) -> list[Move]:
        return [("blue", "storehouse[0]")] * capacity(base, 0)

    game = arrange(face=C24, first=0, moves=fill)
    whites = len(game.zone("supply", "white"))
    play(game, spot(game, "shiva"), "main", "done")
    assert len(game.zone("supply", "white")) == whites
    assert len(game.zone("storehouse", 0)) == capacity(game, 0)


# MK-T8: running out of statues -----------------------------------------------------------

def test_mk_t8_shiva_sold_out_gives_a_patron_statue() -> None:
    game = arrange(face=C24, first=0, moves=[("white", "box")] * 12)
    assert game.zone("supply", "white") == []
    play(game, spot(game, "shiva"), "main")
    assert game.prompt == "statue colour"
    assert sorted(legal(game)) == sorted(PATRONS)
    play(game, "purple")
    assert storehouse(game, 0) == Counter(purple=1)


def test_mk_t8_a_sold_out_colour_is_replaced_never_by_white() -> None:
    game = arrange(face=C24, first=0, moves=[("yellow", "box")] * 13)
    assert len(game.zone("supply", "yellow")) == 1
    play(game, spot(game, "construction yellow +2 yellow"), "bonus")
    assert game.prompt == "statue colour"
    assert "white" not in legal(game) and "yellow" not in legal(game)
    play(game, "green")
    assert storehouse(game, 0) == Counter(yellow=1, green=1)


# Gifts: MK-T3, MK-T5 and the majority rule ----------------------------------------------

def test_mk_t3_one_statue_is_not_enough() -> None:
    game = arrange(players=4, seed=1, face=C24, first=0, moves=[("white", "here[0,s1]")])
    play(game, spot(game, "gifts"), "main")
    assert game.prompt == "next action" and "gift" not in legal(game)
    assert len(game.zone("token_pool")) == 6


def test_mk_t5_taking_a_gift_from_another_player() -> None:
    floors = [("red", f"here[0,s{i}]") for i in (1, 2, 3)] + [("red", f"here[1,s{i}]") for i in (1, 2, 3)]
    game = arrange(players=4, seed=1, face=C24, first=0,
                   moves=[*floors, ("red", "here[2,s1]"), ("red-gift", "tokens[1]")])
    before = storehouse(game, 0)
    play(game, spot(game, "gifts"), "main", "gift")
    assert legal(game) == ["red-gift"]
    play(game, "red-gift")
    assert labels(game.zone("tokens", 0)) == ["red-gift"] and game.zone("tokens", 1) == []
    # The dot side of the red token: 2 red statues.
    assert storehouse(game, 0) - before == Counter(red=2)


def test_gifts_need_strictly_more_with_two_or_three_players() -> None:
    floors = [("red", f"here[0,s{i}]") for i in (1, 2, 3)] + [("red", f"here[1,s{i}]") for i in (1, 2, 3)]
    game = arrange(players=3, seed=1, face=C24, first=0, moves=floors)
    play(game, spot(game, "gifts"), "main")
    assert "gift" not in legal(game)
    game = arrange(players=3, seed=1, face=C24, first=0, moves=floors[:-1])
    play(game, spot(game, "gifts"), "main", "gift")
    assert legal(game) == ["red-gift"]


def test_gifts_are_refused_while_holding_a_token() -> None:
    game = arrange(face=C24, first=0, moves=[("blue-gift", "tokens[0]")])
    play(game, spot(game, "gifts"))
    # The main action cannot be performed: the player may end the turn at once.
    assert "main" not in legal(game) and "done" in legal(game)


def test_receiving_several_gifts_in_any_order_or_none() -> None:
    floors = [(c, f"here[0,s{i}]") for c, i in [("white", 1), ("white", 2), ("green", 3), ("green", 4)]]
    game = arrange(face=C24, first=0, moves=floors)
    play(game, spot(game, "gifts"), "main", "gift")
    assert sorted(legal(game)) == ["green-gift", "white-gift"]
    play(game, "green-gift", "gift", "white-gift")
    assert sorted(labels(game.zone("tokens", 0))) == ["green-gift", "white-gift"]
    assert game.var("vp", 0) == 6  # both dot sides give 3 points


# MK-T7: roofs ---------------------------------------------------------------------------

def roof_game(filled: list[str], hold: bool = True) -> boardkit.Game:
    moves: list[Move] = [("A10", "tower[0]", None, "top"), *[("red", f"here[0,{s}]") for s in filled]]
    if hold:
        moves.append(("red-gift", "tokens[0]"))
    return arrange(face=C24, first=0, moves=moves)


def test_mk_t7_no_roof_before_the_thick_slots_are_filled() -> None:
    game = roof_game(["s1", "s4"])
    hand = len(game.zone("hand", 0))
    play(game, spot(game, "roof"), "main")
    assert game.prompt == "roof card"
    play(game, legal(game)[0])
    assert len(game.zone("hand", 0)) == hand + 1
    assert game.prompt == "next action"  # no "install a roof card" decision


def test_mk_t7_installing_returns_the_gift_tokens() -> None:
    game = roof_game(["s1", "s4", "s5"])
    play(game, spot(game, "roof"), "main")
    play(game, legal(game)[0])
    assert game.prompt == "install a roof card"
    card = game.zone("hand", 0)[0]["label"]
    play(game, "install", card)
    assert labels(game.zone("tower", 0))[:2] == [card, "A10"]
    assert game.zone("tokens", 0) == [] and "red-gift" in labels(game.zone("token_pool"))
    assert len(game.zone("built", 0)) == 3
    assert all(game.zone("here", 0, f"s{i}") == [] for i in range(1, 7))
    assert game.var("floors", 0) == [[["white", "red"], ["white", None], ["white", None], ["yellow", "red"],
                                      ["red", "red"], ["blue", None]]]


def test_roof_from_the_bottom_of_the_current_stack_when_the_market_is_empty() -> None:
    def empty_market(base: boardkit.Game) -> list[Move]:
        return [(c, "box") for x in "ABCDE" for c in labels(base.zone("market", x))]

    game = arrange(first=0, moves=empty_market)
    bottom = labels(game.zone("action_deck", "right"))[-1]
    play(game, spot(game, "roof"), "main")
    assert game.prompt == "stack to take the bottom card of" and legal(game) == ["right"]
    play(game, "right")
    assert labels(game.zone("hand", 0)) == [bottom]


def test_roof_cards_in_hand_are_secret_unless_taken_from_the_market() -> None:
    game = arrange(face=C24, first=0)
    play(game, spot(game, "roof"), "main")
    card = legal(game)[0]
    play(game, card)
    assert game.view(1)["zones"]["hand[0]"] == {"count": 1, "known": game.zone("hand", 0)}

    def empty_market(base: boardkit.Game) -> list[Move]:
        return [(c, "box") for x in "ABCDE" for c in labels(base.zone("market", x))]

    game = arrange(first=0, moves=empty_market)
    play(game, spot(game, "roof"), "main", "right")
    assert game.view(1)["zones"]["hand[0]"] == {"count": 1}
    assert game.view(0)["zones"]["hand[0]"] == game.zone("hand", 0)


# Upgrading ------------------------------------------------------------------------------

def test_upgrade_storehouse_card_takes_the_leftmost_and_refills() -> None:
    game = arrange(face=C24, first=0)
    market = labels(game.zone("dev_market"))
    top = labels(game.zone("dev_deck"))[0]
    cap = capacity(game, 0)
    play(game, spot(game, "upgrade"), "main", "storehouse")
    assert labels(game.zone("store_cards", 0)) == market[:1]
    assert labels(game.zone("dev_market")) == [*market[1:], top]
    assert capacity(game, 0) == cap + 2


def test_upgrade_development_fills_free_slots_then_covers() -> None:
    def three_devs(base: boardkit.Game) -> list[Move]:
        deck = labels(base.zone("dev_deck"))
        return [(deck[i], f"dev[0,d{i + 1}]") for i in range(3)]

    game = arrange(face=C24, first=0, moves=three_devs)
    chosen = labels(game.zone("dev_market"))[1]
    play(game, spot(game, "upgrade"), "main", "develop", chosen)
    assert game.prompt == "development card to cover"
    play(game, "d2")
    assert labels(game.zone("dev", 0, "d2"))[0] == chosen and len(game.zone("dev", 0, "d2")) == 2


# Development cards ----------------------------------------------------------------------

def dev_game(dev: str, extra: list[Move] = ()) -> boardkit.Game:
    return arrange(face=C24, first=0, moves=[(dev, "dev[0,d1]"), *extra])


def test_development_card_on_its_colour() -> None:
    # dev1: a red action gains a red statue.
    game = dev_game("dev1")
    play(game, spot(game, "roof red"), "develop", "dev1")
    assert storehouse(game, 0) == Counter(red=1)
    assert "develop" not in legal(game)  # once per turn
    game = dev_game("dev1")
    play(game, spot(game, "upgrade green"))
    assert "develop" not in legal(game)


def test_development_card_on_its_action_and_any_row() -> None:
    # dev21: +3 points on a Construction row; dev15: a statue of the action colour on any row.
    game = dev_game("dev21", [("dev15", "dev[0,d2]")])
    play(game, spot(game, "construction"), "develop")
    assert sorted(legal(game)) == ["dev15", "dev21"]
    play(game, "dev21", "develop", "dev15")
    assert game.var("vp", 0) == 3 and storehouse(game, 0) == Counter(yellow=1)


def test_no_development_card_on_the_bottom_row() -> None:
    game = dev_game("dev15")
    play(game, spot(game, "any action"))
    assert "develop" not in legal(game) and "bonus" not in legal(game)
    play(game, "main")
    assert sorted(legal(game)) == sorted(["shiva", "construction", "gifts", "roof", "upgrade"])


def test_instead_development_card() -> None:
    # dev11: on a Shiva row, Construction may be performed instead.
    game = dev_game("dev11", [("red", "storehouse[0]")])
    play(game, spot(game, "shiva"), "instead")
    assert legal(game) == ["construction"]
    play(game, "construction", "place", "red", "s1")
    assert game.zone("here", 0, "s1")[0]["colour"] == "red"


def test_a_covered_development_card_stops_working() -> None:
    game = arrange(face=C24, first=0, moves=[("dev21", "dev[0,d1]"), ("dev1", "dev[0,d1]", None, "top")])
    play(game, spot(game, "construction"))
    assert "develop" not in legal(game)


# Board properties (both sides of all five boards) ---------------------------------------

def board_game(deity: str, side: str, extra: list[Move] = (), vp: int = 0, players: int = 2) -> boardkit.Game:
    return arrange(players=players, seed=1, face=C24, first=0, moves=moves_of(with_board(deity), extra),
                   vars={"side[0]": side, "vp[0]": vp})


def test_minakshi_dot_two_points_per_development_card() -> None:
    game = board_game("minakshi", "dot")
    play(game, spot(game, "upgrade"), "main", "develop")
    play(game, legal(game)[0])
    assert game.var("vp", 0) == 2
    game = board_game("minakshi", "dot")
    play(game, spot(game, "upgrade"), "main", "storehouse")
    assert game.var("vp", 0) == 0


def test_minakshi_plain_a_patron_statue_per_development_card() -> None:
    game = board_game("minakshi", "plain")
    play(game, spot(game, "upgrade"), "main", "develop")
    play(game, legal(game)[0])
    assert game.prompt == "statue colour" and "white" not in legal(game)
    play(game, "blue")
    assert storehouse(game, 0) == Counter(blue=1)


def test_kali_dot_pays_a_point_for_a_roof_card_on_purple() -> None:
    game = board_game("kali", "dot", vp=2)
    play(game, spot(game, "gifts purple"), "board")
    play(game, legal(game)[0])
    assert game.var("vp", 0) == 1 and len(game.zone("hand", 0)) == 1
    assert "board" not in legal(game)
    game = board_game("kali", "dot", vp=0)
    play(game, spot(game, "gifts purple"))
    assert "board" not in legal(game)  # no points, no purchase [L297]
    play(game, "bonus")
    assert "board" in legal(game)  # after the 3-point bonus it can be paid


def test_kali_plain_pays_a_point_to_install_a_roof() -> None:
    ready = [("A10", "tower[0]", None, "top"), *[("red", f"here[0,s{i}]") for i in (1, 4, 5)], ("B20", "hand[0]")]
    game = board_game("kali", "plain", ready, vp=1)
    play(game, spot(game, "gifts purple"), "board", "B20")
    assert game.var("vp", 0) == 0 and labels(game.zone("tower", 0))[0] == "B20"
    game = board_game("kali", "plain", ready[:-1], vp=1)
    play(game, spot(game, "gifts purple"))
    assert "board" not in legal(game)  # no roof card in hand


def test_ganesha_dot_two_statues_instead_keeping_the_bonus() -> None:
    game = board_game("ganesha", "dot")
    play(game, spot(game, "construction yellow"), "instead", "2 statues", "bonus")
    assert storehouse(game, 0) == Counter(yellow=4)
    assert "main" not in legal(game)
    game = board_game("ganesha", "dot")
    play(game, spot(game, "any action"))
    assert "instead" not in legal(game)  # the bottom row has no colour


def test_ganesha_plain_builds_two_instead() -> None:
    game = board_game("ganesha", "plain", [("red", "storehouse[0]")] * 3)
    play(game, spot(game, "any action"), "instead", "build 2", "place", "red", "s1", "place", "red", "s2")
    assert game.prompt == "next action" and len(game.zone("storehouse", 0)) == 1
    assert game.var("vp", 0) == 2  # two red statues on yellow slots of the Ganesha foundation


def test_skanda_dot_a_red_action_goes_first_next_round() -> None:
    # A card with red on its fifth row: Skanda's pawn lands low but goes first next round.
    low_red = next(f"{c[0]}{i}" for i, c in enumerate(CONSTS["CONSTRUCTION"], 1) if c[4][4][1] == "red")
    game = arrange(players=3, seed=1, face=low_red, first=0, moves=with_board("skanda"))
    play(game, [m for m in legal(game) if " red" in m][0])
    finish_round(game)
    heights = [pw["who"] for i in range(1, 10) for pw in game.zone("spot", "right", f"x{i}")]
    assert heights[0] != 0
    assert game.var("round") == 2 and game.to_move == 0
    finish_round(game)
    # Used once: the next round follows the heights again.
    heights = [pw["who"] for i in range(1, 10) for pw in game.zone("spot", "left", f"x{i}")]
    assert game.to_move == heights[0]


def finish_round(game: boardkit.Game) -> None:
    start = game.var("round")
    while game.var("round") == start and not game.is_over:
        offered = legal(game)
        if game.prompt == "spot for your pawn":
            game.play(offered[0])
        else:
            game.play(next((q for q in QUIET if q in offered), offered[0]))


def test_skanda_plain_names_a_colour_for_gifts() -> None:
    game = board_game("skanda", "plain", [("white", "here[0,s1]")], players=3)
    play(game, spot(game, "gifts"), "main")
    assert game.prompt == "colour that counts once more"
    play(game, "white", "gift")
    assert legal(game) == ["white-gift"]
    game = board_game("skanda", "plain", [("white", "here[0,s1]")], players=3)
    play(game, spot(game, "gifts"), "main", "red")
    assert "gift" not in legal(game)


def test_ganga_dot_a_statue_on_blue_with_at_most_three_stored() -> None:
    game = board_game("ganga", "dot", [("red", "storehouse[0]")] * 3)
    play(game, spot(game, "shiva blue"), "board", "green")
    assert storehouse(game, 0) == Counter(red=3, green=1)
    game = board_game("ganga", "dot", [("red", "storehouse[0]")] * 4)
    play(game, spot(game, "shiva blue"))
    assert "board" not in legal(game)


def test_ganga_plain_builds_one_after_gaining_two() -> None:
    game = board_game("ganga", "plain")
    play(game, spot(game, "construction yellow +2 yellow"))
    assert "extra_build" not in legal(game)
    play(game, "bonus", "extra_build", "place", "yellow", "s1")
    assert "extra_build" not in legal(game)
    assert game.zone("here", 0, "s1")[0]["colour"] == "yellow"


# The end of the game and final scoring --------------------------------------------------

def end_now(game_vars: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"last_round": 1, "ending": "test", **(game_vars or {})}


def test_mk_t9_final_storehouse_scoring() -> None:
    def setup(base: boardkit.Game) -> list[Move]:
        deck = labels(base.zone("dev_deck"))
        return [*[("green", "storehouse[0]")] * 5, (deck[-1], "store_cards[0]"), (deck[-2], "store_cards[0]")]

    game = arrange(face=C24, first=0, moves=setup, vars=end_now(), options={"objectives": False})
    # The last round: player 0 gains nothing (gifts with nothing to receive).
    play(game, spot(game, "gifts"), "main", "done")
    play(game, spot(game, "any action"), "main", "gifts", "done")
    play(game, spot(game, "any action"), "main", "gifts", "done")
    play(game, spot(game, "upgrade"), "main", "develop")
    play(game, legal(game)[0], "done")
    assert game.is_over
    assert game.var("final", 0)[:2] == [2, 2]  # 5 statues: +2; 2 storehouse cards: +2


@pytest.mark.parametrize(("hand", "points"), [(["A", "A", "C", "D", "E", "E"], 10), (["A", "B", "C", "D", "E"], 15),
                                              ([], 0)])
def test_mk_ex_8_roof_letters_in_hand(hand: list[str], points: int) -> None:
    def cards(base: boardkit.Game) -> list[Move]:
        faces = {labels(base.zone("face", h))[0] for h in ("left", "right")} | {C24}
        chosen: list[str] = []
        for letter in hand:
            chosen.append(next(c for c in (f"{letter}{i}" for i in range(1, 51)) if c not in faces and c not in chosen
                               and c[0] == letter and int(c[1:]) in range(1, 51)
                               and CONSTS["CONSTRUCTION"][int(c[1:]) - 1][0] == letter))
        return [(c, "hand[0]") for c in chosen]

    game = arrange(face=C24, first=0, moves=cards, vars=end_now())
    finish(game)
    assert game.var("final", 0)[2] == points


FLOOR_A10 = [("A10", "tower[0]", None, "top")]


def objective_game(kind: str, statues: dict[str, str], players: int = 3, floors: list | None = None) -> boardkit.Game:
    moves = moves_of(goal_moves(kind), FLOOR_A10, [(c, f"here[0,{s}]") for s, c in statues.items()])
    return arrange(players=players, seed=1, face=C24, first=0, moves=moves,
                   vars=end_now({"floors[0]": floors or []}))


@pytest.mark.parametrize(("kind", "statues", "points"), [
    ("four_colours", {"s1": "yellow", "s2": "red", "s3": "purple", "s4": "white"}, 6),
    ("three_to_five", {f"s{i}": "green" for i in range(1, 7)}, 0),
    ("three_to_five", {f"s{i}": "green" for i in range(1, 6)}, 6),
    ("three_pairs", {"s1": "yellow", "s2": "yellow", "s3": "green", "s4": "green", "s5": "white", "s6": "white"}, 7),
    ("three_pairs", {"s1": "yellow", "s2": "yellow", "s3": "green", "s4": "green", "s5": "white", "s6": "red"}, 0),
    ("three_same", {"s1": "white", "s2": "white", "s3": "white"}, 5),
    ("shiva_floor", {"s1": "white", "s4": "red", "s5": "blue"}, 4),
    ("shiva_floor", {"s1": "white", "s2": "white", "s4": "red"}, 7),
    ("shiva_floor", {"s4": "red", "s5": "blue"}, 0),
    ("nonwhite_filled", {"s4": "green", "s5": "green", "s6": "green"}, 6),
    ("nonwhite_filled", {"s1": "green", "s4": "green", "s5": "green"}, 0),
])
def test_mk_ex_5_objective_cards(kind: str, statues: dict[str, str], points: int) -> None:
    game = objective_game(kind, statues)
    finish(game)
    assert game.var("final", 0)[3] == points


def test_mk_ex_2_objective_over_four_floors() -> None:
    rich = [["red", "red"], ["red", "green"], ["red", "blue"], ["white", "yellow"], ["white", None]]
    game = objective_game("four_colours", {"s1": "green", "s2": "white", "s4": "yellow", "s5": "red"},
                          floors=[rich, rich, rich])
    finish(game)
    assert game.var("final", 0)[3] == 24
    one_white = [["red", "red"], ["red", "white"], ["red", None]]
    game = objective_game("shiva_floor", {"s1": "white"}, floors=[one_white] * 3)
    finish(game)
    assert game.var("final", 0)[3] == 16


def test_objectives_are_not_scored_in_a_first_game() -> None:
    game = arrange(players=3, seed=1, face=C24, first=0, options={"objectives": False},
                   moves=[("white", "here[0,s1]"), ("white", "here[0,s2]"), ("white", "here[0,s3]")], vars=end_now())
    finish(game)
    assert game.var("final", 0)[3] == 0


def test_final_score_is_track_plus_bonuses() -> None:
    game = arrange(face=C24, first=0, vars=end_now({"vp[0]": 17, "vp[1]": 5}))
    finish(game)
    for p in (0, 1):
        assert game.scores()[p] == game.var("vp", p)
    assert game.scores()[0] == 17 + sum(game.var("final", 0))


def test_a_sixth_roof_ends_the_game_after_one_more_round() -> None:
    def five_roofs(base: boardkit.Game) -> list[Move]:
        faces = {labels(base.zone("face", h))[0] for h in ("left", "right")} | {C24}
        roofs = [c for c in (f"{x}{i}" for x, r in zip("ABCDE", range(5)) for i in range(1 + 10 * r, 11 + 10 * r))
                 if c not in faces and c != "A10"][:4]
        return [*[(c, "tower[0]", None, "top") for c in roofs], *FLOOR_A10,
                *[("red", f"here[0,s{i}]") for i in (1, 4, 5)], ("B20", "hand[0]")]

    game = arrange(face=C24, first=0, moves=five_roofs)
    assert len(game.zone("tower", 0)) == 6  # the foundation and 5 roofs
    play(game, spot(game, "roof"), "main")
    play(game, legal(game)[0], "install", "B20")
    assert len(game.zone("tower", 0)) == 7
    assert game.var("last_round") == 2 and game.var("ending") == "a player installed a sixth roof card"
    finish(game)
    assert game.var("round") == 2 and game.end_reason == "a player installed a sixth roof card"


def test_two_colours_running_out_ends_the_game_after_one_more_round() -> None:
    game = arrange(face=C24, first=0, moves=[("white", "box")] * 12 + [("yellow", "box")] * 12,
                   options={"objectives": False})
    play(game, spot(game, "construction yellow +2 yellow"), "bonus", "main", "stop", "done")
    assert game.zone("supply", "yellow") == []
    assert game.var("last_round") == 2 and game.var("ending") == "statues of two colours ran out"
    finish(game)
    assert game.var("round") == 2


def test_a_tie_on_points_is_broken_by_pawn_height() -> None:
    # Round 1 order: 0, 1, 1, 0; it is the last round. Nothing scores but player 0's storehouse
    # card (+1 at the end), so both end on 6.
    game = arrange(face=C24, first=0, vars=end_now({"vp[0]": 5, "vp[1]": 6}), options={"objectives": False})
    play(game, spot(game, "upgrade"), "main", "storehouse", "done")  # player 0 on row 2
    play(game, spot(game, "any action"), "main", "gifts", "done")    # player 1, bottom row
    play(game, spot(game, "any action"), "main", "gifts", "done")    # player 1, bottom row
    play(game, spot(game, "gifts"), "main", "done")                  # player 0 on row 5
    assert game.is_over
    assert game.scores() == [6, 6]
    assert game.winners() == [0]
    # The other way round: player 1 stands higher.
    game = arrange(face=C24, first=0, vars=end_now({"vp[0]": 5, "vp[1]": 6}), options={"objectives": False})
    play(game, spot(game, "any action"), "main", "upgrade", "storehouse", "done")  # player 0, bottom row
    play(game, spot(game, "gifts"), "main", "done")                                # player 1 on row 5
    play(game, spot(game, "any action"), "main", "gifts", "done")                  # player 1, bottom row
    play(game, spot(game, "shiva"), "main", "done")                                # player 0 on row 3
    assert game.is_over
    assert game.scores() == [6, 6]
    assert game.winners() == [0]  # row 3 is above row 5
    game = arrange(face=C24, first=0, vars=end_now({"vp[0]": 5, "vp[1]": 6}), options={"objectives": False})
    play(game, spot(game, "any action"), "main", "upgrade", "storehouse", "done")  # player 0, bottom row
    play(game, spot(game, "upgrade"), "main", "develop")                           # player 1 on row 2 ...
    play(game, legal(game)[0], "done")                                              # ... a development card
    play(game, spot(game, "any action"), "main", "gifts", "done")                  # player 1, bottom row
    play(game, spot(game, "gifts"), "main", "done")                                # player 0 on row 5
    assert game.is_over
    assert game.scores() == [6, 6]
    assert game.winners() == [1]


# Serialization mid-turn -----------------------------------------------------------------

def test_json_round_trip_mid_turn() -> None:
    game = arrange(face=C24, first=0, moves=[("red", "storehouse[0]")])
    play(game, spot(game, "construction"), "main", "place")
    copy = RULES.load_game(game.to_json())
    assert legal(copy) == legal(game)
    for g in (game, copy):
        play(g, "red", "s1")
    assert copy.var("vp", 0) == game.var("vp", 0)
    assert copy.to_json() == game.to_json()
