"""Plain-Python bitboard Connect Four: the yardstick for benchmarks/connect_four.bk.

Same API shape as the engine (`new_game(seed)`, `legal_moves()` with the engine's labels
"0".."6", `play(label)`, `is_over`, `scores()`), so one agent loop drives both.

    python benchmarks/connect_four_baseline.py --check [--games 500] [--seed 0]

plays the engine and this baseline in lockstep from the same random choices and asserts
that they offer the same labels, that the engine refuses every column it does not offer,
and that both end the same way with the same scores; with the fast path, that the same
game played by action numbers (action i = the i-th legal move) ends the same way.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

WIDTH, HEIGHT = 7, 6
STRIDE = HEIGHT + 1  # one spare bit on top of each column keeps the shifts from wrapping
FULL_TOP = [1 << (x * STRIDE + HEIGHT - 1) for x in range(WIDTH)]
LABELS = [str(x) for x in range(WIDTH)]
WIN = "four in a row"
DRAW = "the board is full"


def connected(b: int) -> bool:
    """Four in a row on bitboard b: vertical (1), horizontal (STRIDE) and both diagonals."""
    for s in (1, STRIDE, STRIDE - 1, STRIDE + 1):
        m = b & (b >> s)
        if m & (m >> (2 * s)):
            return True
    return False


class Game:
    """A Connect Four game: one bitboard per player, plus the filled cells."""

    def __init__(self) -> None:
        self.boards = [0, 0]
        self.filled = 0
        self.heights = [0] * WIDTH
        self.to_move = 0
        self.moves = 0
        self.winner: int | None = None
        self.end_reason: str | None = None

    @property
    def is_over(self) -> bool:
        return self.end_reason is not None

    def legal_moves(self) -> list[str]:
        if self.end_reason is not None:
            return []
        return [LABELS[x] for x in range(WIDTH) if not self.filled & FULL_TOP[x]]

    def play(self, label: str) -> None:
        x = int(label)
        if self.end_reason is not None or not 0 <= x < WIDTH or self.filled & FULL_TOP[x]:
            raise ValueError(f"illegal move {label!r}")
        bit = 1 << (x * STRIDE + self.heights[x])
        self.heights[x] += 1
        self.filled |= bit
        p = self.to_move
        self.boards[p] |= bit
        self.moves += 1
        if connected(self.boards[p]):
            self.winner, self.end_reason = p, WIN
        elif self.moves == WIDTH * HEIGHT:
            self.end_reason = DRAW
        else:
            self.to_move = 1 - p

    def scores(self) -> list[int]:
        return [int(p == self.winner) for p in range(2)]

    def winners(self) -> list[int]:
        if not self.is_over:
            return []
        return [self.winner] if self.winner is not None else [0, 1]


def new_game(seed: int = 0) -> Game:
    """Connect Four has no chance; the seed is accepted only to match the engine's shape."""
    return Game()


RULES = Path(__file__).resolve().parent / "connect_four.bk"


def expect(condition: bool, message: str) -> None:  # noqa: FBT001
    """A check that `python -O` cannot strip, unlike assert."""
    if not condition:
        raise AssertionError(message)


def check(games: int, seed: int) -> int:
    """Lockstep agreement of engine and baseline; returns the number of draws seen."""
    import boardkit

    rules = boardkit.load_ruleset(str(RULES))
    draws = 0
    fast_checked = 0
    for g in range(seed, seed + games):
        rng = random.Random(g)
        engine, base = rules.new_game(players=2, seed=g), new_game(g)
        played: list[str] = []
        while not base.is_over:
            expect(not engine.is_over, f"game {g}: engine ended early ({engine.end_reason})")
            labels = [m.label for m in engine.legal_moves()]
            expect(labels == base.legal_moves(), f"game {g}: engine {labels} != baseline {base.legal_moves()}")
            expect(engine.to_move == base.to_move, f"game {g}: to_move {engine.to_move} != {base.to_move}")
            for bad in sorted(set(LABELS) - set(labels)):
                try:
                    engine.play(bad)
                except boardkit.IllegalMove:
                    pass
                else:
                    raise AssertionError(f"game {g}: the engine played column {bad}, which it did not offer")
            label = rng.choice(labels)
            engine.play(label)
            base.play(label)
            played.append(label)
        expect(engine.is_over, f"game {g}: the baseline ended ({base.end_reason}), the engine did not")
        expect(engine.end_reason == base.end_reason, f"game {g}: {engine.end_reason!r} != {base.end_reason!r}")
        expect(engine.scores() == base.scores(), f"game {g}: scores {engine.scores()} != {base.scores()}")
        expect(sorted(engine.winners()) == base.winners(), f"game {g}: winners differ")
        draws += base.end_reason == DRAW
        fast = rules.new_game(players=2, seed=g)
        if hasattr(fast, "legal_actions"):
            # Action i is the i-th legal move (the engine documents it): same game by numbers.
            replay = new_game(g)
            for label in played:
                offered = replay.legal_moves()
                expect(fast.legal_actions() == list(range(len(offered))), f"game {g}: actions differ")
                fast.apply_action(offered.index(label))
                replay.play(label)
            expect(fast.is_over and fast.scores() == base.scores(), f"game {g}: the fast path ends otherwise")
            fast_checked += 1
    print(f"ok: {games} games agree (labels, refusals, end reasons, scores); {draws} draws; "
          f"fast path checked in {fast_checked or 'n/a (absent)'} games")
    return draws


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="lockstep agreement with the engine")
    parser.add_argument("--games", type=int, default=1000, help="games for --check (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    args = parser.parse_args(argv)
    if args.check:
        check(args.games, args.seed)
        return 0
    game, rng = new_game(args.seed), random.Random(args.seed)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    print(f"{game.moves} moves, {game.end_reason}, scores {game.scores()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
