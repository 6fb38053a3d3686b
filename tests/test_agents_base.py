import pytest

import boardkit
from boardkit.agents import Agent, RandomAgent, agent_names, make_agent


def test_random_agent_plays_legal_actions_to_the_end_and_replays():
    rules = boardkit.load_ruleset("mandala")

    def play(seed: int) -> list[int]:
        game = rules.new_game(players=2, seed=3)
        agent = RandomAgent(seed)
        chosen = []
        while not game.is_over:
            action = agent.act(game)
            assert 0 <= action < len(game.legal_actions())
            game.apply_action(action)
            chosen.append(action)
        return chosen

    first = play(5)
    assert first == play(5)
    assert first != play(6)


def test_agents_are_made_from_specs():
    agent = make_agent("random", seed=1)
    assert isinstance(agent, Agent)
    assert "random" in agent_names()


@pytest.mark.parametrize("spec", ["nobody", "random:10", "mcts:x:y"])
def test_bad_specs_are_agent_errors_listing_the_agents(spec):
    with pytest.raises(boardkit.AgentError) as caught:
        make_agent(spec)
    assert "random" in str(caught.value)
