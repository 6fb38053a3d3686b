"""Games to JSON and back. One cattrs converter; a format version; StateError on bad input."""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

import attrs
import cattrs
from cattrs.strategies import configure_tagged_union

from boardkit.errors import StateError
from boardkit.events import Event
from boardkit.game import Game
from boardkit.grid import rebuild, saved_boards
from boardkit.pieces import Piece
from boardkit.state import State, key_text

if TYPE_CHECKING:
    from boardkit.ruleset import Ruleset

FORMAT_VERSION = 1

converter = cattrs.Converter(detailed_validation=True)
configure_tagged_union(Event, converter, tag_name="type")
# A piece inside an event (a variable set to pieces) is saved by id, as in variables.
converter.register_unstructure_hook(Piece, lambda p: {"piece": p.id})


@attrs.define
class SavedPiece:
    type: str
    attrs: dict[str, Any]
    label: str


@attrs.define
class SavedFrame:
    proc: str
    pc: int
    locals: dict[str, Any]


@attrs.define
class SavedPlacement:
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
    return hashlib.sha256(rules.source_text.encode()).hexdigest()[:16]


def encode(v: Any) -> Any:
    """Runtime values to JSON: pieces by id, loop iterators as items plus position."""
    if isinstance(v, Piece):
        return {"piece": v.id}
    if isinstance(v, tuple):
        return {"items": [encode(x) for x in v[0]], "index": v[1]}
    if isinstance(v, list):
        return [encode(x) for x in v]
    return v


def decode(v: Any, pieces: list[Piece]) -> Any:
    """The inverse of `encode`; StateError for anything `encode` cannot have written."""
    if isinstance(v, dict):
        if set(v) == {"piece"} and isinstance(v["piece"], int) and 0 <= v["piece"] < len(pieces):
            return pieces[v["piece"]]
        if set(v) == {"items", "index"} and isinstance(v["items"], list) and isinstance(v["index"], int):
            return (tuple(decode(x, pieces) for x in v["items"]), v["index"])
        raise _fail(f"unreadable value {v!r:.60}")
    if isinstance(v, list):
        return [decode(x, pieces) for x in v]
    if v is None or isinstance(v, (bool, int, str)):
        return v
    raise _fail(f"unreadable value {v!r:.60}")


def dump_game(game: Game) -> str:
    s: State = game._s
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


def load_game(rules: Ruleset, text: str) -> Game:
    """Rebuilds a game from `dump_game` output, checking it against the ruleset."""
    try:
        raw = json.loads(text)
    except (TypeError, ValueError) as exc:
        raise _fail(f"not JSON ({exc})") from None
    if not isinstance(raw, dict) or raw.get("format_version") != FORMAT_VERSION:
        raise _fail(f"unknown format (expected format_version {FORMAT_VERSION})")
    try:
        doc = converter.structure(raw, SavedGame)
    except Exception as exc:  # noqa: BLE001 - cattrs raises groups of many kinds
        details = "; ".join(cattrs.transform_error(exc)) if isinstance(exc, cattrs.BaseValidationError) else str(exc)
        raise _fail(details) from None
    if doc.ruleset != rules.name or doc.fingerprint != fingerprint(rules):
        raise _fail(f"it belongs to ruleset {doc.ruleset!r} ({doc.fingerprint}), not {rules.name!r} ({fingerprint(rules)})")
    try:
        options = rules.resolve_options(doc.players, doc.options)
    except Exception as exc:  # noqa: BLE001
        raise _fail(str(exc)) from None
    s = State(rules.definition, rules.layout(doc.players), doc.players, options, doc.seed)
    s.pieces = [Piece(i, p.type, p.attrs, p.label) for i, p in enumerate(doc.pieces)]
    # The pieces are those setup creates for these players and options, in that order.
    fresh = rules.new_game(players=doc.players, seed=doc.seed, options=options)._s.pieces
    if [(p.type, p.attrs) for p in fresh] != [(p.type, p.attrs) for p in s.pieces]:
        raise _fail("its pieces are not those the ruleset's setup creates")
    s.loc = [-1] * len(s.pieces)
    lay = s.layout
    if set(doc.zones) != set(lay.zone_by_text):
        raise _fail(f"zones differ from the ruleset's: {sorted(set(doc.zones) ^ set(lay.zone_by_text))[:5]}")
    for name, ids in doc.zones.items():
        slot = lay.zone_by_text[name]
        for i in ids:
            if not 0 <= i < len(s.pieces) or s.loc[i] != -1:
                raise _fail(f"piece {i} is missing or in two zones ({name})")
            s.loc[i] = slot
        s.zones[slot] = [s.pieces[i] for i in ids]
    if -1 in s.loc:
        raise _fail(f"piece {s.loc.index(-1)} is in no zone")
    for slot, zdef in enumerate(lay.zone_defs):
        if zdef.capacity is not None and len(s.zones[slot]) > zdef.capacity(s, {}):
            raise _fail(f"zone {lay.zone_text[slot]!r} holds more pieces than its capacity")
    if set(doc.vars) != set(lay.var_by_text):
        raise _fail("variables differ from the ruleset's")
    s.vars = {lay.var_by_text[k]: decode(v, s.pieces) for k, v in doc.vars.items()}
    procs = rules.definition.procs
    for f in doc.frames:
        if f.proc not in procs or not 0 <= f.pc < len(procs[f.proc].code):
            raise _fail(f"no step {f.pc} in procedure {f.proc!r}")
    s.frames = [[f.proc, f.pc, {k: decode(v, s.pieces) for k, v in f.locals.items()}] for f in doc.frames]
    if not doc.over and not s.frames:
        raise _fail("the game is not over but nothing is running")
    if doc.over and (s.frames or doc.end_reason is None):
        raise _fail("the game is over but has no end reason, or still runs")
    for frame in s.frames:
        actor = frame[2].get("$actor")
        if actor is not None and (not isinstance(actor, int) or isinstance(actor, bool) or not 0 <= actor < doc.players):
            raise _fail(f"no player {actor!r} in a {doc.players}-player game")
    if doc.rng_draws < 0:
        raise _fail("negative random draw count")
    s.rng_draws = doc.rng_draws
    s.events = list(doc.events)
    s.over, s.end_reason, s.turn_player, s.turn_count = doc.over, doc.end_reason, doc.turn_player, doc.turn_count
    if len(doc.known) > doc.players:
        raise _fail(f"knowledge of {len(doc.known)} players in a {doc.players}-player game")
    for p, ids in enumerate(doc.known):
        for i in ids:
            if not 0 <= i < len(s.pieces):
                raise _fail(f"player {p} knows piece {i}, which does not exist")
            s.known[i] = s.known.get(i, 0) | (1 << p)
    _load_boards(s, doc.boards)
    return Game(rules, s, seed=doc.seed, options=options, position=doc.position, history=list(doc.history))


def _load_boards(s: State, boards: dict[str, list[SavedPlacement]]) -> None:
    """Rebuilds every grid zone from its saved placements, checking them against the zones."""
    lay = s.layout
    names = {lay.zone_text[slot] for slot in s.boards}
    if set(boards) - names:
        raise _fail(f"placements for zones that are no grids: {sorted(set(boards) - names)[:5]}")
    for slot in s.boards:
        name = lay.zone_text[slot]
        placed = boards.get(name, [])
        ids = [x.piece for x in placed]
        if sorted(ids) != sorted(p.id for p in s.zones[slot]):
            raise _fail(f"the placements of grid {name!r} do not match the pieces in it")
        try:
            levels = rebuild(s, slot, [(s.pieces[x.piece], x.cells) for x in placed])
        except (ValueError, TypeError) as exc:
            raise _fail(f"grid {name!r}: {exc}") from None
        if levels != [x.level for x in placed]:
            raise _fail(f"grid {name!r}: saved levels {[x.level for x in placed]} do not follow from the placements")
