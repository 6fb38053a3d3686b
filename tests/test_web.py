"""The web app's API: hidden information per seat, tokens and refusals, undo, saves, replays, reloads."""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="the web extra (httpx) is not installed")
with warnings.catch_warnings():  # this starlette would rather drive httpx2; httpx serves the tests as well
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import boardkit
from boardkit.tools.cli import load, main
from boardkit.tools.simulate import AGENT_SEED_FACTOR, simulate
from boardkit.tools.web.app import create_app
from boardkit.tools.web.command import build_table
from boardkit.tools.web.table import SEED_BELOW, Table

ROOT = Path(__file__).resolve().parents[1]


def _table(name: str, seats: list[str], seed: int = 1, *, watch: bool = False) -> tuple[Table, TestClient]:
    table = Table(boardkit.load_ruleset(name), seats=seats, seed=seed, watch=watch, loader=boardkit.load_ruleset)
    return table, TestClient(create_app(table))


def _get(client: TestClient, token: str, view: str = "all") -> dict:
    response = client.get(f"/api/state?view={view}", headers={"X-Token": token})
    assert response.status_code == 200, response.text
    return response.json()


def _post(client: TestClient, path: str, token: str, body: object) -> object:
    return client.post(path, headers={"X-Token": token}, content=body if isinstance(body, (str, bytes))
                       else json.dumps(body))


def _labels(view_zone: object) -> set[str]:
    if isinstance(view_zone, dict):
        return {p["label"] for p in view_zone.get("known", [])}
    return {p["label"] for p in view_zone}


def _mentions(labels: set[str], text: str) -> set[str]:
    """The labels that `text` names as whole words."""
    if not labels:
        return set()
    pattern = "|".join(re.escape(label) for label in sorted(labels, key=len, reverse=True))
    return set(re.findall(rf"(?<![\w-])(?:{pattern})(?![\w-])", text))


@pytest.mark.parametrize(("name", "moves"), [("ananda", 60), ("meenakshi", 30)])
def test_a_seat_receives_no_label_it_may_not_know(name: str, moves: int) -> None:
    # Both seats human: every payload of both seats is checked along one game. A label is
    # unknown to seat p if it lies in a zone hidden from p and p has never seen a piece so labelled.
    table, client = _table(name, ["human", "human"], seed=5)
    rng = random.Random(5)
    seen: list[set[str]] = [set(), set()]
    checked = 0
    for _ in range(moves):
        game = table.game
        full = game.zones()
        host_text = json.dumps(_get(client, table.host_token))
        for seat in (0, 1):
            view = game.view(seat)
            for zone in view["zones"].values():
                seen[seat] |= _labels(zone)
            unknown = {p["label"] for text, zone in view["zones"].items() if isinstance(zone, dict)
                       for p in full[text]} - seen[seat]
            leaked = _mentions(unknown, json.dumps(_get(client, table.seat_tokens[seat])))
            assert not leaked, f"seat {seat} was sent {leaked}, hidden from it"
            # The same search finds them in what the host, who sees everything, is sent.
            assert _mentions(unknown, host_text) == unknown
            checked += len(unknown)
        state = json.loads(host_text)
        if state["is_over"]:
            break
        response = _post(client, "/api/move", table.seat_tokens[state["to_move"]],
                         {"version": state["version"], "move": rng.choice(state["moves"])})
        assert response.status_code == 200, response.text
    assert checked > 100  # many hidden labels were looked for, so the check could have failed


SECRET = """game "Secret stones"
players 2

enum Kind { gem, rock }
component Stone { kind: Kind } label .kind

zone hand[Player]: pile, owner
zone pocket[Player]: pile, owner
zone vault: pile, hidden

setup {
  create 1 Stone(kind: gem) into hand[0]
  create 1 Stone(kind: gem) into pocket[0]
  create 1 Stone(kind: rock) into hand[1]
  create 1 Stone(kind: rock) into pocket[1]
}

play {
  let p = 0
  loop {
    turn p {
      choose s from concat([hand[p], pocket[p]]) prompt "stone to hide"
      move 1 of [s] to vault
    }
    if empty(hand[1]) and empty(pocket[1]) {
      end game "all hidden"
    }
    set p = next(p)
  }
}
"""


def test_a_choice_told_apart_by_its_zone_stays_hidden(tmp_path: Path) -> None:
    # Two gems offered from two zones are labelled "gem from hand[0]" and "gem from pocket[0]".
    path = tmp_path / "secret.bk"
    path.write_text(SECRET, encoding="utf-8")
    table, client = _table(str(path), ["human", "human"])
    state = _get(client, table.seat_tokens[0])
    assert state["moves"] == ["gem from hand[0]", "gem from pocket[0]"]
    assert state["targets"]["gem from hand[0]"] == {"kind": "piece", "zone": "hand[0]", "label": "gem"}
    _post(client, "/api/move", table.seat_tokens[0], {"version": state["version"], "move": "gem from hand[0]"})
    log = _get(client, table.seat_tokens[1])["log"]
    assert "player 0, stone to hide: (hidden)" in log
    assert "gem" not in json.dumps(_get(client, table.seat_tokens[1]))
    assert "player 0, stone to hide: gem from hand[0]" in _get(client, table.seat_tokens[0])["log"]


def test_refusals_are_4xx_with_the_library_message() -> None:
    table, client = _table("ananda", ["human", "human"])
    state = _get(client, table.host_token)
    version, decider = state["version"], state["to_move"]
    other = 1 - decider
    legal = state["moves"][0]
    cases = [
        ("nobody", {"version": version, "move": legal}, 403, "unknown token"),
        ("", {"version": version, "move": legal}, 403, "unknown token"),
        (table.seat_tokens[other], {"version": version, "move": legal}, 403, f"player {decider} decides now"),
        (table.seat_tokens[decider], {"version": version - 1, "move": legal}, 409, "stale request"),
        (table.seat_tokens[decider], {"version": version, "move": "no such move"}, 409, "is not a legal move"),
        (table.seat_tokens[decider], '{"version": 0, "move": ', 400, "malformed JSON"),
        (table.seat_tokens[decider], "[1, 2]", 400, "a JSON object, not list"),
        (table.seat_tokens[decider], {"version": "0", "move": legal}, 400, "an integer, not '0'"),
        (table.seat_tokens[decider], {"version": version, "move": 3}, 400, "a string, not 3"),
    ]
    for token, body, status, message in cases:
        response = _post(client, "/api/move", token, body)
        assert response.status_code == status, (body, response.text)
        assert message in response.json()["error"]
        assert "Traceback" not in response.text
    # Host-only requests from a seat, and a game left unchanged by all of the above.
    assert _post(client, "/api/new", table.seat_tokens[0], {"version": version}).status_code == 403
    assert client.get("/api/save", headers={"X-Token": table.seat_tokens[0]}).status_code == 403
    assert client.get("/api/state?view=1", headers={"X-Token": table.seat_tokens[0]}).json()["viewpoint"] == 0
    assert client.get("/api/state?view=x", headers={"X-Token": table.host_token}).status_code == 400
    assert _get(client, table.host_token)["version"] == version
    assert table.game.history == []


def test_a_move_lets_agents_play_and_the_host_alone_undoes() -> None:
    table, client = _table("mandala", ["human", "random"], seed=2)
    token = table.seat_tokens[0]
    state = _get(client, token)
    assert state["to_move"] == 0
    assert state["moves"]
    for _ in range(6):  # enough for the agent to have played between the seat's decisions
        state = _post(client, "/api/move", token, {"version": state["version"], "move": state["moves"][0]}).json()
        assert state["to_move"] == 0
    before = len(table.game.history)
    agent_moves = [e for e in table.game.events if type(e).__name__ == "Chose" and e.player == 1]
    assert agent_moves, "the random seat played"
    # A seat may not undo: it would take back others' decisions and see a draw made again.
    history = list(table.game.history)
    refused = _post(client, "/api/undo", token, {"version": state["version"]})
    assert refused.status_code == 403
    assert refused.json()["error"] == "only the table's host may undo decisions; seat 0 may not"
    assert table.game.history == history
    undone = _post(client, "/api/undo", table.host_token, {"version": state["version"]}).json()
    assert undone["to_move"] == 0
    assert undone["decisions"] < before
    assert undone["moves"]


def test_save_then_load_replays_from_any_seat() -> None:
    table, client = _table("ananda", ["human", "random"], seed=3)
    token, host = table.seat_tokens[0], table.host_token
    state = _get(client, token)
    for _ in range(8):
        state = _post(client, "/api/move", token, {"version": state["version"], "move": state["moves"][-1]}).json()
    saved = client.get("/api/save", headers={"X-Token": host}).text
    final = json.dumps(table.game.view(1), sort_keys=True)
    history = list(table.game.history)
    loaded = _post(client, "/api/load", host, saved).json()
    assert loaded["replay"] == {"step": len(history), "steps": len(history)}
    # Step back to the start and forward again; every step's seat view is that seat's view.
    for step in (0, 3, len(history) - 1, len(history)):
        state = _post(client, "/api/replay/step?view=1", host, {"step": step}).json()
        assert state["replay"]["step"] == step
        assert state["viewpoint"] == 1
        assert state["decisions"] == step
        assert state["moves"] == []  # a replay is watched, not played
    assert json.dumps(table.replay.game.view(1), sort_keys=True) == final
    # A bad save is a 422 with the library's message.
    bad = _post(client, "/api/load", host, '{"format_version": 1}')
    assert bad.status_code == 422
    assert "Traceback" not in bad.text
    # Seats go on seeing the table, not the host's replay.
    assert client.get("/api/state", headers={"X-Token": token}).json()["decisions"] == len(history)
    _post(client, "/api/replay/step", host, {"step": 2})
    assert "replay" not in _get(client, token)
    assert _get(client, token)["decisions"] == len(history)
    # Play on from the middle of the replay.
    _post(client, "/api/replay/step", host, {"step": 4})
    state = _post(client, "/api/replay/close", host, {"play_on": True}).json()
    assert "replay" not in state
    assert table.game.history[:4] == history[:4]


def test_a_simulation_record_replays_its_game() -> None:
    rules = boardkit.load_ruleset("mandala")
    result = simulate(rules, games=2, players=2, seed=7)
    record = result.records[1]
    table, client = _table("mandala", ["human", "random"])
    run = {**result.to_dict(), "index": 1}
    state = _post(client, "/api/load", table.host_token, json.dumps(run)).json()
    assert state["replay"]["steps"] == record.decisions
    assert state["is_over"]
    assert tuple(state["scores"]) == record.scores
    state = _post(client, "/api/replay/step", table.host_token, {"step": 0}).json()
    assert state["decisions"] == 0
    assert not state["is_over"]


def test_watch_shows_rule_errors_and_reloads(tmp_path: Path) -> None:
    path = tmp_path / "c4.bk"
    shutil.copy(ROOT / "benchmarks" / "connect_four.bk", path)
    table, client = _table(str(path), ["human", "human"], watch=True)
    state = _get(client, table.host_token)
    _post(client, "/api/move", table.host_token, {"version": state["version"], "move": state["moves"][0]})
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("var winner = none", "var winner = nonee"), encoding="utf-8")
    os.utime(path, (1, 1))
    state = _get(client, table.host_token)
    assert state["rule_error"] is not None
    assert re.search(r"c4\.bk:\d+:\d+: ", state["rule_error"])
    assert "^" in state["rule_error"]
    assert state["decisions"] == 1  # the game stays as it was
    path.write_text(text.replace('game "Connect Four"', 'game "Connect Four, edited"'), encoding="utf-8")
    os.utime(path, (2, 2))
    state = _get(client, table.host_token)
    assert state["rule_error"] is None
    assert state["title"] == "Connect Four, edited"
    assert state["decisions"] == 1
    assert "1 of 1 decisions played again" in state["notice"]


def test_serve_command_checks_its_seats(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "mandala", "--seats", "human,wizard"]) == 1
    assert "unknown seat 'wizard'" in capsys.readouterr().err
    assert main(["serve", "--help"]) == 0
    assert "--watch" in capsys.readouterr().out


def test_the_host_starts_a_new_game_of_other_rules() -> None:
    table, client = _table("mandala", ["human", "random"])
    state = _get(client, table.host_token)
    state = _post(client, "/api/new", table.host_token, {"version": state["version"], "ruleset": "ananda",
                                                          "seed": 9}).json()
    assert (state["ruleset"], state["seed"], state["players"]) == ("ananda", 9, 2)
    assert any(zone.get("grid") for zone in state["zones"])
    refused = _post(client, "/api/new", table.host_token, {"version": state["version"], "ruleset": "nonesuch"})
    assert refused.status_code == 400
    assert "no bundled ruleset 'nonesuch'" in refused.json()["error"]


def _keys(data: object) -> set[str]:
    """Every key of every JSON object in `data`, however deep."""
    if isinstance(data, dict):
        return set(data).union(*(_keys(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(_keys(v) for v in data))
    return set()


@pytest.mark.parametrize("name", ["chakra", "ananda", "meenakshi", str(ROOT / "examples" / "go_fish.bk")])
def test_no_seat_is_sent_the_seed(name: str) -> None:
    # With the seed a seat would deal the game again and read every hidden zone and the deck.
    seed = 918_273_645
    table, client = _table(name, ["human", "random", "human"], seed=seed)
    secrets_ = {str(seed), *(str(seed * AGENT_SEED_FACTOR + p) for p in range(3))}
    assert _get(client, table.host_token)["seed"] == seed  # the host sees it
    rng = random.Random(1)
    answers = 0
    for _ in range(6):
        for seat in (0, 2):
            token = table.seat_tokens[seat]
            state = _get(client, token)
            version = state["version"]
            responses = [
                client.get("/api/state", headers={"X-Token": token}),
                client.get("/api/save", headers={"X-Token": token}),
                _post(client, "/api/load", token, table.game.to_json()),
                _post(client, "/api/replay", token, {}),
                _post(client, "/api/replay/step", token, {"step": 0}),
                _post(client, "/api/undo", token, {"version": version}),
                _post(client, "/api/new", token, {"version": version}),
                _post(client, "/api/agent", token, {"version": version}),
                _post(client, "/api/move", token, {"version": version - 1, "move": "x"}),
                _post(client, "/api/move", token, {"version": version, "move": "no such move"}),
            ]
            for response in responses:
                text = response.text
                assert not any(s in text for s in secrets_), (name, response.request.url, text[:200])
                assert "seed" not in _keys(response.json()), (name, response.request.url)
                answers += 1
            if state["moves"]:
                moved = _post(client, "/api/move", token, {"version": version, "move": rng.choice(state["moves"])})
                assert moved.status_code == 200, moved.text
    assert answers == 6 * 2 * 10


def test_a_table_without_a_seed_gets_a_fresh_one(capsys: pytest.CaptureFixture[str]) -> None:
    args = argparse.Namespace(ruleset="mandala", seats="human,random", players=None, seed=None, option=[],
                              watch=False)
    seeds = {build_table(args, load).seed for _ in range(3)}
    assert len(seeds) == 3  # not 0, nor any other fixed seed
    assert all(0 <= s < SEED_BELOW for s in seeds)
    assert build_table(argparse.Namespace(**{**vars(args), "seed": 7}), load).seed == 7
    table, client = _table("mandala", ["human", "random"])
    first = table.seed
    state = _post(client, "/api/new", table.host_token, {"version": table.version}).json()
    assert state["seed"] not in {first, 0}  # a new game without a seed is dealt afresh too
    assert main(["serve", "--help"]) == 0
    assert "a fresh random one" in capsys.readouterr().out


def test_unreadable_and_oversized_bodies_are_4xx() -> None:
    # The test client raises whatever the app does not answer itself, so a 500 fails here.
    table, client = _table("ananda", ["human", "human"])
    seat, host = table.seat_tokens[0], table.host_token
    version = table.version
    cases = [
        (seat, "/api/move", b"[" * 100_000, 400, "malformed JSON"),
        (seat, "/api/move", b'{"a":' * 100_000, 400, "malformed JSON"),
        (seat, "/api/move", b'{"version": ' + b"9" * 5000 + b"}", 400, "malformed JSON"),
        (seat, "/api/new", b'{"version": ' + b"9" * 5000 + b"}", 400, "malformed JSON"),
        (seat, "/api/move", b"\xff\xfe\x00", 400, "not UTF-8"),
        (seat, "/api/move", json.dumps({"version": version, "move": "a" * (1 << 20)}).encode(), 413, "over 1 MB"),
        (host, "/api/load", '{"format_version": 1}'.encode("utf-16"), 400, "not UTF-8"),
        (host, "/api/load", b"[" * 100_000, 400, "malformed JSON"),
        (host, "/api/load", b'{"a": ' + b"[" * 100_000 + b"}", 400, "malformed JSON"),
        (host, "/api/load", b" " * (8 << 20) + b"{}", 413, "over 8 MB"),
    ]
    for token, path, body, status, message in cases:
        response = _post(client, path, token, body)
        assert response.status_code == status, (path, body[:20], response.text[:200])
        assert message in response.json()["error"]
    assert table.version == version
    assert table.game.history == []
    # The table's own load refuses such text as a bad save, whoever calls it.
    for text in ("[" * 100_000, '{"version": ' + "9" * 5000 + "}"):
        with pytest.raises(boardkit.StateError, match="not JSON"):
            table.load(None, text)


def test_the_host_switches_only_to_bundled_rules_and_bk_files(tmp_path: Path) -> None:
    asked: list[str] = []

    def loader(reference: str) -> boardkit.Ruleset:
        asked.append(reference)
        return load(reference)

    table = Table(boardkit.load_ruleset("mandala"), seats=["human", "random"], seed=1, loader=loader)
    client = TestClient(create_app(table))
    host = table.host_token
    rules_text = (ROOT / "benchmarks" / "connect_four.bk").read_text(encoding="utf-8")
    (tmp_path / "c4.txt").write_text(rules_text, encoding="utf-8")
    (tmp_path / "dir.bk").mkdir()
    (tmp_path / "c4.bk").write_text(rules_text, encoding="utf-8")
    refused = [("/etc/passwd", 400, "no rule file '/etc/passwd'"), (str(tmp_path / "c4.txt"), 400, "ends in .bk"),
               ("nonesuch", 400, "no bundled ruleset 'nonesuch'"), (str(tmp_path), 400, "no rule file"),
               (str(tmp_path / "missing.bk"), 404, "no rule file"), (str(tmp_path / "dir.bk"), 404, "no rule file"),
               ("a\0b.bk", 404, "no rule file")]
    for ruleset, status, message in refused:
        response = _post(client, "/api/new", host, {"version": table.version, "ruleset": ruleset})
        assert response.status_code == status, (ruleset, response.text)
        assert message in response.json()["error"]
        assert "root:" not in response.text
    assert asked == []  # none of them was read
    assert table.rules.name == "mandala"
    state = _post(client, "/api/new", host, {"version": table.version, "ruleset": str(tmp_path / "c4.bk")}).json()
    assert state["title"] == "Connect Four"
    state = _post(client, "/api/new", host, {"version": table.version, "ruleset": "ananda"}).json()
    assert state["ruleset"] == "ananda"
    assert asked == [str(tmp_path / "c4.bk"), "ananda"]


def test_watch_survives_the_rule_file_being_deleted(tmp_path: Path) -> None:
    path = tmp_path / "c4.bk"
    shutil.copy(ROOT / "benchmarks" / "connect_four.bk", path)
    table = Table(load(str(path)), seats=["human", "human"], seed=1, watch=True, loader=load)
    client = TestClient(create_app(table))
    state = _get(client, table.seat_tokens[0])
    _post(client, "/api/move", table.seat_tokens[0], {"version": state["version"], "move": state["moves"][0]})
    path.unlink()
    state = _get(client, table.seat_tokens[0])
    assert "no rule file" in state["rule_error"]
    assert state["decisions"] == 1
    shutil.copy(ROOT / "benchmarks" / "connect_four.bk", path)
    os.utime(path, (3, 3))
    state = _get(client, table.seat_tokens[0])
    assert state["rule_error"] is None
    assert state["decisions"] == 1
