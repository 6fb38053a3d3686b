"""Runs compiled procedures on a State up to the next decision, and finds the legal options.

A decision option is offered only if the turn can be completed after it: options are tried
ahead on a snapshot and dropped when every continuation meets a failed `require` or an empty
choice. The look-ahead stops at the end of the turn, at the end of the game, or at a decision
that belongs to another player.
"""

from __future__ import annotations

import collections
import itertools
from typing import Any

from boardkit.errors import RULE_FAULTS, DeadEnd, Horizon, RuleRuntimeError
from boardkit.events import Chose, TurnEnded, TurnStarted
from boardkit.exprs import WORK_LIMIT
from boardkit.model import (
    BRANCH, CALL, CHOOSE, END, EXEC, ITER_INIT, ITER_NEXT, JUMP, JUMP_IF_NOT, REQUIRE, RETURN,
    TURN_BEGIN, TURN_END, GameDef,
)
from boardkit.pieces import Piece, label_of
from boardkit.state import State

DECISION, TURN_DONE, OVER = range(3)
STEP_LIMIT = 1_000_000
PROBE_DEPTH = 64
CALL_DEPTH = 200
TRIAL_LIMIT = 200_000


class Interpreter:
    """Steps the procedures of one game definition; holds no state of its own."""

    def __init__(self, game: GameDef) -> None:
        self.game = game
        self.procs = game.procs

    def run(self, s: State, probe: bool = False) -> int:
        """Executes until a decision, the end of the game, or (when probing) the end of the turn."""
        procs = self.procs
        budget = STEP_LIMIT
        if not probe:
            s.work = WORK_LIMIT
        frame = s.frames[-1]
        proc = procs[frame[0]]
        code = proc.code
        L = frame[2]
        pc = frame[1]
        try:
            while True:
                budget -= 1
                if budget == 0:
                    msg = f"no decision after {STEP_LIMIT} steps: does a loop never end?"
                    raise RuleRuntimeError(msg, proc.spans[pc])
                ins = code[pc]
                op = ins[0]
                if op == EXEC:
                    ins[1](s, L)
                    pc += 1
                elif op == JUMP_IF_NOT:
                    pc = pc + 1 if ins[1](s, L) else ins[2]
                elif op == ITER_NEXT:
                    items, i = L[ins[1]]
                    if i < len(items):
                        L[ins[2]] = items[i]
                        L[ins[1]] = (items, i + 1)
                        pc += 1
                    else:
                        pc = ins[3]
                elif op == JUMP:
                    pc = ins[1]
                elif op == ITER_INIT:
                    L[ins[1]] = (tuple(ins[2](s, L)), 0)
                    pc += 1
                elif op == CALL:
                    frame[1] = pc
                    if len(s.frames) >= CALL_DEPTH:
                        msg = f"procedure calls nested more than {CALL_DEPTH} deep: is a recursion unbounded?"
                        raise RuleRuntimeError(msg, proc.spans[pc])
                    callee = procs[ins[1]]
                    args = [a(s, L) for a in ins[2]]
                    L = {name: list(v) if isinstance(v, list) else v for name, v in zip(callee.params, args)}
                    L["$actor"] = frame[2].get("$actor")
                    frame = [callee.name, 0, L]
                    s.frames.append(frame)
                    proc, code, pc = callee, callee.code, 0
                elif op == RETURN:
                    done = s.frames.pop()
                    if not s.frames:
                        if done[0] == "play":
                            s.end_game("the play procedure finished")
                        return OVER
                    frame = s.frames[-1]
                    proc = procs[frame[0]]
                    code, L, pc = proc.code, frame[2], frame[1] + 1
                elif op == CHOOSE or op == BRANCH:
                    frame[1] = pc
                    return DECISION
                elif op == REQUIRE:
                    if not ins[1](s, L):
                        raise DeadEnd(f"{proc.spans[pc]}: {ins[2]}")
                    pc += 1
                elif op == END:
                    s.end_game(str(ins[1](s, L)))
                    return OVER
                elif op == TURN_BEGIN:
                    player = ins[1](s, L)
                    L["$actor"] = player
                    s.turn_player = player
                    s.turn_count += 1
                    s.events.append(TurnStarted(player, s.turn_count))
                    pc += 1
                elif op == TURN_END:
                    s.events.append(TurnEnded(s.turn_player))
                    pc += 1
                    if probe:
                        frame[1] = pc
                        return TURN_DONE
        except RULE_FAULTS as exc:
            raise RuleRuntimeError(f"{type(exc).__name__}: {exc}", proc.spans[pc]) from None

    # Decisions.
    def chooser(self, s: State) -> int:
        frame = s.frames[-1]
        ins = self.procs[frame[0]].code[frame[1]]
        by = ins[1].by
        if s.probing is None:
            s.work = WORK_LIMIT
        try:
            player = by(s, frame[2]) if by is not None else frame[2].get("$actor")
        except RULE_FAULTS as exc:
            raise RuleRuntimeError(f"{type(exc).__name__}: {exc}", self.procs[frame[0]].spans[frame[1]]) from None
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < s.nplayers:
            msg = f"this decision has no player ({player!r}): use it inside a 'turn' or add 'by PLAYER'"
            raise RuleRuntimeError(msg, self.procs[frame[0]].spans[frame[1]])
        return player

    def raw_options(self, s: State) -> tuple[list[Any], list[Any]]:
        """Options of the pending decision before look-ahead: (plain ones, fallback ones).

        An option is a value for `choose x from`, a branch index for `choose { }`, or SKIP.
        """
        try:
            return self._raw_options(s)
        except RULE_FAULTS as exc:
            frame = s.frames[-1]
            raise RuleRuntimeError(f"{type(exc).__name__}: {exc}", self.procs[frame[0]].spans[frame[1]]) from None

    def _raw_options(self, s: State) -> tuple[list[Any], list[Any]]:
        frame = s.frames[-1]
        ins = self.procs[frame[0]].code[frame[1]]
        info, L = ins[1], frame[2]
        if ins[0] == BRANCH:
            plain, fallback = [], []
            for i, when in enumerate(info.whens):
                if when is None or when(s, L):
                    (fallback if info.otherwise[i] else plain).append(i)
            return plain, fallback
        skip = [SKIP] if info.optional is not None else []
        return _offered(info.domain(s, L), s) + skip, []

    def option_label(self, s: State, option: Any) -> str:
        frame = s.frames[-1]
        ins = self.procs[frame[0]].code[frame[1]]
        if ins[0] == BRANCH:
            return ins[1].names[option]
        if option is SKIP:
            return ins[1].optional
        return label_of(option)

    def option_labels(self, s: State, options: list[Any]) -> list[str]:
        """Labels of the options, made unique: a piece whose label another option shares is
        named with its zone ("red from hand[0]"), and any still alike are numbered ("#2")."""
        labels = [self.option_label(s, o) for o in options]
        if len(set(labels)) == len(labels):
            return labels
        text, counts = s.layout.zone_text, collections.Counter(labels)
        labels = [f"{lab} from {text[s.loc[o.id]]}" if isinstance(o, Piece) and counts[lab] > 1 else lab
                  for lab, o in zip(labels, options)]
        counts, seen = collections.Counter(labels), collections.Counter()
        out = []
        for lab in labels:
            seen[lab] += 1
            out.append(lab if counts[lab] == 1 else f"{lab} #{seen[lab]}")
        return out

    def prompt(self, s: State) -> str:
        frame = s.frames[-1]
        return self.procs[frame[0]].code[frame[1]][1].prompt

    def apply(self, s: State, option: Any, chooser: int, label: str | None) -> None:
        """Takes an option of the pending decision and moves the program counter past it.

        Look-ahead passes no label: its choices are not events of the game.
        """
        frame = s.frames[-1]
        ins = self.procs[frame[0]].code[frame[1]]
        if label is not None:
            s.events.append(Chose(chooser, label, ins[1].prompt))
        if ins[0] == BRANCH:
            frame[1] = ins[1].targets[option]
        else:
            frame[2][ins[1].var] = None if option is SKIP else (list(option) if isinstance(option, list) else option)
            frame[1] += 1

    def needs_probe(self, s: State) -> bool:
        """Whether a dead end may follow the pending decision within the turn."""
        return _may_fail((self.procs[f[0]], f[1]) for f in reversed(s.frames))

    def legal_options(self, s: State) -> list[Any]:
        """Options of the pending decision that can be completed into a legal turn."""
        plain, fallback = self.raw_options(s)
        if not self.needs_probe(s):
            return plain or fallback
        chooser = self.chooser(s)
        s.trials_left = TRIAL_LIMIT
        s.work = WORK_LIMIT
        # Trials are not part of the game: their events go nowhere.
        events, s.events = s.events, _NO_EVENTS
        s.probing = chooser
        try:
            snap = s.snapshot()
            legal = [o for o in plain if self._try(s, snap, o, chooser, 0)]
            return legal or [o for o in fallback if self._try(s, snap, o, chooser, 0)]
        finally:
            s.events = events
            s.probing = None

    def _try(self, s: State, snap: tuple, option: Any, chooser: int, depth: int) -> bool:
        """Whether the turn can be completed after `option`; leaves `s` as `snap` holds it."""
        s.trials_left -= 1
        if s.trials_left < 0:
            frame = s.frames[-1]
            msg = f"look-ahead tried {TRIAL_LIMIT} continuations without settling which options are legal"
            raise RuleRuntimeError(msg, self.procs[frame[0]].spans[frame[1]])
        s.work = WORK_LIMIT  # each continuation may do a run's work; the trial count bounds them
        quick = self._quick(s, option, depth)
        if quick is not None:
            return quick
        try:
            self.apply(s, option, chooser, None)
            return self._completable(s, chooser, depth)
        except DeadEnd:
            return False
        except Horizon:
            return True
        finally:
            s.restore(snap)

    def _quick(self, s: State, option: Any, depth: int) -> bool | None:
        """Settles a trial without running it when the option leads, through jumps and calls
        only, to decisions of the same player: it is completable exactly when one of their
        options is, down to a decision after which nothing can fail. None: run it."""
        top = s.frames[-1]
        proc, pc = self.procs[top[0]], top[1]
        ins = proc.code[pc]
        if ins[1].by is not None:
            return None
        if ins[0] == BRANCH:
            return self._quick_from(s, proc, ins[1].targets[option], top[2], [], depth)
        if proc.code[pc + 1][0] not in _PASSING:
            return None
        L = {**top[2], ins[1].var: None if option is SKIP else option}
        return self._quick_from(s, proc, pc + 1, L, [], depth)

    def _quick_from(self, s: State, proc: Any, pc: int, L: dict, callers: list, depth: int) -> bool | None:
        s.trials_left -= 1
        if s.trials_left < 0:
            return None  # the full trial reports the exhausted budget
        procs = self.procs
        try:
            for _ in range(_QUICK_STEPS):
                ins = proc.code[pc]
                op = ins[0]
                if op == JUMP:
                    pc = ins[1]
                elif op == CALL and len(s.frames) + len(callers) < CALL_DEPTH:
                    callee = procs[ins[1]]
                    args = [a(s, L) for a in ins[2]]
                    callers = [*callers, (proc, pc)]
                    L = {**dict(zip(callee.params, args)), "$actor": L.get("$actor")}
                    proc, pc = callee, 0
                elif op == CHOOSE and ins[1].by is None and ins[1].optional is None:
                    values = _offered(ins[1].domain(s, L), s)
                    break
                else:
                    return None
            else:
                return None  # a loop of jumps: the full trial reports it
        except (*RULE_FAULTS, Horizon):
            return None  # the full trial reports a fault, located, or stops at the horizon
        if not values:
            return False
        below = ((procs[f[0]], f[1]) for f in reversed(s.frames[:-1]))
        if depth >= PROBE_DEPTH or not _may_fail(itertools.chain([(proc, pc)], reversed(callers), below)):
            return True
        # A decision after which something may fail: completable if one of its options is.
        var = ins[1].var
        for v in values:
            found = self._quick_from(s, proc, pc + 1, {**L, var: v}, callers, depth + 1)
            if found is not False:
                return found  # True, or None: only a full trial can tell
        return False

    def _completable(self, s: State, chooser: int, depth: int) -> bool:
        if self.run(s, probe=True) != DECISION:
            return True
        plain, fallback = self.raw_options(s)
        if not plain and not fallback:
            return False
        if depth >= PROBE_DEPTH or not self.needs_probe(s) or self.chooser(s) != chooser:
            return True
        snap = s.snapshot()
        return any(self._try(s, snap, o, chooser, depth + 1) for o in plain) or any(
            self._try(s, snap, o, chooser, depth + 1) for o in fallback)


# What `_quick` follows from an option to the next decision: no effect happens on the way.
_PASSING = (JUMP, CALL, CHOOSE)
# How many jumps and calls `_quick` follows before it leaves the question to a full trial.
_QUICK_STEPS = 1000


class _NoEvents(list):
    """An event log that keeps nothing, for look-ahead trials."""

    def append(self, _event: Any) -> None:
        pass


_NO_EVENTS = _NoEvents()


class _Skip:
    """The option of not choosing, offered by `choose ... optional "label"`."""

    def __repr__(self) -> str:
        return "SKIP"


SKIP = _Skip()


def _may_fail(chain: Any) -> bool:
    """Whether a dead end may follow, within the turn, a decision at the first (procedure, pc)
    of `chain`, its callers following, innermost first."""
    for proc, pc in chain:
        fail, ret = proc.probe[pc]
        if fail:
            return True
        if not ret:
            return False
    return False


def _offered(values: list, s: State) -> list:
    """A choice's values as options: each distinct value once."""
    if values and isinstance(values[0], (Piece, list)):
        return _distinct_options(values, s.loc, s.layout.zone_defs)
    return list(dict.fromkeys(values))


def _distinct_options(values: list, loc: list[int], zone_defs: list) -> list:
    """Interchangeable pieces (same type and attributes, same zone) make one option; lists of
    pieces compare by identity. Pieces in a bag come sorted: their order there is the draw's."""
    out, seen = [], set()
    bagged = False
    for v in values:
        key = (v.type, tuple(v.attrs.items()), loc[v.id]) if isinstance(v, Piece) else repr(v)
        if key not in seen:
            seen.add(key)
            out.append(v)
            bagged = bagged or (isinstance(v, Piece) and zone_defs[loc[v.id]].kind == "bag")
    if bagged:
        out.sort(key=lambda v: (v.type, v.label, v.id) if isinstance(v, Piece) else ("", "", -1))
    return out
