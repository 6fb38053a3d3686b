"""Argument types shared by the command-line commands."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable


def at_least(least: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least `least` (games, players, moves, seats)."""

    def whole(text: str) -> int:
        value = int(text)
        if value < least:
            msg = f"must be at least {least}, got {value}"
            raise argparse.ArgumentTypeError(msg)
        return value

    whole.__name__ = "int"  # argparse names the type in its message: "invalid int value"
    return whole
