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
from boardkit.runtime.grid import GRID_BUILTINS, Board, geometry, tops_count
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
    for cs in [*runs, *board.geo.lines(3)[0]]:
        expected = list(dict.fromkeys(board.stacks[c][0] for c in cs if c in board.stacks))
        assert tops(state, 0, list(cs)) == expected
        # `size(tops(g, cs))` is counted without the list.
        assert tops_count(state.boards[0].tops, state, 0, list(cs)) == len(expected)
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
                      ('size(tops(board, ["0,0", "3,0"]))', "'3,0'"), ('empty(tops(board, ["0,2", "0,0"]))', "'0,2'"),
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


def board_contents(board: Board) -> tuple[Any, ...]:
    """Everything a board holds, as plain copies."""
    return (dict(board.stacks), dict(board.at), dict(board.levels), dict(board.parts), dict(board.shown),
            dict(board.tops), dict(board.heights), board.occupied())


@pytest.mark.parametrize("seed", range(20))
def test_a_board_changed_in_place_holds_what_new_boards_hold_and_leaves_its_original_alone(seed: int) -> None:
    rng = random.Random(seed)
    start, on = random_board(rng, 12)
    before = board_contents(start)
    own = start.owned_copy(owner := object())
    assert own.owner is owner
    new = start
    runs, _ = start.geo.lines(2)
    for i in range(100, 140):
        free = [p for p in on if all(new.stacks[c][0] is p for c in new.at[p.id])]
        if free and rng.random() < 0.3:
            p = rng.choice(free)
            new = new.removed(p)
            own.remove_here(p)
            on.remove(p)
        else:
            t = tile(i, rng)
            cells, parts = rng.choice(runs), (t.attrs["a"], t.attrs["b"])
            new, level = new.placed(t, cells, parts)
            assert own.place_here(t, cells, parts) == level
            on.append(t)
        assert board_contents(own) == board_contents(new)
    assert board_contents(start) == before


def test_a_piece_under_another_cannot_leave_and_the_board_stays_as_it_was() -> None:
    rng = random.Random(3)
    board = Board.empty(geometry(3, 1), by_xy=False).owned_copy(object())
    low, high = tile(1, rng), tile(2, rng)
    board.place_here(low, ("0,0", "1,0"), ("red", "red"))
    board.place_here(high, ("1,0", "2,0"), ("blue", "blue"))
    before = board_contents(board)
    with pytest.raises(ValueError, match="cannot leave the grid"):
        board.remove_here(low)
    assert board_contents(board) == before


def test_clones_checkpoints_and_trials_keep_their_boards_while_the_game_places_pieces() -> None:
    """Boards are changed in place only between two snapshots: a clone's moves and undo see their own."""
    rules = boardkit.load_ruleset("benchmarks/connect_four.bk")
    slot = rules.new_game(players=2, seed=5).state.layout.zslot["board"]
    rng = random.Random(5)
    game = rules.new_game(players=2, seed=5)
    seen = [board_contents(game.state.boards[slot])]
    while not game.is_over:
        twin, other = game.clone(), game.clone()
        for _ in range(3):
            if not twin.is_over:
                twin.apply_action(rng.randrange(len(twin.legal_actions())))
        assert board_contents(game.state.boards[slot]) == seen[-1]
        game.apply_action(rng.randrange(len(game.legal_actions())))
        seen.append(board_contents(game.state.boards[slot]))
        assert board_contents(other.state.boards[slot]) == seen[-2]  # a clone that has not moved
    for expected in reversed(seen[:-1]):
        game.undo()
        assert board_contents(game.state.boards[slot]) == expected


def test_undo_gets_back_each_board_a_game_changed_in_place() -> None:
    """Undo checkpoints share the boards of their moment: the moves after them change copies."""
    rules = boardkit.load_ruleset("benchmarks/connect_four.bk")
    for seed in range(3):
        game = rules.new_game(players=2, seed=seed)
        slot = game.state.layout.zslot["board"]
        rng = random.Random(seed)
        seen = [board_contents(game.state.boards[slot])]
        while not game.is_over:
            game.apply_action(rng.randrange(len(game.legal_actions())))
            seen.append(board_contents(game.state.boards[slot]))
        for expected in reversed(seen[:-1]):
            game.undo()
            assert board_contents(game.state.boards[slot]) == expected
