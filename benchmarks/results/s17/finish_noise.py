import time, random, statistics, boardkit
from boardkit.agents import GreedyAgent, MCTSAgent
r = boardkit.load_ruleset("meenakshi")
spec = dict(iterations=3, top=3, depth=1, plan=20, rollout=2, follow=1, margin=4, even=1, guide=float(__import__("sys").argv[1]))
g = r.new_game(players=2, seed=13900)
ag = [MCTSAgent(seed=5, **spec), GreedyAgent(2, 200)]
found = 0; t0=time.time()
while not g.is_over and found < 6:
    a = ag[g.to_move]
    if g.to_move == 0 and len(g.legal_actions()) > 1 and a._plan is None or (g.to_move==0 and a.follow and a._plan is not None and a._plan[0] is not g):
        pass
    before = a.departed if g.to_move == 0 else None
    snap = g.clone() if g.to_move == 0 else None
    act = a.act(g)
    if g.to_move == 0 and a.departed > before:
        found += 1
        moves = [m.label for m in g.legal_moves()]
        ranks = sorted(a._lines, key=lambda l: 0)  # labels
        greedys = [l for l in a._lines][0]
        chal = moves[act]
        diffs = []
        t = time.time()
        for k in range(12):
            probe = MCTSAgent(seed=1000+k, **spec, finish=1)
            probe._lines = a._lines
            tot = {}
            # reuse _confirmed machinery with finish=1 but record totals
            deal = g.determinize(0, probe._rng); seed = probe._rng.random()
            vals = []
            for lab in (greedys, chal):
                w = deal.clone(); off=[m.label for m in w.legal_moves()]
                w.apply_action(off.index(lab))
                from boardkit.agents.search import _follow
                _follow(w, a._lines[lab], 0)
                rng = random.Random(seed); probe._roll_out(w, rng); probe._play_to_end(w, rng)
                s = w.scores(); vals.append((s[0]-s[1], w.winners()==[0]))
            diffs.append(vals[1][0]-vals[0][0])
        print(len(g.history), greedys, '->', chal, 'diff mean %.1f sd %.1f' % (statistics.mean(diffs), statistics.stdev(diffs)), diffs, '%.1fs' % (time.time()-t), flush=True)
    g.apply_action(act)
print('total', time.time()-t0)
