"""Cheap test of the s18 hypothesis: in a greedy-vs-greedy game on Meenakshi (2 players), at the turn starts of
the last LAST turns, play each of greedy's TOP best first moves (with its greedy line) and then the game to its
end with greedy (200 positions) for both players, on DEALS shared determinizations. Does some other candidate win
more deals (or end with a better margin) than greedy's choice?  Usage: endgame_probe.py SEED [LAST TOP DEALS]"""
import random, sys, time
import boardkit
from boardkit.agents import GreedyAgent
from boardkit.agents.search import turn_options, _follow

r = boardkit.load_ruleset("meenakshi")
seed = int(sys.argv[1])
LAST, TOP, DEALS = (int(x) for x in (sys.argv[2:5] if len(sys.argv) > 2 else (8, 6, 4)))
g = r.new_game(players=2, seed=seed)
ag = [GreedyAgent(seed * 2 + 1, 200), GreedyAgent(seed * 2 + 2, 200)]
snaps, seen, t0 = [], -1, time.time()
while not g.is_over:
    if g.turn_count != seen and len(g.legal_actions()) > 1:
        seen = g.turn_count
        snaps.append((g.turn_count, g.to_move, g.clone()))
    g.apply_action(ag[g.to_move].act(g))
print(f"seed {seed}: {time.time() - t0:.1f}s, {g.turn_count} turns, scores {g.scores()}, winners {g.winners()}, {g.end_reason}", flush=True)
rng = random.Random(seed)
for turn, p, pos in snaps[-LAST:]:
    t = time.time()
    world = pos.determinize(p, rng)
    opts = sorted(((v, rng.random(), line) for v, line in turn_options(world, p, 200, rng)), reverse=True)[:TOP]
    cands = []
    for v, _, line in opts:
        w = world.clone(); labels = []
        for a in line:
            labels.append(w.legal_moves()[a].label); w.apply_action(a)
        cands.append((v, labels))
    res = {c[1][0]: [] for c in cands}
    for d in range(DEALS):
        deal = pos.determinize(p, rng); s = rng.randrange(10**9)
        for v, labels in cands:
            w = deal.clone(); off = [m.label for m in w.legal_moves()]
            if labels[0] not in off:
                res[labels[0]].append(None); continue
            w.apply_action(off.index(labels[0])); _follow(w, labels[1:], p)
            players = [GreedyAgent(s + q, 200) for q in range(2)]
            while not w.is_over:
                w.apply_action(players[w.to_move].act(w))
            sc = w.scores(); win = w.winners()
            res[labels[0]].append((sc[p] - sc[1 - p], (1 / len(win)) if p in win else 0.0, w.turn_count - turn))
    print(f"turn {turn} player {p} ({turn_ends} turns to end)" if False else f"turn {turn} (of {g.turn_count}) player {p}: {time.time() - t:.1f}s", flush=True)
    for (v, labels) in cands:
        vals = [x for x in res[labels[0]] if x is not None]
        if not vals:
            print(f"   h={v:7.1f} {labels[0][:40]:40s} not offered"); continue
        wins = sum(x[1] for x in vals); m = sum(x[0] for x in vals) / len(vals)
        print(f"   h={v:7.1f} {labels[0][:40]:40s} wins {wins:.1f}/{len(vals)} margin {m:+6.1f}  {[x[0] for x in vals]} len {[x[2] for x in vals]}")
