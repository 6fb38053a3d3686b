"""Shared helpers of the benchmark scripts: random agents on both engine paths, medians,
tables and JSON output. Imports nothing of boardkit but the package itself, since its
internal modules are about to move.
"""

from __future__ import annotations

import datetime
import json
import random
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
NA = "n/a"


def has_fast_path(game: Any) -> bool:
    """The integer-action API (legal_actions/apply_action) is new; older engines lack it."""
    return hasattr(game, "legal_actions") and hasattr(game, "apply_action")


def play_moves(game: Any, rng: random.Random, cap: int) -> int:
    """Random play through legal_moves/play, at most `cap` decisions; returns decisions played."""
    n = 0
    while not game.is_over and n < cap:
        game.play(rng.choice(game.legal_moves()))
        n += 1
    return n


def play_actions(game: Any, rng: random.Random, cap: int) -> int:
    """Random play through legal_actions/apply_action (the fast path), at most `cap` decisions."""
    n = 0
    while not game.is_over and n < cap:
        game.apply_action(rng.choice(game.legal_actions()))
        n += 1
    return n


def median(values: Sequence[float]) -> float | None:
    """The median, or None when a path was not measured (printed as n/a)."""
    return statistics.median(values) if values else None


def fmt(value: float | None, spec: str = ",.0f") -> str:
    """Formats a figure, or says n/a when the path or figure does not exist."""
    return NA if value is None else format(value, spec)


def provenance() -> dict[str, str]:
    """Date, commit and Python version, so saved figures say what they measured."""
    try:
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, check=False).stdout.strip()
    except OSError:
        commit = ""
    bk = sys.modules.get("boardkit")
    return {"date": datetime.datetime.now().isoformat(timespec="seconds"), "commit": commit or "unknown",
            "python": sys.version.split()[0], "boardkit": getattr(bk, "__file__", None) or "not imported"}


def print_table(title: str, columns: list[str], rows: list[list[str]]) -> None:
    """A rich table when rich is there, plain columns otherwise."""
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        print(title)
        for row in [columns, *rows]:
            print("  ".join(f"{c:>14}" for c in row))
        return
    table = Table(title=title)
    for i, col in enumerate(columns):
        table.add_column(col, justify="left" if i == 0 else "right")
    for row in rows:
        table.add_row(*row)
    Console(width=max(120, Console().width)).print(table)


def dump_json(data: dict[str, Any]) -> None:
    """Prints the figures with their provenance."""
    print(json.dumps({**provenance(), **data}, indent=2))


def note(msg: str, quiet: bool) -> None:
    """Progress on stderr, so that --json output stays clean."""
    if not quiet:
        print(msg, file=sys.stderr, flush=True)
