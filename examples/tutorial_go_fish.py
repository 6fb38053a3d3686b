"""The tutorial's game, Go Fish, written from scratch in examples/go_fish.bk, played by
random agents for every player count it supports. Run: python examples/tutorial_go_fish.py
"""

from __future__ import annotations

import random
from pathlib import Path

import boardkit

RULES = Path(__file__).with_name("go_fish.bk")


def main() -> None:
    rules = boardkit.load_ruleset(str(RULES))
    for players in range(rules.min_players, rules.max_players + 1):
        game = rules.new_game(players=players, seed=players)
        rng = random.Random(players)
        while not game.is_over:
            game.play(rng.choice(game.legal_moves()))
        print(f"{players} players: books {game.scores()}, winners {game.winners()} ({game.end_reason})")


if __name__ == "__main__":
    main()
