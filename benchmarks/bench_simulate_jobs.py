"""Games per second of `boardkit simulate mandala --games N --players 2` with --jobs 1 and
--jobs 2, run as subprocesses (`python -m boardkit`), interleaved (the order alternates every repeat).

Two rates per run: the one simulate reports itself (its summary's games_per_second, read
from --json) and one from the subprocess's wall time (interpreter start, import and load
included). Medians of each, and the median of the per-repeat ratios jobs2/jobs1. The
summaries of both job counts must agree (simulate promises the same games whatever
--jobs), and the script says whether they do. Before each repeat, two plain-Python processes
are run at once and alone: their speedup is the most jobs2/jobs1 could reach on the machine
as loaded at that moment.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchutil as bu


def command() -> list[str]:
    """`python -m boardkit` with this interpreter: the same CLI as the `boardkit` script, but it
    runs whichever boardkit this interpreter imports (PYTHONPATH included), whereas the script
    names the module that held `main` when the package was installed.
    """
    return [sys.executable, "-m", "boardkit"]


def simulate(ruleset: str, games: int, jobs: int) -> tuple[float, float, dict[str, Any]]:
    """One run: (simulate's games/s, games/s by process wall time, its summary)."""
    cmd = [*command(), "simulate", ruleset, "--games", str(games), "--players", "2", "--jobs", str(jobs), "--json"]
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=bu.ROOT, check=False)
    wall = time.perf_counter() - t0
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{out.stderr}")
    summary = json.loads(out.stdout)["summary"]
    return summary["games_per_second"], games / wall, summary


BURN = "x = 0\nfor i in range(15_000_000):\n    x += i"


def parallel_probe() -> float:
    """Speedup of two concurrent pure-Python processes over one: near 2 on an idle 2-core
    machine, near 1 when other load leaves one core; jobs2/jobs1 cannot beat it.
    """
    def wall(n: int) -> float:
        t0 = time.perf_counter()
        procs = [subprocess.Popen([sys.executable, "-c", BURN]) for _ in range(n)]
        for proc in procs:
            proc.wait()
        return time.perf_counter() - t0
    return 2 * wall(1) / wall(2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", default="mandala", help="name or file (default mandala)")
    parser.add_argument("--games", type=int, default=200, help="games per run (default 200)")
    parser.add_argument("--repeat", type=int, default=5, help="interleaved runs of each (default 5)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)

    jobs = [1, 2]
    own: dict[int, list[float]] = {j: [] for j in jobs}
    wall: dict[int, list[float]] = {j: [] for j in jobs}
    summaries: dict[int, dict[str, Any]] = {}
    probes: list[float] = []
    for r in range(args.repeat):
        probes.append(parallel_probe())
        for j in jobs if r % 2 == 0 else jobs[::-1]:
            gps, wgps, summary = simulate(args.ruleset, args.games, j)
            own[j].append(gps)
            wall[j].append(wgps)
            summaries[j] = {k: v for k, v in summary.items() if k != "wall_seconds" and k != "games_per_second"}
            bu.note(f"run {r + 1}/{args.repeat} jobs {j}: {gps:.1f} games/s ({wgps:.1f} by wall time)", args.json)
    same = summaries[1] == summaries[2]
    figures = {
        "ruleset": args.ruleset, "games": args.games, "repeat": args.repeat, "same_results": same,
        "jobs1_games_per_s": bu.median(own[1]), "jobs2_games_per_s": bu.median(own[2]),
        "jobs1_wall_games_per_s": bu.median(wall[1]), "jobs2_wall_games_per_s": bu.median(wall[2]),
        "ratio_jobs2_vs_jobs1": bu.median([b / a for a, b in zip(own[1], own[2], strict=True)]),
        "ratio_jobs2_vs_jobs1_wall": bu.median([b / a for a, b in zip(wall[1], wall[2], strict=True)]),
        "runs": {"jobs1": own[1], "jobs2": own[2]},
        "two_process_speedup": bu.median(probes),
    }
    if args.json:
        bu.dump_json(figures)
        return 0
    rows = [["games/s reported by simulate", bu.fmt(figures["jobs1_games_per_s"], ".1f"),
             bu.fmt(figures["jobs2_games_per_s"], ".1f"), bu.fmt(figures["ratio_jobs2_vs_jobs1"], ".2f")],
            ["games/s by process wall time", bu.fmt(figures["jobs1_wall_games_per_s"], ".1f"),
             bu.fmt(figures["jobs2_wall_games_per_s"], ".1f"), bu.fmt(figures["ratio_jobs2_vs_jobs1_wall"], ".2f")]]
    bu.print_table(f"boardkit simulate {args.ruleset} --games {args.games} --players 2 (median of {args.repeat})",
                   ["", "--jobs 1", "--jobs 2", "jobs2/jobs1"], rows)
    print("same results with 1 and 2 jobs:", "yes" if same else "NO")
    print(f"two plain Python processes at once ran {figures['two_process_speedup']:.2f}x one (median of "
          f"{args.repeat}): the ceiling for jobs2/jobs1 on this machine right now")
    return 0


if __name__ == "__main__":
    sys.exit(main())
