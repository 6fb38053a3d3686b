"""Grids: zones whose cells stack pieces in levels, and pieces that cover several cells.

Also the geometry built-ins of the rule language. Nothing here knows a game.

A *cell* is a plain string ``"x,y"`` (``x`` from 0 to ``w - 1``, ``y`` from 0 to ``h - 1``):
hashable, JSON as it is, and readable as a move label. A grid zone's runtime data is a
`Board`, one per grid zone slot, kept in ``State.boards``. A Board is never changed in
place: every placement or removal builds a new one, so snapshots share Boards freely and a
Board can cache what it computes (regions, occupied cells). See docs/reference/grid.md.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Final, cast

from boardkit.errors import RULE_FAULTS, RuleRuntimeError, rule_fault
from boardkit.runtime.events import Placed
from boardkit.runtime.pieces import Piece

if TYPE_CHECKING:
    from collections.abc import Callable

    from boardkit.runtime.state import State
    from boardkit.runtime.work import Value

# The built-ins' arguments that rules give are typed `Value` (as in runtime/builtins.py): each
# fails on a wrong one as plain Python does, in the compiled build too.

# The longest side of a grid: room for any board, and a bound on what cell lists may cost.
MAX_SIDE: Final = 100

# One string per cell of the geometries made so far, by (x, y): `cell` hands these out, so the
# dict lookups that follow find the very key (hash kept, compared by identity).
_NAMES: Final[dict[tuple[int, int], str]] = {}
# What a lookup finds for a value that is not a cell of the grid (generated code compares with it).
OFF_GRID: Final[Any] = object()
# Spots of two cells (a domino's) are the common case of `tops`: they have a path of their own.
_PAIR: Final = 2
# What `_split` reads for a cell that has no key (None is a key like any other).
_ABSENT: Final[Any] = object()


def cell(x: Value, y: Value) -> str:
    """Returns the cell at column x, row y.

    >>> cell(3, 4)
    '3,4'
    >>> cell(-1, True)
    '-1,True'
    """
    if type(x) is int and type(y) is int:  # not bools or floats, whose keys match ints
        name = _NAMES.get((x, y))
        if name is not None:
            return name
    return f"{x},{y}"


def _xy(c: object) -> tuple[int, int]:
    if not isinstance(c, str) or c.count(",") != 1:
        msg = f"expected a cell such as '3,4', not {c!r}"
        raise ValueError(msg)
    x, y = c.split(",")
    return int(x), int(y)


def cell_x(c: Value) -> int:
    """Returns the column of a cell.

    >>> cell_x("3,4")
    3
    """
    return _xy(c)[0]


def cell_y(c: Value) -> int:
    """Returns the row of a cell.

    >>> cell_y("3,4")
    4
    """
    return _xy(c)[1]


class Geometry:
    """The cells of a `w` by `h` grid and how they touch. Immutable and shared."""

    def __init__(self, w: int, h: int) -> None:
        self.w, self.h = w, h
        self.cells = [_NAMES.setdefault((x, y), f"{x},{y}") for y in range(h) for x in range(w)]
        self.index = {c: i for i, c in enumerate(self.cells)}
        adj: dict[str, tuple[str, ...]] = {}
        for y in range(h):
            for x in range(w):
                near = [(x, y - 1), (x - 1, y), (x + 1, y), (x, y + 1)]
                adj[cell(x, y)] = tuple(cell(a, b) for a, b in near if 0 <= a < w and 0 <= b < h)
        self.adj = adj
        # The same by cell number (`index`): for the flood fills of `_split`.
        self.near = [[self.index[n] for n in adj[c]] for c in self.cells]
        # Each cell's column and row: `tops` answers by these too (generated code asks with them).
        self.xy = {_NAMES[x, y]: (x, y) for y in range(h) for x in range(w)}
        # What an empty board has on each cell: no top piece (by name; and by (x, y) too, `no_tops_xy`), level 0.
        self.no_tops: dict[str | tuple[int, int], Piece | None] = dict.fromkeys(self.cells)
        self.no_heights: dict[str, int] = dict.fromkeys(self.cells, 0)
        self._lines: dict[int, tuple[list[tuple[str, ...]], dict[str, list[int]]]] = {}

    @functools.cached_property
    def no_tops_xy(self) -> dict[str | tuple[int, int], Piece | None]:
        """`no_tops`, and each cell by (x, y) too: for boards read that way."""
        return {**self.no_tops, **dict.fromkeys(self.xy.values())}

    def lines(self, n: int) -> tuple[list[tuple[str, ...]], dict[str, list[int]]]:
        """Every straight run of n cells, in both directions, and which runs hold each cell."""
        if n not in self._lines:
            runs: list[tuple[str, ...]] = []
            directions = [(1, 0), (0, 1), (-1, 0), (0, -1)] if n > 1 else [(1, 0)]
            for y in range(self.h):
                for x in range(self.w):
                    for dx, dy in directions:
                        ex, ey = x + dx * (n - 1), y + dy * (n - 1)
                        if 0 <= ex < self.w and 0 <= ey < self.h:
                            runs.append(tuple(cell(x + dx * i, y + dy * i) for i in range(n)))
            holding: dict[str, list[int]] = {c: [] for c in self.cells}
            for i, run in enumerate(runs):
                for c in run:
                    holding[c].append(i)
            self._lines[n] = (runs, holding)
        return self._lines[n]


@functools.lru_cache(maxsize=32)
def geometry(w: int, h: int) -> Geometry:
    """The (shared, immutable) geometry of a w by h grid."""
    return Geometry(w, h)


class Board:
    """The pieces on one grid zone: new Boards from `placed` and `removed`, or changed in place.

    A board that only its state holds (`owner` is the state's `token`) is changed in place
    (`place_here`, `remove_here`): a snapshot or copy of the state gives it a new token, so
    that the boards they share are copied before their next change (`own`).

    `stacks` maps each occupied cell to its pieces, top first; `at` maps a piece id to the
    cells it covers (in the order it was placed, part i on cell i); `levels` gives each piece's
    level; `shown` the value the top piece shows on each occupied cell. `tops` and `heights`
    give every cell of the grid its top piece (None) and level (0): one lookup answers the
    built-ins and tells a cell of the grid from anything else. On a board whose rules read
    `top(g, cell(x, y))`, `xy` is the geometry's (x, y) of each cell and `tops` has each cell
    twice, by name and by (x, y): the generated code makes no name (compile/exprgen.py).
    """

    __slots__ = ("_groups", "_occupied", "_rims", "_sets", "at", "geo", "heights", "levels", "owner", "parts", "shown",
                 "stacks", "tops", "xy")

    def __init__(self, geo: Geometry, *, stacks: dict[str, tuple[Piece, ...]], at: dict[int, tuple[str, ...]],
                 levels: dict[int, int], parts: dict[int, tuple[Any, ...]], shown: dict[str, Any],
                 tops: dict[str | tuple[int, int], Piece | None], heights: dict[str, int],
                 xy: dict[str, tuple[int, int]] | None) -> None:
        self.geo = geo
        self.xy = xy
        self.stacks = stacks
        self.at = at
        self.levels = levels
        self.parts = parts
        self.shown = shown
        self.tops = tops
        self.heights = heights
        self._groups: tuple[dict[str, int], list[list[str]]] | None = None
        self._occupied: list[str] | None = None
        self._sets: dict[int, frozenset[str]] = {}
        self._rims: dict[int, frozenset[str]] = {}
        self.owner: object = None

    @classmethod
    def empty(cls, geo: Geometry, *, by_xy: bool) -> Board:
        """Returns a Board with no piece on it; `by_xy`: its tops are read by (x, y) too."""
        return cls(geo, stacks={}, at={}, levels={}, parts={}, shown={},
                   tops=(geo.no_tops_xy if by_xy else geo.no_tops).copy(), heights=geo.no_heights.copy(),
                   xy=geo.xy if by_xy else None)

    def level_at(self, c: str) -> int:
        """Returns the level of the top piece on cell c; 0 when the cell is empty."""
        return self.heights.get(c, 0)

    def placed(self, piece: Piece, cells: tuple[str, ...], parts: tuple[Any, ...]) -> tuple[Board, int]:
        """Returns a new Board with `piece` on `cells`, above whatever is there; and its level.

        `parts` (one per cell) are what the piece shows on each.
        """
        if len(parts) != len(cells):
            msg = f"{len(parts)} parts for {len(cells)} cells"
            raise ValueError(msg)
        board = self.owned_copy(None)
        return board, board.place_here(piece, cells, parts)

    def owned_copy(self, owner: object) -> Board:
        """Returns a copy of this board that `owner` may change in place."""
        board = Board(self.geo, stacks=dict(self.stacks), at=dict(self.at), levels=dict(self.levels),
                      parts=dict(self.parts), shown=dict(self.shown), tops=self.tops.copy(),
                      heights=self.heights.copy(), xy=self.xy)
        board.owner = owner
        return board

    def place_here(self, piece: Piece, cells: tuple[str, ...], parts: tuple[Any, ...]) -> int:
        """`placed`, on this board itself (its state's own); returns the piece's level."""
        stacks, shown, tops, heights, xy = self.stacks, self.shown, self.tops, self.heights, self.xy
        level = 0
        for c in cells:
            level = max(level, heights.get(c, 0))
        level += 1
        for i in range(len(cells)):  # as many parts as cells (`place` checks)
            c = cells[i]
            stacks[c] = (piece,) + stacks.get(c, ())  # noqa: RUF005 - the compiled build makes a list for a starred tuple
            shown[c] = parts[i]
            tops[c] = piece
            if xy is not None:
                tops[xy[c]] = piece
            heights[c] = level
        pid = piece.id
        self.at[pid] = cells
        self.levels[pid] = level
        self.parts[pid] = parts
        self._forget()
        return level

    def remove_here(self, piece: Piece) -> None:
        """`removed`, on this board itself (its state's own); changes nothing if the piece cannot leave."""
        cells = self.at[piece.id]
        stacks, shown, tops, heights = self.stacks, self.shown, self.tops, self.heights
        for c in cells:
            if stacks[c][0] is not piece:
                msg = f"{piece.label!r} cannot leave the grid: {stacks[c][0].label!r} lies on it at cell {c}"
                raise ValueError(msg)
        for c in cells:
            st = stacks[c]
            if len(st) == 1:
                del stacks[c]
                del shown[c]
                tops[c] = None
                heights[c] = 0
            else:
                stacks[c] = st[1:]
                below = st[1]
                shown[c] = self.parts[below.id][self.at[below.id].index(c)]
                tops[c] = below
                heights[c] = self.levels[below.id]
        if self.xy is not None:
            for c in cells:
                tops[self.xy[c]] = tops[c]
        del self.at[piece.id], self.levels[piece.id], self.parts[piece.id]
        self._forget()

    def _forget(self) -> None:
        """Drops what the board worked out from its pieces, which just changed."""
        self._occupied = None
        self._groups = None
        if self._sets:
            self._sets = {}
        if self._rims:
            self._rims = {}

    def removed(self, piece: Piece) -> Board:
        """Returns a new Board without `piece`, which must lie on top of every cell it covers."""
        board = self.owned_copy(None)
        board.remove_here(piece)
        return board

    def occupied(self) -> list[str]:
        """Returns the cells with a piece on them, row by row (cached)."""
        if self._occupied is None:
            stacks = self.stacks
            self._occupied = [c for c in self.geo.cells if c in stacks]
        return self._occupied

    def groups(self) -> tuple[dict[str, int], list[list[str]]]:
        """Returns the occupied cells split into connected groups showing equal values (cached).

        That is each cell's group number and the groups' cells.
        """
        if self._groups is None:
            self._groups = _split(self.geo, self.occupied(), self.shown)
        return self._groups

    def group_set(self, gi: int) -> frozenset[str]:
        """Returns the cells of group gi as a set (cached: rules ask about one or two groups)."""
        found = self._sets.get(gi)
        if found is None:
            found = self._sets[gi] = frozenset(self.groups()[1][gi])
        return found

    def rim(self, gi: int) -> frozenset[str]:
        """Returns the cells next to group gi that are not in it (cached)."""
        found = self._rims.get(gi)
        if found is None:
            group = self.group_set(gi)
            adj = self.geo.adj
            found = self._rims[gi] = frozenset(n for c in group for n in adj[c] if n not in group)
        return found


def _group(geo: Geometry, cells: list[str], key: Callable[[str], object]) -> tuple[dict[str, int], list[list[str]]]:
    """Splits cells into connected groups whose neighbouring cells have equal keys.

    Groups come in the order of their first cell on the grid (row by row), their cells too.
    """
    keys = {c: key(c) for c in cells}
    return _split(geo, sorted(keys, key=geo.index.__getitem__), keys)


def _split(geo: Geometry, order: list[str], keys: dict[str, object]) -> tuple[dict[str, int], list[list[str]]]:
    """`_group` of the cells in `keys`, given them in grid order.

    The flood fill runs on cell numbers and lists, not on names and dicts: compiled, each step
    indexes a list instead of hashing a name.
    """
    index, near = geo.index, geo.near
    value: list[object] = [_ABSENT] * len(geo.cells)
    for c, v in keys.items():
        value[index[c]] = v
    label = [-1] * len(geo.cells)
    count = 0
    for c in order:
        i = index[c]
        if label[i] >= 0:
            continue
        k = value[i]
        label[i] = count
        todo = [i]
        while todo:
            x = todo.pop()
            for n in near[x]:
                if label[n] < 0:
                    v = value[n]
                    if v is not _ABSENT and v == k:
                        label[n] = count
                        todo.append(n)
        count += 1
    # A second pass over the cells in grid order puts each group's cells in that order too.
    labels: dict[str, int] = {}
    groups: list[list[str]] = [[] for _ in range(count)]
    for c in order:
        gi = label[index[c]]
        labels[c] = gi
        groups[gi].append(c)
    return labels, groups


# Runtime data of a state.
def new_boards(s: State) -> dict[int, Board]:
    """Returns empty Boards for every grid zone of a state, sized by the zone's `grid(w, h)`."""
    boards: dict[int, Board] = {}
    for slot, zdef in enumerate(s.layout.zone_defs):
        if zdef.grid is None:
            continue
        try:
            w, h = (f(s, {}) for f in s.program.grid_size[zdef.name])
        except RULE_FAULTS as exc:
            msg = rule_fault(exc)
            raise RuleRuntimeError(msg, zdef.span) from None
        if not all(isinstance(v, int) and not isinstance(v, bool) and 0 < v <= MAX_SIDE for v in (w, h)):
            msg = f"grid zone {zdef.name!r} must have a size of 1 to {MAX_SIDE} cells each way, not {w!r} x {h!r}"
            raise RuleRuntimeError(msg, zdef.span)
        boards[slot] = Board.empty(geometry(w, h), by_xy=zdef.name in s.program.tops_by_xy)
    return boards


def _zone_name(s: State, slot: int) -> str:
    return s.layout.zone_text[slot]


def _cells_arg(s: State, slot: int, cells: object) -> tuple[str, ...]:
    """Returns the cells of a placement: one cell or a list of distinct cells of the grid."""
    if type(cells) is str and cells in s.boards[slot].geo.index:  # one cell, the common case
        return (cells,)
    cs = (cells,) if isinstance(cells, str) else tuple(cells) if isinstance(cells, list) else None
    if not cs:
        msg = f"a piece is placed on one cell or a list of cells, not {cells!r}"
        raise ValueError(msg)
    index = s.boards[slot].geo.index
    for c in cs:
        if c not in index:
            raise ValueError(_off_grid(s, slot, c))
    if len(set(cs)) != len(cs):
        msg = f"a piece cannot cover a cell twice: {list(cs)!r}"
        raise ValueError(msg)
    return cs


def _off_grid(s: State, slot: int, c: object) -> str:
    geo = s.boards[slot].geo
    cells = f"{geo.w} x {geo.h}: cells '0,0' to '{geo.w - 1},{geo.h - 1}'"
    return f"{c!r} is not a cell of grid {_zone_name(s, slot)!r} ({cells})"


def piece_parts(s: State, piece: Piece, n: int) -> tuple[Any, ...]:
    """Returns what `piece` shows on each of the n cells it covers: its component's `parts`, or itself."""
    parts_of = s.program.parts.get(piece.type)
    if parts_of is None:
        return (piece,) * n
    parts = parts_of(s, piece)
    if not isinstance(parts, list):
        msg = f"the parts of {piece.type} must be a list, not {parts!r}"
        raise TypeError(msg)
    return tuple(parts)


def place(s: State, piece: object, slot: int, cells: object) -> None:
    """Puts one piece on cells of a grid zone, on top of what lies there (`place x on g at cs`)."""
    if isinstance(piece, list) and len(piece) == 1:
        piece = piece[0]
    if not isinstance(piece, Piece):
        msg = f"'place' puts one piece on a grid, not {piece!r:.60}"
        raise TypeError(msg)
    cs = _cells_arg(s, slot, cells)
    parts = piece_parts(s, piece, len(cs))
    if len(parts) != len(cs):
        msg = f"{piece.label!r} has {len(parts)} parts, so it covers {len(parts)} cells, not {len(cs)}: {list(cs)!r}"
        raise ValueError(msg)
    src = s.loc[piece.id]
    if src in s.boards:
        own(s, src).remove_here(piece)
    level = own(s, slot).place_here(piece, cs, parts)
    zones = s.zones
    kept = list(zones[src])
    kept.remove(piece)  # a piece lies in one zone, once
    zones[src] = kept
    zones[slot] = [*zones[slot], piece]
    s.loc[piece.id] = slot
    s.check_capacity(slot)
    if s.known and s.layout.zone_defs[slot].visibility == "public":
        s.known = {i: m for i, m in s.known.items() if i != piece.id}
    s.elog.append((Placed, piece.id, _zone_name(s, src), _zone_name(s, slot), cs, level))  # an event when read


def leave(s: State, chosen: Value, dest: int) -> None:
    """Takes pieces that `move` carries away off their grids; `move` never puts pieces on one."""
    boards = s.boards
    if dest in boards:
        msg = f"pieces go on grid zone {_zone_name(s, dest)!r} with 'place PIECE on ZONE at CELLS', not 'move'"
        raise ValueError(msg)
    loc = s.loc
    for p in chosen:
        src = loc[p.id]
        if src in boards:
            own(s, src).remove_here(p)


def own(s: State, slot: int) -> Board:
    """The board of a grid zone, made the state's own to change in place.

    A board that a snapshot or copy may share (its owner is not the state's `token`) is copied
    first, into a new table: once per board between two snapshots.
    """
    board = s.boards[slot]
    if board.owner is not s.token:
        board = board.owned_copy(s.token)
        s.boards = {**s.boards, slot: board}
    return board


# Saving and loading.
def saved_boards(s: State) -> dict[str, list[tuple[int, list[str], int]]]:
    """Returns each grid zone's placements, (piece id, cells, level), bottom level first."""
    out = {}
    for slot, board in s.boards.items():
        order = sorted(board.at, key=lambda i: (board.levels[i], s.zones[slot].index(s.pieces[i])))
        out[_zone_name(s, slot)] = [(i, list(board.at[i]), board.levels[i]) for i in order]
    return out


def rebuild(s: State, slot: int, placements: list[tuple[Piece, object]]) -> list[int]:
    """Rebuilds a grid zone's Board by placing pieces in order; returns their levels.

    Raises ValueError if a placement is impossible (a cell off the grid, wrong size).
    """
    board = Board.empty(s.boards[slot].geo, by_xy=s.boards[slot].xy is not None)
    levels = []
    for piece, cells in placements:
        cs = _cells_arg(s, slot, cells)
        parts = piece_parts(s, piece, len(cs))
        if len(parts) != len(cs):
            msg = f"{piece.label!r} covers {len(parts)} cells, not {len(cs)}: {list(cs)!r}"
            raise ValueError(msg)
        levels.append(board.place_here(piece, cs, parts))  # a new board: no one shares it yet
    s.boards = {**s.boards, slot: board}
    return levels


def public_pieces(s: State, slot: int) -> list[dict[str, Any]]:
    """Returns a grid zone's pieces for a view: attributes plus `cells` and `level`, bottom first."""
    board = s.boards[slot]
    order = sorted(s.zones[slot], key=lambda p: board.levels[p.id])
    return [{**p.public(), "cells": list(board.at[p.id]), "level": board.levels[p.id]} for p in order]


# Built-ins. Each takes the state and a grid zone slot first (see `GRID_ZONE_FIRST`).
def _check_cell(s: State, slot: int, c: object) -> str:
    if c not in s.boards[slot].geo.index:
        raise ValueError(_off_grid(s, slot, c))
    return c


def _cells(s: State, slot: int, piece: object = None) -> list[str]:
    board = s.boards[slot]
    if piece is None:
        return list(board.geo.cells)
    if not isinstance(piece, Piece):
        msg = f"cells(grid, piece) needs a piece, not {piece!r:.60}"
        raise TypeError(msg)
    return list(board.at.get(piece.id, ()))


def _occupied(s: State, slot: int) -> list[str]:
    return list(s.boards[slot].occupied())


def _neighbours(s: State, slot: int, c: Value) -> list[str]:
    geo = s.boards[slot].geo
    if isinstance(c, str):
        try:
            return list(geo.adj[c])
        except KeyError:
            raise ValueError(_off_grid(s, slot, c)) from None
    index, adj = geo.index, geo.adj
    for x in c:
        if x not in index:
            raise ValueError(_off_grid(s, slot, x))
    inside = set(c)
    rim = {n for x in inside for n in adj[x] if n not in inside}
    return sorted(rim, key=index.__getitem__)


def _stack(s: State, slot: int, c: Value) -> list[Piece]:
    board = s.boards[slot]
    st = board.stacks.get(c)
    if st is None:
        _check_cell(s, slot, c)
        return []
    return list(st)


def _top(s: State, slot: int, c: Value) -> Piece | None:
    # An object: OFF_GRID is no piece, and compiled code checks what a `Piece | None` holds.
    top: object = s.boards[slot].tops.get(c, OFF_GRID)
    if top is OFF_GRID:
        raise ValueError(_off_grid(s, slot, c))
    return cast("Piece | None", top)


def top_at(s: State, slot: int, x: object, y: object) -> Piece | None:
    """`top(zone, cell(x, y))` in one step: the commonest question a grid game asks."""
    name = _NAMES.get((x, y)) if type(x) is int and type(y) is int else None
    top: object = s.boards[slot].tops.get(name if name is not None else cell(x, y), OFF_GRID)  # (as `_top`)
    if top is OFF_GRID:
        raise ValueError(_off_grid(s, slot, cell(x, y)))
    return cast("Piece | None", top)


def _level(s: State, slot: int, x: Value) -> int | None:
    board = s.boards[slot]
    if isinstance(x, str):
        level = board.heights.get(x)
        if level is None:
            raise ValueError(_off_grid(s, slot, x))
        return level
    if isinstance(x, Piece):
        return board.levels.get(x.id)
    st = board.stacks.get(x)
    if st is None:
        _check_cell(s, slot, x)
        return 0
    return board.levels[st[0].id]


def _part(s: State, slot: int, c: Value) -> object:
    board = s.boards[slot]
    if c in board.shown:
        return board.shown[c]
    _check_cell(s, slot, c)
    return None


def _tops(s: State, slot: int, cells: Value) -> list[Piece]:
    tops = s.boards[slot].tops
    if type(cells) is list and len(cells) == _PAIR:
        a, b = tops.get(cells[0], OFF_GRID), tops.get(cells[1], OFF_GRID)
        if a is not OFF_GRID and b is not OFF_GRID:
            if a is None:
                return [] if b is None else [b]
            return [a] if b is None or b is a else [a, b]
    out: list[Piece] = []
    for c in cells:
        top = tops.get(c, OFF_GRID)
        if top is None:
            continue
        if top is OFF_GRID:
            raise ValueError(_off_grid(s, slot, c))
        if top not in out:
            out.append(top)
    return out


def tops_count(tops: dict[str | tuple[int, int], Piece | None] | None, s: State, slot: int, cells: Value) -> int:
    """`size(tops(g, cells))` without the list: a spot's two cells are the commonest question.

    `tops` is the board's own table, which generated code has at hand (reading it from the
    state here would cost a generic attribute lookup: the state is a plain Python object);
    None for a zone with indexes, whose slot the call works out.
    """
    if tops is None:
        tops = s.boards[slot].tops
    if type(cells) is list and len(cells) == _PAIR:
        a, b = tops.get(cells[0], OFF_GRID), tops.get(cells[1], OFF_GRID)
        if a is not OFF_GRID and b is not OFF_GRID:
            return (a is not None) + (b is not None and b is not a)
    return len(_tops(s, slot, cells))


def _regions(s: State, slot: int, cells: Value = None,
             key: Callable[[str], object] | None = None) -> list[list[str]]:
    board = s.boards[slot]
    if cells is None and key is None:
        return [list(g) for g in board.groups()[1]]
    chosen = board.occupied() if cells is None else list(dict.fromkeys(_check_cell(s, slot, c) for c in cells))
    fn = key if key is not None else board.shown.get
    return _group(board.geo, chosen, fn)[1]


def _region(s: State, slot: int, start: Value, cells: Value = None,
            key: Callable[[str], object] | None = None) -> list[str]:
    board = s.boards[slot]
    if cells is None and key is None:
        labels, groups = board.groups()
        gi = labels.get(start)
        if gi is None:
            _check_cell(s, slot, start)
            return []
        return list(groups[gi])
    for g in _regions(s, slot, cells, key):
        if start in g:
            return g
    _check_cell(s, slot, start)
    return []


def _placements(s: State, slot: int, n: Value, near: Value = None) -> list[list[str]]:
    geo = s.boards[slot].geo
    if not isinstance(n, int) or n < 1:
        msg = f"placements() needs a number of cells of at least 1, not {n!r}"
        raise ValueError(msg)
    runs, holding = geo.lines(n)
    if near is None:
        return [list(r) for r in runs]
    # Marks by run number, read back in order: no set of numbers to fill and sort.
    picked = [False] * len(runs)
    for c in near:
        held = holding.get(c)
        if held is None:
            raise ValueError(_off_grid(s, slot, c))
        for i in held:
            picked[i] = True
    return [list(runs[i]) for i in range(len(runs)) if picked[i]]


def _joining(s: State, slot: int, start: Value, piece: object, spots: Value) -> list[list[str]]:
    """Returns the spots (cell lists) where `piece` would show on a cell of the region holding `start`.

    Regions are those of `region(g, start)`: connected occupied cells showing equal values.
    """
    if not isinstance(piece, Piece):
        msg = f"joining() needs a piece, not {piece!r:.60}"
        raise TypeError(msg)
    board = s.boards[slot]
    gi = board.groups()[0].get(start)
    if gi is None:
        _check_cell(s, slot, start)
        return []
    area = board.group_set(gi)
    rim = board.rim(gi)
    k = board.shown[start]
    # What the piece shows on each cell: its parts, or (None) the piece itself on every cell.
    fixed = piece_parts(s, piece, 0) if piece.type in s.program.parts else None
    # A piece cell in the region shows the region's value, unless the piece covers `start`.
    shows_k = fixed is None or k in fixed
    out = []
    for cs in spots:
        n = len(cs)
        if fixed is not None and len(fixed) != n:
            msg = f"{piece.label!r} covers {len(fixed)} cells, not {n}: {cs!r}"
            raise ValueError(msg)
        if (shows_k or start in cs) and _spot_joins(board, start, cs, piece=piece, fixed=fixed, area=area, rim=rim):
            out.append(cs)
    return out


def _spot_joins(board: Board, start: str, cs: Value, *, piece: Piece, fixed: tuple[Any, ...] | None,
                area: frozenset[str], rim: frozenset[str]) -> bool:
    """`joining` of one spot: the region holding `start` (cells `area`, neighbours `rim`) reaches it."""
    n = len(cs)
    for c in cs:
        if c in area:
            return _joins_after(board, start, cs, fixed if fixed is not None else (piece,) * n, area)
    # The region stays as it is; a cell of the piece joins it iff it shows the region's
    # value next to it (the first piece cell on any path from start does).
    k = board.shown[start]
    return any((piece if fixed is None else fixed[i]) == k and cs[i] in rim for i in range(n))


def _joins_after(board: Board, start: str, cs: list[str], parts: tuple[Any, ...], area: frozenset[str]) -> bool:
    """Tells if, with parts shown on cs, the region holding start reaches a cell of cs.

    `area` is that region before: it meets cs.
    """
    over: dict[str, Any] = {}
    for i in range(len(cs)):  # as many parts as cells (`_joining` checks); compiled, no zip object
        over[cs[i]] = parts[i]
    shown = board.shown
    if start in over:
        return over[start] is not None
    k = shown.get(start)
    if k is None or k not in over.values():
        # The region can only reach a cell of cs that shows its value.
        return False
    if all(over[c] == k for c in over if c in area):
        # The region keeps every cell, those under the piece included.
        return True
    adj = board.geo.adj
    seen = {start}
    todo = [start]
    while todo:
        x = todo.pop()
        if x in over:
            return True
        for n in adj[x]:
            if n in seen:
                continue
            v = over[n] if n in over else shown.get(n)
            if v == k and v is not None:
                seen.add(n)
                todo.append(n)
    return False


# All but the cell functions take the state and a grid zone's slot first (their signatures are
# in model/signatures.py).
GRID_BUILTINS: dict[str, Callable[..., Any]] = {
    "cell": cell,
    "cell_x": cell_x,
    "cell_y": cell_y,
    "cells": _cells,
    "occupied": _occupied,
    "neighbours": _neighbours,
    "stack": _stack,
    "top": _top,
    "level": _level,
    "part": _part,
    "tops": _tops,
    "regions": _regions,
    "region": _region,
    "placements": _placements,
    "joining": _joining,
}
