"""The parser's own lexer (`_FastLexer` in lang/lark_parser.py) cuts every text as lark's contextual lexer.

Each text is parsed twice, with the fast lexer and with lark's: the trees (spans included) or
the error messages must be the same. The texts are every rule file of the repository, and
seeded mutations of them that reach the places where the two could part: characters the fast
lexer does not cut, keywords where a name stands and glued to names, operators that are
longer or shorter, unterminated strings.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from boardkit.errors import RuleError
from boardkit.lang.parse import keyword_names, load_parser, parse
from boardkit.source import SourceFile

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(p for p in [*ROOT.glob("rulesets/*.bk"), *ROOT.glob("examples/*.bk"), *ROOT.glob("benchmarks/*.bk"),
                           *ROOT.glob("tests/**/*.bk")])
MUTATIONS_PER_FILE = 2
INSERTS = [*"@$&|!?^~`'\\\"#\t\v\f\r\n;", "é", "\u00a0", "..", "...", "<=>", "=>", "+=", "-=", "===", "<", "=", "-"]
WORD = re.compile(r"\b[A-Za-z_][A-Za-z_0-9]*\b")


def _outcome(text: str, name: str, parser: object = None) -> str:
    try:
        return repr(parse(SourceFile(text, name), parser))  # type: ignore[arg-type]
    except RuleError as err:
        return f"error: {err}"


def _mutations(text: str, rng: random.Random) -> list[str]:
    words = list(WORD.finditer(text))
    keywords = sorted(keyword_names())
    out = []
    for _ in range(MUTATIONS_PER_FILE):
        at = rng.randrange(len(text) + 1)
        word = rng.choice(words)
        out += [text[:at] + rng.choice(INSERTS) + text[at:],
                text[:word.start()] + rng.choice(keywords) + text[word.end():],
                text[:word.end()] + rng.choice(keywords) + text[word.end():]]
    return out


@pytest.fixture(scope="module")
def lark_lexer() -> object:
    return load_parser()


def test_the_fast_lexer_is_in_use() -> None:
    from boardkit.lang import parse as module  # noqa: PLC0415

    assert type(module._parser().parser.lexer).__name__ == "_FastLexer"  # noqa: SLF001


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_fast_and_lark_lexers_give_the_same_trees_and_errors(path: Path, lark_lexer: object) -> None:
    text = path.read_text(encoding="utf-8")
    rng = random.Random(path.name)
    texts = [text, *_mutations(text, rng)]
    parsed = [(_outcome(t, path.name), _outcome(t, path.name, lark_lexer)) for t in texts]
    assert all(fast == slow for fast, slow in parsed)
