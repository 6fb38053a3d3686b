"""Simulations as Ray tasks: the same chunks of games as local workers play, on a cluster.

Ray is an optional extra (``pip install boardkit[ray]``). Each task plays a chunk of games from
a ruleset reference; records come back as they finish and are put in game order, so the
per-game results are those of a local run with the same seeds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardkit.errors import BoardkitError
from boardkit.tools.simulate import SimulationError, chunks, play_chunk_of

if TYPE_CHECKING:
    from collections.abc import Callable

    from boardkit.tools.simulate import GameRecord, ProgressCallback, RulesetRef


class BackendError(BoardkitError):
    """The Ray backend cannot run: Ray is not installed, or the cluster cannot be reached."""


def _ray() -> Any:  # noqa: ANN401 - the ray module, untyped
    try:
        import ray  # noqa: PLC0415 - an optional extra, imported when asked for
    except ImportError:
        msg = "the ray backend needs Ray: pip install 'boardkit[ray]'"
        raise BackendError(msg) from None
    return ray


def play_on_ray(ref: RulesetRef, games: int, settings: dict[str, Any], *, address: str | None,
                progress: ProgressCallback | None, on_game: Callable[[GameRecord], None] | None) -> list[GameRecord]:
    """Plays the games of a run as Ray tasks; joins the cluster at ``address``, or starts a local one.

    Raises:
        BackendError: no Ray, or no cluster at ``address``.
        SimulationError: a game raised (the lowest such game, as a local run reports).
    """
    ray = _ray()
    started_here = False
    if not ray.is_initialized():
        try:
            ray.init(address=address, include_dashboard=False, log_to_driver=False, configure_logging=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            where = f"at {address!r}" if address else "locally"
            msg = f"cannot reach a Ray cluster {where}: {exc}"
            raise BackendError(msg) from None
        started_here = True
    try:
        task = ray.remote(play_chunk_of)
        ref_in_store = ray.put(ref)
        settings_in_store = ray.put(settings)
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        pending = [task.remote(ref_in_store, list(chunk), settings_in_store) for chunk in chunks(games, cpus)]
        return _collect(ray, pending, games, progress=progress, on_game=on_game)
    finally:
        if started_here:
            ray.shutdown()


def _collect(ray: Any, pending: list[Any], games: int, *, progress: ProgressCallback | None,  # noqa: ANN401 - untyped ray
             on_game: Callable[[GameRecord], None] | None) -> list[GameRecord]:
    """The records of the tasks as they finish; the lowest failed game's SimulationError once all are done."""
    records: list[GameRecord] = []
    failures: list[SimulationError] = []
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        try:
            played = ray.get(done[0])
        except ray.exceptions.RayTaskError as exc:
            cause = getattr(exc, "cause", None)
            if not isinstance(cause, SimulationError):
                raise
            failures.append(cause)
            continue
        records.extend(played)
        if on_game is not None:
            for record in played:
                on_game(record)
        if progress is not None and not failures:
            progress(len(records), games)
    if failures:
        raise min(failures, key=lambda failure: failure.index)
    return records
