"""Plays MCTS (SPEC, a turn comparison) against greedy and prints, for each compared turn, every candidate's value on each deal.

Usage: python compare_log.py NAME PLAYERS SEED SPEC SEAT (scratch tool of the fifth agents session)
"""
import sys, time, random, json, boardkit
from boardkit.agents import make_agent
from boardkit.agents import search as S
name, players, seed, spec, seat = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
log = []
orig_adv = S.advantage
class Rec:
    cur = None
def patched_compare(self, game, player, ranks, deadline):
    moves = [m.label for m in game.legal_moves()]
    candidates = sorted(ranks, key=ranks.__getitem__)
    vals = {c: [] for c in candidates}
    rounds = 0
    hidden = S.hidden_information(game)
    while rounds * len(candidates) < self.iterations:
        deal = game.determinize(player, self._rng) if hidden else game.clone()
        seed_ = self._rng.random()
        for label in candidates:
            world = deal.clone()
            offered = [m.label for m in world.legal_moves()]
            if label not in offered:
                vals[label].append(-S._DECIDED); continue
            world.apply_action(offered.index(label))
            S._follow(world, self._lines[label], player)
            self._roll_out(world, random.Random(seed_))
            vals[label].append(S.advantage(world, player))
        rounds += 1
    totals = {c: sum(v) for c, v in vals.items()}
    best = max(candidates, key=lambda label: (totals[label], -ranks[label]))
    if totals[best] - totals[candidates[0]] <= self.margin * rounds:
        best = candidates[0]
    log.append({"turn": game.turn_count, "n": len(moves), "vals": [vals[c] for c in candidates], "chose": candidates.index(best), "now": S.advantage(game, player)})
    self._plan = (game, len(game.history) + 1, self._lines[best])
    return moves.index(best)
S.MCTSAgent._compare = patched_compare
rules = boardkit.load_ruleset(name)
g = rules.new_game(players=players, seed=seed)
specs = ["greedy"] * players; specs[seat] = spec
agents = [make_agent(s, seed*16+i) for i, s in enumerate(specs)]
t = [0.0]*players; d = 0
while not g.is_over and d < 3000:
    p = g.to_move
    t0 = time.perf_counter(); a = agents[p].act(g); t[p] += time.perf_counter()-t0
    g.apply_action(a); d += 1
dev = sum(1 for e in log if e["chose"])
print(json.dumps({"name": name, "seed": seed, "spec": spec, "seat": seat, "decisions": d, "turns": g.turn_count,
  "scores": g.scores() if g.is_over else None, "mcts_won": g.is_over and seat in g.winners(), "winners": g.winners() if g.is_over else None,
  "time": [round(x,1) for x in t], "compares": len(log), "deviations": dev, "log": log}))
