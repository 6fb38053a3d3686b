"""Playouts of a ruleset by agents, serial, over processes or on Ray, with a summary.

Every game is reproducible on its own: game ``i`` of a run with seed ``s`` uses the game
seed ``s + i`` and agents seeded from ``s * 1_000_003 + i``, so per-game results do not
depend on how many processes ran them, on which backend, or in which order they finished.
"""

from __future__ import annotations

import collections
import functools
import multiprocessing
import os
import random
import signal
import statistics
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import TYPE_CHECKING, Any

import attrs

import boardkit
from boardkit.agents import make_agent
from boardkit.errors import AgentError, BoardkitError
from boardkit.runtime.events import TurnStarted
from boardkit.tools.ray_backend import run_on_ray

if TYPE_CHECKING:
    from boardkit import Game, Ruleset

__all__ = [
    "ABORTED",
    "AGENT_SEED_FACTOR",
    "STALLED",
    "GameRecord",
    "RulesetRef",
    "SimulationError",
    "SimulationResult",
    "StallWatch",
    "Summary",
    "play_game",
    "simulate",
    "summarize",
]

ABORTED = "aborted"
"""End reason recorded for a game stopped by the ``max_moves`` cap."""

STALLED = "stalled"
"""End reason recorded for a game that reached no new position for ``stall`` decisions."""

AGENT_SEED_FACTOR = 1_000_003
"""Agent seed of game ``i`` is ``seed * AGENT_SEED_FACTOR + i``.

A large factor keeps the agents of runs with nearby base seeds apart: with ``seed + i``,
game 1 of seed 0 and game 0 of seed 1 would play the same moves.
"""

ProgressCallback = Callable[[int, int], None]
"""Called as ``progress(done, total)`` as games complete (in chunks when ``jobs > 1``)."""


class SimulationError(BoardkitError):
    """A game of a simulation raised; says which one, so it can be replayed alone."""

    def __init__(self, msg: str, *, index: int, seed: int, position: str | None = None) -> None:
        super().__init__(msg)
        self.index = index
        self.seed = seed
        self.position = position
        """The saved game (``Game.to_json``) where it failed, to load and replay; None in setup."""

    def __reduce__(self) -> tuple[Any, ...]:
        # Keyword-only arguments defeat the default exception pickling.
        return (_simulation_error, (str(self), self.index, self.seed, self.position))


def _simulation_error(msg: str, index: int, seed: int, position: str | None = None) -> SimulationError:
    return SimulationError(msg, index=index, seed=seed, position=position)


@attrs.frozen
class GameRecord:
    """The outcome of one random game; enough to replay it (seed, agent seed) and summarize it."""

    index: int
    """Position of the game in the run."""
    seed: int
    """Seed given to ``new_game``."""
    agent_seed: int
    """Seed of the random agent's ``random.Random``."""
    decisions: int
    """Moves played."""
    turns: int
    """``game.turn_count`` when the game stopped."""
    scores: tuple[int, ...] | None
    """Final scores; ``None`` for an aborted game, which has no final score."""
    winners: tuple[int, ...]
    """Winning seats; empty for an aborted game."""
    end_reason: str
    """The game's end reason, or ``ABORTED`` (the move cap) or ``STALLED``."""
    seconds: float
    """Time spent playing this game (not comparable across machines)."""
    agents: tuple[str, ...] = ()
    """The agent spec of each seat; empty for the random agent of plain simulations."""
    first_player: int | None = None
    """The player of the game's first turn (the rules may draw it); None if no turn began."""
    tags: tuple[tuple[str, ...], ...] = ()
    """By seat, what each of the run's ``by`` names held when the game stopped (see ``seat_tags``)."""

    @property
    def aborted(self) -> bool:
        """Tells if the game did not end by the rules: cut at the move cap, or stalled."""
        return self.end_reason in {ABORTED, STALLED}

    def to_dict(self) -> dict[str, Any]:
        """Returns a JSON-compatible dict."""
        return {
            "index": self.index,
            "seed": self.seed,
            "agent_seed": self.agent_seed,
            "decisions": self.decisions,
            "turns": self.turns,
            "scores": None if self.scores is None else list(self.scores),
            "winners": list(self.winners),
            "end_reason": self.end_reason,
            "seconds": self.seconds,
            "agents": list(self.agents),
            "first_player": self.first_player,
            "tags": [list(t) for t in self.tags],
        }


@attrs.frozen
class Summary:
    """Aggregates of a run. Turn, score and win figures cover finished games only.

    Aborted games are excluded from them because a capped game has no outcome, and its
    turn count says more about the cap than about the game.
    """

    games: int
    finished: int
    aborted: int
    wall_seconds: float
    games_per_second: float
    mean_decisions: float | None
    """Mean moves per finished game."""
    mean_turns: float | None
    median_turns: float | None
    mean_scores: tuple[float, ...] | None
    """Mean final score by seat; ``None`` when no game finished."""
    win_rates: tuple[float, ...] | None
    """Share of finished games won by each seat, a shared win counting 1/k to each of k winners."""
    end_reasons: dict[str, int]
    """How many games ended for each reason, ``ABORTED`` included, most frequent first."""

    def to_dict(self) -> dict[str, Any]:
        """Returns a JSON-compatible dict."""
        return {
            "games": self.games,
            "finished": self.finished,
            "aborted": self.aborted,
            "wall_seconds": self.wall_seconds,
            "games_per_second": self.games_per_second,
            "mean_decisions": self.mean_decisions,
            "mean_turns": self.mean_turns,
            "median_turns": self.median_turns,
            "mean_scores": None if self.mean_scores is None else list(self.mean_scores),
            "win_rates": None if self.win_rates is None else list(self.win_rates),
            "end_reasons": dict(self.end_reasons),
        }


@attrs.frozen
class SimulationResult:
    """The arguments of a run, its per-game records in game order, and their summary."""

    ruleset: str
    players: int
    seed: int
    jobs: int
    max_moves: int
    options: dict[str, Any]
    records: tuple[GameRecord, ...]
    wall_seconds: float
    summary: Summary = attrs.field(init=False)

    @summary.default
    def _summarize(self) -> Summary:
        return summarize(self.records, players=self.players, wall_seconds=self.wall_seconds)

    def to_dict(self) -> dict[str, Any]:
        """Returns a JSON-compatible dict: the run's arguments, summary and games."""
        return {
            "ruleset": self.ruleset,
            "players": self.players,
            "seed": self.seed,
            "jobs": self.jobs,
            "max_moves": self.max_moves,
            "options": dict(self.options),
            "summary": self.summary.to_dict(),
            "games": [record.to_dict() for record in self.records],
        }


@attrs.frozen
class RulesetRef:
    """What a worker process needs to load a ruleset again; rulesets themselves may not pickle."""

    path: str | None = None
    text: str | None = None
    filename: str = "<ruleset>"

    @classmethod
    def of(cls, rules: Ruleset) -> RulesetRef:
        """Makes a reference to ``rules``: its file if it came from one, else its source text."""
        path = getattr(rules, "source_path", None)
        if path is not None:
            return cls(path=str(path))
        text = getattr(rules, "source_text", None)
        if text is None:
            msg = f"ruleset {rules.name!r} has neither a source path nor a source text"
            raise ValueError(msg)
        # The name it was parsed under: a variant's `extends` resolves relative to it.
        return cls(text=text, filename=getattr(rules, "source_filename", f"{rules.name}.bk"))

    def load(self) -> Ruleset:
        """Parses and checks the referenced ruleset."""
        if self.path is not None:
            return boardkit.load_ruleset(self.path)
        if self.text is None:
            msg = "a RulesetRef needs a path or a text"
            raise ValueError(msg)
        return boardkit.parse_ruleset(self.text, filename=self.filename)


def simulate(
    rules: Ruleset,
    *,
    games: int,
    players: int,
    seed: int = 0,
    jobs: int = 1,
    options: Mapping[str, Any] | None = None,
    max_moves: int = 20000,
    progress: ProgressCallback | None = None,
    on_game: Callable[[GameRecord], None] | None = None,
    agents: Sequence[str] = (),
    rotate: bool = False,
    stall: int | None = None,
    by: Sequence[str] = (),
    backend: str = "local",
    address: str | None = None,
) -> SimulationResult:
    """Plays ``games`` games of ``rules`` and summarizes them.

    With ``jobs > 1`` the workers are spawned, so a script that calls this needs the usual
    ``if __name__ == "__main__":`` guard.

    Args:
        rules: a loaded ruleset.
        games: how many games to play.
        players: player count of every game.
        seed: game ``i`` uses seed ``seed + i``.
        jobs: processes that play: this one and ``jobs - 1`` workers. Results do not depend on it.
        options: ruleset options, as for ``new_game``.
        max_moves: decisions after which an unfinished game is recorded as aborted.
        progress: called as ``progress(done, total)`` as games complete.
        on_game: called with each game's record as it completes (in chunks when ``jobs > 1``).
        agents: agent specs (``make_agent``) by seat, repeated to fill the seats; none: random.
        rotate: game ``i`` seats the agents from the ``i``-th on, so each plays every seat.
        stall: end a game as ``STALLED`` once it reaches no new position for this many decisions.
        by: per-player variables or zones to record for each seat (``GameRecord.tags``).
        backend: ``"local"`` (this process or ``jobs`` processes) or ``"ray"`` (Ray tasks).
        address: the Ray cluster to join; None starts a local Ray instance.

    Returns:
        The per-game records, ordered by game index, and their summary.

    Raises:
        OptionError: bad player count or options (raised before any game is played).
        AgentError: an unknown agent or a bad budget (raised before any game is played).
        SimulationError: a game raised; names the lowest such game, whatever ``jobs`` is.
        ValueError: a count argument is out of range.
    """
    options = dict(options or {})
    _check_run(rules, games=games, jobs=jobs, max_moves=max_moves, stall=stall, players=players, seed=seed,
               options=options, agents=agents)
    check_tags(rules, by, players, seed, options)

    started = time.perf_counter()
    settings: dict[str, Any] = {"players": players, "seed": seed, "options": options, "max_moves": max_moves,
                                "agents": tuple(agents), "rotate": rotate, "stall": stall, "by": tuple(by)}
    jobs = min(jobs, max(games, 1))
    records: list[GameRecord] = []
    if backend == "ray":
        records = run_on_ray(play_chunk_of, [RulesetRef.of(rules), settings], lambda cpus: list(chunks(games, cpus)),
                             address=address, failure=SimulationError, total=games, progress=progress,
                             on_item=on_game)
    elif backend != "local":
        msg = f"unknown backend {backend!r}; backends: local, ray"
        raise ValueError(msg)
    elif jobs == 1:
        records = _play_here(rules, games, settings, progress=progress, on_game=on_game)
    else:
        records = _play_parallel(rules, games, jobs, settings, progress=progress, on_game=on_game)
    records.sort(key=lambda record: record.index)
    return SimulationResult(
        ruleset=rules.name,
        players=players,
        seed=seed,
        jobs=jobs,
        max_moves=max_moves,
        options=options,
        records=tuple(records),
        wall_seconds=time.perf_counter() - started,
    )


def _check_run(rules: Ruleset, *, games: int, jobs: int, max_moves: int, stall: int | None, players: int,
               seed: int, options: dict[str, Any], agents: Sequence[str]) -> None:
    """Fails on bad counts, options and agents here, once, rather than in every game or worker."""
    for name, value, least in (("games", games, 0), ("jobs", jobs, 1), ("max_moves", max_moves, 1),
                               ("stall", 1 if stall is None else stall, 1)):
        if value < least:
            msg = f"{name} must be at least {least}, got {value!r}"
            raise ValueError(msg)
    rules.new_game(players=players, seed=seed, options=options)
    for spec in agents:
        make_agent(spec, 0)


def _play_here(rules: Ruleset, games: int, settings: dict[str, Any], *, progress: ProgressCallback | None,
               on_game: Callable[[GameRecord], None] | None) -> list[GameRecord]:
    records: list[GameRecord] = []
    for index in range(games):
        played = play_chunk(rules, [index], **settings)
        records.extend(played)
        if on_game is not None:
            for record in played:
                on_game(record)
        if progress is not None:
            progress(len(records), games)
    return records


def seating(agents: Sequence[str], players: int, index: int, *, rotate: bool) -> tuple[str, ...]:
    """The agent spec of each seat in game ``index``: the specs repeated, shifted by ``index`` when rotating."""
    if not agents:
        return ()
    shift = index if rotate else 0
    return tuple(agents[(shift + seat) % len(agents)] for seat in range(players))


def play_game(
    rules: Ruleset,
    *,
    index: int,
    players: int,
    seed: int,
    options: Mapping[str, Any],
    max_moves: int,
    agents: Sequence[str] = (),
    rotate: bool = False,
    stall: int | None = None,
    by: Sequence[str] = (),
) -> GameRecord:
    """Plays game ``index`` of a run with base seed ``seed`` (see ``simulate`` for the other arguments).

    Raises:
        SimulationError: the game or an agent raised, or no move was offered while not over;
            it names the game's seed and holds its position (``position``) to replay it.
    """
    game_seed = seed + index
    agent_seed = seed * AGENT_SEED_FACTOR + index
    seats = seating(agents, players, index, rotate=rotate)
    # Without agents one generator plays every seat, as plain random simulations always did.
    choosers: list[Callable[[Game], int]]
    if seats:
        choosers = [make_agent(spec, agent_seed * 16 + seat).act for seat, spec in enumerate(seats)]
    else:
        rng = random.Random(agent_seed)  # noqa: S311 - an opponent, not a secret
        # randrange(n) draws what choice() of n moves would: the fast path plays the same games.
        choosers = [lambda g: rng.randrange(len(g.legal_actions()))] * players
    started = time.perf_counter()
    decisions = 0
    game = None
    watch = StallWatch(stall) if stall is not None else None
    try:
        game = rules.new_game(players=players, seed=game_seed, options=dict(options))
        while not game.is_over and decisions < max_moves:
            if watch is not None and watch.stalled(game):
                break
            n = len(_actions(game, index=index, seed=game_seed))
            seat = game.to_move
            action = _choose(choosers[seat if seat is not None else 0], game, seats, seat, index=index,
                             seed=game_seed, decisions=decisions)
            if type(action) is not int or not 0 <= action < n:
                msg = f"the agent chose {action!r:.40}, not one of the {n} legal actions"
                raise AgentError(msg)
            game.apply_action(action)
            decisions += 1
        finished = game.is_over
        end = (game.end_reason or "unspecified") if finished else (STALLED if decisions < max_moves else ABORTED)
        record = GameRecord(
            index=index,
            seed=game_seed,
            agent_seed=agent_seed,
            decisions=decisions,
            turns=game.turn_count,
            scores=tuple(game.scores()) if finished else None,
            winners=tuple(game.winners()) if finished else (),
            end_reason=end,
            seconds=time.perf_counter() - started,
            agents=seats,
            first_player=next((e.player for e in game.events if isinstance(e, TurnStarted)), None),
            tags=seat_tags(game, by),
        )
    except SimulationError:
        raise
    except BoardkitError as exc:
        where = "in setup" if game is None else f"on move {decisions + 1}"
        msg = f"game {index} (seed {game_seed}) failed {where}: {exc}"
        raise SimulationError(msg, index=index, seed=game_seed, position=_saved(game)) from exc
    return record


def seat_tags(game: Game, by: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """What each name of ``by`` holds for each seat.

    That is a per-player variable's value, or the labels of a per-player zone's pieces
    (``board`` gives the label of ``board[p]``'s piece).
    """
    if not by:
        return ()
    s = game.state
    out = []
    for p in range(game.players):
        tags = []
        for name in by:
            key = (name, p)
            if key in s.vars:
                tags.append(str(s.vars[key]))
            else:
                tags.append("+".join(piece["label"] for piece in game.zone(name, p)))
        out.append(tuple(tags))
    return tuple(out)


def check_tags(rules: Ruleset, by: Sequence[str], players: int, seed: int, options: dict[str, Any]) -> None:
    """Raises ValueError for a ``by`` name that is no per-player variable or zone."""
    game = rules.new_game(players=players, seed=seed, options=options)
    for name in by:
        if (name, 0) not in game.state.vars and ((name, 0) not in game.state.layout.zslot):
            msg = f"--by {name!r}: not a variable or zone indexed by player alone"
            raise ValueError(msg)


def _choose(chooser: Callable[[Game], int], game: Game, seats: tuple[str, ...], seat: int | None, *,
            index: int, seed: int, decisions: int) -> int:
    """Asks an agent for its action; an agent that raises is reported with the game's seed and position."""
    try:
        return chooser(game)
    except Exception as exc:
        who = f"agent {seats[seat]!r} (seat {seat})" if seats and seat is not None else "the random agent"
        msg = (f"game {index} (seed {seed}): {who} raised on move {decisions + 1} "
               f"({type(exc).__name__}: {exc}); the error holds the position to replay it")
        raise SimulationError(msg, index=index, seed=seed, position=_saved(game)) from exc


def _saved(game: Game | None) -> str | None:
    """The game as a save to replay it from, if it can still be saved."""
    if game is None:
        return None
    try:
        return game.to_json()
    except (BoardkitError, AttributeError, TypeError, ValueError):  # a game broken by the failure
        return None


class StallWatch:
    """Tells when a game has reached no new position for ``bound`` decisions in a row.

    A position is what the rules can see: the pieces in every zone, the variables, where the
    procedures stand and knowledge; not the turn count, the event log or the random draws.
    A game that repeats positions, or goes round a cycle of them, stalls.
    """

    def __init__(self, bound: int) -> None:
        self.bound = bound
        self._seen: set[int] = set()
        self._since = 0

    def stalled(self, game: Game) -> bool:
        """Records the game's position; True once ``bound`` decisions have passed without a new one."""
        s = game.state
        key = hash((tuple(tuple(p.id for p in z) for z in s.zones), repr(sorted(s.vars.items(), key=repr)),
                    repr(s.frames), tuple(sorted(s.known.items()))))
        if key in self._seen:
            self._since += 1
        else:
            self._seen.add(key)
            self._since = 0
        return self._since >= self.bound


def _actions(game: Game, *, index: int, seed: int) -> list[int]:
    """Returns the legal actions of a game that is not over; SimulationError if there are none."""
    actions = game.legal_actions()
    if not actions:
        msg = f"game {index} (seed {seed}): no legal moves but the game is not over"
        raise SimulationError(msg, index=index, seed=seed)
    return actions


def summarize(
    records: Sequence[GameRecord], *, players: int, wall_seconds: float,
) -> Summary:
    """Aggregates per-game records; see ``Summary`` for what each figure covers."""
    done = [record for record in records if not record.aborted]
    mean_scores: tuple[float, ...] | None = None
    win_rates: tuple[float, ...] | None = None
    if done:
        totals = [0.0] * players
        wins = [0.0] * players
        for record in done:
            for seat, score in enumerate(record.scores or ()):
                totals[seat] += score
            for seat in record.winners:
                wins[seat] += 1 / len(record.winners)
        mean_scores = tuple(total / len(done) for total in totals)
        win_rates = tuple(win / len(done) for win in wins)
    turns = [record.turns for record in done]
    reasons = Counter(record.end_reason for record in records)
    return Summary(
        games=len(records),
        finished=len(done),
        aborted=len(records) - len(done),
        wall_seconds=wall_seconds,
        games_per_second=len(records) / wall_seconds if wall_seconds > 0 else 0.0,
        mean_decisions=statistics.fmean(r.decisions for r in done) if done else None,
        mean_turns=statistics.fmean(turns) if turns else None,
        median_turns=float(statistics.median(turns)) if turns else None,
        mean_scores=mean_scores,
        win_rates=win_rates,
        end_reasons=dict(sorted(reasons.items(), key=lambda item: (-item[1], item[0]))),
    )


def play_chunk(rules: Ruleset, indexes: Sequence[int], **settings: Any) -> list[GameRecord]:  # noqa: ANN401 - simulate's settings
    """Plays the games ``indexes`` of a run (the settings are ``play_game``'s keywords)."""
    return [play_game(rules, index=index, **settings) for index in indexes]


def play_chunk_of(ref: RulesetRef, settings: dict[str, Any], indexes: Sequence[int]) -> list[GameRecord]:
    """``play_chunk`` in a worker: the ruleset loaded from its reference, once per process."""
    return play_chunk(_load_cached(ref), indexes, **settings)


@functools.cache
def _load_cached(ref: RulesetRef) -> Ruleset:
    # One parse per worker process, however many chunks it plays.
    return ref.load()


def watch_parent(parent: int) -> None:
    """Ends this worker process soon after the process that started it is gone.

    A parent stopped by a signal (`kill`, a closed terminal) cannot shut its pool down, and a
    worker would otherwise play its games to the end of its chunk with no one to read them.
    """
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_WATCH_PERIOD)
        signal.raise_signal(signal.SIGTERM)  # the whole process, whatever its main thread is doing

    threading.Thread(target=watch, name="boardkit-watch-parent", daemon=True).start()


# Seconds between a worker's looks at its parent.
_WATCH_PERIOD = 0.5


def chunks(games: int, jobs: int) -> Iterator[range]:
    # Up to 16 games, about eight chunks per process: enough to balance load and update
    # progress, few enough that sending results back costs little next to playing the
    # games. Chunks shrink near the end so that no process is left alone with a long tail.
    size = max(1, min(16, games // (jobs * 8)))
    start = 0
    while start < games:
        step = max(1, min(size, (games - start) // (jobs * 2)))
        yield range(start, start + step)
        start += step


def _play_parallel(
    rules: Ruleset,
    games: int,
    jobs: int,
    settings: dict[str, Any],
    *,
    progress: ProgressCallback | None,
    on_game: Callable[[GameRecord], None] | None,
) -> list[GameRecord]:
    """Plays on ``jobs - 1`` worker processes and in this one.

    This process has the ruleset loaded already: it plays games, one at a time, while the
    workers start (spawn, import, load) and between looks at what they have finished.
    """
    # "spawn" behaves the same on every platform and never forks a process that holds
    # locks of other threads (a live progress bar runs one).
    pool = ProcessPoolExecutor(max_workers=jobs - 1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=watch_parent, initargs=(os.getpid(),))
    run = _ParallelRun(rules, games, jobs, settings, progress=progress, on_game=on_game)
    try:
        run.play(pool)
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    if run.failures:
        raise min(run.failures, key=lambda failure: failure.index)
    return run.records


class _ParallelRun:
    """The chunks of one parallel run: those to hand out, those out, and what came back.

    Chunks go out in index order, so every chunk below a failing game has started and will
    finish: the lowest failure found is the one a serial run reports.
    """

    def __init__(self, rules: Ruleset, games: int, jobs: int, settings: dict[str, Any], *,
                 progress: ProgressCallback | None, on_game: Callable[[GameRecord], None] | None) -> None:
        self.rules = rules
        self.ref = RulesetRef.of(rules)
        self.games = games
        self.workers = jobs - 1
        self.settings = settings
        self.progress = progress
        self.on_game = on_game
        self.todo = collections.deque(chunks(games, jobs))
        self.pending: set[Future[list[GameRecord]]] = set()
        self.records: list[GameRecord] = []
        self.failures: list[SimulationError] = []

    def play(self, pool: ProcessPoolExecutor) -> None:
        while self.pending or self._more():
            # Each worker has one chunk running and one waiting.
            while self._more() and len(self.pending) < 2 * self.workers:
                self.pending.add(pool.submit(play_chunk_of, self.ref, self.settings, self.todo.popleft()))
            if self._more():
                self._play_one_here()
                done = {future for future in self.pending if future.done()}
            else:
                done, _ = wait(self.pending, return_when=FIRST_COMPLETED)
            self.pending -= done
            for future in done:
                self._take(future)

    def _more(self) -> bool:
        return bool(self.todo) and not self.failures

    def _play_one_here(self) -> None:
        chunk = self.todo.popleft()
        if len(chunk) > 1:
            self.todo.appendleft(chunk[1:])
        try:
            played = play_chunk(self.rules, chunk[:1], **self.settings)
        except SimulationError as failure:
            self.failures.append(failure)  # every chunk out is below it: they all finish
            return
        self._add(played)

    def _take(self, future: Future[list[GameRecord]]) -> None:
        """Adds a finished chunk's records, or its SimulationError; any other error propagates."""
        if future.cancelled():
            return
        failure = future.exception()
        if failure is None:
            self._add(future.result())
        elif isinstance(failure, SimulationError):
            self.failures.append(failure)
            for later in self.pending:  # not started yet, so above this chunk
                later.cancel()
        else:
            raise failure

    def _add(self, played: list[GameRecord]) -> None:
        self.records.extend(played)
        if self.on_game is not None:
            for record in played:
                self.on_game(record)
        if self.progress is not None and not self.failures:
            self.progress(len(self.records), self.games)
