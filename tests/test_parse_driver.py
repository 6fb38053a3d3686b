"""The parser of lang/parse.py, which runs lark's tables itself, reads every text as lark does.

Each text is parsed by `parse` (our parser, and lark where it stops) and by lark alone, with
lark's own lexer: the trees (spans included) or the error messages must be the same. The texts
are every rule file of the repository and seeded token-level mutations of them (a token
dropped, doubled, swapped with the next, or the text cut after it), which reach states where
the tables reduce before they find an error. Bundled rules must be read without lark.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from boardkit.errors import RuleError
from boardkit.lang import limits, parse
from boardkit.source import SourceFile

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(p for p in [*ROOT.glob("rulesets/*.bk"), *ROOT.glob("examples/*.bk"), *ROOT.glob("benchmarks/*.bk"),
                           *ROOT.glob("tests/**/*.bk")])
MUTATIONS_PER_FILE = 5
TOKEN = re.compile(r'"[^"\n]*"|[A-Za-z_][A-Za-z_0-9]*|[0-9]+|\.\.|[<>=!+\-]=|\S')


def _outcome(text: str, name: str, parser: object = None) -> str:
    try:
        return repr(parse.parse(SourceFile(text, name), parser))  # type: ignore[arg-type]
    except RuleError as err:
        return f"error: {err}"


def _mutations(text: str, rng: random.Random) -> list[str]:
    tokens = [m for m in TOKEN.finditer(text) if not text[m.start():].startswith("#")]
    out = []
    for _ in range(MUTATIONS_PER_FILE):
        i = rng.randrange(len(tokens) - 1)
        a, b = tokens[i], tokens[i + 1]
        out.append(rng.choice([
            text[:a.start()] + text[a.end():],  # dropped
            text[:a.end()] + " " + a.group() + text[a.end():],  # doubled
            text[:a.start()] + b.group() + text[a.end():b.start()] + a.group() + text[b.end():],  # swapped
            text[:a.end()],  # cut
        ]))
    return out


@pytest.fixture(scope="module")
def lark_alone() -> object:
    return parse.load_parser()


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_our_parser_and_lark_give_the_same_trees_and_errors(path: Path, lark_alone: object) -> None:
    text = path.read_text(encoding="utf-8")
    texts = [text, *_mutations(text, random.Random(path.name))]
    assert [_outcome(t, path.name) for t in texts] == [_outcome(t, path.name, lark_alone) for t in texts]


def test_bundled_rules_are_read_by_our_parser_alone(lark_alone: object) -> None:
    """No text that parses falls back to lark, and the tree is lark's."""
    driver = parse._driver()  # noqa: SLF001
    assert driver is not None
    for path in [p for p in FILES if "errors" not in p.parts]:
        text = path.read_text(encoding="utf-8")
        parse._BUILDER.filename = path.name  # noqa: SLF001
        ours = repr(driver.run(text))
        assert ours == _outcome(text, path.name, lark_alone)


def test_what_our_parser_is_not_sure_of_is_lark_s_to_say() -> None:
    """A syntax error, an unknown character, a builder error: lark's message, raised through `parse`."""
    driver = parse._driver()  # noqa: SLF001
    assert driver is not None
    head = 'game "g"\nplayers 2\n'
    for body, message in [("const a = (1", "unexpected end of file"), ("const a = 1 @ 2", "unexpected character '@'"),
                          ("const a = 1" + "0" * 30, "a number of 31 digits"),
                          ("const = 1", "unexpected '='; expected a name")]:
        with pytest.raises((parse._Unsure, RuleError)):  # noqa: SLF001
            driver.run(head + body)
        with pytest.raises(RuleError, match=message) as caught:
            parse.parse(SourceFile(head + body, "g.bk"))
        assert (caught.value.filename, caught.value.line) == ("g.bk", 3)


def _brackets_by_scan(marks: list[str]) -> bool:
    """What limits.py's scan finds of brackets and commas, one at a time."""
    commas: list[int] = []
    for mark in marks:
        if mark == ",":
            if commas:
                commas[-1] += 1
                if commas[-1] >= limits.MAX_ITEMS:
                    return False
        elif mark in "([{":
            commas.append(0)
            if len(commas) > limits.MAX_NESTING:
                return False
        elif commas:
            commas.pop()
    return True


def test_the_limits_quick_count_of_brackets_agrees_with_the_scan() -> None:
    """Depths worked out by sums where no bracket closes without one open; else one at a time."""
    rng = random.Random(5)
    outcomes = set()
    for _ in range(400):
        depth = rng.choice([limits.MAX_NESTING - 1, limits.MAX_NESTING, limits.MAX_NESTING + 1])
        marks = ["("] * depth + [")"] * depth
        at = 0 if rng.random() < 0.3 else rng.randrange(len(marks) + 1)  # a bracket closed before any opens
        marks.insert(at, rng.choice([",", ")", "]", "[", ",,"]))
        if rng.random() < 0.2:
            k = rng.randrange(len(marks) + 1)
            marks[k:k] = ["{", *[","] * rng.choice([limits.MAX_ITEMS - 1, limits.MAX_ITEMS]), "}"]
        marks = [c for mark in marks for c in mark]
        expected = _brackets_by_scan(marks)
        assert limits._brackets_within(marks) == expected  # noqa: SLF001
        outcomes.add(expected)
    assert outcomes == {True, False}


def _run(code: str, cache: Path) -> str:
    env = {**os.environ, "BOARDKIT_CACHE_DIR": str(cache)}
    env.pop("BOARDKIT_NO_CACHE", None)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    return out.stdout.strip()


LOAD = """
import hashlib, sys
from boardkit.lang.parse import parse
from boardkit.source import SourceFile
text = open(%r, encoding="utf-8").read()
print(hashlib.sha256(repr(parse(SourceFile(text, "m.bk"))).encode()).hexdigest(), "lark" in sys.modules)
""" % str(ROOT / "rulesets" / "mandala.bk")


def test_cached_tables_parse_without_lark_and_damaged_ones_are_built_again(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    built, lark_built = _run(LOAD, cache).split()
    assert lark_built == "True"  # the first process builds the tables with lark
    (tables,) = cache.glob("driver-*.tables")
    assert tables.stat().st_mode & 0o077 == 0
    again, lark_again = _run(LOAD, cache).split()
    assert (again, lark_again) == (built, "False")
    tables.write_bytes(tables.read_bytes()[:1000])
    damaged, lark_damaged = _run(LOAD, cache).split()
    assert (damaged, lark_damaged) == (built, "True")
    assert len(tables.read_bytes()) > 1000
