"""`invariant` declarations: checked only when asked, located when false, never changing a game."""

from __future__ import annotations

import pickle
import random
from pathlib import Path

import pytest

import boardkit

# The tutorial's Go Fish without the invariants it declares.
GO_FISH = "\n".join(line for line in (Path(__file__).resolve().parents[1] / "examples" / "go_fish.bk").read_text(
    encoding="utf-8").splitlines() if not line.startswith("invariant")) + "\n"
ALL_CARDS = 'invariant "52 cards" : size(deck) + size(concat([hand[q] + books[q] for q in players])) == 52\n'
# Books hold four cards each; a player with two books breaks this one.
FEW_BOOKS = 'invariant "one book at most" for p in players : size(books[p]) <= 4\n'


def rules_with(*lines: str, name: str = "gofish.bk") -> boardkit.Ruleset:
    return boardkit.parse_ruleset(GO_FISH + "\n" + "".join(lines), filename=name)


def play_until_error(game: boardkit.Game, seed: int = 0) -> Exception | None:
    rng = random.Random(seed)
    try:
        while not game.is_over:
            game.apply_action(rng.randrange(len(game.legal_actions())))
    except boardkit.BoardkitError as exc:
        return exc
    return None


def test_invariants_are_declared_in_order_with_their_player() -> None:
    rules = rules_with(ALL_CARDS, FEW_BOOKS)
    declared = [(i.name, i.param) for i in rules.program.game.invariants]
    assert declared == [("52 cards", None), ("one book at most", "p")]


def test_a_kept_invariant_is_checked_after_every_decision_without_complaint() -> None:
    rules = rules_with(ALL_CARDS)
    game = rules.new_game(players=3, seed=4, check_invariants=True)
    assert game.check_invariants
    assert play_until_error(game) is None
    assert game.is_over


def test_a_false_invariant_names_itself_its_place_player_decision_and_seed() -> None:
    rules = rules_with(ALL_CARDS, FEW_BOOKS)
    game = rules.new_game(players=2, seed=9, check_invariants=True)
    err = play_until_error(game, seed=1)
    assert isinstance(err, boardkit.InvariantError)
    assert isinstance(err, boardkit.RuleRuntimeError)
    assert err.invariant == "one book at most"
    assert err.player in (0, 1)
    assert err.seed == 9
    # The decision that broke it is the one after those the game kept: it went back before it.
    assert err.decision == len(game.history) + 1
    assert err.span is not None and (err.span.filename, err.span.line) == ("gofish.bk", GO_FISH.count("\n") + 3)
    text = str(err)
    assert text.startswith(f"gofish.bk:{err.span.line}:11: invariant 'one book at most' is false for player")
    assert f"after decision {err.decision} (seed 9)" in text
    # The game is as it was before that decision, and it shows with the check done by hand.
    game.verify_invariants()
    copy = pickle.loads(pickle.dumps(err))
    assert (copy.invariant, copy.player, copy.decision, copy.seed, str(copy)) == (
        err.invariant, err.player, err.decision, err.seed, str(err))


def test_invariants_are_off_by_default_and_change_no_game() -> None:
    plain = boardkit.parse_ruleset(GO_FISH, filename="gofish.bk")
    declared = rules_with(ALL_CARDS, FEW_BOOKS)
    unchecked = declared.new_game(players=2, seed=9)
    assert not unchecked.check_invariants
    assert play_until_error(unchecked, seed=1) is None  # the false invariant goes unnoticed
    reference = plain.new_game(players=2, seed=9)
    assert play_until_error(reference, seed=1) is None
    assert unchecked.history == reference.history
    assert unchecked.scores() == reference.scores()
    assert unchecked.events == reference.events


def test_an_invariant_false_at_the_start_fails_new_game() -> None:
    rules = rules_with('invariant "empty deck" : empty(deck)\n')
    with pytest.raises(boardkit.InvariantError, match="is false at the start") as info:
        rules.new_game(players=2, seed=3, check_invariants=True)
    assert info.value.decision == 0 and info.value.player is None
    rules.new_game(players=2, seed=3)  # unchecked, it starts


def test_loading_a_game_can_check_it_and_go_on_checking() -> None:
    rules = rules_with(ALL_CARDS, FEW_BOOKS)
    game = rules.new_game(players=2, seed=9)
    play_until_error(game, seed=1)
    with pytest.raises(boardkit.InvariantError):
        rules.load_game(game.to_json(), check_invariants=True)
    start = rules.new_game(players=2, seed=9)
    loaded = rules.load_game(start.to_json(), check_invariants=True)
    assert loaded.check_invariants and loaded.clone().check_invariants
    assert isinstance(play_until_error(loaded, seed=1), boardkit.InvariantError)


def test_an_invariant_that_fails_to_evaluate_is_a_located_runtime_error() -> None:
    rules = rules_with('invariant "not a truth" : size(deck)\n')
    with pytest.raises(boardkit.RuleRuntimeError, match=r"gofish\.bk:\d+:11: an invariant is true or false, not 38"):
        rules.new_game(players=2, seed=1, check_invariants=True)
    broken = rules_with('invariant "index" : size(hand[5]) >= 0\n')
    with pytest.raises(boardkit.RuleRuntimeError, match=r"gofish\.bk:\d+:\d+: KeyError") as info:
        broken.new_game(players=2, seed=1, check_invariants=True)
    assert not isinstance(info.value, boardkit.InvariantError)
    broken.new_game(players=2, seed=1)  # unchecked, nothing evaluates it


def test_a_variant_replaces_an_invariant_by_name(tmp_path: Path) -> None:
    (tmp_path / "base.bk").write_text(GO_FISH + "\n" + FEW_BOOKS, encoding="utf-8")
    (tmp_path / "variant.bk").write_text(
        'extends "base"\ninvariant "one book at most" for p in players : size(books[p]) <= 52\n', encoding="utf-8")
    base = boardkit.load_ruleset(str(tmp_path / "base.bk"))
    variant = boardkit.load_ruleset(str(tmp_path / "variant.bk"))
    assert isinstance(play_until_error(base.new_game(players=2, seed=9, check_invariants=True), 1),
                      boardkit.InvariantError)
    assert play_until_error(variant.new_game(players=2, seed=9, check_invariants=True), 1) is None


@pytest.mark.parametrize("name", boardkit.list_rulesets())
def test_every_bundled_ruleset_declares_invariants_that_hold_at_the_start(name: str) -> None:
    rules = boardkit.load_ruleset(name)
    assert len(rules.program.game.invariants) >= 4
    for players in range(rules.min_players, rules.max_players + 1):
        rules.new_game(players=players, seed=players, check_invariants=True)
