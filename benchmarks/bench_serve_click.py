"""Time from a click on a choice to the updated board, in the `boardkit serve` page.

Serves a table (seat 0 human, the others random agents) and drives Debian's chromium through
Playwright. Each sample is taken inside the page: the time from the click on the first
choice until the board shows the new version and the browser has reached its next frame
(the server's answer, the agents' moves up to seat 0's next decision, and the redraw). The
median and 90th percentile per ruleset are printed, with the number of samples.
"""

from __future__ import annotations

import argparse
import shutil
import statistics

import boardkit
from boardkit.tools.web.app import running
from boardkit.tools.web.table import Table

# Clicks the first choice and resolves with the milliseconds until the new board's first frame.
CLICK = """() => new Promise(resolve => {
    const before = document.body.dataset.version;
    const observer = new MutationObserver(() => {
        if (document.body.dataset.version !== before) {
            observer.disconnect();
            requestAnimationFrame(() => resolve(performance.now() - start));
        }
    });
    observer.observe(document.body, {attributes: true});
    const start = performance.now();
    document.querySelector("#choices button").click();
})"""


def measure(browser: object, name: str, clicks: int, seed: int) -> list[float]:
    """Milliseconds from click to updated board, over `clicks` clicks (new games as needed)."""
    samples: list[float] = []
    while len(samples) < clicks:
        table = Table(boardkit.load_ruleset(name), seats=["human", "random"], seed=seed)
        seed += 1
        with running(table) as url:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})  # type: ignore[attr-defined]
            page.goto(f"{url}?token={table.seat_tokens[0]}")
            page.wait_for_selector("#choices button")
            while len(samples) < clicks and page.evaluate("document.body.dataset.over") != "true":
                samples.append(page.evaluate(CLICK))
            page.close()
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulesets", nargs="+", default=["mandala", "ananda", "chakra", "meenakshi"])
    parser.add_argument("--clicks", type=int, default=100, help="clicks per ruleset (default 100)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 - a helpful error first, below

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        parser.error("no chromium on PATH (apt-get install chromium)")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        measure(browser, args.rulesets[0], 10, args.seed)  # warm-up: imports, compiled rules, the browser
        print(f"{'ruleset':<12} {'clicks':>6} {'median ms':>10} {'p90 ms':>8}")
        for name in args.rulesets:
            samples = sorted(measure(browser, name, args.clicks, args.seed))
            p90 = samples[int(0.9 * (len(samples) - 1))]
            print(f"{name:<12} {len(samples):>6} {statistics.median(samples):>10.1f} {p90:>8.1f}")
        browser.close()


if __name__ == "__main__":
    main()
