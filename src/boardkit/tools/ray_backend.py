"""Chunks of games as Ray tasks: what local workers play, on a cluster.

Ray is an optional extra (``pip install boardkit[ray]``). ``tools.simulate`` hands over its
chunk function and how to split the games; each task plays a chunk from a ruleset reference,
records come back as tasks finish, and the caller puts them in game order, so the per-game
results are those of a local run with the same seeds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardkit.errors import BoardkitError

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence


class BackendError(BoardkitError):
    """The Ray backend cannot run: Ray is not installed, or the cluster cannot be reached."""


def _ray() -> Any:  # noqa: ANN401 - the ray module, untyped
    try:
        import ray  # noqa: PLC0415 - an optional extra, imported when asked for
    except ImportError:
        msg = "the ray backend needs Ray: pip install 'boardkit[ray]'"
        raise BackendError(msg) from None
    return ray


def run_on_ray(task: Callable[..., list[Any]], args: Sequence[Any], split: Callable[[int], Sequence[range]], *,
               address: str | None, failure: type[Exception], total: int,
               progress: Callable[[int, int], None] | None, on_item: Callable[[Any], None] | None) -> list[Any]:
    """Runs ``task(*args, chunk)`` for every chunk of ``split(cpus)`` as Ray tasks and gathers their items.

    Joins the cluster at ``address``, or starts a local Ray instance (and stops it after).

    Raises:
        BackendError: no Ray, or no cluster at ``address``.
        failure: a task raised it (the one with the lowest ``index``, as a local run reports).
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
        remote = ray.remote(task)
        stored = [ray.put(a) for a in args]
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        pending = [remote.remote(*stored, list(chunk)) for chunk in split(cpus)]
        return _collect(ray, pending, failure, total=total, progress=progress, on_item=on_item)
    finally:
        if started_here:
            ray.shutdown()


def _collect(ray: Any, pending: list[Any], failure: type[Exception], *, total: int,  # noqa: ANN401 - untyped ray
             progress: Callable[[int, int], None] | None, on_item: Callable[[Any], None] | None) -> list[Any]:
    """The items of the tasks as they finish; the lowest failure once all are done."""
    items: list[Any] = []
    failures: list[Exception] = []
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        try:
            got = ray.get(done[0])
        except ray.exceptions.RayTaskError as exc:
            cause = getattr(exc, "cause", None)
            if not isinstance(cause, failure):
                raise
            failures.append(cause)
            continue
        items.extend(got)
        if on_item is not None:
            for item in got:
                on_item(item)
        if progress is not None and not failures:
            progress(len(items), total)
    if failures:
        raise min(failures, key=lambda f: getattr(f, "index", 0))
    return items
