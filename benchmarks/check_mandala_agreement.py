"""Plays the engine (rulesets/mandala.bk) and the baseline in lockstep and checks they agree.

The baseline starts from the engine's dealt position (same deck order, hands, cups,
mountains, start player). At every decision both must offer the same options to the same
player; the same random option is played in both, and every zone must then hold the same
cards (the deck and the rivers in the same order). A reshuffle is random in each, so after
one the baseline takes the engine's new deck and zones. At the end the scores, winners,
end reason and turn count must match.

    python benchmarks/check_mandala_agreement.py --games 500

It uses only the engine's public inspection API (game.zone, game.var, game.to_move). A
difference means that the baseline no longer plays what mandala.bk says, or that the
engine does not.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mandala_baseline as mb  # noqa: E402


def colours(zone):
    return [card["colour"] for card in zone]


def engine_zones(e):
    """The engine's zones in baseline form: deck with its top last, like the baseline's."""
    zones = {"deck": list(reversed(colours(e.zone("deck")))), "discard": colours(e.zone("discard"))}
    for p in mb.PLAYERS:
        zones[f"hand[{p}]"] = colours(e.zone("hand", p))
        zones[f"cup[{p}]"] = colours(e.zone("cup", p))
        zones[f"river[{p}]"] = colours(e.zone("river", p))
        for m in mb.MANDALAS:
            zones[f"field[{m},{p}]"] = colours(e.zone("field", m, p))
    for m in mb.MANDALAS:
        zones[f"mountain[{m}]"] = colours(e.zone("mountain", m))
    return zones


def baseline_zones(b):
    zones = {"deck": b.deck, "discard": b.discard}
    for p in mb.PLAYERS:
        zones[f"hand[{p}]"] = b.hands[p]
        zones[f"cup[{p}]"] = b.cups[p]
        zones[f"river[{p}]"] = b.rivers[p]
        for m in mb.MANDALAS:
            zones[f"field[{m},{p}]"] = b.fields[m][p]
    for m in mb.MANDALAS:
        zones[f"mountain[{m}]"] = b.mountains[m]
    return zones


ORDERED = {"deck", "river[0]", "river[1]"}


def sync(b, e):
    """Copies the engine's zones and counters into the baseline."""
    z = engine_zones(e)
    b.deck, b.discard = z["deck"], z["discard"]
    for p in mb.PLAYERS:
        b.hands[p], b.cups[p], b.rivers[p] = z[f"hand[{p}]"], z[f"cup[{p}]"], z[f"river[{p}]"]
        for m in mb.MANDALAS:
            b.fields[m][p] = z[f"field[{m},{p}]"]
    for m in mb.MANDALAS:
        b.mountains[m] = z[f"mountain[{m}]"]
    b.last_mandala = e.var("last_mandala")
    b.reshuffles = e.var("reshuffles")
    b.passes = e.var("passes")


def differences(b, e):
    ez, bz = engine_zones(e), baseline_zones(b)
    out = []
    for name, cards in ez.items():
        same = bz[name] == cards if name in ORDERED else sorted(bz[name]) == sorted(cards)
        if not same:
            out.append(f"{name}: engine {cards} baseline {bz[name]}")
    if b.is_over != e.is_over:
        out.append(f"is_over: engine {e.is_over} baseline {b.is_over}")
    return out


def check_game(rules, seed):
    """Plays one game in lockstep; returns (end reason, reshuffles) or raises AssertionError."""
    e = rules.new_game(players=2, seed=seed)
    b = mb.new_game(seed)
    sync(b, e)
    b.current_player = e.to_move
    rng = random.Random(seed)
    step = 0
    while not e.is_over:
        engine_moves = [m.label for m in e.legal_moves()]
        baseline_moves = [str(o) for o in b.legal_moves()]
        if sorted(engine_moves) != sorted(baseline_moves) or e.to_move != b.to_move:
            raise AssertionError(
                f"seed {seed}, decision {step} ({e.prompt!r}): engine offers {engine_moves} to "
                f"player {e.to_move}, baseline {baseline_moves} to player {b.to_move}")
        label = rng.choice(engine_moves)
        reshuffles = e.var("reshuffles")
        e.play(label)
        b.play(int(label) if label.isdigit() else label)
        if e.var("reshuffles") != reshuffles:
            sync(b, e)
        diff = differences(b, e)
        if diff:
            raise AssertionError(f"seed {seed}, decision {step}, after {label!r}: " + "; ".join(diff))
        step += 1
    if not b.is_over:
        raise AssertionError(f"seed {seed}: the engine's game is over, the baseline's is not")
    for what, ev, bv in [("scores", list(e.scores()), b.scores()),
                         ("winners", list(e.winners()), b.winners()),
                         ("end reason", e.end_reason, b.end_reason),
                         ("turns", e.turn_count, b.turn_count)]:
        if ev != bv:
            raise AssertionError(f"seed {seed}: {what} engine {ev} baseline {bv}")
    return e.end_reason


def main(argv=None):
    parser = argparse.ArgumentParser(description="Engine and baseline Mandala in lockstep.")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    import boardkit

    rules = boardkit.load_ruleset("mandala")
    reasons = collections.Counter()
    failures = 0
    for seed in range(args.seed, args.seed + args.games):
        try:
            reasons[check_game(rules, seed)] += 1
        except AssertionError as exc:
            failures += 1
            print(f"DIFFERENT: {exc}")
    print(f"{args.games - failures} of {args.games} games agreed; ends: {dict(reasons)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
