import boardkit
from boardkit.agents import make_agent
from boardkit.tools.simulate import StallWatch
rules = boardkit.load_ruleset("chakra")
S = "mcts:3:top=3:depth=1:plan=200:rollout=2:follow=1:margin=4"
index, base = 27, 1630
seats = ["greedy", S]
aseed = base * 1_000_003 + index
ag = [make_agent(s, aseed * 16 + i) for i, s in enumerate(seats)]
g = rules.new_game(players=2, seed=base + index)
w = StallWatch(300); d = 0
while not g.is_over and not w.stalled(g):
    g.apply_action(ag[g.to_move].act(g)); d += 1
print(d, g.turn_count, "heuristic", [g.heuristic(p) for p in range(2)], "seats", seats)
print([m.label for m in g.legal_moves()])
print(g.view(0) if False else "")
