"""Instructions per decision and per cold load, counted by callgrind: the figures that hold still
on a busy machine.

Wall-clock ratios on a shared machine move with its load and with the host's speed (the
closing notes saw the same run vary by 1.7x); the number of instructions a run executes does
not. Each measurement runs a small child process under `valgrind --tool=callgrind
--callgrind-out-file=/dev/null` twice, once doing the work and once doing everything but it,
and reports the difference:

- **decisions**: for each case `NAME:PLAYERS:GAMES`, GAMES seeded random games (cut at
  --max-decisions each) through `legal_actions`/`apply_action` ("actions") and through
  `legal_moves`/`play` ("moves"), minus the same process playing no game: instructions per
  decision. The rules come from the compiled cache, filled before counting.
- **load** (`--load`): `load_ruleset(NAME)` with a cache directory that holds only lark's
  parser tables (parse, check, compile and store, as a new or changed rule file meets it),
  minus a process that only imports boardkit.

`--baselines` also counts the hand-written Python versions (`mandala_baseline.py` against the
`mandala` case, `connect_four_baseline.py` against `benchmarks/connect_four.bk`) playing the same
seeded random games through their `legal_moves`/`play`, and prints baseline/engine for each path:
the playout ratios of `bench_playouts.py` and `bench_connect_four.py` (targets 0.6 and 1.0 for
Mandala, 0.1 for Connect Four) in instructions. They hold still where wall-clock ratios move with
the machine's load, but they are not the wall-clock figure: on this host Mandala's engine runs
fewer instructions per second than its baseline (benchmarks/AFTER.md, sixteenth session).

`--old DIR` counts another version's source tree in the same way (`git archive COMMIT src
rulesets examples benchmarks | tar -x -C DIR`; its own rule files, its `src/` first on the
path) and prints the ratio now/old. Every child runs with PYTHONHASHSEED=0 (string hashing
changes a count by up to 0.5% otherwise) and with its bytecode written beforehand.

    python benchmarks/bench_instructions.py [--cases NAME:PLAYERS:GAMES ...] [--paths actions moves]
        [--max-decisions 2000] [--load] [--baselines] [--old DIR] [--json FILE]

Needs valgrind. A Meenakshi game costs about a minute under callgrind; the defaults take some
ten minutes on one core.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchutil as bu  # noqa: E402

DEFAULT_CASES = ["mandala:2:15", "ananda:3:2", "chakra:2:1", "meenakshi:4:1", "examples/go_fish.bk:3:10",
                 "benchmarks/connect_four.bk:2:30"]
LOAD_RULESETS = ["meenakshi", "mandala", "benchmarks/connect_four.bk"]

PLAY = r"""
import random, sys
import boardkit
name, players, games, cap, path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
rules = boardkit.load_ruleset(name)
decisions = 0
for seed in range(games):
    game, rng, n = rules.new_game(players=players, seed=seed), random.Random(seed), 0
    while not game.is_over and n < cap:
        if path == "actions":
            game.apply_action(rng.randrange(len(game.legal_actions())))
        else:
            game.play(rng.choice(game.legal_moves()))
        n += 1
    decisions += n
print(decisions)
"""

# A hand-written baseline's random games, the engine's loop with its `legal_moves`/`play`.
BASELINE = r"""
import random, sys
sys.path.insert(0, sys.argv[1])
module = __import__(sys.argv[2])
games, cap, decisions = int(sys.argv[3]), int(sys.argv[4]), 0
for seed in range(games):
    game, rng, n = module.new_game(seed), random.Random(seed), 0
    while not game.is_over and n < cap:
        game.play(rng.choice(game.legal_moves()))
        n += 1
    decisions += n
print(decisions)
"""
# The baselines and the cases they stand beside.
BASELINES = {"mandala": "mandala_baseline", "benchmarks/connect_four.bk": "connect_four_baseline"}

LOAD = r"""
import sys
import boardkit
if sys.argv[1]:
    boardkit.load_ruleset(sys.argv[1])
"""


class Tree:
    """A boardkit source tree to count: this checkout, or an exported older one."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.cache = Path(tempfile.mkdtemp(prefix="bk-instr-"))  # compiled rules, filled by `warm`
        self.tables = Path(tempfile.mkdtemp(prefix="bk-tables-"))  # parser tables only

    def env(self, cache: Path) -> dict[str, str]:
        env = dict(os.environ, PYTHONHASHSEED="0", BOARDKIT_CACHE_DIR=str(cache),
                   PYTHONPATH=str(self.root / "src"))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        return env

    def name(self, case: str) -> str:
        """A bundled name as it is; a rule file as this tree's copy of it (this checkout's if it has none)."""
        if not case.endswith(".bk"):
            return case
        own = self.root / case
        return str(own if own.exists() else bu.ROOT / case)

    def warm(self, names: list[str]) -> None:
        """Writes bytecode and compiled rules once, then keeps the parser tables apart for cold loads."""
        for name in names:  # a rule file this version cannot read is reported n/a when counted
            subprocess.run([sys.executable, "-c", LOAD, self.name(name)], env=self.env(self.cache), check=False,
                           capture_output=True)
        for tables in self.cache.glob("*.tables"):
            shutil.copy(tables, self.tables)

    def count(self, code: str, args: list[str], cache: Path) -> tuple[int, str]:
        """Instructions the child executed, and what it printed."""
        run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                              sys.executable, "-c", code, *args], env=self.env(cache),
                             capture_output=True, text=True, check=True)
        found = re.search(r"Collected : (\d+)", run.stderr)
        if found is None:
            raise RuntimeError(f"no instruction count from callgrind:\n{run.stderr[-2000:]}")
        return int(found.group(1)), run.stdout.strip()

    def per_decision(self, case: str, path: str, cap: int) -> tuple[float | None, int | None]:
        """Instructions per decision and decisions played; None, None where this version cannot (no fast path)."""
        name, players, games = case.rsplit(":", 2)
        try:
            base, _ = self.count(PLAY, [self.name(name), players, "0", str(cap), path], self.cache)
            total, out = self.count(PLAY, [self.name(name), players, games, str(cap), path], self.cache)
        except subprocess.CalledProcessError:
            return None, None
        decisions = int(out)
        return (total - base) / decisions, decisions

    def baseline(self, module: str, games: int, cap: int) -> float:
        """Instructions per decision of a hand-written baseline (this checkout's benchmarks/)."""
        where = str(bu.ROOT / "benchmarks")
        # Its bytecode written first, as the engine's is (`warm`): a compile in one run only would count.
        subprocess.run([sys.executable, "-c", BASELINE, where, module, "1", "1"], env=self.env(self.cache),
                       check=True, capture_output=True)
        base, _ = self.count(BASELINE, [where, module, "0", str(cap)], self.cache)
        total, out = self.count(BASELINE, [where, module, str(games), str(cap)], self.cache)
        return (total - base) / int(out)

    def load(self, name: str) -> int | None:
        """Instructions of a cold load of `name`; None where this version cannot read it."""
        cold = Path(tempfile.mkdtemp(prefix="bk-cold-"))
        base = Path(tempfile.mkdtemp(prefix="bk-cold-"))
        try:
            for d in (cold, base):
                for tables in self.tables.glob("*.tables"):
                    shutil.copy(tables, d)
            imported, _ = self.count(LOAD, [""], base)
            loaded, _ = self.count(LOAD, [self.name(name)], cold)
        except subprocess.CalledProcessError:
            return None
        else:
            return loaded - imported
        finally:
            shutil.rmtree(cold, ignore_errors=True)
            shutil.rmtree(base, ignore_errors=True)


def ratio(now: float | None, old: float | None) -> float | None:
    return None if now is None or old is None else now / old


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", nargs="+", default=DEFAULT_CASES, help="NAME:PLAYERS:GAMES")
    parser.add_argument("--paths", nargs="+", default=["actions", "moves"], choices=["actions", "moves"])
    parser.add_argument("--max-decisions", type=int, default=2000)
    parser.add_argument("--load", action="store_true", help="also count cold loads")
    parser.add_argument("--load-rulesets", nargs="+", default=LOAD_RULESETS)
    parser.add_argument("--baselines", action="store_true",
                        help="also count the hand-written baselines beside the cases they stand for")
    parser.add_argument("--old", type=Path, help="the root of an older export (src/, rulesets/) to count the same way")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("bench_instructions.py needs valgrind (apt install valgrind)")

    trees = {"now": Tree(bu.ROOT)}
    if args.old is not None:
        if not (args.old / "src" / "boardkit").is_dir():
            # Given its src directory instead, the children would import this checkout's boardkit.
            sys.exit(f"--old {args.old}: expected the root of an export, holding src/boardkit (and rulesets/)")
        trees["old"] = Tree(args.old.resolve())
    names = sorted({c.rsplit(":", 2)[0] for c in args.cases} | set(args.load_rulesets if args.load else []))
    for tree in trees.values():
        tree.warm(names)

    decisions: list[dict[str, object]] = []
    rows = []
    for case in args.cases:
        for path in args.paths:
            counted = {label: tree.per_decision(case, path, args.max_decisions) for label, tree in trees.items()}
            counts = [per for per, _ in counted.values()]
            decisions.append({"case": case, "path": path, **{label: per for label, (per, _) in counted.items()},
                              **{f"{label}_decisions": n for label, (_, n) in counted.items()}})
            rows.append([case, path, bu.fmt(counted["now"][1], "d"), *(bu.fmt(c) for c in counts),
                         *([bu.fmt(ratio(*counts), ".3f")] if "old" in trees else [])])
            print(*rows[-1], flush=True)
    bu.print_table("Instructions per decision (callgrind, start-up subtracted)",
                   ["case", "path", "decisions", *trees, *(["now/old"] if "old" in trees else [])], rows)

    baselines: list[dict[str, object]] = []
    if args.baselines:
        rows = []
        for case in args.cases:
            name, _, games = case.rsplit(":", 2)
            if name not in BASELINES:
                continue
            per = trees["now"].baseline(BASELINES[name], int(games), args.max_decisions)
            engine = {d["path"]: d["now"] for d in decisions if d["case"] == case}
            baselines.append({"case": case, "baseline": per, **{f"{path}_ratio": ratio(per, engine[path])
                                                                for path in engine}})
            rows.append([case, bu.fmt(per), *(bu.fmt(ratio(per, engine.get(path)), ".3f") for path in args.paths)])
            print(*rows[-1], flush=True)
        bu.print_table("Hand-written baseline: instructions per decision, and baseline/engine",
                       ["case", "baseline", *(f"baseline/{path}" for path in args.paths)], rows)

    loads: list[dict[str, object]] = []
    if args.load:
        rows = []
        for name in args.load_rulesets:
            loaded = {label: tree.load(name) for label, tree in trees.items()}
            loads.append({"ruleset": name, **loaded})
            rows.append([name, *(bu.fmt(None if c is None else c / 1e6, ",.1f") + " M" for c in loaded.values()),
                         *([bu.fmt(ratio(*loaded.values()), ".3f")] if "old" in trees else [])])
            print(*rows[-1], flush=True)
        bu.print_table("Instructions of a cold load (parser tables kept; import subtracted)",
                       ["ruleset", *trees, *(["now/old"] if "old" in trees else [])], rows)

    for tree in trees.values():
        shutil.rmtree(tree.cache, ignore_errors=True)
        shutil.rmtree(tree.tables, ignore_errors=True)
    if args.json is not None:
        results = {"provenance": bu.provenance(), "decisions": decisions, "baselines": baselines, "load": loads}
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
