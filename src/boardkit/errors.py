"""The exception tree: one base, one class per kind of bad input."""

from __future__ import annotations

import attrs

from boardkit.source import SourceFile, Span


class BoardkitError(Exception):
    """Base of every error boardkit raises on bad input."""


@attrs.frozen
class Diagnostic:
    """One problem in a rule file, located by its span."""

    span: Span
    message: str
    severity: str = "error"

    def render(self, source: SourceFile | None) -> str:
        """Returns the gcc-style report: `file:line:col: message`, then the line with a caret.

        The severity is named unless it is "error". Without `source`, only the first line.
        """
        where = f"{self.span}: {self.severity}:" if self.severity != "error" else f"{self.span}:"
        head = f"{where} {self.message}"
        excerpt = source.excerpt(self.span) if source is not None else ""
        return f"{head}\n{excerpt}" if excerpt else head


class RuleError(BoardkitError, ValueError):
    """Bad rule text. Carries every diagnostic found; the first one gives the location."""

    def __init__(self, diagnostics: list[Diagnostic], source: SourceFile | dict[str, SourceFile] | None = None) -> None:
        self.diagnostics = list(diagnostics)
        sources = {source.filename: source} if isinstance(source, SourceFile) else dict(source or {})
        self.sources = sources
        first = self.diagnostics[0].span
        self.filename = first.filename
        self.line = first.line
        self.column = first.column
        super().__init__("\n".join(d.render(sources.get(d.span.filename)) for d in self.diagnostics))

    def __reduce__(self) -> tuple[type[RuleError], tuple[list[Diagnostic], dict[str, SourceFile]]]:
        # Survives pickling across processes (simulate --jobs) with its diagnostics intact.
        return (RuleError, (self.diagnostics, self.sources))


# What Python raises when a rule's expression meets a bad value (an index out of range, a
# piece added to a number): reported as a RuleRuntimeError located at the rule.
RULE_FAULTS = (KeyError, TypeError, ValueError, IndexError, ZeroDivisionError, AttributeError,
               RecursionError, OverflowError)


class RuleRuntimeError(BoardkitError):
    """A ruleset misbehaved while running (a loop that never decides, a bad value)."""

    def __init__(self, message: str, span: Span | None = None) -> None:
        self.span = span
        self.message = message
        super().__init__(f"{span}: {message}" if span is not None else message)

    def __reduce__(self) -> tuple[type[RuleRuntimeError], tuple[str, Span | None]]:
        return (RuleRuntimeError, (self.message, self.span))


class DeadEnd(Exception):  # noqa: N818 - not an error of the caller: a path the rules forbid
    """A path through a turn that the rules forbid (a failed `require`, a zone over capacity).

    Only the look-ahead sees it: options that lead to one are never offered.
    """


class Horizon(Exception):  # noqa: N818 - a signal to the look-ahead, never seen by callers
    """Look-ahead reached an outcome the chooser cannot know yet (a hidden piece drawn, a random pick).

    The look-ahead must stop there, or the options offered would give that outcome away.
    """


class IllegalMove(BoardkitError, ValueError):  # noqa: N818 - a public name (ARCHITECTURE.md)
    """A move that is not offered now; the game is left unchanged."""


class OptionError(BoardkitError, ValueError):
    """An unknown option, a bad option value or an unsupported player count."""


class StateError(BoardkitError, ValueError):
    """A saved game or a position that is corrupt, foreign or impossible under the rules."""
