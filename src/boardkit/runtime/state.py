"""Runtime state of one game: plain data plus the primitive effects that change it.

Every effect goes through a method here and emits an event. `snapshot`/`restore` copy the
mutable parts, which makes moves atomic, look-ahead cheap to undo, and undo itself simple.
"""

from __future__ import annotations

import array
import itertools
import random
from typing import TYPE_CHECKING, Any, Final, TypeAlias, cast

from mypy_extensions import mypyc_attr

from boardkit.errors import RULE_FAULTS, DeadEnd, Horizon, rule_fault
from boardkit.model.defs import number_range
from boardkit.runtime import grid, proofs
from boardkit.runtime.events import Chose, Created, Event, GameEnded, Logged, Moved, Peeked, Revealed, Shuffled, VarSet
from boardkit.runtime.pieces import Piece, by_id, label_of
from boardkit.runtime.work import WORK_LIMIT, Projections, add

if TYPE_CHECKING:
    from boardkit.model.defs import GameDef, ZoneDef
    from boardkit.runtime.program import Program, SiteFn
    from boardkit.runtime.work import Value

#: A zone or variable: its name, or its name and index values, `("hand", 0)`.
Key: TypeAlias = str | tuple[Any, ...]
#: What `State.snapshot` takes and `State.restore` reads.
Snapshot: TypeAlias = tuple[Any, ...]


def key_text(key: Key) -> str:
    """Renders a zone or variable key as text: 'deck', 'hand[0]', 'field[m1,1]'."""
    if isinstance(key, tuple):
        return f"{key[0]}[{','.join(str(k) for k in key[1:])}]"
    return key


# How `move` puts pieces into a zone (Layout.zone_mode).
APPENDED, FIRST, MIXED_IN = 0, 1, 2


class Layout:
    """Zone slots and variable keys for one game definition and player count (shared, read-only)."""

    def __init__(self, program: Program, nplayers: int) -> None:
        game = program.game
        players = list(range(nplayers))
        self.zone_keys: list[Key] = []
        self.zone_defs: list[ZoneDef] = []
        # The capacity rule of each slot, if its zone has one.
        self.zone_capacity: list[SiteFn | None] = []
        self.zone_owner: list[int | None] = []
        for z in game.zones.values():
            domains = [players if d == "Player" else list(game.enums[d].members) for d in z.dims]
            owner_dim = z.dims.index("Player") if "Player" in z.dims else None
            for combo in itertools.product(*domains):
                self.zone_keys.append((z.name, *combo) if combo else z.name)
                self.zone_defs.append(z)
                self.zone_capacity.append(program.capacity.get(z.name))
                self.zone_owner.append(cast("int", combo[owner_dim]) if owner_dim is not None else None)
        self.zslot = {k: i for i, k in enumerate(self.zone_keys)}
        # The same slots by zone family, then index by index: what generated code reads.
        self.zf: list[int | dict[Any, Any]] = []
        for z in game.zones.values():
            if not z.dims:
                self.zf.append(self.zslot[z.name])
                continue
            tree: dict[Any, Any] = {}
            for key in self.zone_keys:
                if isinstance(key, tuple) and key[0] == z.name:
                    node = tree
                    for part in key[1:-1]:
                        node = node.setdefault(part, {})
                    node[key[-1]] = self.zslot[key]
            self.zf.append(tree)
        self.zone_text = [key_text(k) for k in self.zone_keys]
        # How `move` puts pieces into each slot, worked out once: appended, put first when no
        # end is named (a stack), or mixed in (a bag); and whether a capacity is checked.
        self.zone_mode = [MIXED_IN if z.kind == "bag" else FIRST if z.kind == "stack" else APPENDED
                          for z in self.zone_defs]
        self.zone_capped = [c is not None for c in self.zone_capacity]
        self.zone_public = [z.visibility == "public" for z in self.zone_defs]
        self.zone_by_text = {key_text(k): i for i, k in enumerate(self.zone_keys)}
        self.var_keys: list[Key] = []
        for v in game.vars.values():
            values: list[list[Any]] = [players if d == "Player" else list(number_range(d) or game.enums[d].members)
                                       for d in v.dims]
            for combo in itertools.product(*values):
                self.var_keys.append((v.name, *combo) if combo else v.name)
        self.var_by_text = {key_text(k): k for k in self.var_keys}


# A plain Python class in the compiled build too: generated code reads its attributes at every
# step, and `copy` copies its __dict__.
@mypyc_attr(native_class=False)
class State:
    """Everything that changes during a game. Closures compiled from rules read it directly."""

    # At most 29 attributes: CPython 3.11 keeps an instance's attributes in a dict that shares
    # its keys with the class's other instances only up to that many, and reads shared ones
    # much faster (the generated code reads `s.zones`, `s.vars`, ... at every step).
    # tests/test_fast_path.py holds to it.
    def __init__(self, program: Program, layout: Layout, nplayers: int, options: dict[str, Any], seed: int) -> None:
        self.program = program
        game = program.game
        self.layout = layout
        self.zf = layout.zf
        self.nplayers = nplayers
        self.players = list(range(nplayers))
        self.options = options
        self.zones: list[list[Piece]] = [[] for _ in layout.zone_keys]
        self.pieces: list[Piece] = []
        self.loc: list[int] = []
        self.vars: dict[Key, Value] = {}
        self.seed = seed
        self.rng_draws = 0
        # The running procedures, outermost first: [name, pc, locals, below], `below` telling
        # whether a dead end may follow in the turn once the procedure returns (Probe.below_callee).
        self.frames: list[list[Any]] = []
        # The event log as effects write it: events, or tuples that `events` makes into events
        # when someone reads them (most games run unread). The two commonest, a choice made and
        # pieces moved, leave out their class to keep a long game's log small: (player, label,
        # prompt) is a Chose, (piece ids, source, dest) a Moved; any other is (class, *fields).
        # Typed Any, not list: trials put a log that keeps nothing here (runtime/interpreter.py
        # `_NoEvents`), and the compiled build would call a list's own append past its method.
        self.elog: Any = []
        self._made = 0  # how many entries of elog are events already
        self.over = False
        self.end_reason: str | None = None
        # Whatever value `turn` was given: a rule's fault there is the rules' to report, alike in both builds.
        self.turn_player: Value = None
        self.turn_count = 0
        # Look-ahead: the player whose options it is trying (None in play; see `Horizon`), and
        # how many more continuations it may try before giving up.
        self.probing: int | None = None
        self.trials_left = 0
        # What expressions may still do before a rule counts as running away (exprs.WORK_LIMIT);
        # renewed by every run to a decision, look-ahead and score.
        self.work = WORK_LIMIT
        # The options choices gave while the game stood still (compile/module.py `_memo`):
        # the look-ahead of one decision and the decisions after it ask again. Every effect
        # starts it afresh.
        self.memo: dict[tuple[Any, ...], Value] = {}
        # Projections of zones (`hand[p].colour`): attribute -> by slot, (the zone's list, its
        # pieces' values) or None (work.zone_attr). Zone lists are replaced, never changed in
        # place, so an entry holds while its list is the zone's: across effects and snapshots.
        self.proj: Projections = {}
        # What look-ahead trials proved, by position (runtime/proofs.py): shared with clones, kept
        # from the first copy (search) or full trial on; undo checkpoints leave it out.
        self.trail: proofs.Trail = None
        # How many more backward jumps and calls may run before the next decision.
        self.steps = 0
        # Knowledge of hidden pieces: piece id -> bit mask of the players who have seen it.
        # Replaced, never changed in place, so that snapshots share it (docs/reference/knowledge.md).
        self.known: dict[int, int] = {}
        # Grid zones: slot -> Board (cells, stacks, levels). A snapshot or copy shares the boards
        # and this table; it then gives the state a new `token`, so that each board is copied
        # (into a new table) before its next change, and changed in place after that (grid.own).
        self.boards: dict[int, grid.Board] = grid.new_boards(self) if game.zones and any(
            z.grid is not None for z in game.zones.values()) else {}
        self.token = object()

    @property
    def game(self) -> GameDef:
        """The checked ruleset: the program's, not an attribute of the state's own (see `__init__`)."""
        return self.program.game

    @property
    def events(self) -> list[Event]:
        """The event log, oldest first."""
        log: list[Any] = self.elog
        made = self._made
        if made < len(log):
            for i in range(made, len(log)):
                e = log[i]
                if type(e) is tuple:
                    kind = type(e[0])
                    log[i] = Chose(*e) if kind is int else Moved(*e) if kind is tuple else e[0](*e[1:])
            self._made = len(log)
        return log

    def load_events(self, log: list[Event]) -> None:
        """Puts back a loaded game's event log."""
        self.elog = log
        self._made = len(log)

    @property
    def rng(self) -> random.Random:
        """A generator for one random effect.

        Each use derives a fresh one from the seed and a counter, so the whole random state is
        one integer: cheap to copy, save and restore.
        """
        if self.probing is not None:
            # Look-ahead would replay the very draw the game will make: it must not see it.
            raise Horizon
        self.rng_draws += 1
        return random.Random(f"{self.seed}:{self.rng_draws}")  # noqa: S311 - game chance, seeded to replay; no secret

    # Effects (and `move_pieces`, below). Zone lists are replaced, never changed in place: a
    # snapshot can then share them, and a list read by a rule stays as it was when read.
    def check_capacity(self, slot: int) -> None:
        """Raises DeadEnd for a zone over its capacity, like a failed `require`.

        Look-ahead drops the choices that lead there.
        """
        check_zone_capacity(self, slot)

    def capacity_problem(self) -> str | None:
        """What breaks a capacity in a state built from outside (a position, a save); None if nothing.

        That is a zone over its capacity, or one whose capacity cannot be worked out.
        """
        for slot in range(len(self.zones)):
            try:
                self.check_capacity(slot)
            except DeadEnd as exc:
                return str(exc)
            except RULE_FAULTS as exc:
                return f"zone {self.layout.zone_text[slot]!r}: its capacity cannot be worked out ({rule_fault(exc)})"
        return None

    def shuffle(self, slot: int) -> None:
        """Shuffles a zone."""
        _mix(self, slot)
        self.elog.append(Shuffled(key_text(self.layout.zone_keys[slot])))

    def create(self, type_name: str, attrs: dict[str, Value], count: int, slot: int) -> None:
        """Creates `count` pieces of one type in a zone."""
        self.memo = {}
        label = self.program.labels.get(type_name)
        alike = type_name in self.program.labels_of_attributes  # one label for all: they share `attrs`
        text: str | None = None
        ids: list[int] = []
        for _ in range(count):
            piece = Piece(len(self.pieces), type_name, attrs, "")
            if text is None or not alike:
                text = str(label(self, piece)) if label else "-".join(str(v) for v in attrs.values())
            piece.label = text
            self.pieces.append(piece)
            self.loc.append(slot)
            ids.append(piece.id)
        self.zones[slot] = self.zones[slot] + (self.pieces[-count:] if count > 0 else [])
        if self.layout.zone_defs[slot].kind == "bag":
            _mix(self, slot)
        self.memo = {}  # labels may have read the zone before the pieces were in it
        self.elog.append(Created(tuple(ids), key_text(self.layout.zone_keys[slot])))

    def set_var(self, key: Key, value: Value, op: str) -> None:
        """Sets a variable (`=`), or adds to it or takes from it (`+=`, `-=`)."""
        self.memo = {}
        if key not in self.vars:  # an index outside the variable's: no new variable is made
            raise KeyError(key)
        if op == "+=":
            value = add(self, self.vars[key], value)
        elif op == "-=":
            value = self.vars[key] - value
        elif isinstance(value, list):
            value = list(value)
        self.vars[key] = value
        if self.probing is None:  # look-ahead trials keep no events: skip making them
            self.elog.append((var_set_event, key, value))

    def set_item(self, key: Key, index: Value, value: Value, op: str) -> None:
        """Sets the `index`-th item of a list variable (counting from 1, as `nth`), or adds to it.

        Or takes from it. The variable gets a new list, so that snapshots keep the old one.
        """
        items = self.vars[key]
        if not isinstance(items, list):
            msg = f"set {key_text(key)}[{index!r:.20}]: the variable holds {label_of(items):.40}, not a list"
            raise TypeError(msg)
        if type(index) is not int or not 1 <= index <= len(items):
            msg = f"set {key_text(key)}[{index!r:.20}]: no item {index!r:.20} in a list of {len(items)} "
            msg += "(counting from 1)"
            raise IndexError(msg)
        old = items[index - 1]
        new = add(self, old, value) if op == "+=" else old - value if op == "-=" else value
        changed = list(items)
        changed[index - 1] = new
        self.set_var(key, changed, "=")

    def log(self, message: str, args: list[Value]) -> None:
        """Logs a message, followed by its values as players read them."""
        text = " ".join([message, *(label_of(a) for a in args)])
        self.elog.append(Logged(text))

    def peek(self, pieces: object, player: object) -> None:
        """Lets `player` know `pieces` (one piece or a list) while they stay out of public zones."""
        self.memo = {}
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < self.nplayers:
            msg = f"peek needs a player (0..{self.nplayers - 1}), not {player!r}"
            raise ValueError(msg)
        chosen = _pieces(pieces, "peek")
        reveals = player == self.probing and _unknown_to(self, player, chosen)
        known = dict(self.known)
        for p in chosen:
            known[p.id] = known.get(p.id, 0) | (1 << player)
        self.known = known
        self.elog.append(Peeked(tuple(p.id for p in chosen), player))
        if reveals:
            raise Horizon

    def reveal(self, pieces: object) -> None:
        """Lets every player know `pieces` (one piece or a list)."""
        self.memo = {}
        chosen = _pieces(pieces, "reveal")
        reveals = self.probing is not None and _unknown_to(self, self.probing, chosen)
        everyone = (1 << self.nplayers) - 1
        self.known = {**self.known, **{p.id: everyone for p in chosen}}
        self.elog.append(Revealed(tuple(p.id for p in chosen)))
        if reveals:
            raise Horizon

    def end_game(self, reason: str) -> None:
        """Ends the game, for `reason`."""
        self.memo = {}
        self.proj = {}  # nothing more to work out
        if self.probing is None:  # nor to prove (a trial's end leaves the game's proofs as they are)
            self.trail = None
        self.over = True
        self.end_reason = reason
        self.frames = []
        self.elog.append(GameEnded(reason))

    def place(self, piece: object, dest: int, cells: object) -> None:
        """Puts one piece on cells of a grid zone (`place x on g at cells`)."""
        self.memo = {}
        one = piece[0] if isinstance(piece, list) and len(piece) == 1 else piece
        reveals = self.probing is not None and isinstance(one, Piece) and _unknown_to(self, self.probing, [one])
        grid.place(self, piece, dest, cells)
        if reveals:
            raise Horizon

    def forget(self) -> None:
        """Drops what the memo holds, for code that changes the state directly (loading, dealing again).

        The state is at a position no option led to: it gets a trail of its own.
        """
        self.memo = {}
        self.proj = {}
        self.trail = proofs.renamed(self.trail)

    # Copies.
    def copy(self) -> State:
        """An independent state, sharing what is never changed in place.

        Zone lists and knowledge are replaced, never changed in place, so sharing them is safe;
        boards are shared until either state changes one (each gets a new `token`); what
        changes in place is copied.
        """
        if self.trail is None and not self.over:  # searched from now on: both keep what trials prove
            self.trail = proofs.start()
        if self.trail is not None:
            self.trail[1].shared = True
        twin = object.__new__(State)
        twin.__dict__.update(self.__dict__)
        twin.zones = self.zones[:]
        twin.loc = self.loc[:]
        twin.vars = dict(self.vars)
        twin.pieces = self.pieces[:]
        twin.frames = [[name, pc, dict(local), below] for name, pc, local, below in self.frames]
        twin.elog = list(self.elog)
        twin.memo = {}
        twin.proj = {}
        self.token, twin.token = object(), object()  # the boards are shared now
        return twin

    def snapshot(self, *, compact: bool = False) -> Snapshot:
        """What `restore` needs to bring the state back (`snapshot_state`)."""
        return snapshot_state(self, compact=compact)

    def restore(self, snap: Snapshot) -> None:
        """Brings the state back to a snapshot of it."""
        restore_state(self, snap)


# The state's hot helpers are functions, not methods: `State` is a plain class in the compiled
# build, and a call of one of its methods, from compiled or generated code, makes a bound
# method at every call.
def snapshot_state(s: State, *, compact: bool = False) -> Snapshot:
    """What `restore` needs to bring the state back.

    A compact one (for undo checkpoints, kept long) holds piece locations as bytes (or an array
    where there are more zones than a byte counts) rather than a list, and neither memo nor
    trail: what they hold would stay alive with the game.
    """
    loc: list[int] | bytes | array.array[int] = s.loc[:]
    if compact:
        # bytes() of a list of small numbers is several times quicker than array() of it.
        zones = len(s.zones)
        loc = bytes(s.loc) if zones <= _BYTE else array.array("H" if zones <= _SHORT else "l", s.loc)
    frames = [[name, pc, dict(local), below] for name, pc, local, below in s.frames]
    if s.boards:
        s.token = object()  # the snapshot shares the boards
    return (s.zones[:], loc, dict(s.vars), frames, s.rng_draws, len(s.elog),
            s.over, s.end_reason, s.turn_player, s.turn_count, len(s.pieces), s.known,
            s.boards, None if compact else s.memo, None if compact else s.trail)


def restore_state(s: State, snap: Snapshot, *, adopt: bool = False) -> None:
    """Brings the state back to a snapshot of it.

    `adopt` when the snapshot is not read again: the state then takes its lists and dicts
    instead of copies (a compact snapshot's locations are copied all the same).
    """
    (zones, loc, vars_, frames, s.rng_draws, nevents, s.over, s.end_reason, s.turn_player,
     s.turn_count, npieces, s.known, s.boards, memo, trail) = snap
    # No new token: the snapshot's boards were made before it gave the state one (`snapshot`).
    # A checkpoint names no position: a new trail.
    s.trail = trail if trail is not None else proofs.renamed(s.trail)
    # What was remembered of that state holds again (effects since made memos of their own).
    s.memo = memo if memo is not None else {}
    if adopt and type(loc) is list:
        s.zones, s.loc, s.vars, s.frames = zones, loc, vars_, frames
    else:
        s.zones = zones[:]
        s.loc = list(loc)
        s.vars = dict(vars_)
        s.frames = [[name, pc, dict(local), below] for name, pc, local, below in frames]
    if len(s.elog) > nevents:  # (look-ahead's log keeps nothing)
        del s.elog[nevents:]
        s._made = min(s._made, nevents)  # noqa: SLF001 - the state's own module
    del s.pieces[npieces:]


def move_pieces(s: State, chosen: Value, dest: int, end: str | None, drawn: bool = False) -> None:  # noqa: C901, PLR0912, FBT001, FBT002 - the hot effect, in one piece; generated code passes it by position, the cheapest call
    """Moves pieces to a zone.

    `drawn` when the rules took the first pieces of their zone rather than named ones (from
    a bag, a random draw). `chosen` is what the rules named, typed `Value`: a rule's mistake
    there (a text) fails alike in both builds.
    """
    s.memo = {}
    if not chosen:
        return
    probing = s.probing
    reveals = probing is not None and _unknown_to(s, probing, chosen, drawn)
    if s.boards:
        grid.leave(s, chosen, dest)
    zones, loc, lay = s.zones, s.loc, s.layout
    if len(chosen) == 1:  # the commonest move: one piece
        piece = chosen[0]
        src = loc[piece.id]
        zone = list(zones[src])
        zone.remove(piece)
        zones[src] = zone
        loc[piece.id] = dest
        by_source = None
    else:
        by_source = _take_out(s, chosen, dest)
    if s.known and lay.zone_public[dest]:
        # Everyone sees pieces in a public zone; what was known of them is moot from here.
        s.known = _forget_in(s.known, loc, dest, zones[dest], chosen)
    mode = lay.zone_mode[dest]
    if mode != MIXED_IN and (end == "top" or (end is None and mode == FIRST)):
        zones[dest] = chosen + zones[dest]
    else:
        zones[dest] = zones[dest] + chosen
    if lay.zone_capped[dest]:
        check_zone_capacity(s, dest)
    if mode == MIXED_IN:
        _mix(s, dest)
    if probing is None:
        text = lay.zone_text
        if by_source is None:
            s.elog.append((_ONE[chosen[0].id], text[src], text[dest]))
        else:
            for src, ids in by_source.items():
                s.elog.append((_ONE[ids[0]] if len(ids) == 1 else tuple(ids), text[src], text[dest]))
    if reveals:
        raise Horizon


def _take_out(s: State, chosen: Value, dest: int) -> dict[int, list[int]]:
    """Takes pieces out of their zones, now placed at `dest`: the ids taken from each zone."""
    zones, loc = s.zones, s.loc
    by_source: dict[int, list[int]] = {}
    for p in chosen:
        src = loc[p.id]
        ids = by_source.get(src)
        if ids is None:
            by_source[src] = ids = []
            zones[src] = list(zones[src])
        zones[src].remove(p)
        loc[p.id] = dest
        ids.append(p.id)
    return by_source


def _unknown_to(s: State, player: int, pieces: Value, drawn: bool = False) -> bool:  # noqa: FBT001, FBT002 - `move` passes it by position, on the look-ahead's path
    """Whether `player` would learn something new from where `pieces` go.

    That is what they are or, drawn from a bag, which of its pieces came out (random, even
    from a public bag).
    """
    lay, loc, known = s.layout, s.loc, s.known
    for p in pieces:
        slot = loc[p.id]
        zdef = lay.zone_defs[slot]
        if drawn and zdef.kind == "bag":
            return True
        visibility = zdef.visibility
        if visibility == "public" or (visibility == "owner" and lay.zone_owner[slot] == player):
            continue
        if not known.get(p.id, 0) >> player & 1:
            return True
    return False


def _mix(s: State, slot: int) -> None:
    """A bag has no order: what goes in is mixed, so drawing the first pieces is random."""
    s.memo = {}
    mixed = list(s.zones[slot])
    s.rng.shuffle(mixed)
    s.zones[slot] = mixed


def check_zone_capacity(s: State, slot: int) -> None:
    """Raises DeadEnd for a zone over its capacity, like a failed `require`.

    Look-ahead drops the choices that lead there.
    """
    capacity = s.layout.zone_capacity[slot]
    if capacity is not None:
        cap = capacity(s, {})
        if len(s.zones[slot]) > cap:
            msg = (f"zone {s.layout.zone_text[slot]!r} holds {len(s.zones[slot])} pieces, "
                   f"over its capacity {cap}")
            raise DeadEnd(msg)


def _forget_in(known: dict[int, int], loc: list[int], dest: int,
               staying: list[Piece], chosen: list[Piece]) -> dict[int, int]:
    """`known` without the pieces now in zone `dest`: those `staying` there and those `chosen` for it.

    Walks whichever is shorter, the pieces there or what is known; the dict is new only if
    something is forgotten (it is shared with snapshots, never changed in place).
    """
    if len(staying) + len(chosen) >= len(known):
        return {i: m for i, m in known.items() if loc[i] != dest}
    gone = [p.id for p in staying if p.id in known] + [p.id for p in chosen if p.id in known]
    if not gone:
        return known
    kept = dict(known)
    for i in gone:
        kept.pop(i, None)
    return kept


# The most zones whose slots fit in one byte, and in two.
_BYTE: Final = 256
_SHORT: Final = 65536


def var_set_event(key: Key, value: Value) -> VarSet:
    """The event of a `set`, made when the log is read: the key named, pieces by id.

    Values are replaced, never changed in place, so the one logged is the one set.
    """
    return VarSet(key_text(key), by_id(value))


class _OnePiece(dict[int, tuple[int, ...]]):
    """Shared one-piece tuples for events: most moves move one piece, and a game keeps its log.

    Typed `tuple[int, ...]`: a compiled build unboxes a `tuple[int]` and boxes a new one on use.
    """

    def __missing__(self, piece_id: int) -> tuple[int, ...]:
        one = self[piece_id] = (piece_id,)
        return one


_ONE: Final = _OnePiece()


def _pieces(value: object, what: str) -> list[Piece]:
    """One piece or a list of pieces, as `peek` and `reveal` accept them."""
    chosen = [value] if isinstance(value, Piece) else value
    if not isinstance(chosen, list) or not all(isinstance(p, Piece) for p in chosen):
        msg = f"{what} needs pieces, not {value!r:.60}"
        raise TypeError(msg)
    return chosen
