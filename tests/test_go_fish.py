"""The tutorial game (examples/go_fish.bk) is tested like a bundled one."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import boardkit
from boardkit.testing import Checks, check_rules

RULES = boardkit.load_ruleset(str(Path(__file__).parents[1] / "examples" / "go_fish.bk"))


def ranks(cards: list[dict]) -> list[str]:
    return sorted(c["rank"] for c in cards)


def test_a_catch_completes_a_book_and_earns_another_ask() -> None:
    game = RULES.new_game(players=2, seed=3, position={
        "zones": {"hand[0]": ["ace", "ace", "ace", "king"], "hand[1]": ["ace", "two"]}, "rest": "deck"})
    assert game.to_move == 0
    assert [m.label for m in game.legal_moves()] == ["ace", "king"]
    game.play("ace")
    assert [m.label for m in game.legal_moves()] == ["1"]
    game.play("1")
    assert ranks(game.zone("books", 0)) == ["ace"] * 4
    assert ranks(game.zone("hand", 0)) == ["king"]
    assert ranks(game.zone("hand", 1)) == ["two"]
    # The catch earns another ask in the same turn.
    assert game.to_move == 0
    assert game.turn_count == 1
    assert game.scores() == [1, 0]


def test_a_miss_draws_and_passes_the_turn() -> None:
    game = RULES.new_game(players=2, seed=3, position={
        "zones": {"hand[0]": ["king"], "hand[1]": ["two"], "deck": ["three"]}, "rest": "books[1]"})
    game.play("king")
    game.play("1")
    assert ranks(game.zone("hand", 0)) == ["king", "three"]
    assert game.to_move == 1
    assert game.turn_count == 2


def views_hide_the_deck_and_other_hands(game: boardkit.Game) -> Callable[[], None]:
    """A watcher for the kit: each view shows the deck and the others' hands by size only."""

    def check() -> None:
        zones = game.zones()
        for p in range(game.players):
            view = game.view(p)
            for q in range(game.players):
                if q != p:
                    assert view["zones"][f"hand[{q}]"] == {"count": len(zones[f"hand[{q}]"])}
            assert view["zones"]["deck"] == {"count": len(zones["deck"])}
        if game.is_over:
            assert sum(game.scores()) == 13

    check()
    return check


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_the_deck_whole_and_end(players: int) -> None:
    # The kit checks the file's invariants (52 cards, whole books) after every decision.
    report = check_rules(RULES, games=3, players=players, seed=players,
                         checks=Checks(max_decisions=2000, every=40, stall_fails=True,
                                       watcher=views_hide_the_deck_and_other_hands))
    assert report.ended == 3
    assert report.invariants == ("52 cards", "whole books")
