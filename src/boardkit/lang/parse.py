"""Rule text to AST (built as lark parses), with syntax errors turned into located RuleErrors."""

from __future__ import annotations

import contextlib
import functools
import importlib.resources
import marshal
import re
import threading
from typing import TYPE_CHECKING, Any, cast

import lark
from lark.grammar import Rule
from lark.lexer import ContextualLexer, Lexer, LexerState, TerminalDef, Token

from boardkit import diskcache
from boardkit.errors import Diagnostic, RuleError
from boardkit.lang.ast_build import Builder
from boardkit.lang.limits import check_limits
from boardkit.source import SourceFile, Span

if TYPE_CHECKING:
    from collections.abc import Collection, Iterator

    from lark.parsers.lalr_parser_state import ParserState

    from boardkit.lang import ast

# Friendlier names for the tokens lark reports as expected.
_TOKEN_NAMES = {
    "NAME": "a name", "INT": "a number", "STRING": "a string", "LBRACE": "'{'", "RBRACE": "'}'",
    "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COLON": "':'", "COMMA": "','",
    "EQUAL": "'='", "$END": "end of file",
}
# How many of the expected tokens a message lists.
_EXPECTED_SHOWN = 6


_BUILDER = Builder()
# The builder is shared, and holds the name of the file being parsed: one parse at a time.
_LOCK = threading.Lock()


# Options that name live objects rather than describe the parser: given again on every load.
_LIVE_OPTIONS = ("transformer", "import_paths", "source_path")


def load_parser() -> lark.Lark:
    """A new LALR parser, its tables from the user's cache when an earlier process built them.

    Building them takes most of a cold load; they depend only on the grammar and lark's version.
    """
    grammar = (importlib.resources.files("boardkit.lang") / "grammar" / "boardkit.lark").read_text(encoding="utf-8")
    name = f"parser-{diskcache.digest(grammar, lark.__version__)[:40]}.tables"
    blob = diskcache.read(name)
    if blob is not None:
        try:
            tables: dict[str, Any] = marshal.loads(blob)  # noqa: S302 - a private file of ours: plain data
            tables["data"]["options"]["transformer"] = _BUILDER
            return lark.Lark.load(tables)
        except Exception:  # noqa: BLE001, S110 - damaged or foreign tables are a miss: built again below
            pass
    parser = lark.Lark.open_from_package(
        "boardkit.lang", "boardkit.lark", ("grammar",), parser="lalr",
        maybe_placeholders=False, transformer=_BUILDER,
    )
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    data["options"] = {k: v for k, v in data["options"].items() if k not in _LIVE_OPTIONS}
    with contextlib.suppress(ValueError):  # a lark whose tables are not plain data: built every time
        diskcache.write(name, marshal.dumps({"data": data, "memo": memo}))
    return parser


class _FastLexer(Lexer):
    """Cuts rule text into the tokens lark's contextual lexer would, with one regular expression.

    Lark's lexer spends several Python calls on each token; most of a cold load's parse went
    there. This one cuts the whole text in C and only types each piece, as the contextual
    lexer does: a word is a keyword where the parser accepts that keyword, else a name. A
    piece the parser does not accept in its state, or a character it cannot cut, hands the
    rest of the text to lark's lexer at that place: from there on every token, and every
    syntax error, is lark's own. Only ignored tokens (spaces) span lines, as in the grammar;
    tests/test_fast_lexer.py compares the two lexers.
    """

    def __init__(self, fallback: Lexer, terminals: Collection[TerminalDef], ignore: Collection[str]) -> None:
        self.fallback = fallback
        literal = {str(t.pattern.value): t.name for t in terminals if t.pattern.type == "str"}
        self.keywords = {v: name for v, name in literal.items() if v.isidentifier()}
        self.punctuation = {v: name for v, name in literal.items() if not v.isidentifier()}
        # The grammar's other terminals, by name; `ignore`d ones (spaces, comments) are dropped.
        patterns = {t.name: t.pattern.to_regexp() for t in terminals if t.pattern.type == "re"}
        self.ignore = frozenset(ignore)
        groups = [f"(?P<{name}>{regexp})" for name, regexp in patterns.items()]
        marks = "|".join(re.escape(v) for v in sorted(self.punctuation, key=len, reverse=True))
        # The last group takes any other character: where this lexer stops.
        self.pattern = re.compile("|".join([*groups, f"(?P<_p>{marks})", r"(?P<_x>[\s\S])"]))

    def lex(self, lexer_state: LexerState, parser_state: ParserState[Any]) -> Iterator[Token]:
        """Yields the tokens of the text; lark's lexer yields the rest from where this one cannot go on."""
        raw: Any = lexer_state.text
        text: str = getattr(raw, "text", raw)  # a TextSlice since lark 1.2
        states = parser_state.parse_conf.states
        counter = lexer_state.line_ctr
        line, line_start = counter.line, counter.line_start_pos
        for match in self.pattern.finditer(text, counter.char_pos):
            kind, value, start = match.lastgroup, match.group(), match.start()
            if kind in self.ignore:
                newlines = value.count("\n")
                if newlines:
                    line += newlines
                    line_start = start + value.rindex("\n") + 1
                continue
            accepts = states[parser_state.position]
            if kind == "NAME":
                kind = self.keywords.get(value, kind)
                if kind not in accepts:
                    kind = "NAME"
            elif kind == "_p":
                kind = self.punctuation[value]
            if kind not in accepts:  # lark's lexer decides: another cut, or a syntax error
                counter.char_pos, counter.line, counter.column, counter.line_start_pos = (
                    start, line, start - line_start + 1, line_start)
                yield from self.fallback.lex(lexer_state, parser_state)
                return
            column = start - line_start + 1
            token = Token(kind, value, start, line, column, line, column + len(value), match.end())
            lexer_state.last_token = token
            yield token


def _with_fast_lexer(parser: lark.Lark) -> lark.Lark:
    """The parser, lexing with `_FastLexer` when it is lark's LALR parser with its contextual lexer."""
    frontend = parser.parser
    fallback = getattr(frontend, "lexer", None)
    if isinstance(fallback, ContextualLexer):
        frontend.lexer = _FastLexer(fallback, parser.terminals, parser.lexer_conf.ignore)
    return parser


_parser = functools.cache(lambda: _with_fast_lexer(load_parser()))


@functools.cache
def keyword_names() -> frozenset[str]:
    """The words the grammar reserves in some place (`move`, `at`, `top`, ...)."""
    return frozenset(str(t.pattern.value) for t in _parser().terminals
                     if t.pattern.type == "str" and str(t.pattern.value).isidentifier())


def _token_text(name: str) -> str:
    """How a token is written: its literal text for punctuation and keywords."""
    if name in _TOKEN_NAMES:
        return _TOKEN_NAMES[name]
    for term in _parser().terminals:
        if term.name == name and term.pattern.type == "str":
            return repr(term.pattern.value)
    return name.lower()


def _expected(names: set[str]) -> str:
    shown = sorted({_token_text(n) for n in names})
    if len(shown) > _EXPECTED_SHOWN:
        shown = [*shown[:_EXPECTED_SHOWN], "..."]
    return ", ".join(shown)


def _diagnostic(err: lark.exceptions.UnexpectedInput, source: SourceFile) -> Diagnostic:
    span = Span(source.filename, err.line if err.line > 0 else 1, err.column if err.column > 0 else 1)
    if isinstance(err, lark.exceptions.UnexpectedToken):
        tok = err.token
        found = "end of file" if tok.type == "$END" else repr(str(tok))
        if tok.type != "$END":
            end_line, end_column = tok.end_line or tok.line, tok.end_column or tok.column + 1
            span = Span(source.filename, tok.line, tok.column, end_line, end_column)
        else:
            lines = source.text.rstrip("\n").split("\n")
            span = Span(source.filename, len(lines), len(lines[-1]) + 1)
        hint = _hint(tok, source, err.expected)
        return Diagnostic(span, f"unexpected {found}; expected {_expected(err.expected)}{hint}")
    if isinstance(err, lark.exceptions.UnexpectedCharacters):
        pos = err.pos_in_stream if err.pos_in_stream is not None else len(source.text)
        char = source.text[pos] if pos < len(source.text) else "?"
        return Diagnostic(span, f"unexpected character {char!r}{_CHAR_HINTS.get(source.text[pos:pos + 2], '')}")
    return Diagnostic(span, "unexpected end of file")


# Slips from other languages, and what the rule language writes instead.
_CHAR_HINTS = {"&&": "; write 'and' for '&&'", "||": "; write 'or' for '||'", "!=": "",
               "!": "; write 'not' for '!'"}
_CHAR_HINTS.update({f"!{c}": "; write 'not' for '!'" for c in "abcdefghijklmnopqrstuvwxyz(_"})


# Words after which a new name is declared, and what it names.
_DECLARING = {"func": "function", "proc": "procedure", "let": "local", "var": "variable", "const": "constant",
              "zone": "zone", "option": "option", "enum": "enum", "component": "component", "for": "loop variable",
              "choose": "choice"}


def _hint(tok: lark.Token, source: SourceFile, expected: set[str]) -> str:
    """A suggestion for a token that is a common slip: `else if`, a keyword used as a name."""
    before = source.text[: tok.start_pos].rstrip() if tok.start_pos is not None else ""
    if str(tok) == "if" and before.endswith("else"):
        return "; write 'elif' for 'else if'"
    declaring = before.rsplit(None, 1)[-1] if before else ""
    if "NAME" in expected and declaring in _DECLARING and str(tok).isidentifier():
        return f"; {str(tok)!r} is a keyword of the rule language and cannot name a {_DECLARING[declaring]}"
    return ""


def parse(source: SourceFile, parser: lark.Lark | None = None) -> ast.RuleFile:
    """Parses rule text to its AST.

    Only the first syntax error is reported: LALR recovery mostly yields a cascade of
    follow-on errors that point nowhere useful. Semantic errors are all reported at once.
    `parser` is one from `load_parser`, with lark's own lexer: the tests compare the two.
    """
    check_limits(source)
    parser = parser or _parser()
    with _LOCK:
        _BUILDER.filename = source.filename
        try:
            # The builder turns the `start` rule into a RuleFile.
            return cast("ast.RuleFile", parser.parse(source.text))
        except lark.exceptions.UnexpectedInput as err:
            raise RuleError([_diagnostic(err, source)], source) from None
        except RuleError as err:  # from the builder, which knows no source text
            raise RuleError(err.diagnostics, source) from None
