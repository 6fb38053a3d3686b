"""Progress/summary of an M18 output: games, MCTS wins, mean seconds, score margin, departures."""
import json, math, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
spec = next(a for a in rows[0]["agents"] if a.startswith("mcts"))
wins = margins = 0.0; ms = []; gs = []; left = comp = 0
for d in rows:
    s = d["agents"].index(spec); w = d["winners"]
    wins += (1 / len(w)) if s in w else 0.0
    sc = d["scores"]; ms.append(sc[s]); gs.append(sc[1 - s])
    l, c = d["departed"][spec]; left += l; comp += c
n = len(rows); diff = [a - b for a, b in zip(ms, gs)]
sd = statistics.stdev(diff) if n > 1 else 0
print(f"{n} games, MCTS won {wins:g} ({100 * wins / n:.1f}%), mean {statistics.mean(d['seconds'] for d in rows):.1f} s/game "
      f"(median {statistics.median(d['seconds'] for d in rows):.1f}), mean score {statistics.mean(ms):.1f} vs {statistics.mean(gs):.1f}, "
      f"margin {statistics.mean(diff):+.1f} [{statistics.mean(diff) - 1.96 * sd / math.sqrt(n):+.1f}, {statistics.mean(diff) + 1.96 * sd / math.sqrt(n):+.1f}], "
      f"left greedy's first move in {left} of {comp} compared turns")
