"""The AST built from the parser's reductions.

Builds nodes only; the checks of names, types and scopes are the checker's (check.py, resolve.py).
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, cast

from boardkit.errors import Diagnostic, RuleError
from boardkit.lang import ast
from boardkit.lang.tokens import Token, is_token
from boardkit.source import Span

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

# What a rule's callback receives: tokens, nodes and the tuples other callbacks return.
Children = list[Any]


def _start(x: object) -> tuple[int, int] | None:
    """Where a child of a rule starts: a token, an AST node, or the first of a sequence of them that has a place."""
    if isinstance(x, str):  # a token; the builder's own plain texts have no place
        return (x.line or 1, x.column or 1) if type(x) is not str else None  # type: ignore[attr-defined]
    if isinstance(x, (tuple, list)):
        for item in x:
            start = _start(item)
            if start is not None:
                return start
        return None
    span: Span | None = getattr(x, "span", None)
    return None if span is None else (span.line, span.column)


def _end(x: object) -> tuple[int, int] | None:
    """Where a child of a rule ends: a token, an AST node, or the last of a sequence of them that has a place."""
    if isinstance(x, str):
        if type(x) is str:
            return None
        line, column = x.line or 1, x.column or 1  # type: ignore[attr-defined]
        return x.end_line or line, x.end_column or column + len(x)  # type: ignore[attr-defined]
    if isinstance(x, (tuple, list)):
        for item in reversed(x):
            end = _end(item)
            if end is not None:
                return end
        return None
    span: Span | None = getattr(x, "span", None)
    return None if span is None else (span.end_line or span.line, span.end_column or span.column)


def _span(filename: str, children: object) -> Span:
    """Returns a rule's span from its children's positions (lark's propagate_positions costs more)."""
    start = _start(children)
    if start is None:
        return Span(filename, 1, 1)
    end = _end(children) or start  # a child with a start has an end
    return Span(filename, start[0], start[1], end[0], end[1])


def _tok_span(filename: str, tok: Token) -> Span:
    """Returns where a token lies (lark gives every token it parses a position)."""
    line, column = tok.line or 1, tok.column or 1
    return Span(filename, line, column, tok.end_line or line, tok.end_column or column + len(tok))


def _string(tok: Token) -> str:
    """Returns the text of a string token, without its quotes."""
    return str(tok)[1:-1]


# The operators of each precedence level of a chain (docs/reference/language.md).
_OR = frozenset({"or"})
_AND = frozenset({"and"})
_WHERE = frozenset({"where"})
_ADD = frozenset({"+", "-"})


def _split(words: frozenset[str], ops: list[str], lo: int, hi: int) -> list[int]:
    """Returns where operands lo..hi split at the operators in `words`: [lo, ..., hi]."""
    return [lo, *(k + 1 for k in range(lo, hi - 1) if ops[k] in words), hi]


class _Chain:
    """A chain of operands, the operators between them and the `not`s that open each, grouped by level.

    Each level builds the nodes one grammar rule per level built, with the same spans: a node
    spans every operand of its level (a `where`, the two it joins; a prefix, its operand).
    """

    def __init__(self, span: Callable[[object], Span]) -> None:
        self.span = span
        self.operands: list[ast.Expr] = []
        self.ops: list[str] = []
        self.nots: list[int] = []

    def boolean(self, words: frozenset[str], lo: int, hi: int) -> ast.Expr:
        """The `or` of `and`s of `not`-level operands lo..hi."""
        cuts = _split(words, self.ops, lo, hi)
        values = [self.boolean(_AND, a, b) if words is _OR else self.negated(a, b) for a, b in itertools.pairwise(cuts)]
        if len(values) == 1:
            return values[0]
        return ast.BoolOp(span=self.span(values), op="or" if words is _OR else "and", values=tuple(values))

    def negated(self, lo: int, hi: int) -> ast.Expr:
        """A left-associative `where` of comparisons, under the `not`s that open its first operand."""
        cuts = _split(_WHERE, self.ops, lo, hi)
        node = self.compare(cuts[0], cuts[1])
        for a, b in itertools.pairwise(cuts[1:]):
            cond = self.compare(a, b)
            node = ast.Where(span=self.span([node, cond]), coll=node, cond=cond)
        for _ in range(self.nots[lo]):
            node = ast.Unary(span=self.span([node]), op="not", operand=node)
        return node

    def compare(self, lo: int, hi: int) -> ast.Expr:
        """A comparison; a chain of them (`a < b < c`) is the `and` of each pair."""
        if hi - lo == 1:
            return self.operands[lo]
        span = self.span(self.operands[lo:hi])
        parts = [ast.Binary(span=span, op=self.ops[k], left=self.operands[k], right=self.operands[k + 1])
                 for k in range(lo, hi - 1)]
        return parts[0] if len(parts) == 1 else ast.BoolOp(span=span, op="and", values=tuple(parts))


# Longer numbers are mistakes (and Python refuses to read ints over 4300 digits).
MAX_DIGITS = 18


class Builder:
    """Builds AST nodes as the parser reduces rules: no parse tree is kept.

    `filename` is set before each parse, for the spans. Each method is named after the grammar
    rule (or alias) it builds.
    """

    filename = "<rules>"

    def _s(self, children: object) -> Span:
        return _span(self.filename, children)

    # Declarations.
    def start(self, items: Children) -> ast.RuleFile:
        return ast.RuleFile(span=self._s(items), items=tuple(items))

    def game_decl(self, c: Children) -> ast.GameDecl:
        return ast.GameDecl(span=self._s(c), title=_string(c[0]))

    def _int(self, tok: Token) -> int:
        if len(tok) > MAX_DIGITS:
            msg = f"a number of {len(tok)} digits: numbers in rules have at most {MAX_DIGITS}"
            raise RuleError([Diagnostic(_tok_span(self.filename, tok), msg)])
        return int(tok)

    def players_decl(self, c: Children) -> ast.PlayersDecl:
        low = self._int(c[0])
        return ast.PlayersDecl(span=self._s(c), low=low, high=self._int(c[1]) if len(c) > 1 else low)

    def extends_decl(self, c: Children) -> ast.Extends:
        return ast.Extends(span=self._s(c), target=_string(c[0]))

    def name_list(self, c: Children) -> tuple[tuple[str, Span], ...]:
        return tuple((str(t), _tok_span(self.filename, t)) for t in c)

    def enum_decl(self, c: Children) -> ast.EnumDecl:
        return ast.EnumDecl(span=_tok_span(self.filename, c[0]), name=str(c[0]), members=c[1])

    def field_decl(self, c: Children) -> tuple[str, str, Span]:
        return (str(c[0]), str(c[1]), _tok_span(self.filename, c[1]))

    def label_clause(self, c: Children) -> tuple[str, ast.Expr]:
        return ("label", c[0])

    def component_decl(self, c: Children) -> ast.ComponentDecl:
        label = parts = None
        fields = []
        for x in c[1:]:
            if isinstance(x, tuple) and x[0] == "label":
                label = x[1]
            elif isinstance(x, tuple) and x[0] == "parts":
                parts = x[1]
            else:
                fields.append(x)
        return ast.ComponentDecl(span=_tok_span(self.filename, c[0]), name=str(c[0]), fields=tuple(fields), label=label,
                                 parts=parts)

    def parts_clause(self, c: Children) -> tuple[str, ast.Expr]:
        return ("parts", c[0])

    def dims(self, c: Children) -> tuple[tuple[str, Span], ...]:
        return tuple((str(t), _tok_span(self.filename, t)) for t in c)

    def zone_kind(self, c: Children) -> tuple[str, str]:
        return ("kind", str(c[0]))

    def zone_visibility(self, c: Children) -> tuple[str, str]:
        return ("visibility", str(c[0]))

    def zone_capacity(self, c: Children) -> tuple[str, ast.Expr]:
        return ("capacity", c[0])

    def zone_grid(self, c: Children) -> tuple[str, tuple[ast.Expr, ast.Expr]]:
        return ("grid", (c[0], c[1]))

    def zone_prop(self, c: Children) -> tuple[str, object]:
        return cast("tuple[str, object]", c[0])

    def zone_decl(self, c: Children) -> ast.ZoneDecl:
        name, rest = c[0], c[1:]
        dims: tuple[tuple[str, Span], ...] = ()
        if rest and isinstance(rest[0], tuple) and rest[0] and isinstance(rest[0][0], tuple):
            dims, rest = rest[0], rest[1:]
        # kind stays None unless written, so that a grid with an explicit second kind is caught.
        props: dict[str, Any] = {"kind": None, "visibility": "public", "capacity": None, "grid": None}
        props.update(rest)
        return ast.ZoneDecl(span=_tok_span(self.filename, name), name=str(name), dims=dims, kind=props["kind"],
                            visibility=props["visibility"], capacity=props["capacity"], grid=props["grid"])

    def var_dims(self, c: Children) -> tuple[tuple[str, Span], ...]:
        return tuple(c)

    def var_dim(self, c: Children) -> tuple[str, Span]:
        """An enum name or Player as written; a range of numbers as "low..high"."""
        text = str(c[0]) if len(c) == 1 else f"{int(c[0])}..{int(c[1])}"
        first, last = _tok_span(self.filename, c[0]), _tok_span(self.filename, c[-1])
        return (text, Span(self.filename, first.line, first.column, last.end_line, last.end_column))

    def var_decl(self, c: Children) -> ast.VarDecl:
        name, *dims, init = c
        return ast.VarDecl(span=_tok_span(self.filename, name), name=str(name), dims=dims[0] if dims else (), init=init)

    def const_decl(self, c: Children) -> ast.ConstDecl:
        return ast.ConstDecl(span=_tok_span(self.filename, c[0]), name=str(c[0]), value=c[1])

    def option_choices(self, c: Children) -> ast.Expr:
        return cast("ast.Expr", c[0])

    def option_decl(self, c: Children) -> ast.OptionDecl:
        name, default, *choices = c
        return ast.OptionDecl(span=_tok_span(self.filename, name), name=str(name), default=default,
                              choices=choices[0] if choices else None)

    def params(self, c: Children) -> tuple[str, ...]:
        return tuple(str(t) for t in c)

    def func_decl(self, c: Children) -> ast.FuncDecl:
        name, *params, body = c
        return ast.FuncDecl(span=_tok_span(self.filename, name), name=str(name), params=params[0] if params else (),
                            body=body)

    def proc_decl(self, c: Children) -> ast.ProcDecl:
        name, *params, body = c
        return ast.ProcDecl(span=_tok_span(self.filename, name), name=str(name), params=params[0] if params else (),
                            body=body)

    def setup_decl(self, c: Children) -> ast.ProcDecl:
        return ast.ProcDecl(span=_tok_span(self.filename, c[0]), name="setup", params=(), body=c[1])

    def play_decl(self, c: Children) -> ast.ProcDecl:
        return ast.ProcDecl(span=_tok_span(self.filename, c[0]), name="play", params=(), body=c[1])

    def score_decl(self, c: Children) -> ast.Score:
        return ast.Score(span=self._s(c), kind="score", param=str(c[0]), expr=c[1])

    def heuristic_decl(self, c: Children) -> ast.Score:
        return ast.Score(span=self._s(c), kind="heuristic", param=str(c[0]), expr=c[1])

    def tiebreak_decl(self, c: Children) -> ast.Score:
        return ast.Score(span=self._s(c), kind="tiebreak", param=str(c[0]), expr=c[1])

    def invariant_for(self, c: Children) -> tuple[Token, Token]:
        return (c[0], c[1])

    def invariant_decl(self, c: Children) -> ast.Invariant:
        name, *clause, expr = c
        param, domain = clause[0] if clause else (None, None)
        return ast.Invariant(span=self._s(c), name=_string(name), param=str(param) if param is not None else None,
                             domain=(str(domain), _tok_span(self.filename, domain)) if domain is not None else None,
                             expr=expr)

    # Statements.
    def block(self, c: Children) -> ast.Block:
        return tuple(c)

    def let_stmt(self, c: Children) -> ast.Let:
        return ast.Let(span=self._s(c), name=str(c[0]), value=c[1])

    def target(self, c: Children) -> tuple[str, tuple[ast.Expr, ...] | None, Token]:
        return (str(c[0]), tuple(c[1]) if len(c) > 1 else None, c[0])

    def assign_op(self, c: Children) -> str:
        return str(c[0])

    def set_stmt(self, c: Children) -> ast.Set:
        (name, index, token), op, value = c
        return ast.Set(span=self._s([token, value]), name=name, index=index, op=op, value=value)

    def elif_clause(self, c: Children) -> tuple[ast.Expr, ast.Block]:
        return (c[0], c[1])

    def else_clause(self, c: Children) -> tuple[str, ast.Block]:
        return ("else", c[0])

    def if_stmt(self, c: Children) -> ast.If:
        branches = [(c[0], c[1])]
        other = None
        for x in c[2:]:
            if x[0] == "else":
                other = x[1]
            else:
                branches.append(x)
        return ast.If(span=self._s(c), branches=tuple(branches), other=other)

    def for_stmt(self, c: Children) -> ast.For:
        return ast.For(span=self._s(c), var=str(c[0]), iter=c[1], body=c[2])

    def while_stmt(self, c: Children) -> ast.While:
        return ast.While(span=self._s(c), cond=c[0], body=c[1])

    def repeat_stmt(self, c: Children) -> ast.Repeat:
        return ast.Repeat(span=self._s(c), count=c[0], body=c[1])

    def loop_stmt(self, c: Children) -> ast.Loop:
        # The grammar keeps the `loop` keyword (`!loop_stmt`): an empty loop has no other token
        # to give it a place.
        return ast.Loop(span=self._s(c), body=c[-1])

    def amount_all(self, _c: Children) -> None:
        return None

    def amount_n(self, c: Children) -> ast.Expr:
        return cast("ast.Expr", c[0])

    def place_top(self, c: Children) -> tuple[str | None, ast.Expr]:
        return ("top", c[0])

    def place_bottom(self, c: Children) -> tuple[str | None, ast.Expr]:
        return ("bottom", c[0])

    def place_default(self, c: Children) -> tuple[str | None, ast.Expr]:
        return (None, c[0])

    def move_stmt(self, c: Children) -> ast.Move:
        amount, pieces, (end, dest) = c
        return ast.Move(span=self._s(c), amount=amount, pieces=pieces, end=end, dest=dest)

    def shuffle_stmt(self, c: Children) -> ast.Shuffle:
        return ast.Shuffle(span=self._s(c), zone=c[0])

    def kwarg(self, c: Children) -> tuple[str, ast.Expr, Span]:
        return (str(c[0]), c[1], _tok_span(self.filename, c[0]))

    def kwargs(self, c: Children) -> tuple[tuple[str, ast.Expr, Span], ...]:
        return tuple(c)

    def create_stmt(self, c: Children) -> ast.Create:
        count, type_name, rest = c[0], c[1], list(c[2:])
        kwargs = rest.pop(0) if rest and isinstance(rest[0], tuple) else ()
        dest = rest.pop()
        return ast.Create(span=self._s(c), count=count, type=str(type_name), kwargs=kwargs,
                          fors=tuple(rest), dest=dest)

    def choose_by(self, c: Children) -> tuple[str, ast.Expr]:
        return ("by", c[0])

    def choose_optional(self, c: Children) -> tuple[str, str]:
        return ("optional", _string(c[0]))

    def choose_prompt(self, c: Children) -> tuple[str, str]:
        return ("prompt", _string(c[0]))

    def choose_stmt(self, c: Children) -> ast.Choose:
        opts: dict[str, Any] = {"by": None, "optional": None, "prompt": None}
        opts.update(c[2:])
        return ast.Choose(span=self._s(c), var=str(c[0]), domain=c[1], by=opts["by"], optional=opts["optional"],
                          prompt=opts["prompt"])

    def choose_by_branch(self, c: Children) -> tuple[str, ast.Expr]:
        return ("by", c[0])

    def branch_when(self, c: Children) -> tuple[str, ast.Expr]:
        return ("when", c[0])

    def branch_otherwise(self, _c: Children) -> tuple[str, None]:
        return ("otherwise", None)

    def branch(self, c: Children) -> ast.Branch:
        name, *guards, body = c
        guard = guards[0] if guards else (None, None)
        return ast.Branch(span=_tok_span(self.filename, name), name=str(name), when=guard[1],
                          otherwise=guard[0] == "otherwise", body=body)

    def branch_prompt(self, c: Children) -> tuple[str, str]:
        return ("prompt", _string(c[0]))

    def choose_branch_stmt(self, c: Children) -> ast.ChooseBranch:
        opts: dict[str, Any] = {"by": None, "prompt": None}
        while c and isinstance(c[0], tuple):
            opts[c[0][0]] = c[0][1]
            c = c[1:]
        return ast.ChooseBranch(span=self._s(c), branches=tuple(c), by=opts["by"], prompt=opts["prompt"])

    def require_stmt(self, c: Children) -> ast.Require:
        return ast.Require(span=self._s(c), cond=c[0], message=_string(c[1]) if len(c) > 1 else None)

    def end_stmt(self, c: Children) -> ast.EndGame:
        return ast.EndGame(span=self._s(c), reason=c[0])

    def turn_stmt(self, c: Children) -> ast.Turn:
        return ast.Turn(span=self._s(c), player=c[0], body=c[1])

    def call_stmt(self, c: Children) -> ast.CallStmt:
        return ast.CallStmt(span=_tok_span(self.filename, c[0]), name=str(c[0]), args=tuple(c[1]) if len(c) > 1 else ())

    def return_stmt(self, c: Children) -> ast.Return:
        return ast.Return(span=self._s(c))

    def break_stmt(self, c: Children) -> ast.Break:
        return ast.Break(span=self._s(c))

    def log_stmt(self, c: Children) -> ast.Log:
        return ast.Log(span=self._s(c), message=_string(c[0]), args=tuple(c[1:]))

    def peek_stmt(self, c: Children) -> ast.Peek:
        return ast.Peek(span=self._s(c), pieces=c[0], player=c[1])

    def reveal_stmt(self, c: Children) -> ast.Reveal:
        return ast.Reveal(span=self._s(c), pieces=c[0])

    def place_stmt(self, c: Children) -> ast.Place:
        return ast.Place(span=self._s(c), piece=c[0], zone=c[1], cells=c[2])

    # Expressions.
    def args(self, c: Children) -> tuple[ast.Expr, ...]:
        return tuple(c)

    def ternary(self, c: Children) -> ast.Ternary:
        return ast.Ternary(span=self._s(c), cond=c[0], then=c[1], other=c[2])

    def chain(self, c: Children) -> ast.Expr:
        """Groups a chain of `or`, `and`, `not`, `where` and comparisons by precedence.

        The children are operands (arithmetic, grouped already) with the tokens between them as
        written; `not` opens only an operand after `and`, `or` or the start.
        """
        chain = _Chain(self._s)
        i = 0
        while True:
            count = 0
            while is_token(c[i]):
                count += 1
                i += 1
            chain.operands.append(c[i])
            chain.nots.append(count)
            if i + 1 == len(c):
                break
            if c[i + 1] == "not":  # `not in`
                chain.ops.append("not in")
                i += 3
            else:
                chain.ops.append(str(c[i + 1]))
                i += 2
        return chain.boolean(_OR, 0, len(chain.operands))

    def sum_expr(self, c: Children) -> ast.Expr:
        """Groups arithmetic by precedence: unary `-`, then `* / %`, then `+ -`, each left-associative."""
        operands: list[ast.Expr] = []
        ops: list[str] = []
        i = 0
        while True:
            negs = 0
            while is_token(c[i]):
                negs += 1
                i += 1
            node = c[i]
            for _ in range(negs):
                node = ast.Unary(span=self._s([node]), op="-", operand=node)
            operands.append(node)
            if i + 1 == len(c):
                break
            ops.append(str(c[i + 1]))
            i += 2
        cuts = _split(_ADD, ops, 0, len(operands))
        return self._fold(ops, [self._fold(ops, operands[a:b], range(a, b)) for a, b in itertools.pairwise(cuts)], cuts)

    def _fold(self, ops: list[str], terms: list[ast.Expr], starts: Sequence[int]) -> ast.Expr:
        """Left-folds `terms` with the operators between them; every node spans all the terms.

        `starts` holds where each term starts among the operands: the operator before it is ops[start - 1].
        """
        if len(terms) == 1:
            return terms[0]
        span = self._s(terms)
        node = terms[0]
        for term, start in zip(terms[1:], starts[1:], strict=False):
            node = ast.Binary(span=span, op=ops[start - 1], left=node, right=term)
        return node

    def attr(self, c: Children) -> ast.Attr:
        return ast.Attr(span=_tok_span(self.filename, c[1]), obj=c[0], attr=str(c[1]))

    def index(self, c: Children) -> ast.Index:
        return ast.Index(span=self._s(c), obj=c[0], args=tuple(c[1]))

    def call(self, c: Children) -> ast.Call:
        return ast.Call(span=_tok_span(self.filename, c[0]), func=str(c[0]), args=tuple(c[1]) if len(c) > 1 else ())

    def int_(self, c: Children) -> ast.Num:
        return ast.Num(span=_tok_span(self.filename, c[0]), value=self._int(c[0]))

    def string(self, c: Children) -> ast.Str:
        return ast.Str(span=_tok_span(self.filename, c[0]), value=_string(c[0]))

    def true(self, c: Children) -> ast.Bool:
        return ast.Bool(span=_tok_span(self.filename, c[0]), value=True)

    def false(self, c: Children) -> ast.Bool:
        return ast.Bool(span=_tok_span(self.filename, c[0]), value=False)

    def none(self, c: Children) -> ast.NoneLit:
        return ast.NoneLit(span=_tok_span(self.filename, c[0]))

    def name(self, c: Children) -> ast.Name:
        return ast.Name(span=_tok_span(self.filename, c[0]), name=str(c[0]))

    def it_attr(self, c: Children) -> ast.ItAttr:
        return ast.ItAttr(span=_tok_span(self.filename, c[0]), attr=str(c[0]))

    def it(self, c: Children) -> ast.It:
        return ast.It(span=_tok_span(self.filename, c[0]))

    def list_(self, c: Children) -> ast.ListLit:
        return ast.ListLit(span=self._s(c), items=tuple(c[0]) if c else ())

    def comp_for(self, c: Children) -> ast.CompFor:
        var, items, *cond = c
        return ast.CompFor(span=self._s(c), var=str(var), iter=items, cond=cond[0] if cond else None)

    def listcomp(self, c: Children) -> ast.ListComp:
        return ast.ListComp(span=self._s(c), elt=c[0], fors=tuple(c[1:]))
