"""Embedding a boardkit game in an application loop.

Shows what a host app needs: per-player views, moves by label, the event log, saving and
loading mid-turn, undo, and starting from a chosen position. Run: python examples/embed_app.py
"""

from __future__ import annotations

import random

import boardkit


def main() -> None:
    rules = boardkit.load_ruleset("mandala")
    game = rules.new_game(players=2, seed=42)
    rng = random.Random(42)

    # The app shows each player only their view, and asks whoever must decide.
    for _ in range(10):
        player = game.to_move
        view = game.view(player)
        move = rng.choice(view["legal_moves"])
        print(f"player {player}, {view['prompt']}: {move} (hand of {len(view['zones'][f'hand[{player}]'])})")
        game.play(move)

    # Saving mid-turn and loading later continues the very same game.
    saved = game.to_json()
    restored = rules.load_game(saved)
    assert restored.to_json() == saved
    print(f"saved {len(saved)} bytes; player {restored.to_move} is to move: {restored.prompt}")

    # Undo goes back one decision.
    before = game.to_json()
    game.play(game.legal_moves()[0])
    game.undo()
    assert game.to_json() == before

    # The event log says what happened, effect by effect.
    kinds: dict[str, int] = {}
    for event in game.events:
        kinds[type(event).__name__] = kinds.get(type(event).__name__, 0) + 1
    print("events so far:", kinds)

    # Bad input is a typed exception and changes nothing.
    try:
        game.play("no such move")
    except boardkit.IllegalMove as exc:
        print("rejected:", str(exc)[:60], "...")
    assert game.to_json() == before

    # A position sets up a situation to see what the rules do with it.
    puzzle = rules.new_game(players=2, seed=1, position={
        "zones": {"hand[0]": ["red", "red", "yellow"], "mountain[m1]": ["red", "green"],
                  "mountain[m2]": ["orange"], "field[m1,1]": ["yellow"]},
        "vars": {"first": 0}, "rest": "deck"})
    puzzle.play("mountain")
    print("colours player 0 may play to a mountain:", [m.label for m in puzzle.legal_moves()])


if __name__ == "__main__":
    main()
