"""Fuzzing the rule language: no rule text may crash boardkit with a bare Python exception.

The contract: `parse_ruleset` returns a Ruleset or raises RuleError; a game of a ruleset that
loads, played with random legal moves (then scored), raises only BoardkitError subclasses
(RuleRuntimeError for rules that misbehave) and never hangs: the engine's budgets (steps to a
decision, work inside expressions, look-ahead trials, pieces, players, grid sides) stop a
runaway rule with a located RuleRuntimeError. The regression cases assert which budget stops
each runaway, never how long it takes, so they pass on a busy machine.

Two sources of rule texts:

- the bundled rulesets mutated at the token level (a token deleted, duplicated, swapped with
  another, a name replaced by another name of the same file, a number by 0, -1, 1000000 or a
  huge one, an operator by another);
- a small template game whose slots (a choice domain, a `require`, a score, a var initial
  value, a label, a capacity, ...) are filled with random expressions of the built-ins applied
  to values of the wrong kind.

Every crash found so far is a regression case at the end of this file. A new one, while it
waits for its fix, is pinned there as a strict xfail and its signature (exception type and a
boardkit frame) listed in KNOWN_CRASHES, so that the fuzz tests do not trip over it again.
"""

from __future__ import annotations

import json
import random
import re
import signal
import subprocess
import sys
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boardkit

ROOT = Path(__file__).resolve().parents[1]
SOURCE_FILES = {
    "mandala": ROOT / "rulesets" / "mandala.bk",
    "ananda": ROOT / "rulesets" / "ananda.bk",
    "chakra": ROOT / "rulesets" / "chakra.bk",
    "meenakshi": ROOT / "rulesets" / "meenakshi.bk",
    "go_fish": ROOT / "examples" / "go_fish.bk",
}
SOURCES = {name: path.read_text(encoding="utf-8") for name, path in SOURCE_FILES.items()}

# A guard against a call that escapes every budget, not a speed bound: CPU seconds of this
# process (a busy machine does not bring it closer), far more than any call within the budgets
# uses, so only a real hang reaches it.
CPU_GUARD_SECONDS = 300.0
MAX_MOVES = 300
MAX_GAME_PLAYERS = 8  # mutated `players` counts can be huge: see test_a_huge_player_count_*

# Crashes found and not yet fixed, each pinned by an xfail case below: (exception type, or None for any,
# a boardkit frame "file.py:function" anywhere in the traceback). Delete an entry when its bug
# is fixed.
KNOWN_CRASHES: dict[tuple[str | None, str], str] = {}


# ---------------------------------------------------------------------------------------------
# Running a text and classifying what happens.

class Hang(BaseException):  # noqa: N818 - a finding; BaseException, so no `except Exception` in boardkit hides it
    """One call to boardkit used CPU_GUARD_SECONDS of CPU time: it escaped every budget."""


class Crash(AssertionError):
    """boardkit raised something other than a BoardkitError."""

    def __init__(self, exc: BaseException, where: str, text: str) -> None:
        self.exc, self.where, self.text = exc, where, text
        self.signature = (type(exc).__name__, where)
        self.frames = boardkit_frames(exc)
        super().__init__(f"{type(exc).__name__} at {where}: {str(exc)[:300]}\n--- rule text ---\n{text}")

    def known(self) -> str | None:
        """The xfail case that already pins this crash, if any."""
        for (kind, site), case in KNOWN_CRASHES.items():
            if kind in (None, type(self.exc).__name__) and site in self.frames:
                return case
        return None


@contextmanager
def cpu_guard(seconds: float) -> Iterator[None]:
    """Raises Hang in the main thread once the block has used `seconds` of this process's CPU
    time (ITIMER_PROF counts CPU time, not time on the clock)."""
    def on_guard(_sig: int, _frame: Any) -> None:
        raise Hang(f"a call used more than {seconds} s of CPU time")

    old = signal.signal(signal.SIGPROF, on_guard)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


def boardkit_frames(exc: BaseException) -> list[str]:
    """The traceback's frames inside the boardkit package, outermost first, as "file.py:function"."""
    frames = traceback.extract_tb(exc.__traceback__)
    return [f"{Path(f.filename).name}:{f.name}" for f in frames
            if "/src/boardkit/" in f.filename.replace("\\", "/") or "/site-packages/boardkit/" in f.filename]


def innermost_boardkit_frame(exc: BaseException) -> str:
    ours = boardkit_frames(exc)
    if ours:
        return ours[-1]
    last = traceback.extract_tb(exc.__traceback__)[-1]
    return f"{Path(last.filename).name}:{last.name}"


def call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    with cpu_guard(CPU_GUARD_SECONDS):
        return fn(*args, **kwargs)


def exercise(text: str, *, seed: int = 0, move_seed: int = 0, player_pick: int = 0,
             max_moves: int = MAX_MOVES) -> str:
    """Loads `text` and plays one random game; returns how it went ("rule-error", "runtime-error",
    "over", "cut"). Raises Crash for anything but a BoardkitError (hangs included)."""
    try:
        try:
            rules = call(boardkit.parse_ruleset, text, filename="x.bk")
        except boardkit.RuleError:
            return "rule-error"
        low, high = rules.min_players, rules.max_players
        if low > MAX_GAME_PLAYERS:
            players = low  # only a handful of these load: State refuses absurd counts itself
            if low > 10_000:
                return "too-many-players"
        else:
            players = low + player_pick % (min(high, MAX_GAME_PLAYERS) - low + 1)
        rng = random.Random(move_seed)
        try:
            game = call(rules.new_game, players=players, seed=seed)
            for _ in range(max_moves):
                if call(lambda: game.is_over):
                    break
                moves = call(game.legal_moves)
                call(game.play, rng.choice(moves))
            call(game.scores)
            call(game.winners)
        except boardkit.BoardkitError:
            return "runtime-error"
        return "over" if game.is_over else "cut"
    except boardkit.BoardkitError as exc:  # pragma: no cover - the contract for parse_ruleset
        raise Crash(exc, innermost_boardkit_frame(exc), text) from exc
    except (Exception, Hang) as exc:  # noqa: BLE001 - everything else is a finding
        raise Crash(exc, innermost_boardkit_frame(exc), text) from exc


def check(text: str, **kwargs: Any) -> str:
    """`exercise`, tolerating the crashes already pinned by the xfail cases below."""
    try:
        return exercise(text, **kwargs)
    except Crash as crash:
        case = crash.known()
        if case is not None:
            return f"known:{case}"
        raise


# ---------------------------------------------------------------------------------------------
# Token-level mutation of the bundled rulesets.

_TOKEN = re.compile(r"""
    (?P<comment>\#[^\n]*)
  | (?P<string>"[^"\n]*")
  | (?P<num>[0-9]+)
  | (?P<name>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<op>\.\.|==|!=|<=|>=|\+=|-=|[-+*/%<>=.,:()\[\]{}])
  | (?P<other>\S)
""", re.VERBOSE)

Token = tuple[str, str, str]  # kind, text, the whitespace after it


def tokenize(text: str) -> list[Token]:
    """The tokens of a rule text (comments dropped), each with the whitespace that follows it."""
    out: list[Token] = []
    pos = 0
    lead = re.match(r"\s*", text)
    pos = lead.end() if lead else 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        assert m is not None
        ws = re.compile(r"\s*").match(text, m.end())
        end = ws.end() if ws else m.end()
        if m.lastgroup != "comment":
            out.append((m.lastgroup or "other", m.group(), text[m.end():end] or " "))
        pos = end
    return out


def detokenize(tokens: list[Token]) -> str:
    return "".join(t + ws for _, t, ws in tokens)


TOKENS = {name: tokenize(text) for name, text in SOURCES.items()}
NAMES = {name: sorted({t for k, t, _ in toks if k == "name"}) for name, toks in TOKENS.items()}
NUMBERS = ["0", "-1", "1", "2", "3", "1000000", str(10**30)]
OPERATORS = ["+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "=", "+=", "-=", ".", "..", ",",
             ":", "(", ")", "[", "]", "{", "}", "and", "or", "not", "in", "where", "if", "then", "else"]
MUTATIONS = ["delete", "duplicate", "swap_near", "swap_far", "name", "number", "operator"]


def mutate(tokens: list[Token], names: list[str], choice: Callable[[str, list], Any],
           index: Callable[[str, int], int]) -> list[Token]:
    """Applies one mutation; `choice(label, items)` and `index(label, n)` make the random picks
    (Hypothesis draws in the tests, a Random in soak scripts)."""
    toks = list(tokens)
    kind = choice("mutation", MUTATIONS)
    i = index("at", len(toks))
    if kind == "delete":
        del toks[i]
    elif kind == "duplicate":
        toks.insert(i, toks[i])
    elif kind in ("swap_near", "swap_far"):
        j = (i + 1 + index("by", 8)) % len(toks) if kind == "swap_near" else index("with", len(toks))
        toks[i], toks[j] = toks[j], toks[i]
    else:
        wanted = {"name": ("name",), "number": ("num",), "operator": ("op", "name")}[kind]
        spots = [k for k, t in enumerate(toks) if t[0] in wanted]
        if kind == "operator":
            spots = [k for k in spots if toks[k][0] == "op" or toks[k][1] in OPERATORS]
        if not spots:
            return toks
        k = spots[i % len(spots)]
        pool = {"name": names, "number": NUMBERS, "operator": OPERATORS}[kind]
        new = choice("by", pool)
        toks[k] = ("op" if kind == "operator" else toks[k][0], new, toks[k][2])
    return toks


@st.composite
def mutated_texts(draw: st.DrawFn, sources: tuple[str, ...] = tuple(SOURCES), most: int = 3) -> str:
    name = draw(st.sampled_from(sources))
    toks = TOKENS[name]
    for _ in range(draw(st.integers(1, most))):
        toks = mutate(toks, NAMES[name],
                      lambda _label, items: draw(st.sampled_from(items)),
                      lambda _label, n: draw(st.integers(0, max(n - 1, 0))))
    return detokenize(toks)


def random_mutant(rng: random.Random, most: int = 3) -> str:
    name = rng.choice(list(SOURCES))
    toks = TOKENS[name]
    for _ in range(rng.randint(1, most)):
        toks = mutate(toks, NAMES[name], lambda _l, items: rng.choice(items), lambda _l, n: rng.randrange(max(n, 1)))
    return detokenize(toks)


# ---------------------------------------------------------------------------------------------
# A template game with slots for random (mostly ill-typed) expressions.

TEMPLATE = """\
game "Fuzz"
players 2..3
enum Colour { red, blue, green }
component Chip { colour: Colour, size: int } label LABEL
component Tile { a: Colour, b: Colour } parts [.a, .b]
zone pot: pile, public
zone deck: stack, hidden
zone hand[Player]: pile, owner, capacity CAP
zone board: grid(3, 3), public
zone tiles: pile, public
var n = VAR
var lst = [1, 2, 3]
setup {
  create 2 Chip(colour: c, size: 1) for c in Colour into pot
  create 1 Chip(colour: c, size: 2) for c in Colour into deck
  create 2 Tile(a: red, b: blue) into tiles
  shuffle deck
}
play {
  let p = 0
  loop {
    turn p {
      choose x from DOMAIN by BY prompt "x"
      require REQ "req"
      move MOVE of pot to hand[p]
      if not empty(tiles) and n == 1 {
        place first(tiles) on board at ["0,0", "1,0"]
      }
      log "x", LOG
      set n = n + 1
    }
    if n > 4 {
      end game END
    }
    set p = next(p)
  }
}
score p = SCORE
tiebreak p = TIE
"""
DEFAULTS = {"LABEL": ".colour", "CAP": "99", "VAR": "0", "DOMAIN": "[1, 2]", "BY": "p", "REQ": "true",
            "MOVE": "1", "LOG": "x", "END": '"done"', "SCORE": "n", "TIE": "0"}
# The names each slot can read (beyond zones, vars, enums and players).
SLOT_LOCALS = {"LABEL": ["it", ".colour", ".size", ".nope"], "CAP": [], "VAR": [], "DOMAIN": ["p"],
               "BY": ["p"], "REQ": ["p", "x", "x.colour", "x.size"], "MOVE": ["p", "x"],
               "LOG": ["p", "x"], "END": ["p"], "SCORE": ["p"], "TIE": ["p"]}
LEAVES = ["0", "-1", "1", "99", "1000000", str(10**30), '"a"', '"0,0"', '"9,9"', "true", "false", "none",
          "[]", "[1, 2]", "[[1], [2]]", "red", "Colour", "pot", "deck", "hand[0]", "hand[p]", "board", "tiles",
          "n", "lst", "players", "player_count", "first(pot)", "first(tiles)", "first(pot).colour",
          "first(pot).size", "pot.colour", "cells(board)"]
BUILTINS = {"size": (1,), "count": (1, 2), "sum": (1,), "min": (1, 2), "max": (1, 2), "abs": (1,),
            "empty": (1,), "any": (1,), "all": (1,), "distinct": (1,), "sorted": (1,), "concat": (1,),
            "range": (2,), "first": (1,), "last": (1,), "nth": (2,), "position": (2,), "remove": (2,),
            "subsets": (3,), "order": (2,), "rank": (2,), "path": (4,), "next": (1, 2), "text": (1,),
            "random": (1,), "cell": (2,), "cell_x": (1,), "cell_y": (1,), "cells": (1, 2), "occupied": (1,),
            "neighbours": (2,), "stack": (2,), "top": (2,), "level": (2,), "part": (2,), "tops": (2,),
            "regions": (1, 3), "region": (2, 4), "placements": (2, 3), "joining": (4,)}
BINARY = ["+", "-", "*", "/", "%", "==", "!=", "<", ">=", "in", "not in", "and", "or"]
ATTRS = ["colour", "size", "a", "nope"]


def expression(pick: Callable[[str, list], Any], leaves: list[str], depth: int) -> str:
    """A random expression; `pick(label, items)` makes each choice."""
    if depth <= 0:
        return pick("leaf", leaves)
    form = pick("form", ["leaf", "call", "call", "call", "binary", "attr", "list", "where", "comp", "if", "neg"])
    sub = lambda: expression(pick, leaves, depth - 1)  # noqa: E731
    if form == "leaf":
        return pick("leaf", leaves)
    if form == "call":
        name = pick("builtin", sorted(BUILTINS))
        arity = pick("arity", list(BUILTINS[name]) + [0, 3])
        return f"{name}({', '.join(sub() for _ in range(arity))})"
    if form == "binary":
        return f"({sub()} {pick('op', BINARY)} {sub()})"
    if form == "attr":
        return f"{pick('leaf', ['first(pot)', 'pot', 'hand[p]', 'lst', 'n', 'none', 'red', 'first(tiles)'])}" \
               f".{pick('attr', ATTRS)}" if depth == 1 else f"({sub()}).{pick('attr', ATTRS)}"
    if form == "list":
        return f"[{', '.join(sub() for _ in range(pick('len', [0, 1, 2, 3])))}]"
    if form == "where":
        return f"({sub()} where {pick('cond', ['.colour == red', '.size > 1', 'it > 1', 'it', '.nope'])})"
    if form == "comp":
        return f"[q for q in {sub()}]"
    if form == "if":
        return f"(if {sub()} then {sub()} else {sub()})"
    return f"-({sub()})"


def fill(slots: dict[str, str]) -> str:
    text = TEMPLATE
    for slot, default in DEFAULTS.items():
        text = text.replace(slot, slots.get(slot, default))
    return text


@st.composite
def template_texts(draw: st.DrawFn, max_depth: int = 4) -> str:
    pick = lambda _label, items: draw(st.sampled_from(items))  # noqa: E731
    slots = {}
    for slot in draw(st.lists(st.sampled_from(sorted(DEFAULTS)), min_size=1, max_size=3, unique=True)):
        leaves = LEAVES + SLOT_LOCALS[slot]
        slots[slot] = expression(pick, leaves, draw(st.integers(0, max_depth)))
    return fill(slots)


def random_template(rng: random.Random, max_depth: int = 4) -> str:
    pick = lambda _label, items: rng.choice(items)  # noqa: E731
    slots = {}
    for slot in rng.sample(sorted(DEFAULTS), rng.randint(1, 3)):
        slots[slot] = expression(pick, LEAVES + SLOT_LOCALS[slot], rng.randint(0, max_depth))
    return fill(slots)


# ---------------------------------------------------------------------------------------------
# The fuzz tests.

def test_the_unmutated_sources_and_template_run_cleanly() -> None:
    for name, text in SOURCES.items():
        assert detokenize(tokenize(text)).split() != [], name
        assert exercise(detokenize(tokenize(text)), max_moves=60) in ("over", "cut"), name
    assert exercise(fill({})) == "over"


games = st.fixed_dictionaries({"seed": st.integers(0, 2**16), "move_seed": st.integers(0, 2**16),
                               "player_pick": st.integers(0, 7)})


@given(text=mutated_texts(), game=games)
def test_mutated_rulesets_fail_only_with_boardkit_errors(text: str, game: dict) -> None:
    check(text, **game)


@given(text=mutated_texts(sources=("go_fish", "mandala")), game=games)
def test_mutated_small_rulesets_fail_only_with_boardkit_errors(text: str, game: dict) -> None:
    check(text, **game)


@given(text=template_texts(), game=games)
def test_ill_typed_expressions_fail_only_with_boardkit_errors(text: str, game: dict) -> None:
    check(text, **game)


_SLOW = settings(settings.default, max_examples=max(20 * settings.default.max_examples, 1000),
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large], deadline=None)


@pytest.mark.slow
@_SLOW
@given(text=mutated_texts(most=5), game=games)
def test_mutated_rulesets_soak(text: str, game: dict) -> None:
    check(text, **game)


@pytest.mark.slow
@_SLOW
@given(text=template_texts(max_depth=6), game=games)
def test_ill_typed_expressions_soak(text: str, game: dict) -> None:
    check(text, **game)


@pytest.mark.slow
def test_many_random_texts_soak() -> None:
    """A quick non-Hypothesis sweep (no shrinking, many more texts per second)."""
    rng = random.Random(20240611)
    for _ in range(2000):
        text = random_mutant(rng) if rng.random() < 0.6 else random_template(rng)
        check(text, seed=rng.randrange(2**16), move_seed=rng.randrange(2**16), player_pick=rng.randrange(8))


# ---------------------------------------------------------------------------------------------
# Crashes found by fuzzing, reduced: flip each marker once its bug is fixed (and delete its
# KNOWN_CRASHES entry).

def assert_no_crash(text: str, **kwargs: Any) -> None:
    exercise(text, **kwargs)  # raises Crash (an AssertionError) on a bare exception


# The child process of `run_isolated`: its memory and CPU time are bounded by the kernel, so a
# text that fills memory or escapes every budget ends the child, not the test run.
_ISOLATED = """
import json, random, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30))
cpu = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
import boardkit
text = sys.stdin.read()
try:
    rules = boardkit.parse_ruleset(text, filename="x.bk")
    game = rules.new_game(players=rules.min_players)
    rng = random.Random(0)
    for _ in range(300):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_moves()))
    game.scores()
    game.winners()
    out = {"outcome": "over" if game.is_over else "cut", "end_reason": game.end_reason}
except BaseException as exc:
    message = str(exc)
    out = {"outcome": "error", "type": type(exc).__name__, "boardkit": isinstance(exc, boardkit.BoardkitError),
           "message": message.splitlines()[0] if message else ""}
print(json.dumps(out))
"""


def run_isolated(text: str) -> dict[str, Any]:
    """Loads `text` and plays one random game in a child process (2 GB of memory, and
    CPU_GUARD_SECONDS of CPU time as a guard against a real hang); returns how it went."""
    done = subprocess.run([sys.executable, "-c", _ISOLATED, str(int(CPU_GUARD_SECONDS))], input=text,
                          capture_output=True, text=True, check=False)
    lines = done.stdout.strip().splitlines()
    if done.returncode == -signal.SIGXCPU:
        raise Crash(Hang(f"the child used {CPU_GUARD_SECONDS} s of CPU time"), "(child process)", text)
    if done.returncode != 0 or not lines:
        raise Crash(RuntimeError(f"exit status {done.returncode}: {done.stderr[-300:]}"), "(child process)", text)
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def assert_stopped(text: str, kind: str, where: str, says: str) -> None:
    """Running `text` ends in the boardkit error `kind`, located at `where` ("line:column" of
    x.bk), whose message matches `says`: the limit that stopped it, named."""
    got = run_isolated(text)
    assert got["outcome"] == "error", got
    assert (got["type"], got["boardkit"]) == (kind, True), got
    assert got["message"].startswith(f"x.bk:{where}: "), got
    assert re.search(says, got["message"]), got


@pytest.mark.parametrize("score", ['if p == 0 then "a" else 1', "if p == 0 then none else 1",
                                   "if p == 0 then [1] else 1", "if p == 0 then first(pot) else 1"])
def test_scores_of_different_kinds_do_not_crash_winners(score: str) -> None:
    assert_no_crash(fill({"SCORE": score}))


@pytest.mark.parametrize("where", ["play { let x = NUM }", "players NUM\nplay { }"])
def test_a_number_too_long_to_convert_is_a_rule_error(where: str) -> None:
    assert_no_crash(where.replace("NUM", "9" * 5000))


def test_a_huge_player_count_is_a_rule_error() -> None:
    assert_stopped("players 99999999999\nplay { }", "RuleError", "1:9", r"\bplayers\b")


@pytest.mark.parametrize("size", ["size(3)", "first([])", '"3"+1', "nth([1], 2)"])
def test_a_grid_size_that_fails_is_a_runtime_error(size: str) -> None:
    assert_no_crash(f"zone board: grid({size}, 3)\nplay {{ }}")


def test_a_huge_create_count_is_stopped_by_the_piece_limit() -> None:
    assert_stopped('component C { }\nzone z: pile\nsetup { create 1000000000 C() into z }\nplay { }',
                   "RuleRuntimeError", "3:16", r"create 1000000000 pieces: a game holds at most \d+ pieces")


# "Rules cannot hang the engine" (docs, Limits): the step limit counts instructions, and one
# expression's work is budgeted too. Each runaway below must be stopped by the budget named,
# at the expression that runs away, whatever the time that takes on the machine.
WORK_BUDGET = r"more than [\d_,]+ steps of work"
RUNAWAYS = [
    # a comprehension over two 100000-item ranges: 10**10 items walked (exprs.py, comprehensions)
    pytest.param("play { let x = size([0 for a in range(1, 100000) for b in range(1, 100000)]) }",
                 "1:12", WORK_BUDGET, id="comprehension"),
    # a list, a string, an integer doubling in size at every step (exprs.py arithmetic)
    pytest.param("var s = [1]\nplay { loop { set s = s + s } }", "2:19",
                 r"joining would make \d+ items, more than \d+", id="list-doubling"),
    pytest.param('var s = "ab"\nplay { loop { set s = s + s } }', "2:19",
                 r"joining would make \d+ items, more than \d+", id="text-doubling"),
    pytest.param("var s = 2\nplay { loop { set s = s * s } }", "2:19", r"a product over \d+ bits", id="squaring"),
    # a func calling itself twice per level: 2**61 calls, never deep enough for RecursionError
    pytest.param("func f(n) = if n == 0 then 1 else f(n - 1) + f(n - 1)\nplay { let x = f(60) }", "2:12",
                 WORK_BUDGET, id="f(60)"),
]


@pytest.mark.parametrize(("text", "where", "says"), RUNAWAYS)
def test_one_expression_cannot_hang_the_engine(text: str, where: str, says: str) -> None:
    assert_stopped(text, "RuleRuntimeError", where, says)


@pytest.mark.parametrize(("expression", "value"), [
    # 2**17 - 1 calls of f: the same recursion as f(60) above, within the budget.
    ("f(16)", 65536),
    # 1000 x 1000 items walked: the same comprehension as above, within the budget.
    ("size([0 for a in range(1, 1000) for b in range(1, 1000)])", 1_000_000),
])
def test_work_within_the_budget_is_done(expression: str, value: int) -> None:
    """The budget stops runaways, not rules that merely work hard: the same expressions with a
    bound within it give their value."""
    rules = boardkit.parse_ruleset(
        "func f(n) = if n == 0 then 1 else f(n - 1) + f(n - 1)\n"
        f'play {{ turn 0 {{ choose v from [{expression}] prompt "v" }} end game "done" }}\n', filename="x.bk")
    game = call(rules.new_game, players=rules.min_players)
    assert [m.label for m in call(game.legal_moves)] == [str(value)]
    call(game.play, str(value))
    assert game.end_reason == "done"


def test_a_grid_side_over_the_limit_is_a_runtime_error() -> None:
    assert_stopped('zone board: grid(1000, 1000)\n'
                   'play { turn 0 { choose c from placements(board, 2) prompt "c" } end game "x" }',
                   "RuleRuntimeError", "1:6", r"1000 x 1000")


def test_placements_on_the_largest_grid_are_all_offered() -> None:
    side = 100  # the largest grid side (reference/language.md, Limits)
    text = (f'zone board: grid({side}, {side})\n'
            'play { turn 0 { choose c from placements(board, 2) prompt "c" } end game "x" }')
    assert run_isolated(text) == {"outcome": "over", "end_reason": "x"}
    rules = boardkit.parse_ruleset(text, filename="x.bk")
    moves = call(rules.new_game(players=rules.min_players).legal_moves)
    # Every ordered pair of neighbouring cells: `side - 1` pairs a row or column, both ways.
    assert len(moves) == 2 * 2 * side * (side - 1)
    assert len({m.label for m in moves}) == len(moves)


@pytest.mark.parametrize("target", ["base", "/proc/self/mem"])
def test_extending_an_unreadable_file_is_a_rule_error(tmp_path: Path, target: str) -> None:
    (tmp_path / "base.bk").write_bytes(b"\xff\xfe not utf-8\n")
    if target.startswith("/proc") and not Path(target).is_file():
        pytest.skip("no /proc/self/mem here")
    text = f'extends "{target}"\nplay {{ }}\n'
    try:
        boardkit.parse_ruleset(text, filename=str(tmp_path / "variant.bk"))
    except boardkit.RuleError:
        pass
    except Exception as exc:  # noqa: BLE001
        raise Crash(exc, innermost_boardkit_frame(exc), text) from exc
