"""The ``serve`` command's arguments and handler; the web stack is imported only when it runs."""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING, Any

from boardkit.errors import BoardkitError

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable

    from boardkit.registry import Ruleset
    from boardkit.tools.web.table import Table

DEFAULT_PORT = 8000


class ServeError(BoardkitError):
    """A ``serve`` request that cannot run: bad seats, or the web extra missing."""


def add_serve_command(commands: Any, *, load: Callable[[str], Ruleset]) -> None:  # noqa: ANN401 - argparse's private subparsers type
    """Adds ``serve`` to the command line's subcommands; `load` finds a ruleset by name or path."""
    serve = commands.add_parser("serve", help="play, replay and playtest a ruleset in the browser")
    serve.add_argument("ruleset", nargs="?", default=None, metavar="NAME|FILE",
                       help="a bundled name or a .bk file (default: the first bundled ruleset)")
    serve.add_argument("--players", "-p", type=int, help="player count (default: one per --seats entry)")
    serve.add_argument("--seed", "-s", type=int, default=None,
                       help="seed of the first game (default: a fresh random one, which only the host's page shows)")
    serve.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                       help="set a ruleset option; repeat for several")
    serve.add_argument("--seats", default="human,random",
                       help="who plays each seat, comma-separated: human or an agent name (default human,random)")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine)")
    serve.add_argument("--watch", action="store_true", help="reload the rules when the rule file changes")
    serve.set_defaults(handler=lambda args: run_serve(args, load))


def build_table(args: argparse.Namespace, load: Callable[[str], Ruleset]) -> Table:
    """The table the arguments describe."""
    from boardkit.agents import agent_names  # noqa: PLC0415 - the agents load with the table
    from boardkit.registry import list_rulesets  # noqa: PLC0415 - as above
    from boardkit.tools.web.table import HUMAN, Table  # noqa: PLC0415 - as above

    rules = load(args.ruleset if args.ruleset is not None else list_rulesets()[0])
    seats = [s.strip() for s in args.seats.split(",") if s.strip()]
    known = {HUMAN, *agent_names()}
    for seat in seats:
        if seat.partition(":")[0] not in known:
            msg = f"unknown seat {seat!r} in --seats; a seat is one of: {', '.join(sorted(known))}"
            raise ServeError(msg)
    players = args.players or min(max(len(seats), rules.min_players), rules.max_players)
    seats = (seats + ["random"] * players)[:players]
    options = {}
    declared = rules.options
    for pair in args.option:
        name, _, text = pair.partition("=")
        name = name.strip()
        default = declared[name].default if name in declared else None
        options[name] = text.strip() if isinstance(default, str) else _value(text.strip())
    return Table(rules, seats=seats, seed=args.seed, options=options, watch=args.watch, loader=load)


def _value(text: str) -> int | bool | str:
    """An option value as typed: a whole number, true or false, else the text."""
    if re.fullmatch(r"[+-]?\d+", text):
        return int(text)
    if text.lower() in {"true", "false"}:
        return text.lower() == "true"
    return text


def run_serve(args: argparse.Namespace, load: Callable[[str], Ruleset]) -> int:
    """Serves the table until interrupted; prints the link of each human seat and of the host."""
    try:
        import uvicorn  # noqa: PLC0415 - the web extra is optional

        from boardkit.tools.web.app import create_app  # noqa: PLC0415 - it imports starlette
    except ImportError as exc:
        msg = f"boardkit serve needs the web extra ({exc.name} is missing): pip install 'boardkit[web]'"
        raise ServeError(msg) from None
    table = build_table(args, load)
    base = f"http://{args.host}:{args.port}/"
    print(f"{table.rules.title}, seats: {', '.join(table.seats)}")
    print(f"host (sees everything; undo, save, load, replay): {base}?token={table.host_token}")
    for seat, kind in enumerate(table.seats):
        if kind == "human":
            print(f"seat {seat}: {base}?token={table.seat_tokens[seat]}")
    sys.stdout.flush()
    uvicorn.run(create_app(table), host=args.host, port=args.port, log_level="warning")
    return 0
