"""The command-line side of agents: ``simulate --agents``, ``tournament`` and ``compare``.

It only parses arguments, shows progress and writes results; the games are played by
``tools.simulate``, the figures drawn by ``tools.tournament`` and ``tools.compare``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

import boardkit
from boardkit.agents import agent_names, make_agent
from boardkit.errors import AgentError
from boardkit.tools.arguments import at_least
from boardkit.tools.compare import compare_rulesets, render_comparison
from boardkit.tools.report import html_report
from boardkit.tools.simulate import SimulationError
from boardkit.tools.tournament import render_text, run_tournament

if TYPE_CHECKING:
    from boardkit import Ruleset
    from boardkit.tools.simulate import ProgressCallback

#: Adds the ruleset, --players, --seed, --option and --max-moves arguments (cli.py's).
AddGameArguments = Callable[[argparse.ArgumentParser], None]
#: Works out the player count and options of a ruleset from the parsed arguments (cli.py's).
Setup = Callable[[argparse.Namespace, "Ruleset"], tuple[int, dict[str, Any]]]


def agent_list(text: str) -> list[str]:
    """Parses ``--agents A,B,...``, checking each spec now: an argparse error lists the agents."""
    specs = [s.strip() for s in text.split(",") if s.strip()]
    if not specs:
        msg = f"expected agents such as random,greedy,mcts:200; agents: {', '.join(agent_names())}"
        raise argparse.ArgumentTypeError(msg)
    for spec in specs:
        try:
            make_agent(spec, 0)
        except AgentError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return specs


def add_run_arguments(parser: argparse.ArgumentParser, *, agents_required: bool) -> None:
    """The arguments every run with agents shares: agents, stalls, jobs and the backend."""
    parser.add_argument("--agents", "-a", type=agent_list, required=agents_required, default=[],
                        metavar="A,B,...", help=f"agents by seat, e.g. mcts:400,random ({', '.join(agent_names())}; "
                        "mcts:N iterations or mcts:Ns seconds)")
    parser.add_argument("--stall", type=positive_int, default=None, metavar="N",
                        help="end a game as stalled after N decisions without a new position")
    parser.add_argument("--backend", choices=("local", "ray"), default="local",
                        help="local processes (--jobs) or Ray tasks (pip install 'boardkit[ray]')")
    parser.add_argument("--address", metavar="HOST:PORT", help="the Ray cluster to join (default: start one here)")


positive_int = at_least(1)
"""Games, players, moves: a whole number of at least 1."""


def run_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The keywords of ``simulate`` that ``add_run_arguments`` sets."""
    return {"agents": args.agents, "stall": args.stall, "backend": args.backend, "address": args.address}


def add_commands(commands: Any, add_game_arguments: AddGameArguments, setup: Setup) -> None:  # noqa: ANN401 - argparse's private subparsers type
    """Adds ``tournament`` and ``compare`` to the command line."""
    tour = commands.add_parser("tournament", help="agents play in rotating seats: win rates, ratings, reports")
    add_game_arguments(tour)
    tour.add_argument("--games", "-n", type=positive_int, required=True, help="games to play")
    tour.add_argument("--jobs", "-j", type=int, default=1,
                      help="processes that play, this one included (0: one per CPU)")
    tour.add_argument("--by", action="append", default=[], metavar="NAME",
                      help="also give win rates by a per-player variable or zone (e.g. board); repeat for several")
    add_run_arguments(tour, agents_required=True)
    tour.add_argument("--json", action="store_true", help="print the figures and games as JSON")
    tour.add_argument("--report", metavar="FILE.html", help="write an HTML report with plots")
    tour.set_defaults(handler=lambda args: _tournament(args, setup), stall=200)

    comp = commands.add_parser("compare", help="a ruleset against a variant: differences with intervals")
    comp.add_argument("base", metavar="BASE", help="a bundled name or a .bk file")
    add_game_arguments(comp)
    comp.add_argument("--games", "-n", type=positive_int, default=200, help="games of each (default 200)")
    comp.add_argument("--jobs", "-j", type=int, default=1,
                      help="processes that play, this one included (0: one per CPU)")
    add_run_arguments(comp, agents_required=False)
    comp.add_argument("--json", action="store_true", help="print the comparison as JSON")
    comp.set_defaults(handler=lambda args: _compare(args, setup), stall=200)


@contextlib.contextmanager
def kept_failures() -> Iterator[None]:
    """Writes the position of a game that failed to a file the error message names, to replay it.

    The file goes to the temporary directory, not the working one, which a failed run must not litter.
    """
    try:
        yield
    except SimulationError as exc:
        if exc.position is None:
            raise
        handle, name = tempfile.mkstemp(prefix=f"boardkit-failed-seed{exc.seed}-", suffix=".json")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(exc.position)
        path = Path(name)
        msg = f"{exc}; its position is saved in {path} (load it with Ruleset.load_game)"
        raise SimulationError(msg, index=exc.index, seed=exc.seed, position=exc.position) from None


def with_progress(games: int, what: str, run: Callable[[ProgressCallback | None], Any]) -> Any:  # noqa: ANN401 - whatever the run returns
    """Runs ``run(progress)`` under a progress bar on stderr (any backend reports through it)."""
    columns = (TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(what, total=games)
        return run(lambda done, _total: bar.update(task, completed=done))


def _jobs(args: argparse.Namespace) -> int:
    return args.jobs or os.cpu_count() or 1


def _tournament(args: argparse.Namespace, setup: Setup) -> int:
    rules = boardkit.load_ruleset(args.ruleset)
    players, options = setup(args, rules)

    def run(progress: ProgressCallback | None) -> Any:  # noqa: ANN401 - a Tournament
        return run_tournament(rules, games=args.games, players=players, seed=args.seed, jobs=_jobs(args),
                              options=options, max_moves=args.max_moves, by=args.by, progress=progress,
                              **run_settings(args))

    with kept_failures():
        tour = run(None) if args.json else with_progress(args.games, "tournament", run)
    figures = tour.to_dict()
    if args.report:
        Path(args.report).write_text(html_report(figures), encoding="utf-8")
    if args.json:
        print(json.dumps(figures))
    else:
        print(render_text(figures))
        if args.report:
            print(f"report: {args.report}")
    return 0


def _compare(args: argparse.Namespace, setup: Setup) -> int:
    base = boardkit.load_ruleset(args.base)
    variant = boardkit.load_ruleset(args.ruleset)
    players, options = setup(args, variant)
    with kept_failures():
        figures = compare_rulesets(base, variant, agents=args.agents or ["random"], games=args.games,
                                   players=players, seed=args.seed, jobs=_jobs(args), options=options,
                                   max_moves=args.max_moves, stall=args.stall, backend=args.backend,
                                   address=args.address)
    print(json.dumps(figures) if args.json else render_comparison(figures))
    return 0
