"""Fuzzing the rule language: no rule text may crash boardkit with a bare Python exception.

The contract: `parse_ruleset` returns a Ruleset or raises RuleError; a game of a ruleset that
loads, played with random legal moves (then scored), raises only BoardkitError subclasses
(RuleRuntimeError for rules that misbehave) and never hangs.

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

import random
import re
import signal
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

CALL_TIMEOUT = 10.0  # seconds one call may take before it counts as a hang
MAX_MOVES = 300
MAX_GAME_PLAYERS = 8  # mutated `players` counts can be huge: see test_a_huge_player_count_*

# Crashes found and not yet fixed, each pinned by an xfail case below: (exception type, or None for any,
# a boardkit frame "file.py:function" anywhere in the traceback). Delete an entry when its bug
# is fixed.
KNOWN_CRASHES: dict[tuple[str | None, str], str] = {}


# ---------------------------------------------------------------------------------------------
# Running a text and classifying what happens.

class Hang(BaseException):  # noqa: N818 - a finding; BaseException, so no `except Exception` in boardkit hides it
    """One call to boardkit took longer than CALL_TIMEOUT seconds."""


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
def time_limit(seconds: float) -> Iterator[None]:
    """Raises Hang in the main thread when the block runs longer than `seconds`."""
    def on_alarm(_sig: int, _frame: Any) -> None:
        raise Hang(f"a call took more than {seconds} s")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


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


_timeout = [CALL_TIMEOUT]


def call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    with time_limit(_timeout[0]):
        return fn(*args, **kwargs)


@contextmanager
def timeout(seconds: float) -> Iterator[None]:
    """Counts calls longer than `seconds` as hangs (the regression cases use a short limit)."""
    old, _timeout[0] = _timeout[0], seconds
    try:
        yield
    finally:
        _timeout[0] = old


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


_ISOLATED = """
import random, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30))
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
except boardkit.BoardkitError:
    pass
except BaseException as exc:
    print(type(exc).__name__)
    raise SystemExit(0)
print("fine")
"""


def assert_no_crash_isolated(text: str, seconds: float) -> None:
    """Runs a text in a child process (2 GB of memory, `seconds` of time): for texts that hang
    or fill memory, which no alarm can interrupt inside one huge allocation."""
    import subprocess
    import sys

    try:
        done = subprocess.run([sys.executable, "-c", _ISOLATED], input=text, capture_output=True, text=True,
                              timeout=seconds, check=False)
    except subprocess.TimeoutExpired as exc:
        raise Crash(Hang(f"more than {seconds} s"), "(child process)", text) from exc
    out = done.stdout.strip().splitlines()
    if done.returncode != 0 or out[-1:] != ["fine"]:
        raise Crash(RuntimeError(f"{out[-1:] or done.stderr[-300:]}"), "(child process)", text)


@pytest.mark.parametrize("score", ['if p == 0 then "a" else 1', "if p == 0 then none else 1",
                                   "if p == 0 then [1] else 1", "if p == 0 then first(pot) else 1"])
def test_scores_of_different_kinds_do_not_crash_winners(score: str) -> None:
    assert_no_crash(fill({"SCORE": score}))


@pytest.mark.parametrize("where", ["play { let x = NUM }", "players NUM\nplay { }"])
def test_a_number_too_long_to_convert_is_a_rule_error(where: str) -> None:
    assert_no_crash(where.replace("NUM", "9" * 5000))


def test_a_huge_player_count_is_an_error() -> None:
    assert_no_crash_isolated("players 99999999999\nplay { }", 10)


@pytest.mark.parametrize("size", ["size(3)", "first([])", '"3"+1', "nth([1], 2)"])
def test_a_grid_size_that_fails_is_a_runtime_error(size: str) -> None:
    assert_no_crash(f"zone board: grid({size}, 3)\nplay {{ }}")


def test_a_huge_create_count_does_not_hang() -> None:
    assert_no_crash_isolated('component C { }\nzone z: pile\nsetup { create 1000000000 C() into z }\nplay { }', 3)


# "Rules cannot hang the engine" (docs, Limits): the step limit counts instructions, but one
# expression can do unbounded work.
@pytest.mark.parametrize("text", [
    # a comprehension over two 100000-item ranges (exprs.py, list comprehensions)
    "play { let x = size([0 for a in range(1, 100000) for b in range(1, 100000)]) }",
    # a list, a string, an integer doubling in size at every step (exprs.py arithmetic)
    "var s = [1]\nplay { loop { set s = s + s } }",
    'var s = "ab"\nplay { loop { set s = s + s } }',
    "var s = 2\nplay { loop { set s = s * s } }",
    # a func calling itself twice per level: 2**60 calls, never deep enough for RecursionError
    "func f(n) = if n == 0 then 1 else f(n - 1) + f(n - 1)\nplay { let x = f(60) }",
])
def test_one_expression_cannot_hang_the_engine(text: str) -> None:
    assert_no_crash_isolated(text, 3)


def test_placements_on_the_largest_grid_do_not_hang() -> None:
    assert_no_crash_isolated(('zone board: grid(1000, 1000)\n'
                        'play { turn 0 { choose c from placements(board, 2) prompt "c" } end game "x" }'), 3)


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
