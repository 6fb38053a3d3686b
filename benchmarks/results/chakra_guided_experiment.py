import sys, random
from concurrent.futures import ProcessPoolExecutor
def play(args):
    seed, mcts_seat = args
    import boardkit
    from boardkit.agents.search import MCTSAgent, GreedyAgent
    rules = boardkit.load_ruleset("chakra")
    g = rules.new_game(players=2, seed=seed)
    agents = {mcts_seat: MCTSAgent(seed=seed, iterations=100, rollout=2, guide=0.8), 1 - mcts_seat: GreedyAgent(seed=seed)}
    n = 0
    while not g.is_over and n < 3000:
        g.apply_action(agents[g.to_move].act(g)); n += 1
    return seed, mcts_seat, g.is_over, g.end_reason, g.scores(), g.winners()
if __name__ == "__main__":
    jobs = [(700 + i, i % 2) for i in range(4)]
    with ProcessPoolExecutor(2) as ex:
        for r in ex.map(play, jobs):
            print(r, flush=True)
