"""The ``boardkit`` command: list, check, simulate and play rulesets.

The commands only parse arguments and present results; every rule lives in the engine
and every statistic in ``boardkit.simulate``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from rich.console import Console, Group
from rich.padding import Padding
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

import boardkit
from boardkit._version import __version__
from boardkit.errors import BoardkitError, RuleError
from boardkit.runtime import runtime_compiled
from boardkit.runtime.events import Chose
from boardkit.tools import agent_commands
from boardkit.tools.arguments import at_least
from boardkit.tools.kit import add_commands as add_kit_commands
from boardkit.tools.simulate import AGENT_SEED_FACTOR, GameRecord, SimulationResult, simulate
from boardkit.tools.web.command import add_serve_command

if TYPE_CHECKING:
    from rich.console import RenderableType

    from boardkit import Game, Move, Option, Ruleset

__all__ = ["build_parser", "main", "parse_option_value"]

PROGRESS_THRESHOLD = 20
"""Runs with fewer games finish too fast for a progress bar to help."""

QUIT_WORDS = frozenset({"q", "quit", "exit"})
# What the person types to take back their last move.
UNDO = "undo"
"""Words that leave ``play`` unless a legal move has that label."""


class CommandError(Exception):
    """A problem with what the user asked for, reported as a message with an exit code."""

    def __init__(self, msg: str, code: int = 1) -> None:
        super().__init__(msg)
        self.code = code


def main(argv: Sequence[str] | None = None) -> int:  # noqa: PLR0911 - one exit code per kind of failure
    """Runs the command line and returns the exit code.

    Returns 0 on success, 1 when a command fails (bad rules, unknown ruleset, a game
    error) and 2 for bad usage, as argparse does.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        # argparse exits on --help and on bad usage; main returns codes instead.
        if exc.code is None:
            return 0
        return exc.code if isinstance(exc.code, int) else 2
    handler: Callable[[argparse.Namespace], int] = args.handler
    try:
        return handler(args)
    except CommandError as exc:
        _error(str(exc))
        return exc.code
    except RuleError as exc:
        # Already a complete gcc-style report.
        print(exc, file=sys.stderr)
        return 1
    except BoardkitError as exc:
        _error(str(exc))
        return 1
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, and keep the interpreter's final
        # flush of stdout from failing again.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as exc:
        _error(f"cannot read {exc.filename!r}: {exc.strerror}" if exc.filename else str(exc))
        return 1
    except KeyboardInterrupt:
        _error("interrupted")
        return 130


def build_parser() -> argparse.ArgumentParser:
    """Builds the argument parser with one subparser per command."""
    parser = argparse.ArgumentParser(
        prog="boardkit", description="Run board games from declarative rule files.",
    )
    build = "compiled runtime" if runtime_compiled() else "pure Python"
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__} ({build})")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    listing = commands.add_parser("list", help="show the bundled rulesets")
    listing.set_defaults(handler=_cmd_list)

    check = commands.add_parser("check", help="parse and check rule files")
    check.add_argument("files", nargs="+", metavar="FILE", help="a .bk file or a bundled name")
    check.set_defaults(handler=_cmd_check)

    sim = commands.add_parser("simulate", help="play random games and summarize them")
    _add_game_arguments(sim)
    sim.add_argument("--games", "-n", type=agent_commands.positive_int, required=True, help="games to play")
    sim.add_argument(
        "--jobs", "-j", type=at_least(0), default=1, help="processes that play, this one included (0: one per CPU)",
    )
    sim.add_argument("--json", action="store_true", help="print the summary and games as JSON")
    agent_commands.add_run_arguments(sim, agents_required=False)
    sim.set_defaults(handler=_cmd_simulate)
    agent_commands.add_commands(commands, _add_game_arguments,
                                lambda args, rules: (_players(rules, args.players), _options(rules, args.option)))

    play = commands.add_parser("play", help="play a seat at the terminal against random agents")
    _add_game_arguments(play)
    play.add_argument("--seat", type=at_least(0), default=0, help="your seat (default 0)")
    play.set_defaults(handler=_cmd_play)

    comp = commands.add_parser("compile", help="show the Python module a ruleset compiles to")
    comp.add_argument("ruleset", metavar="NAME|FILE", help="a bundled name or a .bk file")
    comp.add_argument("--output", "-o", metavar="FILE", help="write the module to FILE instead of printing it")
    comp.set_defaults(handler=_cmd_compile)

    add_kit_commands(commands, load)  # test, replay
    add_serve_command(commands, load=load)
    return parser


def _add_game_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ruleset", metavar="NAME|FILE", help="a bundled name or a .bk file")
    parser.add_argument(
        "--players", "-p", type=agent_commands.positive_int, help="player count (default: the fewest allowed)",
    )
    parser.add_argument("--seed", "-s", type=int, default=0, help="base seed (default 0)")
    parser.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        type=_option_pair,
        metavar="NAME=VALUE",
        help="set a ruleset option; repeat for several",
    )
    parser.add_argument(
        "--max-moves",
        type=agent_commands.positive_int,
        default=20000,
        help="moves after which an unfinished game is abandoned (default 20000)",
    )


def _option_pair(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        msg = f"expected NAME=VALUE, got {text!r}"
        raise argparse.ArgumentTypeError(msg)
    return name.strip(), value.strip()


def parse_option_value(text: str) -> int | bool | str:
    """Converts an option value typed on the command line: an int, true/false, else the text.

    >>> parse_option_value("8"), parse_option_value("False"), parse_option_value("red")
    (8, False, 'red')
    """
    if re.fullmatch(r"[+-]?\d+", text):
        return int(text)
    if text.lower() in {"true", "false"}:
        return text.lower() == "true"
    return text


def _options(rules: Ruleset, pairs: Sequence[tuple[str, str]]) -> dict[str, Any]:
    declared: Mapping[str, Option] = rules.options
    options: dict[str, Any] = {}
    for name, text in pairs:
        if name not in declared:
            known = ", ".join(sorted(declared)) or "none"
            msg = f"unknown option {name!r} for {rules.name!r} (options: {known})"
            raise CommandError(msg)
        # A string option keeps "8" as text; otherwise guess the type from the text.
        default = declared[name].default
        options[name] = text if isinstance(default, str) else parse_option_value(text)
    return options


def _players(rules: Ruleset, requested: int | None) -> int:
    return requested if requested is not None else rules.min_players


def load(reference: str) -> Ruleset:
    """Loads a ruleset from a bundled name or a file path.

    Something that looks like a path (ends in ``.bk`` or has a directory part) is always a
    path; otherwise a bundled name wins over a file of the same name.

    Raises:
        CommandError: neither a bundled name nor an existing file.
        RuleError: the rule text is bad.
    """
    bundled = boardkit.list_rulesets()
    looks_like_path = reference.endswith(".bk") or "/" in reference or os.sep in reference
    if not looks_like_path and reference in bundled:
        return boardkit.load_ruleset(reference)
    if Path(reference).is_file():
        return boardkit.load_ruleset(reference)
    if Path(reference).exists():
        msg = f"not a file: {reference!r}"
    elif looks_like_path:
        msg = f"no such file: {reference!r}"
    else:
        names = ", ".join(bundled) or "none"
        msg = f"unknown ruleset {reference!r}: not a bundled name or a file (bundled: {names})"
    raise CommandError(msg)


# Commands.


def _cmd_list(_args: argparse.Namespace) -> int:
    table = Table(title="bundled rulesets", title_justify="left")
    for column in ("name", "title", "players", "options: name=default (choices)"):
        table.add_column(column)
    failed = False
    for name in boardkit.list_rulesets():
        try:
            rules = boardkit.load_ruleset(name)
        except BoardkitError as exc:
            # A broken bundled ruleset should not hide the others.
            print(exc, file=sys.stderr)
            table.add_row(name, "(does not load)", "", "")
            failed = True
            continue
        players = _player_range(rules.min_players, rules.max_players)
        options = Group(*(part for option in rules.options.values() for part in _describe_option(option)))
        table.add_row(rules.name, rules.title, players, options if rules.options else "-")
    _stdout().print(table)
    return 1 if failed else 0


def _player_range(least: int, most: int) -> str:
    return str(least) if least == most else f"{least}-{most}"


def _describe_option(option: Option) -> list[RenderableType]:
    """`name=default (choices)`, then the comment above its declaration, indented."""
    text = f"{option.name}={_show(option.default)}"
    if option.choices:
        text += f" ({', '.join(_show(choice) for choice in option.choices)})"
    return [Text(text), Padding(Text(option.doc), (0, 0, 0, 2))] if option.doc else [Text(text)]


def _cmd_check(args: argparse.Namespace) -> int:
    failed = 0
    for reference in args.files:
        try:
            rules = load(reference)
        except RuleError as exc:
            print(exc, file=sys.stderr)
        except (CommandError, BoardkitError) as exc:
            _error(str(exc))
        except OSError as exc:
            _error(f"cannot read {reference!r}: {exc.strerror}")
        else:
            # Warnings point at probable mistakes but do not fail the check.
            for warning in rules.warnings:
                print(warning, file=sys.stderr)
            count = len(rules.warnings)
            print(f"ok {reference}" + (f" ({count} warning{'s' if count != 1 else ''})" if count else ""))
            continue
        failed += 1
    return 1 if failed else 0


def _cmd_compile(args: argparse.Namespace) -> int:
    source = load(args.ruleset).python_source
    if args.output is None:
        sys.stdout.write(source)
    else:
        Path(args.output).write_text(source, encoding="utf-8")
        print(f"wrote {args.output} ({source.count(chr(10))} lines)")
    return 0


def _cmd_simulate(args: argparse.Namespace) -> int:
    rules = load(args.ruleset)
    kwargs: dict[str, Any] = {
        "games": args.games,
        "players": _players(rules, args.players),
        "seed": args.seed,
        "jobs": args.jobs or os.cpu_count() or 1,
        "options": _options(rules, args.option),
        "max_moves": args.max_moves,
        "on_game": _cap_warning(args.max_moves),
        **agent_commands.run_settings(args),
    }
    with agent_commands.kept_failures():
        if args.json or args.games < PROGRESS_THRESHOLD:
            result = simulate(rules, **kwargs)
        else:
            result = _simulate_with_progress(rules, kwargs)
    if args.json:
        # Compact: a run can hold many thousands of games; pipe through jq to read it.
        print(json.dumps({"title": rules.title, **result.to_dict()}))
    else:
        _print_result(rules, result)
    return 0


def _cap_warning(max_moves: int) -> Callable[[GameRecord], None]:
    """A hook that warns, once and as soon as it happens, of a game cut at the move cap.

    Random play may never end some games, and each such game runs to the cap: told early, the
    user can stop and choose --max-moves rather than wait for every game.
    """
    warned: list[int] = []

    def warn(record: GameRecord) -> None:
        if record.aborted and not warned:
            warned.append(record.index)
            print(f"boardkit: warning: game {record.index} did not end within {max_moves} moves; random play "
                  "may never end this game, and each game like it runs to that cap (--max-moves cuts them "
                  "sooner)", file=sys.stderr)

    return warn


def _simulate_with_progress(rules: Ruleset, kwargs: dict[str, Any]) -> SimulationResult:
    columns = (
        TextColumn("simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("simulate", total=kwargs["games"])
        return simulate(
            rules, **kwargs, progress=lambda done, _total: bar.update(task, completed=done),
        )


def _print_result(rules: Ruleset, result: SimulationResult) -> None:
    summary = result.summary
    console = _stdout()
    options = ", ".join(f"{k}={_show(v)}" for k, v in result.options.items())
    heading = f"{rules.title} ({rules.name}), {result.players} players, seed {result.seed}"
    console.print(heading + (f", options {options}" if options else ""))

    overview = Table(title="summary", title_justify="left", show_header=False)
    overview.add_column("measure")
    overview.add_column("value", justify="right")
    jobs = f"{result.jobs} job" + ("s" if result.jobs > 1 else "")
    rows = [
        ("games", str(summary.games)),
        ("finished", str(summary.finished)),
        ("aborted", f"{summary.aborted} (at {result.max_moves} moves)" if summary.aborted else "0"),
        ("wall time", f"{summary.wall_seconds:.2f} s, {jobs}"),
        ("games per second", f"{summary.games_per_second:.1f}"),
        ("mean moves per game", _number(summary.mean_decisions)),
        ("mean turns per game", _number(summary.mean_turns)),
        ("median turns per game", _number(summary.median_turns)),
    ]
    for row in rows:
        overview.add_row(*row)
    console.print(overview)

    seats = Table(title="by seat (finished games)", title_justify="left")
    for column in ("seat", "mean score", "win rate"):
        seats.add_column(column, justify="right")
    for seat in range(result.players):
        mean = None if summary.mean_scores is None else summary.mean_scores[seat]
        rate = None if summary.win_rates is None else summary.win_rates[seat]
        seats.add_row(str(seat), _number(mean), "-" if rate is None else f"{rate:.1%}")
    console.print(seats)

    reasons = Table(title="end reasons", title_justify="left")
    reasons.add_column("reason")
    reasons.add_column("games", justify="right")
    reasons.add_column("share", justify="right")
    for reason, count in summary.end_reasons.items():
        reasons.add_row(reason, str(count), f"{count / summary.games:.1%}")
    console.print(reasons)


def _cmd_play(args: argparse.Namespace) -> int:
    rules = load(args.ruleset)
    players = _players(rules, args.players)
    if args.seat >= players:
        msg = f"--seat must be below the player count {players}, got {args.seat}"
        raise CommandError(msg, code=2)
    game = rules.new_game(players=players, seed=args.seed, options=_options(rules, args.option))
    return play_at_terminal(
        game,
        seat=args.seat,
        agent=random.Random(args.seed * AGENT_SEED_FACTOR + args.seat),  # noqa: S311 - an opponent, not a secret
        max_moves=args.max_moves,
        title=f"{rules.title}: you are player {args.seat} of {players} (seed {args.seed})",
    )


def play_at_terminal(
    game: Game,
    *,
    seat: int,
    agent: random.Random,
    max_moves: int,
    title: str,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Plays ``game`` with a person at ``seat`` and random agents elsewhere; returns an exit code.

    The person sees every agent move as it happens and, before each of their decisions,
    their view (again only if it changed, so a multi-step action stays short) and the
    numbered moves. End of input or ``q`` leaves the game (exit code 0).
    """
    inp = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    print(title, file=out)
    shown: list[str] = []
    decisions = 0
    while not game.is_over:
        if decisions >= max_moves:
            _error(f"stopped after {max_moves} moves: the game did not end")
            return 1
        moves = game.legal_moves()
        if not moves:
            _error("no legal moves but the game is not over")
            return 1
        player = game.to_move
        if player == seat:
            lines = render_view(game.view(seat))
            if lines != shown:
                print(f"\n-- turn {game.turn_count} --", file=out)
                print("\n".join(lines), file=out)
                shown = lines
            print(f"{game.prompt or 'your move'}:", file=out)
            for number, option in enumerate(moves, start=1):
                print(f"  {number:>2}. {option.label}", file=out)
            move = _ask(game, moves, inp, out)
            if move is None:
                print("\nleaving the game", file=out)
                return 0
            if isinstance(move, str):  # the one command _ask returns: undo
                decisions -= _undo_own_move(game, seat, out)
                shown = []
                continue
            print(f"you: {move.label}", file=out)
        else:
            move = agent.choice(moves)
            about = f" ({game.prompt})" if game.prompt else ""
            print(f"player {player}{about}: {move.label}", file=out)
        game.play(move)
        decisions += 1
    _print_outcome(game, seat, out)
    return 0


def _undo_own_move(game: Game, seat: int, out: TextIO) -> int:
    """Takes back decisions until the person's previous one is pending again; returns how many."""
    if seat not in _deciders(game):
        print("nothing of yours to undo", file=out)
        return 0
    undone = 0
    while True:
        game.undo()
        undone += 1
        if game.to_move == seat:
            break
    print(f"took back {undone} decision{'s' if undone != 1 else ''}", file=out)
    return undone


def _deciders(game: Game) -> set[int]:
    """The players whose decisions the game's history records (from its Chose events)."""
    return {e.player for e in game.events if isinstance(e, Chose)}


def _ask(game: Game, moves: Sequence[Move], inp: TextIO, out: TextIO) -> Move | str | None:
    """Reads the person's move (a number or a label), or a command: help, score, undo, quit."""
    by_label = {move.label: move for move in moves}
    while True:
        print("> ", end="", file=out, flush=True)
        line = inp.readline()
        if not line:
            return None
        text = line.strip()
        if not text:
            continue
        # A label wins over a number or a quit word that happens to spell it.
        if text in by_label:
            return by_label[text]
        if text.isdigit() and 1 <= int(text) <= len(moves):
            return moves[int(text) - 1]
        word = text.lower()
        if word in QUIT_WORDS:
            return None
        if word == UNDO:
            return UNDO
        if word in ("score", "scores"):
            print("scores: " + ", ".join(f"player {p}: {v}" for p, v in enumerate(game.scores())), file=out)
            continue
        if word in ("?", "help"):
            print(f"enter a number from 1 to {len(moves)} or a label; 'undo' takes back your last "
                  "move, 'score' shows the scores, 'q' leaves", file=out)
            continue
        print(f"no move {text!r}: enter a number from 1 to {len(moves)} or a label ('help' for more)", file=out)


def _print_outcome(game: Game, seat: int, out: TextIO) -> None:
    print(f"\ngame over: {game.end_reason or 'the game ended'}", file=out)
    winners = game.winners()
    for player, score in enumerate(game.scores()):
        marks = " (you)" if player == seat else ""
        marks += " winner" if player in winners else ""
        print(f"  player {player}: {score}{marks}", file=out)
    if seat in winners:
        print("you win" if len(winners) == 1 else "you share the win", file=out)
    else:
        print(f"winners: {', '.join(map(str, winners)) or 'none'}", file=out)


def render_view(view: Mapping[str, Any]) -> list[str]:
    """Renders a player's view as text lines: each zone with its contents, then the variables."""
    lines: list[str] = []
    for heading in ("zones", "vars"):
        entries: Mapping[str, Any] = view.get(heading) or {}
        if entries:
            lines.append(f"{heading}:")
            width = max(len(str(name)) for name in entries)
            lines.extend(
                f"  {name!s:<{width}}  {_describe(value)}" for name, value in entries.items()
            )
    return lines


def _describe(value: object) -> str:
    if isinstance(value, list):
        if not value:
            return "empty"
        return f"({len(value)}) " + ", ".join(_describe_item(item) for item in value)
    if isinstance(value, Mapping):
        return _describe_mapping(value)
    return _show(value)


def _describe_mapping(value: Mapping[str, Any]) -> str:
    # A zone the player may not see: its size, and the pieces in it this player has seen.
    if "count" in value:
        if not value["count"]:
            return "empty"
        known = value.get("known")
        seen = f", you know: {', '.join(_describe_item(item) for item in known)}" if known else ""
        return f"({value['count']}) hidden{seen}"
    return ", ".join(f"{key}={_describe(item)}" for key, item in value.items()) or "empty"


def _describe_item(item: object) -> str:
    if isinstance(item, Mapping):
        if "label" in item:
            return str(item["label"])
        return "{" + ", ".join(f"{k}={_show(v)}" for k, v in item.items()) + "}"
    if isinstance(item, list):
        return "[" + ", ".join(_describe_item(part) for part in item) + "]"
    return _show(item)


def _show(value: object) -> str:
    if value == "":
        return '""'
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "-"
    return str(value)


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _stdout() -> Console:
    # Built per call so that tests that swap sys.stdout see the output; markup off because
    # labels and zone names contain brackets.
    return Console(file=sys.stdout, markup=False, highlight=False, emoji=False)


def _error(msg: str) -> None:
    print(f"boardkit: error: {msg}", file=sys.stderr)
