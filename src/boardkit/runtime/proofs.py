"""What look-ahead trials proved, kept for the decisions that reach the same positions.

A trial of an option plays on into the next decisions and tries their options until one
completes the turn: it proves, for each option it tried there, whether the turn can be
completed after it. A game, or a clone of it (search clones a game for each move it tries),
that then plays that option reaches exactly the position the trial saw, since play is
deterministic given the state. There the look-ahead would prove the same again.

Positions are named by trails. A game keeps none until it is first copied (search copies it)
or first runs a full trial (play then meets the positions that trial saw); a game that does
neither, such as one whose look-ahead the compiled shortcuts settle, pays nothing. From then
on the game and its copies share one `Kept`. Taking an option at trail t leads to the trail `paths[t, option]`, the same
in a trial and in play; a loaded or dealt-again state gets a new trail. `proofs[t, option]` is
what a trial found for that option at trail t, and how many trials it took: a decision that
uses the proof is charged them, so that the limit on trials trips as it would without proofs.
What a depth bound cut short is not kept (`cut_off`): a position reached deeper in a trial has
less depth left before the bound than the same position met in play.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, Final, TypeAlias

if TYPE_CHECKING:
    from boardkit.runtime.state import State

# Trails of all games in this process: every position that is not known to be another's has its own.
_TRAILS: Final = itertools.count(1)
# The most paths a game and its copies keep: beyond, they start afresh.
KEPT: Final = 50_000
# A game with no copies prunes what it keeps past this many paths: it never goes back to a
# position before its last decision (undo starts a trail of its own).
PRUNED: Final = 500


class Kept:
    """What a game and its copies know: where options lead, what trials proved there."""

    __slots__ = ("cut_offs", "floor", "paths", "proofs", "prune_at", "shared")

    def __init__(self) -> None:
        self.paths: dict[tuple[Any, ...], int] = {}
        # What a trial found, and how many trials it took (what using the proof costs).
        self.proofs: dict[tuple[Any, ...], tuple[bool, int]] = {}
        # How often a trial stopped at the depth bound (what it found then is not kept).
        self.cut_offs = 0
        # Whether copies of the game share it (search): they may stand anywhere, so it is never pruned.
        self.shared = False
        # Trails named before the game's last decision: positions it has left for good.
        self.floor = 0
        # How many paths it holds when next pruned: twice what the last pruning kept, or PRUNED.
        self.prune_at = PRUNED

    def prune(self) -> None:
        """Forgets the positions a game played straight on has left behind."""
        floor = self.floor
        self.paths = {k: v for k, v in self.paths.items() if k[0] >= floor}
        self.proofs = {k: v for k, v in self.proofs.items() if k[0] >= floor}
        self.prune_at = max(PRUNED, 2 * len(self.paths))


#: A state's trail: its position's number and what it shares with its copies; None: not kept.
Trail: TypeAlias = tuple[int, Kept] | None


def start() -> Trail:
    """A trail for a state that begins to keep proofs: a position no one has named."""
    return next(_TRAILS), Kept()


def renamed(trail: Trail) -> Trail:
    """The trail of a state changed otherwise than by an option (loaded, dealt again): a new position."""
    return None if trail is None else (next(_TRAILS), trail[1])


def step(s: State, option: Any) -> None:  # noqa: ANN401 - any option value
    """Moves a kept trail past `option`: to the trail a trial or a copy that took it named, or a new one."""
    trail = s.trail
    if trail is None:
        return
    here, kept = trail
    paths = kept.paths
    k = (here, option, type(option) is bool)
    try:
        nxt = paths.get(k)
    except TypeError:  # a list: not kept
        s.trail = next(_TRAILS), kept
        return
    if nxt is None:
        if len(paths) > KEPT:
            paths.clear()
            kept.proofs.clear()
        nxt = paths[k] = next(_TRAILS)
    s.trail = nxt, kept
    if s.probing is None and not kept.shared:  # a decision of the game itself
        if len(kept.paths) > kept.prune_at:
            kept.prune()
        kept.floor = next(_TRAILS)


def lookup(s: State, option: Any) -> tuple[tuple[Any, ...] | None, tuple[bool, int] | None]:  # noqa: ANN401 - any option value
    """The key of `option` at the state's position (None: not kept), what a trial proved of it and its trials."""
    trail = s.trail
    if trail is None:
        return None, None
    k = (trail[0], option, type(option) is bool)
    try:
        return k, trail[1].proofs.get(k)
    except TypeError:  # a list
        return None, None


def cut_off(s: State) -> bool:
    """The look-ahead stopped at its depth bound: what it finds now is not kept (see the module)."""
    if s.trail is not None:
        s.trail[1].cut_offs += 1
    return True
