"""A token of rule text as the AST builder sees it."""

from __future__ import annotations

from typing import TypeGuard


class Token(str):
    """A token's text, and where it lies: the fields of lark's Token that the builder reads.

    The builder takes lark's tokens too (when lark parses, parse.py): both are str subclasses,
    which tells them from the builder's own plain texts.
    """

    __slots__ = ("column", "end_column", "end_line", "line")

    line: int
    column: int
    end_line: int
    end_column: int


def is_token(x: object) -> TypeGuard[Token]:
    """Whether a child of a rule is a token (ours or lark's) rather than a node, a tuple or a plain text."""
    return isinstance(x, str) and type(x) is not str
