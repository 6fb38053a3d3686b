"""A table: one game served to seats and a host, with agents, undo, saves, replay and rule reloads.

Nothing here knows HTTP: `boardkit.tools.web.app` maps requests onto a `Table` and its errors
onto status codes. Every payload a seat receives is built from `Game.view` of that seat; only
the host (who holds the table token and sees everything) gets the omniscient one.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boardkit.agents import make_agent
from boardkit.errors import BoardkitError, IllegalMove, OptionError, RuleError, StateError
from boardkit.registry import list_rulesets
from boardkit.runtime.events import (
    Chose,
    Created,
    GameEnded,
    Logged,
    Moved,
    Peeked,
    Placed,
    Revealed,
    Shuffled,
    TurnStarted,
    VarSet,
)
from boardkit.runtime.pieces import Piece, label_of
from boardkit.tools.simulate import AGENT_SEED_FACTOR

if TYPE_CHECKING:
    from collections.abc import Callable

    from boardkit.agents import Agent
    from boardkit.game import Game
    from boardkit.registry import Ruleset
    from boardkit.runtime.events import Event

HUMAN = "human"
"""The seat kind played from a browser; any other kind is an agent spec for `make_agent`."""

LOG_LINES = 300
"""The newest log lines a payload carries: the page shows the recent past, not the whole game."""

_CELL = re.compile(r"\d+,\d+")
_TOLD_APART = re.compile(r"( from \S+)?( #\d+)?$")

AGENT_MOVES = 20000
"""The most agent moves one request plays: a game that agents never end stops there."""

SEED_BELOW = 10**15
"""Fresh seeds are drawn below this: unguessable, yet exact as a number in the page's JavaScript."""


def fresh_seed() -> int:
    """A seed nobody can guess: a seat that knew it could rebuild every hidden zone."""
    return secrets.randbelow(SEED_BELOW)


class AccessError(BoardkitError):
    """A request the table refuses: an unknown token, or a seat acting for another."""


class StaleError(BoardkitError):
    """A request made for a version of the game that has since moved on."""


class MissingError(BoardkitError):
    """A rule file the table was asked to load that is not there (or cannot be read)."""


class Replay:
    """A game stepped through forwards and back: its start and the labels of its decisions."""

    def __init__(self, start: Game, labels: list[str]) -> None:
        self._start = start.clone()
        self.game = start
        self.labels = labels
        self.step = 0

    def go(self, step: int) -> None:
        """Moves to just after `step` decisions (clamped to the replay's length)."""
        step = max(0, min(step, len(self.labels)))
        if step < self.step and self.step - step > step:
            # Far back: playing forward from the start is cheaper than undoing every decision.
            self.game, self.step = self._start.clone(), 0
        while self.step > step:
            self.game.undo()
            self.step -= 1
        while self.step < step:
            self.game.play(self.labels[self.step])
            self.step += 1


class Table:
    """One game of a ruleset, its seats (humans or agents), tokens, and an optional replay.

    Every method that changes the game takes the version the caller saw and refuses a stale
    one, so that a click made on an old board is not played on a new one.
    """

    def __init__(self, rules: Ruleset, *, seats: list[str], seed: int | None = None,
                 options: dict[str, Any] | None = None, watch: bool = False,
                 loader: Callable[[str], Ruleset] | None = None) -> None:
        self.rules = rules
        self.seed = fresh_seed() if seed is None else seed
        self.watch = watch
        self._loader = loader
        self._seats = list(seats)
        self._lock = threading.RLock()
        self.host_token = secrets.token_urlsafe(12)
        self.version = 0
        self.rule_error: str | None = None
        self.notice: str | None = None
        self.replay: Replay | None = None
        self.game = self._new_game(len(seats), self.seed, options)
        self.seat_tokens = [secrets.token_urlsafe(12) for _ in seats]
        self._agents = self._make_agents()
        self._stamps = self._rule_stamps()
        self._agents_play()

    # Set-up.
    @property
    def seats(self) -> list[str]:
        """The kind of each seat: `human`, or the agent spec that plays it."""
        return list(self._seats)

    def _new_game(self, players: int, seed: int, options: dict[str, Any] | None) -> Game:
        return self.rules.new_game(players=players, seed=seed, options=options)

    def _make_agents(self) -> dict[int, Agent]:
        return {p: make_agent(kind, self.seed * AGENT_SEED_FACTOR + p)
                for p, kind in enumerate(self._seats) if kind != HUMAN}

    def role(self, token: str | None) -> int | None:
        """The seat a token joins (None for the host); raises AccessError for any other token."""
        given = (token or "").encode("utf-8", "surrogateescape")  # compare_digest takes ASCII text only
        if secrets.compare_digest(given, self.host_token.encode()):
            return None
        for seat, known in enumerate(self.seat_tokens):
            if secrets.compare_digest(given, known.encode()):
                return seat
        msg = "unknown token: open the link `boardkit serve` printed for your seat"
        raise AccessError(msg)

    def _host_only(self, role: int | None, what: str) -> None:
        if role is not None:
            msg = f"only the table's host may {what}; seat {role} may not"
            raise AccessError(msg)

    def _fresh(self, version: object) -> None:
        if type(version) is not int:
            msg = f"a request carries the version of the game it was made on, an integer, not {version!r:.40}"
            raise OptionError(msg)
        if version != self.version:
            msg = f"stale request: it was made on version {version} of the game, which is now at version {self.version}"
            raise StaleError(msg)

    def _changed(self) -> None:
        self.version += 1

    # Play.
    def move(self, role: int | None, version: object, label: object) -> None:
        """Plays `label` for the seat deciding now, then lets agents play up to a human decision."""
        with self._lock:
            self.check_rules()
            self._fresh(version)
            if not isinstance(label, str):
                msg = f"a move is named by its label, a string, not {label!r:.40}"
                raise OptionError(msg)
            game = self.game
            if game.is_over:
                game.play(label)  # raises the library's message: the game is over
            decider = game.to_move
            if role is not None and decider != role:
                msg = f"player {decider} decides now, not player {role}: wait for your turn"
                raise AccessError(msg)
            if decider is not None and self._seats[decider] != HUMAN:
                msg = f"player {decider} is played by the {self._seats[decider]} agent, not from a browser"
                raise AccessError(msg)
            game.play(label)
            self.notice = None
            self._changed()
            self._agents_play()

    def agent_step(self, role: int | None, version: object, *, to_end: bool = False) -> None:
        """Lets the agent whose seat decides now play once (or to the game's end): for tables without humans."""
        with self._lock:
            self._host_only(role, "let agents play")
            self._fresh(version)
            game = self.game
            for _ in range(AGENT_MOVES if to_end else 1):
                decider = game.to_move
                if decider is None or self._seats[decider] == HUMAN:
                    break
                game.apply_action(self._agents[decider].act(game))
            self._changed()

    def _agents_play(self) -> None:
        """Agents play while one of them decides, if a human seat waits for them."""
        if HUMAN not in self._seats:
            return
        game = self.game
        for _ in range(AGENT_MOVES):
            decider = game.to_move
            if decider is None or self._seats[decider] == HUMAN:
                return
            game.apply_action(self._agents[decider].act(game))

    def undo(self, role: int | None, version: object) -> None:
        """Takes back decisions until a human seat decides again: the host's alone.

        A seat may not: it would take back other seats' decisions, and a draw it has seen
        would be drawn again from the same deck order, telling it what the deck holds.
        """
        with self._lock:
            self._host_only(role, "undo decisions")
            self._fresh(version)
            game = self.game
            wanted = {p for p, kind in enumerate(self._seats) if kind == HUMAN}
            if not wanted:  # agents only: one decision at a time
                game.undo()
                self._changed()
                return
            made = [e.player for e in game.events if isinstance(e, Chose)]
            if not wanted.intersection(made):
                msg = "nothing to undo: no human seat has made a decision yet"
                raise IllegalMove(msg)
            game.undo()
            while game.to_move not in wanted:
                game.undo()
            self.notice = None
            self._changed()

    def new_game(self, role: int | None, version: object, *, seed: object = None, ruleset: object = None) -> None:
        """Starts again, with the seed given (else a fresh one) and perhaps another ruleset.

        `ruleset` is a bundled name or a path ending in ``.bk``; anything else is refused
        unread, so that the host's page cannot have the server parse (and quote) other files.
        """
        with self._lock:
            self._host_only(role, "start a new game")
            self._fresh(version)
            if seed is not None and (type(seed) is not int):
                msg = f"the seed must be an integer, not {seed!r:.40}"
                raise OptionError(msg)
            if ruleset is not None:
                rules = self._load(self._switchable(ruleset))
                players = min(max(len(self._seats), rules.min_players), rules.max_players)
                self.rules = rules
                self._seats = (self._seats + ["random"] * players)[:players]
                self.seat_tokens = (self.seat_tokens + [secrets.token_urlsafe(12) for _ in range(players)])[:players]
                self._stamps = self._rule_stamps()
                self.rule_error = None
            self.seed = fresh_seed() if seed is None else seed
            self.game = self._new_game(len(self._seats), self.seed, None if ruleset is not None else self.game.options)
            self._agents = self._make_agents()
            self.replay = None
            self.notice = None
            self._changed()
            self._agents_play()

    def _switchable(self, ruleset: object) -> str:
        """`ruleset` if the host may switch to it: a bundled name or a ``.bk`` path."""
        if not isinstance(ruleset, str):
            msg = f"a ruleset is named by a string, not {ruleset!r:.60}"
            raise OptionError(msg)
        bundled = list_rulesets()
        if ruleset not in bundled and not ruleset.endswith(".bk"):
            what = "rule file" if "/" in ruleset or "\\" in ruleset else "bundled ruleset"
            msg = (f"no {what} {ruleset!r:.60}: a table switches to a bundled ruleset"
                   f" ({', '.join(bundled)}) or a rule file whose name ends in .bk")
            raise OptionError(msg)
        return ruleset

    def _load(self, reference: str) -> Ruleset:
        """The rules at `reference` (a bundled name or a rule file), by the table's loader."""
        if self._loader is None:
            msg = f"this table cannot switch to the ruleset {reference!r:.60}"
            raise OptionError(msg)
        if reference not in list_rulesets() and ("\0" in reference or not Path(reference).is_file()):
            msg = f"no rule file {reference!r:.200} on the server"
            raise MissingError(msg)
        try:
            return self._loader(reference)
        except OSError as exc:  # gone or unreadable since the check above
            msg = f"cannot read the rule file {reference!r:.200}: {exc.strerror}"
            raise MissingError(msg) from None

    # Saves and replays.
    def save(self, role: int | None) -> str:
        """The game as JSON (`Game.to_json`): the whole state, so the host's alone."""
        with self._lock:
            self._host_only(role, "save the game")
            return self.game.to_json()

    def load(self, role: int | None, text: str) -> None:
        """Opens a saved game or a simulation record as a replay, at its last decision.

        A record is a `GameRecord` as `boardkit simulate --json` prints it (one game, or a run
        with `games` and an `index` to pick one).
        """
        with self._lock:
            self._host_only(role, "load a game")
            try:
                data = json.loads(text)
            except (ValueError, RecursionError) as exc:  # bad JSON, bad text, too deep, too long a number
                msg = f"not JSON: {exc}"
                raise StateError(msg) from None
            if isinstance(data, dict) and ("agent_seed" in data or "games" in data):
                start, labels = self._record_replay(data)
            else:
                saved = self.rules.load_game(text)
                start = self.rules.new_game(players=saved.players, seed=saved.seed, options=saved.options,
                                            position=saved.position)
                labels = list(saved.history)
            self._start_replay(start, labels, len(labels))

    def _record_replay(self, data: dict[str, Any]) -> tuple[Game, list[str]]:
        """A simulation record's game: its seeds, played again by the random agent it used."""
        players = data.get("players")
        options = data.get("options") or {}
        record: Any = data
        if "games" in data:
            games = data["games"]
            index = data.get("index", 0)
            if not isinstance(games, list) or not games or type(index) is not int or not 0 <= index < len(games):
                msg = "a simulation run needs a non-empty list of games and, to pick one, an index into it"
                raise StateError(msg)
            record = games[index]
        if not isinstance(record, dict) or any(type(record.get(k)) is not int for k in ("seed", "agent_seed")):
            msg = "a simulation record needs integer 'seed' and 'agent_seed' fields"
            raise StateError(msg)
        players = players if type(players) is int else len(self._seats)
        game = self.rules.new_game(players=players, seed=record["seed"], options=options)
        start = game.clone()
        agent = make_agent("random", record["agent_seed"])
        decisions = record.get("decisions")
        limit = decisions if type(decisions) is int else AGENT_MOVES
        while not game.is_over and len(game.history) < limit:
            game.apply_action(agent.act(game))
        return start, list(game.history)

    def _start_replay(self, start: Game, labels: list[str], step: int) -> None:
        replay = Replay(start, labels)
        replay.go(step)
        self.replay = replay
        self._changed()

    def replay_current(self, role: int | None) -> None:
        """Steps through the game being played, from its start."""
        with self._lock:
            self._host_only(role, "replay the game")
            game = self.game
            start = self.rules.new_game(players=game.players, seed=game.seed, options=game.options,
                                        position=game.position)
            self._start_replay(start, list(game.history), len(game.history))

    def replay_go(self, role: int | None, step: object) -> None:
        """Moves the replay to just after `step` decisions."""
        with self._lock:
            self._host_only(role, "step through a replay")
            if self.replay is None:
                msg = "no replay is open"
                raise StateError(msg)
            if type(step) is not int:
                msg = f"a replay step is an integer, not {step!r:.40}"
                raise OptionError(msg)
            self.replay.go(step)
            self._changed()

    def replay_close(self, role: int | None, *, play_on: bool) -> None:
        """Leaves the replay; with `play_on`, its position becomes the game played at the table."""
        with self._lock:
            self._host_only(role, "leave a replay")
            if self.replay is None:
                msg = "no replay is open"
                raise StateError(msg)
            if play_on:
                game = self.replay.game
                if game.players != len(self._seats):
                    msg = f"the replay has {game.players} players; this table seats {len(self._seats)}"
                    raise OptionError(msg)
                self.game = game.clone()
                self.seed = game.seed
                self._agents = self._make_agents()
            self.replay = None
            self._changed()
            if play_on:
                self._agents_play()

    # Watching the rule file.
    def _rule_stamps(self) -> dict[str, float]:
        path = self.rules.source_path
        files = {path, *self.rules.program.game.sources} if path is not None else set()
        return {f: _mtime(f) for f in sorted(files) if Path(f).is_file()}

    def check_rules(self) -> None:
        """With `watch`, reloads edited rules and plays the game's decisions again on them.

        A rule error is kept for the page to show, with the game left as it was.
        """
        if not self.watch or self._loader is None or self.rules.source_path is None:
            return
        with self._lock:
            stamps = {f: _mtime(f) for f in self._stamps}
            if stamps == self._stamps:
                return
            self._stamps = stamps
            try:
                rules = self._load(self.rules.source_path)
            except RuleError as exc:
                self.rule_error = str(exc)
                self._changed()
                return
            except MissingError as exc:  # deleted, or being replaced: the next change of the file reloads it
                self.rule_error = f"{exc}; the game stays on the rules it has"
                self._changed()
                return
            self.rule_error = None
            self._replant(rules)
            self._changed()

    def _replant(self, rules: Ruleset) -> None:
        """Moves the game onto new rules: the same seed, then its decisions while they stay legal."""
        old = self.game
        try:
            game = rules.new_game(players=old.players, seed=old.seed, options=old.options)
        except BoardkitError as exc:
            self.notice = f"the edited rules cannot start this game ({exc}); the old rules stay"
            return
        played = 0
        for label in old.history:
            try:
                game.play(label)
            except BoardkitError:
                break
            played += 1
        self.rules, self.game, self.replay = rules, game, None
        self._stamps = self._rule_stamps()
        self.notice = f"rules reloaded; {played} of {len(old.history)} decisions played again"
        self._agents_play()

    # Payloads.
    def payload(self, role: int | None, viewpoint: int | None = None) -> dict[str, Any]:
        """What the page of `role` shows: a seat's view, or the host's (of everything, or as a seat sees)."""
        with self._lock:
            self.check_rules()
            replay = self.replay if role is None else None  # a replay is the host's; seats see the table
            game = replay.game if replay is not None else self.game
            if role is not None:
                viewpoint = role
            elif viewpoint is not None and (type(viewpoint) is not int or not 0 <= viewpoint < game.players):
                msg = f"no seat {viewpoint!r:.20} to view the game as; seats 0 to {game.players - 1}"
                raise OptionError(msg)
            data = board_payload(game, viewpoint)
            data.update({
                "version": self.version,
                "ruleset": self.rules.name,
                "title": self.rules.title,
                "role": "host" if role is None else "seat",
                "seat": role,
                "viewpoint": viewpoint,
                "seats": self.seats,
                "watch": self.watch,
                "rule_error": self.rule_error,
                "notice": self.notice,
            })
            # Who may click a move here: a human seat deciding, or the host for any human seat.
            live = replay is None
            decider = game.to_move
            human = live and decider is not None and self._seats[decider] == HUMAN
            if not human:
                data["moves"], data["prompt"], data["targets"] = [], None, {}
            if role is None:  # the seed, from which every hidden zone follows, is the host's alone
                data["seed"] = game.seed
                data["rulesets"] = list_rulesets()
                data["agents_to_play"] = live and decider is not None and not human
                if replay is not None:
                    data["replay"] = {"step": replay.step, "steps": len(replay.labels)}
            return data


def board_payload(game: Game, viewpoint: int | None) -> dict[str, Any]:
    """The table as `viewpoint` sees it (None: everything), as plain data for the page.

    For a seat, everything comes from `game.view(viewpoint)`, the rules' zone definitions and
    the events rendered with what that seat saw happen.
    """
    state = game.state  # the library's own tool: layout, boards and pieces by id
    lay = state.layout
    full = game.zones()
    view = game.view(viewpoint if viewpoint is not None else (game.to_move or 0))
    zones = []
    for i, key in enumerate(lay.zone_keys):
        zdef, text = lay.zone_defs[i], lay.zone_text[i]
        entry: dict[str, Any] = {"key": text, "family": zdef.name, "index": list(key[1:]) if isinstance(key, tuple)
                                 else [], "kind": zdef.kind, "visibility": zdef.visibility, "owner": lay.zone_owner[i]}
        seen = full[text] if viewpoint is None else view["zones"][text]
        if isinstance(seen, dict):
            entry.update(hidden=True, count=seen["count"], pieces=[], known=seen.get("known", []))
        else:
            entry.update(hidden=False, count=len(seen), pieces=seen, known=[])
            board = state.boards.get(i)
            if board is not None:
                entry["grid"] = {"w": board.geo.w, "h": board.geo.h,
                                 "shown": {c: label_of(v) for c, v in board.shown.items()}}
        zones.append(entry)
    decider = game.to_move
    moves = [m.label for m in game.legal_moves()] if viewpoint is None else view.get("legal_moves", [])
    seen = {z["key"] for z in zones if not z["hidden"]}
    data: dict[str, Any] = {
        "players": game.players,
        "turn": game.turn_count,
        "to_move": decider,
        "prompt": game.prompt if moves else None,
        "moves": moves,
        "targets": move_targets(game, seen) if moves else {},
        "is_over": game.is_over,
        "end_reason": game.end_reason,
        "zones": zones,
        "vars": view["vars"],
        "decisions": len(game.history),
        "log": log_lines(game, viewpoint, view, full),
    }
    if viewpoint is None or game.is_over:
        data["scores"] = game.scores()
        data["winners"] = game.winners()
    return data


def move_targets(game: Game, seen: set[str]) -> dict[str, dict[str, str]]:
    """What on the table each move names, for the page to make it clickable there.

    A piece (in a zone in `seen`, with its zone and label), cells of a grid ("cells"), or a
    name that pieces may carry ("name", such as a colour); moves naming numbers or lists name nothing.
    """
    state = game.state
    targets: dict[str, dict[str, str]] = {}
    for move in game.legal_moves():
        option = move.option
        if isinstance(option, Piece):
            zone = state.layout.zone_text[state.loc[option.id]]
            if zone in seen:
                targets[move.label] = {"kind": "piece", "zone": zone, "label": option.label}
        elif isinstance(option, str):
            targets[move.label] = {"kind": "cells" if _CELL.fullmatch(option) else "name"}
        elif isinstance(option, (list, tuple)) and option and all(
                isinstance(c, str) and _CELL.fullmatch(c) for c in option):
            targets[move.label] = {"kind": "cells"}
    return targets


def log_lines(game: Game, viewpoint: int | None, view: dict[str, Any], full: dict[str, Any]) -> list[str]:
    """The newest `LOG_LINES` lines of the event log, as `viewpoint` may read it.

    A piece is named where the seat saw it (a zone it sees at either end of a move); another
    player's choice is shown unless its label is that of a piece hidden from the seat. `full`
    is every zone's contents (`Game.zones`), to tell which labels are hidden.
    """
    narrator = _Narrator(game.state.pieces, viewpoint)
    if viewpoint is not None:
        narrator.visible = set()
        for text, seen in view["zones"].items():
            if isinstance(seen, dict):
                unknown = Counter(p["label"] for p in full[text]) - Counter(p["label"] for p in seen.get("known", []))
                narrator.hidden.update(unknown)
            else:
                narrator.visible.add(text)
    lines: list[str] = []
    for event in reversed(game.state.events):  # newest first, and only as far back as the page shows
        line = narrator.line(event)
        if line is not None:
            lines.append(line)
            if len(lines) == LOG_LINES:
                break
    return lines[::-1]


class _Narrator:
    """Tells events as one seat (or, with `viewpoint` None, the host) may read them."""

    def __init__(self, pieces: list[Piece], viewpoint: int | None) -> None:
        self.pieces = pieces
        self.viewpoint = viewpoint
        self.hidden: set[str] = set()  # labels of pieces the seat cannot see now
        self.visible: set[str] | None = None  # zones the seat sees; None: all
        self.tellers: dict[type, Callable[[Any], str]] = {
            Chose: self._chose, Moved: self._moved, Placed: self._placed, Peeked: self._peeked,
            Created: lambda e: f"{self._count(e.pieces)} made in {e.zone}",
            Shuffled: lambda e: f"{e.zone} shuffled",
            VarSet: lambda e: f"{e.var} = {self._value(e.value)}",
            TurnStarted: lambda e: f"turn {e.turn}: player {e.player}",
            GameEnded: lambda e: f"game over: {e.reason}",
            Logged: lambda e: e.message,
            Revealed: lambda e: f"revealed: {self._names(e.pieces)}",
        }

    def line(self, event: Event) -> str | None:
        """The event's line; None for one the log leaves out (a turn's end, told by the next start)."""
        teller = self.tellers.get(type(event))
        return None if teller is None else teller(event)

    def _sees(self, zone: str) -> bool:
        return self.visible is None or zone in self.visible

    def _names(self, ids: tuple[int, ...]) -> str:
        return ", ".join(self.pieces[i].label for i in ids)

    @staticmethod
    def _count(ids: tuple[int, ...]) -> str:
        return f"{len(ids)} piece{'s' if len(ids) != 1 else ''}"

    def _chose(self, e: Chose) -> str:
        # A label names pieces by their labels, joined by '+', each perhaps told apart by its zone
        # ("gem from hand[0]") or a number ("gem #2").
        parts = {_TOLD_APART.sub("", part) for part in (e.label, *e.label.split("+"))}
        secret = e.player != self.viewpoint and not parts.isdisjoint(self.hidden)
        return f"player {e.player}, {e.prompt}: {'(hidden)' if secret else e.label}"

    def _moved(self, e: Moved) -> str:
        what = self._names(e.pieces) if self._sees(e.source) or self._sees(e.dest) else self._count(e.pieces)
        return f"{what}: {e.source} to {e.dest}"

    def _placed(self, e: Placed) -> str:
        what = self._names((e.piece,)) if self._sees(e.source) or self._sees(e.dest) else "a piece"
        return f"{what}: {e.source} to {e.dest} at {'+'.join(e.cells)}, level {e.level}"

    def _peeked(self, e: Peeked) -> str:
        seen = self._names(e.pieces) if self.viewpoint in {None, e.player} else self._count(e.pieces)
        return f"player {e.player} looks at {seen}"

    def _value(self, value: object) -> str:
        """A variable's value as the log shows it; variables are public, pieces in them by label."""
        if isinstance(value, dict) and set(value) == {"piece"}:
            return self._names((value["piece"],))
        if isinstance(value, list):
            return "[" + ", ".join(self._value(v) for v in value) + "]"
        return label_of(value)


def _mtime(path: str) -> float:
    try:
        return Path(path).stat().st_mtime_ns / 1e9
    except OSError:
        return -1.0
