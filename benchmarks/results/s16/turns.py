"""Who plays the turns inside each candidate's rollout window, at the turn starts of noise.py's seeds."""
import random, sys, statistics as st
import boardkit
from boardkit.agents.search import MCTSAgent, GreedyAgent, _searchable, _follow, advantage

targets = {}
for t in sys.argv[1].split(","):
    s, turn = t.split(":"); targets.setdefault(int(s), set()).add(int(turn))
rules = boardkit.load_ruleset("meenakshi")

def window(agent, w, rng):
    stop = w.turn_count + agent.rollout; movers = []; seen = w.turn_count
    for _ in range(agent.rollout * 20):
        if w.is_over or w.turn_count >= stop: break
        if w.turn_count != seen:
            seen = w.turn_count
        if len(w.legal_actions()) > 1:
            if not movers or movers[-1][0] != w.turn_count: movers.append((w.turn_count, w.to_move))
            agent._play_turn(w, rng)
        else:
            w.apply_action(rng.randrange(len(w.legal_actions())))
    return [m for _, m in movers]

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
                a = MCTSAgent(seed=gs * 7 + k, iterations=3, top=3, depth=1, plan=20, rollout=2, follow=1, margin=4)
                ranks = a._root_ranks(_searchable(game, 0, a._rng), 0)
                cands = sorted(ranks, key=ranks.__getitem__)
                deal = game.determinize(0, a._rng); seed = a._rng.random()
                row = []
                for c in cands:
                    w = deal.clone(); off = [m.label for m in w.legal_moves()]
                    w.apply_action(off.index(c)); _follow(w, a._lines[c], 0)
                    mv = window(a, w, random.Random(seed))
                    row.append((c, mv, advantage(w, 0)))
                print(gs, game.turn_count, row, flush=True)
        game.apply_action(g[p].act(game))
