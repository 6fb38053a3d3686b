"""Players for programs: agents that pick a legal action of a game."""

from boardkit.agents.base import Agent, RandomAgent, agent_names, make_agent, register_agent
from boardkit.agents.search import GreedyAgent, MCTSAgent

__all__ = ["Agent", "GreedyAgent", "MCTSAgent", "RandomAgent", "agent_names", "make_agent", "register_agent"]
