"""Time to load each bundled ruleset (and benchmarks/connect_four.bk) in a fresh Python process,
and the time to import boardkit.

Each measurement is its own subprocess of this interpreter, which prints the seconds spent
in `import boardkit`, in `load_ruleset(NAME)`, and in a second `load_ruleset(NAME)` in the
same process. The first subprocess of each ruleset is reported on its own ("first run"):
it is the one that would build any on-disk cache (lark's grammar cache, a future compiled
ruleset cache) and meets a colder disk cache; the later runs, interleaved across rulesets,
give the median. One `import boardkit` warms Python's bytecode cache before anything is
timed, unless PYTHONDONTWRITEBYTECODE is set: then every process compiles boardkit from
source, which the import row shows (the script says which; `--env PYTHONDONTWRITEBYTECODE=`
clears it for the subprocesses). `--env NAME=VALUE` passes variables to the subprocesses, for switching a compiled
cache on or off once the engine has one; add columns in SNIPPET and `measure` for a new API.
`--baseline DIR` measures another boardkit checkout (its `src` first on PYTHONPATH) in the same
rounds, each of its processes beside one of this tree: before/after medians and their ratio on
a machine whose load drifts.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchutil as bu

FALLBACK_NAMES = ["mandala", "mandala_seed", "ananda", "chakra", "chakra_short", "meenakshi"]
EXTRA = ["benchmarks/connect_four.bk"]
SNIPPET = """
import sys, time
t0 = time.perf_counter()
import boardkit
t1 = time.perf_counter()
if sys.argv[1]:
    boardkit.load_ruleset(sys.argv[1])
t2 = time.perf_counter()
if sys.argv[1]:
    boardkit.load_ruleset(sys.argv[1])
t3 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2)
"""

# Builds the parser tables into the cache: lark's, and those of boardkit's own parser (lang/parse.py) where it has one.
WARM_TABLES = """
from boardkit.lang import parse
parse.load_parser()
if hasattr(parse, "_driver"):
    parse._driver()
"""


def measure(name: str, env: dict[str, str], tables: list[Path] | None = None) -> tuple[float, float, float, float]:
    """One fresh process: (import s, load s, second load in that process s, process wall s).

    With `tables`, the process gets a cache directory of its own holding only those parser tables
    (lark's, and those of boardkit's own parser where the tree has one): the ruleset is parsed,
    checked and compiled, but no parser tables are built again.
    """
    if tables is not None:
        directory = Path(tempfile.mkdtemp(prefix="bk-cold-"))
        directory.chmod(0o700)
        for path in tables:
            shutil.copy2(path, directory / path.name)
        env = {**env, "BOARDKIT_CACHE_DIR": str(directory)}
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", SNIPPET, name], capture_output=True, text=True, env=env,
                         cwd=bu.ROOT, check=False)
    wall = time.perf_counter() - t0
    if out.returncode != 0:
        raise RuntimeError(f"loading {name!r} failed:\n{out.stderr}")
    imp, load, again = (float(x) for x in out.stdout.split())
    return imp, load, again, wall


def bundled(env: dict[str, str]) -> list[str]:
    """The bundled names, asked of the boardkit the subprocesses will import."""
    code = "import boardkit; print(' '.join(boardkit.list_rulesets()) if hasattr(boardkit, 'list_rulesets') else '')"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=bu.ROOT,
                         check=True)
    return out.stdout.split() or FALLBACK_NAMES


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rulesets", nargs="*", default=None, help="names or paths (default: bundled + Connect Four)")
    parser.add_argument("--repeat", type=int, default=7, help="processes per ruleset (default 7)")
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                        help="environment variable for the subprocesses; repeat for several")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--cold", action="store_true",
                        help="no compiled rules cached: each process parses, checks and compiles (parser tables kept)")
    parser.add_argument("--baseline", metavar="DIR", default=None,
                        help="another boardkit checkout measured in the same rounds (its src first on PYTHONPATH)")
    args = parser.parse_args(argv)

    env = dict(os.environ)
    env.update(kv.split("=", 1) for kv in args.env)
    trees = {"": env}
    if args.baseline:
        src = Path(args.baseline).resolve() / "src"
        trees["baseline"] = {**env, "PYTHONPATH": os.pathsep.join(filter(None, [str(src), env.get("PYTHONPATH")]))}
    tables: dict[str, list[Path] | None] = dict.fromkeys(trees)
    if args.cold:  # each tree's own parser tables: their grammars may differ
        for tree, tree_env in trees.items():
            warm = Path(tempfile.mkdtemp(prefix="bk-tables-"))
            warm.chmod(0o700)
            subprocess.run([sys.executable, "-c", WARM_TABLES],
                           env={**tree_env, "BOARDKIT_CACHE_DIR": str(warm)}, cwd=bu.ROOT, check=True)
            tables[tree] = sorted(warm.glob("*.tables"))
    names = args.rulesets or bundled(env) + EXTRA  # also warms the bytecode cache
    for tree_env in list(trees.values())[1:]:
        bundled(tree_env)
    bytecode = "not written (PYTHONDONTWRITEBYTECODE set)" if env.get("PYTHONDONTWRITEBYTECODE") else "cached"
    targets = [(tree, t) for t in ["", *names] for tree in trees]  # "" = import boardkit only
    samples: dict[tuple[str, str], list[tuple[float, float, float, float]]] = {t: [] for t in targets}
    for r in range(args.repeat):
        for tree, t in targets:
            samples[tree, t].append(measure(t, trees[tree], tables[tree]))
        bu.note(f"round {r + 1}/{args.repeat} done", args.json)

    results: list[dict[str, Any]] = []
    for tree, t in targets:
        first, later = samples[tree, t][0], samples[tree, t][1:]
        col = 0 if t == "" else 1
        results.append({
            "ruleset": (t or "(import boardkit)") + (f" ({tree})" if tree else ""),
            "first_s": first[col],
            "later_median_s": bu.median([s[col] for s in later]),
            "later_min_s": min((s[col] for s in later), default=None),
            "reload_same_process_s": None if t == "" else bu.median([s[2] for s in samples[tree, t]]),
            "import_median_s": bu.median([s[0] for s in samples[tree, t]]),
            "process_wall_median_s": bu.median([s[3] for s in later]),
        })
    if args.json:
        bu.dump_json({"repeat": args.repeat, "env": args.env, "bytecode": bytecode, "results": results})
        return 0

    def ms(v: float | None) -> str:
        return bu.fmt(None if v is None else v * 1000, ",.1f")

    rows = [[x["ruleset"], ms(x["first_s"]), ms(x["later_median_s"]), ms(x["later_min_s"]),
             ms(x["reload_same_process_s"]), ms(x["process_wall_median_s"])] for x in results]
    bu.print_table(f"Load in a fresh process, ms ({args.repeat} processes each; row 1: import boardkit)",
                   ["ruleset", "first run", "later runs median", "later min", "2nd load same process",
                    "process wall median"], rows)
    print(f"bytecode of boardkit: {bytecode}")
    if args.baseline:
        by_name = {x["ruleset"]: x["later_median_s"] for x in results}
        for name in ["(import boardkit)", *names]:
            ours, theirs = by_name[name], by_name[f"{name} (baseline)"]
            if ours and theirs:
                print(f"{name}: later runs median {ours * 1000:,.1f} ms, baseline {theirs * 1000:,.1f} ms: "
                      f"{ours / theirs:.2f}x the baseline's time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
