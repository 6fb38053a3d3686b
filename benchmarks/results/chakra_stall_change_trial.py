# Replays a game of bench_agents.py (index, base seed) with an agent spec and prints its last decisions.
# Used with benchmarks/results/chakra_stall_change_trial.patch applied (the `change` key, not kept).
import sys, time
import boardkit
from boardkit.agents import make_agent
from boardkit.tools.simulate import StallWatch
rules = boardkit.load_ruleset("chakra")
S = sys.argv[1]
index, base = int(sys.argv[2]), int(sys.argv[3])
seats = [S, "greedy"] if index % 2 == 0 else ["greedy", S]
aseed = base * 1_000_003 + index
ag = [make_agent(s, aseed * 16 + i) for i, s in enumerate(seats)]
g = rules.new_game(players=2, seed=base + index)
w = StallWatch(300); d = 0; log = []
t = time.time()
while not g.is_over and not w.stalled(g) and d < 1500:
    p = g.to_move
    a = ag[p].act(g)
    log.append((g.turn_count, p, seats[p][:6], g.legal_moves()[a].label, len(g.legal_moves())))
    g.apply_action(a); d += 1
print("decisions", d, "turns", g.turn_count, "over", g.is_over, g.end_reason, "heuristic", [g.heuristic(p) for p in range(2)], "seats", seats, "secs", round(time.time()-t))
if g.is_over: print("scores", g.outcome() if hasattr(g, "outcome") else "")
for row in log[-int(sys.argv[4]):]: print(row)
print([m.label for m in g.legal_moves()])
import json
v = g.view(g.to_move)
print(json.dumps({k: v[k] for k in v if k not in ("zones",)}, default=str)[:1500])
print({k: z for k, z in v["zones"].items() if z and "1" in k or "P2" in k or "p1" in k.lower()})
