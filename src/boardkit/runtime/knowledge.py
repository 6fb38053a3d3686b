"""What a player knows of hidden pieces, as views show it.

The rules record knowledge with `peek PIECES by PLAYER` and `reveal PIECES` (State.peek,
State.reveal). A piece stays known while it moves between zones the player cannot see (a
hidden zone, another player's own zone); entering a public zone ends it, since everyone then
sees the piece. A view shows a zone the player cannot see as its size plus the pieces in it
that the player knows. See docs/reference/knowledge.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from boardkit.runtime.pieces import Piece
    from boardkit.runtime.state import State


def unseen_zone(s: State, pieces: list[Piece], player: int) -> dict[str, Any]:
    """Returns the view of a zone `player` cannot see: `{"count": n}`, plus `"known"` if any.

    >>> from types import SimpleNamespace
    >>> from boardkit.runtime.pieces import Piece
    >>> s = SimpleNamespace(known={7: 0b10})
    >>> unseen_zone(s, [Piece(7, "Token", {"value": 3}, "3")], 1)
    {'count': 1, 'known': [{'type': 'Token', 'label': '3', 'value': 3}]}
    >>> unseen_zone(s, [Piece(7, "Token", {"value": 3}, "3")], 0)
    {'count': 1}
    """
    entry: dict[str, Any] = {"count": len(pieces)}
    known = s.known
    if known:
        # Sorted, not in zone order: where a known piece lies in a hidden zone is not known.
        seen = sorted((p for p in pieces if known.get(p.id, 0) >> player & 1), key=lambda p: (p.type, p.label, p.id))
        if seen:
            entry["known"] = [p.public() for p in seen]
    return entry
