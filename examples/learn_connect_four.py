"""A small agent learns Connect Four through the PettingZoo environment, and beats random play.

It is a linear softmax policy over the observation vector (numpy only), trained by policy
gradient (REINFORCE with a running baseline) against a random opponent, seat chosen at random.
Every `--every` episodes it plays `--eval` games against random and prints its win rate; with
matplotlib installed, `--plot FILE` saves the curve.

    python examples/learn_connect_four.py --episodes 2000 --plot win_rate.png

Needs the extra: pip install 'boardkit[pettingzoo]'.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

RULES = str(Path(__file__).resolve().parents[1] / "benchmarks" / "connect_four.bk")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=2000)
    parser.add_argument("--every", type=int, default=250, help="episodes between evaluations")
    parser.add_argument("--eval", type=int, default=100, help="games per evaluation")
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", help="save the win-rate curve to this file (needs matplotlib)")
    args = parser.parse_args(argv)
    try:
        import numpy as np  # noqa: PLC0415 - the extra may be missing

        from boardkit.adapters.pettingzoo import env  # noqa: PLC0415
    except ImportError:
        print("this example needs the pettingzoo extra: pip install 'boardkit[pettingzoo]'")
        return 0

    e = env(RULES)
    rng = np.random.default_rng(args.seed)
    agent0 = e.possible_agents[0]
    n_obs = e.observation_space(agent0)["observation"].shape[0]
    n_act = e.action_space(agent0).n
    weights = np.zeros((n_obs, n_act))

    def policy(obs: dict[str, np.ndarray]) -> np.ndarray:
        logits = obs["observation"] @ weights
        logits = np.where(obs["action_mask"] == 1, logits, -np.inf)
        p = np.exp(logits - logits.max())
        return p / p.sum()

    def play(learner: str, seed: int) -> tuple[float, list[tuple[np.ndarray, np.ndarray, int]]]:
        """One game; returns the learner's reward and its (observation, probabilities, action) steps."""
        e.reset(seed=seed)
        steps = []
        reward = 0.0
        for agent in e.agent_iter():
            obs, r, terminated, truncated, _ = e.last()
            if agent == learner:
                reward += r
            if terminated or truncated:
                e.step(None)
                continue
            if agent == learner:
                p = policy(obs)
                a = int(rng.choice(n_act, p=p))
                steps.append((obs["observation"], p, a))
            else:
                a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            e.step(a)
        return reward, steps

    def win_rate(games: int) -> float:
        wins = sum(play(e.possible_agents[g % 2], seed=10**6 + g)[0] > 0 for g in range(games))
        return wins / games

    curve = [(0, win_rate(args.eval))]
    print(f"{'episodes':>8}  win rate against random")
    print(f"{0:>8}  {curve[0][1]:.2f}")
    baseline = 0.0
    for episode in range(1, args.episodes + 1):
        learner = e.possible_agents[int(rng.integers(2))]
        reward, steps = play(learner, seed=episode)
        advantage = reward - baseline
        baseline += 0.05 * (reward - baseline)
        for x, p, a in steps:
            grad = -np.outer(x, p)
            grad[:, a] += x
            weights += args.lr * advantage * grad / max(1.0, float(x @ x))
        if episode % args.every == 0:
            curve.append((episode, win_rate(args.eval)))
            print(f"{episode:>8}  {curve[-1][1]:.2f}")
    if args.plot:
        try:
            import matplotlib as mpl  # noqa: PLC0415 - optional

            mpl.use("Agg")
            import matplotlib.pyplot as plt  # noqa: PLC0415
        except ImportError:
            print("matplotlib is not installed: no plot (the table above has the same numbers)")
            return 0
        plt.plot([c[0] for c in curve], [c[1] for c in curve], marker="o")
        plt.xlabel("training episodes")
        plt.ylabel("win rate against random")
        plt.title("Connect Four: a linear policy learning through PettingZoo")
        plt.ylim(0, 1)
        plt.savefig(args.plot)
        print(f"saved {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
