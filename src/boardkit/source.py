"""Source text and spans: the one place that knows how to point at a spot in a rule file."""

from __future__ import annotations

import functools

import attrs


@attrs.frozen
class Span:
    """A region of a rule file; lines and columns count from 1."""

    filename: str
    line: int
    column: int
    end_line: int = 0
    end_column: int = 0

    def __str__(self) -> str:
        return f"{self.filename}:{self.line}:{self.column}"


@attrs.frozen
class SourceFile:
    """A rule file's text, kept so that diagnostics can quote the offending line."""

    text: str
    filename: str

    def excerpt(self, span: Span) -> str:
        """Returns the source line of `span` with a caret under its column.

        Lines are counted at newlines only, as the parser counts them (a form feed or a line
        separator inside a comment does not start a line), and a long line is cut to the part
        around the column.
        """
        lines = _lines(self.text)
        if not 1 <= span.line <= len(lines):
            return ""
        line = lines[span.line - 1].rstrip("\r")
        width = 1
        if span.end_line == span.line and span.end_column > span.column:
            width = span.end_column - span.column
        start = 0
        if len(line) > EXCERPT_WIDTH:
            start = max(0, min(span.column - 1 - EXCERPT_WIDTH // 2, len(line) - EXCERPT_WIDTH))
            line = ("..." if start else "") + line[start:start + EXCERPT_WIDTH] + (
                "..." if start + EXCERPT_WIDTH < len(line) else "")
            start -= 3 if start else 0
        width = max(1, min(width, EXCERPT_WIDTH))
        return f"{line}\n{' ' * (span.column - 1 - start)}{'^' * width}"


    def comment_before(self, line: int) -> str:
        """The comment lines right above `line` (no blank line between), joined: a declaration's doc."""
        lines = _lines(self.text)
        found: list[str] = []
        for i in range(min(line, len(lines) + 1) - 2, -1, -1):
            text = lines[i].strip()
            if not text.startswith("#"):
                break
            found.append(text.lstrip("#").strip())
        return " ".join(reversed(found)).strip()


# The longest part of a source line an excerpt quotes.
EXCERPT_WIDTH = 160


@functools.lru_cache(maxsize=16)
def _lines(text: str) -> list[str]:
    """The lines of a text; kept, since one file's diagnostics all quote it."""
    return text.split("\n")
