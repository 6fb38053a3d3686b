"""Takes the screenshots of `boardkit serve` that docs/howto/serve.md shows.

Each bundled game is played by seeded random choices to mid-game through the API, then
shown as seat 0 sees it; then a replay in the host's page, and a rule error under --watch.
Needs the web extra and Debian's chromium: `python benchmarks/serve_screenshots.py [--out docs/images]`.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import tempfile
from pathlib import Path

import boardkit
from boardkit.tools.web.app import running
from boardkit.tools.web.table import Table

ROOT = Path(__file__).resolve().parents[1]
MID_GAME = {"mandala": 24, "ananda": 40, "chakra": 30, "meenakshi": 40}


def play(table: Table, decisions: int, seed: int) -> None:
    """Plays seat 0's decisions by seeded random choices (the agents play the others)."""
    rng = random.Random(seed)
    for _ in range(decisions):
        if table.game.is_over:
            return
        table.move(0, table.version, rng.choice([m.label for m in table.game.legal_moves()]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "images"))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 - an optional tool

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        parser.error("no chromium on PATH (apt-get install chromium)")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        for name, decisions in MID_GAME.items():
            table = Table(boardkit.load_ruleset(name), seats=["human", "random"], seed=3)
            play(table, decisions, seed=3)
            with running(table) as url:
                page.goto(f"{url}?token={table.seat_tokens[0]}")
                page.wait_for_selector("#choices button")
                page.screenshot(path=str(out / f"serve-{name}.png"), full_page=True)
            print(out / f"serve-{name}.png")
        # The host's page, stepping through a replay of an Ananda game, seen as seat 1 sees it.
        table = Table(boardkit.load_ruleset("ananda"), seats=["human", "random"], seed=5)
        play(table, 30, seed=5)
        table.replay_current(None)
        table.replay_go(None, 25)
        with running(table) as url:
            page.goto(f"{url}?token={table.host_token}")
            page.select_option("#view", "1")
            page.wait_for_selector("#replaybar:not([hidden])")
            page.wait_for_function("document.querySelector('#status').textContent.includes('as seat 1')")
            page.screenshot(path=str(out / "serve-replay.png"))
        print(out / "serve-replay.png")
        # A rule error under --watch.
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "connect_four.bk"
            shutil.copy(ROOT / "benchmarks" / "connect_four.bk", path)
            table = Table(boardkit.load_ruleset(str(path)), seats=["human", "human"], watch=True,
                          loader=boardkit.load_ruleset)
            with running(table) as url:
                page.goto(f"{url}?token={table.host_token}")
                page.wait_for_selector("#choices button")
                text = path.read_text(encoding="utf-8")
                path.write_text(text.replace("if mine(p, x + dx", "if mine(p, x + dz"), encoding="utf-8")
                os.utime(path, (1, 1))
                page.wait_for_selector("#rule-error:not([hidden])")
                page.screenshot(path=str(out / "serve-rule-error.png"))
        print(out / "serve-rule-error.png")
        browser.close()


if __name__ == "__main__":
    main()
