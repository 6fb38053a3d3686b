"""Tests of the command line, run in-process through ``main``."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import attrs
import pytest

import boardkit
from boardkit.tools.cli import main, parse_option_value, render_view
from boardkit.errors import OptionError


# A stand-in ruleset for the command plumbing: two rounds, each player picks a colour.


@attrs.frozen
class FakeOption:
    name: str
    default: Any
    choices: list[Any] | None = None
    doc: str = ""


@attrs.frozen
class FakeMove:
    label: str
    player: int


@attrs.define
class FakeGame:
    players: int
    options: dict[str, Any]
    picks: list[list[str]]
    turn_count: int = 0
    prompt: str = "pick a colour"
    events: tuple[()] = ()

    @property
    def to_move(self) -> int | None:
        return None if self.is_over else self.turn_count % self.players

    @property
    def is_over(self) -> bool:
        return self.turn_count >= 2 * self.players

    @property
    def end_reason(self) -> str | None:
        return "two rounds" if self.is_over else None

    def legal_moves(self) -> list[FakeMove]:
        return [FakeMove(c, self.to_move) for c in ("red", "green[1]")] if not self.is_over else []

    def legal_actions(self) -> list[int]:
        return list(range(len(self.legal_moves())))

    def apply_action(self, action: int) -> None:
        self.play(self.legal_moves()[action])

    def play(self, move: FakeMove | str) -> None:
        self.picks[self.to_move].append(move if isinstance(move, str) else move.label)
        self.turn_count += 1

    def scores(self) -> list[int]:
        return [sum(pick == "red" for pick in picks) for picks in self.picks]

    def winners(self) -> list[int]:
        best = max(self.scores())
        return [p for p, score in enumerate(self.scores()) if score == best]

    def view(self, player: int) -> dict[str, Any]:
        return {
            "zones": {"picks[0]": [{"label": p} for p in self.picks[player]], "deck": {"count": 4}},
            "vars": {"limit": self.options.get("limit", 3), "rule[1]": True},
            "to_move": self.to_move,
            "legal_moves": [m.label for m in self.legal_moves()],
        }


@attrs.define
class FakeRules:
    name: str = "fake"
    title: str = "Fake colours"
    min_players: int = 2
    max_players: int = 3
    options: dict[str, FakeOption] = attrs.Factory(
        lambda: {"limit": FakeOption("limit", 3, [3, 5], "How many rounds are played."),
                 "mode": FakeOption("mode", "open")}
    )
    source_path: str | None = None
    source_text: str = 'game "Fake"'
    seen_options: list[dict[str, Any]] = attrs.Factory(list)

    def new_game(self, players: int, seed: int, options: dict[str, Any]) -> FakeGame:
        if not 2 <= players <= 3:
            msg = f"fake takes 2-3 players, got {players}"
            raise OptionError(msg)
        self.seen_options.append(dict(options))
        return FakeGame(players, dict(options), [[] for _ in range(players)])


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> FakeRules:
    rules = FakeRules()
    monkeypatch.setattr(boardkit, "list_rulesets", lambda: ["fake"], raising=False)
    monkeypatch.setattr(boardkit, "load_ruleset", lambda ref: rules, raising=False)
    return rules


def _stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))


# Plumbing, with the stand-in ruleset.


def test_option_values_are_converted() -> None:
    assert parse_option_value("12") == 12
    assert parse_option_value("-3") == -3
    assert parse_option_value("TRUE") is True
    assert parse_option_value("false") is False
    assert parse_option_value("1.5") == "1.5"
    assert parse_option_value("red") == "red"


def test_options_reach_the_game(fake: FakeRules, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "fake", "--games", "2", "--json", "-o", "limit=5", "-o", "mode=7"])
    assert code == 0
    # A string option keeps a numeric-looking value as text.
    assert fake.seen_options[-1] == {"limit": 5, "mode": "7"}
    assert json.loads(capsys.readouterr().out)["options"] == {"limit": 5, "mode": "7"}


def test_unknown_option_lists_the_declared_ones(
    fake: FakeRules, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", "fake", "--games", "1", "-o", "speed=2"]) == 1
    err = capsys.readouterr().err
    assert "unknown option 'speed'" in err
    assert "limit, mode" in err


def test_bad_usage_exits_2(fake: FakeRules, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "fake", "--games", "0"]) == 2
    assert main(["simulate", "fake", "--games", "1", "-o", "limit"]) == 2
    assert main(["play", "fake", "--seat", "2"]) == 2
    assert main([]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_engine_errors_are_messages(fake: FakeRules, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "fake", "--games", "1", "--players", "5"]) == 1
    err = capsys.readouterr().err
    assert "boardkit: error: fake takes 2-3 players, got 5" in err
    assert "Traceback" not in err


def test_simulate_table(fake: FakeRules, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "fake", "--games", "25", "--players", "3"]) == 0
    out = capsys.readouterr().out
    assert "games per second" in out
    assert "end reasons" in out
    assert "two rounds" in out


def test_list_shows_options(fake: FakeRules, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "Fake colours" in out
    assert "2-3" in out
    assert "limit=3 (3, 5)" in out
    assert "  How many rounds are played." in out  # its doc comment, under it
    assert "mode=open" in out


def test_play_shows_the_view_and_finishes(
    fake: FakeRules, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # An out-of-range number and an unknown word are refused; a label works like a number.
    _stdin(monkeypatch, "9\nnope\ngreen[1]\n1\n")
    assert main(["play", "fake", "--players", "2"]) == 0
    out = capsys.readouterr().out
    assert "picks[0]" in out and "(4) hidden" in out
    assert "rule[1]  true" in out
    assert "pick a colour:" in out and "1. red" in out and "2. green[1]" in out
    assert "no move '9'" in out and "no move 'nope'" in out
    assert "game over: two rounds" in out
    assert "player 0: 1 (you)" in out


def test_play_leaves_cleanly_at_end_of_input(
    fake: FakeRules, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, "1\n")
    assert main(["play", "fake", "--seat", "1"]) == 0
    out = capsys.readouterr().out
    assert "leaving the game" in out
    assert "game over" not in out


def test_render_view_of_hidden_and_listed_zones() -> None:
    view = {"zones": {"deck": {"count": 0}, "hand": ["a", "b"], "row": []}, "vars": {"n": 3}}
    assert render_view(view) == [
        "zones:",
        "  deck  empty",
        "  hand  (2) a, b",
        "  row   empty",
        "vars:",
        "  n  3",
    ]


# The bundled Mandala on the real engine.


def test_list_shows_mandala(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # the doc comments on one line each
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "mandala" in out
    assert "Mandala" in out
    assert "hand_limit=8 (8, 0)" in out
    assert "The hand limit for mountain draws" in out


def test_an_option_s_doc_is_the_comment_right_above_it() -> None:
    rules = boardkit.parse_ruleset(
        'game "g"\nplayers 2\n# Not this one: a blank line follows.\n\n# How many rounds\n  # are played.\n'
        'option rounds = 3 from [3, 5]\noption fast = false\nplay { end game "x" }\nscore p = rounds\n')
    assert rules.options["rounds"].doc == "How many rounds are played."
    assert rules.options["fast"].doc == ""


def test_check_good_and_broken_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = Path(boardkit.load_ruleset("mandala").source_path).read_text(encoding="utf-8")
    good = tmp_path / "good.bk"
    good.write_text(source, encoding="utf-8")
    # An unknown name on a line of its own at the end: its line number is known.
    broken = tmp_path / "broken.bk"
    broken.write_text(source.rstrip("\n") + "\nconst broken = no_such_name + 1\n", encoding="utf-8")
    line = len(source.rstrip("\n").splitlines()) + 1

    assert main(["check", str(good)]) == 0
    assert f"ok {good}" in capsys.readouterr().out

    assert main(["check", str(good), str(broken)]) == 1
    captured = capsys.readouterr()
    assert f"ok {good}" in captured.out
    assert f"{broken}:{line}:16:" in captured.err
    assert "no_such_name" in captured.err
    assert "^" in captured.err
    assert "Traceback" not in captured.err


def test_simulate_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "mandala", "--games", "3", "--players", "2", "--seed", "4", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["games"]) == 3
    assert data["summary"]["games"] == 3
    assert [game["seed"] for game in data["games"]] == [4, 5, 6]
    assert data["summary"]["finished"] + data["summary"]["aborted"] == 3


def test_play_mandala_with_scripted_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, "1\n" * 400)
    assert main(["play", "mandala", "--players", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "game over" in out or "leaving the game" in out
    assert "1. " in out


def test_unknown_ruleset_lists_bundled_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "no_such_game", "--games", "1"]) == 1
    err = capsys.readouterr().err
    assert "unknown ruleset 'no_such_game'" in err
    assert "mandala" in err
    assert "Traceback" not in err


def test_missing_file_is_a_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(tmp_path / "nope.bk")]) == 1
    assert "no such file" in capsys.readouterr().err


def test_python_dash_m_runs_the_cli() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "boardkit", "simulate", "mandala", "-n", "2", "-j", "2", "--json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,  # an outer guard against a hang only, far beyond any busy machine
    )
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["games"]) == 2


def test_version_and_help_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert main(["simulate", "--help"]) == 0
    assert "--games" in capsys.readouterr().out


def test_check_accepts_bundled_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", *boardkit.list_rulesets()]) == 0
    assert "ok mandala" in capsys.readouterr().out


RUNAWAY = (Path(__file__).parent / "rules" / "runaway.bk").read_text(encoding="utf-8")


def test_a_runtime_rule_error_names_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "runaway.bk"
    path.write_text(RUNAWAY, encoding="utf-8")
    kept = tmp_path / "kept"
    kept.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(kept))  # the failed game's position goes here
    # With seed 1 the agent of game 0 takes the runaway branch at once.
    assert main(["simulate", str(path), "--games", "3", "--seed", "1"]) == 1
    err = capsys.readouterr().err
    assert f"game 0 (seed 1) failed on move 1: {path}:" in err
    assert "Traceback" not in err
    # The position it failed in is saved, named in the message, and loads.
    (saved,) = kept.glob("boardkit-failed-seed1-*.json")
    assert str(saved) in " ".join(err.split())
    rules = boardkit.load_ruleset(str(path))
    assert not rules.load_game(saved.read_text(encoding="utf-8")).is_over


def test_compile_prints_the_generated_module_pointing_at_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compile", "mandala"]) == 0
    source = capsys.readouterr().out
    compile(source, "mandala.py", "exec")  # valid Python
    assert "def P_take_turn(s, F, probe):" in source
    # Each statement names the rule it comes from, by file:line:col.
    assert re.search(r"#@ \d+ \S*mandala\.bk:\d+:\d+", source)


def test_compile_writes_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mandala_rules.py"
    assert main(["compile", "mandala", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == boardkit.load_ruleset("mandala").python_source
    assert "wrote" in capsys.readouterr().out


def test_compile_of_an_unknown_ruleset_fails_cleanly(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compile", "nosuch"]) == 1
    assert "unknown ruleset 'nosuch'" in capsys.readouterr().err


def test_play_has_help_score_and_undo(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _stdin(monkeypatch, "undo\nhelp\nscore\n1\n1\n1\nundo\nq\n")
    assert main(["play", "mandala", "--players", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "nothing of yours to undo" in out
    assert "'undo' takes back your last move" in out
    assert "scores: player 0: 0, player 1: 0" in out
    assert "took back" in out
    assert "leaving the game" in out


def test_simulate_warns_as_soon_as_a_game_is_cut_at_the_cap(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "chakra", "--games", "2", "--players", "2", "--max-moves", "50"]) == 0
    err = capsys.readouterr().err
    assert err.count("warning: game 0 did not end within 50 moves") == 1
    assert main(["simulate", "mandala", "--games", "2", "--players", "2"]) == 0
    assert "warning" not in capsys.readouterr().err
