"""Starting a game from a given position, checked against the rules.

A position names zone contents (pieces by label or by attributes; on a grid zone, each with
the cells it covers: `{"piece": "red-blue", "at": ["0,0", "1,0"]}`, bottom level first),
variable values and, with `rest`, the zone that takes every piece not placed (or a zone per
component type: `{"Tile": "supply", "Card": "box"}`), and, with `known`, which hidden pieces each
player has seen: `{"known": {"0": ["tokens[3]"]}}` (player 0 knows every piece in that zone).
Setup runs first, so the pieces exist; the position then rearranges them (what setup let
players see is forgotten), and play starts from the top of the `play` procedure.

A position comes from a host application, so every part of it is checked for its type before
use: whatever is wrong raises StateError naming it, never a bare Python error. The position is
only read: the state keeps copies of the values it takes from it.
"""

from __future__ import annotations

import copy
import reprlib
from typing import TYPE_CHECKING, Any

from boardkit.errors import RULE_FAULTS, DeadEnd, StateError
from boardkit.runtime.grid import rebuild
from boardkit.runtime.state import Layout, State, key_text

if TYPE_CHECKING:
    from boardkit.runtime.grid import Board
    from boardkit.runtime.pieces import Piece

_KEYS = {"zones", "vars", "rest", "known"}
# How deep a variable's lists may nest: deeper (or cyclic) ones are no game state.
_DEEPEST = 32
_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = 60
_REPR.maxlevel = 4


def _show(value: object) -> str:
    """A host's value in a message: short, even when huge, deeply nested or cyclic."""
    return _REPR.repr(value)


def _section(position: dict[str, Any], key: str, what: str) -> dict[Any, Any]:
    """One of the position's dicts; absent or None is empty."""
    value = position.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        msg = f"a position's {key!r} maps {what}, not {_show(value)}"
        raise StateError(msg)
    return value


def _slot(lay: Layout, name: object) -> int | None:
    return lay.zone_by_text.get(name) if isinstance(name, str) else None


def _want(s: State, zone: str, want: object) -> str | dict[str, Any]:
    """Checks a piece entry of a zone: a label, or a dict of attributes with an optional type."""
    if isinstance(want, str):
        return want
    if not isinstance(want, dict) or not all(isinstance(k, str) for k in want):
        msg = f"a piece for zone {zone!r} is a label or a dict of attributes, not {_show(want)}"
        raise StateError(msg)
    components = s.game.components
    type_name = want.get("type")
    if type_name is not None and (not isinstance(type_name, str) or type_name not in components):
        msg = f"a piece for zone {zone!r} names no component type of this ruleset: {_show(type_name)}"
        raise StateError(msg)
    kinds = [components[type_name]] if type_name is not None else list(components.values())
    for k in want:
        if k != "type" and not any(k == field.name for comp in kinds for field in comp.fields):
            owner = f"type {_show(type_name)}" if type_name is not None else "component"
            msg = f"a piece for zone {zone!r} names an attribute no {owner} has: {_show(k)}"
            raise StateError(msg)
    return want


def _matches(piece: Piece, want: str | dict[str, Any]) -> bool:
    if isinstance(want, str):
        return piece.label == want
    attrs = piece.attrs
    return want.get("type", piece.type) == piece.type and all(
        k in attrs and type(attrs[k]) is type(v) and attrs[k] == v for k, v in want.items() if k != "type")


def _plain(value: object, depth: int = 0) -> bool:
    """Tells if a value is one a variable can be given: none, a boolean, integer, text or list of them."""
    if isinstance(value, list):
        return depth < _DEEPEST and all(_plain(x, depth + 1) for x in value)
    return value is None or type(value) in (bool, int, str)


def apply_position(s: State, position: dict[str, Any]) -> None:
    """Rearranges pieces and sets variables as `position` says; StateError if it cannot be."""
    if not isinstance(position, dict) or set(position) - _KEYS:
        msg = f"a position is a dict with keys {sorted(_KEYS)}, got {_show(position)}"
        raise StateError(msg)
    wanted = _wanted(s.layout, position)
    rest_slot, rest_types = _rest(s, position.get("rest"))
    variables = _variables(s, _section(position, "vars", "variable names to values"))
    known = _section(position, "known", "players to lists of zones")
    pool = _pool(s, wanted, rest_slot)
    old_boards = s.boards
    s.token = object()  # `old_boards` stays as it is
    placements = _deal(s, wanted, pool, rest_slot)
    _put_leftover(s, [p for p in pool if s.loc[p.id] in wanted or rest_slot is not None], rest_slot, rest_types)
    s.vars.update(variables)
    s.forget()  # capacities, read next, must see the position, not what setup dealt
    # Capacities last: they may read the variables the position sets.
    problem = s.capacity_problem()
    if problem is not None:
        raise StateError(problem)
    _apply_knowledge(s, known)
    if s.boards:
        _rebuild_grids(s, wanted, placements, old_boards)


def _wanted(lay: Layout, position: dict[str, Any]) -> dict[int, list[Any]]:
    """Returns the zones the position lists, by slot, with the piece entries it gives each."""
    wanted: dict[int, list[Any]] = {}
    for name, contents in _section(position, "zones", "zone names to lists of pieces").items():
        slot = _slot(lay, name)
        if slot is None:
            zones = ", ".join(list(lay.zone_by_text)[:12])
            msg = f"position names no zone of this ruleset: {_show(name)} (zones: {zones}...)"
            raise StateError(msg)
        if not isinstance(contents, list):
            msg = f"zone {_show(name)} must be given a list of pieces"
            raise StateError(msg)
        wanted[slot] = contents
    return wanted


def _rest(s: State, rest: object) -> tuple[int | None, dict[str, int]]:
    """Returns the zone that takes the pieces the position does not place, and the zones by component type.

    With a zone per component type, the first of them stands for all in the first result.
    """
    lay = s.layout
    rest_slot = None
    rest_types: dict[str, int] = {}
    if isinstance(rest, dict):
        # A rest zone per component type: {"Tile": "supply", "Card": "box"}.
        for type_name, zone in rest.items():
            if type_name not in s.game.components:
                msg = f"position's rest names no component type of this ruleset: {_show(type_name)}"
                raise StateError(msg)
            slot = _slot(lay, zone)
            if slot is None:
                msg = f"position's rest zone {_show(zone)} for {_show(type_name)} is not a zone of this ruleset"
                raise StateError(msg)
            rest_types[type_name] = slot
        rest_slot = next(iter(rest_types.values()), None)
    elif rest is not None:
        rest_slot = _slot(lay, rest)
        if rest_slot is None:
            msg = f"position's rest zone {_show(rest)} is not a zone of this ruleset"
            raise StateError(msg)
    return rest_slot, rest_types


def _pool(s: State, wanted: dict[int, list[Any]], rest_slot: int | None) -> list[Piece]:
    """Returns the pieces the position may deal, taking them out of their zones where they will be replaced.

    The pieces of the listed zones, then (with a rest zone) every other piece, else the others
    from the back of their zones, so that unlisted zones keep what they can.
    """
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
    return pool


def _deal(s: State, wanted: dict[int, list[Any]], pool: list[Piece],
          rest_slot: int | None) -> dict[int, list[tuple[Piece, object]]]:
    """Moves the pieces each listed zone names from the pool into it; returns the cells of those on grids."""
    lay = s.layout
    placements: dict[int, list[tuple[Piece, object]]] = {}
    for slot, contents in wanted.items():
        zone = key_text(lay.zone_keys[slot])
        for entry in contents:
            want, cells = grid_entry(zone, entry) if slot in s.boards else (entry, None)
            want = _want(s, zone, want)
            piece = next((p for p in pool if _matches(p, want)), None)
            if piece is None:
                msg = f"no piece {_show(want)} left for zone {zone!r}: the game has too few of them"
                raise StateError(msg)
            pool.remove(piece)
            if rest_slot is None and s.loc[piece.id] not in wanted:
                s.zones[s.loc[piece.id]] = [x for x in s.zones[s.loc[piece.id]] if x is not piece]
            s.zones[slot] = [*s.zones[slot], piece]
            s.loc[piece.id] = slot
            if cells is not None:
                placements.setdefault(slot, []).append((piece, cells))
    return placements


def _put_leftover(s: State, leftover: list[Piece], rest_slot: int | None, rest_types: dict[str, int]) -> None:
    """Puts the pieces the position left without a zone into the rest zone(s), shuffled."""
    if not leftover:
        return
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


def _variables(s: State, given: dict[Any, Any]) -> dict[Any, Any]:
    """The variables a position sets, checked against the type each holds, as copies."""
    out = {}
    for name, value in given.items():
        key = s.layout.var_by_text.get(name) if isinstance(name, str) else None
        if key is None:
            msg = f"position names no variable of this ruleset: {_show(name)}"
            raise StateError(msg)
        old = s.vars[key]
        if isinstance(old, list) and isinstance(value, list):
            if not _plain(value):
                msg = (f"variable {_show(name)} takes a list of integers, booleans, texts, none and lists "
                       f"(nested at most {_DEEPEST} deep), not {_show(value)}")
                raise StateError(msg)
        elif type(old) is not type(value):
            msg = f"variable {_show(name)} holds {type(old).__name__} values, not {_show(value)}"
            raise StateError(msg)
        out[key] = copy.deepcopy(value)
    return out


def _apply_knowledge(s: State, known: dict[Any, Any]) -> None:
    """Replaces what players know by `known`: player (int or its text) -> zones whose pieces they know."""
    masks: dict[int, int] = {}
    for who, zones in known.items():
        player = int(who) if isinstance(who, str) and who.isascii() and who.isdigit() else who
        if type(player) is not int or not 0 <= player < s.nplayers:
            msg = f"position's 'known' names no player of this game: {_show(who)}"
            raise StateError(msg)
        if not isinstance(zones, list):
            msg = f"position's 'known' gives player {_show(who)} a list of zones, not {_show(zones)}"
            raise StateError(msg)
        for name in zones:
            slot = _slot(s.layout, name)
            if slot is None:
                msg = f"position's 'known' names no zone of this ruleset: {_show(name)}"
                raise StateError(msg)
            for p in s.zones[slot]:
                masks[p.id] = masks.get(p.id, 0) | (1 << player)
    s.known = masks


def grid_entry(zone: str, entry: object) -> tuple[object, object]:
    """Returns the piece and the cells of a grid zone's entry: `{"piece": LABEL_OR_ATTRS, "at": CELLS}`."""
    if not isinstance(entry, dict) or set(entry) != {"piece", "at"}:
        msg = f"grid zone {zone!r} takes entries {{'piece': label or attributes, 'at': cells}}, not {_show(entry)}"
        raise StateError(msg)
    at = entry["at"]
    if not isinstance(at, str) and not (isinstance(at, list) and all(isinstance(c, str) for c in at)):
        msg = f"grid zone {zone!r}: a piece is 'at' a cell or a list of cells such as '3,4', not {_show(at)}"
        raise StateError(msg)
    return entry["piece"], at


def _rebuild_grids(s: State, wanted: dict[int, list[Any]], placements: dict[int, list[tuple[Piece, object]]],
                   old: dict[int, Board]) -> None:
    """Places the pieces of the listed grid zones where the position says, in its order.

    The other grid zones keep the placements of the pieces still in them.
    """
    for slot in s.boards:
        if slot in wanted:
            placed = placements.get(slot, [])
        else:
            board = old[slot]
            kept = sorted((p for p in s.zones[slot] if p.id in board.at), key=lambda p: board.levels[p.id])
            placed = [(p, board.at[p.id]) for p in kept]
        if len(placed) != len(s.zones[slot]):
            zone = key_text(s.layout.zone_keys[slot])
            msg = f"grid zone {zone!r} cannot take pieces without cells: it is no 'rest' zone"
            raise StateError(msg)
        try:
            rebuild(s, slot, placed)
        except (*RULE_FAULTS, DeadEnd) as exc:
            msg = f"grid zone {key_text(s.layout.zone_keys[slot])!r}: {exc}"
            raise StateError(msg) from None
