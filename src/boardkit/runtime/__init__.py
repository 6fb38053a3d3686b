"""Running compiled rules: the game state and its effects, the interpreter and its look-ahead."""
