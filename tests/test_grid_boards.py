"""Grid Boards and built-ins against plain reference answers on random boards.

Each Board keeps every cell's top piece and level, and `joining` decides most spots without a
search: both are checked here against answers worked out from the stacks alone.
"""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

import boardkit
from boardkit.runtime.grid import GRID_BUILTINS, Board, geometry
from boardkit.runtime.pieces import Piece
from boardkit.runtime.state import State

VALUES = ["red", "blue", "green"]


def tile(i: int, rng: random.Random) -> Piece:
    return Piece(i, "T", {"a": rng.choice(VALUES), "b": rng.choice(VALUES)}, f"t{i}")


def parts_of(_s: object, p: Piece) -> list[Any]:
    return [p.attrs["a"], p.attrs["b"]]


def random_board(rng: random.Random, steps: int) -> tuple[Board, list[Piece]]:
    """A 5 x 4 board after random placements of two-cell tiles and removals of top tiles."""
    geo = geometry(5, 4)
    runs, _ = geo.lines(2)
    board = Board.empty(geo, by_xy=True)
    on: list[Piece] = []
    for i in range(steps):
        free = [p for p in on if all(board.stacks[c][0] is p for c in board.at[p.id])]
        if free and rng.random() < 0.2:
            p = rng.choice(free)
            board = board.removed(p)
            on.remove(p)
        else:
            t = tile(i, rng)
            board, _ = board.placed(t, rng.choice(runs), (t.attrs["a"], t.attrs["b"]))
            on.append(t)
    return board, on


def region_after(board: Board, start: str, cs: list[str], parts: list[Any]) -> set[str]:
    """The cells showing start's value connected to start, once parts show on cs."""
    shown = {**board.shown, **dict(zip(cs, parts, strict=True))}
    k = shown.get(start)
    if k is None:
        return set()
    seen, todo = {start}, [start]
    while todo:
        for n in board.geo.adj[todo.pop()]:
            if n not in seen and shown.get(n) is not None and shown[n] == k:
                seen.add(n)
                todo.append(n)
    return seen



def state_of(board: Board, **attrs: Any) -> State:
    """A State holding only `board` (slot 0) and `attrs`: what the grid built-ins read of it."""
    state = State.__new__(State)
    state.boards = {0: board}
    state.__dict__.update(attrs)
    return state


@pytest.mark.parametrize("seed", range(40))
def test_tops_and_levels_follow_the_stacks(seed: int) -> None:
    board, _ = random_board(random.Random(seed), 12)
    for c in board.geo.cells:
        st = board.stacks.get(c)
        assert board.tops[c] is (st[0] if st else None)
        assert board.tops[board.geo.xy[c]] is board.tops[c]
        assert board.heights[c] == (board.levels[st[0].id] if st else 0)
    state = state_of(board)
    tops, level = GRID_BUILTINS["tops"], GRID_BUILTINS["level"]
    runs, _ = board.geo.lines(2)
    for cs in runs:
        expected = list(dict.fromkeys(board.stacks[c][0] for c in cs if c in board.stacks))
        assert tops(state, 0, list(cs)) == expected
        assert [level(state, 0, c) for c in cs] == [board.level_at(c) for c in cs]


@pytest.mark.parametrize("seed", range(40))
def test_joining_is_where_the_region_reaches_the_piece(seed: int) -> None:
    rng = random.Random(seed)
    board, _ = random_board(rng, 10)
    state = state_of(board, program=SimpleNamespace(parts={"T": parts_of}))
    runs, _ = board.geo.lines(2)
    spots = [list(r) for r in runs]
    for start in board.stacks:
        piece = tile(99, rng)
        got = GRID_BUILTINS["joining"](state, 0, start, piece, spots)
        parts = parts_of(state, piece)
        assert got == [cs for cs in spots if region_after(board, start, cs, parts) & set(cs)]


def test_off_grid_cells_in_pairs_name_the_first_one_off() -> None:
    text = """
game "Pairs"
players 2
component Disc { n: int }
zone box: pile, public
zone board: grid(3, 2), public
setup {
  create 2 Disc(n: 1) into box
}
play {
  place first(box) on board at cell(0, 0)
  log "x", %s
  end game "done"
}
"""
    for call, bad in [('tops(board, ["0,0", "3,0"])', "'3,0'"), ('tops(board, ["0,2", "3,0"])', "'0,2'"),
                      ('level(board, "-1,0")', "'-1,0'"), ("top(board, cell(0, 2))", "'0,2'"),
                      # A truth value is no column, though it matches 1 as a key.
                      ("top(board, cell(true, 0))", "'True,0'")]:
        rules = boardkit.parse_ruleset(text % call, filename="pairs.bk")
        with pytest.raises(boardkit.RuleRuntimeError, match=f"{bad} is not a cell of grid 'board'"):
            rules.new_game()


def test_a_cell_is_its_text() -> None:
    cell = GRID_BUILTINS["cell"]
    geometry(3, 3)
    assert cell(1, 2) == "1,2"
    assert cell(True, 2) == "True,2"
    assert cell(1.0, 2) == "1.0,2"
    assert cell(-1, 200) == "-1,200"
