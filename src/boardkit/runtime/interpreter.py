"""Runs compiled procedures on a State up to the next decision, and finds the legal options.

A decision option is offered only if the turn can be completed after it: options are tried
ahead on a snapshot and dropped when every continuation meets a failed `require` or an empty
choice. The look-ahead stops at the end of the turn, at the end of the game, or at a decision
that belongs to another player.
"""

from __future__ import annotations

import collections
from typing import TYPE_CHECKING, Any, Final

from mypy_extensions import mypyc_attr

from boardkit.compile.lookahead import PROBE_DEPTH
from boardkit.compile.module import DECISION, OVER, RETURNED, TURN_DONE
from boardkit.errors import RULE_FAULTS, DeadEnd, Horizon, RuleRuntimeError, rule_fault
from boardkit.model.defs import Branch, Choose
from boardkit.runtime.events import Event
from boardkit.runtime.options import SKIP
from boardkit.runtime.pieces import Piece, label_of
from boardkit.runtime.program import STEP_LIMIT, ProcRun, Program
from boardkit.runtime.proofs import cut_off, lookup, start, step
from boardkit.runtime.state import restore_state, snapshot_state
from boardkit.runtime.work import WORK_LIMIT

if TYPE_CHECKING:

    from boardkit.model.defs import Decision
    from boardkit.runtime.program import QuickFn
    from boardkit.runtime.state import Snapshot, State
    from boardkit.runtime.work import Value
    from boardkit.source import Span

__all__ = ["DECISION", "OVER", "TURN_DONE", "Interpreter"]

TRIAL_LIMIT = 200_000  # not Final: a test lowers it
# What decide() needs of a site: kind, its options' function, its player's (or None), its
# _chain code, the look-ahead's shortcut (None, one, or one per branch option), the variable set,
# and a branch's options' conditions one by one with the order they are tried in (None: no option
# has one; see `_branch_completable`).
_Site = tuple[int, Any, Any, int, Any, "str | None", "tuple[Any, ...] | None"]
_PLAIN, _BRANCH, _OPTIONAL = 0, 1, 2
# What taking an option reads of its decision, looked up once: a branch's option names and
# targets (None and () for a choice), the choice's variable, the prompt, and the label of an
# optional choice's skip. The compiled build reads these as a tuple's items, not the model's attributes.
_Step = tuple["tuple[str, ...] | None", tuple[int, ...], str, str, str]
# Interpreter._chain's codes: a dead end may follow; the turn cannot go on past the procedure
# (0: that depends on the callers).
_FAILS, _STOPS = 1, 2
# A frame's fourth item: whether a dead end may follow once its procedure returns.
_BELOW: Final = 3
# How deep a trial goes before a game played straight on starts keeping proofs (runtime/proofs.py).
PROVED_DEPTH: Final = 2


class Interpreter:
    """Runs the procedures of one program; holds no state of its own."""

    def __init__(self, program: Program) -> None:
        self.program = program
        # Whether trials may be settled by the look-ahead's shortcut (tests turn it off on the
        # instance to compare it with full trials: the compiled build reads no class attribute).
        self.shortcuts = True
        self.procs = program.procs
        self._run_fns = {name: p.run for name, p in program.procs.items()}
        # What each instruction's probe flags say to a trial, as plain lists (read at every call
        # and return while trying options): where a frame resumes, _FAILS, _STOPS or 0; and
        # where a trial stands, whether it must run on (a dead end here or ahead, or no return).
        self._chain: dict[str, list[int]] = {name: [_FAILS if f.fail else 0 if f.ret else _STOPS for f in p.probe]
                                             for name, p in program.procs.items()}
        self._runs_on = {name: [f.here or f.fail or not f.ret for f in p.probe] for name, p in program.procs.items()}
        # Each decision site's facts as decide() reads them, looked up once per decision.
        self._decisions: dict[str, dict[int, _Site]] = {
            name: {pc: self._site_facts(name, pc) for pc in p.sites if isinstance(p.code[pc], (Branch, Choose))}
            for name, p in program.procs.items()}
        self._steps: dict[str, dict[int, _Step]] = {
            name: {pc: _step_of(ins) for pc, ins in enumerate(p.code) if isinstance(ins, (Branch, Choose))}
            for name, p in program.procs.items()}

    def _site_facts(self, name: str, pc: int) -> _Site:
        proc = self.procs[name]
        ins, site = proc.code[pc], proc.sites[pc]
        guards = None
        if isinstance(ins, Branch):
            kind, var = _BRANCH, None
            if site[2] is not None:  # the conditions, and the order the look-ahead tries the options in
                order = [i for i, o in enumerate(ins.options) if not o.otherwise]
                order += [i for i, o in enumerate(ins.options) if o.otherwise]
                guards = (site[2], tuple(order))
        else:
            assert isinstance(ins, Choose)  # noqa: S101 - _decisions lists decisions only
            kind, var = (_PLAIN if ins.optional is None else _OPTIONAL), ins.var
        return (kind, site[0], site[1], self._chain[name][pc], self.program.quick.get((name, pc)), var, guards)

    def run(self, s: State, *, probe: bool = False) -> int:
        """Executes until a decision, the end of the game, or (when probing) the end of the turn."""
        if not probe:
            s.work = WORK_LIMIT
        s.steps = STEP_LIMIT
        frames = s.frames
        fns = self._run_fns
        try:
            while True:
                frame = frames[-1]
                r = fns[frame[0]](s, frame, probe)
                if r == RETURNED:
                    done = frames.pop()
                    if not frames:
                        if done[0] == "play":
                            s.end_game("the play procedure finished")
                        return OVER
                    frames[-1][1] += 1
                    if probe and self._nothing_can_fail(frames):
                        return TURN_DONE
                    continue
                return r
        except RULE_FAULTS as exc:
            span = self.program.locate(exc.__traceback__) or self.span(s)
            msg = rule_fault(exc)
            raise RuleRuntimeError(msg, span) from None

    def _nothing_can_fail(self, frames: list[list[Any]]) -> bool:
        """Whether no dead end lies ahead in the turn.

        That is from where the top frame resumes (its instruction included) through its callers.
        """
        top = frames[-1]
        # A procedure that cannot return may loop for ever: let the trial find out.
        if self._runs_on[top[0]][top[1]]:
            return False
        return not top[_BELOW]

    def span(self, s: State) -> Span | None:
        """Where the running procedure stands."""
        if not s.frames:
            return None
        frame = s.frames[-1]
        return self.procs[frame[0]].span(frame[1])

    def _site(self, s: State) -> tuple[ProcRun, int, Decision, Any]:
        """The pending decision: its procedure, program counter, instruction and site."""
        frame = s.frames[-1]
        proc = self.procs[frame[0]]
        pc = frame[1]
        return proc, pc, proc.code[pc], proc.sites[pc]

    # Decisions.
    def chooser(self, s: State) -> int:
        """The player who owes the pending decision."""
        proc, pc, _, site = self._site(s)
        return self._chooser(s, proc, pc, site[1], s.frames[-1][2])

    def _chooser(self, s: State, proc: ProcRun, pc: int, by: Any, local: dict[str, Value]) -> int:  # noqa: ANN401 - a generated function or None
        if by is None:
            player = local.get("$actor")
            if type(player) is int and 0 <= player < s.nplayers:
                return player
        if s.probing is None:
            s.work = WORK_LIMIT
        try:
            player = by(s, local) if by is not None else local.get("$actor")
        except RULE_FAULTS as exc:
            msg = rule_fault(exc)
            raise RuleRuntimeError(msg, proc.span(pc)) from None
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < s.nplayers:
            msg = f"this decision has no player ({player!r}): use it inside a 'turn' or add 'by PLAYER'"
            raise RuleRuntimeError(msg, proc.span(pc))
        return player

    def raw_options(self, s: State) -> tuple[list[Any], list[Any]]:
        """Options of the pending decision before look-ahead: (plain ones, fallback ones).

        An option is a value for `choose x from`, a branch index for `choose { }`, or SKIP.
        """
        frame = s.frames[-1]
        return self._open(s, frame[0], frame[1], frame[2])

    def _open(self, s: State, name: str, pc: int, local: dict[str, Value]) -> tuple[list[Any], list[Any]]:
        """The options of the decision at `pc` of `name` before look-ahead (fresh lists), a rule fault located."""
        kind, raw = self._decisions[name][pc][:2]
        try:
            if kind is _PLAIN:
                return list(raw(s, local)), []  # D_* functions give each option once
            if kind is _BRANCH:
                plain, fallback = raw(s, local)  # W_* functions: (plain, otherwise)
                return plain, fallback
            return [*raw(s, local), SKIP], []
        except RULE_FAULTS as exc:
            raise RuleRuntimeError(rule_fault(exc), self.procs[name].span(pc)) from None

    def option_labels(self, s: State, options: list[Any]) -> list[str]:
        """Labels of the options, made unique.

        A piece whose label another option shares is named with its zone ("red from hand[0]"),
        and any still alike are numbered ("#2").
        """
        frame = s.frames[-1]
        names, _, _, _, skip = self._steps[frame[0]][frame[1]]
        if names is not None:
            return [names[o] for o in options]  # a branch's option names differ (the checker)
        if _plain(options):
            return options[:] if type(options[0]) is str else [str(o) for o in options]
        labels = [o if type(o) is str else skip if o is SKIP else label_of(o) for o in options]
        if len(set(labels)) == len(labels):
            return labels
        text, counts = s.layout.zone_text, collections.Counter(labels)
        labels = [f"{lab} from {text[s.loc[o.id]]}" if isinstance(o, Piece) and counts[lab] > 1 else lab
                  for lab, o in zip(labels, options, strict=True)]
        counts, seen = collections.Counter(labels), collections.Counter[str]()
        out: list[str] = []
        for lab in labels:
            seen[lab] += 1
            out.append(lab if counts[lab] == 1 else f"{lab} #{seen[lab]}")
        return out

    def prompt(self, s: State) -> str:
        """The text the pending decision asks."""
        _, _, ins, _ = self._site(s)
        return str(ins.prompt)

    def apply(self, s: State, option: Value, chooser: int, label: str | None) -> None:
        """Takes an option of the pending decision and moves the program counter past it.

        Look-ahead passes no label: its choices are not events of the game.
        """
        frame = s.frames[-1]
        self._take(s, frame, self._steps[frame[0]][frame[1]], option, chooser, label)

    @staticmethod
    def _take(s: State, frame: list[Any], step_: _Step, option: Value, chooser: int, label: str | None) -> None:  # noqa: PLR0917 - the hot step
        names, targets, var, prompt, _ = step_
        if label is not None:
            s.elog.append((chooser, label, prompt))  # a Chose (State.elog)
        if names is not None:
            frame[1] = targets[option]
        else:
            frame[2][var] = None if option is SKIP else (list(option) if isinstance(option, list) else option)
            frame[1] += 1
        if s.trail is not None:
            step(s, option)

    def take(self, s: State, options: list[Value], i: int, chooser: int, label: str | None) -> str:
        """Takes the game's i-th option of the pending decision; returns the label it is logged by.

        Without a label, the option's own (`option_labels`), worked out only where options
        could share it: numbers alone, texts alone and a branch's names cannot.
        """
        frame = s.frames[-1]
        names, targets, var, prompt, _ = self._steps[frame[0]][frame[1]]
        option = options[i]
        if names is not None:
            if label is None:
                label = names[option]
            frame[1] = targets[option]
        else:
            if label is None:
                label = str(option) if _plain(options) else self.option_labels(s, options)[i]
            frame[2][var] = None if option is SKIP else (list(option) if isinstance(option, list) else option)
            frame[1] += 1
        s.elog.append((chooser, label, prompt))  # a Chose (State.elog)
        if s.trail is not None:
            step(s, option)
        return label

    def decide(self, s: State) -> tuple[list[Value], int]:
        """The options of the pending decision that can be completed into a legal turn, and the player who owes it.

        The site is looked up once; the frames below stand still while the options are tried.
        """
        frame = s.frames[-1]
        name, pc, local = frame[0], frame[1], frame[2]
        kind, raw, by, code, quick, var, _ = self._decisions[name][pc]
        fallback: list[Value]
        if kind is _PLAIN:  # the commonest decision, without a call to _open
            try:
                plain, fallback = list(raw(s, local)), []
            except RULE_FAULTS as exc:
                raise RuleRuntimeError(rule_fault(exc), self.procs[name].span(pc)) from None
        else:
            plain, fallback = self._open(s, name, pc, local)
        player = local.get("$actor") if by is None else None
        if type(player) is not int or not 0 <= player < s.nplayers:
            player = self._chooser(s, self.procs[name], pc, by, local)
        if code == _STOPS:  # no dead end ahead, and its procedure does not return: nothing to try
            return plain or fallback, player
        below = frame[_BELOW]
        if code == _FAILS or below:
            if not self.shortcuts:
                quick = None
            return self._tried(s, plain, fallback, player, below=below, quick=quick, var=var), player
        return plain or fallback, player

    def _tried(self, s: State, plain: list[Value], fallback: list[Value], chooser: int, *,
               below: bool, quick: QuickFn | tuple[QuickFn, ...] | None, var: str | None) -> list[Value]:
        """The options after which the turn can be completed, tried ahead.

        The look-ahead's shortcut settles what it can; the rest run on a snapshot.
        """
        s.trials_left = TRIAL_LIMIT
        # Trials are not part of the game: their events go nowhere.
        events, s.elog = s.elog, _NO_EVENTS
        s.probing = chooser
        snap: list[Snapshot] = []  # taken only if a trial has to run
        local: dict[str, Value] = s.frames[-1][2]
        try:
            for options in (plain, fallback):
                legal = []
                for o in options:
                    if len(snap) > 1:  # `_clean`, without a call where nothing is to be done (hot)
                        _clean(s, snap)
                        local = s.frames[-1][2]  # the restore put new frames in place
                    s.work = WORK_LIMIT  # each continuation may do a run's work; the trial count bounds them
                    # The shortcut (as in `_try`, written out).
                    if quick is None:
                        found = None
                    elif var is None:
                        found = quick[o](s, local, 0, below)  # type: ignore[index]
                    else:
                        found = quick(s, {**local, var: None if o is SKIP else o}, 0, below)  # type: ignore[operator]
                    if found is None:
                        found = self._full(s, snap, o, chooser, 0)
                    if found:
                        legal.append(o)
                if legal:
                    return legal
            return []
        finally:
            try:
                if len(snap) > 1:  # the game goes on from here: put back what the last trial left
                    restore_state(s, snap[0], adopt=True)  # the snapshot is not read again
            finally:
                s.elog = events
                s.probing = None

    def check_options(self, s: State, options: list[Value], chooser: int) -> None:
        """Plays every option to the next decision on the state, then puts it back.

        The look-ahead runs only where a dead end may follow, so an offered option whose turn
        meets a rule fault (a cell off the board, a bad index) is otherwise first seen when
        played. Checking games call this so that the fault is raised, located, with the
        option named, before the option is offered.

        Raises:
            RuleRuntimeError: playing an option met a rule fault or a dead end.
        """
        snap = snapshot_state(s)
        events, s.elog = s.elog, _NO_EVENTS
        failed: tuple[int, str, Span | None] | None = None
        try:
            for i, option in enumerate(options):
                try:
                    self.apply(s, option, chooser, None)
                    self.run(s)
                except RuleRuntimeError as exc:
                    failed = (i, exc.message, exc.span)
                except DeadEnd as exc:
                    failed = (i, f"it leads to a dead end ({exc})", self.span(s))
                finally:
                    restore_state(s, snap)
                if failed is not None:
                    break
        finally:
            s.elog = events
        if failed is not None:
            i, message, span = failed
            msg = f"option {self.option_labels(s, options)[i]!r} is offered but fails when played: {message}"
            raise RuleRuntimeError(msg, span)

    def _try(self, s: State, snap: list[Snapshot], option: Value, chooser: int, depth: int,  # noqa: PLR0917 - one call per option tried
             site: _Site, below: bool) -> bool:  # noqa: FBT001 - positional: the hot call
        """Whether the turn can be completed after `option` of the decision at `site`.

        The look-ahead's shortcut (compile/lookahead.py) settles it where the option leads,
        through jumps and calls only, to decisions of the same player; else a full trial.
        `snap` holds a snapshot of `s` once one is needed; a full trial leaves `s` where it
        stopped, to be put back when next read (`_clean`). `below`: the frame's flag.
        """
        if len(snap) > 1:  # `_clean`, without a call where nothing is to be done
            _clean(s, snap)
        s.work = WORK_LIMIT  # each continuation may do a run's work; the trial count bounds them
        quick, var = site[4], site[5]
        if quick is not None and self.shortcuts:
            local = s.frames[-1][2]  # read after `_clean`: a trial's restore puts new frames in place
            found: bool | None
            if var is None:
                found = quick[option](s, local, depth, below)
            else:
                found = quick(s, {**local, var: None if option is SKIP else option}, depth, below)
            if found is not None:
                return found
        return self._full(s, snap, option, chooser, depth)

    def _full(self, s: State, snap: list[Snapshot], option: Value, chooser: int, depth: int) -> bool:
        """What a trial run of `option` finds, or what one found here before (runtime/proofs.py)."""
        s.work = WORK_LIMIT  # the run's own budget, whatever the shortcut used before it
        trail = s.trail
        if trail is None and depth >= PROVED_DEPTH and not s.over:
            # A game whose trials run trials of their own keeps what they prove from then on:
            # play reaches the positions they saw, and a proof there saves a trial and those
            # it would run. Where trials stay shallow, keeping them costs more than it saves.
            s.trail = trail = start()
        if trail is None:
            return self._trial(s, snap, option, chooser, depth)
        k, known = lookup(s, option)
        if known is not None:
            # A proof costs the trials it took, so that the trial limit trips where and when it
            # would without it; where it would trip, the trial runs again and trips there.
            found, used = known
            if s.trials_left >= used:
                s.trials_left -= used
                return found
        if k is None:
            return self._trial(s, snap, option, chooser, depth)
        kept = trail[1]
        cut, left = kept.cut_offs, s.trials_left
        found = self._trial(s, snap, option, chooser, depth)
        if kept.cut_offs == cut:
            kept.proofs[k] = (found, left - s.trials_left)
        return found

    def _trial(self, s: State, snap: list[Snapshot], option: Value, chooser: int, depth: int) -> bool:
        """A trial run: `option` taken on the state, then the turn played on as far as it must be.

        The state is left where the trial stopped (`snap` says so) and put back only when it is
        read again (`_clean`): where the trial was itself part of one, the outer trial's restore
        does it, and this one's would be wasted.
        """
        s.trials_left -= 1
        if s.trials_left < 0:
            msg = f"look-ahead tried {TRIAL_LIMIT} continuations without settling which options are legal"
            raise RuleRuntimeError(msg, self.span(s))
        if not snap:
            snap.append(snapshot_state(s))
        try:
            frame = s.frames[-1]  # `apply`, written out
            self._take(s, frame, self._steps[frame[0]][frame[1]], option, chooser, None)
            return self._completable(s, chooser, depth)
        except DeadEnd:
            return False
        except Horizon:
            return True
        finally:
            snap.append(_LEFT)

    def _completable(self, s: State, chooser: int, depth: int) -> bool:
        """Whether the turn can be completed from here: the look-ahead's step after an option."""
        if self.run(s, probe=True) != DECISION:
            return True
        frame = s.frames[-1]
        name, pc = frame[0], frame[1]
        site = self._decisions[name][pc]
        if site[6] is not None:
            return self._branch_completable(s, name, pc, site, chooser, depth)
        plain, fallback = self._open(s, name, pc, frame[2])
        if not plain and not fallback:
            return False
        settled = self._settled(s, site, name, pc, chooser, depth)
        if settled is not None:
            return settled
        below = frame[_BELOW]
        snap: list[Snapshot] = []
        # Loops, not any() of a generator: one Python frame fewer for each decision a trial nests.
        for options in (plain, fallback):
            for o in options:
                if self._try(s, snap, o, chooser, depth + 1, site, below):
                    return True
        return False

    def _settled(self, s: State, site: _Site, name: str, pc: int, chooser: int,  # noqa: PLR0917 - `_completable`'s step
                 depth: int) -> bool | None:
        """What `_completable` knows of a decision that has an option without trying any; None: try them."""
        code = site[3]
        if code == _STOPS:
            return True
        if depth >= PROBE_DEPTH:
            return cut_off(s)
        frame = s.frames[-1]
        if code != _FAILS and not frame[_BELOW]:
            return True
        return True if self._chooser(s, self.procs[name], pc, site[2], frame[2]) != chooser else None

    def _branch_completable(self, s: State, name: str, pc: int, site: _Site, chooser: int,  # noqa: PLR0917 - the step of `_completable` it stands for
                            depth: int) -> bool:
        """`_completable`'s step at a branch, its options' conditions worked out one at a time.

        The options are tried in order, plain ones first, and the first after which the turn
        can be completed settles it: the conditions of the options after it are not worked out.
        (A condition that fails is then met only if the game reaches this decision.)
        """
        proc = self.procs[name]
        guards, order = site[6]  # type: ignore[misc]

        # The conditions share one work budget, as when they were worked out all at once before
        # any trial: each takes what the one before it left, not what a trial left.
        left = s.work

        def offered(i: int) -> bool:
            nonlocal left
            guard = guards[i]
            if guard is None:
                return True
            s.work = left
            try:
                return bool(guard(s, s.frames[-1][2]))  # the locals as they stand: a trial's restore renews them
            except RULE_FAULTS as exc:
                raise RuleRuntimeError(rule_fault(exc), proc.span(pc)) from None
            finally:
                left = s.work

        first = next((k for k, i in enumerate(order) if offered(i)), None)
        if first is None:
            return False
        settled = self._settled(s, site, name, pc, chooser, depth)
        if settled is not None:
            return settled
        below = s.frames[-1][_BELOW]
        snap: list[Snapshot] = []
        # A loop, not any() of a generator: one Python frame fewer for each decision a trial nests.
        for k in range(first, len(order)):
            i = order[k]
            if k != first:
                _clean(s, snap)  # the conditions read the state the trials started from
                if not offered(i):
                    continue
            if self._try(s, snap, i, chooser, depth + 1, site, below):
                return True
        return False


# Marks, after its snapshot, that a trial left the state where it stopped (`Interpreter._trial`).
_LEFT: Final[Any] = object()


def _clean(s: State, snap: list[Any]) -> None:
    """Puts the state back to the snapshot if a trial left it where it stopped."""
    if len(snap) > 1:
        restore_state(s, snap[0])
        del snap[1:]


def _step_of(ins: Branch | Choose) -> _Step:
    if isinstance(ins, Branch):
        return (tuple(o.name for o in ins.options), tuple(o.target for o in ins.options), "", ins.prompt, "")
    return None, (), ins.var, ins.prompt, str(ins.optional)


def _plain(options: list[Value]) -> bool:
    """Whether the options are numbers alone or texts alone: each labelled by itself, distinct ones never alike."""
    if not options:
        return False
    kind = type(options[0])
    if kind is not int and kind is not str:
        return False
    # Not a set of the types: compiled, this `all` is a loop of a few instructions an option.
    return all(type(o) is kind for o in options)


@mypyc_attr(native_class=False)  # a list subclass, in the compiled build too
class _NoEvents(list[Event | tuple[Any, ...]]):
    """An event log that keeps nothing, for look-ahead trials."""

    def append(self, _event: Event | tuple[Any, ...]) -> None:
        pass


_NO_EVENTS: Final = _NoEvents()
