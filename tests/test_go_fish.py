"""The tutorial game (examples/go_fish.bk) is tested like a bundled one."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import boardkit

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


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_the_deck_whole_and_end(players: int) -> None:
    for seed in range(3):
        game = RULES.new_game(players=players, seed=seed)
        rng = random.Random(seed)
        for _ in range(2000):
            if game.is_over:
                break
            zones = game.zones()
            assert sum(len(v) for v in zones.values()) == 52
            for p in range(players):
                view = game.view(p)
                for q in range(players):
                    if q != p:
                        assert view["zones"][f"hand[{q}]"] == {"count": len(zones[f"hand[{q}]"])}
                assert view["zones"]["deck"] == {"count": len(zones["deck"])}
            game.play(rng.choice(game.legal_moves()))
        assert game.is_over
        assert sum(game.scores()) == 13
