"""Plays seeded random games of every bundled ruleset and prints one digest per game, to compare builds.

Each game mixes `play` and `apply_action`, and is saved and loaded, undone and cloned on the
way; the digest covers its history, events, scores, a player's view and its save. Run it once
per build and compare the outputs (they must be identical), from the repository's root:

    python benchmarks/check_builds_agree.py 6 > pure.txt
    PYTHONPATH=<the compiled build's site> python benchmarks/check_builds_agree.py 6 > compiled.txt
    diff pure.txt compiled.txt
"""

from __future__ import annotations

import hashlib
import json
import random
import sys

import boardkit
from boardkit.runtime import runtime_compiled

CASES = [("mandala", 2), ("mandala_seed", 2), ("ananda", 2), ("ananda", 3), ("ananda", 4), ("chakra", 2),
         ("chakra", 3), ("chakra", 4), ("chakra_short", 3), ("meenakshi", 2), ("meenakshi", 3), ("meenakshi", 4),
         ("meenakshi", 5), ("examples/go_fish.bk", 3), ("benchmarks/connect_four.bk", 2)]
DECISIONS = 400


def digest(rules: boardkit.Ruleset, players: int, seed: int) -> str:
    rng = random.Random(seed)
    game = rules.new_game(players=players, seed=seed)
    for n in range(DECISIONS):
        if game.is_over:
            break
        if n % 50 == 25:  # noqa: PLR2004 - a save and load, an undo now and then, a clone
            game = rules.load_game(game.to_json())
            if n % 100 == 25 and len(game.history) > 1:  # noqa: PLR2004
                game.undo()
            game = game.clone()
        actions = game.legal_actions()
        if n % 3 == 0:
            game.play(rng.choice(game.legal_moves()))
        else:
            game.apply_action(rng.randrange(len(actions)))
    doc = {"history": game.history, "events": [repr(e) for e in game.events], "over": game.is_over,
           "scores": game.scores() if game.is_over else None, "view": repr(game.view(0)), "save": game.to_json()}
    return hashlib.sha256(json.dumps(doc, sort_keys=True, default=repr).encode()).hexdigest()[:16]


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    print("compiled" if runtime_compiled() else "pure", file=sys.stderr)
    for name, players in CASES:
        rules = boardkit.load_ruleset(name)
        for seed in range(games):
            print(name, players, seed, digest(rules, players, seed))


if __name__ == "__main__":
    main()
