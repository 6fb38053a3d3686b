"""The public face of a running game: moves, views, scores, undo, JSON."""

from __future__ import annotations

import collections
import copy
from typing import TYPE_CHECKING, Any

import attrs

from boardkit.errors import (
    RULE_FAULTS,
    DeadEnd,
    IllegalMove,
    InvariantError,
    OptionError,
    RuleRuntimeError,
    StateError,
    rule_fault,
)
from boardkit.move import Move, offered
from boardkit.runtime.determinize import determinize, tracked, visible_slots
from boardkit.runtime.grid import public_pieces, saved_boards
from boardkit.runtime.interpreter import DECISION, Interpreter
from boardkit.runtime.knowledge import unseen_zone
from boardkit.runtime.pieces import Piece
from boardkit.runtime.position import apply_position
from boardkit.runtime.state import State, key_text
from boardkit.runtime.work import WORK_LIMIT

if TYPE_CHECKING:
    import random
    from collections.abc import Iterator

    from boardkit.registry import Ruleset
    from boardkit.runtime.events import Event
    from boardkit.runtime.program import Program, SiteFn
    from boardkit.runtime.work import Value


# Undo restores the latest checkpoint before the decision it returns to and plays forward
# from there: a checkpoint every CHECKPOINT_EVERY decisions, the last CHECKPOINTS_KEPT kept
# (older decisions are reached by playing forward from the start).
CHECKPOINT_EVERY = 8
CHECKPOINTS_KEPT = 8
# Numbers longer than this, in bits, are shown in error messages by their length alone.
_SHOWN_BITS = 64


@attrs.frozen
class Outcome:
    """How a finished game ended: why, the scores by player, and the winners."""

    reason: str
    scores: tuple[int, ...]
    winners: tuple[int, ...]


class Game:
    """A game in progress. Create it with `Ruleset.new_game` or `Ruleset.load_game`."""

    def __init__(self, rules: Ruleset, state: State, *, seed: int, options: dict[str, Any],
                 position: dict[str, Any] | None, history: list[str]) -> None:
        self.rules = rules
        self._s = state
        self._interp: Interpreter = rules.interpreter
        self.seed = seed
        self.options = dict(options)
        self.position = position
        self.history = history
        #: Whether the rules' invariants are checked after every decision (`verify_invariants`),
        #: and every option is played ahead before it is offered (a fault in its turn is raised
        #: by `legal_moves`). Off unless asked for: play and simulation then pay nothing for them.
        self.check_invariants = False
        # For undo: the action number of each decision made (None where only the label is
        # known, in a loaded game), the decision point of each, and checkpoints (decisions
        # made, snapshot) to play forward from.
        self._actions: list[int | None] = [None] * len(history)
        self._points: list[object | None] = [None] * len(history)
        self._checkpoints: collections.deque[tuple[int, tuple[Any, ...]]] = collections.deque(maxlen=CHECKPOINTS_KEPT)
        if history:  # a loaded game: a rule failing on its next move brings it back here
            self._checkpoints.append((len(history), state.snapshot(compact=True)))
        # The pending decision: its options (once worked out) and their moves (once asked
        # for). `_point` changes whenever the game moves on, so that old moves are refused.
        self._options: list[Any] | None = None
        self._moves: list[Move] | None = None
        self._point: object | None = None  # made when a move is first offered
        self._player: int | None = None  # who decides now, once worked out
        # What determinize learnt from the event log: (player, events read, what they know).
        self._tracked: tuple[int, int, dict[int, int]] | None = None

    # Reading.
    @property
    def state(self) -> State:
        """The runtime state: for the library's own saves and tools, not a stable API."""
        return self._s

    @property
    def players(self) -> int:
        """How many players play."""
        return self._s.nplayers

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._s.over

    @property
    def end_reason(self) -> str | None:
        """Why the game ended; None while it goes on."""
        return self._s.end_reason

    @property
    def turn_count(self) -> int:
        """How many turns have begun."""
        return self._s.turn_count

    @property
    def to_move(self) -> int | None:
        """The player who owes the pending decision; None once the game is over."""
        if self._s.over:
            return None
        return self._decider()

    def _decider(self) -> int:
        """The player of the pending decision, worked out once per decision."""
        if self._player is None:
            self._player = self._interp.chooser(self._s)
        return self._player

    @property
    def prompt(self) -> str | None:
        """What the pending decision asks; None once the game is over."""
        return None if self._s.over else self._interp.prompt(self._s)

    @property
    def events(self) -> list[Event]:
        """Everything that has happened, oldest first."""
        return list(self._s.events)

    def _legal(self) -> list[Value]:
        """The options of the pending decision that can be completed into a legal turn."""
        if self._options is None:
            s, interp = self._s, self._interp
            try:
                options, self._player = interp.decide(s)
            except DeadEnd as exc:
                msg = f"a rule failed while listing moves: {exc}"
                raise RuleRuntimeError(msg) from None
            if not options:
                msg = (f"player {interp.chooser(s)} has no legal option at {self.prompt!r}; "
                       "the rules need a way out (an 'otherwise' option)")
                raise RuleRuntimeError(msg, interp.span(s))
            if self.check_invariants:
                interp.check_options(s, options, self._decider())
            self._options = options
        return self._options

    def legal_moves(self) -> list[Move]:
        """Lists the options of the pending decision that can be completed into a legal turn."""
        if self._s.over:
            return []
        moves = self._moves
        if moves is None:
            options = self._legal()
            player = self._decider()
            point = self._point
            if point is None:
                point = self._point = object()
            labels = self._interp.option_labels(self._s, options)
            moves = self._moves = offered(labels, player, options, point)
        return moves.copy()

    def legal_actions(self) -> list[int]:
        """The legal moves as numbers, in the order of `legal_moves()`.

        The fast path, for programs that need no labels: `apply_action(i)` plays the i-th.
        """
        if self._s.over:
            return []
        return list(range(len(self._legal())))

    def play(self, move: Move | str) -> None:
        """Plays a legal move or its label; raises IllegalMove and changes nothing otherwise."""
        if self._s.over:
            shown = _shown(getattr(move, "label", move), 80)
            msg = f"the game is over ({self._s.end_reason}); no move {shown} can be played"
            raise IllegalMove(msg)
        if isinstance(move, Move) and move.offered_at is not None and move.offered_at is self._point:
            for i, m in enumerate(self._moves or ()):  # offered here: found by identity, no label compared
                if m is move:
                    self._apply(self._legal(), i, move.label)
                    return
        moves = self.legal_moves()
        if isinstance(move, Move):
            if move.offered_at is not None and move.offered_at is not self._point:
                msg = f"move {move.label!r} was offered at another decision or in another game"
                raise IllegalMove(msg)
            if move.player != moves[0].player:
                msg = f"move {move.label!r} is for player {move.player}, but player {moves[0].player} decides now"
                raise IllegalMove(msg)
        label = move.label if isinstance(move, Move) else move
        for i, m in enumerate(moves):
            if m.label == label:
                self._apply(self._legal(), i, label)
                return
        offered = ", ".join(m.label for m in moves)
        msg = f"{_shown(label, 80)} is not a legal move for player {moves[0].player} now; legal: {offered}"
        raise IllegalMove(msg)

    def apply_action(self, action: int) -> None:
        """Plays the action-th legal move (see `legal_actions`).

        Raises IllegalMove and changes nothing on a number that is not one.
        """
        if self._s.over:
            msg = f"the game is over ({self._s.end_reason}); no action {_shown(action)} can be played"
            raise IllegalMove(msg)
        options = self._options
        if options is None:
            options = self._legal()
        if type(action) is not int or not 0 <= action < len(options):
            msg = f"action {_shown(action)} is not one of the {len(options)} legal actions (0 to {len(options) - 1})"
            raise IllegalMove(msg)
        self._apply(options, action, self._moves[action].label if self._moves is not None else None)

    def _apply(self, options: list[Value], i: int, label: str | None) -> None:
        """Plays the i-th of the pending decision's `options` (those `_legal` found)."""
        s, interp = self._s, self._interp
        player = self._player
        if player is None:
            player = self._decider()
        made = len(self.history)
        if made % CHECKPOINT_EVERY == 0 and (not self._checkpoints or self._checkpoints[-1][0] != made):
            self._checkpoints.append((made, s.snapshot(compact=True)))
        try:
            label = interp.take(s, options, i, player, label)
            interp.run(s)
            if self.check_invariants:
                self.verify_invariants(made + 1)
        except DeadEnd as exc:
            self._rebuild(made)
            msg = f"a rule failed outside any choice: {exc}"
            raise RuleRuntimeError(msg) from None
        except BaseException:
            # A rule failed on the way: the game goes back to where it was, played forward from
            # its last checkpoint (no copy is taken before each move).
            self._rebuild(made)
            raise
        self.history.append(label)
        self._actions.append(i)
        self._points.append(self._point)
        self._options = self._moves = self._player = self._point = None

    def _moved_on(self, point: object | None) -> None:
        self._options = self._moves = self._player = None
        self._point = point

    def _advance(self) -> None:
        try:
            self._interp.run(self._s)
        except DeadEnd as exc:
            msg = f"a rule failed outside any choice: {exc}"
            raise RuleRuntimeError(msg) from None

    def verify_invariants(self, decision: int | None = None) -> None:
        """Checks every invariant the rules declare, as the game stands now.

        Args:
            decision: the number of decisions made, for the error; `len(history)` by default.

        Raises:
            InvariantError: an invariant is false (the first one, in the order declared).
            RuleRuntimeError: an invariant failed to evaluate (a bad value in it).
        """
        program = self.rules.program
        s = self._s
        saved_work = s.work
        try:
            for inv, fn in program.invariants:
                for p in (range(s.nplayers) if inv.param is not None else (None,)):
                    s.work = WORK_LIMIT
                    try:
                        value = fn(s, {inv.param: p} if inv.param is not None else {})
                    except RULE_FAULTS as exc:
                        raise RuleRuntimeError(rule_fault(exc), program.locate(exc.__traceback__)) from None
                    if value is not True:
                        if value is not False:
                            msg = f"an invariant is true or false, not {value!r:.60}"
                            raise RuleRuntimeError(msg, inv.span)
                        made = len(self.history) if decision is None else decision
                        raise InvariantError(inv.name, inv.span, p, made, self.seed)
        finally:
            s.work = saved_work

    def undo(self) -> None:
        """Returns to the previous decision point."""
        if not self.history:
            msg = "nothing to undo"
            raise IllegalMove(msg)
        if None in self._actions:  # loaded without checking its history: checked now
            self._check_history()
        self._rebuild(len(self.history) - 1)
        self.history.pop()
        self._actions.pop()
        self._moved_on(self._points.pop())  # back at that decision: its moves are good again

    def _rebuild(self, made: int) -> None:
        """Brings the state back to how it was after `made` decisions.

        It starts from the latest checkpoint at or before it, or from the start, and plays the
        decisions after it again.
        """
        while self._checkpoints and self._checkpoints[-1][0] > made:
            self._checkpoints.pop()
        if self._checkpoints:
            start, snap = self._checkpoints[-1]
            self._s.restore(snap)
        else:
            start = 0
            self._s = self.rules.new_game(players=self.players, seed=self.seed, options=self.options,
                                          position=self.position).state
            self._checkpoints.append((0, self._s.snapshot(compact=True)))
        s, interp = self._s, self._interp
        for n in range(start, made):
            if n % CHECKPOINT_EVERY == 0 and n != start:  # the undos that follow start nearer
                self._checkpoints.append((n, s.snapshot(compact=True)))
            options, chooser = interp.decide(s)
            action = self._actions[n]
            label = self.history[n]
            if action is None:  # a loaded game's decision: known by its label only
                labels = interp.option_labels(s, options)
                if label not in labels:
                    msg = f"decision {n + 1} of the saved history, {label!r:.60}, is not offered there"
                    raise StateError(msg)
                action = self._actions[n] = labels.index(label)
            interp.apply(s, options[action], chooser, label)
            interp.run(s)

    def _check_history(self) -> None:
        """Checks the history of a game loaded without that check, at its first undo.

        If it does not lead to the loaded state, the game stays as it was loaded.
        """
        loaded, actions, kept = self._s, list(self._actions), list(self._checkpoints)
        try:
            self._replay_history()
        except StateError as exc:
            self._s, self._actions = loaded, actions
            self._checkpoints.clear()
            self._checkpoints.extend(kept)
            msg = f"this saved game cannot be undone: {exc}"
            raise StateError(msg) from None

    def _replay_history(self) -> None:
        """Checks that a loaded game's history leads from its start to the state it was saved in.

        It plays the history again, which leaves the checkpoints that undo starts from.
        """
        loaded = self._s
        self._checkpoints.clear()
        try:
            self._rebuild(len(self.history))
        except (StateError, RuleRuntimeError, DeadEnd) as exc:
            msg = f"its history cannot be played again: {exc}"
            raise StateError(msg) from None
        difference = _first_difference(self._s, loaded)
        if difference is not None:
            msg = f"its history does not lead from its start to the state it was saved in: {difference}"
            raise StateError(msg)

    def clone(self) -> Game:
        """An independent copy of the game, cheap enough for search.

        It shares the rules and the pieces (which never change), and copies what moves change.
        """
        # Made with no history, or it would take a checkpoint of its own, as a loaded game does.
        twin = Game(self.rules, self._s.copy(), seed=self.seed, options=self.options, position=self.position,
                    history=[])
        # Checkpoints never change, so the twin shares them; its decision points are its own,
        # so that moves offered by this game stay this game's.
        twin.history = list(self.history)
        twin._actions = list(self._actions)
        twin._points = [None] * len(self.history)
        # The same state offers the same options: the look-ahead is not run again for the twin.
        twin._options, twin._player = self._options, self._player
        twin.check_invariants = self.check_invariants
        twin._checkpoints = collections.deque(self._checkpoints, maxlen=CHECKPOINTS_KEPT)
        return twin

    def determinize(self, player: int, rng: random.Random) -> Game:
        """A copy in which what `player` cannot see is dealt again at random, consistent with what they know.

        Their `view` of the copy is the same; hidden zones, others' own zones, the order of bags
        and the random draws to come may differ (docs/reference/agents.md says what a player
        knows). The copy is for search: its history starts here, so undo stops here.

        Raises:
            OptionError: `player` is not a player of this game.
        """
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < self.players:
            msg = f"no player {player!r} in a {self.players}-player game"
            raise OptionError(msg)
        s = self._s
        cached = self._tracked
        if cached is None or cached[:2] != (player, len(s.events)):
            cached = self._tracked = (player, len(s.events), tracked(s, visible_slots(s, player)))
        twin_state = s.copy()
        determinize(twin_state, player, rng, cached[2])
        twin = Game(self.rules, twin_state, seed=twin_state.seed, options=self.options, position=None, history=[])
        twin._checkpoints.append((0, twin_state.snapshot(compact=True)))
        return twin

    def outcome(self) -> Outcome | None:
        """How the game ended; None while it goes on."""
        if not self._s.over:
            return None
        return Outcome(str(self._s.end_reason), tuple(self.scores()), tuple(self.winners()))

    def scores(self) -> list[int]:
        """Scores by the ruleset's `score` rule, one per player (defined at any time)."""
        program = self.rules.program
        if program.score is None:
            return [0] * self.players
        return [self._per_player(program.score, program.score_param, p) for p in range(self.players)]

    def heuristic(self, player: int) -> float:
        """How good the game looks for `player`, by the ruleset's `heuristic` (else its score); for agents.

        Raises:
            OptionError: `player` is not a player of this game.
            RuleRuntimeError: the heuristic fails or is not a number.
        """
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < self.players:
            msg = f"no player {player!r} in a {self.players}-player game"
            raise OptionError(msg)
        program = self.rules.program
        if program.heuristic is None:
            return float(self._per_player(program.score, program.score_param, player)) if program.score else 0.0
        value = self._evaluate(program.heuristic, program.heuristic_param, player)
        if type(value) not in {int, float}:
            msg = f"a heuristic must be a number, not {value!r:.60} (player {player})"
            raise RuleRuntimeError(msg, program.locate_fn(program.heuristic))
        return float(value)

    def _evaluate(self, fn: SiteFn, param: str, p: int) -> Value:
        """An expression of player p; faults point at the rule."""
        s = self._s
        s.work = WORK_LIMIT
        try:
            return fn(s, {param: p})
        except RULE_FAULTS as exc:
            span = self.rules.program.locate(exc.__traceback__)
            msg = rule_fault(exc)
            raise RuleRuntimeError(msg, span) from None

    def _per_player(self, fn: SiteFn, param: str, p: int) -> int:
        """A score or tiebreak of player p; faults point at the rule."""
        value = self._evaluate(fn, param, p)
        if type(value) is not int:
            msg = f"a score or tiebreak must be a whole number, not {value!r:.60} (player {p})"
            raise RuleRuntimeError(msg, self.rules.program.locate_fn(fn))
        return value

    def _rank_keys(self) -> list[tuple[int, ...]]:
        program = self.rules.program
        scores = self.scores()
        return [(scores[p], *(self._per_player(tb, param, p) for tb, param in program.tiebreaks))
                for p in range(self.players)]

    def winners(self) -> list[int]:
        """Players with the best score, ties broken by the ruleset's tiebreaks, then shared."""
        if not self._s.over:
            return []
        keys = self._rank_keys()
        best = max(keys)
        return [p for p in range(self.players) if keys[p] == best]

    # Inspection, mainly for tests and hosts that know the whole state.
    def zone(self, name: str, *index: object) -> list[dict[str, Any]]:
        """Contents of one zone (top/first first), each piece as its public attributes.

        On a grid zone, bottom level first, each with its `cells` and `level`.
        """
        key = (name, *index) if index else name
        slot = self._s.layout.zslot.get(key) if _hashable(key) else None
        if slot is None:
            msg = f"no zone {key_text(key)!r}"
            raise KeyError(msg)
        return self._contents(slot)

    def zones(self) -> dict[str, list[dict[str, Any]]]:
        """Every zone's contents by its text key."""
        return {text: self._contents(i) for i, text in enumerate(self._s.layout.zone_text)}

    def _contents(self, slot: int) -> list[dict[str, Any]]:
        s = self._s
        return public_pieces(s, slot) if slot in s.boards else [p.public() for p in s.zones[slot]]

    def var(self, name: str, *index: object) -> Value:
        """A variable's value, as the rules hold it (omniscient, like `zone`)."""
        key = (name, *index) if index else name
        if not _hashable(key) or key not in self._s.vars:
            msg = f"no variable {key_text(key)!r}"
            raise KeyError(msg)
        return self._s.vars[key]

    def view(self, player: int) -> dict[str, Any]:
        """What `player` may know: hidden zones and others' private zones show only their size."""
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < self.players:
            msg = f"no player {player!r} in a {self.players}-player game"
            raise OptionError(msg)
        s, lay = self._s, self._s.layout
        zones: dict[str, Any] = {}
        for i, key in enumerate(lay.zone_keys):
            zdef = lay.zone_defs[i]
            visible = zdef.visibility == "public" or (zdef.visibility == "owner" and lay.zone_owner[i] == player)
            if not visible:
                zones[key_text(key)] = unseen_zone(s, s.zones[i], player)
            elif zdef.kind == "bag":
                # Anyone may see what a bag holds, not the order it will be drawn in.
                zones[key_text(key)] = sorted(self._contents(i), key=lambda p: (p["type"], p["label"]))
            else:
                zones[key_text(key)] = self._contents(i)
        to_move = self.to_move  # works out the chooser: once
        view: dict[str, Any] = {
            "player": player,
            "players": self.players,
            "zones": zones,
            "vars": {key_text(k): _plain(v) for k, v in s.vars.items()},
            "turn": s.turn_count,
            "to_move": to_move,
            "is_over": s.over,
            "end_reason": s.end_reason,
        }
        if not s.over and to_move == player:
            view["prompt"] = self.prompt
            view["legal_moves"] = [m.label for m in self.legal_moves()]
        if s.over:
            view["scores"] = self.scores()
            view["winners"] = self.winners()
        return view

    def to_json(self) -> str:
        """Serializes the whole game, mid-turn included; `Ruleset.load_game` continues it."""
        return self.rules.dump_game(self)


def loaded_game(rules: Ruleset, state: State, *, seed: int, options: dict[str, Any],
                position: dict[str, Any] | None, history: list[str]) -> Game:
    """A game read from a save, once its history is known to lead from its start to `state`.

    Playing the history again holds every claim of the save (which zone holds which piece, the
    kinds of variables and of locals, the events) to what the rules do, whatever a hand or a
    fault wrote; and it leaves the checkpoints that undo starts from, so that undo after a
    load is as fast as in a game played here. Raises StateError naming the first difference.
    """
    game = Game(rules, state, seed=seed, options=options, position=position, history=history)
    game._replay_history()  # noqa: SLF001 - its own module's class
    return game


def _first_difference(played: State, saved: State) -> str | None:
    """Where a saved state differs from the one its history gives, as a path in the save's JSON.

    Values compare by their repr, so that 1 and true differ as they do in the save.
    """
    for path, was, gives in _parts(played, saved):
        if repr(was) != repr(gives):
            return f"{path} is {_shown(was, 80)}, the history gives {_shown(gives, 80)}"
    return None


def _parts(played: State, saved: State) -> Iterator[tuple[str, object, object]]:
    """The parts of a saved state and of the played one, pair by pair, each named by its path."""
    lay = played.layout
    for slot, text in enumerate(lay.zone_text):
        yield f"$.zones[{text!r}]", [p.id for p in saved.zones[slot]], [p.id for p in played.zones[slot]]
    for text, key in lay.var_by_text.items():
        yield f"$.vars[{text!r}]", saved.vars.get(key), played.vars.get(key)
    yield "$.frames", [f[:2] for f in saved.frames], [f[:2] for f in played.frames]
    for i, (a, b) in enumerate(zip(saved.frames, played.frames, strict=True)):  # the same procedures
        for name in sorted({*a[2], *b[2]}):
            yield f"$.frames[{i}].locals[{name!r}]", a[2].get(name), b[2].get(name)
    for field in ("rng_draws", "turn_count", "turn_player", "over", "end_reason"):
        yield f"$.{field}", getattr(saved, field), getattr(played, field)
    yield "$.boards", saved_boards(saved), saved_boards(played)
    yield "$.known", sorted(saved.known.items()), sorted(played.known.items())
    for i, (event, again) in enumerate(zip(saved.events, played.events, strict=False)):
        yield f"$.events[{i}]", event, again
    yield "the number of $.events", len(saved.events), len(played.events)


def _shown(value: object, width: int = 40) -> str:
    """A value as an error message shows it: short, even for a number too long to print."""
    if type(value) is int and value.bit_length() > _SHOWN_BITS:
        return f"<a number of {value.bit_length()} bits>"
    return f"{value!r:.{width}}"


def _hashable(key: object) -> bool:
    try:
        hash(key)
    except TypeError:
        return False
    return True


def _plain(v: object) -> object:
    """A rule value as plain data: pieces as their public attributes, tuples as lists."""
    if isinstance(v, Piece):
        return v.public()
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def start(rules: Ruleset, players: int, seed: int, options: dict[str, Any],
          position: dict[str, Any] | None, *, check_invariants: bool = False) -> Game:
    """Builds a game: runs setup, applies a position if given, then runs to the first decision.

    With `check_invariants`, the rules' invariants are checked there and after every decision.
    """
    program = rules.program
    s = State(program, rules.layout(players), players, options, seed)
    _init_vars(s, program)
    interp = rules.interpreter
    if "setup" in program.game.procs:
        _setup(s, interp)
    if position is not None:
        apply_position(s, position)
        s.forget()
        # The game keeps the position (for saving, and undo to the start): the caller's dict
        # may change afterwards. Copied once checked, so that no junk reaches deepcopy.
        position = copy.deepcopy(position)
    s.frames = [["play", 0, {"$actor": None}, False]]
    game = Game(rules, s, seed=seed, options=options, position=position, history=[])
    game.check_invariants = check_invariants
    if position is None:
        game._advance()  # noqa: SLF001 - `start` is the Game's constructor in all but name
        if check_invariants:
            game.verify_invariants()
        return game
    # Some impossible positions show only when play runs on them (a start player who is not
    # one): the rules run well from every dealt start, so blame the position.
    try:
        game._advance()  # noqa: SLF001 - as above
        if not s.over:
            interp.chooser(s)
    except RuleRuntimeError as exc:
        msg = f"the position cannot be played: {exc}"
        raise StateError(msg) from None
    if check_invariants:
        game.verify_invariants()
    return game


def _init_vars(s: State, program: Program) -> None:
    """Gives every variable its initial value, in the order they are declared."""
    for key in s.layout.var_keys:
        name = key[0] if isinstance(key, tuple) else key
        try:
            s.vars[key] = program.var_init[name](s, {})
        except RULE_FAULTS as exc:
            msg = rule_fault(exc)
            raise RuleRuntimeError(msg, program.game.vars[name].span) from None
        s.forget()  # initial values may have read variables not yet set


def _setup(s: State, interp: Interpreter) -> None:
    """Runs the setup procedure, which must neither ask for a decision nor end the game."""
    s.frames = [["setup", 0, {"$actor": None}, False]]
    try:
        outcome = interp.run(s)
    except DeadEnd as exc:
        msg = f"a rule failed in setup: {exc}"
        raise RuleRuntimeError(msg) from None
    if outcome == DECISION:
        msg = "setup must not ask for decisions; put them in 'play'"
        raise RuleRuntimeError(msg)
    if s.over:
        msg = f"setup ended the game ({s.end_reason}); end it in 'play'"
        raise RuleRuntimeError(msg)
