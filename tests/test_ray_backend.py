"""The Ray backend plays the same games as a local run, on a real local Ray instance."""

from __future__ import annotations

from pathlib import Path

import pytest

import boardkit
from boardkit.tools.ray_backend import BackendError, run_on_ray
from boardkit.tools.simulate import SimulationError, simulate

CONNECT_FOUR = str(Path(__file__).resolve().parents[1] / "benchmarks" / "connect_four.bk")


def test_ray_tasks_give_the_per_game_results_of_a_local_run() -> None:
    ray = pytest.importorskip("ray")
    rules = boardkit.load_ruleset(CONNECT_FOUR)
    settings = {"games": 4, "players": 2, "seed": 5, "agents": ["greedy:5", "random"], "rotate": True}
    local = simulate(rules, **settings)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        seen: list[int] = []
        remote = simulate(rules, **settings, backend="ray", progress=lambda done, _total: seen.append(done))
    finally:
        ray.shutdown()
    def key(result: object) -> list[tuple[object, ...]]:
        return [(r.index, r.seed, r.agent_seed, r.agents, r.decisions, r.scores, r.winners, r.end_reason)
                for r in result.records]  # type: ignore[attr-defined]
    assert key(remote) == key(local)
    assert seen[-1] == 4


def test_an_unreachable_cluster_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    ray = pytest.importorskip("ray")

    def refuse(**_kwargs: object) -> None:
        msg = "Failed to connect to Ray cluster at 10.0.0.1:6379"
        raise ConnectionError(msg)

    monkeypatch.setattr(ray, "init", refuse)
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    with pytest.raises(BackendError, match="cannot reach a Ray cluster at '10.0.0.1:6379'"):
        run_on_ray(len, [[]], lambda _cpus: [range(2)], address="10.0.0.1:6379", failure=SimulationError, total=2,
                   progress=None, on_item=None)
