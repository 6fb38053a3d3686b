"""At the turn starts where the 1-round comparison left greedy's choice, the challenger's edge over greedy's
choice after R rounds with rollouts played as greedy:20 and as greedy:200 (the real opponent) would."""
import random, sys, statistics as st
import boardkit
from boardkit.agents.search import MCTSAgent, GreedyAgent, _searchable, _follow, advantage, hidden_information

R = int(sys.argv[1]); targets = {}
for t in sys.argv[2].split(","):
    s, turn = t.split(":"); targets.setdefault(int(s), set()).add(int(turn))
rollout = int(sys.argv[3]) if len(sys.argv) > 3 else 2
rules = boardkit.load_ruleset("meenakshi")

def diffs(agent, game, player, cands, n, plan):
    agent.plan = plan
    out = []
    for _ in range(n):
        deal = game.determinize(player, agent._rng)
        seed = agent._rng.random(); vals = {}
        for label in cands:
            w = deal.clone(); off = [m.label for m in w.legal_moves()]
            if label not in off: vals[label] = -1e9; continue
            w.apply_action(off.index(label)); _follow(w, agent._lines[label], player)
            agent._roll_out(w, random.Random(seed)); vals[label] = advantage(w, player)
        out.append(vals)
    return out

for gs, turns in targets.items():
    game = rules.new_game(players=2, seed=gs)
    g = [GreedyAgent(seed=gs * 10 + p, budget=200) for p in range(2)]
    last_turn = -1; k = 0
    while not game.is_over and turns:
        p = game.to_move
        if p == 0 and game.turn_count != last_turn and len(game.legal_actions()) > 1:
            last_turn = game.turn_count; k += 1
            if k % 2 == 0 and game.turn_count in turns:
                turns.discard(game.turn_count)
                a = MCTSAgent(seed=gs * 7 + k, iterations=3, top=3, depth=1, plan=20, rollout=rollout, follow=1, margin=4)
                ranks = a._root_ranks(_searchable(game, 0, a._rng), 0)
                cands = sorted(ranks, key=ranks.__getitem__)
                res = {}
                for plan in (20, 200):
                    per = diffs(a, game, 0, cands, R, plan)
                    res[plan] = {c: round(st.mean(r[c] - r[cands[0]] for r in per), 1) for c in cands[1:]}
                print(gs, game.turn_count, cands, "plan20", res[20], "plan200", res[200], flush=True)
        game.apply_action(g[p].act(game))
