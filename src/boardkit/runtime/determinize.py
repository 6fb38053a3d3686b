"""Determinization: the state re-dealt where one player cannot see, for search over hidden information.

A player knows the zones they see (public ones and their own), the contents but not the order
of bags, the size of every zone, the pieces they peeked at (`State.known`), and where the pieces
they saw leave a zone they see went to. Everything else may be any arrangement consistent with
that, and a determinization picks one at random:

- a piece the player never saw (or lost track of) is *free*: free pieces of one type trade
  places, uniformly, across every zone the player cannot see, so each zone keeps its size and
  its number of pieces of each type;
- a piece the player knows (peeked at, or saw go in) stays in its zone; it keeps its place
  there unless the zone was shuffled or is a bag since it went in, then the zone's order is
  dealt again too;
- bags the player sees keep their contents, drawn in a new order;
- the random draws to come are unknown too: the state gets a new seed.

The player's `view` is the same before and after. Grid zones are left as they are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardkit.runtime.events import Created, Moved, Shuffled

if TYPE_CHECKING:
    import random

    from boardkit.runtime.pieces import Piece
    from boardkit.runtime.state import State

# What a player knows of a piece in a zone they cannot see: where it lies in the zone, or only
# that it is in the zone. Pieces absent from the map are free.
_PLACE, _ZONE = 1, 2


def visible_slots(s: State, player: int) -> list[bool]:
    """Whether `player` sees each zone slot: public zones and their own."""
    lay = s.layout
    return [zdef.visibility == "public" or (zdef.visibility == "owner" and lay.zone_owner[i] == player)
            for i, zdef in enumerate(lay.zone_defs)]


def tracked(s: State, seen: list[bool]) -> dict[int, int]:
    """What a player who sees the slots `seen` knows of the pieces in the others, from the event log.

    A piece that leaves a zone they see for one they do not is known there (at its place, or
    only in the zone for a bag); a shuffle keeps only the zone; a move between unseen zones loses
    it (the player does not know which piece went).
    """
    lay = s.layout
    slot_of = lay.zone_by_text
    bag = [zdef.kind == "bag" for zdef in lay.zone_defs]
    where: dict[int, int] = {}  # a known piece's slot
    status: dict[int, int] = {}
    for event in s.events:
        if isinstance(event, Moved):
            _moved(event, slot_of[event.source], slot_of[event.dest], seen=seen, bag=bag, where=where, status=status)
        elif isinstance(event, Created):
            dest = slot_of[event.zone]
            if bag[dest] and not seen[dest]:
                _shuffled(dest, where, status)
        elif isinstance(event, Shuffled):
            _shuffled(slot_of[event.zone], where, status)
    return status


def _moved(event: Moved, src: int, dest: int, *, seen: list[bool], bag: list[bool], where: dict[int, int],
           status: dict[int, int]) -> None:
    if seen[dest]:
        for pid in event.pieces:
            status.pop(pid, None)
        return
    if bag[dest]:
        _shuffled(dest, where, status)
    for pid in event.pieces:
        if seen[src]:
            status[pid] = _ZONE if bag[dest] else _PLACE
            where[pid] = dest
        else:
            status.pop(pid, None)


def _shuffled(slot: int, where: dict[int, int], status: dict[int, int]) -> None:
    for pid, place in where.items():
        if place == slot and status.get(pid) == _PLACE:
            status[pid] = _ZONE


def determinize(s: State, player: int, rng: random.Random, known: dict[int, int] | None = None) -> None:
    """Re-deals, in place, what `player` cannot see (see the module's docstring).

    Args:
        s: the state, changed in place (pass a copy).
        player: whose knowledge to keep.
        rng: draws the new deal and the new seed.
        known: `tracked(s, visible_slots(s, player))`, when the caller keeps it for
            many determinizations of one state.
    """
    seen = visible_slots(s, player)
    if known is None:
        known = tracked(s, seen)
    bit = 1 << player
    # What the player knows of each piece in the zones they cannot see.
    status = {pid: _ZONE for pid, mask in s.known.items() if mask & bit}
    status.update((pid, st) for pid, st in known.items() if pid not in status)
    unseen = [slot for slot, zone in enumerate(s.zones) if zone and not seen[slot] and slot not in s.boards]
    zones = {slot: list(s.zones[slot]) for slot in unseen}
    _deal_free(s, zones, status, rng)
    for slot in unseen:
        zone = zones[slot]
        if s.layout.zone_defs[slot].kind == "bag" or any(status.get(p.id) == _ZONE for p in zone):
            # Pieces whose place is known stay; the others (known or free) trade places.
            loose = [i for i, p in enumerate(zone) if status.get(p.id) != _PLACE]
            moved = [zone[i] for i in loose]
            rng.shuffle(moved)
            for i, p in zip(loose, moved, strict=True):
                zone[i] = p
        s.zones[slot] = zone
    for slot, zone in enumerate(s.zones):
        if seen[slot] and zone and s.layout.zone_defs[slot].kind == "bag":  # known contents, not their order
            mixed = list(zone)
            rng.shuffle(mixed)
            s.zones[slot] = mixed
    s.seed = rng.getrandbits(64)
    s.forget()


def _deal_free(s: State, zones: dict[int, list[Piece]], status: dict[int, int], rng: random.Random) -> None:
    """Free pieces of one type trade places across the unseen zones."""
    free: dict[str, list[Piece]] = {}
    places: dict[str, list[tuple[int, int]]] = {}
    for slot, zone in zones.items():
        for i, p in enumerate(zone):
            if p.id not in status:
                free.setdefault(p.type, []).append(p)
                places.setdefault(p.type, []).append((slot, i))
    for kind, pieces in free.items():
        rng.shuffle(pieces)
        for (slot, i), p in zip(places[kind], pieces, strict=True):
            zones[slot][i] = p
            s.loc[p.id] = slot
