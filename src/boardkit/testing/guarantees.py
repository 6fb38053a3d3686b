"""The engine's general guarantees, checked on a game as it is played.

Any ruleset gets them: the invariants its rules declare (checked by the game itself, with
`check_invariants=True`), and what ARCHITECTURE.md promises of every game: JSON round trips
that continue identically, determinism, atomic refusals, no dead ends, views that hold nothing
hidden, undo, and games that end (or are reported stalled at a bound). Nothing here knows a game.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable
from typing import Any

import attrs

from boardkit.errors import IllegalMove, StateError
from boardkit.game import Game
from boardkit.registry import Ruleset

# The most decisions one turn may take, when a dead-end check plays it to its end.
TURN_DECISIONS = 500


# The guarantees, as a GuaranteeError names them.
MOVES, ATOMIC, ROUND_TRIP, HIDDEN, DEAD_END, UNDO, DETERMINISM, STALLED = (
    "moves", "atomic", "round trip", "hidden information", "dead end", "undo", "determinism", "stalled")


class GuaranteeError(AssertionError):
    """A game broke one of the engine's guarantees (not an invariant of its rules).

    `guarantee` names it: "moves", "atomic" (a move not offered is refused and changes
    nothing), "round trip", "determinism", "dead end", "hidden information", "undo" or "stalled".
    """

    def __init__(self, guarantee: str, message: str) -> None:
        self.guarantee = guarantee
        super().__init__(f"{guarantee}: {message}")


@attrs.frozen
class Checks:
    """Which guarantees to check, and how often.

    The costly ones (round trip, views, undo, dead ends) run every `every` decisions and at the
    start; the cheap ones, and the invariants, after every decision.
    """

    max_decisions: int = 2000
    """The step bound: a game still on after this many decisions is reported stalled."""
    every: int = 10
    """How often (in decisions) the costly guarantees are checked: 1 checks them at every decision."""
    follow: int = 3
    """How many decisions a game loaded from JSON is played beside the original."""
    stall_fails: bool = False
    """Whether a stalled game is a failure (for rules that promise to end) or only reported."""
    watcher: Callable[[Game], Callable[[], None]] | None = None
    """Checks of the caller's own: called with each new game (it may check the start), it
    returns a function run after every decision of that game, which raises to fail. It can keep
    what it saw before, for properties over time (what only grows, what one decision changes)."""


@attrs.define
class Run:
    """One game as it is played: its start and the actions taken, kept up to date.

    When a check fails, the run holds exactly what leads to the failure.
    """

    rules: Ruleset
    players: int
    seed: int
    options: dict[str, Any]
    actions: list[int] = attrs.field(factory=list)
    labels: list[str] = attrs.field(factory=list)
    ended: bool = False
    stalled: bool = False


def play_checked(run: Run, choose: Callable[[int], int], checks: Checks) -> Game:
    """Plays the game of `run`, choosing actions with `choose(n)` (an index below n).

    Checks the invariants after every decision and the guarantees as `checks` says.

    Returns:
        The game, ended or stopped at the step bound.

    Raises:
        InvariantError: an invariant of the rules is false.
        RuleRuntimeError: a rule failed.
        GuaranteeError: a guarantee of the engine does not hold.
    """
    rules = run.rules
    game = rules.new_game(players=run.players, seed=run.seed, options=run.options, check_invariants=True)
    watch = _Watch(rules, game, checks, random.Random(run.seed))  # noqa: S311 - rearranges hidden pieces, no secret
    watch.check_point()
    while not game.is_over and len(run.actions) < checks.max_decisions:
        n = len(game.legal_actions())
        if n == 0:
            msg = "a game that is not over offers no move"
            raise GuaranteeError(MOVES, msg)
        action = choose(n)
        run.actions.append(action)
        costly = len(run.actions) % checks.every == 0
        try:
            if costly:
                watch.check_undo(action)
            game.apply_action(action)
        except BaseException:
            # The game is back before the decision: name it in the trace, if it can be named.
            with contextlib.suppress(Exception):
                run.labels.append(game.legal_moves()[action].label)
            raise
        run.labels.append(game.history[-1])
        watch.after(action, costly=costly)
    run.ended = game.is_over
    run.stalled = not game.is_over
    if run.stalled and checks.stall_fails:
        msg = f"the game is still on after {checks.max_decisions} decisions"
        raise GuaranteeError(STALLED, msg)
    watch.check_replay(run)
    return game


class _Watch:
    """Checks one game's guarantees as it goes."""

    def __init__(self, rules: Ruleset, game: Game, checks: Checks, rng: random.Random) -> None:
        self.rules = rules
        self.game = game
        self.checks = checks
        self.rng = rng
        self.shadows: list[tuple[Game, int]] = []  # games loaded from JSON, and how long to follow them
        self.own = checks.watcher(game) if checks.watcher is not None else None

    def after(self, action: int, *, costly: bool) -> None:
        game = self.game
        self._follow(action)
        if game.is_over and (game.legal_actions() or game.to_move is not None):
            msg = "a game that is over still offers moves"
            raise GuaranteeError(MOVES, msg)
        if self.own is not None:
            self.own()
        if costly or game.is_over:
            self.check_point()

    def check_point(self) -> None:
        """The costly checks, as the game stands."""
        self._moves()
        self._atomic()
        self._round_trip()
        self._views()
        self._dead_ends()

    def _moves(self) -> None:
        game = self.game
        if game.is_over:
            return
        labels = [m.label for m in game.legal_moves()]
        if len(set(labels)) != len(labels) or not all(labels):
            msg = f"move labels are not unique and non-empty: {labels!r:.200}"
            raise GuaranteeError(MOVES, msg)
        if len(labels) != len(game.legal_actions()):
            msg = "legal_moves() and legal_actions() disagree"
            raise GuaranteeError(MOVES, msg)

    def _atomic(self) -> None:
        """Moves that are not offered raise IllegalMove and change nothing."""
        game = self.game
        before = game.to_json()
        labels = {m.label for m in game.legal_moves()}
        near = {x for label in labels for x in (label.upper(), f" {label}", f"{label} ", label[:-1])} - labels
        for bad in sorted(near)[:8]:
            self._refused(game.play, bad, before)
        for action in (-1, len(game.legal_actions())):
            self._refused(game.apply_action, action, before)

    def _refused(self, attempt: Callable[[Any], None], move: object, before: str) -> None:
        what = f"move {move!r}"
        try:
            attempt(move)
        except IllegalMove:
            if self.game.to_json() != before:
                msg = f"the refused {what} changed the game"
                raise GuaranteeError(ATOMIC, msg) from None
        else:
            msg = f"{what}, not offered, was played"
            raise GuaranteeError(ATOMIC, msg)

    def _round_trip(self) -> None:
        game = self.game
        text = game.to_json()
        loaded = self.rules.load_game(text, check_invariants=True)
        if loaded.to_json() != text:
            msg = "a game loaded from its JSON saves to different JSON"
            raise GuaranteeError(ROUND_TRIP, msg)
        if loaded.legal_actions() != game.legal_actions() or loaded.to_move != game.to_move:
            msg = "a game loaded from its JSON offers other moves"
            raise GuaranteeError(ROUND_TRIP, msg)
        if self.checks.follow > 0 and not game.is_over:
            self.shadows.append((loaded, self.checks.follow))

    def _follow(self, action: int) -> None:
        kept = []
        text = self.game.to_json() if self.shadows else ""
        for shadow, left in self.shadows:
            shadow.apply_action(action)
            if shadow.to_json() != text:
                msg = "a game loaded from JSON went on differently from the original"
                raise GuaranteeError(ROUND_TRIP, msg)
            if left > 1 and not shadow.is_over:
                kept.append((shadow, left - 1))
        self.shadows = kept

    def _views(self) -> None:
        game = self.game
        text = game.to_json()
        for p in range(game.players):
            view = game.view(p)
            json.dumps(view)  # plain data
            other = _rearranged(text, view, p, self.rng)
            if other is None:
                continue
            try:
                # A state its moves do not lead to, on purpose: loaded on the checks of its shape alone.
                twin = self.rules.load_game(other, check_history=False)
            except StateError:
                continue  # rearranged into a state the loader refuses: nothing to compare
            if twin.view(p) != view:
                msg = f"player {p}'s view changes when what they cannot see is rearranged"
                raise GuaranteeError(HIDDEN, msg)

    def _dead_ends(self) -> None:
        game = self.game
        if game.is_over:
            return
        turn = game.turn_count
        for action in game.legal_actions():
            trial = game.clone()
            # Invariants are the played game's to find: a failure here would have no trace.
            trial.check_invariants = False
            trial.apply_action(action)
            # The turn must go on to its end: taking the first move each time, it does.
            for _ in range(TURN_DECISIONS):
                if trial.is_over or trial.turn_count != turn:
                    break
                if not trial.legal_actions():
                    msg = f"action {action} leads to a decision without moves"
                    raise GuaranteeError(DEAD_END, msg)
                trial.apply_action(0)

    def check_undo(self, action: int) -> None:
        """Plays `action` on a copy, undoes it, and checks the copy is back where it was."""
        game = self.game.clone()
        before = game.to_json()
        game.apply_action(action)
        after = game.to_json()
        game.undo()
        if game.to_json() != before:
            msg = f"undoing action {action} does not return to the state before it"
            raise GuaranteeError(UNDO, msg)
        game.apply_action(action)
        if game.to_json() != after:
            msg = f"action {action} played again after an undo gives another state"
            raise GuaranteeError(UNDO, msg)

    def check_replay(self, run: Run) -> None:
        """The same seed, options and actions give the same game."""
        again = self.rules.new_game(players=run.players, seed=run.seed, options=run.options)
        for action in run.actions:
            again.apply_action(action)
        if again.to_json() != self.game.to_json():
            msg = "the same seed and actions played again give another game"
            raise GuaranteeError(DETERMINISM, msg)


def _rearranged(text: str, view: dict[str, Any], player: int, rng: random.Random) -> str | None:
    """The saved game with what `player` cannot see rearranged; None once the game is over.

    Pieces the player does not know are shuffled among the zones they cannot see, each type
    among its own kind, zone sizes kept; the seed changes too (the RNG is hidden).
    """
    doc = json.loads(text)
    if doc["over"]:
        return None  # the scores of an ended game are public, and they read hidden zones
    boards = doc.get("boards") or {}
    known = set(doc["known"][player])
    unseen = [k for k, v in view["zones"].items() if isinstance(v, dict) and k not in boards]
    slots: dict[str, list[tuple[str, int]]] = {}
    for key in unseen:
        for i, piece in enumerate(doc["zones"][key]):
            if piece not in known:
                slots.setdefault(doc["pieces"][piece]["type"], []).append((key, i))
    for places in slots.values():
        ids = [doc["zones"][k][i] for k, i in places]
        rng.shuffle(ids)
        for (k, i), piece in zip(places, ids, strict=True):
            doc["zones"][k][i] = piece
    doc["seed"] = doc["seed"] + 1
    return json.dumps(doc, separators=(",", ":"))
