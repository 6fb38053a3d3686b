"""Games driven by Hypothesis: strategies for any ruleset, and the search behind `boardkit test`.

Moves are chosen by index into `legal_actions()`, one Hypothesis choice per decision, so that
Hypothesis shrinks a failing game to a short sequence of small indexes: the trace that is
printed and saved.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import attrs
from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from boardkit.registry import Ruleset, load_ruleset
from boardkit.testing.guarantees import Checks, Run, play_checked
from boardkit.testing.trace import Trace, trace_of

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from boardkit.game import Game

# Decisions chosen by Hypothesis one by one; later ones by a generator it seeds (a choice
# sequence has a bounded length). Failures found within them shrink decision by decision.
EXPLICIT_DECISIONS = 400
_SEEDS = st.integers(min_value=0, max_value=2**31 - 1)


def _rules(rules: Ruleset | str) -> Ruleset:
    return rules if isinstance(rules, Ruleset) else load_ruleset(rules)


@attrs.frozen
class GameStart:
    """What a game starts from: players, seed and options."""

    players: int
    seed: int
    options: dict[str, Any]


def game_starts(rules: Ruleset | str, players: int | Sequence[int] | None = None,
                options: dict[str, Any] | None = None) -> st.SearchStrategy[GameStart]:
    """Starts of games: any allowed player count and, unless `options` are given, any options.

    Options with a list of choices take any of them; others keep their defaults.
    """
    rules = _rules(rules)
    counts = [players] if isinstance(players, int) else list(
        players or range(rules.min_players, rules.max_players + 1))
    chosen = st.just(dict(options)) if options is not None else st.fixed_dictionaries(
        {name: st.sampled_from(list(opt.choices)) for name, opt in rules.options.items() if opt.choices})
    return st.builds(GameStart, st.sampled_from(counts), _SEEDS, chosen)


def games(rules: Ruleset | str, players: int | Sequence[int] | None = None,
          options: dict[str, Any] | None = None) -> st.SearchStrategy[Game]:
    """New games of a ruleset, with its invariants checked after every decision."""
    rules = _rules(rules)
    return game_starts(rules, players, options).map(
        lambda g: rules.new_game(players=g.players, seed=g.seed, options=g.options, check_invariants=True))


@st.composite
def _sequences(draw: st.DrawFn, rules: Ruleset, players: int | Sequence[int] | None,
               options: dict[str, Any] | None, max_decisions: int) -> Trace:
    start = draw(game_starts(rules, players, options))
    game = rules.new_game(players=start.players, seed=start.seed, options=start.options, check_invariants=True)
    actions: list[int] = []
    choose = _chooser(draw)
    while not game.is_over and len(actions) < max_decisions:
        action = choose(len(game.legal_actions()))
        game.apply_action(action)
        actions.append(action)
    return trace_of(rules, players=start.players, seed=start.seed, options=start.options, actions=tuple(actions),
                    labels=tuple(game.history))


def move_sequences(rules: Ruleset | str, players: int | Sequence[int] | None = None,
                   options: dict[str, Any] | None = None, max_decisions: int = 200) -> st.SearchStrategy[Trace]:
    """Traces of games played by Hypothesis' choices: a start and up to `max_decisions` decisions.

    Invariants are checked while the sequence is drawn; `replay(trace, rules)` plays one again.
    """
    return _sequences(_rules(rules), players, options, max_decisions)


def _chooser(draw: Callable[[st.SearchStrategy[int]], int]) -> Callable[[int], int]:
    """Chooses an action among n: by Hypothesis for the first decisions, then by a seeded generator."""
    made = 0
    tail: random.Random | None = None

    def choose(n: int) -> int:
        nonlocal made, tail
        made += 1
        if n <= 1:
            return 0
        if made <= EXPLICIT_DECISIONS:
            return draw(st.integers(0, n - 1))
        if tail is None:
            tail = random.Random(draw(_SEEDS))  # noqa: S311 - game moves, no secret
        return tail.randrange(n)

    return choose


@attrs.frozen
class Report:
    """What a `boardkit test` run found."""

    ruleset: str
    games: int
    ended: int
    stalled: int
    decisions: int
    invariants: tuple[str, ...]
    failure: Trace | None = None
    error: BaseException | None = attrs.field(default=None, eq=False)

    @property
    def ok(self) -> bool:
        """Whether every game kept every invariant and guarantee."""
        return self.failure is None


class RulesetTestError(AssertionError):
    """A ruleset broke an invariant or a guarantee; carries the shrunk trace."""

    def __init__(self, report: Report) -> None:
        self.report = report
        trace = report.failure
        assert trace is not None  # noqa: S101 - only made for a failed run
        super().__init__(describe_failure(trace))


def describe_failure(trace: Trace) -> str:
    """The failure and the decisions that lead to it, one a line."""
    head = (f"{trace.ruleset}: {trace.players} players, seed {trace.seed}, options {trace.options}; "
            f"{len(trace.labels)} decisions:")
    lines = [f"{trace.failure}", head]
    lines += [f"  {n:>3}. [{a}] {label}" for n, (a, label) in enumerate(zip(trace.actions, trace.labels,
                                                                             strict=True), 1)]
    return "\n".join(lines)


def explore(rules: Ruleset | str, *, games: int = 20, players: int | Sequence[int] | None = None,
            options: dict[str, Any] | None = None, seed: int = 0, checks: Checks | None = None) -> Report:
    """Plays `games` games chosen by Hypothesis, checking invariants and guarantees throughout.

    On a failure, Hypothesis shrinks the game to a short sequence of decisions; the report
    holds its trace (`Report.failure`) and the error.
    """
    rules = _rules(rules)
    checks = checks or Checks()
    starts = game_starts(rules, players, options)
    runs: list[Run] = []
    stats = {"games": 0, "ended": 0, "stalled": 0, "decisions": 0}
    failed = False

    @settings(max_examples=games, database=None, deadline=None, derandomize=False, report_multiple_bugs=False,
              verbosity=Verbosity.quiet, suppress_health_check=list(HealthCheck),
              phases=(Phase.generate, Phase.shrink))
    @hypothesis_seed(seed)
    @given(st.data())
    def one_game(data: st.DataObject) -> None:
        nonlocal failed
        start = data.draw(starts)
        run = Run(rules, start.players, start.seed, start.options)
        runs.append(run)
        del runs[:-1]
        try:
            play_checked(run, _chooser(data.draw), checks)
        except BaseException:
            failed = True
            raise
        if not failed:
            stats["games"] += 1
            stats["ended"] += run.ended
            stats["stalled"] += run.stalled
            stats["decisions"] += len(run.actions)

    invariants = tuple(inv.name for inv in rules.program.game.invariants)
    try:
        one_game()
    except Exception as exc:  # noqa: BLE001 - whatever broke, the trace shows how to get there
        run = runs[-1]
        message = f"{type(exc).__name__}: {exc}"
        trace = trace_of(rules, players=run.players, seed=run.seed, options=run.options, actions=tuple(run.actions),
                         labels=tuple(run.labels), failure=message)
        return Report(rules.name, stats["games"] + 1, stats["ended"], stats["stalled"], stats["decisions"],
                      invariants, trace, exc)
    return Report(rules.name, stats["games"], stats["ended"], stats["stalled"], stats["decisions"], invariants)


def check_rules(rules: Ruleset | str, *, games: int = 20, players: int | Sequence[int] | None = None,
                options: dict[str, Any] | None = None, seed: int = 0, checks: Checks | None = None) -> Report:
    """Runs `explore` and raises `RulesetTestError` (an AssertionError) with the shrunk trace on a failure.

    The one call a variant's tests need:

        def test_my_variant():
            check_rules("my_variant.bk", games=10)
    """
    report = explore(rules, games=games, players=players, options=options, seed=seed, checks=checks)
    if report.failure is not None:
        raise RulesetTestError(report)
    return report
