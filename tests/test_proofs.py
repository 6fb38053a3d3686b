"""What look-ahead trials proved is reused where play reaches the same position (runtime/proofs.py).

Search explores a game through clones, whose trials prove what options of later decisions
complete the turn; the game that then plays on must offer exactly what a game that never
searched offers.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import boardkit
from boardkit.runtime import proofs

# The last field: whether the game's decisions run trials (Ananda's never need to; Go Fish's
# choices are all known to have an option, lang/nonempty.py).
GAMES = [("mandala", 2, {}, False), ("ananda", 2, {}, False), ("chakra", 2, {}, True), ("meenakshi", 2, {}, True),
         ("examples/go_fish.bk", 3, {}, False)]


def _load(name: str) -> boardkit.Ruleset:
    root = Path(__file__).parents[1]
    return boardkit.load_ruleset(str(root / name) if name.endswith(".bk") else name)


def _explore(game: boardkit.Game, depth: int) -> None:
    """Lists the options of every continuation `depth` decisions deep, on clones (as search does)."""
    if depth == 0 or game.is_over:
        return
    for action in game.legal_actions():
        twin = game.clone()
        twin.apply_action(action)
        _explore(twin, depth - 1)


@pytest.mark.parametrize("seed", [3, 11])
@pytest.mark.parametrize(("name", "players", "options", "trials"), GAMES)
def test_a_game_explored_through_clones_offers_what_a_plain_one_does(name: str, players: int, options: dict,
                                                                     trials: bool, seed: int) -> None:
    rules = _load(name)
    searched = rules.new_game(players=players, seed=seed, options=options)
    plain = rules.new_game(players=players, seed=seed, options=options)
    rng = random.Random(seed)
    reused = 0
    for n in range(60):
        if plain.is_over:
            break
        _explore(searched, 2)
        known = searched.state.trail is not None and len(searched.state.trail[1].proofs)
        labels = [m.label for m in searched.legal_moves()]
        assert labels == [m.label for m in plain.legal_moves()], f"decision {n + 1}"
        reused += known > 0
        action = rng.randrange(len(labels))
        searched.apply_action(action)
        plain.apply_action(action)
        if n % 7 == 6:  # undo goes back to a position the proofs already name
            searched.undo()
            plain.undo()
            assert [m.label for m in searched.legal_moves()] == [m.label for m in plain.legal_moves()]
    assert searched.to_json() == plain.to_json()
    assert bool(reused) == trials


# Whether a game's trials run trials of their own.
DEEP = {"mandala": False, "ananda": False, "chakra": True, "meenakshi": True, "examples/go_fish.bk": False}


@pytest.mark.parametrize(("name", "players", "options", "trials"), GAMES)
def test_a_game_played_straight_keeps_proofs_once_its_trials_go_deep(name: str, players: int, options: dict,
                                                                     trials: bool) -> None:
    """Play reaches the positions its own trials saw: where a proof saves trials of trials, they are kept."""
    game = _load(name).new_game(players=players, seed=5, options=options)
    rng = random.Random(5)
    for _ in range(40):
        if game.is_over:
            break
        game.apply_action(rng.randrange(len(game.legal_actions())))
    trail = game.state.trail
    assert (trail is not None and len(trail[1].proofs) > 0) == DEEP[name]
    assert not DEEP[name] or trials


def test_a_game_played_straight_forgets_the_positions_it_left() -> None:
    """What a game with no copies keeps stays bounded; once copied (search), nothing is forgotten."""
    game = boardkit.load_ruleset("chakra").new_game(players=2, seed=6)
    rng = random.Random(6)
    most = 0
    for _ in range(600):
        game.apply_action(rng.randrange(len(game.legal_actions())))
        assert game.state.trail is not None
        most = max(most, len(game.state.trail[1].paths))
    assert proofs.PRUNED // 2 < most <= 2 * proofs.PRUNED
    kept = game.state.trail[1]
    before = len(kept.paths)
    game.clone()
    assert kept.shared
    for _ in range(300):
        game.apply_action(rng.randrange(len(game.legal_actions())))
    assert len(kept.paths) > max(before, proofs.PRUNED)


def test_a_dealt_again_or_loaded_game_starts_a_trail_of_its_own() -> None:
    rules = boardkit.load_ruleset("chakra")
    game = rules.new_game(players=2, seed=1)
    game.legal_actions()
    twin = game.clone()  # search starts: both keep proofs, at one position
    assert twin.state.trail is not None
    assert twin.state.trail == game.state.trail
    dealt = game.determinize(0, random.Random(1))
    assert dealt.state.trail is not None
    assert dealt.state.trail[0] != game.state.trail[0]


def test_a_finished_game_keeps_no_proofs() -> None:
    rules = boardkit.load_ruleset("mandala")
    game = rules.new_game(players=2, seed=2)
    rng = random.Random(2)
    while not game.is_over:
        _explore(game, 1)
        game.apply_action(rng.randrange(len(game.legal_actions())))
    assert game.state.trail is None


def test_proofs_cut_short_by_the_depth_bound_are_not_kept() -> None:
    rules = boardkit.load_ruleset("chakra")
    game = rules.new_game(players=2, seed=4)
    game.clone()
    s = game.state
    assert s.trail is not None
    before = s.trail[1].cut_offs
    assert proofs.cut_off(s) is True
    assert s.trail[1].cut_offs == before + 1


TRIAL_LIMIT_RULES = """
game "Trial limit"
players 2

var y = 0

func width() = if y == 1 then 21 else 40

play {
  turn 0 {
    choose a from [1] prompt "a"
    choose b from [1, 2, 3] prompt "b"
    set y = b
    choose c from range(1, width()) prompt "c"
    choose d from range(1, width()) prompt "d"
    require y == 2 "only b = 2 completes the turn"
  }
  end game "over"
}
"""


def test_a_proof_costs_the_trials_it_took(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The trial limit trips at the same decision whether earlier trials proved what it needs or not."""
    from boardkit.runtime import interpreter

    monkeypatch.setattr(interpreter, "TRIAL_LIMIT", 2_000)
    path = tmp_path / "trial_limit.bk"
    path.write_text(TRIAL_LIMIT_RULES, encoding="utf-8")
    rules = boardkit.load_ruleset(str(path))
    game = rules.new_game(players=2, seed=0)
    game.clone()  # searched: proofs are kept from the start
    game.play("1")  # its trials proved b = 1 and b = 2 at the next decision
    text = game.to_json()
    for played in (game, rules.load_game(text), rules.load_game(text, check_history=False)):
        with pytest.raises(boardkit.RuleRuntimeError, match="look-ahead tried 2000 continuations") as caught:
            played.legal_moves()
        assert "trial_limit.bk:15:12:" in str(caught.value)  # the same trial trips: at the last choice
