"""Players for programs: agents that pick a legal action of a game."""

from boardkit.agents.base import Agent, RandomAgent, agent_names, make_agent, register_agent

__all__ = ["Agent", "RandomAgent", "agent_names", "make_agent", "register_agent"]
