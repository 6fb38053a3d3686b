"""Meenakshi Temple property tests over random games (shared/rules/invariants.md §4), for 2,
3, 4 and 5 players and every combination of the first-game options.

The property-test kit plays them (boardkit.testing): it checks the invariants the ruleset
declares (statues, construction and development cards, the market, slots, gift tokens, pawns,
scores) after every decision, and the engine's guarantees (JSON round trips, determinism,
undo, views, refused moves, no dead ends) every few decisions. The rest is re-derived here
after every decision from the whole state (`Game.zones()` and the variables), never from
counters of the rules themselves, by a watcher the kit runs. Games are played to their end:
the end is guaranteed (an empty action stack triggers it, MK-25), so a game that does not end
within the cap is a failure.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import settings

import boardkit
from boardkit.testing import Checks, check_rules

RULES = boardkit.load_ruleset("meenakshi")
CONSTS = RULES.constants
COLOURS = ["white", "red", "green", "blue", "yellow", "purple"]
LETTER_POINTS = [0, 1, 3, 6, 10, 15]
# Rounds are bounded by the action stacks (at most 44 cards, MK-25 and invariants.md), and
# turns have bounded decisions; this cap is far above what a game needs.
DECISION_CAP = 6000
# Games a test plays: an eighth of the Hypothesis profile's examples (3 by default); long games.
GAMES = max(2, settings.default.max_examples // 8)
# The views are checked every few decisions.
VIEWS_EVERY = 7


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
    """Checks the invariants after every decision: the kit calls it."""

    calls = 0  # in all games: the kit does run it

    def __init__(self, game: boardkit.Game) -> None:
        self.game = game
        n = game.players
        self.n = n
        self.removed = Counter({c: 3 if c == "white" else 6 for c in COLOURS}) if n == 2 else Counter()
        self.sides = {t["label"]: t["side"] for t in game.zone("token_pool")}
        zones = game.zones()
        self.vp = [game.var("vp", p) for p in range(n)]
        self.towers = [len(zones[f"tower[{p}]"]) for p in range(n)]
        self.on_tower = [self.tower_statues(zones, p) for p in range(n)]
        self.trigger_round: int | None = None
        self.check(zones)

    def __call__(self) -> None:
        Tracker.calls += 1
        game = self.game
        zones = game.zones()
        self.check(zones, game.history[-1])
        if len(game.history) % VIEWS_EVERY == 0:
            self.check_views()
        if game.is_over:
            self.check_final(zones)

    @staticmethod
    def tower_statues(zones: dict[str, list[dict]], p: int) -> int:
        return len(zones[f"built[{p}]"]) + sum(len(zones[f"here[{p},s{i}]"]) for i in range(1, 7))

    def capacity(self, zones: dict[str, list[dict]], p: int) -> int:
        deity = zones[f"board[{p}]"][0]["deity"]
        row = next(b for b in CONSTS["BOARDS"] if b[0] == deity)
        base = row[4] if self.game.var("side", p) == "dot" else row[6]
        return base + 2 * len(zones[f"store_cards[{p}]"])

    def check(self, zones: dict[str, list[dict]], label: str | None = None) -> None:
        game, n = self.game, self.n
        # I-MK-1 (the rules count the statues in play): the 2-player removal, in the box.
        boxed = Counter(s["colour"] for s in zones["box"] if s["type"] == "Statue")
        assert boxed == self.removed
        # I-MK-8 (the rules count the cards 1 to 50): where construction cards may lie.
        assert all(c["type"] == "Card" for k, v in zones.items() if k.startswith(("market", "face", "action_deck", "hand"))
                   for c in v)
        # A face-up action card on each stack, until a stack runs out, which triggers the end.
        faces = [len(zones[f"face[{h}]"]) for h in ("left", "right")]
        assert faces == [1, 1] or (sorted(faces) == [0, 1] and game.var("last_round") > 0)
        # I-MK-9 (the rules count them): only development cards where they lie.
        devs = [d for k, v in zones.items() if k.startswith(("dev_deck", "dev_market", "dev[", "store_cards")) for d in v]
        assert all(d["type"] == "Dev" for d in devs)
        # I-MK-4: gift tokens, sides never change.
        tokens = zones["token_pool"] + [t for p in range(n) for t in zones[f"tokens[{p}]"]]
        assert {t["label"]: t["side"] for t in tokens} == self.sides
        for p in range(n):
            # I-MK-2: storehouse capacity, worked out from the boards' table (the rules declare it
            # with their own function).
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


def test_random_games_keep_every_invariant() -> None:
    calls = Tracker.calls
    report = check_rules("meenakshi", games=GAMES, checks=Checks(max_decisions=DECISION_CAP, every=250,
                                                                 stall_fails=True, watcher=Tracker))
    assert report.games == report.ended == GAMES
    assert Tracker.calls - calls >= report.decisions
    assert set(report.invariants) >= {"statues conserved", "50 construction cards", "development cards"}


def test_the_first_game_options_are_played() -> None:
    for players, objectives, dotted in ((2, False, True), (5, True, False)):
        report = check_rules("meenakshi", games=1, players=players, seed=players,
                             options={"objectives": objectives, "dotted": dotted},
                             checks=Checks(max_decisions=DECISION_CAP, every=400, stall_fails=True, watcher=Tracker))
        assert report.ended == 1
