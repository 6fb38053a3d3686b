"""The `boardkit test` and `boardkit replay` commands: the property-test kit at the command line.

The kit itself is `boardkit.testing`; this module only parses arguments and prints.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from boardkit.errors import BoardkitError, OptionError, StateError
from boardkit.tools.arguments import at_least

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Iterator

    from boardkit.registry import Ruleset
    from boardkit.testing import Step

    #: Finds a ruleset from what the user typed (cli.load).
    Loader: TypeAlias = Callable[[str], Ruleset]


def add_commands(commands: Any, load: Loader) -> None:  # noqa: ANN401 - argparse's subparsers action has no public type
    """Adds `test` and `replay` to the command line's subcommands."""
    test = commands.add_parser("test", help="check invariants and guarantees in games Hypothesis plays")
    test.add_argument("ruleset", metavar="NAME|FILE", help="a bundled name or a .bk file")
    test.add_argument("--games", "-n", type=at_least(1), default=20, help="games to play (default 20)")
    test.add_argument("--players", "-p", type=at_least(1), help="player count (default: every allowed count)")
    test.add_argument("--seed", "-s", type=int, default=0, help="seed of the search (default 0)")
    test.add_argument("--every", type=at_least(1), default=10,
                      help="check the costly guarantees every K decisions (default 10; 1: at every one)")
    test.add_argument("--max-decisions", type=at_least(1), default=2000,
                      help="decisions after which a game is reported stalled (default 2000)")
    test.add_argument("--trace", metavar="FILE", help="where to write the trace of a failure "
                                                      "(default NAME-failure.trace.json)")
    test.set_defaults(handler=lambda args: _cmd_test(args, load))

    replay = commands.add_parser("replay", help="step through a trace or a saved game")
    replay.add_argument("trace", metavar="TRACE", help="a trace file from 'boardkit test', or a saved game")
    replay.add_argument("--rules", metavar="NAME|FILE", help="the ruleset (default: the one the file names)")
    replay.add_argument("--step", action="store_true", help="wait for Enter after each decision")
    replay.set_defaults(handler=lambda args: _cmd_replay(args, load))


def _testing() -> Any:  # noqa: ANN401 - the module, imported only when used
    """boardkit.testing, which needs Hypothesis (the `testing` extra)."""
    try:
        import boardkit.testing as kit  # noqa: PLC0415 - Hypothesis loads only for these commands
    except ModuleNotFoundError as exc:
        msg = f"this command needs {exc.name!r}: pip install 'boardkit[testing]'"
        raise OptionError(msg) from None
    return kit


def _cmd_test(args: argparse.Namespace, load: Loader) -> int:
    kit = _testing()
    rules = load(args.ruleset)
    if args.players is not None:
        rules.resolve_options(args.players, None)  # an OptionError for a count the game is not for
    checks = kit.Checks(max_decisions=args.max_decisions, every=args.every)
    print(f"testing {rules.name}: {args.games} games, invariants: "
          f"{', '.join(repr(i.name) for i in rules.program.game.invariants) or 'none declared'}")
    report = kit.explore(rules, games=args.games, players=args.players, seed=args.seed, checks=checks)
    if report.failure is None:
        print(f"{report.games} games, {report.decisions} decisions checked; {report.ended} ended, "
              f"{report.stalled} stalled at {args.max_decisions} decisions")
        print("ok")
        return 0
    # The trace first: a reader of the output may stop reading it (`| head`).
    path = Path(args.trace or f"{rules.name}-failure.trace.json")
    report.failure.save(path)
    print(f"game {report.games} failed ({report.games - 1} passed before it); "
          f"shrunk to {len(report.failure.labels)} decisions:")
    print(kit.describe_failure(report.failure))
    print(f"trace written to {path}; replay it with: boardkit replay {path}")
    return 1


def _cmd_replay(args: argparse.Namespace, load: Loader) -> int:
    kit = _testing()
    rules = load(args.rules) if args.rules is not None else None
    trace = kit.load_trace(args.trace, rules)
    if rules is None:
        rules = load(trace.ruleset)
    try:
        steps = kit.replay(trace, rules)  # a trace of other rules, or a start they refuse: an error here
    except StateError:
        raise
    except BoardkitError as exc:  # a rule fault or broken invariant as the game starts
        print(f"failed at the start: {exc}")
        return 1
    print(f"{trace.ruleset}: {trace.players} players, seed {trace.seed}, options {trace.options}")
    from boardkit.io.serialize import fingerprint  # noqa: PLC0415 - cattrs loads only when a trace is replayed

    if trace.fingerprint is not None and trace.fingerprint != fingerprint(rules):
        print(f"note: the rules changed since the trace was made (fingerprint {trace.fingerprint}, "
              f"now {fingerprint(rules)})")
    if trace.failure:
        print(f"recorded failure: {trace.failure}")
    return _play(steps, len(trace.labels), step=args.step)


def _play(steps: Iterator[Step], count: int, *, step: bool) -> int:
    """Prints each decision of a replay (waiting for Enter after each with `step`), then the end."""
    game = None
    try:
        for done in steps:
            game = done.game
            print(f"{done.number:>4}. player {done.player}: {done.label}")
            if step:
                input()
    except BoardkitError as exc:
        print(f"failed at decision {len(game.history) + 1 if game is not None else 1}: {exc}")
        return 1
    except EOFError:
        print("boardkit: error: --step waits for Enter after each decision, but the input is closed",
              file=sys.stderr)
        return 1
    if game is not None and game.is_over:
        outcome = game.outcome()
        print(f"game over ({game.end_reason}); scores {list(outcome.scores) if outcome else []}")
    else:
        print(f"{count} decisions replayed; the game goes on")
    return 0
