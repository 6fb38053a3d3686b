"""The documentation's examples are checked against the engine.

Fenced blocks in ``docs/**.md`` are tested by their tag:

- ``bk``: a complete rule file. It must compile, and a game of it must start (with the
  fewest players, seed 0) and survive a few random moves. A block titled with the path of a
  file in the repository (```` ```bk title="examples/go_fish.bk" ````) must equal that file.
- ``bk-error``: a complete rule file the checker must reject.
- A block titled ``diagnostics`` right after a titled ``bk`` or ``bk-error`` block is what the
  checker reports for it: the ``RuleError`` message, or the warnings joined by newlines. On the
  pages this suite owns, a ``bk`` block with no such block must compile without warnings.
- ``bk-fragment``: a piece of a rule file. On the pages this suite owns it must parse as
  declarations, as statements, or line by line as expressions.
- ``bk-fragment`` blocks titled ``expression  # value`` hold one ``EXPRESSION  # VALUE`` per
  line; each expression is evaluated in a two-player game that declares
  ``enum Colour { red, orange, yellow, green }`` and an empty grid zone
  ``zone board: grid(3, 3), public``, and must give the value shown.
- ``python`` blocks whose first line is an import are run (from the repository root). A
  comment on the last line of a ``print(...)`` call, or alone on the line after it, shows what
  it prints, and it must print exactly that (a comment of plain words is a remark, not output).

Every keyword of the grammar and every built-in function must be documented in
``docs/reference/``, and every page must be in the navigation.
"""

from __future__ import annotations

import ast
import io
import random
import re
import sys
import tokenize
from pathlib import Path
from typing import Any

import attrs
import pytest

import boardkit
from boardkit.errors import RuleError
from boardkit.lang.parse import parse
from boardkit.runtime.builtins import BUILTINS
from boardkit.source import SourceFile

ROOT = Path(__file__).parents[1]
DOCS = ROOT / "docs"
# Pages written with this suite. On other pages (games and references written with their
# engine parts), `bk` blocks are compiled and played, but warnings and fragments are theirs.
OWNED = {"index.md", "getting-started.md", "tutorial.md", "concepts.md", "games/mandala.md",
         "design/language.md"}
OWNED_DIRS = ("howto/", "reference/")
OWNED_EXCEPT = {"reference/grid.md", "reference/knowledge.md", "reference/tracks.md"}
RANDOM_MOVES = 25
# The grammar, wherever the package keeps it.
GRAMMAR = next((ROOT / "src" / "boardkit").rglob("boardkit.lark"))

FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<lang>[\w-]+)(?P<info>[^\n]*)\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
                   re.MULTILINE | re.DOTALL)
TITLE = re.compile(r'title="([^"]*)"')


@attrs.frozen
class Block:
    page: str
    line: int
    lang: str
    title: str | None
    text: str
    diagnostics: str | None = None

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"

    @property
    def filename(self) -> str:
        return self.title or f"{Path(self.page).stem}_{self.line}.bk"


def owned(page: str) -> bool:
    return page in OWNED or (page.startswith(OWNED_DIRS) and page not in OWNED_EXCEPT)


def blocks_of(path: Path) -> list[Block]:
    text = path.read_text(encoding="utf-8")
    page = path.relative_to(DOCS).as_posix()
    found: list[Block] = []
    for m in FENCE.finditer(text):
        indent = m["indent"]
        body = "".join(line[len(indent):] if line.startswith(indent) else line
                       for line in m["body"].splitlines(keepends=True))
        title = TITLE.search(m["info"])
        found.append(Block(page, text.count("\n", 0, m.start()) + 1, m["lang"], title[1] if title else None, body))
    # A "diagnostics" block belongs to the titled rule file just before it.
    out: list[Block] = []
    for block in found:
        if block.title == "diagnostics" and out and out[-1].lang in ("bk", "bk-error") and out[-1].title:
            out[-1] = attrs.evolve(out[-1], diagnostics=block.text.rstrip("\n"))
        else:
            out.append(block)
    return out


PAGES = sorted(DOCS.rglob("*.md"))
BLOCKS = [b for p in PAGES for b in blocks_of(p)]


def params(blocks: Any) -> list[Any]:
    return [pytest.param(b, id=b.id) for b in blocks]


def of(lang: str) -> list[Any]:
    return params(b for b in BLOCKS if b.lang == lang)


def test_the_docs_have_examples_of_every_kind() -> None:
    langs = {b.lang for b in BLOCKS}
    assert {"bk", "bk-fragment", "bk-error", "python"} <= langs
    assert len([b for b in BLOCKS if b.lang == "bk"]) >= 15


@pytest.mark.parametrize("block", of("bk"))
def test_complete_examples_compile_and_play(block: Block, monkeypatch: pytest.MonkeyPatch) -> None:
    # A variant's base is looked up beside the file it names, relative to the repository.
    monkeypatch.chdir(ROOT)
    rules = boardkit.parse_ruleset(block.text, filename=block.filename)
    if block.diagnostics is not None:
        assert "\n".join(rules.warnings) == block.diagnostics
    elif owned(block.page):
        assert rules.warnings == [], "\n".join(rules.warnings)
    game = rules.new_game(players=rules.min_players, seed=0)
    rng = random.Random(0)
    for _ in range(RANDOM_MOVES):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_moves()))


@pytest.mark.parametrize("block", of("bk-error"))
def test_broken_examples_are_rejected_as_documented(block: Block, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    with pytest.raises(RuleError) as caught:
        boardkit.parse_ruleset(block.text, filename=block.filename)
    if block.diagnostics is not None:
        assert str(caught.value) == block.diagnostics


@pytest.mark.parametrize("block", params(b for b in BLOCKS if b.lang == "bk" and b.title and (ROOT / b.title).is_file()))
def test_examples_quoting_a_file_quote_it_exactly(block: Block) -> None:
    assert block.text == (ROOT / block.title).read_text(encoding="utf-8")


def _parses(text: str) -> bool:
    try:
        parse(SourceFile(text, "fragment.bk"))
    except RuleError:
        return False
    return True


# The design notes sketch proposed syntax on purpose; their fragments need not parse.
@pytest.mark.parametrize("block", params(b for b in BLOCKS if b.lang == "bk-fragment" and owned(b.page)
                                         and not b.page.startswith("design/")))
def test_fragments_parse(block: Block) -> None:
    text = block.text
    if _parses(text) or _parses(f"play {{\n{text}\n}}"):
        return
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")]
    bad = [ln for ln in lines if not _parses(f"const x = {ln.split(' # ')[0]}")]
    assert not bad, f"neither declarations, statements nor expressions: {bad}"


# A comment beside a `print` that is a remark, not the output: plain words, such as
# "one int per player". Output has digits, quotes, brackets or punctuation of its own.
REMARK = re.compile(r"[A-Za-z][A-Za-z ,;-]*")


@attrs.frozen
class Shown:
    """A `print` call of an example and the output its page shows for it."""

    first: int  # the call's lines in the example
    last: int
    call: str  # the call's source
    output: str


def shown_outputs(text: str) -> list[Shown]:
    """What a python example shows its `print` calls write: the comment on the call's last
    line, or alone on the line after it; remarks are left out."""
    comments: dict[int, str] = {}
    alone: set[int] = set()
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            comments[tok.start[0]] = tok.string[1:].strip()
            if not tok.line[:tok.start[1]].strip():
                alone.add(tok.start[0])
    shown: list[Shown] = []
    for node in ast.walk(ast.parse(text)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print"):
            continue
        last = node.end_lineno or node.lineno
        comment = comments.get(last) if last not in alone else None
        if comment is None and last + 1 in alone:
            comment = comments[last + 1]
        if comment is not None and not REMARK.fullmatch(comment):
            shown.append(Shown(node.lineno, last, ast.get_source_segment(text, node) or "", comment))
    return sorted(shown, key=lambda s: s.first)


# Outputs a page shows that the engine does not print, each waiting for its page to be fixed:
# (page, the print call) -> what differs. The test of that page is a strict xfail until then;
# delete the entry when the page is fixed.
KNOWN_WRONG_OUTPUTS: dict[tuple[str, str], str] = {}

PYTHON_EXAMPLES = [b for b in BLOCKS if b.lang == "python" and owned(b.page)
                   and b.text.lstrip().startswith(("import ", "from "))]


@pytest.mark.parametrize("block", params(PYTHON_EXAMPLES))
def test_python_examples_run_and_print_what_they_show(block: Block, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each example runs (its own `assert`s included), and each `print` whose output the page
    shows in a comment prints exactly that, once."""
    monkeypatch.chdir(ROOT)
    printed: list[tuple[int, str]] = []

    def record(*args: Any, sep: str | None = " ", end: str | None = "\n", **_: Any) -> None:
        caller = sys._getframe(1)  # the example's line that printed
        if caller.f_code.co_filename == block.id:
            printed.append((caller.f_lineno, (" " if sep is None else sep).join(map(str, args))))

    exec(compile(block.text, block.id, "exec"), {"__name__": "docs_example", "print": record})  # noqa: S102
    wrong: list[str] = []
    known: list[str] = []
    for shown in shown_outputs(block.text):
        got = [text for line, text in printed if shown.first <= line <= shown.last]
        reason = KNOWN_WRONG_OUTPUTS.get((block.page, shown.call))
        if got != [shown.output]:
            (known if reason else wrong).append(f"{block.page}:{block.line + shown.first}: {shown.call} printed "
                                                f"{got}, the page shows {shown.output!r}")
        else:
            assert reason is None, f"{block.page}: {shown.call} is right now: delete its KNOWN_WRONG_OUTPUTS entry"
    assert not wrong, "\n".join(wrong)
    if known:
        pytest.xfail("\n".join(known))


def test_python_examples_show_outputs_that_are_checked() -> None:
    """The output check above finds what the pages show: not a vacuous pass."""
    assert sum(len(shown_outputs(b.text)) for b in PYTHON_EXAMPLES) >= 5
    # A remark beside a print is not taken for its output; a comment alone on the next line is.
    assert shown_outputs("print(1)  # one int per player\nprint([2])  # [2]\nprint('a')\n# 'a'\n") == [
        Shown(2, 2, "print([2])", "[2]"), Shown(3, 3, "print('a')", "'a'")]


def test_every_keyword_and_builtin_is_in_the_reference() -> None:
    grammar = GRAMMAR.read_text(encoding="utf-8")
    keywords = set(re.findall(r'"([a-z_]+)"', grammar))
    reference = "\n".join(FENCE.sub("", p.read_text(encoding="utf-8"))
                          for p in sorted((DOCS / "reference").glob("*.md")))
    documented = set(re.findall(r"`([^`\n]+)`", reference))
    words = {w for d in documented for w in re.findall(r"[a-z_]+", d)}
    missing_keywords = sorted(k for k in keywords if k not in words)
    missing_builtins = sorted(f for f in BUILTINS if not any(d.startswith(f"{f}(") for d in documented))
    assert missing_keywords == []
    assert missing_builtins == []


def test_the_language_reference_lists_every_keyword() -> None:
    grammar = GRAMMAR.read_text(encoding="utf-8")
    text = (DOCS / "reference" / "language.md").read_text(encoding="utf-8")
    listed = text[text.index("The keywords: "):]
    listed = set(re.findall(r"`([a-z_]+)`", listed[:listed.index("\n\n")]))
    assert set(re.findall(r'"([a-z_]+)"', grammar)) == listed


def test_every_page_is_in_the_navigation() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    listed = set(re.findall(r":\s*([\w/.-]+\.md)\s*$", nav, re.MULTILINE))
    pages = {p.relative_to(DOCS).as_posix() for p in PAGES}
    assert pages - listed == set()
    assert listed - pages == set()


VALUES_TITLE = "expression  # value"
VALUES_PRELUDE = """
enum Colour { red, orange, yellow, green }
zone board: grid(3, 3), public
var out = 0
play {
  set out = (%s)
  end game "evaluated"
}
"""


def dsl(value: Any) -> str:
    """Writes a value as the docs do: lists in brackets, true/false/none, strings bare."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(dsl(v) for v in value) + "]"
    return str(value)


@pytest.mark.parametrize("block", params(b for b in BLOCKS if b.title == VALUES_TITLE))
def test_documented_values_are_what_the_engine_computes(block: Block) -> None:
    for line in block.text.splitlines():
        if not line.strip():
            continue
        expr, sep, shown = line.rpartition("  # ")
        assert sep, f"expected 'expression  # value': {line!r}"
        game = boardkit.parse_ruleset(VALUES_PRELUDE % expr, filename="value.bk").new_game(seed=0)
        # Strings are compared without their quotes: `red` and `"0,1"` are both strings.
        assert dsl(game.var("out")) == shown.strip().replace('"', ""), expr
