"""A plain, hand-written Python Mandala: the baseline for the engine benchmarks.

It plays the same game as ``rulesets/mandala.bk`` (the published rules as
``DECISIONS.md`` settles them) with the same decision structure, so that a random
agent makes the same kind and number of decisions against either implementation:

1. the action: ``"mountain"``, ``"field"`` or ``"discard"`` (only those that can be
   completed into a legal turn), or ``"pass"`` when none can (two passes in a row end
   the game; with the published actions this only happens to an empty hand);
2. the colour (only colours that some mandala accepts for that action);
3. the mandala, ``"m1"`` or ``"m2"`` (mountain and field actions);
4. the number of cards, an int (field and discard actions);
5. during a destruction, each claim: a colour present in the mountain, chosen by
   the player whose pick it is.

Every decision point is offered, even one with a single option, as the engine does.

API::

    game = new_game(seed)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    game.scores()      # [score of player 0, score of player 1]
    game.winners()     # list of winning player indices

Run it as a script for a self-check: 1000 random games with the invariants checked
after every decision.
"""

from __future__ import annotations

import argparse
import random
import statistics

COLOURS = ["red", "orange", "yellow", "green", "purple", "black"]
MANDALAS = ["m1", "m2"]
PLAYERS = [0, 1]
CARDS_PER_COLOUR = 18
HAND_LIMIT = 8

ACTION = "action"
COLOUR = "colour"
MANDALA = "mandala"
COUNT = "count"
CLAIM = "claim"


class Game:
    def __init__(self, seed=None):
        self.rng = random.Random(seed)

        # Every card is just its colour. The top of the deck is the end of the list.
        self.deck = [c for c in COLOURS for _ in range(CARDS_PER_COLOUR)]
        self.discard = []
        self.hands = {p: [] for p in PLAYERS}
        self.cups = {p: [] for p in PLAYERS}
        self.rivers = {p: [] for p in PLAYERS}
        self.mountains = {m: [] for m in MANDALAS}
        self.fields = {m: {p: [] for p in PLAYERS} for m in MANDALAS}

        self.reshuffles = 0
        self.last_mandala = False  # the deck was rebuilt: the next completed mandala ends the game
        self.ending = ""  # why the game ends at the end of this turn; empty while it goes on
        self.end_reason = None
        self.passes = 0
        self.is_over = False
        self.decisions = 0
        self.turn_count = 0  # turns completed

        self.rng.shuffle(self.deck)
        for p in PLAYERS:
            for _ in range(6):
                self.hands[p].append(self.deck.pop())
            for _ in range(2):
                self.cups[p].append(self.deck.pop())
        for m in MANDALAS:
            for _ in range(2):
                self.mountains[m].append(self.deck.pop())

        # The turn in progress.
        self.current_player = self.rng.choice(PLAYERS)
        self.phase = ACTION
        self.action = None
        self.colour = None
        self.mandala = None
        # The destruction in progress.
        self.chooser = None
        self.destroyed = None
        self.was_last = False

    # ----------------------------------------------------------------- rules helpers

    def other(self, p):
        return 1 - p

    def cards_in(self, m):
        cards = list(self.mountains[m])
        for p in PLAYERS:
            cards.extend(self.fields[m][p])
        return cards

    def fits(self, colour, area, m):
        """The Colour Rule: a colour may enter an area if it is already there or
        nowhere in that mandala. Dealt cards count."""
        return colour in area or colour not in self.cards_in(m)

    def target_area(self, action, m, p):
        if action == "mountain":
            return self.mountains[m]
        return self.fields[m][p]

    def mandalas_for(self, action, colour, p):
        return [m for m in MANDALAS if self.fits(colour, self.target_area(action, m, p), m)]

    def hand_colours(self, p):
        return [c for c in COLOURS if c in self.hands[p]]

    def colours_for(self, action, p):
        if action == "discard":
            return self.hand_colours(p)
        return [c for c in self.hand_colours(p) if self.mandalas_for(action, c, p)]

    def max_count(self, action, colour, p):
        hand = self.hands[p]
        if action == "field":
            # A field play keeps at least one card in hand.
            return min(hand.count(colour), len(hand) - 1)
        return hand.count(colour)

    def legal_actions(self, p):
        actions = []
        if self.colours_for("mountain", p):
            actions.append("mountain")
        if len(self.hands[p]) >= 2 and self.colours_for("field", p):
            actions.append("field")
        if self.hands[p]:
            actions.append("discard")
        if not actions:
            # A player who cannot act passes; two passes in a row end the game.
            actions.append("pass")
        return actions

    # ------------------------------------------------------------------- public API

    def legal_moves(self):
        if self.is_over:
            return []
        p = self.current_player
        if self.phase == ACTION:
            return self.legal_actions(p)
        if self.phase == COLOUR:
            return self.colours_for(self.action, p)
        if self.phase == MANDALA:
            return self.mandalas_for(self.action, self.colour, p)
        if self.phase == COUNT:
            return list(range(1, self.max_count(self.action, self.colour, p) + 1))
        if self.phase == CLAIM:
            return [c for c in COLOURS if c in self.mountains[self.destroyed]]
        raise AssertionError(f"unknown phase {self.phase}")

    @property
    def to_move(self):
        """The player who makes the next decision."""
        if self.phase == CLAIM:
            return self.chooser
        return self.current_player

    def play(self, option):
        if option not in self.legal_moves():
            raise ValueError(f"illegal move {option!r} in phase {self.phase}")
        self.decisions += 1
        p = self.current_player

        if self.phase == ACTION:
            if option == "pass":
                self.passes += 1
                if self.passes >= 2:
                    self.ending = "two passes in a row"
                self.end_turn()
                return
            self.passes = 0
            self.action = option
            self.phase = COLOUR

        elif self.phase == COLOUR:
            self.colour = option
            self.phase = COUNT if self.action == "discard" else MANDALA

        elif self.phase == MANDALA:
            self.mandala = option
            if self.action == "mountain":
                self.move_cards(self.hands[p], self.colour, 1, self.mountains[option])
                self.draw(p, min(3, HAND_LIMIT - len(self.hands[p])))
                self.resolve(option, p)
            else:
                self.phase = COUNT

        elif self.phase == COUNT:
            if self.action == "field":
                self.move_cards(self.hands[p], self.colour, option, self.fields[self.mandala][p])
                self.resolve(self.mandala, p)
            else:
                self.move_cards(self.hands[p], self.colour, option, self.discard)
                self.draw(p, option)
                self.end_turn()

        elif self.phase == CLAIM:
            self.claim(self.chooser, option, self.destroyed)
            self.chooser = self.other(self.chooser)
            if not self.mountains[self.destroyed]:
                self.finish_destruction()

    def scores(self):
        result = []
        for p in PLAYERS:
            river = self.rivers[p]
            total = 0
            for card in self.cups[p]:
                if card in river:
                    total += river.index(card) + 1
            result.append(total)
        return result

    def winners(self):
        # Ties: fewer cards in the cup wins; still tied, shared.
        keys = {p: (self.scores()[p], -len(self.cups[p])) for p in PLAYERS}
        best = max(keys.values())
        return [p for p in PLAYERS if keys[p] == best]

    # ----------------------------------------------------------------- turn pieces

    def move_cards(self, source, colour, n, target):
        for _ in range(n):
            source.remove(colour)
            target.append(colour)

    def draw(self, p, n):
        for _ in range(n):
            if not self.deck:
                self.refill_deck()
            if self.deck:
                self.hands[p].append(self.deck.pop())

    def refill_deck(self):
        # The discard pile becomes the new deck once; the next completed mandala is the
        # last. Should the deck run out again, the game ends at the end of the turn.
        if self.reshuffles >= 1 or not self.discard:
            self.ending = "the deck ran out again"
        else:
            self.deck = self.discard
            self.discard = []
            self.rng.shuffle(self.deck)
            self.reshuffles += 1
            self.last_mandala = True

    def resolve(self, m, completer):
        if len(set(self.cards_in(m))) < len(COLOURS):
            self.end_turn()
            return
        # More cards in one's own field picks first; on a tie, the non-completer.
        other = self.other(completer)
        if len(self.fields[m][completer]) > len(self.fields[m][other]):
            self.chooser = completer
        else:
            self.chooser = other
        self.destroyed = m
        # A reshuffle while refilling this mountain makes the *next* mandala the last one.
        self.was_last = self.last_mandala
        self.phase = CLAIM
        if not self.mountains[m]:
            self.finish_destruction()

    def claim(self, q, colour, m):
        taken = [card for card in self.mountains[m] if card == colour]
        self.mountains[m] = [card for card in self.mountains[m] if card != colour]
        if not self.fields[m][q]:
            # A player with an empty field discards what they claim.
            self.discard.extend(taken)
            return
        if colour not in self.rivers[q]:
            self.rivers[q].append(taken.pop())
        self.cups[q].extend(taken)

    def finish_destruction(self):
        m = self.destroyed
        for p in PLAYERS:
            self.discard.extend(self.fields[m][p])
            self.fields[m][p] = []
        for _ in range(2):
            if not self.deck:
                self.refill_deck()
            if self.deck:
                self.mountains[m].append(self.deck.pop())
        if any(len(self.rivers[p]) == 6 for p in PLAYERS):
            self.ending = "a sixth river colour"
        elif self.was_last:
            self.ending = "the last mandala was destroyed"
        self.destroyed = None
        self.chooser = None
        self.end_turn()

    def end_turn(self):
        self.turn_count += 1
        self.action = self.colour = self.mandala = None
        if self.ending:
            self.end_reason = self.ending
            self.is_over = True
            self.phase = None
            return
        self.current_player = self.other(self.current_player)
        self.phase = ACTION

    # ------------------------------------------------------------------ self-check

    def check_invariants(self):
        piles = [self.deck, self.discard]
        for p in PLAYERS:
            piles += [self.hands[p], self.cups[p], self.rivers[p]]
        for m in MANDALAS:
            piles.append(self.mountains[m])
            piles += [self.fields[m][p] for p in PLAYERS]
        everything = [card for pile in piles for card in pile]
        assert len(everything) == len(COLOURS) * CARDS_PER_COLOUR, len(everything)
        for c in COLOURS:
            assert everything.count(c) == CARDS_PER_COLOUR, c
        for m in MANDALAS:
            areas = [self.mountains[m]] + [self.fields[m][p] for p in PLAYERS]
            for c in COLOURS:
                assert sum(1 for area in areas if c in area) <= 1, (m, c)
        for p in PLAYERS:
            assert len(set(self.rivers[p])) == len(self.rivers[p]) <= 6
            assert len(self.hands[p]) <= HAND_LIMIT
        if self.phase == ACTION:
            # No complete mandala at the start of a decision outside a destruction.
            for m in MANDALAS:
                assert len(set(self.cards_in(m))) < len(COLOURS), m
            assert self.legal_moves(), "a turn with no legal action"


def new_game(seed=None):
    return Game(seed)


def random_playout(seed, agent_seed=None, check=False):
    game = new_game(seed)
    rng = random.Random(seed if agent_seed is None else agent_seed)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
        if check:
            game.check_invariants()
    return game


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-check", action="store_true", help="skip the invariant checks")
    args = parser.parse_args()

    scores, decisions, turns, reasons = [], [], [], {}
    for i in range(args.games):
        game = random_playout(args.seed + i, check=not args.no_check)
        scores.extend(game.scores())
        decisions.append(game.decisions)
        turns.append(game.turn_count)
        reasons[game.end_reason] = reasons.get(game.end_reason, 0) + 1
    print(f"games: {args.games}")
    print(f"mean score per player: {statistics.mean(scores):.2f} (sd {statistics.stdev(scores):.2f})")
    print(f"mean decisions per game: {statistics.mean(decisions):.1f} "
          f"(min {min(decisions)}, max {max(decisions)})")
    print(f"mean turns per game: {statistics.mean(turns):.1f}")
    print("end of game:", ", ".join(f"{r} {n}" for r, n in sorted(reasons.items())))
    print("invariants checked after every decision" if not args.no_check else "invariants not checked")


if __name__ == "__main__":
    main()
