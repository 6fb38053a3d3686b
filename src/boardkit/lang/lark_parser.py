"""Rule text parsed by lark, which builds the parser's tables and decides what parse.py is not sure of.

Syntax errors become located RuleErrors here.

Imported only when needed: a text the fast parse reads, with its tables cached, does not import lark.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.resources
import marshal
import re
from typing import TYPE_CHECKING, Any, cast

import lark
from lark.grammar import Rule, Terminal
from lark.lexer import ContextualLexer, Lexer, LexerState, TerminalDef, Token
from lark.parsers.lalr_analysis import Shift

from boardkit import diskcache
from boardkit.errors import Diagnostic, RuleError
from boardkit.source import Span

if TYPE_CHECKING:
    from collections.abc import Collection, Iterator

    from lark.parsers.lalr_parser_state import ParserState

    from boardkit.lang import ast
    from boardkit.lang.ast_build import Builder
    from boardkit.source import SourceFile

# Friendlier names for the tokens lark reports as expected.
_TOKEN_NAMES = {
    "NAME": "a name", "INT": "a number", "STRING": "a string", "LBRACE": "'{'", "RBRACE": "'}'",
    "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COLON": "':'", "COMMA": "','",
    "EQUAL": "'='", "$END": "end of file",
}
# How many of the expected tokens a message lists.
_EXPECTED_SHOWN = 6


# Options that name live objects rather than describe the parser: given again on every load.
_LIVE_OPTIONS = ("transformer", "import_paths", "source_path")


def load_parser(builder: Builder) -> lark.Lark:
    """A new LALR parser, its tables from the user's cache when an earlier process built them.

    Building them takes most of a cold load; they depend only on the grammar and lark's version.
    """
    grammar = (importlib.resources.files("boardkit.lang") / "grammar" / "boardkit.lark").read_text(encoding="utf-8")
    name = f"parser-{diskcache.digest(grammar, lark.__version__)[:40]}.tables"
    blob = diskcache.read(name)
    if blob is not None:
        try:
            tables: dict[str, Any] = marshal.loads(blob)  # noqa: S302 - a private file of ours: plain data
            tables["data"]["options"]["transformer"] = builder
            return lark.Lark.load(tables)
        except Exception:  # noqa: BLE001, S110 - damaged or foreign tables are a miss: built again below
            pass
    parser = lark.Lark.open_from_package(
        "boardkit.lang", "boardkit.lark", ("grammar",), parser="lalr",
        maybe_placeholders=False, transformer=builder,
    )
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    data["options"] = {k: v for k, v in data["options"].items() if k not in _LIVE_OPTIONS}
    with contextlib.suppress(ValueError):  # a lark whose tables are not plain data: built every time
        diskcache.write(name, marshal.dumps({"data": data, "memo": memo}))
    return parser


def lexer_pattern(terminals: Collection[TerminalDef], *,
                  named: bool = True) -> tuple[str, dict[str, str], dict[str, str]]:
    """One regular expression that cuts rule text as lark's contextual lexer would, and how to type what it cuts.

    Returns the expression (a group per terminal that is a pattern, `_p` for punctuation, `_x`
    for any other character; groups without names unless `named`), the keywords and the
    punctuation, each text to its terminal. A word is a keyword where the parser accepts that
    keyword, else a name.
    """
    literal = {str(t.pattern.value): t.name for t in terminals if t.pattern.type == "str"}
    keywords = {v: name for v, name in literal.items() if v.isidentifier()}
    punctuation = {v: name for v, name in literal.items() if not v.isidentifier()}
    patterns = {t.name: t.pattern.to_regexp() for t in terminals if t.pattern.type == "re"}
    def group(name: str, regexp: str) -> str:
        return f"(?P<{name}>{regexp})" if named else f"(?:{regexp})"

    groups = [group(name, regexp) for name, regexp in patterns.items()]
    marks = "|".join(re.escape(v) for v in sorted(punctuation, key=len, reverse=True))
    # The last group takes any other character: where the lexer stops.
    return "|".join([*groups, group("_p", marks), group("_x", r"[\s\S]")]), keywords, punctuation


class _FastLexer(Lexer):
    """Cuts rule text into the tokens lark's contextual lexer would, with one regular expression.

    Lark's lexer spends several Python calls on each token. This one cuts the whole text in C
    and only types each piece, as the contextual lexer does (`lexer_pattern`). A piece the
    parser does not accept in its state, or a character it cannot cut, hands the rest of the
    text to lark's lexer at that place: from there on every token, and every syntax error, is
    lark's own. Only ignored tokens (spaces) span lines, as in the grammar;
    tests/test_fast_lexer.py compares the two lexers.
    """

    def __init__(self, fallback: Lexer, terminals: Collection[TerminalDef], ignore: Collection[str]) -> None:
        self.fallback = fallback
        pattern, self.keywords, self.punctuation = lexer_pattern(terminals)
        self.ignore = frozenset(ignore)
        self.pattern = re.compile(pattern)

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


def with_fast_lexer(parser: lark.Lark) -> lark.Lark:
    """The parser, lexing with `_FastLexer` when it is lark's LALR parser with its contextual lexer."""
    frontend = parser.parser
    fallback = getattr(frontend, "lexer", None)
    if isinstance(fallback, ContextualLexer):
        frontend.lexer = _FastLexer(fallback, parser.terminals, parser.lexer_conf.ignore)
    return parser


def _token_text(parser: lark.Lark, name: str) -> str:
    """How a token is written: its literal text for punctuation and keywords."""
    if name in _TOKEN_NAMES:
        return _TOKEN_NAMES[name]
    for term in parser.terminals:
        if term.name == name and term.pattern.type == "str":
            return repr(term.pattern.value)
    return name.lower()


def _expected(parser: lark.Lark, names: set[str]) -> str:
    shown = sorted({_token_text(parser, n) for n in names})
    if len(shown) > _EXPECTED_SHOWN:
        shown = [*shown[:_EXPECTED_SHOWN], "..."]
    return ", ".join(shown)


def _diagnostic(parser: lark.Lark, err: lark.exceptions.UnexpectedInput, source: SourceFile) -> Diagnostic:
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
        return Diagnostic(span, f"unexpected {found}; expected {_expected(parser, err.expected)}{hint}")
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


def parse(parser: lark.Lark, source: SourceFile) -> ast.RuleFile:
    """Parses rule text with lark; the caller holds the builder, named after the file, for the parse."""
    try:
        # The builder turns the `start` rule into a RuleFile.
        return cast("ast.RuleFile", parser.parse(source.text))
    except lark.exceptions.UnexpectedInput as err:
        raise RuleError([_diagnostic(parser, err, source)], source) from None
    except RuleError as err:  # from the builder, which knows no source text
        raise RuleError(err.diagnostics, source) from None


@functools.cache
def keyword_names(parser: lark.Lark) -> frozenset[str]:
    """The words the grammar reserves in some place (`move`, `at`, `top`, ...)."""
    return frozenset(str(t.pattern.value) for t in parser.terminals
                     if t.pattern.type == "str" and str(t.pattern.value).isidentifier())


def driver_tables(parser: lark.Lark) -> dict[str, Any]:
    """Lark's LALR tables and tree shaping as plain data, for the parser of parse.py.

    Each state maps a symbol to a number: a state to shift or go to, or ~r to reduce by rule r.
    Each rule: the symbol it reduces to, its length, the builder method lark would call (its
    alias or its name), the positions of the children lark keeps, those of them it splices in
    (`_rule`s, whose children take their place), whether a lone child stands for the rule
    (`?rule`), whether the rule is one to splice, and whether lark names its method as here. Also
    the lexer's expression (`lexer_pattern`), the same without names (it cuts the text faster:
    no match objects) and the tokens some rule keeps.
    """
    table = parser.parser.parser.parser.parse_table
    rules: list[Rule] = list(parser.rules)
    number = {rule: i for i, rule in enumerate(rules)}
    states = [
        {str(symbol): (arg if action is Shift else ~number[arg])
         for symbol, (action, arg) in table.states[state].items()}
        for state in range(len(table.states))
    ]
    shapes = []
    for rule in rules:
        options = rule.options
        kept = [i for i, sym in enumerate(rule.expansion)
                if options.keep_all_tokens or not (isinstance(sym, Terminal) and sym.filter_out)]
        spliced = [i for i in kept if not rule.expansion[i].is_term and rule.expansion[i].name.startswith("_")]
        shapes.append((str(rule.origin.name), len(rule.expansion), str(rule.alias or rule.origin.name), kept, spliced,
                       bool(options.expand1 and not rule.alias), rule.origin.name.startswith("_"),
                       options.template_source is None))
    pattern, keywords, punctuation = lexer_pattern(parser.terminals)
    # Tokens that no rule keeps (most keywords and punctuation) need not be made.
    kept_tokens = sorted({str(rule.expansion[i].name) for rule, shape in zip(rules, shapes, strict=True)
                          for i in shape[3] if rule.expansion[i].is_term})
    return {"states": states, "start": table.start_states["start"], "end": table.end_states["start"],
            "rules": shapes, "pattern": pattern, "tiles": lexer_pattern(parser.terminals, named=False)[0],
            "keywords": keywords, "punctuation": punctuation,
            "ignore": sorted(map(str, parser.lexer_conf.ignore)), "kept_tokens": kept_tokens}
