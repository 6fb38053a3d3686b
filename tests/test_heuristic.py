"""`heuristic p = expr`: an evaluation for agents, the score by default; read-only and checked."""

from __future__ import annotations

from pathlib import Path

import pytest

import boardkit

ROOT = Path(__file__).resolve().parents[1]
CONNECT_FOUR = (ROOT / "benchmarks" / "connect_four.bk").read_text(encoding="utf-8")
PLAIN = CONNECT_FOUR[:CONNECT_FOUR.index("# For agents")]


def test_a_ruleset_without_heuristic_is_evaluated_by_its_score() -> None:
    game = boardkit.parse_ruleset(PLAIN, filename="c4.bk").new_game(players=2, seed=1)
    while not game.is_over:
        game.apply_action(0)
    assert [game.heuristic(p) for p in range(2)] == [float(s) for s in game.scores()] == [1.0, 0.0]


def test_a_declared_heuristic_is_evaluated_per_player() -> None:
    game = boardkit.parse_ruleset(PLAIN + "heuristic p = 10 * size(supply[p]) + p\n", filename="c4.bk").new_game(
        players=2, seed=1)
    game.apply_action(3)
    assert (game.heuristic(0), game.heuristic(1)) == (200.0, 211.0)
    with pytest.raises(boardkit.OptionError, match="no player 2"):
        game.heuristic(2)


def test_a_variant_may_replace_the_heuristic(tmp_path: Path) -> None:
    (tmp_path / "base.bk").write_text(PLAIN + "heuristic p = 1\n", encoding="utf-8")
    (tmp_path / "variant.bk").write_text('extends "base.bk"\nheuristic p = 2\n', encoding="utf-8")
    game = boardkit.load_ruleset(str(tmp_path / "variant.bk")).new_game(players=2, seed=1)
    assert game.heuristic(0) == 2.0


@pytest.mark.parametrize(("text", "message", "column"), [
    ("heuristic p = random(3)", r"random\(\) cannot be used in a heuristic", 15),
    ("heuristic q = size(supply[p])", "unknown name 'p'", 27),
    ("heuristic p = size(nowhere[p])", "nowhere", 20),
    ("heuristic p = 1\nheuristic p = 2", "'heuristic' is declared twice", 11),
])
def test_bad_heuristics_are_located_rule_errors(text: str, message: str, column: int) -> None:
    with pytest.raises(boardkit.RuleError, match=message) as caught:
        boardkit.parse_ruleset(PLAIN + text + "\n", filename="c4.bk")
    assert caught.value.filename == "c4.bk"
    assert caught.value.column == column


def test_a_heuristic_that_is_no_number_is_a_located_runtime_error() -> None:
    game = boardkit.parse_ruleset(PLAIN + 'heuristic p = "high"\n', filename="c4.bk").new_game(players=2, seed=1)
    with pytest.raises(boardkit.RuleRuntimeError, match="a heuristic must be a number") as caught:
        game.heuristic(0)
    assert "c4.bk:" in str(caught.value)


@pytest.mark.parametrize(("name", "players"), [("mandala", 2), ("ananda", 3), ("chakra", 4), ("meenakshi", 2),
                                               ("chakra_short", 2), ("mandala_seed", 2)])
def test_every_bundled_game_declares_a_heuristic_that_reads_without_changing_the_game(name: str, players: int) -> None:
    rules = boardkit.load_ruleset(name)
    assert rules.program.heuristic is not None
    game = rules.new_game(players=players, seed=4)
    for _ in range(30):
        before = game.to_json()
        values = [game.heuristic(p) for p in range(players)]
        assert all(isinstance(v, float) for v in values)
        assert game.to_json() == before
        game.apply_action(0)
