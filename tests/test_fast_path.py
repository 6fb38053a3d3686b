"""The fast path for programs: legal_actions / apply_action / clone, with play's guarantees."""

from __future__ import annotations

import random

import pytest

import boardkit

GAMES = [("mandala", 2, {}), ("ananda", 3, {}), ("chakra", 2, {"module_a": True}), ("meenakshi", 4, {}),
         ("examples/go_fish.bk", 3, {})]


def _load(name: str) -> boardkit.Ruleset:
    from pathlib import Path

    root = Path(__file__).parents[1]
    return boardkit.load_ruleset(str(root / name) if name.endswith(".bk") else name)


@pytest.mark.parametrize(("name", "players", "options"), GAMES)
def test_actions_play_exactly_what_labels_play(name: str, players: int, options: dict) -> None:
    rules = _load(name)
    by_label = rules.new_game(players=players, seed=5, options=options)
    by_action = rules.new_game(players=players, seed=5, options=options)
    rng = random.Random(5)
    for _ in range(150):
        if by_label.is_over:
            break
        moves = by_label.legal_moves()
        assert by_action.legal_actions() == list(range(len(moves)))
        i = rng.randrange(len(moves))
        by_label.play(moves[i])
        by_action.apply_action(i)
        assert by_action.history == by_label.history
    assert by_action.to_json() == by_label.to_json()
    assert by_action.events == by_label.events


@pytest.mark.parametrize("bad", [-1, 99, 1.0, "0", None, True, 10**5000], ids=["-1", "99", "1.0", "'0'", "None", "True", "huge"])
def test_a_bad_action_is_refused_and_changes_nothing(bad: object) -> None:
    game = boardkit.load_ruleset("mandala").new_game(players=2, seed=1)
    before = game.to_json()
    with pytest.raises(boardkit.IllegalMove, match="legal actions"):
        game.apply_action(bad)  # type: ignore[arg-type]
    assert game.to_json() == before


def test_a_finished_game_has_no_actions() -> None:
    game = boardkit.load_ruleset("mandala").new_game(players=2, seed=2)
    rng = random.Random(2)
    while not game.is_over:
        game.apply_action(rng.choice(game.legal_actions()))
    assert game.legal_actions() == []
    with pytest.raises(boardkit.IllegalMove, match="over"):
        game.apply_action(0)
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.reason == game.end_reason
    assert list(outcome.scores) == game.scores()
    assert list(outcome.winners) == game.winners()


def test_a_game_in_progress_has_no_outcome() -> None:
    assert boardkit.load_ruleset("mandala").new_game(players=2, seed=2).outcome() is None


@pytest.mark.parametrize(("name", "players", "options"), GAMES)
def test_a_clone_goes_its_own_way_and_leaves_the_original_as_it_was(name: str, players: int, options: dict) -> None:
    rules = _load(name)
    game = rules.new_game(players=players, seed=9, options=options)
    rng = random.Random(9)
    for _ in range(20):
        game.apply_action(rng.choice(game.legal_actions()))
    before = game.to_json()
    twin = game.clone()
    assert twin.to_json() == before
    for _ in range(30):
        if twin.is_over:
            break
        twin.apply_action(rng.choice(twin.legal_actions()))
    assert game.to_json() == before
    # Both undo to where they were cloned, independently.
    while len(twin.history) > len(game.history):
        twin.undo()
    assert twin.to_json() == before
    # And on past the decisions its original had made, from the checkpoints they share.
    while twin.history:
        twin.undo()
    assert twin.to_json() == rules.new_game(players=players, seed=9, options=options).to_json()


@pytest.mark.parametrize(("name", "players", "options"), GAMES)
def test_a_clone_offers_what_its_original_offered_without_trying_them_again(
        name: str, players: int, options: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = _load(name)
    game = rules.new_game(players=players, seed=4, options=options)
    rng = random.Random(4)
    for _ in range(25):
        game.apply_action(rng.choice(game.legal_actions()))
    early = game.clone()  # cloned before the original listed its options: it works them out itself
    labels = [m.label for m in game.legal_moves()]
    fresh_labels = [m.label for m in early.legal_moves()]
    twin = game.clone()
    monkeypatch.setattr(type(game._interp), "decide", _no_lookahead)  # noqa: SLF001 - the engine the game runs
    assert [m.label for m in twin.legal_moves()] == labels == fresh_labels
    action = rng.randrange(len(labels))
    twin.apply_action(action)
    game.apply_action(action)
    assert twin.to_json() == game.to_json()


def test_the_state_keeps_few_enough_attributes_for_fast_reads() -> None:
    """CPython 3.11 shares an instance dict's keys (and reads them fast) up to 29 of them (runtime/state.py)."""
    game = boardkit.load_ruleset("chakra").new_game(players=2, seed=1)
    game.clone()  # a searched game keeps one more thing
    rng = random.Random(1)
    for _ in range(20):
        game.apply_action(rng.randrange(len(game.legal_actions())))
    assert len(vars(game.state)) <= 29  # noqa: PLR2004 - CPython's bound, see above


def _no_lookahead(*_args: object) -> None:
    raise AssertionError("a clone ran the look-ahead for options its original knew")


def test_moves_from_another_decision_or_game_or_seat_are_refused() -> None:
    rules = boardkit.load_ruleset("mandala")
    game, other = rules.new_game(players=2, seed=1), rules.new_game(players=2, seed=1)
    stale = game.legal_moves()[0]
    game.play(stale)
    with pytest.raises(boardkit.IllegalMove, match="another decision or in another game"):
        game.play(stale)
    foreign = other.legal_moves()[0]
    with pytest.raises(boardkit.IllegalMove, match="another decision or in another game"):
        game.play(foreign)
    seat = game.to_move
    assert seat is not None
    forged = boardkit.Move(game.legal_moves()[0].label, 1 - seat)
    with pytest.raises(boardkit.IllegalMove, match=f"for player {1 - seat}"):
        game.play(forged)
    # After undo the game is back at the decision: its moves are good again.
    first = rules.new_game(players=2, seed=1)
    moves = first.legal_moves()
    first.play(moves[0])
    first.undo()
    first.play(moves[1])
    assert first.history == [moves[1].label]


@pytest.mark.parametrize("bad", [10**5000, 3.5, None, ["mountain"]], ids=["huge", "float", "None", "list"])
def test_play_refuses_what_is_no_label_with_the_librarys_error(bad: object) -> None:
    game = boardkit.load_ruleset("mandala").new_game(players=2, seed=1)
    before = game.to_json()
    with pytest.raises(boardkit.IllegalMove):
        game.play(bad)  # type: ignore[arg-type]
    assert game.to_json() == before


@pytest.mark.parametrize("loaded", [False, True], ids=["played", "loaded"])
def test_undo_goes_back_through_every_decision_past_the_checkpoints_kept(loaded: bool) -> None:
    rules = boardkit.load_ruleset("mandala")
    game = rules.new_game(players=2, seed=12)
    rng = random.Random(12)
    states = [game.to_json()]
    for _ in range(100):  # more than CHECKPOINT_EVERY * CHECKPOINTS_KEPT decisions
        if game.is_over:
            break
        game.apply_action(rng.choice(game.legal_actions()))
        states.append(game.to_json())
    if loaded:
        game = rules.load_game(game.to_json())
    while game.history:
        game.undo()
        assert game.to_json() == states[len(game.history)]


# Three hundred zones: more than a byte numbers, so undo checkpoints keep locations in an array.
_BOXES = ", ".join(f"b{i}" for i in range(1, 301))
MANY_ZONES = f"""game "Many Boxes"
players 2
enum Box {{ {_BOXES} }}
component Token {{ n: int }} label text(.n)
zone box[Box]: pile, public
setup {{
  create 3 Token(n: 1) into box[b1]
}}
play {{
  let p = 0
  repeat 40 {{
    turn p {{
      choose b from [b for b in Box if not empty(box[b])] prompt "from"
      choose d from [b1, b2, b299, b300] prompt "to"
      move 1 of box[b] to box[d]
    }}
    set p = next(p)
  }}
  end game "done"
}}
score p = size(box[b300])
"""


@pytest.mark.parametrize("ruleset", ["mandala", "many zones"])
def test_undo_restores_every_decision_whatever_the_number_of_zones(ruleset: str) -> None:
    """Checkpoints keep locations as bytes up to 256 zones (Mandala has 14), as an array beyond."""
    rules = (boardkit.parse_ruleset(MANY_ZONES, filename="many.bk") if ruleset == "many zones"
             else boardkit.load_ruleset(ruleset))
    game = rules.new_game(players=2, seed=4)
    assert (len(game.state.zones) > 256) == (ruleset == "many zones")
    rng = random.Random(4)
    states = [game.to_json()]
    while not game.is_over and len(states) < 60:
        game.apply_action(rng.choice(game.legal_actions()))
        states.append(game.to_json())
    assert len(states) > 17  # past two checkpoints
    while game.history:
        game.undo()
        assert game.to_json() == states[len(game.history)]


def test_a_truth_value_is_no_player_count() -> None:
    with pytest.raises(boardkit.OptionError):
        boardkit.load_ruleset("mandala").new_game(players=True)  # type: ignore[arg-type]


@pytest.mark.parametrize("corrupt", ["swap two decisions", "a label never offered"])
def test_a_save_whose_history_does_not_lead_to_it_is_refused(corrupt: str) -> None:
    import json

    rules = boardkit.load_ruleset("mandala")
    game = rules.new_game(players=2, seed=5)
    rng = random.Random(5)
    for _ in range(30):
        game.apply_action(rng.choice(game.legal_actions()))
    doc = json.loads(game.to_json())
    history = doc["history"]
    if corrupt == "swap two decisions":
        i = next(i for i in range(len(history) - 1) if history[i] != history[i + 1])
        history[i], history[i + 1] = history[i + 1], history[i]
    else:
        history[3] = "no such move"
    # Loading plays the history again: a save it does not lead to is refused at once.
    message = "is not offered there" if corrupt == "a label never offered" else "history"
    with pytest.raises(boardkit.StateError, match=message):
        rules.load_game(json.dumps(doc))
    # Loaded without that check, its first undo checks it and leaves the game as it was.
    loaded = rules.load_game(json.dumps(doc), check_history=False)
    before = loaded.to_json()
    with pytest.raises(boardkit.StateError, match="cannot be undone"):
        loaded.undo()
    assert loaded.to_json() == before
    loaded.apply_action(0)  # the game itself still plays on
