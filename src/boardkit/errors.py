"""The exception tree: one base, one class per kind of bad input."""

from __future__ import annotations

import re

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


# How many diagnostics a RuleError's message shows; a file with thousands of faults would
# otherwise print megabytes.
SHOWN_DIAGNOSTICS = 100


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
        shown = [d.render(sources.get(d.span.filename)) for d in self.diagnostics[:SHOWN_DIAGNOSTICS]]
        if len(self.diagnostics) > SHOWN_DIAGNOSTICS:
            shown.append(f"... and {len(self.diagnostics) - SHOWN_DIAGNOSTICS:,} more (all in .diagnostics)")
        super().__init__("\n".join(shown))

    def __reduce__(self) -> tuple[type[RuleError], tuple[list[Diagnostic], dict[str, SourceFile]]]:
        # Survives pickling across processes (simulate --jobs) with its diagnostics intact.
        return (RuleError, (self.diagnostics, self.sources))


# What Python raises when a rule's expression meets a bad value (an index out of range, a
# piece added to a number): reported as a RuleRuntimeError located at the rule.
RULE_FAULTS = (KeyError, TypeError, ValueError, IndexError, ZeroDivisionError, AttributeError,
               RecursionError, OverflowError)


# Python's names for the kinds of value a rule works with.
_KIND_NAMES = {"int": "a number", "bool": "a truth value", "str": "a text", "list": "a list", "tuple": "a list",
               "NoneType": "none", "Piece": "a piece", "dict": "a table"}
_OPERATORS = {"+": "cannot add {b} to {a}", "-": "cannot subtract {b} from {a}", "*": "cannot multiply {a} by {b}",
              "//": "cannot divide {a} by {b}", "%": "cannot divide {a} by {b}"}
_CONCAT = re.compile(r'can only concatenate (\w+) \(not "(\w+)"\) to \w+')
_OPERAND = re.compile(r"unsupported operand type\(s\) for ([^:]+): '(\w+)' and '(\w+)'")
_ORDER = re.compile(r"'([<>]=?)' not supported between instances of '(\w+)' and '(\w+)'")


def _kind(python_name: str) -> str:
    return _KIND_NAMES.get(python_name, f"a {python_name}")


def rule_fault(exc: BaseException) -> str:
    """Says what went wrong in a rule's expression, in the rule language's words.

    Python's own messages name Python types or bare keys; these are reworded. The kind of
    fault stays in front, as in `TypeError: cannot add a number to a list`.
    """
    kind, text = type(exc).__name__, str(exc)
    if isinstance(exc, KeyError) and exc.args:
        text = (f"nothing at {exc.args[0]!r:.60}: a zone, variable or attribute was asked for with an index "
                "it does not have")
    elif isinstance(exc, TypeError):
        if found := _CONCAT.fullmatch(text):
            text = f"cannot add {_kind(found[2])} to {_kind(found[1])}"
        elif found := _OPERAND.fullmatch(text):
            template = _OPERATORS.get(found[1].strip(), f"cannot apply {found[1].strip()!r} to {{a}} and {{b}}")
            text = template.format(a=_kind(found[2]), b=_kind(found[3]))
        elif found := _ORDER.fullmatch(text):
            text = f"cannot compare {_kind(found[2])} with {_kind(found[3])} using {found[1]!r}"
    return f"{kind}: {text}"


class RuleRuntimeError(BoardkitError):
    """A ruleset misbehaved while running (a loop that never decides, a bad value)."""

    def __init__(self, message: str, span: Span | None = None) -> None:
        self.span = span
        self.message = message
        super().__init__(f"{span}: {message}" if span is not None else message)

    def __reduce__(self) -> tuple[type[RuleRuntimeError], tuple[str, Span | None]]:
        return (RuleRuntimeError, (self.message, self.span))


class InvariantError(RuleRuntimeError):
    """An invariant the rules declare came out false: the rules (or the engine) broke it.

    Names the invariant, where it is declared, the player of a `for p in players` one (else
    None), how many decisions had been made and the game's seed, enough to replay it.
    """

    def __init__(self, invariant: str, span: Span | None, player: int | None, decision: int, seed: int) -> None:
        self.invariant = invariant
        self.player = player
        self.decision = decision
        self.seed = seed
        who = f" for player {player}" if player is not None else ""
        when = "at the start" if decision == 0 else f"after decision {decision}"
        super().__init__(f"invariant {invariant!r} is false{who} {when} (seed {seed})", span)

    def __reduce__(self) -> tuple[type[InvariantError], tuple[str, Span | None, int | None, int, int]]:  # type: ignore[override]
        return (InvariantError, (self.invariant, self.span, self.player, self.decision, self.seed))


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


class AgentError(BoardkitError, ValueError):
    """An agent named or configured wrongly (unknown name, bad budget)."""
