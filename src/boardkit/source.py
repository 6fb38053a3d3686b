"""Source text and spans: the one place that knows how to point at a spot in a rule file."""

from __future__ import annotations

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
        """Returns the source line of `span` with a caret under its column."""
        lines = self.text.splitlines()
        if not 1 <= span.line <= len(lines):
            return ""
        line = lines[span.line - 1]
        width = 1
        if span.end_line == span.line and span.end_column > span.column:
            width = span.end_column - span.column
        return f"{line}\n{' ' * (span.column - 1)}{'^' * width}"
