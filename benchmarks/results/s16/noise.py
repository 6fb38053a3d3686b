"""Are the 1-round departures of the turn comparison noise? For turn starts of player 0 in greedy-vs-greedy
Meenakshi games, rank greedy's top 3 lines once, then compare them over 1 round and over R rounds."""
import random, sys, time, statistics as st
import boardkit
from boardkit.agents.search import MCTSAgent, GreedyAgent, _searchable, _follow, advantage, hidden_information

R = int(sys.argv[1]); seeds = [int(s) for s in sys.argv[2].split(",")]; every = int(sys.argv[3])
rules = boardkit.load_ruleset("meenakshi")

def rounds(agent, game, player, cands, n):
    hidden = hidden_information(game)
    per = []
    for _ in range(n):
        deal = game.determinize(player, agent._rng) if hidden else game.clone()
        seed = agent._rng.random()
        vals = {}
        for label in cands:
            w = deal.clone()
            off = [m.label for m in w.legal_moves()]
            if label not in off:
                vals[label] = -1e9; continue
            w.apply_action(off.index(label)); _follow(w, agent._lines[label], player)
            agent._roll_out(w, random.Random(seed)); vals[label] = advantage(w, player)
        per.append(vals)
    return per

out = []
for gs in seeds:
    game = rules.new_game(players=2, seed=gs)
    g = [GreedyAgent(seed=gs * 10 + p, budget=200) for p in range(2)]
    last_turn = -1; k = 0
    while not game.is_over:
        p = game.to_move
        if p == 0 and game.turn_count != last_turn and len(game.legal_actions()) > 1:
            last_turn = game.turn_count; k += 1
            if k % every == 0:
                a = MCTSAgent(seed=gs * 7 + k, iterations=3, top=3, depth=1, plan=20, rollout=2, follow=1, margin=4)
                ranks = a._root_ranks(_searchable(game, 0, a._rng), 0)
                cands = sorted(ranks, key=ranks.__getitem__)
                if len(cands) > 1:
                    t = time.time()
                    per = rounds(a, game, 0, cands, R)
                    d1 = {c: per[0][c] - per[0][cands[0]] for c in cands}
                    dR = {c: st.mean(r[c] - r[cands[0]] for r in per) for c in cands}
                    sd = {c: st.pstdev([r[c] - r[cands[0]] for r in per]) for c in cands}
                    ch1 = max(cands, key=lambda c: (d1[c], -ranks[c]))
                    out.append((gs, game.turn_count, d1[ch1] > 4, ch1, d1[ch1], dR[ch1], sd[ch1],
                                max(dR.values()) > 4, round(time.time() - t, 1)))
                    print(out[-1], flush=True)
        game.apply_action(g[p].act(game)) if p is not None else game.apply_action(0)
dep = [o for o in out if o[2]]
print("positions", len(out), "1-round departures", len(dep))
if dep:
    print("of departures: mean R-round advantage of the 1-round challenger over greedy's choice %.2f; confirmed (>4) %d"
          % (st.mean(o[5] for o in dep), sum(o[5] > 4 for o in dep)))
print("R-round comparison would depart at", sum(o[7] for o in out), "positions")
print("mean sd of one round's difference %.2f" % st.mean(o[6] for o in out))
