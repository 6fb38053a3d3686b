"""Rule text to AST: an LALR parser of ours runs the tables lark builds for the grammar.

lark turns the grammar into LALR tables once; they are kept in the user's cache as plain data
(lark_parser.driver_tables), so that a load whose tables are cached does not import lark. The
parser here cuts the text with one regular expression, runs the tables, and calls the AST
builder at each reduction, shaping its children as lark does (tokens dropped or kept, `_rule`s
spliced, `?rule`s standing for a lone child). Whatever it is not sure of (a syntax error, a
character or a token it does not know, a text lark's lexer might cut otherwise, a builder error)
is parsed again by lark, whose result and messages are the answer: tests/test_parse_driver.py
compares the two.
"""

from __future__ import annotations

import functools
import importlib.resources
import marshal
import re
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from boardkit import diskcache
from boardkit.errors import RuleError
from boardkit.lang.ast_build import Builder
from boardkit.lang.limits import check_limits
from boardkit.lang.tokens import Token

if TYPE_CHECKING:
    import lark

    from boardkit.lang import ast
    from boardkit.source import SourceFile

_BUILDER = Builder()
# The builder is shared, and holds the name of the file being parsed: one parse at a time.
_LOCK = threading.Lock()

# The shape of the cached tables; a new number when lark_parser.driver_tables changes what it writes.
_TABLES_FORMAT = "3"

# What a reduction does with the children it pops.
Reduce = Callable[[list[Any]], Any]


class _Unsure(Exception):  # noqa: N818 - not an error: lark decides
    """This parser stops: lark parses the text instead."""


class _Spliced(list[Any]):
    """The children of a `_rule`, which take its place among its parent's children."""


class _Unsupported(Exception):  # noqa: N818 - a grammar feature this parser leaves to lark
    """The tables ask for a tree lark would build but this parser does not: lark parses every text."""


def _lone(children: list[Any]) -> Any:  # noqa: ANN401 - whatever the child is
    """A `?rule` without a builder method: its lone child (lark would build a Tree for more)."""
    if len(children) != 1:
        raise _Unsure
    return children[0]


def _gather(size: int, kept: list[int], spliced: list[int]) -> Callable[[list[Any]], list[Any]] | None:
    """What lark passes on of a rule's children: those kept, `_rule`s spliced; None when all of them as they are.

    A list of spliced children that comes first is extended in place, as lark does: a `_rule`
    that repeats (`item*`) grows one list.
    """
    match kept:
        case [first, then] if spliced == [first]:  # `_rule: _rule x`, how lark writes a repetition
            def grow(children: list[Any]) -> list[Any]:
                out: list[Any] = children[first]
                out.append(children[then])
                return out
            return grow
    if spliced:
        marks = [(i, i in spliced) for i in kept]

        def splice(children: list[Any]) -> list[Any]:
            out: list[Any] = _Spliced()
            for i, splice_in in marks:
                if not splice_in:
                    out.append(children[i])
                elif out:
                    out += children[i]
                else:
                    out = children[i]
            return out
        return splice
    if len(kept) == size:
        return None
    if len(kept) == 1:
        (k,) = kept
        return lambda children: [children[k]]
    return lambda children: [children[i] for i in kept]


def _reducer(builder: Builder, shape: list[Any]) -> Reduce | None:
    """The function a rule reduces with, on the children lark would pass: the builder's method, or a splice.

    None for a `?rule` (or an alternative of one) of one symbol: its value stays as it is.
    """
    _origin, size, callback, kept, spliced, expand1, splice, plain = shape
    method = getattr(builder, callback, None)
    if not plain or (splice and (method is not None or expand1)) or (method is None and not splice and not expand1):
        raise _Unsupported
    gather = _gather(size, kept, spliced)
    if splice:
        if spliced:  # a list of spliced children already
            return gather
        return _Spliced if gather is None else lambda children: _Spliced(gather(children))
    if expand1 and not spliced and len(kept) == 1:  # a `?rule` of one child: lark passes it on
        (k,) = kept
        return None if size == 1 else lambda children: children[k]
    build = _lone if method is None else _expand(method) if expand1 else method
    return build if gather is None else lambda children: build(gather(children))


def _expand(method: Reduce) -> Reduce:
    """A `?rule`'s builder method: a lone child stands for the rule."""
    def build(children: list[Any]) -> Any:  # noqa: ANN401 - a node, a token or a tuple
        return children[0] if len(children) == 1 else method(children)
    return build


class _Parser:
    """Runs the LALR tables on rule text, building the AST as it reduces."""

    def __init__(self, tables: dict[str, Any], builder: Builder) -> None:
        self.states: list[dict[str, int]] = tables["states"]
        self.start: int = tables["start"]
        self.end: int = tables["end"]
        self.rules: list[tuple[str, int, Reduce | None]] = [
            (shape[0], shape[1], _reducer(builder, shape)) for shape in tables["rules"]]
        self.pattern = re.compile(tables["pattern"])
        # The same without names: the pieces it cuts tile the text, and each is typed by itself (`kind`).
        self.tiles = re.compile(tables["tiles"])
        self.keywords: dict[str, str] = tables["keywords"]
        self.punctuation: dict[str, str] = tables["punctuation"]
        self.ignore = frozenset(tables["ignore"])
        self.kept_tokens = frozenset(tables["kept_tokens"])
        # Each keyword and punctuation mark to its kind; other pieces are typed once per parse.
        self.kinds = {"": "$END"}
        for piece in [*self.keywords, *self.punctuation]:
            self.kind(piece, self.kinds)
        # Where a run of one-child reductions ends: by the state under them, the first rule and the next token.
        self.passes: dict[tuple[int, int, str], int] = {}
        terminals = [*self.keywords.values(), *self.punctuation.values(), *self.pattern.groupindex]
        if any(hasattr(builder, t) for t in terminals):
            raise _Unsupported  # lark would call the builder on such tokens

    def passing(self, below: int, first: int, kind: str) -> int:
        """The state after `?rule`s of one child reduce one after the other over the state `below`, before `kind`.

        Each pops one state and pushes the rule's, so the state below stays: the run depends on
        it, on the first rule and on the token only, and is worked out once.
        """
        states, rules = self.states, self.rules
        state: int = below
        action: int | None = first
        while action is not None and action < 0 and rules[~action][2] is None:
            state = states[below][rules[~action][0]]
            if state == self.end:  # the start rule is built, never passed on
                raise _Unsure
            action = states[state].get(kind)
        self.passes[below, first, kind] = state
        return state

    def kind(self, piece: str, kinds: dict[str, str]) -> str:
        """The terminal a piece of text cut by `tiles` is, as `pattern` would type it where it was cut.

        The first group of `pattern` that matches the piece whole: terminals are plain
        expressions (no look-around), so a group before it that could take the piece would
        have taken it in the text too.
        """
        match = self.pattern.fullmatch(piece)
        kinds[piece] = kind = match.lastgroup or "_x" if match is not None else "_x"
        return kind

    def run(self, text: str) -> Any:  # noqa: ANN401, C901, PLR0912, PLR0915 - the builder's value; one loop on purpose
        """The value of the start rule; _Unsure where lark might read the text otherwise.

        One loop, without a call per token or per reduction but the builder's: most of a parse.
        """
        states, rules, ignore, passes = self.states, self.rules, self.ignore, self.passes
        keywords, punctuation, end, kept_tokens = self.keywords, self.punctuation, self.end, self.kept_tokens
        values: list[Any] = []
        stack, line, line_start, end_of = [self.start], 1, 0, 0
        kinds = self.kinds.copy()
        pieces = self.tiles.findall(text)
        pieces.append("")  # the end of the text
        for value in pieces:
            start = end_of
            end_of += len(value)
            kind = kinds.get(value) or self.kind(value, kinds)
            if kind in ignore:
                if "\n" in value:
                    line += value.count("\n")
                    line_start = start + value.rindex("\n") + 1
                continue
            row = states[stack[-1]]
            if kind == "NAME":
                kind = keywords.get(value, kind)
                if kind not in row:
                    kind = "NAME"
            elif kind == "_p":
                kind = punctuation[value]
            action = row.get(kind)
            while action is not None and action < 0:  # reduce, then go to the state after the rule
                origin, size, build = rules[~action]
                if build is None:  # `?rule`s passing their one child on, one after the other
                    state = passes.get((stack[-2], action, kind))
                    stack[-1] = state = self.passing(stack[-2], action, kind) if state is None else state
                    action = states[state].get(kind)
                    continue
                if size:
                    children = values[-size:]
                    del values[-size:], stack[-size:]
                    values.append(build(children))
                else:
                    values.append(build([]))
                state = states[stack[-1]][origin]
                if state == end:  # the start rule, reduced at the end of the text
                    return values[-1]
                stack.append(state)
                action = states[state].get(kind)
            if action is None or not value:
                raise _Unsure
            stack.append(action)
            if kind in kept_tokens:
                token = Token(value)
                token.line = token.end_line = line
                token.column = column = start - line_start + 1
                token.end_column = column + len(value)
                values.append(token)
            else:  # dropped by every rule that takes it
                values.append(None)
        raise _Unsure  # not reached: the end of the text is reduced or is unexpected


def _grammar() -> str:
    return (importlib.resources.files("boardkit.lang") / "grammar" / "boardkit.lark").read_text(encoding="utf-8")


@functools.cache
def _driver() -> _Parser | None:
    """The parser on the cached tables, or on tables lark builds now (and that are cached); None: lark parses."""
    name = f"driver-{diskcache.digest(_grammar(), _TABLES_FORMAT)[:40]}.tables"
    blob = diskcache.read(name)
    if blob is not None:
        try:
            return _Parser(marshal.loads(blob), _BUILDER)  # noqa: S302 - a private file of ours: plain data
        except _Unsupported:
            return None
        except Exception:  # noqa: BLE001, S110 - damaged or foreign tables are a miss: built again below
            pass
    from boardkit.lang import lark_parser  # noqa: PLC0415 - lark only when the tables are not cached

    try:
        tables = lark_parser.driver_tables(_parser())
        parser = _Parser(tables, _BUILDER)
    except (_Unsupported, AttributeError, KeyError, TypeError):  # or a lark laid out otherwise: lark parses
        return None
    diskcache.write(name, marshal.dumps(tables))
    return parser


def load_parser() -> lark.Lark:
    """A new lark LALR parser, with lark's own lexer, its tables from the user's cache when there."""
    from boardkit.lang import lark_parser  # noqa: PLC0415 - lark only when asked for

    return lark_parser.load_parser(_BUILDER)


@functools.cache
def _parser() -> lark.Lark:
    """Lark's parser, with the fast lexer: for what the parser here is not sure of."""
    from boardkit.lang import lark_parser  # noqa: PLC0415 - lark only when asked for

    return lark_parser.with_fast_lexer(load_parser())


@functools.cache
def keyword_names() -> frozenset[str]:
    """The words the grammar reserves in some place (`move`, `at`, `top`, ...)."""
    driver = _driver()
    if driver is not None:
        return frozenset(driver.keywords)
    from boardkit.lang import lark_parser  # noqa: PLC0415 - lark only when the tables say nothing

    return lark_parser.keyword_names(_parser())


def parse(source: SourceFile, parser: lark.Lark | None = None) -> ast.RuleFile:
    """Parses rule text to its AST.

    Only the first syntax error is reported: LALR recovery mostly yields a cascade of
    follow-on errors that point nowhere useful. Semantic errors are all reported at once.
    `parser` is one from `load_parser` (lark's, with lark's own lexer): the tests compare them.
    """
    check_limits(source)
    driver = _driver() if parser is None else None
    with _LOCK:
        _BUILDER.filename = source.filename
        if driver is not None:
            try:
                return cast("ast.RuleFile", driver.run(source.text))
            except (_Unsure, RuleError):
                pass
        from boardkit.lang import lark_parser  # noqa: PLC0415 - lark only where the parser here stops

        return lark_parser.parse(parser or _parser(), source)
