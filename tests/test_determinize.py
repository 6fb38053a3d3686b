"""Game.determinize: what a player cannot see is dealt again, what they know stays."""

from __future__ import annotations

import random

import pytest

import boardkit
from tests.test_knowledge import TILES


def hidden(game: boardkit.Game, player: int) -> dict[str, list[str]]:
    """The zones `player` cannot see, as the omniscient inspection shows them."""
    view = game.view(player)["zones"]
    return {k: [p["label"] for p in v] for k, v in game.zones().items() if isinstance(view[k], dict)}


@pytest.mark.parametrize(("name", "players"), [("mandala", 2), ("chakra", 3), ("meenakshi", 4)])
def test_a_determinized_game_keeps_the_view_changes_hidden_things_and_plays_on(name: str, players: int) -> None:
    rules = boardkit.load_ruleset(name)
    game = rules.new_game(players=players, seed=11)
    rng = random.Random(1)
    differs = 0
    for _ in range(25):
        player = game.to_move
        assert player is not None
        before = game.view(player)
        twin = game.determinize(player, rng)
        assert twin.view(player) == before
        assert game.view(player) == before  # the game itself is untouched
        differs += hidden(twin, player) != hidden(game, player)
        for _ in range(10):  # play goes on legally from the new deal
            if twin.is_over:
                break
            twin.apply_action(rng.randrange(len(twin.legal_actions())))
        game.apply_action(rng.randrange(len(game.legal_actions())))
    assert differs >= 20


def test_a_determinized_deck_is_dealt_at_random() -> None:
    game = boardkit.load_ruleset("mandala").new_game(players=2, seed=3)
    rng = random.Random(2)
    tops = {game.determinize(0, rng).zone("deck")[0]["label"] for _ in range(40)}
    assert len(tops) >= 4
    # The opponent's hand is re-dealt too, with its size kept.
    hands = {tuple(sorted(p["label"] for p in game.determinize(0, rng).zone("hand", 1))) for _ in range(20)}
    assert len(hands) > 1
    assert {len(h) for h in hands} == {len(game.zone("hand", 1))}


def test_peeked_and_witnessed_pieces_stay_where_the_player_knows_them() -> None:
    rules = boardkit.parse_ruleset(TILES, filename="tiles.bk")
    game = rules.new_game(players=2, seed=1)
    for label in ("look", "b", "show", "c"):  # 0 peeks at b; 1 shows c, then puts it back under a
        game.play(label)
    shown = game.zone("table")
    game.play("back")
    rng = random.Random(0)
    peeked = game.zone("face_down", "b")
    assert {str(game.determinize(0, rng).zone("face_down", "b")) for _ in range(30)} == {str(peeked)}
    # Player 1 never looked at b: for them it may be any tile not seen.
    assert len({str(game.determinize(1, rng).zone("face_down", "b")) for _ in range(30)}) > 1
    # Both saw the shown tile go under a: it stays there, in a zone of two.
    under_a = [game.determinize(p, rng).zone("face_down", "a") for p in (0, 1) for _ in range(10)]
    assert all(shown[0] in zone and len(zone) == 2 for zone in under_a)


def test_the_random_draws_to_come_are_dealt_again() -> None:
    game = boardkit.load_ruleset("mandala").new_game(players=2, seed=3)
    rng = random.Random(5)
    seeds = {game.determinize(0, rng).state.seed for _ in range(5)}
    assert len(seeds) == 5
    assert game.state.seed not in seeds


def test_determinize_names_a_bad_player() -> None:
    game = boardkit.load_ruleset("mandala").new_game(players=2, seed=3)
    with pytest.raises(boardkit.OptionError, match="no player 2"):
        game.determinize(2, random.Random(0))
