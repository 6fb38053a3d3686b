"""boardkit.testing and `boardkit test` / `boardkit replay`: what a rule author gets.

The kit passes good rules, and each guarantee it checks fails when the engine is made to
break it (patched here), with a trace that replays.
"""

from __future__ import annotations

import io
import json
import re
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

import boardkit
from boardkit.testing import (
    Checks,
    GuaranteeError,
    RulesetTestError,
    Trace,
    check_rules,
    explore,
    games,
    load_trace,
    move_sequences,
    replay,
)
from boardkit.tools.cli import main

ROOT = Path(__file__).resolve().parents[1]
GO_FISH = ROOT / "examples" / "go_fish.bk"
FEW = Checks(max_decisions=60, every=15)
# Two books for one player break it: a rule bug, as far as the kit can tell.
BROKEN = GO_FISH.read_text(encoding="utf-8") + '\ninvariant "one book at most" for p in players : size(books[p]) <= 4\n'


def broken_rules(tmp_path: Path) -> Path:
    path = tmp_path / "broken_fish.bk"
    path.write_text(BROKEN, encoding="utf-8")
    return path


def run_cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(list(argv))
    return code, out.getvalue()


def test_good_rules_pass_and_the_report_counts_the_games() -> None:
    report = check_rules(str(GO_FISH), games=3, seed=2, checks=Checks(every=25))
    assert report.ok and report.games == 3
    assert report.ended + report.stalled == 3 and report.decisions > 0
    assert "52 cards" in report.invariants


def test_a_broken_invariant_fails_with_a_trace_that_replays(tmp_path: Path) -> None:
    with pytest.raises(RulesetTestError) as info:
        check_rules(str(broken_rules(tmp_path)), games=10, players=2, seed=1,
                    checks=Checks(max_decisions=400, every=1000))
    report = info.value.report
    trace = report.failure
    assert trace is not None and isinstance(report.error, boardkit.InvariantError)
    assert "one book at most" in str(info.value) and trace.players == 2
    assert len(trace.actions) == len(trace.labels) == report.error.decision
    # The message lists the decisions that lead there, one a line.
    assert str(info.value).count("\n") == len(trace.labels) + 1
    with pytest.raises(boardkit.InvariantError):
        for _ in replay(trace):
            pass


@pytest.mark.parametrize(("guarantee", "target", "patch"), [
    # A view that shows the deck's order.
    ("hidden information", "view",
     lambda original: lambda self, p: {**original(self, p), "deck": [c["label"] for c in self.zone("deck")]}),
    # An undo that does nothing.
    ("undo", "undo", lambda original: lambda self: None),
    # A move not offered is let through, unplayed.
    ("atomic", "apply_action", lambda original: lambda self, i: None if not 0 <= i < len(self.legal_actions())
     else original(self, i)),
    # Moves listed twice.
    ("moves", "legal_moves", lambda original: lambda self: original(self) * 2 if not self.is_over else []),
])
def test_each_guarantee_fails_when_the_engine_breaks_it(guarantee: str, target: str, patch: Any,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(boardkit.Game, target, patch(getattr(boardkit.Game, target)))
    report = explore(str(GO_FISH), games=2, players=2, checks=Checks(max_decisions=20, every=1))
    assert isinstance(report.error, GuaranteeError)
    assert report.error.guarantee == guarantee
    assert report.failure is not None and len(report.failure.labels) <= 2


def test_a_game_that_does_not_end_is_reported_stalled_or_fails_if_asked() -> None:
    report = explore(str(GO_FISH), games=2, players=2, checks=Checks(max_decisions=5, every=100))
    assert report.ok and report.stalled == 2 and report.ended == 0
    report = explore(str(GO_FISH), games=2, players=2, checks=Checks(max_decisions=5, every=100, stall_fails=True))
    assert isinstance(report.error, GuaranteeError) and report.error.guarantee == "stalled"


@settings(max_examples=5)
@given(games(str(GO_FISH), players=[2, 3]))
def test_the_games_strategy_starts_checked_games(game: boardkit.Game) -> None:
    assert game.check_invariants and game.players in (2, 3)
    assert game.legal_actions()


@settings(max_examples=5)
@given(move_sequences(str(GO_FISH), players=2, max_decisions=30))
def test_the_move_sequence_strategy_gives_replayable_traces(trace: Trace) -> None:
    assert len(trace.labels) == len(trace.actions) <= 30
    steps = list(replay(trace))
    assert [s.label for s in steps] == list(trace.labels)
    assert [s.number for s in steps] == list(range(1, len(trace.labels) + 1))


def test_boardkit_test_passes_good_rules() -> None:
    code, out = run_cli("test", str(GO_FISH), "--games", "2", "--players", "2", "--every", "50")
    assert code == 0, out
    assert "'52 cards'" in out and out.rstrip().endswith("ok")


def test_boardkit_test_writes_a_trace_that_boardkit_replay_steps_through(tmp_path: Path) -> None:
    trace_path = tmp_path / "fail.json"
    code, out = run_cli("test", str(broken_rules(tmp_path)), "--games", "10", "--players", "2", "--seed", "3",
                        "--every", "1000", "--trace", str(trace_path))
    assert code == 1
    assert re.search(r"game \d+ failed \(\d+ passed before it\); shrunk to \d+ decisions", out)
    assert "invariant 'one book at most' is false" in out
    trace = load_trace(trace_path)
    assert json.loads(trace_path.read_text())["format"] == "boardkit-trace"
    code, out = run_cli("replay", str(trace_path))
    assert code == 1
    assert f"failed at decision {len(trace.labels)}:" in out
    # Every decision before the failing one is listed.
    assert out.count(". player ") == len(trace.labels) - 1


def test_boardkit_replay_steps_through_a_saved_game(tmp_path: Path) -> None:
    rules = boardkit.load_ruleset(str(GO_FISH))
    game = rules.new_game(players=3, seed=5)
    for _ in range(12):
        game.apply_action(0)
    saved = tmp_path / "game.json"
    saved.write_text(game.to_json())
    code, out = run_cli("replay", str(saved), "--rules", str(GO_FISH))
    assert code == 0, out
    assert [line.split(": ", 1)[1] for line in out.splitlines() if ". player " in line] == game.history
    assert "12 decisions replayed; the game goes on" in out
    assert out.count(". player ") == 12


def test_boardkit_test_refuses_a_player_count_the_game_is_not_for() -> None:
    code, _ = run_cli("test", str(GO_FISH), "--players", "9")
    assert code == 1


def _good_trace(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    game = boardkit.load_ruleset(str(GO_FISH)).new_game(players=2, seed=1)
    for _ in range(4):
        game.apply_action(0)
    doc = {"format": "boardkit-trace", "version": 1, "ruleset": str(GO_FISH), "players": 2, "seed": 1,
           "options": {}, "actions": [0] * 4, "labels": list(game.history), "failure": None, "position": None}
    path = tmp_path / "good.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path, doc


@pytest.mark.parametrize(("text", "said"), [
    ('{"format": "boardkit-trace", "seed": ' + "9" * 5000 + "}", "is not a trace or a saved game"),
    ("[" * 100_000, "is not a trace or a saved game"),
    ('{"format": "boardkit-trace", "version": 1, "ruleset": "mandala", "players": 2, "seed": Infinity, '
     '"options": {}, "actions": [], "labels": []}', "'seed' is a whole number, not inf"),
    ('{"format": "boardkit-trace", "version": 1, "ruleset": "mandala", "players": 2.5, "seed": 1, '
     '"options": {}, "actions": [], "labels": []}', "'players' is a whole number"),
])
def test_replay_of_a_damaged_trace_is_a_one_line_error(text: str, said: str, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(boardkit.StateError, match=re.escape(said)):
        load_trace(path)
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1 and "Traceback" not in err


def test_replay_step_on_closed_input_is_a_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    path, _ = _good_trace(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["replay", str(path), "--step"]) == 1
    err = capsys.readouterr().err
    assert "the input is closed" in err and err.count("\n") == 1


def test_a_trace_or_save_of_another_ruleset_is_refused_naming_both(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = _good_trace(tmp_path)
    mandala = boardkit.load_ruleset("mandala")
    with pytest.raises(boardkit.StateError, match="belongs to ruleset 'go_fish'.*not 'mandala'"):
        load_trace(path, mandala)
    with pytest.raises(boardkit.StateError, match="belongs to ruleset 'go_fish'.*not 'mandala'"):
        replay(load_trace(path), mandala)
    # A save names its ruleset and fingerprint.
    game = boardkit.load_ruleset(str(GO_FISH)).new_game(players=2, seed=1)
    game.apply_action(0)
    save = tmp_path / "save.json"
    save.write_text(game.to_json(), encoding="utf-8")
    assert main(["replay", str(save), "--rules", "mandala"]) == 1
    err = capsys.readouterr().err
    assert "belongs to ruleset 'go_fish'" in err and "not 'mandala'" in err and "decision" not in err
    assert main(["replay", str(save), "--rules", str(GO_FISH)]) == 0
    # A new trace records the ruleset's name and fingerprint.
    trace = explore(str(GO_FISH), games=1, players=2, checks=Checks(max_decisions=3, every=100, stall_fails=True)).failure
    assert trace is not None and trace.name == "go_fish" and trace.fingerprint
    trace.save(tmp_path / "new.json")
    assert load_trace(tmp_path / "new.json").fingerprint == trace.fingerprint
    assert main(["replay", str(tmp_path / "new.json"), "--rules", "mandala"]) == 1


@pytest.mark.parametrize(("change", "said"), [
    ({"players": 99}, "go_fish is for 2-5 players, not 99"),
    ({"options": {"zz": 1}}, "unknown option 'zz'"),
])
def test_a_start_the_rules_refuse_is_reported_as_such(change: dict[str, Any], said: str, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path, doc = _good_trace(tmp_path)
    path.write_text(json.dumps({**doc, **change}), encoding="utf-8")
    with pytest.raises(boardkit.StateError, match="the trace's start is not a game of 'go_fish'"):
        replay(load_trace(path))
    code, out = run_cli("replay", str(path))
    err = capsys.readouterr().err
    assert code == 1 and "failed at decision" not in out
    assert "the trace's start is not a game of 'go_fish'" in err and said in err
