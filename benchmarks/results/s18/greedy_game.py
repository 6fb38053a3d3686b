"""One greedy-vs-greedy game on Meenakshi (2 players): time, turns, scores (timing for s18)."""
import sys, time
import boardkit
from boardkit.agents import GreedyAgent
from boardkit.agents.search import hidden_information
r = boardkit.load_ruleset("meenakshi")
seed = int(sys.argv[1])
g = r.new_game(players=2, seed=seed)
print("hidden", hidden_information(g))
ag = [GreedyAgent(seed * 2 + 1, 200), GreedyAgent(seed * 2 + 2, 200)]
snaps = []
seen = -1
t0 = time.time()
while not g.is_over:
    if g.turn_count != seen and len(g.legal_actions()) > 1:
        seen = g.turn_count
        snaps.append((g.turn_count, g.to_move, g.clone()))
    g.apply_action(ag[g.to_move].act(g))
print("seed", seed, "seconds %.1f" % (time.time() - t0), "turns", g.turn_count, "decisions", len(g.history),
      "scores", g.scores(), "winners", g.winners(), "end", g.end_reason, "turn starts", len(snaps))
