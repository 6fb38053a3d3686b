"""Games to JSON and back. One cattrs converter; a format version; StateError on bad input.

A saved game may come from anywhere (a file, a client), so loading trusts nothing. The JSON
must have exactly the shape `SavedGame` declares, with no coercion ("5" is no integer, 1 is
no boolean), and the state it describes must be one the ruleset can be in: the pieces setup
creates, each in one zone; variables of the kinds their initial values have (none may stand
for any); frames that call down from `play` to a decision; players of the game.
"""

from __future__ import annotations

import functools
import hashlib
import json
import types
from typing import TYPE_CHECKING, Any, Union, cast, get_args, get_origin

import attrs
import cattrs
from cattrs.strategies import configure_tagged_union

from boardkit.errors import RuleRuntimeError, StateError
from boardkit.game import Game, loaded_game
from boardkit.model.defs import Branch, CallProc, Choose
from boardkit.runtime.events import Event, Placed, VarSet
from boardkit.runtime.grid import rebuild, saved_boards
from boardkit.runtime.pieces import Piece
from boardkit.runtime.state import State, key_text

if TYPE_CHECKING:
    from collections.abc import Callable

    from boardkit.registry import Ruleset

FORMAT_VERSION = 1

converter = cattrs.Converter()
configure_tagged_union(Event, converter, tag_name="type")
# A piece inside an event (a variable set to pieces) is saved by id, as in variables.
converter.register_unstructure_hook(Piece, lambda p: {"piece": p.id})


@attrs.define
class SavedPiece:
    """A piece as saved: its component type, attributes and label (its id is its index)."""

    type: str
    attrs: dict[str, Any]
    label: str


@attrs.define
class SavedFrame:
    """A running procedure: its name, the instruction it stands at and its locals."""

    proc: str
    pc: int
    locals: dict[str, Any]


@attrs.define
class SavedPlacement:
    """A piece (by id) on a grid zone: the cells it covers and its level."""

    piece: int
    cells: list[str]
    level: int


@attrs.define
class SavedGame:
    """The JSON document of a game: definition identity, the inputs, and the whole state."""

    format_version: int
    ruleset: str
    fingerprint: str
    players: int
    seed: int
    options: dict[str, Any]
    position: dict[str, Any] | None
    history: list[str]
    pieces: list[SavedPiece]
    zones: dict[str, list[int]]
    vars: dict[str, Any]
    frames: list[SavedFrame]
    rng_draws: int
    events: list[Event]
    over: bool
    end_reason: str | None
    turn_player: int | None
    turn_count: int
    known: list[list[int]] = attrs.Factory(list)
    """Per player, the ids of the pieces that player has seen (peek, reveal)."""
    boards: dict[str, list[SavedPlacement]] = attrs.Factory(dict)
    """Per grid zone, its pieces' cells and levels, bottom level first (docs/reference/grid.md)."""


def fingerprint(rules: Ruleset) -> str:
    """Returns a digest that tells rule texts apart: the file's and those of the files it extends.

    Where the files lie does not matter. A save refuses rules that changed underneath it, base included.
    """
    digest = hashlib.sha256(rules.source_text.encode())
    for text in sorted(src.text for src in rules.program.game.sources.values() if src.text != rules.source_text):
        digest.update(b"\0" + text.encode())
    return digest.hexdigest()[:16]


def encode(v: object) -> object:
    """Returns a runtime value as JSON: pieces by id, loop iterators as items plus position."""
    if isinstance(v, Piece):
        return {"piece": v.id}
    if isinstance(v, tuple):
        return {"items": [encode(x) for x in v[0]], "index": v[1]}
    if isinstance(v, list):
        return [encode(x) for x in v]
    return v


def decode(v: object, pieces: list[Piece]) -> object:
    """Returns the value `encode` gave `v` as, for a value a variable or an event holds.

    That is pieces by id, lists, none, booleans, integers, texts; StateError for anything else.
    """
    if isinstance(v, list):
        return [decode(x, pieces) for x in v]
    if isinstance(v, dict):
        i = v.get("piece")
        if set(v) == {"piece"} and type(i) is int and 0 <= i < len(pieces):
            return pieces[i]
        msg = f"unreadable value {v!r:.60}"
        raise _fail(msg)
    if v is None or type(v) in (bool, int, str):
        return v
    msg = f"unreadable value {v!r:.60}"
    raise _fail(msg)


def _decode_local(v: object, pieces: list[Piece]) -> object:
    """Returns a local of a frame: a value, or a loop's iterator (its items and the position in them)."""
    if isinstance(v, dict) and set(v) == {"items", "index"}:
        items, i = v["items"], v["index"]
        if not isinstance(items, list) or type(i) is not int or not 0 <= i <= len(items):
            msg = f"unreadable loop {v!r:.60}"
            raise _fail(msg)
        return (tuple(decode(x, pieces) for x in items), i)
    return decode(v, pieces)


def dump_game(game: Game) -> str:
    """Returns the whole game as JSON (`SavedGame`), mid-turn included; `load_game` reads it back."""
    s: State = game.state
    doc = SavedGame(
        format_version=FORMAT_VERSION, ruleset=game.rules.name, fingerprint=fingerprint(game.rules),
        players=s.nplayers, seed=game.seed, options=game.options, position=game.position,
        history=list(game.history),
        pieces=[SavedPiece(p.type, p.attrs, p.label) for p in s.pieces],
        zones={key_text(k): [p.id for p in s.zones[i]] for i, k in enumerate(s.layout.zone_keys)},
        vars={key_text(k): encode(v) for k, v in s.vars.items()},
        frames=[SavedFrame(f[0], f[1], {k: encode(v) for k, v in f[2].items()}) for f in s.frames],
        rng_draws=s.rng_draws,
        events=list(s.events), over=s.over, end_reason=s.end_reason, turn_player=s.turn_player,
        turn_count=s.turn_count,
        known=[sorted(i for i, mask in s.known.items() if mask >> p & 1) for p in range(s.nplayers)],
        boards={zone: [SavedPlacement(*x) for x in placed] for zone, placed in saved_boards(s).items()},
    )
    return json.dumps(converter.unstructure(doc), separators=(",", ":"))


def _fail(msg: str) -> StateError:
    return StateError(f"bad saved game: {msg}")


class _Misfit(Exception):  # noqa: N818 - becomes a StateError once its path is known
    """A JSON value not of the declared type; containers add their key to `path` on the way out."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what
        self.path: list[str] = []


_TYPE_NAMES = {int: "an integer", str: "a string", bool: "true or false"}


@functools.cache
def _checker(hint: Any) -> Callable[[object], None]:  # noqa: ANN401 - a type form, which typing cannot name yet
    """Returns a function raising _Misfit unless parsed JSON is exactly of type `hint`.

    cattrs would otherwise coerce it (a string into a list of letters, 1 into true, "5" into 5).
    """
    origin, args = get_origin(hint), get_args(hint)
    if hint is Any:
        return _anything
    if origin in (Union, types.UnionType):
        return _union_checker(args)
    if attrs.has(hint):
        return _record_checker(hint)
    if origin is dict:
        return _mapping_checker(_checker(args[1]))
    if origin in (list, tuple):
        return _list_checker(_checker(args[0]))

    def scalar(v: object) -> None:
        if type(v) is not hint:
            msg = f" must be {_TYPE_NAMES[hint]}, not {v!r:.60}"
            raise _Misfit(msg)
    return scalar


def _anything(_v: object) -> None:
    pass


def _union_checker(args: tuple[Any, ...]) -> Callable[[object], None]:
    """Returns a checker of `X | None`, or of the events: attrs classes told apart by a "type" key."""
    classes = [a for a in args if a is not type(None)]
    if len(classes) == 1:
        inner = _checker(classes[0])
        return lambda v: None if v is None else inner(v)
    tags = {c.__name__: _fields_checker(c, "type") for c in classes}

    def tagged(v: object) -> None:
        tag = v.get("type") if isinstance(v, dict) else None
        if not isinstance(tag, str) or tag not in tags:
            msg = f" is no event (a mapping with a 'type' of {', '.join(tags)}): {v!r:.60}"
            raise _Misfit(msg)
        tags[tag](cast("dict[str, object]", v))
    return tagged


def _record_checker(cls: type) -> Callable[[object], None]:
    fields = _fields_checker(cls)

    def record(v: object) -> None:
        if not isinstance(v, dict):
            msg = f" must be a mapping, not {v!r:.60}"
            raise _Misfit(msg)
        fields(v)
    return record


def _mapping_checker(item: Callable[[object], None]) -> Callable[[object], None]:
    def mapping(v: object) -> None:
        if not isinstance(v, dict):
            msg = f" must be a mapping, not {v!r:.60}"
            raise _Misfit(msg)
        for k, x in v.items():
            _check_item(item, x, f"[{k!r}]")
    return mapping


def _list_checker(item: Callable[[object], None]) -> Callable[[object], None]:
    def items(v: object) -> None:
        if not isinstance(v, list):
            msg = f" must be a list, not {v!r:.60}"
            raise _Misfit(msg)
        for i, x in enumerate(v):
            _check_item(item, x, f"[{i!r}]")
    return items


def _check_item(check: Callable[[object], None], x: object, where: str) -> None:
    """Checks an item of a container; `where` (its key) goes into the path of a misfit."""
    try:
        check(x)
    except _Misfit as bad:
        bad.path.append(where)
        raise


def _fields_checker(cls: type, tag: str | None = None) -> Callable[[dict[str, object]], None]:
    """Returns a checker of a mapping against an attrs class: no unknown key, no required one missing."""
    fields = attrs.fields(attrs.resolve_types(cls))
    checks = {f.name: _checker(f.type) for f in fields}
    required = {f.name for f in fields if f.default is attrs.NOTHING}
    known = set(checks) | ({tag} if tag else set())

    def check(v: dict[str, object]) -> None:
        if not v.keys() <= known:
            msg = f" has unknown keys {sorted(set(v) - known)[:5]}"
            raise _Misfit(msg)
        if not required <= v.keys():
            msg = f" misses {sorted(required - set(v))[:5]}"
            raise _Misfit(msg)
        for k, x in v.items():
            if k != tag:
                _check_item(checks[k], x, f".{k}")
    return check


def load_game(rules: Ruleset, text: str, *, check_history: bool = True) -> Game:
    """Rebuilds a game from `dump_game` output, checking it against the ruleset."""
    try:
        return _load_game(rules, text, check_history=check_history)
    except RecursionError:
        # Rule code turns its own recursion errors into RuleRuntimeError: this one is the input's.
        msg = "values nested too deeply"
        raise _fail(msg) from None


def _load_game(rules: Ruleset, text: str, *, check_history: bool) -> Game:
    doc = _read(text)
    if doc.ruleset != rules.name or doc.fingerprint != fingerprint(rules):
        msg = f"it belongs to ruleset {doc.ruleset!r} ({doc.fingerprint}), not {rules.name!r} ({fingerprint(rules)})"
        raise _fail(msg)
    try:
        options = rules.resolve_options(doc.players, doc.options)
    except Exception as exc:  # noqa: BLE001
        raise _fail(str(exc)) from None
    # The game restarted from its seed (and position, which undo replays from): the pieces are
    # those its setup creates, in that order.
    try:
        fresh = rules.new_game(players=doc.players, seed=doc.seed, options=options, position=doc.position)
    except (StateError, RuleRuntimeError) as exc:
        msg = f"its position cannot start a game: {exc}"
        raise _fail(msg) from None
    s = State(rules.program, rules.layout(doc.players), doc.players, options, doc.seed)
    s.pieces = _load_pieces(fresh.state.pieces, doc.pieces)
    _load_vars(s, doc.vars)
    s.forget()  # checking variables' kinds evaluated initial values on a state half loaded
    _load_zones(s, doc.zones)  # after the variables, which capacities may read
    s.forget()
    _load_frames(s, doc.frames)
    _check_progress(s, doc)
    s.rng_draws = doc.rng_draws
    s.load_events(_load_events(doc.events, s.pieces))
    s.over, s.end_reason, s.turn_player, s.turn_count = doc.over, doc.end_reason, doc.turn_player, doc.turn_count
    _load_known(s, doc.known)
    _load_boards(s, doc.boards)
    if not check_history:
        if not s.over:
            _check_decision(rules, s)
        return Game(rules, s, seed=doc.seed, options=options, position=doc.position, history=list(doc.history))
    try:
        return loaded_game(rules, s, seed=doc.seed, options=options, position=doc.position, history=list(doc.history))
    except StateError as exc:
        raise _fail(str(exc)) from None


def _read(text: str) -> SavedGame:
    """Returns the saved game in `text`, once its JSON is known to have exactly the declared shape."""
    try:
        raw = json.loads(text)
    except (TypeError, ValueError) as exc:
        msg = f"not JSON ({exc})"
        raise _fail(msg) from None
    version = raw.get("format_version") if isinstance(raw, dict) else None
    if type(version) is not int or version != FORMAT_VERSION:
        msg = f"unknown format (expected format_version {FORMAT_VERSION})"
        raise _fail(msg)
    try:
        _checker(SavedGame)(raw)
    except _Misfit as bad:
        msg = f"${''.join(reversed(bad.path))}{bad.what}"
        raise _fail(msg) from None
    return converter.structure(raw, SavedGame)


def _check_progress(s: State, doc: SavedGame) -> None:
    """Checks that whether the game is over, its end reason, whose turn it is and the counts agree."""
    if not doc.over and not s.frames:
        msg = "the game is not over but nothing is running"
        raise _fail(msg)
    if doc.over and (s.frames or doc.end_reason is None):
        msg = "the game is over but has no end reason, or still runs"
        raise _fail(msg)
    if not doc.over and doc.end_reason is not None:
        msg = f"the game goes on but has an end reason ({doc.end_reason!r})"
        raise _fail(msg)
    if doc.turn_player is not None and not 0 <= doc.turn_player < doc.players:
        msg = f"the turn of player {doc.turn_player}, in a {doc.players}-player game"
        raise _fail(msg)
    if doc.rng_draws < 0 or doc.turn_count < 0:
        msg = "a negative count of random draws or of turns"
        raise _fail(msg)
    # Inside a turn the running procedures know whose it is ($actor), and so must the game.
    actor = s.frames[-1][2].get("$actor") if s.frames else None
    if actor is not None and doc.turn_player != actor:
        msg = f"the game waits inside player {actor}'s turn but says it is the turn of {doc.turn_player!r}"
        raise _fail(msg)


def _load_known(s: State, known: list[list[int]]) -> None:
    """What each player knows of hidden pieces: per player, the ids of the pieces they have seen."""
    if len(known) > s.nplayers:
        msg = f"knowledge of {len(known)} players in a {s.nplayers}-player game"
        raise _fail(msg)
    for p, ids in enumerate(known):
        for i in ids:
            if not 0 <= i < len(s.pieces):
                msg = f"player {p} knows piece {i}, which does not exist"
                raise _fail(msg)
            s.known[i] = s.known.get(i, 0) | (1 << p)


def _load_pieces(fresh: list[Piece], saved: list[SavedPiece]) -> list[Piece]:
    """The fresh game's pieces, if the saved ones are exactly those (types, attributes, labels)."""
    if len(saved) != len(fresh):
        msg = f"it has {len(saved)} pieces, but the ruleset's setup creates {len(fresh)}"
        raise _fail(msg)
    for p, q in zip(fresh, saved, strict=True):
        # Attributes of the same types too: 1 == 1.0 == true in Python, not in a saved game.
        if (p.type, p.label, p.attrs) != (q.type, q.label, q.attrs) or any(
                type(q.attrs[k]) is not type(v) for k, v in p.attrs.items()):
            msg = f"piece {p.id} is {q.type} {q.label!r} {q.attrs!r:.60}, but setup creates {p!r} {p.attrs}"
            raise _fail(msg)
    return list(fresh)


def _load_zones(s: State, zones: dict[str, list[int]]) -> None:
    """Every zone's pieces, each piece in exactly one zone, no zone over its capacity."""
    lay = s.layout
    if set(zones) != set(lay.zone_by_text):
        msg = f"zones differ from the ruleset's: {sorted(set(zones) ^ set(lay.zone_by_text))[:5]}"
        raise _fail(msg)
    s.loc = [-1] * len(s.pieces)
    for name, ids in zones.items():
        slot = lay.zone_by_text[name]
        for i in ids:
            if not 0 <= i < len(s.pieces) or s.loc[i] != -1:
                msg = f"piece {i} is missing or in two zones ({name})"
                raise _fail(msg)
            s.loc[i] = slot
        s.zones[slot] = [s.pieces[i] for i in ids]
    if -1 in s.loc:
        msg = f"piece {s.loc.index(-1)} is in no zone"
        raise _fail(msg)
    problem = s.capacity_problem()
    if problem is not None:
        raise _fail(problem)


def _kind(v: object) -> str | None:
    return None if v is None else "piece" if isinstance(v, Piece) else type(v).__name__


def _load_vars(s: State, saved: dict[str, Any]) -> None:
    """Every variable, each of the kind of its initial value (none stands for any kind)."""
    lay, inits = s.layout, s.program.var_init
    if set(saved) != set(lay.var_by_text):
        msg = f"variables differ from the ruleset's: {sorted(set(saved) ^ set(lay.var_by_text))[:5]}"
        raise _fail(msg)
    for text, key in lay.var_by_text.items():
        value = decode(saved[text], s.pieces)
        start = inits[key[0] if isinstance(key, tuple) else key](s, {})
        if None not in (_kind(value), _kind(start)) and _kind(value) != _kind(start):
            msg = f"variable {text!r} holds {_kind(start)} values, not {saved[text]!r:.60}"
            raise _fail(msg)
        s.vars[key] = value


def _load_frames(s: State, frames: list[SavedFrame]) -> None:
    """The running procedures: `play` outermost, each calling the next, the innermost at a decision."""
    procs = s.game.procs
    for f in frames:
        if f.proc not in procs or not 0 <= f.pc < len(procs[f.proc].code):
            msg = f"no step {f.pc} in procedure {f.proc!r}"
            raise _fail(msg)
    if frames and frames[0].proc != "play":
        msg = f"the outermost procedure running is {frames[0].proc!r}, not 'play'"
        raise _fail(msg)
    for i, f in enumerate(frames):
        inner = frames[i + 1] if i + 1 < len(frames) else None
        proc = procs[f.proc]
        ins = proc.code[f.pc]
        if inner is not None and (not isinstance(ins, CallProc) or ins.proc != inner.proc):
            msg = f"step {f.pc} of procedure {f.proc!r} does not call {inner.proc!r}"
            raise _fail(msg)
        if inner is None and not isinstance(ins, (Choose, Branch)):
            msg = f"step {f.pc} of procedure {f.proc!r} is no decision, yet the game waits there"
            raise _fail(msg)
        missing = {*proc.params, "$actor"} - set(f.locals)
        if missing:
            msg = f"procedure {f.proc!r} runs without its locals {sorted(missing)}"
            raise _fail(msg)
        actor = f.locals["$actor"]
        if actor is not None and (type(actor) is not int or not 0 <= actor < s.nplayers):
            msg = f"no player {actor!r} in a {s.nplayers}-player game"
            raise _fail(msg)
    s.frames = []
    below = False
    for f in frames:
        s.frames.append([f.proc, f.pc, {k: _decode_local(v, s.pieces) for k, v in f.locals.items()}, below])
        below = procs[f.proc].probe[f.pc].below_callee(below=below)


def _load_events(events: list[Event], pieces: list[Piece]) -> list[Event]:
    """The event log, once every piece it names is known to exist."""
    for e in events:
        ids = (e.piece,) if isinstance(e, Placed) else getattr(e, "pieces", ())
        if not all(0 <= i < len(pieces) for i in ids):
            msg = f"an event names pieces that do not exist: {e}"
            raise _fail(msg)
        if isinstance(e, VarSet):
            decode(e.value, pieces)  # pieces by id, and nothing a variable cannot hold
    return events


def _check_decision(rules: Ruleset, s: State) -> None:
    """Checks that the pending decision has a player and options the rules can evaluate.

    Both only read the state; without them the game would fail at its first use.
    """
    try:
        rules.interpreter.chooser(s)
        rules.interpreter.raw_options(s)
    except RuleRuntimeError as exc:
        msg = f"its pending decision cannot be evaluated: {exc}"
        raise _fail(msg) from None


def _load_boards(s: State, boards: dict[str, list[SavedPlacement]]) -> None:
    """Rebuilds every grid zone from its saved placements, checking them against the zones."""
    lay = s.layout
    names = {lay.zone_text[slot] for slot in s.boards}
    if set(boards) - names:
        msg = f"placements for zones that are no grids: {sorted(set(boards) - names)[:5]}"
        raise _fail(msg)
    for slot in s.boards:
        name = lay.zone_text[slot]
        placed = boards.get(name, [])
        ids = [x.piece for x in placed]
        if sorted(ids) != sorted(p.id for p in s.zones[slot]):
            msg = f"the placements of grid {name!r} do not match the pieces in it"
            raise _fail(msg)
        try:
            levels = rebuild(s, slot, [(s.pieces[x.piece], x.cells) for x in placed])
        except (ValueError, TypeError) as exc:
            msg = f"grid {name!r}: {exc}"
            raise _fail(msg) from None
        if levels != [x.level for x in placed]:
            msg = f"grid {name!r}: saved levels {[x.level for x in placed]} do not follow from the placements"
            raise _fail(msg)
