"""A tournament as one HTML page: its tables and plots drawn as inline SVG, no plotting library.

Plots: win rate by agent and by seat with their 95% intervals as error bars, final scores by
seat (each game a dot, the mean a bar), and a histogram of game lengths in turns.
"""

from __future__ import annotations

import html
import json
from typing import Any

from boardkit.tools.tournament import render_text

_W, _H, _PAD = 520, 240, 40
_COLOURS = ("#3b6ea8", "#d08a2c", "#4f9a5b", "#b04a5a", "#7a5ca8", "#5a8f99")


def _svg(body: list[str], title: str) -> str:
    return (f'<figure><svg viewBox="0 0 {_W} {_H}" width="{_W}" height="{_H}" role="img" '
            f'aria-label="{html.escape(title)}">{"".join(body)}</svg><figcaption>{html.escape(title)}</figcaption>'
            "</figure>")


def _axis(top: float, unit: str = "") -> list[str]:
    """A left axis from 0 to `top` with five ticks, and the baseline."""
    out = [f'<line x1="{_PAD}" y1="{_H - _PAD}" x2="{_W - 10}" y2="{_H - _PAD}" stroke="#444"/>']
    for k in range(5):
        value = top * k / 4
        y = _y(value, top)
        out.append(f'<line x1="{_PAD}" y1="{y:.1f}" x2="{_W - 10}" y2="{y:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{_PAD - 4}" y="{y + 4:.1f}" font-size="10" text-anchor="end">{value:.3g}{unit}</text>')
    return out


def _y(value: float, top: float) -> float:
    return _H - _PAD - (value / top if top else 0) * (_H - 2 * _PAD)


def rate_bars(rates: list[tuple[str, dict[str, Any]]], title: str, fair: float | None = None) -> str:
    """Bars of win rates with their 95% intervals as error bars; a dashed line at the fair share."""
    body = _axis(100, "%")
    n = max(1, len(rates))
    slot = (_W - _PAD - 20) / n
    for i, (name, r) in enumerate(rates):
        x = _PAD + 10 + i * slot
        rate = r["rate"] or 0.0
        colour = _COLOURS[i % len(_COLOURS)]
        body.append(f'<rect x="{x:.1f}" y="{_y(rate * 100, 100):.1f}" width="{slot * 0.6:.1f}" '
                    f'height="{_H - _PAD - _y(rate * 100, 100):.1f}" fill="{colour}"/>')
        cx = x + slot * 0.3
        low, high = _y(r["low"] * 100, 100), _y(r["high"] * 100, 100)
        body.append(f'<line x1="{cx:.1f}" y1="{low:.1f}" x2="{cx:.1f}" y2="{high:.1f}" stroke="#000"/>')
        for yy in (low, high):
            body.append(f'<line x1="{cx - 5:.1f}" y1="{yy:.1f}" x2="{cx + 5:.1f}" y2="{yy:.1f}" stroke="#000"/>')
        body.append(f'<text x="{cx:.1f}" y="{_H - _PAD + 14}" font-size="11" text-anchor="middle">'
                    f"{html.escape(name)}</text>")
        body.append(f'<text x="{cx:.1f}" y="{high - 4:.1f}" font-size="10" text-anchor="middle">{rate:.0%}</text>')
    if fair is not None:
        y = _y(fair * 100, 100)
        body.append(f'<line x1="{_PAD}" y1="{y:.1f}" x2="{_W - 10}" y2="{y:.1f}" stroke="#888" '
                    'stroke-dasharray="4 3"/>')
    return _svg(body, title)


def score_dots(records: list[dict[str, Any]], players: int) -> str:
    """Each finished game's final score by seat as a dot, the seat's mean as a bar."""
    scores = [[r["scores"][s] for r in records if r["scores"] is not None] for s in range(players)]
    top = max([1.0, *(float(x) for seat in scores for x in seat)])
    low = min([0.0, *(float(x) for seat in scores for x in seat)])
    span = top - low
    body = _axis(span)
    slot = (_W - _PAD - 20) / max(1, players)
    for s, seat in enumerate(scores):
        x = _PAD + 10 + s * slot
        colour = _COLOURS[s % len(_COLOURS)]
        for k, value in enumerate(seat):
            jitter = (k * 37 % 100) / 100 * slot * 0.5
            body.append(f'<circle cx="{x + jitter:.1f}" cy="{_y(value - low, span):.1f}" r="2.5" fill="{colour}" '
                        'fill-opacity="0.5"/>')
        if seat:
            mean = sum(seat) / len(seat)
            y = _y(mean - low, span)
            body.append(f'<line x1="{x:.1f}" y1="{y:.1f}" x2="{x + slot * 0.5:.1f}" y2="{y:.1f}" stroke="#000" '
                        'stroke-width="2"/>')
        body.append(f'<text x="{x + slot * 0.25:.1f}" y="{_H - _PAD + 14}" font-size="11" '
                    f'text-anchor="middle">seat {s}</text>')
    suffix = f" (axis from {low:g})" if low else ""
    return _svg(body, f"final score by seat, each dot a game, the bar its mean{suffix}")


def length_histogram(turns: list[int]) -> str:
    """A histogram of game lengths in turns."""
    if not turns:
        return _svg([], "game length: no finished game")
    lo, hi = min(turns), max(turns)
    bins = min(20, max(1, hi - lo + 1))
    width = (hi - lo + 1) / bins
    counts = [0] * bins
    for t in turns:
        counts[min(bins - 1, int((t - lo) / width))] += 1
    top = max(counts)
    body = _axis(top)
    slot = (_W - _PAD - 20) / bins
    for i, c in enumerate(counts):
        x = _PAD + 10 + i * slot
        body.append(f'<rect x="{x:.1f}" y="{_y(c, top):.1f}" width="{slot * 0.9:.1f}" '
                    f'height="{_H - _PAD - _y(c, top):.1f}" fill="{_COLOURS[0]}"/>')
        if i % max(1, bins // 5) == 0:
            body.append(f'<text x="{x:.1f}" y="{_H - _PAD + 14}" font-size="10">{lo + i * width:.0f}</text>')
    return _svg(body, "game length (turns) of finished games")


def html_report(d: dict[str, Any]) -> str:
    """The page for a tournament's figures (``Tournament.to_dict``)."""
    done = [r for r in d["records"] if r["end_reason"] not in {"aborted", "stalled"}]
    title = f"{d['title']}: {', '.join(d['agents'])} ({d['games']} games, {d['players']} players)"
    plots = [
        rate_bars(list(d["by_agent"].items()), "win rate by agent, 95% Wilson intervals"),
        rate_bars([(f"seat {s}", r) for s, r in enumerate(d["by_seat"])],
                  "win rate by seat, 95% Wilson intervals (dashed: fair share)", fair=1 / d["players"]),
        score_dots(done, d["players"]),
        length_histogram([r["turns"] for r in done]),
    ]
    plots.extend(rate_bars(list(tags.items()), f"win rate by {name}, 95% Wilson intervals", fair=1 / d["players"])
                 for name, tags in d["by"].items())
    figures = {k: v for k, v in d.items() if k != "records"}
    return "\n".join([
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title>",
        ("<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em}"
        "figure{display:inline-block;margin:0 1em 1em 0}figcaption{font-size:0.9em;color:#444}"
        "pre{background:#f6f6f6;padding:1em;overflow-x:auto}</style></head><body>"),
        f"<h1>{html.escape(title)}</h1>",
        *plots,
        "<h2>Figures</h2>",
        f"<pre>{html.escape(render_text(d))}</pre>",
        '<script type="application/json" id="figures">',
        json.dumps(figures).replace("</", "<\\/"),
        "</script>",
        "</body></html>",
    ])
