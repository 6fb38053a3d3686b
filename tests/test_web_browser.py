"""The web table in a real browser: whole games played by clicks and keys against agents.

Runs Debian's chromium through Playwright (no browser download). Screenshots go to
$BOARDKIT_ARTIFACTS (default: the test's temporary directory).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

# CI (.ci/run) sets BOARDKIT_BROWSER_TESTS=required: there a missing browser fails instead of skipping.
if os.environ.get("BOARDKIT_BROWSER_TESTS") != "required":
    pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the web extra)")
    if not (shutil.which("chromium") or shutil.which("chromium-browser")):
        pytest.skip("no chromium on PATH (apt-get install chromium)", allow_module_level=True)
from playwright import sync_api

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or "chromium"

import boardkit
from boardkit.tools.web.app import running
from boardkit.tools.web.table import Table

if TYPE_CHECKING:
    from collections.abc import Iterator

CELLS = re.compile(r"^\d+,\d+(\+\d+,\d+)*$")
MAX_DECISIONS = 600  # a bound on the clicks one game may take, far above what these games need


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture
def artifacts(tmp_path: Path) -> Path:
    where = os.environ.get("BOARDKIT_ARTIFACTS")
    path = Path(where) if where else tmp_path
    path.mkdir(parents=True, exist_ok=True)
    return path


def _wait_for_move(page: sync_api.Page, version: str) -> None:
    page.wait_for_function("v => document.body.dataset.version !== v", arg=version)


PAGE_STATE = """() => ({
    version: document.body.dataset.version,
    over: document.body.dataset.over === "true",
    moves: [...document.querySelectorAll("#choices button")].map(b => b.dataset.move),
    pieces: [...document.querySelectorAll("#zones .choosable[data-move]")].map(p => p.dataset.move),
})"""


def _click_move(page: sync_api.Page, label: str, seen: dict[str, object], rng: random.Random) -> str:
    """Makes the move `label` the way a person would, and says how: piece, cells, key or button."""
    moves = seen["moves"]
    assert isinstance(moves, list)
    quoted = json.dumps(label)
    if label in seen["pieces"] and rng.random() < 0.7:  # type: ignore[operator]
        page.locator(f"#zones .choosable[data-move={quoted}]").first.click()
        return "piece"
    if CELLS.match(label) and not any(m.startswith(label + "+") for m in moves) and rng.random() < 0.7:
        for cell in label.split("+"):
            page.locator(f'#zones .cell.choosable[data-cell="{cell}"]').first.click()
        return "cells"
    index = moves.index(label)
    if index < 9 and rng.random() < 0.3:
        page.keyboard.press(str(index + 1))
        return "key"
    page.locator("#choices button").nth(index).click()
    return "button"


@pytest.mark.parametrize("name", ["mandala", "ananda"])
def test_a_whole_game_by_clicks(browser: sync_api.Browser, artifacts: Path, name: str) -> None:
    table = Table(boardkit.load_ruleset(name), seats=["human", "random"], seed=4, loader=boardkit.load_ruleset)
    rng = random.Random(4)
    errors: list[str] = []
    ways: dict[str, int] = {}
    with running(table) as url:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        requests: list[str] = []
        page.on("request", lambda r: requests.append(r.url))
        page.goto(f"{url}?token={table.seat_tokens[0]}")
        page.wait_for_selector("#choices button")
        # A seat has no undo, by button or key, and is not shown a seed.
        assert not page.locator("#undo").is_visible()
        assert "seed" not in page.inner_text("#status")
        page.keyboard.press("u")
        # Keyboard only: Tab to the first choice and press Enter.
        version = page.evaluate("document.body.dataset.version")
        for _ in range(30):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.closest('#choices') !== null"):
                break
        page.keyboard.press("Enter")
        _wait_for_move(page, version)
        decisions = 1
        while not (seen := page.evaluate(PAGE_STATE))["over"]:
            assert decisions < MAX_DECISIONS
            way = _click_move(page, rng.choice(seen["moves"]), seen, rng)
            ways[way] = ways.get(way, 0) + 1
            _wait_for_move(page, seen["version"])
            decisions += 1
            if decisions == 20:
                page.screenshot(path=str(artifacts / f"serve-{name}-mid.png"), full_page=True)
        page.screenshot(path=str(artifacts / f"serve-{name}-end.png"), full_page=True)
        assert page.inner_text("#prompt").startswith("Game over")
        page.close()
    assert table.game.is_over
    assert errors == []
    assert not [r for r in requests if "/api/undo" in r]
    assert ways.get("button")
    assert ways.get("key")
    assert ways.get("piece", 0) + ways.get("cells", 0) > 0, ways  # pieces or cells were clicked to choose


def test_the_host_replays_by_keys_and_sees_rule_errors(browser: sync_api.Browser, artifacts: Path,
                                                       tmp_path: Path) -> None:
    path = tmp_path / "connect_four.bk"
    shutil.copy(Path(__file__).resolve().parents[1] / "benchmarks" / "connect_four.bk", path)
    table = Table(boardkit.load_ruleset(str(path)), seats=["human", "human"], watch=True, loader=boardkit.load_ruleset)
    for column in ("3", "3", "4"):
        table.move(None, table.version, column)
    errors: list[str] = []
    with running(table) as url:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{url}?token={table.host_token}")
        page.wait_for_selector("#choices button")
        assert page.locator("#undo").is_visible()
        assert re.search(r"seed \d+", page.inner_text("#status"))
        # Columns are numbers, not discs: no disc on the table is offered as a move.
        assert page.locator("#zones .piece.choosable").count() == 0
        page.click("#replay")
        page.wait_for_selector("#replaybar:not([hidden])")
        assert page.inner_text("#r-label") == "decision 3 of 3"
        page.keyboard.press("ArrowLeft")
        page.wait_for_function("document.querySelector('#r-label').textContent === 'decision 2 of 3'")
        assert page.locator('.cell[data-cell="4,0"].occupied').count() == 0
        assert page.locator('.cell[data-cell="3,1"].occupied').count() == 1
        page.click("#r-close")
        page.wait_for_selector("#replaybar[hidden]", state="attached")
        path.write_text(path.read_text(encoding="utf-8").replace("if mine(p, x + dx", "if mine(p, x + dz"),
                        encoding="utf-8")
        os.utime(path, (1, 1))
        page.wait_for_selector("#rule-error:not([hidden])")
        error = page.inner_text("#rule-error")
        page.screenshot(path=str(artifacts / "serve-rule-error.png"))
        page.close()
    assert re.match(r".*connect_four\.bk:\d+:\d+: unknown name 'dz'", error)
    assert "^" in error
    assert errors == []


def test_a_poll_answered_after_a_move_does_not_bring_back_the_older_game(browser: sync_api.Browser) -> None:
    """The page polls the table; an answer to a poll sent before a move that arrives after the
    move's own answer describes the game before the move, and is not drawn."""
    table = Table(boardkit.load_ruleset("mandala"), seats=["human", "random"], seed=4, loader=boardkit.load_ruleset)
    errors: list[str] = []
    held: list[tuple[sync_api.Route, sync_api.APIResponse]] = []
    holding = [True]

    def hold(route: sync_api.Route) -> None:
        if holding[0]:
            held.append((route, route.fetch()))  # answered now, delivered when the test says
        else:
            route.continue_()

    with running(table) as url:
        page = browser.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(f"{url}?token={table.seat_tokens[0]}")
        page.wait_for_selector("#choices button")
        page.route("**/api/state*", hold)
        for _ in range(100):  # the page polls once a second
            if held:
                break
            page.wait_for_timeout(100)
        assert held, "the page did not poll"
        before = page.evaluate("document.body.dataset.version")
        page.locator("#choices button").first.click()
        _wait_for_move(page, before)
        after = page.evaluate("document.body.dataset.version")
        holding[0] = False
        for route, answer in held:
            with page.expect_response(lambda r: "/api/state" in r.url):
                route.fulfill(response=answer)
        # The page reads the answer's body and then decides: let those steps run.
        page.evaluate("() => new Promise(done => setTimeout(() => setTimeout(done, 50), 0))")
        assert page.evaluate("document.body.dataset.version") == after
        seen = page.evaluate(PAGE_STATE)
        if not seen["over"]:
            page.locator("#choices button").first.click()
            _wait_for_move(page, after)
        page.close()
    assert errors == []
