"""Starting a game from a given position, checked against the rules.

A position names zone contents (pieces by label or by attributes; on a grid zone, each with
the cells it covers: `{"piece": "red-blue", "at": ["0,0", "1,0"]}`, bottom level first),
variable values and, with `rest`, the zone that takes every piece not placed (or a zone per
component type: `{"Tile": "supply", "Card": "box"}`), and, with `known`, which hidden pieces each
player has seen: `{"known": {"0": ["tokens[3]"]}}` (player 0 knows every piece in that zone).
Setup runs first, so the pieces exist; the position then rearranges them (what setup let
players see is forgotten), and play starts from the top of the `play` procedure.
"""

from __future__ import annotations

from typing import Any

from boardkit.errors import StateError
from boardkit.grid import rebuild
from boardkit.pieces import Piece
from boardkit.state import State, key_text

_KEYS = {"zones", "vars", "rest", "known"}


def _matches(piece: Piece, want: Any) -> bool:
    if isinstance(want, str):
        return piece.label == want
    if isinstance(want, dict):
        return all(piece.attrs.get(k) == v for k, v in want.items() if k != "type") and want.get("type", piece.type) == piece.type
    return False


def apply_position(s: State, position: dict[str, Any]) -> None:
    """Rearranges pieces and sets variables as `position` says; StateError if it cannot be."""
    if not isinstance(position, dict) or set(position) - _KEYS:
        msg = f"a position is a dict with keys {sorted(_KEYS)}, got {position!r:.80}"
        raise StateError(msg)
    lay = s.layout
    wanted: dict[int, list[Any]] = {}
    for name, contents in (position.get("zones") or {}).items():
        slot = lay.zone_by_text.get(name)
        if slot is None:
            msg = f"position names no zone of this ruleset: {name!r} (zones: {', '.join(list(lay.zone_by_text)[:12])}...)"
            raise StateError(msg)
        if not isinstance(contents, list):
            msg = f"zone {name!r} must be given a list of pieces"
            raise StateError(msg)
        wanted[slot] = contents
    rest = position.get("rest")
    rest_slot = None
    rest_types: dict[str, int] = {}
    if isinstance(rest, dict):
        # A rest zone per component type: {"Tile": "supply", "Card": "box"}.
        for type_name, zone in rest.items():
            if zone not in lay.zone_by_text:
                msg = f"position's rest zone {zone!r} for {type_name!r} is not a zone of this ruleset"
                raise StateError(msg)
            rest_types[type_name] = lay.zone_by_text[zone]
        rest_slot = next(iter(rest_types.values()), None)
    elif rest is not None:
        rest_slot = lay.zone_by_text.get(rest)
        if rest_slot is None:
            msg = f"position's rest zone {rest!r} is not a zone of this ruleset"
            raise StateError(msg)
    # Pool: pieces of the listed zones, then (with `rest`) every other piece, else the others
    # from the back of their zones, so that unlisted zones keep what they can.
    pool: list[Piece] = []
    for slot in wanted:
        pool.extend(s.zones[slot])
        s.zones[slot] = []
    others = [i for i in range(len(s.zones)) if i not in wanted]
    if rest_slot is not None:
        for i in others:
            pool.extend(s.zones[i])
            s.zones[i] = []
    else:
        for i in others:
            pool.extend(reversed(s.zones[i]))
    old_boards, placements = s.boards, {}
    for slot, contents in wanted.items():
        for want in contents:
            cells = None
            if slot in s.boards:
                # A grid zone's pieces come with their cells, bottom level first.
                want, cells = grid_entry(key_text(lay.zone_keys[slot]), want)
            piece = next((p for p in pool if _matches(p, want)), None)
            if piece is None:
                msg = f"no piece {want!r} left for zone {key_text(lay.zone_keys[slot])!r}: the game has too few of them"
                raise StateError(msg)
            pool.remove(piece)
            if rest_slot is None and s.loc[piece.id] not in wanted:
                s.zones[s.loc[piece.id]] = [x for x in s.zones[s.loc[piece.id]] if x is not piece]
            s.zones[slot] = [*s.zones[slot], piece]
            s.loc[piece.id] = slot
            if cells is not None:
                placements.setdefault(slot, []).append((piece, cells))
        zdef = lay.zone_defs[slot]
        if zdef.capacity is not None and len(s.zones[slot]) > zdef.capacity(s, {}):
            msg = f"zone {key_text(lay.zone_keys[slot])!r} holds {len(s.zones[slot])} pieces, over its capacity"
            raise StateError(msg)
    leftover = [p for p in pool if s.loc[p.id] in wanted or rest_slot is not None]
    if leftover:
        if rest_slot is None:
            msg = "pieces of the listed zones have nowhere to go: give a 'rest' zone"
            raise StateError(msg)
        s.rng.shuffle(leftover)
        for p in leftover:
            slot = rest_types.get(p.type) if rest_types else rest_slot
            if slot is None:
                msg = f"position's rest names no zone for the pieces of type {p.type!r}"
                raise StateError(msg)
            s.zones[slot] = [*s.zones[slot], p]
            s.loc[p.id] = slot
    for name, value in (position.get("vars") or {}).items():
        key = lay.var_by_text.get(name)
        if key is None:
            msg = f"position names no variable of this ruleset: {name!r}"
            raise StateError(msg)
        old = s.vars[key]
        if type(old) is not type(value) and not (isinstance(old, list) and isinstance(value, list)):
            msg = f"variable {name!r} holds {type(old).__name__} values, not {value!r}"
            raise StateError(msg)
        s.vars[key] = value
    _apply_knowledge(s, position.get("known") or {})
    if s.boards:
        _rebuild_grids(s, wanted, placements, old_boards)


def _apply_knowledge(s: State, known: Any) -> None:
    """Replaces what players know by `known`: player (int or its text) -> zones whose pieces they know."""
    if not isinstance(known, dict):
        msg = f"a position's 'known' maps players to lists of zones, not {known!r:.60}"
        raise StateError(msg)
    masks: dict[int, int] = {}
    for who, zones in known.items():
        player = int(who) if isinstance(who, str) and who.isdigit() else who
        if not isinstance(player, int) or not 0 <= player < s.nplayers:
            msg = f"position's 'known' names no player of this game: {who!r}"
            raise StateError(msg)
        for name in zones:
            slot = s.layout.zone_by_text.get(name)
            if slot is None:
                msg = f"position's 'known' names no zone of this ruleset: {name!r}"
                raise StateError(msg)
            for p in s.zones[slot]:
                masks[p.id] = masks.get(p.id, 0) | (1 << player)
    s.known = masks


def grid_entry(zone: str, entry: Any) -> tuple[Any, Any]:
    """A grid zone's entry in a position: `{"piece": LABEL_OR_ATTRS, "at": CELLS}`."""
    if not isinstance(entry, dict) or set(entry) != {"piece", "at"}:
        msg = f"grid zone {zone!r} takes entries {{'piece': label or attributes, 'at': cells}}, not {entry!r:.80}"
        raise StateError(msg)
    return entry["piece"], entry["at"]


def _rebuild_grids(s: State, wanted: dict[int, list[Any]], placements: dict[int, list], old: dict) -> None:
    """Places the pieces of the listed grid zones where the position says, in its order; the
    other grid zones keep the placements of the pieces still in them."""
    for slot in s.boards:
        if slot in wanted:
            placed = placements.get(slot, [])
        else:
            board = old[slot]
            kept = sorted((p for p in s.zones[slot] if p.id in board.at), key=lambda p: board.levels[p.id])
            placed = [(p, board.at[p.id]) for p in kept]
        if len(placed) != len(s.zones[slot]):
            msg = f"grid zone {key_text(s.layout.zone_keys[slot])!r} cannot take pieces without cells: it is no 'rest' zone"
            raise StateError(msg)
        try:
            rebuild(s, slot, placed)
        except (ValueError, TypeError) as exc:
            msg = f"grid zone {key_text(s.layout.zone_keys[slot])!r}: {exc}"
            raise StateError(msg) from None
