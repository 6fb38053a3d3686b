"""Time to load a saved game and to undo after the load: a long random Meenakshi game
(4 players) and a Mandala game, saved at their end, then loaded and undone 3 times.
Prints medians over --repeat runs, in ms. Figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import boardkit


def long_game(name: str, players: int, seed: int) -> boardkit.Game:
    game = boardkit.load_ruleset(name).new_game(players=players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply_action(rng.choice(game.legal_actions()))
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"{'game':<14} {'decisions':>9} {'load ms':>8} {'undo 1 ms':>9} {'undo 2 ms':>9} {'undo 3 ms':>9}")
    for name, players, seed in (("meenakshi", 4, 1), ("mandala", 2, 1)):
        game = long_game(name, players, seed)
        text, rules = game.to_json(), game.rules
        rows: list[list[float]] = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            loaded = rules.load_game(text)
            row = [time.perf_counter() - start]
            for _ in range(3):
                start = time.perf_counter()
                loaded.undo()
                row.append(time.perf_counter() - start)
            rows.append(row)
        medians = [statistics.median(col) * 1000 for col in zip(*rows, strict=True)]
        print(f"{name:<14} {len(game.history):>9} " + " ".join(f"{m:>9.1f}" for m in medians))


if __name__ == "__main__":
    main()
