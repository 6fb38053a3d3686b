"""Generated source as it is written: lines, and the rules they come from."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from boardkit.compile.exprgen import ExprGen
    from boardkit.source import Span


class Writer:
    """Lines of source, the spans of the rules they come from, and the ruleset's expression generator.

    The spans are shared by `part`s.
    """

    def __init__(self, ex: ExprGen, spans: list[Span] | None = None, span_ids: dict[Span, int] | None = None) -> None:
        self.ex = ex
        self.lines: list[str] = []
        self.spans: list[Span] = [] if spans is None else spans
        self._span_ids: dict[Span, int] = {} if span_ids is None else span_ids

    def part(self) -> Writer:
        """Another run of lines that shares this writer's span table."""
        return Writer(self.ex, self.spans, self._span_ids)

    def line(self, text: str, indent: int = 0) -> None:
        """Adds a line, indented by `indent` levels."""
        self.lines.append("    " * indent + text if text else "")

    def at(self, span: Span, indent: int) -> int:
        """Marks the statements that follow as coming from the rule at `span`."""
        idx = self._span_ids.get(span)
        if idx is None:
            idx = self._span_ids[span] = len(self.spans)
            self.spans.append(span)
        self.line(f"#@ {idx} {span}", indent)
        return idx
