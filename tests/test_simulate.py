"""Tests of the random-playout runner: determinism, the move cap, and the summary figures."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import attrs
import pytest

import boardkit
from boardkit.errors import IllegalMove, OptionError
from boardkit.tools.simulate import (
    ABORTED,
    GameRecord,
    RulesetRef,
    SimulationError,
    simulate,
    summarize,
)


# A tiny stand-in game: for `rounds` rounds each player adds 0, 1 or 2 to their score; the
# highest score wins, ties shared. Small enough to reason about, rich enough to tie.


@attrs.define
class FakeMove:
    label: str
    player: int


@attrs.define
class FakeGame:
    players: int
    rounds: int
    fail_at: int | None
    scores_: list[int]
    turn_count: int = 0
    decisions: int = 0

    @property
    def to_move(self) -> int | None:
        return None if self.is_over else self.decisions % self.players

    @property
    def is_over(self) -> bool:
        return self.decisions >= self.rounds * self.players

    @property
    def end_reason(self) -> str | None:
        return "rounds done" if self.is_over else None

    prompt = "add points"
    events = ()

    def legal_moves(self) -> list[FakeMove]:
        return [] if self.is_over else [FakeMove(f"+{n}", self.to_move) for n in range(3)]

    def legal_actions(self) -> list[int]:
        return list(range(len(self.legal_moves())))

    def apply_action(self, action: int) -> None:
        self.play(self.legal_moves()[action])

    def play(self, move: FakeMove | str) -> None:
        label = move if isinstance(move, str) else move.label
        if self.decisions == self.fail_at:
            msg = f"illegal move {label!r}"
            raise IllegalMove(msg)
        self.scores_[self.to_move] += int(label)
        self.decisions += 1
        self.turn_count += 1

    def scores(self) -> list[int]:
        return list(self.scores_)

    def winners(self) -> list[int]:
        best = max(self.scores_)
        return [p for p, score in enumerate(self.scores_) if score == best]


@attrs.define
class FakeRules:
    rounds: int = 3
    fail_at: int | None = None
    name: str = "fake"
    title: str = "Fake race"
    min_players: int = 2
    max_players: int = 4
    options: dict[str, Any] = attrs.Factory(dict)
    source_path: str | None = None
    source_text: str | None = "game \"Fake\""

    def new_game(self, players: int, seed: int, options: dict[str, Any]) -> FakeGame:
        if not self.min_players <= players <= self.max_players:
            msg = f"fake takes 2-4 players, got {players}"
            raise OptionError(msg)
        return FakeGame(players, self.rounds, self.fail_at, [0] * players)


def _timeless(records: tuple[GameRecord, ...]) -> list[GameRecord]:
    return [attrs.evolve(record, seconds=0.0) for record in records]


def test_game_and_agent_seeds_follow_the_index() -> None:
    result = simulate(FakeRules(), games=5, players=2, seed=7)
    assert [r.index for r in result.records] == list(range(5))
    assert [r.seed for r in result.records] == [7, 8, 9, 10, 11]
    assert [r.agent_seed for r in result.records] == [7 * 1_000_003 + i for i in range(5)]
    assert all(r.decisions == 6 and r.turns == 6 for r in result.records)
    assert result.summary.finished == 5
    assert result.summary.end_reasons == {"rounds done": 5}


def test_same_arguments_give_same_records() -> None:
    first = simulate(FakeRules(), games=30, players=3, seed=3)
    second = simulate(FakeRules(), games=30, players=3, seed=3)
    other = simulate(FakeRules(), games=30, players=3, seed=4)
    assert _timeless(first.records) == _timeless(second.records)
    assert _timeless(first.records) != _timeless(other.records)


def test_capped_games_are_aborted_not_scored() -> None:
    result = simulate(FakeRules(rounds=100), games=4, players=2, max_moves=5)
    assert all(r.aborted and r.end_reason == ABORTED for r in result.records)
    assert all(r.decisions == 5 and r.scores is None and r.winners == () for r in result.records)
    summary = result.summary
    assert (summary.finished, summary.aborted) == (0, 4)
    assert summary.mean_scores is None
    assert summary.win_rates is None
    assert summary.mean_turns is None
    assert summary.end_reasons == {ABORTED: 4}


def test_a_game_ending_on_the_last_allowed_move_is_finished() -> None:
    result = simulate(FakeRules(rounds=2), games=2, players=2, max_moves=4)
    assert result.summary.finished == 2


def test_win_rates_sum_to_one_with_shared_wins() -> None:
    result = simulate(FakeRules(rounds=1), games=200, players=3, seed=1)
    assert any(len(r.winners) > 1 for r in result.records), "the fake should produce ties"
    assert result.summary.win_rates is not None
    assert sum(result.summary.win_rates) == pytest.approx(1.0)


def test_summary_figures() -> None:
    def record(
        index: int, turns: int, scores: tuple[int, ...] | None, winners: tuple[int, ...]
    ) -> GameRecord:
        reason = "done" if scores is not None else ABORTED
        return GameRecord(index, index, index, turns * 2, turns, scores, winners, reason, 0.1)

    records = [
        record(0, 10, (3, 1), (0,)),
        record(1, 20, (2, 2), (0, 1)),
        record(2, 60, (0, 5), (1,)),
        record(3, 99, None, ()),
    ]
    summary = summarize(records, players=2, wall_seconds=2.0)
    assert (summary.games, summary.finished, summary.aborted) == (4, 3, 1)
    assert summary.games_per_second == 2.0
    assert summary.mean_turns == 30.0
    assert summary.median_turns == 20.0
    assert summary.mean_decisions == 60.0
    assert summary.mean_scores == pytest.approx((5 / 3, 8 / 3))
    assert summary.win_rates == pytest.approx((0.5, 0.5))
    assert summary.end_reasons == {"done": 3, ABORTED: 1}


def test_progress_reports_every_game() -> None:
    calls: list[tuple[int, int]] = []
    simulate(FakeRules(), games=3, players=2, progress=lambda *args: calls.append(args))
    assert calls == [(1, 3), (2, 3), (3, 3)]


def test_a_failing_game_names_its_index_and_seed() -> None:
    expected = r"game 0 \(seed 5\) failed on move 3: illegal"
    with pytest.raises(SimulationError, match=expected) as info:
        simulate(FakeRules(fail_at=2), games=3, players=2, seed=5)
    assert (info.value.index, info.value.seed) == (0, 5)
    assert isinstance(info.value.__cause__, IllegalMove)
    copy = pickle.loads(pickle.dumps(info.value))
    assert (str(copy), copy.index, copy.seed) == (str(info.value), 0, 5)


def test_bad_arguments_fail_before_any_game() -> None:
    with pytest.raises(OptionError, match="2-4 players"):
        simulate(FakeRules(), games=3, players=9)
    with pytest.raises(ValueError, match="games must be at least 0"):
        simulate(FakeRules(), games=-1, players=2)
    with pytest.raises(ValueError, match="max_moves must be at least 1"):
        simulate(FakeRules(), games=1, players=2, max_moves=0)


def test_ruleset_reference_prefers_the_file() -> None:
    assert RulesetRef.of(FakeRules(source_path="/x/y.bk")) == RulesetRef(path="/x/y.bk")
    assert RulesetRef.of(FakeRules()) == RulesetRef(text='game "Fake"', filename="fake.bk")


def test_result_to_dict_is_json_shaped() -> None:
    data = simulate(FakeRules(), games=2, players=2, options={}).to_dict()
    assert data["summary"]["games"] == 2
    assert [game["index"] for game in data["games"]] == [0, 1]
    assert isinstance(data["games"][0]["scores"], list)


# The bundled Mandala on the real engine.


def test_mandala_results_do_not_depend_on_jobs() -> None:
    rules = boardkit.load_ruleset("mandala")
    serial = simulate(rules, games=6, players=2, seed=11, jobs=1)
    parallel = simulate(rules, games=6, players=2, seed=11, jobs=2)
    assert parallel.jobs == 2
    assert _timeless(serial.records) == _timeless(parallel.records)
    assert serial.summary.finished == 6


def test_parsed_mandala_runs_in_workers_from_its_text() -> None:
    path = boardkit.load_ruleset("mandala").source_path
    with open(path, encoding="utf-8") as file:
        rules = boardkit.parse_ruleset(file.read(), filename="copy.bk")
    serial = simulate(rules, games=2, players=2, seed=2)
    parallel = simulate(rules, games=2, players=2, seed=2, jobs=2)
    assert _timeless(serial.records) == _timeless(parallel.records)


def test_mandala_tiny_cap_aborts_every_game() -> None:
    rules = boardkit.load_ruleset("mandala")
    result = simulate(rules, games=3, players=2, max_moves=3)
    assert result.summary.aborted == 3
    assert result.summary.end_reasons == {ABORTED: 3}


def test_mandala_win_rates_sum_to_one() -> None:
    rules = boardkit.load_ruleset("mandala")
    result = simulate(rules, games=10, players=2, seed=1)
    assert result.summary.finished == 10
    assert result.summary.win_rates is not None
    assert sum(result.summary.win_rates) == pytest.approx(1.0)
    assert all(len(r.scores or ()) == 2 and r.turns > 0 for r in result.records)


# The third option sends the rules into a loop that never decides; which games take it
# depends on the agents' seeds.
TRAP = (Path(__file__).parent / "rules" / "runaway.bk").read_text(encoding="utf-8")


def test_a_runaway_ruleset_reports_the_first_failing_game_whatever_the_jobs() -> None:
    rules = boardkit.parse_ruleset(TRAP, filename="trap.bk")
    failures = []
    for jobs in (1, 2):
        with pytest.raises(SimulationError, match=r"on move 1: trap.bk:\d+:\d+: ") as info:
            simulate(rules, games=20, players=2, seed=2, jobs=jobs)
        failures.append((info.value.index, info.value.seed, str(info.value)))
    assert failures[0] == failures[1]
    index = failures[0][0]
    assert failures[0][1] == 2 + index
    # The games before the failing one finish on their own.
    assert simulate(rules, games=index, players=2, seed=2).summary.finished == index


def test_a_failure_in_a_game_this_process_plays_is_the_one_a_serial_run_reports() -> None:
    """With seed 7 games 0 and 1 finish and game 2 fails: with `jobs=2` the first two chunks go to
    the worker, and this process plays game 2 itself while the worker starts.
    """
    rules = boardkit.parse_ruleset(TRAP, filename="trap.bk")
    reported = []
    for jobs in (1, 2):
        with pytest.raises(SimulationError) as info:
            simulate(rules, games=20, players=2, seed=7, jobs=jobs)
        reported.append((info.value.index, info.value.seed, str(info.value)))
    assert reported[0] == reported[1]
    assert reported[0][:2] == (2, 9)


def test_a_parsed_variant_of_a_file_beside_it_runs_in_worker_processes(tmp_path: Path) -> None:
    """Workers parse the variant's text again under its file name, so `extends` still resolves."""
    base = Path(boardkit.load_ruleset("mandala").source_path).read_text(encoding="utf-8")
    (tmp_path / "base.bk").write_text(base, encoding="utf-8")
    variant = tmp_path / "bigger_hand.bk"
    text = 'extends "base.bk"\noption hand_limit = 99 from [8, 99]\n'
    variant.write_text(text, encoding="utf-8")
    rules = boardkit.parse_ruleset(text, filename=str(variant))
    result = simulate(rules, games=4, players=2, seed=1, jobs=2)
    assert [r.index for r in result.records] == [0, 1, 2, 3]
    assert not any(r.aborted for r in result.records)
    assert result.jobs == 2


@pytest.mark.parametrize("jobs", [1, 2])
def test_on_game_sees_every_record_once(jobs: int) -> None:
    seen: list[int] = []
    result = simulate(boardkit.load_ruleset("mandala"), games=4, players=2, jobs=jobs,
                      on_game=lambda record: seen.append(record.index))
    assert sorted(seen) == [r.index for r in result.records] == [0, 1, 2, 3]


def test_jobs_counts_this_process_among_those_that_play() -> None:
    """`jobs=3` starts two workers: this process, already loaded, plays games too."""
    import multiprocessing  # noqa: PLC0415

    workers: list[int] = []
    result = simulate(boardkit.load_ruleset("mandala"), games=40, players=2, seed=5, jobs=3,
                      on_game=lambda _record: workers.append(len(multiprocessing.active_children())))
    assert max(workers) == 2  # jobs - 1
    assert _timeless(result.records) == _timeless(simulate(boardkit.load_ruleset("mandala"), games=40,
                                                            players=2, seed=5).records)


def _children(parent: int) -> list[int]:
    """The processes whose parent is `parent`, read from /proc."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == parent:
                out.append(int(entry.name))
    return out


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie left for its new parent to reap does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
def test_workers_end_when_the_simulation_is_killed() -> None:
    """A parent stopped by SIGTERM cannot shut its pool down: its workers see it gone and stop."""
    import signal  # noqa: PLC0415
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415
    import time  # noqa: PLC0415

    parent = subprocess.Popen([sys.executable, "-m", "boardkit", "simulate", "mandala", "-n", "2000", "-j", "3"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        workers: list[int] = []
        for _ in range(600):  # a guard on the start of two spawned workers, not a timing
            workers = [pid for pid in _children(parent.pid) if b"spawn_main" in _cmdline(pid)]
            if len(workers) >= 2:  # the two workers of -j 3 (the parent plays too)
                break
            time.sleep(0.05)
        assert len(workers) >= 2, "the workers never started"
        parent.send_signal(signal.SIGTERM)
        parent.wait()
        for _ in range(600):  # a guard: workers look for their parent every half second
            if not any(_alive(pid) for pid in workers):
                break
            time.sleep(0.05)
        assert not any(_alive(pid) for pid in workers)
    finally:
        if parent.poll() is None:
            parent.kill()
