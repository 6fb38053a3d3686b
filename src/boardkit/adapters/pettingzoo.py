"""Any ruleset as a PettingZoo AEC environment (needs the `boardkit[pettingzoo]` extra).

>>> from boardkit.adapters.pettingzoo import env
>>> e = env("benchmarks/connect_four.bk")
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> int(obs["action_mask"].sum())
7
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from boardkit.adapters.common import Spaces, check_reward, rewards
from boardkit.errors import IllegalMove, OptionError

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from boardkit.game import Game
    from boardkit.registry import Ruleset

__all__ = ["BoardkitEnv", "env"]


def env(rules: Ruleset | str, *, players: int | None = None, options: dict[str, Any] | None = None,
        render_mode: str | None = None, max_moves: int | None = None, reward: str = "win") -> AECEnv:
    """An AEC environment of a ruleset (a name, a rule file's path or a `Ruleset`).

    Args:
        rules: the ruleset.
        players: the player count (default: the fewest the game is for).
        options: the game options.
        render_mode: None, or "ansi" for `render()` to return the game as text.
        max_moves: cut a game short (truncation) after this many decisions; None never does.
        reward: "win" (1 for a winner, -1 for the others) or "score" (score less the mean).

    Raises:
        RuleError: a decision of the rules whose options cannot be bounded.
        OptionError: a bad player count, option, render mode or reward.
    """
    return OrderEnforcingWrapper(BoardkitEnv(rules, players=players, options=options, render_mode=render_mode,
                                             max_moves=max_moves, reward=reward))


class BoardkitEnv(AECEnv):  # type: ignore[misc]
    """A boardkit game as an AEC environment: agents `player_0` ... take turns as the rules say.

    Observations are dicts: `observation`, the encoding of the agent's view (see
    `boardkit.adapters.encoding`), and `action_mask`, the legal actions of the fixed action space
    (see `boardkit.adapters.actions`; all zero when the agent does not decide). Rewards come at the
    end of the game. An action that is not legal raises `IllegalMove` and changes nothing.
    """

    metadata = {"render_modes": ["ansi"], "name": "boardkit", "is_parallelizable": False}  # noqa: RUF012 - PettingZoo's protocol

    def __init__(self, rules: Ruleset | str, *, players: int | None = None, options: dict[str, Any] | None = None,
                 render_mode: str | None = None, max_moves: int | None = None, reward: str = "win") -> None:
        super().__init__()
        if render_mode not in {None, "ansi"}:
            msg = f"render_mode must be None or 'ansi', not {render_mode!r:.40}"
            raise OptionError(msg)
        check_reward(reward)
        self.spaces = Spaces(rules, players, options)
        self.rules = self.spaces.rules
        self.render_mode = render_mode
        self.max_moves = max_moves
        self.reward = reward
        self.metadata = {**self.metadata, "name": f"boardkit_{self.rules.name}"}
        self.possible_agents = [f"player_{i}" for i in range(self.spaces.players)]
        n_obs, n_act = self.spaces.observation.size, self.spaces.actions.size
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (n_obs,), np.float32),
            "action_mask": spaces.Box(0, 1, (n_act,), np.int8),
        }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n_act) for a in self.possible_agents}
        self._seeds = random.Random()  # noqa: S311 - game seeds, for reproducible runs
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of an agent."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of an agent: Discrete(N), the same for all."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:  # noqa: ARG002 - game options are fixed when the env is made
        """Starts a new game: with `seed`, that game; without, the next of the seeded sequence."""
        if seed is not None:
            self._seeds.seed(seed)
        self.game = self.rules.new_game(players=self.spaces.players, seed=self._seeds.getrandbits(63),
                                        options=self.spaces.options)
        self.moves = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._after_move()

    def _after_move(self) -> None:
        game = self._game()
        if game.is_over:
            for agent, r in zip(self.possible_agents, rewards(game, self.reward), strict=True):
                if agent in self.agents:
                    self.rewards[agent] = r
                    self.terminations[agent] = True
        elif self.max_moves is not None and self.moves >= self.max_moves:
            for agent in self.agents:
                self.truncations[agent] = True
        if not game.is_over:
            self.agent_selection = self.possible_agents[int(game.to_move or 0)]
        else:
            self.agent_selection = self.agents[0]

    def _game(self) -> Game:
        if self.game is None:
            msg = "reset() the environment before using it"
            raise IllegalMove(msg)
        return self.game

    def observe(self, agent: str) -> dict[str, NDArray[Any]]:
        """The agent's observation and action mask."""
        game = self._game()
        player = self.possible_agents.index(agent)
        mask = np.zeros(self.spaces.actions.size, dtype=np.int8)
        if not game.is_over and game.to_move == player and not self.truncations.get(agent, False):
            mask[self.spaces.actions.legal(game)] = 1
        return {"observation": self.spaces.observation.encode(game, player), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Plays the selected agent's action; raises IllegalMove for one that is not legal now."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game()
        if action is None:
            msg = f"{agent} decides now: None is not an action"
            raise IllegalMove(msg)
        index = self.spaces.actions.move_index(game, action)
        game.apply_action(index)
        self.moves += 1
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._after_move()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The game as text (render_mode "ansi"): whose turn, the zones and the variables."""
        if self.render_mode is None:
            return None
        game = self._game()
        lines = [f"{self.rules.title}: turn {game.turn_count}, "
                 + (f"over ({game.end_reason})" if game.is_over else f"player {game.to_move} to decide: {game.prompt}")]
        for name, pieces in game.zones().items():
            if pieces:
                lines.append(f"  {name}: " + " ".join(str(p["label"]) for p in pieces))
        if game.is_over:
            lines.append(f"  scores: {game.scores()}, winners: {game.winners()}")
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release."""
