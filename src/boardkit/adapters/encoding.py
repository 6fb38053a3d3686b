"""A fixed-size numeric observation of what a player sees, worked out from the rules.

The layout is a list of named parts, each a block of the flat vector with a shape:

- `player` (n): one-hot, whose view it is; `to_move` (n): one-hot, who decides now (all zero
  once the game is over); `is_over` (1); `turn` (1): turns begun.
- `prompt` (d): one-hot over the rules' distinct decision prompts, set when the observer decides.
- `vars` (v, 2): per variable (by key, as views name them) its number (a whole number, a truth
  value as 0/1, the size of a list, else 0) and whether it is set (not `none`).
- `zone:NAME` (f): per zone that is not a grid, piece counts by feature: feature 0 is the size
  of the zone (visible or not), then per component type the pieces of that type, then per type,
  attribute and value the pieces that show it. A zone the player cannot see counts only its
  size and the pieces the player knows.
- `grid:NAME` (levels, f, cells): per grid zone, planes by level and feature over its cells (in
  the grid's cell order, `Observation.cells`); the last level holds every piece at or above it.

Attribute values are an enum's members, or for other types the values setup's pieces show.
`Observation.split` reads a vector back into its named parts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from boardkit.adapters.actions import value_key

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from boardkit.adapters.actions import ActionSpace, Key
    from boardkit.game import Game

#: Grid levels given their own planes; pieces higher up share the top one.
LEVELS = 2


@attrs.frozen
class Part:
    """One named block of the observation: where it starts, its size and its shape."""

    name: str
    offset: int
    shape: tuple[int, ...]

    @property
    def size(self) -> int:
        """How many numbers the part holds."""
        return int(np.prod(self.shape))


class Observation:
    """The observation layout of a ruleset for a player count and options.

    Args:
        space: the action space (its prompts name the decisions), made for the same game.
        levels: grid levels given their own planes.
    """

    def __init__(self, space: ActionSpace, levels: int = LEVELS) -> None:  # noqa: C901 - one pass per part of the layout
        rules = space.rules
        sample = rules.new_game(players=space.players, seed=0, options=space.options)
        s = sample.state
        n = s.nplayers
        self.levels = levels
        self.prompts = {p: i for i, p in enumerate(space.prompts)}
        # Piece features: the zone's size, each type, each (type, attribute, value).
        features: dict[Key, int] = {("size",): 0}
        for comp in rules.definition.components.values():
            features[("type", comp.name)] = len(features)
        for p in s.pieces:
            features.setdefault(("type", p.type), len(features))
        for comp in rules.definition.components.values():
            for f in comp.fields:
                values: list[Any] = []
                if f.type in rules.definition.enums:
                    values = list(rules.definition.enums[f.type].members)
                elif f.type == "bool":
                    values = [False, True]
                values += [p.attrs[f.name] for p in s.pieces if p.type == comp.name]
                for v in values:
                    features.setdefault(("attr", comp.name, f.name, value_key(v, [])), len(features))
        self.features = features
        self.feature_names = [_feature_name(k) for k in features]
        self.var_keys = list(sample.view(0)["vars"])
        self.cells: dict[str, list[str]] = {}
        parts = [("player", (n,)), ("to_move", (n,)), ("is_over", (1,)), ("turn", (1,)),
                 ("prompt", (len(self.prompts),)), ("vars", (len(self.var_keys), 2))]
        self.zones: list[tuple[str, bool]] = []
        for slot, text in enumerate(s.layout.zone_text):
            board = s.boards.get(slot)
            if board is None:
                parts.append((f"zone:{text}", (len(features),)))
                self.zones.append((text, False))
            else:
                self.cells[text] = list(board.geo.cells)
                parts.append((f"grid:{text}", (levels, len(features), len(self.cells[text]))))
                self.zones.append((text, True))
        self.parts: dict[str, Part] = {}
        offset = 0
        for name, shape in parts:
            part = Part(name, offset, shape)
            self.parts[name] = part
            offset += part.size
        self.size = offset
        self._cell_index = {z: {c: i for i, c in enumerate(cs)} for z, cs in self.cells.items()}
        self._zone_parts = [(text, grid, self.parts[f"{'grid' if grid else 'zone'}:{text}"])
                            for text, grid in self.zones]
        self._piece_features: dict[tuple[Any, ...], list[int]] = {}
        # Variables by their keys in the state, in the order views list them.
        self._state_var_keys = [s.layout.var_by_text[k] for k in self.var_keys]
        # Each piece's features, by piece id, for the game whose pieces these are.
        self._pieces_seen: list[Any] = []
        self._by_id: list[list[int]] = []

    def split(self, vector: NDArray[Any]) -> dict[str, NDArray[Any]]:
        """Reads an observation back into its named parts, each in its shape."""
        return {name: vector[p.offset:p.offset + p.size].reshape(p.shape) for name, p in self.parts.items()}

    def encode(self, game: Game, player: int) -> NDArray[np.float32]:
        """The observation of `game` by `player`: what `game.view(player)` shows, as numbers.

        It reads the game's state directly, as the view would show it (`encode_view` encodes the
        view itself, and gives the same numbers; the tests hold them equal).
        """
        s = game.state
        if type(player) is not int or not 0 <= player < s.nplayers:
            game.view(player)  # raises the usual error for a player who is not in the game
        out = np.zeros(self.size, dtype=np.float32)
        parts = self.parts
        out[parts["player"].offset + player] = 1
        to_move = game.to_move
        if to_move is not None:
            out[parts["to_move"].offset + to_move] = 1
        out[parts["is_over"].offset] = float(s.over)
        out[parts["turn"].offset] = s.turn_count
        if to_move == player:
            prompt = self.prompts.get(game.prompt or "")
            if prompt is not None:
                out[parts["prompt"].offset + prompt] = 1
        at = parts["vars"].offset
        values = s.vars
        for i, key in enumerate(self._state_var_keys):
            out[at + 2 * i: at + 2 * i + 2] = _number(values.get(key))
        hits = self._state_zones(game, player, out)
        if hits:
            out += np.bincount(hits, minlength=self.size).astype(np.float32)
        return out

    def _state_zones(self, game: Game, player: int, out: NDArray[np.float32]) -> list[int]:  # noqa: C901 - grids, zones seen and unseen
        """Encodes the zones of the state as `player` sees them; returns the indexes to count."""
        s = game.state
        lay = s.layout
        pieces_now = s.pieces
        seen = self._pieces_seen
        # Clones share their pieces (the objects): another game's may differ.
        if len(pieces_now) != len(seen) or (seen and (pieces_now[0] is not seen[0] or pieces_now[-1] is not seen[-1])):
            self._pieces_seen = list(pieces_now)
            self._by_id = [self._features(p.public()) for p in pieces_now]
        by_id = self._by_id
        known = s.known
        hits: list[int] = []
        for slot, (_, grid, part) in enumerate(self._zone_parts):
            zdef = lay.zone_defs[slot]
            pieces = s.zones[slot]
            visible = zdef.visibility == "public" or (zdef.visibility == "owner" and lay.zone_owner[slot] == player)
            base = part.offset
            if grid:
                _, nfeat, ncell = part.shape
                if not visible:  # its size only, on the first plane (feature 0, level 1)
                    out[base:base + ncell] = len(pieces)
                    continue
                board = s.boards[slot]
                index = self._cell_index[lay.zone_text[slot]]
                for p in pieces:
                    level = min(board.levels[p.id], self.levels) - 1
                    feats = [0, *by_id[p.id]]
                    for c in board.at[p.id]:
                        cell = index[c]
                        hits.extend(base + (level * nfeat + f) * ncell + cell for f in feats)
                continue
            out[base] = len(pieces)
            if visible:
                for p in pieces:
                    hits.extend(base + i for i in by_id[p.id])
            elif known:
                for p in pieces:
                    if known.get(p.id, 0) >> player & 1:
                        hits.extend(base + i for i in by_id[p.id])
        return hits

    def encode_view(self, view: dict[str, Any]) -> NDArray[np.float32]:
        """The observation a view (`Game.view(player)`) shows, as numbers."""
        player = view["player"]
        out = np.zeros(self.size, dtype=np.float32)
        parts = self.parts
        out[parts["player"].offset + player] = 1
        if view["to_move"] is not None:
            out[parts["to_move"].offset + view["to_move"]] = 1
        out[parts["is_over"].offset] = float(view["is_over"])
        out[parts["turn"].offset] = view["turn"]
        prompt = self.prompts.get(view.get("prompt", ""))
        if prompt is not None:
            out[parts["prompt"].offset + prompt] = 1
        at = parts["vars"].offset
        for i, key in enumerate(self.var_keys):
            out[at + 2 * i: at + 2 * i + 2] = _number(view["vars"].get(key))
        hits: list[int] = []  # one count for each index listed
        for text, grid, part in self._zone_parts:
            entry = view["zones"][text]
            if grid:
                self._grid(out, hits, part, text, entry)
            else:
                self._zone(out, hits, part.offset, entry)
        if hits:
            out += np.bincount(hits, minlength=self.size).astype(np.float32)
        return out

    def _features(self, piece: dict[str, Any]) -> list[int]:
        """The features a piece shows (type, attribute values), worked out once per kind."""
        key = tuple(v for k, v in piece.items() if k not in _NOT_KIND)
        found = self._piece_features.get(key)
        if found is None:
            t = piece["type"]
            found = [self.features[("type", t)]]
            for name, v in piece.items():
                i = self.features.get(("attr", t, name, value_key(v, []))) if name not in _NOT_KIND else None
                if i is not None:
                    found.append(i)
            self._piece_features[key] = found
        return found

    def _zone(self, out: NDArray[np.float32], hits: list[int], at: int,
              entry: list[dict[str, Any]] | dict[str, Any]) -> None:
        if isinstance(entry, dict):  # unseen: its size, and the pieces the player knows
            out[at] = entry["count"]
            pieces = entry.get("known", [])
        else:
            out[at] = len(entry)
            pieces = entry
        for piece in pieces:
            hits.extend(at + i for i in self._features(piece))

    def _grid(self, out: NDArray[np.float32], hits: list[int], part: Part, text: str,
              entry: list[dict[str, Any]] | dict[str, Any]) -> None:
        if isinstance(entry, dict):  # a grid the player cannot see: its size only
            planes = out[part.offset:part.offset + part.size].reshape(part.shape)
            planes[0, 0, :] = entry["count"]
            return
        index = self._cell_index[text]
        _, nfeat, ncell = part.shape
        for piece in entry:
            level = min(piece["level"], self.levels) - 1
            feats = [0, *self._features(piece)]
            for c in piece["cells"]:
                cell = index[c]
                hits.extend(part.offset + (level * nfeat + f) * ncell + cell for f in feats)


# What a view shows of a piece beyond its kind.
_NOT_KIND = frozenset({"cells", "level", "label"})


def _number(value: object) -> tuple[float, float]:
    """A variable as two numbers: its value where it is a number, and whether it is set."""
    if value is None:
        return 0.0, 0.0
    if isinstance(value, (bool, int, float)):
        return float(value), 1.0
    if isinstance(value, list):
        return float(len(value)), 1.0
    return 0.0, 1.0


def _feature_name(key: Key) -> str:
    if key[0] == "size":
        return "size"
    if key[0] == "type":
        return str(key[1])
    return f"{key[1]}.{key[2]}={key[3][1] if len(key[3]) > 1 else 'none'}"
