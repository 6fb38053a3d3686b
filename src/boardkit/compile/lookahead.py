"""The look-ahead's shortcut, worked out at compile time.

Before a decision's option is offered, the runtime asks whether the turn can be completed
after it. When the option leads through jumps and calls only to further decisions of the same
player, the answer follows from those decisions' options, without running anything: this
module writes that walk as Python, one function per decision site and continuation, with the
jumps and calls resolved here and the fail/return analysis (`Probe`) folded in.

Each function `Q_*(s, L, depth, below)` returns True (completable), False (a dead end) or
None (only a full trial can tell). `below` says whether a dead end may follow once the
procedures running under the decision return (the runtime works it out from its frames).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from boardkit.model import defs as d
from boardkit.model import expr as m

if TYPE_CHECKING:
    from boardkit.compile.writer import Writer

# How deep the look-ahead nests decisions before it assumes the rest completable.
PROBE_DEPTH: Final = 64
# How many calls the shortcut follows from one decision, and how many jumps.
_MAX_CALLS = 8
_MAX_JUMPS = 1000

Chain = tuple[tuple[str, int], ...]  # callers (procedure, pc of the call), outermost first


class Lookahead:
    """Writes the Q_* functions of one ruleset into a writer."""

    def __init__(self, w: Writer, game: d.GameDef, call_depth: int) -> None:
        self.w = w
        self.procs = game.procs
        self.call_depth = call_depth
        self.names: dict[tuple[str, int, Chain], str] = {}
        self.todo: list[tuple[str, int, Chain]] = []

    def entry(self, proc: str, pc: int) -> str:
        """The function that settles a trial continuing at `pc` of `proc` (no callers yet)."""
        return self._name(proc, pc, ())

    def _name(self, proc: str, pc: int, callers: Chain) -> str:
        key = (proc, pc, callers)
        name = self.names.get(key)
        if name is None:
            name = self.names[key] = f"Q_{proc.replace('$', '_')}_{pc}_{len(self.names)}"
            self.todo.append(key)
        return name

    def write_all(self) -> None:
        """Writes the functions named so far, and those they name in turn."""
        while self.todo:
            self._write(*self.todo.pop())

    def _may_fail(self, chain: list[tuple[str, int]], *, here: bool = False) -> bool | None:
        """Whether a dead end may follow the first of `chain` (callers following, innermost first).

        `here`: or be the first itself. None when that depends on the frames below the decision.
        """
        for i, (proc, pc) in enumerate(chain):
            flags = self.procs[proc].probe[pc]
            if flags.fail or (here and i == 0 and flags.here):
                return True
            if not flags.ret:
                return False
        return None

    def _walk(self, proc: str, pc: int, callers: Chain,
              body: list[str]) -> tuple[str, int, list[tuple[str, int]], str, d.Choose] | bool | None:
        """Follows jumps, calls and returns from `pc` of `proc` to where the shortcut can settle the trial.

        Returns the decision it reached (its procedure, pc, callers innermost last, the name
        of its locals, and the choice itself), with the source that binds the callees' locals
        added to `body`; True at the end of the turn, or where no dead end can follow; False at
        the return of the procedure the decision stands in, or where a dead end can follow only
        after it (the frames below then tell); None at anything else, or in a loop of jumps (the
        full trial reports it).
        """
        ex = self.w.ex
        cur, at, chain = proc, pc, list(callers)
        local = "L"
        # The locals of the calls followed here; callers given in `callers` have none at hand.
        names, base = ["L"], len(chain)
        for _ in range(_MAX_JUMPS):
            ins = self.procs[cur].code[at]
            if isinstance(ins, d.Jump):
                at = ins.target
                continue
            if isinstance(ins, d.CallProc) and len(chain) < _MAX_CALLS:
                callee = self.procs[ins.proc]
                args = "".join(f"{p!r}: {ex.gen_with(a, local)}, "
                               for p, a in zip(callee.params, ins.args, strict=True))
                nxt = f"_L{len(chain)}"
                body.append(f"if len(s.frames) + {len(chain) + 1} > {self.call_depth}:")
                body.append("    return None")
                body.append(f"{nxt} = {{{args}'$actor': {local}.get('$actor')}}")
                chain.append((cur, at))
                names.append(nxt)
                local, cur, at = nxt, ins.proc, 0
                continue
            if isinstance(ins, d.Return):
                if len(chain) == base:
                    return False if not chain else None
                names.pop()
                local = names[-1]
                cur, at = chain.pop()
                at += 1
                continue
            if isinstance(ins, d.TurnEnd):
                return True
            if isinstance(ins, d.Choose) and ins.by is None and ins.optional is None:
                return cur, at, chain, local, ins
            # Effects, or a decision the shortcut does not walk: where no dead end can come of
            # them or follow them, nothing needs to run to settle the trial.
            fail = self._may_fail([(cur, at), *reversed(chain)], here=True)
            return None if fail else fail is False
        return None

    def _write(self, proc: str, pc: int, callers: Chain) -> None:
        w = self.w
        name = self.names[(proc, pc, callers)]
        w.line(f"def {name}(s, L, depth, below):")
        w.line("s.trials_left -= 1", 1)
        w.line("if s.trials_left < 0:", 1)
        w.line("return None", 2)
        body: list[str] = []
        found = self._walk(proc, pc, callers, body)
        if found is None:
            w.line("return None", 1)
            return
        if found is True or found is False:
            # The turn ends; or the procedure the decision stands in returns, and the frames
            # below tell.
            body.append("return True" if found else "return True if not below else None")
            w.line("try:", 1)
            for line in body:
                w.line(line, 2)
            w.line("except _QUICK_FAULTS:", 1)
            w.line("return None", 2)
            return
        cur, at, chain, local, ins = found
        each = self._each_option(cur, at, chain, local, ins)
        lazy = w.ex.lazily(ins.domain, local) if self._walked_alone(proc, pc, cur, ins) else None
        if lazy is None:
            body.append(f"_vals = D_{cur.replace('$', '_')}_{at}(s, {local})")
            body.append("for _opt in _vals:")
        else:
            # Options one at a time: the first that leads on settles it.
            opening, item, cost = lazy
            if cost:
                body.extend([f"s.work -= {cost}", "if s.work < 0:", "    _over_budget()"])
            body.extend(opening)
            body.append(f"    _opt = {item}")
        body.extend(f"    {line}" for line in each)
        body.append("return False")
        w.line("try:", 1)
        for line in body:
            w.line(line, 2)
        w.line("except _QUICK_FAULTS:", 1)
        w.line("return None  # the full trial reports a fault, located, or stops at the horizon", 2)

    def _walked_alone(self, proc: str, pc: int, cur: str, ins: d.Choose) -> bool:
        """Whether the shortcut continuing at `pc` of `proc` may walk the list of `ins` item by item.

        Its items must be the options the decision offers: distinct values, no pieces (`offered`
        merges alike ones, runtime/options.py). And where a choice leads here, the list must read
        the value chosen: one that does not is remembered (`D_*`) for all that choice's values,
        and walking it again after each would cost the product of the two lists' lengths.
        """
        if not self.w.ex.distinct(ins.domain):
            return False
        before = self.procs[proc].code[pc - 1] if pc > 0 else None
        if not isinstance(before, d.Choose):
            return True
        return cur == proc and any(isinstance(n, m.Local) and n.name == before.var for n in m.walk(ins.domain))

    def _each_option(self, cur: str, at: int, chain: list[tuple[str, int]], local: str, ins: d.Choose) -> list[str]:
        """What settles a trial for an option `_opt` of the decision: the first that leads on does.

        True, the continuation's answer, or None (effects follow: only a full trial can tell).
        Named `_opt`, not `_v`, which the source of a condition may bind with `:=`.
        """
        each: list[str] = []
        fail = self._may_fail([(cur, at), *reversed(chain)])
        if fail is False:
            return ["return True"]
        if fail is None:
            each.append("if not below:")
            each.append("    return True")
        each.append(f"if depth >= {PROBE_DEPTH}:")
        each.append("    return _cut_off(s)")
        # A decision after which something may fail: completable if one of its options is.
        nxt_code = self.procs[cur].code[at + 1] if at + 1 < len(self.procs[cur].code) else None
        if isinstance(nxt_code, (d.Jump, d.CallProc, d.Choose)):
            follow = self._name(cur, at + 1, tuple(chain))
            each.append(f"_found = {follow}(s, {{**{local}, {ins.var!r}: _opt}}, depth + 1, below)")
            each.append("if _found is not False:")
            each.append("    return _found")
        else:
            each.append("return None")
        return each
