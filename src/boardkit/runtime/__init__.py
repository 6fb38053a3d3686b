"""Running compiled rules: the game state and its effects, the interpreter and its look-ahead."""


def runtime_compiled() -> bool:
    """Whether this install runs the compiled build of the runtime (mypyc) rather than its Python source."""
    from boardkit.runtime import state  # noqa: PLC0415 - the package's own modules import it first

    return not state.__file__.endswith(".py")
