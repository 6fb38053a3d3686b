"""Time to answer hostile rule texts: each reproducer is checked in a fresh subprocess
(parse_ruleset, as load_ruleset does) and timed by wall clock, cut at --timeout seconds.
Prints, per case, the median time, whether it was refused with a RuleError and the size of
the message. Figures depend on the machine and its load: compare runs taken together.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

HEAD = 'game "hostile"\nplayers 2\n'
TAIL = "play { end game \"done\" }\nscore p = 0\n"


def one_line_list() -> str:
    """A 5 MB list on one line."""
    return HEAD + "const BIG = [" + "1, " * 1_700_000 + "1]\n" + TAIL


def many_vars() -> str:
    """400,000 variables (each unused: one warning each)."""
    return HEAD + "".join(f"var v{i} = 0\n" for i in range(400_000)) + TAIL


def big_enum() -> str:
    """An enum of 200,000 members."""
    return HEAD + "enum E { " + ", ".join(f"m{i}" for i in range(200_000)) + " }\n" + TAIL


def unknown_names() -> str:
    """4,000 unknown names among 4,000 known ones."""
    known = "".join(f"const k{i} = {i}\n" for i in range(4_000))
    uses = "".join(f"const u{i} = z{i}\n" for i in range(4_000))
    return HEAD + known + uses + TAIL


def nested_ifs() -> str:
    """100,000 nested if blocks."""
    n = 100_000
    return HEAD + "play {\n" + "if true {\n" * n + "end game \"x\"\n" + "}\n" * n + "}\nscore p = 0\n"


def baseline() -> str:
    """A tiny valid file: what any check costs in a fresh process (imports included)."""
    return HEAD + TAIL


# The same shapes kept within the limits of boardkit.lang.limits: what checking costs there.


def list_within() -> str:
    """One line of 47 lists of 1,000 numbers: about 95,000 tokens."""
    return HEAD + "const BIG = [" + ", ".join("[" + "1, " * 999 + "1]" for _ in range(47)) + "]\n" + TAIL


def vars_within() -> str:
    """4,900 variables."""
    return HEAD + "".join(f"var v{i} = 0\n" for i in range(4_900)) + TAIL


def enum_within() -> str:
    """An enum of 1,999 members."""
    return HEAD + "enum E { " + ", ".join(f"m{i}" for i in range(1_999)) + " }\n" + TAIL


def unknown_within() -> str:
    """4,000 unknown names (summed in 100 constants) among 4,000 known ones."""
    known = "".join(f"const k{i} = {i}\n" for i in range(4_000))
    uses = "".join(f"const u{j} = " + " + ".join(f"z{j}_{i}" for i in range(40)) + "\n" for j in range(100))
    return HEAD + known + uses + TAIL


def ifs_within() -> str:
    """50 nested if blocks, 200 times over."""
    one = "if true {\n" * 49 + "log \"x\"\n" + "}\n" * 49
    return HEAD + "play {\n" + one * 200 + "end game \"x\"\n}\nscore p = 0\n"


CASES = {"baseline": baseline, "one_line_list": one_line_list, "many_vars": many_vars, "big_enum": big_enum,
         "unknown_names": unknown_names, "nested_ifs": nested_ifs, "list_within": list_within,
         "vars_within": vars_within, "enum_within": enum_within, "unknown_within": unknown_within,
         "ifs_within": ifs_within}

CHILD = """
import os, sys, time
os.environ["BOARDKIT_NO_CACHE"] = "1"
from boardkit import parse_ruleset, RuleError
text = sys.stdin.read()
t = time.perf_counter()
try:
    parse_ruleset(text, "hostile.bk")
    outcome, size, first = "accepted", 0, ""
except RuleError as err:
    outcome, size, first = "RuleError", len(str(err)), str(err).split(chr(10))[0][:100]
except Exception as err:
    outcome, size, first = type(err).__name__, len(str(err)), str(err)[:100]
print(f"{time.perf_counter() - t:.3f}\\t{outcome}\\t{size}\\t{first}")
"""


def run(text: str, timeout: float) -> tuple[float | None, str]:
    start = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-c", CHILD], input=text, capture_output=True, text=True,
                              timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return None, f"over {timeout:.0f} s (wall {time.perf_counter() - start:.0f} s)"
    if done.returncode != 0 or not done.stdout:
        return None, f"crashed: {done.stderr.strip().splitlines()[-1:]}"
    seconds, outcome, size, first = done.stdout.rstrip("\n").split("\t", 3)
    return float(seconds), f"{outcome}, message {size} chars: {first}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", nargs="*", default=list(CASES))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=120)
    args = parser.parse_args()
    print(f"{'case':<15} {'bytes':>10} {'median s':>9}  outcome")
    for name in args.cases:
        text = CASES[name]()
        times, outcome = [], ""
        for _ in range(args.repeat):
            seconds, outcome = run(text, args.timeout)
            if seconds is None:
                break
            times.append(seconds)
        shown = f"{statistics.median(times):9.3f}" if times else f"{'-':>9}"
        print(f"{name:<15} {len(text.encode()):>10,} {shown}  {outcome}", flush=True)


if __name__ == "__main__":
    main()
