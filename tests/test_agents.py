"""Greedy and MCTS agents, stalls, tournaments, comparisons and reports (tiny budgets, few games)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import boardkit
from boardkit.agents import GreedyAgent, MCTSAgent, make_agent
from boardkit.tools.cli import main
from boardkit.tools.compare import compare_rulesets
from boardkit.tools.report import html_report
from boardkit.tools.simulate import STALLED, SimulationError, simulate
from boardkit.tools.stats import bradley_terry, wilson
from boardkit.tools.tournament import run_tournament

ROOT = Path(__file__).resolve().parents[1]
CONNECT_FOUR = str(ROOT / "benchmarks" / "connect_four.bk")


@pytest.fixture(scope="module")
def c4() -> boardkit.Ruleset:
    return boardkit.load_ruleset(CONNECT_FOUR)


def test_greedy_takes_a_win(c4: boardkit.Ruleset) -> None:
    game = c4.new_game(players=2, seed=0)
    for column in (0, 6, 0, 6, 0, 5):  # player 0 threatens four in column 0; player 1 did not block
        game.play(str(column))
    for seed in range(3):
        assert game.legal_moves()[GreedyAgent(seed=seed).act(game)].label == "0"


def test_mcts_finds_the_winning_move_and_never_changes_the_game(c4: boardkit.Ruleset) -> None:
    game = c4.new_game(players=2, seed=0)
    for column in (0, 6, 0, 6, 0, 5):
        game.play(str(column))
    before = game.to_json()
    assert game.legal_moves()[MCTSAgent(seed=3, iterations=60).act(game)].label == "0"
    assert game.to_json() == before


def test_agents_on_hidden_information_read_only_what_their_player_may_know() -> None:
    """Two games that differ only in what player 0 cannot see get the same decisions from them."""
    rules = boardkit.load_ruleset("mandala")
    game = rules.new_game(players=2, seed=5)
    while game.to_move != 0 or len(game.legal_actions()) < 2:
        game.apply_action(0)
    twin = game.determinize(0, random.Random(9))  # the same view, other hidden cards and draws
    assert twin.view(0) == game.view(0)
    for spec in ("greedy:20", "mcts:15"):
        assert make_agent(spec, 4).act(game) == make_agent(spec, 4).act(twin)


def test_mcts_takes_an_immediate_win_before_searching(c4: boardkit.Ruleset) -> None:
    game = c4.new_game(players=2, seed=0)
    for column in (3, 6, 3, 6, 3, 5):
        game.play(str(column))
    # One iteration cannot find it by search: the decisive move is checked first.
    assert game.legal_moves()[MCTSAgent(seed=0, iterations=1).act(game)].label == "3"


def test_mcts_blocks_the_other_players_win(c4: boardkit.Ruleset) -> None:
    game = c4.new_game(players=2, seed=0)
    for column in (0, 6, 0, 6, 0):  # player 0 threatens four in column 0; player 1 has no win
        game.play(str(column))
    for seed in range(2):
        assert game.legal_moves()[MCTSAgent(seed=seed, iterations=300).act(game)].label == "0"


def test_guided_rollouts_find_the_block_too(c4: boardkit.Ruleset) -> None:
    game = c4.new_game(players=2, seed=0)
    for column in (0, 6, 0, 6, 0):
        game.play(str(column))
    agent = MCTSAgent(seed=1, iterations=200, rollout=3, guide=0.5)
    assert game.legal_moves()[agent.act(game)].label == "0"


def test_a_seeded_mcts_agent_plays_the_same_game_again() -> None:
    rules = boardkit.load_ruleset("mandala")

    def play(seed: int) -> list[int]:
        game = rules.new_game(players=2, seed=11)
        agent = MCTSAgent(seed=seed, iterations=12)
        chosen = []
        for _ in range(12):
            chosen.append(agent.act(game))
            game.apply_action(chosen[-1])
        return chosen

    first = play(5)
    assert first == play(5)
    assert first != play(6)


def test_rollouts_stop_after_their_turns(c4: boardkit.Ruleset) -> None:
    """A rollout of two turns leaves two more discs on the board; one of none, a leaf scored as it is."""
    for turns in (0, 2):
        agent = MCTSAgent(seed=0, rollout=turns)
        world = c4.new_game(players=2, seed=0)
        agent._roll_out(world)  # noqa: SLF001 - the bound is the point of the test
        assert len(world.history) == turns


@pytest.mark.parametrize(("spec", "kind"), [("greedy", GreedyAgent), ("greedy:50", GreedyAgent),
                                            ("mcts", MCTSAgent), ("mcts:400", MCTSAgent), ("mcts:2s", MCTSAgent)])
def test_specs_make_agents_with_their_budget(spec: str, kind: type) -> None:
    agent = make_agent(spec, 1)
    assert isinstance(agent, kind)
    if spec == "mcts:2s":
        assert agent.seconds == 2.0
    if spec == "mcts:400":
        assert agent.iterations == 400


@pytest.mark.parametrize("spec", ["mcts:0", "mcts:-3", "mcts:fast", "mcts:nans", "greedy:2s", "greedy:x"])
def test_bad_budgets_are_agent_errors(spec: str) -> None:
    with pytest.raises(boardkit.AgentError, match="budget"):
        make_agent(spec)


def test_a_game_that_repeats_positions_ends_as_stalled() -> None:
    # Chakra's random play ends with only meditation left, repeating one position.
    rules = boardkit.load_ruleset("chakra")
    result = simulate(rules, games=1, players=2, seed=0, stall=30, max_moves=20000)
    record = result.records[0]
    assert record.end_reason == STALLED
    assert record.decisions < 20000
    assert result.summary.end_reasons == {STALLED: 1}


def test_seeded_agent_games_replay_and_do_not_depend_on_jobs(c4: boardkit.Ruleset) -> None:
    def run(jobs: int) -> list[tuple[object, ...]]:
        result = simulate(c4, games=4, players=2, seed=3, jobs=jobs, agents=["greedy:10", "random"], rotate=True)
        return [(r.index, r.seed, r.agents, r.winners, r.decisions, r.end_reason) for r in result.records]

    serial = run(1)
    assert serial == run(2)
    assert [r[2] for r in serial] == [("greedy:10", "random"), ("random", "greedy:10")] * 2


class Faulty:
    name = "faulty"

    def __init__(self, budget: str | None, seed: int) -> None:
        self.calls = 0

    def act(self, game: boardkit.Game) -> int:
        self.calls += 1
        if self.calls == 3:
            msg = "the faulty agent gives up"
            raise RuntimeError(msg)
        return 0


def test_an_agent_that_raises_is_reported_with_seed_and_position(c4: boardkit.Ruleset) -> None:
    from boardkit.agents import register_agent

    register_agent("faulty", Faulty)
    with pytest.raises(SimulationError, match=r"game 0 \(seed 7\): agent 'faulty' \(seat 0\) raised on move 5") as caught:
        simulate(c4, games=1, players=2, seed=7, agents=["faulty", "random"])
    saved = c4.load_game(caught.value.position)
    assert len(saved.history) == 4  # where it failed: replay from there


def test_a_tournament_reports_rates_ratings_and_a_page(c4: boardkit.Ruleset, tmp_path: Path) -> None:
    tour = run_tournament(c4, agents=["greedy:10", "random"], games=6, players=2, seed=1)
    figures = tour.to_dict()
    assert figures["by_agent"]["greedy:10"]["rate"] > figures["by_agent"]["random"]["rate"]
    assert figures["ratings"]["greedy:10"]["rating"] > 0 > figures["ratings"]["random"]["rating"]
    assert sum(figures["end_reasons"].values()) == 6
    page = html_report(figures)
    assert page.count("<svg") == 4
    assert "win rate by agent" in page
    json.loads(json.dumps(figures))


def test_compare_names_significant_differences(c4: boardkit.Ruleset, tmp_path: Path) -> None:
    variant = tmp_path / "short.bk"
    variant.write_text(f'extends "{CONNECT_FOUR}"\n', encoding="utf-8")
    same = compare_rulesets(c4, boardkit.load_ruleset(str(variant)), agents=["random"], games=10, players=2)
    # The same rules from the same seeds: every difference is zero and none is significant.
    assert all(row["difference"] == 0 and not row["significant"] for row in same["rows"])


def test_statistics() -> None:
    low, high = wilson(50, 100)
    assert low < 0.5 < high
    assert high - low == pytest.approx(0.192, abs=0.002)
    strong, weak = bradley_terry([(0, 1, 1.0)] * 30 + [(0, 1, 0.0)] * 10, 2)
    assert strong == pytest.approx(-weak)
    assert strong > 0


def test_the_cli_runs_tournaments_and_lists_agents_on_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["tournament", CONNECT_FOUR, "--agents", "greedy:5,random", "--games", "2", "--json",
                 "--report", "r.html"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 2
    assert (tmp_path / "r.html").read_text(encoding="utf-8").startswith("<!doctype html>")
    assert main(["tournament", CONNECT_FOUR, "--agents", "wizard", "--games", "2"]) == 2
    assert "unknown agent 'wizard'; agents: " in capsys.readouterr().err
    assert main(["simulate", CONNECT_FOUR, "-n", "1", "--agents", "mcts:soon"]) == 2
    assert "bad budget in 'mcts:soon'" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize(("name", "games", "wins"), [("mandala", 10, 9), (CONNECT_FOUR, 10, 9)])
def test_mcts_beats_random(name: str, games: int, wins: int) -> None:
    """The strength the agents page reports, on a few seeds: minutes, not seconds."""
    result = simulate(boardkit.load_ruleset(name), games=games, players=2, seed=900,
                      agents=["mcts:200", "random"], rotate=True)
    won = sum(1 for r in result.records if any(r.agents[w] == "mcts:200" for w in r.winners))
    assert won >= wins
