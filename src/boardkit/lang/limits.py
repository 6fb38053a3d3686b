"""Limits on the size and shape of rule text, checked by one scan of the text before parsing.

A rule file past them is refused at once, with a located RuleError, instead of taking minutes
to parse and check: the limits are far beyond any real game (the largest bundled ruleset
is 45 KB of about 10,600 tokens, nests 9 levels, makes 169 declarations and
lists at most 50 items in one pair of brackets).
Within them, every later step of the front end does work in proportion to the text.
"""

from __future__ import annotations

import itertools
import re
from typing import NoReturn

from boardkit.errors import Diagnostic, RuleError
from boardkit.source import SourceFile, Span

#: Characters in one rule file.
MAX_CHARS = 1_000_000
#: Tokens (names, numbers, strings, punctuation) in one rule file.
MAX_TOKENS = 50_000
#: How deep blocks and expressions may nest: shallow enough that compiling them cannot
#: exhaust Python's stack (the bundled games stay under 16).
MAX_NESTING = 50
#: Items between one pair of brackets: list items, enum members, arguments, fields.
MAX_ITEMS = 2_000
#: Declarations of a file (enums, components, zones, variables, constants, functions, ...).
MAX_DECLARATIONS = 5_000
#: Characters in one name.
MAX_NAME = 100

# Tokens as the grammar's lexer cuts them, near enough to count them: strings, comments,
# names, numbers, then any other character.
_TOKEN = re.compile(r'"[^"\n]*"|#[^\n]*|[A-Za-z_][A-Za-z_0-9]*|[0-9]+|[^\sA-Za-z_0-9"#]')
_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = frozenset(_OPEN.values())
_STRUCTURE = frozenset({*_OPEN, *_CLOSE, ","})
# How each of those changes the depth of brackets.
_DEPTH = {**dict.fromkeys(_OPEN, 1), **dict.fromkeys(_CLOSE, -1), ",": 0}
# A name too long somewhere (or a long word in a string or comment: then the scan looks closer).
_LONG_NAME = re.compile(f"[A-Za-z_][A-Za-z_0-9]{{{MAX_NAME},}}")
# The words that start a declaration at the top level of a file.
_DECLARING = frozenset({"game", "players", "extends", "enum", "component", "zone", "var", "const",
                        "option", "func", "proc", "setup", "play", "score", "tiebreak"})


def check_limits(source: SourceFile) -> None:
    """Raises a RuleError located where `source` first passes one of the limits."""
    if len(source.text) > MAX_CHARS:
        _refuse(source, MAX_CHARS, f"the rule file is {len(source.text):,} characters long, over the "
                f"limit of {MAX_CHARS:,}")
    if _surely_within(source.text):
        return
    scan = _Scan(source)
    for match in _TOKEN.finditer(source.text):
        if match.group()[0] != "#":
            scan.token(match.group(), match.start())


def _surely_within(text: str) -> bool:
    """Whether `text` is within the limits, by counts that C loops work out; if not, the scan decides.

    The scan calls Python code per token, a tenth of a cold load's parse, to place a problem
    that files far within the limits do not have. A text whose tokens are all short has no long
    name (a long comment or string sends it to the search for one).
    """
    tokens = _TOKEN.findall(text)
    if (len(tokens) > MAX_TOKENS or (max(map(len, tokens), default=0) > MAX_NAME and _LONG_NAME.search(text))
            or sum(map(_DECLARING.__contains__, tokens)) > MAX_DECLARATIONS):
        return False
    return _brackets_within(list(filter(_STRUCTURE.__contains__, tokens)))


def _brackets_within(marks: list[str]) -> bool:
    """Whether brackets nest and hold items within the limits; `marks`: the brackets and commas of a text.

    By C loops: the depths accumulated, then the innermost pairs of brackets cut out one level
    at a time, each pass measuring the commas they held (at most `MAX_NESTING` passes).
    """
    depths = list(itertools.accumulate(map(_DEPTH.__getitem__, marks)))
    if min(depths, default=0) < 0:  # a closing bracket without an open one: counted one by one
        return _brackets_counted(marks)
    if max(depths, default=0) > MAX_NESTING:
        return False
    if marks.count(",") < MAX_ITEMS:  # then no bracket holds too many items
        return True
    text = "".join(marks).translate(_ROUND)
    while groups := _INNERMOST.findall(text):
        if max(map(len, groups)) - 2 >= MAX_ITEMS:
            return False
        text = _INNERMOST.sub("", text)
    # Left: brackets never closed, each holding the commas up to the next one.
    return max(map(len, text.split("(")[1:]), default=0) < MAX_ITEMS


# Every bracket as a round one, and a pair of them holding only commas.
_ROUND = str.maketrans("[{]}", "(())")
_INNERMOST = re.compile(r"\([^()]*\)")


def _brackets_counted(marks: list[str]) -> bool:
    """`_brackets_within` one mark at a time, where closing brackets come without open ones."""
    commas: list[int] = []  # for each open bracket
    for tok in marks:
        if tok == ",":
            if commas:
                commas[-1] += 1
                if commas[-1] >= MAX_ITEMS:
                    return False
        elif tok in _OPEN:
            commas.append(0)
            if len(commas) > MAX_NESTING:
                return False
        elif commas:
            commas.pop()
    return True


class _Scan:
    """What one pass over the tokens counts: tokens, open brackets and their items, declarations."""

    def __init__(self, source: SourceFile) -> None:
        self.source = source
        self.tokens = 0
        self.declarations = 0
        # For each open bracket: where it is, and how many commas it holds so far.
        self.open_at: list[int] = []
        self.commas: list[int] = []

    def token(self, tok: str, pos: int) -> None:
        self.tokens += 1
        if self.tokens > MAX_TOKENS:
            _refuse(self.source, pos, f"the rule file has more than {MAX_TOKENS:,} tokens")
        first = tok[0]
        if first in _OPEN:
            self.open_at.append(pos)
            self.commas.append(0)
            if len(self.open_at) > MAX_NESTING:
                _refuse(self.source, pos, f"the rules nest more than {MAX_NESTING} levels deep here "
                        "(blocks and expressions); name a part with 'func' or 'proc'")
        elif first in _CLOSE and self.open_at:
            self.open_at.pop()
            self.commas.pop()
        elif first == "," and self.commas:
            self.commas[-1] += 1
            if self.commas[-1] >= MAX_ITEMS:
                _refuse(self.source, self.open_at[-1], f"more than {MAX_ITEMS:,} items between these brackets")
        elif first.isalpha() or first == "_":
            self.name(tok, pos)

    def name(self, tok: str, pos: int) -> None:
        if len(tok) > MAX_NAME:
            _refuse(self.source, pos, f"a name of {len(tok):,} characters, over the limit of {MAX_NAME}")
        if not self.open_at and tok in _DECLARING:
            self.declarations += 1
            if self.declarations > MAX_DECLARATIONS:
                _refuse(self.source, pos, f"the rule file has more than {MAX_DECLARATIONS:,} declarations")


def _refuse(source: SourceFile, pos: int, message: str) -> NoReturn:
    text = source.text
    line = text.count("\n", 0, pos) + 1
    column = pos - text.rfind("\n", 0, pos)
    raise RuleError([Diagnostic(Span(source.filename, line, column), message)], source)
