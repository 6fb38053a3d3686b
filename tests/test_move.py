"""`Move` as a value: what a host app may rely on in both builds (the compiled one makes it a native class)."""

from __future__ import annotations

import copy
import pickle

import attrs
import pytest

import boardkit
from boardkit import Move


def test_moves_compare_and_hash_by_label_and_player_only() -> None:
    game = boardkit.load_ruleset("mandala").new_game(players=2, seed=1)
    offered = game.legal_moves()[0]
    by_hand = Move(offered.label, offered.player)
    assert offered == by_hand
    assert not offered != by_hand  # noqa: SIM202 - `!=` is its own method
    assert hash(offered) == hash(by_hand)
    assert {offered: 1}[by_hand] == 1
    assert offered != Move(offered.label, 1 - offered.player)
    assert offered != Move(offered.label + "x", offered.player)
    assert offered != (offered.label, offered.player)
    assert str(offered) == offered.label
    assert repr(by_hand) == f"Move(label={offered.label!r}, player={offered.player})"


def test_a_move_cannot_be_changed() -> None:
    move = boardkit.load_ruleset("mandala").new_game(players=2, seed=1).legal_moves()[0]
    label = move.label
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        move.label = "other"
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        move.extra = 1
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        del move.player
    assert move.label == label


def test_a_pickled_move_is_matched_like_one_made_by_hand() -> None:
    game = boardkit.load_ruleset("mandala").new_game(players=2, seed=1)
    moves = game.legal_moves()
    back = pickle.loads(pickle.dumps(moves[1]))  # noqa: S301 - our own bytes
    assert back == moves[1]
    assert back.offered_at is None
    game.play(back)
    assert game.history == [moves[1].label]


def test_a_copied_move_is_the_move_itself_and_plays() -> None:
    game = boardkit.load_ruleset("mandala").new_game(players=2, seed=1)
    move = game.legal_moves()[2]
    assert copy.copy(move) is move
    game.play(copy.copy(move))
    assert game.history == [move.label]


def test_a_deep_copy_of_moves_shares_one_copy_of_their_decision() -> None:
    moves = boardkit.load_ruleset("mandala").new_game(players=2, seed=1).legal_moves()
    copies = copy.deepcopy(moves)
    assert copies == moves
    assert copies[0].offered_at is not moves[0].offered_at
    assert all(c.offered_at is copies[0].offered_at for c in copies)


class _Seat:
    """A player number as a numeric library gives one: an integer by `__index__` only."""

    def __index__(self) -> int:
        return 1


def test_a_move_made_by_hand_takes_any_integer_player_and_only_a_text_label() -> None:
    move = Move("mountain", _Seat())
    assert type(move.player) is int
    assert move == Move("mountain", 1)
    with pytest.raises(TypeError):
        Move(1, 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Move("mountain", 0.0)  # type: ignore[arg-type]


def test_moves_unpack_by_pattern() -> None:
    match Move("mountain", 1, option=3):
        case Move(label, player, option):
            assert (label, player, option) == ("mountain", 1, 3)
        case _:
            pytest.fail("no match")
