"""Meenakshi Temple property tests over random games (shared/rules/invariants.md §4), for 2,
3, 4 and 5 players and every combination of the first-game options.

Every invariant is re-derived after every decision from the whole state (`Game.zones()` and
the variables), never from counters of the rules themselves. Games are played to their end:
the end is guaranteed (an empty action stack triggers it, MK-25), so a game that does not end
within the cap is a failure.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from strategies import Script, check_points, cut_points, scripts

import boardkit

RULES = boardkit.load_ruleset("meenakshi")
CONSTS = RULES.constants
COLOURS = ["white", "red", "green", "blue", "yellow", "purple"]
LETTER_POINTS = [0, 1, 3, 6, 10, 15]
# Rounds are bounded by the action stacks (at most 44 cards, MK-25 and invariants.md), and
# turns have bounded decisions; this cap is far above what a game needs.
DECISION_CAP = 6000

players_ = st.sampled_from([2, 3, 4, 5])
options_ = st.fixed_dictionaries({"objectives": st.booleans(), "dotted": st.booleans()})


def layout(card: dict) -> list:
    return CONSTS["FLOOR_LAYOUTS"][card["id"] - 1]


def goal_points(goal: dict, record: list) -> int:
    """The objective's points for one floor, computed from the rule text (MK-28), not the rules."""
    row = CONSTS["OBJECTIVES"][goal["id"] - 1]
    kind, low, high = row[0], row[1], row[2]
    colours = [statue for _, statue in record if statue is not None]
    counts = Counter(colours)
    if kind == "four_colours":
        return low if len(counts) >= 4 else 0
    if kind == "nonwhite_filled":
        return low if all(statue is not None for slot, statue in record if slot != "white") else 0
    if kind == "shiva_floor":
        return high if counts["white"] >= 2 else low if counts["white"] == 1 else 0
    if kind == "three_to_five":
        return low if 3 <= len(colours) <= 5 else 0
    if kind == "three_pairs":
        return low if sum(1 for n in counts.values() if n >= 2) >= 3 else 0
    return low if any(n >= 3 for n in counts.values()) else 0


class Tracker:
    """Checks the invariants after every decision."""

    def __init__(self, game: boardkit.Game) -> None:
        self.game = game
        n = game.players
        self.n = n
        self.initial = Counter({c: 15 if c == "white" else 20 for c in COLOURS})
        self.removed = Counter({c: 3 if c == "white" else 6 for c in COLOURS}) if n == 2 else Counter()
        self.kept_devs = sum(1 for d in CONSTS["DEVELOPMENT"] if d[1] <= n)
        self.sides = {t["label"]: t["side"] for t in game.zone("token_pool")}
        zones = game.zones()
        self.vp = [game.var("vp", p) for p in range(n)]
        self.towers = [len(zones[f"tower[{p}]"]) for p in range(n)]
        self.on_tower = [self.tower_statues(zones, p) for p in range(n)]
        self.trigger_round: int | None = None
        self.check(zones)

    @staticmethod
    def tower_statues(zones: dict[str, list[dict]], p: int) -> int:
        return len(zones[f"built[{p}]"]) + sum(len(zones[f"here[{p},s{i}]"]) for i in range(1, 7))

    def capacity(self, zones: dict[str, list[dict]], p: int) -> int:
        deity = zones[f"board[{p}]"][0]["deity"]
        row = next(b for b in CONSTS["BOARDS"] if b[0] == deity)
        base = row[4] if self.game.var("side", p) == "dot" else row[6]
        return base + 2 * len(zones[f"store_cards[{p}]"])

    def check(self, zones: dict[str, list[dict]], label: str | None = None) -> None:  # noqa: C901, PLR0912
        game, n = self.game, self.n
        # I-MK-1: statues by colour: supply + storehouses + towers (+ the 2-player removal).
        statues = Counter(s["colour"] for k, v in zones.items() if k.startswith(("supply", "storehouse", "here", "built"))
                          for s in v)
        boxed = Counter(s["colour"] for s in zones["box"] if s["type"] == "Statue")
        assert boxed == self.removed
        assert statues + boxed == self.initial
        assert all(s["colour"] == k[7:-1] for k, v in zones.items() if k.startswith("supply") for s in v)
        # I-MK-8: construction cards: market + action stacks + hands + towers.
        cards = [c["id"] for k, v in zones.items() for c in v if c["type"] == "Card"]
        assert sorted(cards) == list(range(1, 51))
        assert all(c["type"] == "Card" for k, v in zones.items() if k.startswith(("market", "face", "action_deck", "hand"))
                   for c in v)
        # A face-up action card on each stack, until a stack runs out, which triggers the end.
        faces = [len(zones[f"face[{h}]"]) for h in ("left", "right")]
        assert faces == [1, 1] or (sorted(faces) == [0, 1] and game.var("last_round") > 0)
        # I-MK-9, I-MK-10, I-MK-11: development cards.
        devs = [d for k, v in zones.items() if k.startswith(("dev_deck", "dev_market", "dev[", "store_cards")) for d in v]
        assert len(devs) == self.kept_devs and all(d["type"] == "Dev" for d in devs)
        assert len(zones["dev_market"]) <= 3
        # I-MK-4: gift tokens, sides never change.
        tokens = zones["token_pool"] + [t for p in range(n) for t in zones[f"tokens[{p}]"]]
        assert {t["label"]: t["side"] for t in tokens} == self.sides
        for p in range(n):
            # I-MK-2: storehouse capacity.
            assert len(zones[f"storehouse[{p}]"]) <= self.capacity(zones, p)
            # I-MK-3: one statue a slot, only on the floor's slots; statues never leave a tower.
            top = zones[f"tower[{p}]"][0]
            slots = len(layout(top)[0])
            for i in range(1, 7):
                here = zones[f"here[{p},s{i}]"]
                assert len(here) <= 1 and (i <= slots or not here)
            on_tower = self.tower_statues(zones, p)
            assert on_tower >= self.on_tower[p]
            self.on_tower[p] = on_tower
            # Towers: the foundation at the bottom, roof cards above; one floor record a roof.
            tower = zones[f"tower[{p}]"]
            assert tower[-1]["type"] == "Foundation" and all(c["type"] == "Card" for c in tower[:-1])
            assert len(game.var("floors", p)) == len(tower) - 1
            if len(tower) > self.towers[p]:
                # I-MK-5, I-MK-16: a new floor; its player gave up the gift tokens, and the floor
                # below had every thick-outlined slot filled.
                assert zones[f"tokens[{p}]"] == []
                below = game.var("floors", p)[-1]
                thick = layout(tower[1])[1]
                assert all(below[i - 1][1] is not None for i in thick)
                assert len(tower) == self.towers[p] + 1
            self.towers[p] = len(tower)
            # I-MK-14: scores never negative, never fall but by 1 (Kali pays a point).
            vp = game.var("vp", p)
            assert vp >= 0
            if vp < self.vp[p]:
                # Only Kali's property spends points, 1 at a time, when the player uses it.
                assert zones[f"board[{p}]"][0]["deity"] == "kali" and label == "board"
                assert self.vp[p] - vp == 1
            self.vp[p] = vp
        # I-MK-12: one pawn a spot; every pawn on one half at the start of each turn.
        pawns = [pw for k, v in zones.items() if k.startswith("spot") for pw in v]
        assert len(pawns) == (4 if n == 2 else n)
        # I-MK-18: the end is triggered once, and the game lasts one more round.
        last = game.var("last_round")
        if last and self.trigger_round is None:
            # The round in which the end was triggered, from the event log: the game lasts
            # the rest of that round and one more.
            assert len([e for e in game.events if getattr(e, "var", None) == "last_round"]) == 1
            self.trigger_round = _round_when_set(game.events)
            assert last == self.trigger_round + 1
        if game.is_over:
            assert self.trigger_round is not None and game.var("round") == last

    def check_views(self) -> None:
        game = self.game
        for viewer in range(self.n):
            view = game.view(viewer)
            for p in range(self.n):
                goal, hand = view["zones"][f"goal[{p}]"], view["zones"][f"hand[{p}]"]
                if p == viewer:
                    assert goal == game.zone("goal", p) and hand == game.zone("hand", p)
                    continue
                # Another player's objective: only that there is one. Their hand: its size,
                # and the cards taken from the (public) market, which everyone saw.
                assert goal == {"count": len(game.zone("goal", p))}
                held = game.zone("hand", p)
                assert hand["count"] == len(held)
                assert all(card in held for card in hand.get("known", []))
            assert view["zones"]["action_deck[left]"] == {"count": len(game.zone("action_deck", "left"))}
            assert "goal_deck" not in str(view["vars"])

    def check_final(self, zones: dict[str, list[dict]]) -> None:
        # I-MK-19: final bonus = storehouse/2 + storehouse cards + roof letters + objective floors.
        game = self.game
        for p in range(self.n):
            parts = game.var("final", p)
            letters = len({c["letter"] for c in zones[f"hand[{p}]"]})
            goal = zones[f"goal[{p}]"]
            records = [*game.var("floors", p), self.current_record(zones, p)]
            objective = sum(goal_points(goal[0], r) for r in records) if goal else 0
            assert parts == [len(zones[f"storehouse[{p}]"]) // 2, len(zones[f"store_cards[{p}]"]),
                             LETTER_POINTS[letters], objective]
            assert game.scores()[p] == game.var("vp", p)
        winners = game.winners()
        best = max(game.scores())
        assert winners and all(game.scores()[w] == best for w in winners)
        if len(winners) == 1 and game.scores().count(best) > 1:
            # Ties: the higher pawn wins.
            tops = [pw["who"] for i in range(1, 10) for h in ("left", "right")
                    for pw in zones.get(f"spot[{h},x{i}]", []) if h == game.var("half")]
            tied = [p for p in range(self.n) if game.scores()[p] == best]
            assert winners == [next(p for p in tops if p in tied)]

    @staticmethod
    def current_record(zones: dict[str, list[dict]], p: int) -> list:
        slots = layout(zones[f"tower[{p}]"][0])[0]
        return [[colour, zones[f"here[{p},s{i}]"][0]["colour"] if zones[f"here[{p},s{i}]"] else None]
                for i, colour in enumerate(slots, 1)]


def _round_when_set(events: list) -> int:
    """The value of `round` when `last_round` was first set."""
    current = 0
    for e in events:
        name = getattr(e, "var", None)
        if name == "round":
            current = e.value
        elif name == "last_round":
            return current
    raise AssertionError("last_round was never set")


def play_out(script: Script, players: int, options: dict[str, Any], views: set[int] = frozenset()) -> Tracker:
    game = RULES.new_game(players=players, seed=script.seed, options=options)
    tracker = Tracker(game)
    pick = script.picker()
    for i in range(DECISION_CAP):
        if game.is_over:
            break
        moves = game.legal_moves()
        assert moves, "no dead ends: a game that is not over always offers a move"
        assert len({m.label for m in moves}) == len(moves)
        move = pick(moves)
        game.play(move)
        tracker.check(game.zones(), move.label)
        if i in views:
            tracker.check_views()
    assert game.is_over, f"no end after {DECISION_CAP} decisions"
    assert game.legal_moves() == [] and game.to_move is None
    tracker.check_final(game.zones())
    ended = RULES.load_game(game.to_json())
    assert ended.is_over and ended.scores() == game.scores() and ended.winners() == game.winners()
    return tracker


@given(script=scripts, players=players_, options=options_, views=check_points)
def test_random_games_keep_every_invariant(script: Script, players: int, options: dict[str, Any],
                                           views: set[int]) -> None:
    play_out(script, players, options, views)


@given(script=scripts, players=players_, checks=check_points, length=cut_points)
def test_json_round_trip_and_determinism(script: Script, players: int, checks: set[int], length: int) -> None:
    """Saved mid-turn and loaded, a game continues identically; same seed and moves, same game."""
    first = RULES.new_game(players=players, seed=script.seed)
    again = RULES.new_game(players=players, seed=script.seed)
    pick = script.picker()
    copy = None
    for i in range(length):
        if first.is_over:
            break
        move = pick(first.legal_moves())
        for g in (first, again, copy):
            if g is not None:
                g.play(move.label)
        if i in checks:
            text = first.to_json()
            loaded = RULES.load_game(text)
            assert loaded.to_json() == text
            assert [m.label for m in loaded.legal_moves()] == [m.label for m in first.legal_moves()]
            assert loaded.view(loaded.to_move or 0) == first.view(first.to_move or 0)
            copy = copy or loaded
    assert again.to_json() == first.to_json() and again.events == first.events
    if copy is not None:
        assert copy.to_json() == first.to_json()
