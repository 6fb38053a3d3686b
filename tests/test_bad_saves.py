"""Corrupt or foreign saved games given to `load_game`: each is refused with a StateError that names
the fault, never a bare KeyError or TypeError; and values holding pieces survive a round trip."""

from __future__ import annotations

import copy
import functools
import json
import random
import re
from typing import Any, Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardkit
from boardkit.runtime.events import VarSet
from boardkit.model.defs import Branch, CallProc, Choose


@functools.cache
def saved(ruleset: str, players: int = 2, decisions: int = 37) -> str:
    """A game some decisions in (mid-turn, as a rule), by a fixed random choice."""
    game = boardkit.load_ruleset(ruleset).new_game(players=players, seed=5)
    rng = random.Random(5)
    for _ in range(decisions):
        game.play(rng.choice(game.legal_moves()))
    return game.to_json()


def edited(change: Callable[[dict], Any], ruleset: str = "mandala") -> str:
    doc = json.loads(saved(ruleset))
    change(doc)
    return json.dumps(doc)


def refused(text: Any, ruleset: str = "mandala") -> str:
    with pytest.raises(boardkit.StateError) as info:
        boardkit.load_ruleset(ruleset).load_game(text)
    return str(info.value)


def step_not(kinds: tuple[type, ...], proc: str) -> int:
    """The first step of a Mandala procedure whose instruction is none of `kinds`."""
    code = boardkit.load_ruleset("mandala").definition.procs[proc].code
    return next(pc for pc, ins in enumerate(code) if not isinstance(ins, kinds))


def innermost(doc: dict) -> dict:
    return doc["frames"][-1]


def set_var(name: str, value: Any) -> Callable[[dict], None]:
    return lambda d: d["vars"].__setitem__(name, value)


BAD = {
    # Each: the text Mandala's ruleset is given, and the fault named. Not a saved game at all.
    "half a document": (lambda: saved("mandala")[:200], "not JSON"),
    "an empty text": (lambda: "", "not JSON"),
    "bytes that are no text": (lambda: b"\xff\xfe", "not JSON"),
    "None": (lambda: None, "not JSON"),
    "a JSON list": (lambda: "[]", "unknown format (expected format_version 1)"),
    "JSON of another shape": (lambda: '{"name": "mandala"}', "unknown format"),
    "another format version": (lambda: edited(lambda d: d.update(format_version=2)), "unknown format"),
    "a format version as text": (lambda: edited(lambda d: d.update(format_version="1")), "unknown format"),
    "a format version as true": (lambda: edited(lambda d: d.update(format_version=True)), "unknown format"),
    "another ruleset's save": (lambda: saved("chakra"), "it belongs to ruleset 'chakra'"),
    "an edited ruleset's save": (lambda: edited(lambda d: d.update(fingerprint="0" * 16)),
                                 "it belongs to ruleset 'mandala' (0000"),
    # The document's shape: exact types, no coercion.
    "a missing key": (lambda: edited(lambda d: d.pop("seed")), "$ misses ['seed']"),
    "an unknown key": (lambda: edited(lambda d: d.update(extra=1)), "$ has unknown keys ['extra']"),
    "players as text": (lambda: edited(lambda d: d.update(players="2")), "$.players must be an integer, not '2'"),
    "a seed as true": (lambda: edited(lambda d: d.update(seed=True)), "$.seed must be an integer, not True"),
    "a seed as a float": (lambda: edited(lambda d: d.update(seed=5.0)), "$.seed must be an integer, not 5.0"),
    "history labels as ints": (lambda: edited(lambda d: d.update(history=[1, 2])),
                               "$.history[0] must be a string, not 1"),
    "history as text": (lambda: edited(lambda d: d.update(history="abc")), "$.history must be a list, not 'abc'"),
    "history as a mapping": (lambda: edited(lambda d: d.update(history={"a": "b"})), "$.history must be a list"),
    "over as 0": (lambda: edited(lambda d: d.update(over=0)), "$.over must be true or false, not 0"),
    "over as text": (lambda: edited(lambda d: d.update(over="false")), "$.over must be true or false, not 'false'"),
    "events as a mapping": (lambda: edited(lambda d: d.update(events={})), "$.events must be a list, not {}"),
    "an event of no known type": (lambda: edited(lambda d: d["events"].append({"type": "Exploded"})), "is no event"),
    "an event field of the wrong type": (lambda: edited(lambda d: d["events"].append({"type": "TurnEnded", "player": "1"})),
                                         ".player must be an integer, not '1'"),
    "a piece label as an int": (lambda: edited(lambda d: d["pieces"][0].update(label=3)),
                                "$.pieces[0].label must be a string, not 3"),
    "piece ids as text": (lambda: edited(lambda d: d["zones"].update(deck=[str(i) for i in d["zones"]["deck"]])),
                          "$.zones['deck'][0] must be an integer"),
    "a piece id as true": (lambda: edited(lambda d: d["zones"]["discard"].insert(0, True)),
                           "$.zones['discard'][0] must be an integer, not True"),
    "a program counter as a float": (lambda: edited(lambda d: innermost(d).update(pc=1.0)),
                                     ".pc must be an integer, not 1.0"),
    "a turn player as true": (lambda: edited(lambda d: d.update(turn_player=True)),
                              "$.turn_player must be an integer, not True"),
    "knowledge as a mapping": (lambda: edited(lambda d: d.update(known={})), "$.known must be a list, not {}"),
    "the seed as NaN": (lambda: saved("mandala").replace('"seed":5', '"seed":NaN'),
                        "$.seed must be an integer, not nan"),
    # Frames.
    "an unknown procedure": (lambda: edited(lambda d: innermost(d).update(proc="nope")),
                             "no step 1 in procedure 'nope'"),
    "a program counter out of range": (lambda: edited(lambda d: innermost(d).update(pc=10**6)),
                                       "no step 1000000 in procedure 'mountain_play'"),
    "a negative program counter": (lambda: edited(lambda d: innermost(d).update(pc=-1)),
                                   "no step -1 in procedure 'mountain_play'"),
    "a wait at no decision": (lambda: edited(lambda d: innermost(d).update(pc=step_not((Choose, Branch), "mountain_play"))),
                              "of procedure 'mountain_play' is no decision, yet the game waits there"),
    "an outer frame at no call": (lambda: edited(lambda d: d["frames"][0].update(pc=step_not((CallProc,), "play"))),
                                  "of procedure 'play' does not call 'take_turn'"),
    "frames upside down": (lambda: edited(lambda d: d.update(frames=d["frames"][::-1])),
                           "the outermost procedure running is 'mountain_play', not 'play'"),
    "a frame without its parameters": (lambda: edited(lambda d: innermost(d).update(locals={"$actor": 1})),
                                       "procedure 'mountain_play' runs without its locals ['p']"),
    "an actor out of range": (lambda: edited(lambda d: innermost(d)["locals"].update({"$actor": 2})),
                              "no player 2 in a 2-player game"),
    "an actor as text": (lambda: edited(lambda d: innermost(d)["locals"].update({"$actor": "1"})),
                         "no player '1' in a 2-player game"),
    "a decision without a player": (lambda: edited(lambda d: [f["locals"].update({"$actor": None})
                                                              for f in d["frames"]]),
                                    "$.frames[0].locals['$actor'] is None, the history gives 1"),
    "a local of no value type": (lambda: edited(lambda d: innermost(d)["locals"].update(c=1.5)),
                                 "unreadable value 1.5"),
    "a loop past its end": (lambda: edited(lambda d: innermost(d)["locals"].update(it={"items": [1], "index": 5})),
                            "unreadable loop"),
    "running without frames": (lambda: edited(lambda d: d.update(frames=[])),
                               "the game is not over but nothing is running"),
    # The rest of the state.
    "an end reason while the game goes on": (lambda: edited(lambda d: d.update(end_reason="bored")),
                                             "the game goes on but has an end reason ('bored')"),
    "over while still running": (lambda: edited(lambda d: d.update(over=True, end_reason="x")),
                                 "the game is over but has no end reason, or still runs"),
    "a turn player out of range": (lambda: edited(lambda d: d.update(turn_player=2)),
                                   "the turn of player 2, in a 2-player game"),
    "a negative turn player": (lambda: edited(lambda d: d.update(turn_player=-1)),
                               "the turn of player -1, in a 2-player game"),
    "no turn player mid-turn": (lambda: edited(lambda d: d.update(turn_player=None)),
                                "says it is the turn of None"),
    "another turn player mid-turn": (lambda: edited(lambda d: d.update(turn_player=1 - d["turn_player"])),
                                     "but says it is the turn of"),
    "a negative turn count": (lambda: edited(lambda d: d.update(turn_count=-1)),
                              "a negative count of random draws or of turns"),
    "a text for a counter": (lambda: edited(set_var("passes", "2")), "variable 'passes' holds int values, not '2'"),
    "a list for an int": (lambda: edited(set_var("first", [0])), "variable 'first' holds int values, not [0]"),
    "true for an int": (lambda: edited(set_var("first", True)), "variable 'first' holds int values, not True"),
    "a piece for an int": (lambda: edited(set_var("first", {"piece": 0})),
                           "variable 'first' holds int values, not {'piece': 0}"),
    "an int for a bool": (lambda: edited(set_var("last_mandala", 1)),
                          "variable 'last_mandala' holds bool values, not 1"),
    "an int for a text": (lambda: edited(set_var("ending", 0)), "variable 'ending' holds str values, not 0"),
    "a float for a var": (lambda: edited(set_var("passes", 0.5)), "unreadable value 0.5"),
    "a mapping for a var": (lambda: edited(set_var("passes", {"x": 1})), "unreadable value {'x': 1}"),
    "a missing variable": (lambda: edited(lambda d: d["vars"].pop("passes")),
                           "variables differ from the ruleset's: ['passes']"),
    "a lost piece": (lambda: edited(lambda d: d["zones"]["deck"].pop()), "is in no zone"),
    "a piece in two zones": (lambda: edited(lambda d: d["zones"]["discard"].append(d["zones"]["deck"][0])),
                             "is missing or in two zones"),
    "a piece that does not exist": (lambda: edited(lambda d: d["zones"]["deck"].append(999)),
                                    "piece 999 is missing or in two zones (deck)"),
    "an extra piece": (lambda: edited(lambda d: d["pieces"].append(d["pieces"][0])),
                       "it has 109 pieces, but the ruleset's setup creates 108"),
    "a relabelled piece": (lambda: edited(lambda d: d["pieces"][0].update(label="gold")), "piece 0 is Card 'gold'"),
    "knowledge of a missing piece": (lambda: edited(lambda d: d["known"][0].append(999)),
                                     "player 0 knows piece 999, which does not exist"),
    "knowledge of three players": (lambda: edited(lambda d: d.update(known=[[], [], []])),
                                   "knowledge of 3 players in a 2-player game"),
    "a position that cannot start": (lambda: edited(lambda d: d.update(position={"zones": 5})),
                                     "its position cannot start a game: a position's 'zones' maps zone names"),
    "an event naming a missing piece": (lambda: edited(lambda d: d["events"].append(
                                            {"type": "Moved", "pieces": [999], "source": "deck", "dest": "discard"})),
                                        "an event names pieces that do not exist"),
    "an event value naming a missing piece": (lambda: edited(lambda d: d["events"].append(
                                                  {"type": "VarSet", "var": "first", "value": {"piece": 999}})),
                                              "unreadable value {'piece': 999}"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_corrupt_save_is_refused_with_its_fault_named(case: str) -> None:
    make, message = BAD[case]
    assert message in refused(make())


def test_a_piece_attribute_of_another_type_is_refused() -> None:
    text = edited(lambda d: d["pieces"][48]["attrs"].update(value=True), "chakra")
    assert "piece 48 is Plenitude '1' {'value': True}, but setup creates" in refused(text, "chakra")


def test_grid_cells_of_the_wrong_type_are_refused() -> None:
    text = edited(lambda d: d["boards"]["temple"][0].update(cells=5), "ananda")
    assert "$.boards['temple'][0].cells must be a list, not 5" in refused(text, "ananda")


def test_values_nested_too_deep_are_refused() -> None:
    text = edited(set_var("passes", "@")).replace('"@"', "[" * 700 + "]" * 700)
    assert re.search(r"values nested too deeply|not JSON", refused(text))


# Values holding pieces: a variable and its VarSet events, saved by piece id.
KEEP = """game "Keep"
players 2
enum Colour { red, blue }
component Card { colour: Colour } label .colour
zone deck: stack, hidden
zone hand[Player]: pile, owner
var held = none
var kept = []
setup {
  create 2 Card(colour: c) for c in Colour into deck
  move 3 of deck to hand[0]
}
play {
  loop {
    turn 0 {
      choose c from hand[0] prompt "card"
      set held = c
      set kept = hand[0]
    }
  }
}
"""


@pytest.fixture
def keeper() -> boardkit.Game:
    rules = boardkit.parse_ruleset(KEEP, filename="keep.bk")
    game = rules.new_game(players=2, seed=1)
    game.play(game.legal_moves()[-1])
    return game


def test_events_and_variables_holding_pieces_survive_a_round_trip(keeper: boardkit.Game) -> None:
    text = keeper.to_json()
    loaded = keeper.rules.load_game(text)
    assert loaded.to_json() == text
    # Events are plain data: a variable's pieces are named by id there, as in every event.
    sets = [e for e in loaded.events if isinstance(e, VarSet)]
    assert sets[-2].value == {"piece": keeper.var("held").id}
    assert sets[-1].value == [{"piece": p.id} for p in keeper.var("kept")]
    assert loaded.events == keeper.events
    assert loaded.var("held").id == keeper.var("held").id
    assert [p.id for p in loaded.var("kept")] == [p.id for p in keeper.var("kept")]
    loaded.play(loaded.legal_moves()[0])
    keeper.play(keeper.legal_moves()[0])
    assert loaded.to_json() == keeper.to_json()


# Property: any small corruption of a saved game is refused with a StateError, or loads into a
# game that saves the same way again.
def places(value: Any, here: tuple = ()) -> list[tuple]:
    found = [here] if here else []
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
    for k, v in children:
        found += places(v, (*here, k))
    return found


DOC = json.loads(saved("mandala", decisions=12))
# Every place except the long piece, zone and event lists' members, so that the draws spread.
PLACES = [p for p in places(DOC) if not (p[0] in ("pieces", "events", "zones") and len(p) > 2)] + [
    ("pieces", 0, "label"), ("pieces", 5, "attrs", "colour"), ("zones", "deck", 0), ("events", 0, "type"),
    ("events", 3)]
JUNK = st.none() | st.booleans() | st.integers(-2, 200) | st.floats(allow_nan=True) | st.text(max_size=3) | \
       st.lists(st.integers(-1, 3), max_size=2) | st.dictionaries(st.sampled_from(["piece", "items", "index", "type"]),
                                                                st.integers(-1, 3), max_size=2)


def corrupted(doc: dict, path: tuple, how: str, junk: Any) -> dict:
    doc = copy.deepcopy(doc)
    *head, last = path
    parent = functools.reduce(lambda node, k: node[k], head, doc)
    if how == "drop":
        del parent[last]
    elif how == "nudge" and type(parent[last]) is int:
        parent[last] += junk if type(junk) is int else 1
    else:
        parent[last] = junk
    return doc


@settings(max_examples=100, deadline=None)
@given(path=st.sampled_from(PLACES), how=st.sampled_from(["drop", "nudge", "replace"]), junk=JUNK)
def test_a_corrupted_save_is_refused_or_loads_consistently(path: tuple, how: str, junk: Any) -> None:
    text = json.dumps(corrupted(DOC, path, how, junk))
    rules = boardkit.load_ruleset("mandala")
    try:
        game = rules.load_game(text)
    except boardkit.StateError as err:
        assert str(err).startswith("bad saved game: ")
    else:
        assert rules.load_game(game.to_json()).to_json() == game.to_json()
        # What loads is what its history leads to: undo goes back from it like in any game.
        if game.history:
            game.undo()


def test_a_save_refuses_a_variant_whose_base_changed(tmp_path: Any) -> None:
    base = tmp_path / "base.bk"
    base.write_text(KEEP, encoding="utf-8")
    variant = tmp_path / "variant.bk"
    variant.write_text('extends "base.bk"\nvar held = 0\n', encoding="utf-8")
    text = boardkit.load_ruleset(str(variant)).new_game(players=2, seed=1).to_json()
    base.write_text(KEEP.replace("create 2 Card", "create 3 Card"), encoding="utf-8")
    changed = boardkit.parse_ruleset(variant.read_text(encoding="utf-8"), filename=str(variant))
    with pytest.raises(boardkit.StateError, match="belongs to ruleset"):
        changed.load_game(text)


# Claims a save makes that the rules never would: held to what its history gives.


def test_a_frame_local_of_the_wrong_kind_is_refused_at_its_path() -> None:
    doc = json.loads(saved("mandala"))
    frame = next(i for i, f in enumerate(doc["frames"]) if type(f["locals"].get("p")) is int)
    doc["frames"][frame]["locals"]["p"] = "red"
    message = refused(json.dumps(doc))
    assert f"$.frames[{frame}].locals['p'] is 'red', the history gives " in message


def test_a_piece_in_a_zone_that_cannot_hold_it_is_refused_at_its_path() -> None:
    """An inspiration token in a chakra, where the rules only put energies."""
    text = saved("chakra", 2, 40)
    doc = json.loads(text)
    token = next(i for i, p in enumerate(doc["pieces"]) if p["type"] == "Inspiration")
    source = next(z for z, ids in doc["zones"].items() if token in ids)
    doc["zones"][source].remove(token)
    doc["zones"]["chakra[1,red]"].append(token)
    message = refused(json.dumps(doc), "chakra")
    assert f"$.zones[{source!r}] is [], the history gives [{token}]" in message


def test_undo_after_a_load_plays_forward_from_a_nearby_checkpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loading plays the history once; an undo then plays at most a checkpoint's worth of moves."""
    from boardkit.game import CHECKPOINT_EVERY

    rules = boardkit.load_ruleset("mandala")
    game = rules.new_game(players=2, seed=3)
    rng = random.Random(3)
    for _ in range(100):
        game.play(rng.choice(game.legal_moves()))
    loaded = rules.load_game(game.to_json())
    applied = 0

    class Counting:
        """The games' interpreter, counting the decisions it plays again (the compiled build's
        interpreter takes no attribute of a test's)."""

        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def __getattr__(self, name: str) -> Any:
            return getattr(self.inner, name)

        def apply(self, *args: Any) -> None:
            nonlocal applied
            applied += 1
            self.inner.apply(*args)
    for g in (game, loaded):
        monkeypatch.setattr(g, "_interp", Counting(g._interp))  # noqa: SLF001 - the engine the game runs
    for _ in range(3):
        game.undo()
        loaded.undo()
        assert loaded.to_json() == game.to_json()
    assert applied <= 3 * 2 * CHECKPOINT_EVERY  # both games alike, not 100 moves again
