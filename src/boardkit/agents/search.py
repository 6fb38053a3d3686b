"""Agents that search: greedy (one turn ahead, by the rules' heuristic) and MCTS (UCT).

Both see only what the deciding player may know: on a game with hidden information they search
determinizations of it (`Game.determinize`), never the game itself.
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING

from boardkit.agents.base import agent_names, register_agent
from boardkit.errors import AgentError

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from boardkit.agents.base import Agent
    from boardkit.game import Game
    from boardkit.move import Move

# How much a decided game outweighs any heuristic difference, for the greedy agent.
_DECIDED = 1e9
# How many decisions of a turn the greedy agent plays at random once its budget is spent.
_TURN_REST = 50
# UCT's exploration constant for rewards in [0, 1]: below UCB1's 1.4, so that a few hundred
# iterations go deep enough to see the other players' best replies.
_EXPLORE = 0.5
# A rollout's bound in decisions per turn it may play, for games whose turns never end.
_DECISIONS_PER_TURN = 20
# The greedy agent's budget in positions when a spec gives none; MCTS ranks its root moves with it.
GREEDY_BUDGET = 200
# The most decisions a rollout to the end of the game (`finish`) plays.
_TO_END = 20000
# The smallest scale gains are read on (while every gain so far is zero).
_TINY = 1e-9


def hidden_information(game: Game) -> bool:
    """Whether some player cannot see everything: a zone not public, or a bag (its order)."""
    return any(z.visibility != "public" or z.kind == "bag" for z in game.rules.program.game.zones.values())


def _searchable(game: Game, player: int, rng: random.Random) -> Game:
    """A copy to search: a determinization for `player` where something is hidden."""
    return game.determinize(player, rng) if hidden_information(game) else game.clone()


def advantage(game: Game, player: int) -> float:
    """How much better the game looks for `player` than for the best of the others."""
    if game.is_over:
        winners = game.winners()
        return _DECIDED / len(winners) if player in winners else -_DECIDED
    mine = game.heuristic(player)
    others = [game.heuristic(q) for q in range(game.players) if q != player]
    return mine - max(others) if others else mine


class GreedyAgent:
    """Plays the move that ends its turn best by the heuristic, against the best other player.

    It tries the rest of its turn (every decision it makes before another player decides or
    the game ends), within `budget` positions shared evenly among the options, and follows the
    best line it found while the game offers it; ties are broken by its seeded generator.
    """

    name = "greedy"

    def __init__(self, seed: int = 0, budget: int = 100) -> None:
        self._rng = random.Random(seed)  # noqa: S311 - an opponent, not a secret
        self.budget = budget
        # The rest of the best line: the game, the decisions made in it so far, the labels.
        self._plan: tuple[Game, int, list[str]] | None = None

    def act(self, game: Game) -> int:
        """The index of the best action in ``game.legal_actions()``."""
        n = len(game.legal_actions())
        player = game.to_move
        if n == 1 or player is None:
            return 0
        kept = _next_of(self._plan, game)
        if kept is not None:
            self._plan = (game, len(game.history) + 1, kept[1])
            return kept[0]
        root = _searchable(game, player, self._rng)
        _, line = turn_search(root, player, self.budget, self._rng)
        labels = []
        world = root.clone()
        for action in line:
            labels.append(world.legal_moves()[action].label)
            world.apply_action(action)
        self._plan = (game, len(game.history) + 1, labels[1:])
        return line[0]


def _next_of(plan: tuple[Game, int, list[str]] | None, game: Game) -> tuple[int, list[str]] | None:
    """The next action of a kept line and the rest of it, if `game` is where the line left off and offers it."""
    if plan is not None and plan[0] is game and plan[1] == len(game.history) and plan[2]:
        labels = [m.label for m in game.legal_moves()]
        if plan[2][0] in labels:
            return labels.index(plan[2][0]), plan[2][1:]
    return None


def turn_search(game: Game, player: int, budget: int, rng: random.Random) -> tuple[float, list[int]]:
    """The best advantage `player` can reach before their turn ends, within `budget` positions, and its line.

    The line is empty when the game is over, another player decides, or the budget allows no
    look-ahead (then the rest of the turn is played out one best decision at a time to value it).
    """
    if game.is_over or game.to_move != player:
        return advantage(game, player), []
    if budget <= 1:
        # Out of budget within the turn: the rest of it is played one decision at a time, each
        # the best by the heuristic right after it.
        for _ in range(_TURN_REST):
            if game.is_over or game.to_move != player:
                break
            children = []
            for action in range(len(game.legal_actions())):
                child = game.clone()
                child.apply_action(action)
                children.append((advantage(child, player), rng.random(), child))
            game = max(children, key=lambda c: (c[0], c[1]))[2]
        return advantage(game, player), []
    options = turn_options(game, player, budget, rng)
    best = max(value for value, _ in options)
    return best, rng.choice([line for value, line in options if value == best])


def turn_options(game: Game, player: int, budget: int, rng: random.Random) -> list[tuple[float, list[int]]]:
    """For each first action tried, the best advantage reachable by the end of the turn and its line.

    The budget is shared evenly among the actions; past `budget` actions, a sample of them.
    """
    n = len(game.legal_actions())
    share = max(1, (budget - 1) // n)
    tried = range(n) if n <= budget else sorted(rng.sample(range(n), budget))
    options = []
    for action in tried:
        child = game.clone()
        child.apply_action(action)
        value, line = turn_search(child, player, share, rng)
        options.append((value, [action, *line]))
    return options


class _Node:
    """A node of the search tree: reached by a move of `player` (None at the root)."""

    __slots__ = ("available", "children", "player", "ranks", "total", "visits")

    def __init__(self, player: int | None) -> None:
        self.player = player
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0
        # With `top`: the labels of the moves searched here, each with its rank (0 the best).
        self.ranks: dict[str, int] | None = None


class MCTSAgent:
    """Monte Carlo tree search (UCT) over determinizations, with short rollouts scored by the heuristic.

    Each iteration deals a determinization of what the deciding player cannot see (one tree
    for all of them, its edges named by move labels, each child's exploration counted over the
    iterations in which it was available), walks down the tree, adds one node, and plays on
    for at most `rollout` turns: at random, or with probability `guide` the move that leaves
    its mover best placed by the heuristic, or (`plan` above 0) each turn as the greedy agent
    would with `plan` positions. A finished game rewards its winners; an unfinished one rewards
    each player by how much their heuristic margin over the best other player grew in the
    iteration, squashed into [0, 1] on the scale of the gains this search has seen. With `top`
    above 0 a node offers only its `top` best moves, tried best first: at the root by the greedy
    agent's own search with `root` positions (so its choice is always a candidate, evaluated
    after the rest of its line), below it by the heuristic right after the move. `depth` above 0
    bounds the tree's depth; `depth=1` with `top` compares the candidates on shared deals
    instead of growing a tree (`_compare`), `iterations` then counting rollouts, and with
    `follow=1` the chosen candidate's line is then played to the end of the turn. With `even=1`
    a rollout goes on past its `rollout` turns until the players have played as many turns
    each (`_roll_out`): where a move changes the turn order, the candidates are then judged after
    the same number of turns of every player. With `finish=N` (and `depth=1`), a comparison that
    would leave greedy's first move is checked on N more shared deals played to the game's end
    (`_confirmed`): the challenger is played only if its final score margin is better in sum. With
    `endgame=K` (and `depth=1`), only turns from which one rollout (`_ends_within`) reaches the
    game's end within K turns are compared, each candidate on shared deals played to the end
    (`_to_the_end`) and judged by the deals it wins, then its final score margin; elsewhere the agent
    plays greedy's first choice. A move that
    wins at once (nothing hidden) is played without searching. The budget is `iterations`, or
    `seconds` of thinking when given; the move played is the most visited one.
    """

    name = "mcts"

    def __init__(self, seed: int = 0, iterations: int = 200, seconds: float | None = None, *,
                 rollout: int = 1, guide: float = 0.0, explore: float = _EXPLORE, top: int = 0,
                 plan: int = 0, depth: int = 0, root: int = GREEDY_BUDGET, follow: int = 0,
                 margin: float = 0.0, even: int = 0, finish: int = 0, endgame: int = 0) -> None:
        self._rng = random.Random(seed)  # noqa: S311 - an opponent, not a secret
        self.iterations = iterations
        self.seconds = seconds
        self.rollout = rollout
        self.guide = guide
        self.explore = explore
        self.top = top
        self.plan = plan
        self.depth = depth
        self.root = root
        self.follow = follow
        self.margin = margin
        self.even = even
        self.finish = finish
        self.endgame = endgame
        # With `follow`: the rest of the line chosen at the start of the turn (as the greedy agent's plan).
        self._plan: tuple[Game, int, list[str]] | None = None
        self._margins = _Scale()
        # With `top`: the rest of the greedy line (move labels) after each root candidate.
        self._lines: dict[str, list[str]] = {}
        # With `top` and `depth=1`: the turns compared, and how many of them left greedy's first move.
        self.compared = 0
        self.departed = 0
        # With `finish`: the departures put to the game's end, and how many of them that kept greedy's move.
        self.finished = 0
        self.vetoed = 0

    def act(self, game: Game) -> int:
        """The index, in ``game.legal_actions()``, of the most visited move at the root."""
        moves = game.legal_moves()
        player = game.to_move
        if len(moves) == 1 or player is None:
            return 0
        if self.follow:
            kept = _next_of(self._plan, game)
            if kept is not None:
                self._plan = (game, len(game.history) + 1, kept[1])
                return kept[0]
        hidden = hidden_information(game)
        if not hidden:
            decisive = _winning_action(game, player)
            if decisive is not None:
                return decisive
        root = _Node(None)
        self._lines = {}
        deadline = None if self.seconds is None else time.monotonic() + self.seconds
        if self.top:
            root.ranks = self._root_ranks(_searchable(game, player, self._rng), player)
            if self.depth == 1:
                return self._compare(game, player, root.ranks, deadline)
        self._margins = _Scale()
        done = 0
        while (done < self.iterations) if deadline is None else (done == 0 or time.monotonic() < deadline):
            world = game.determinize(player, self._rng) if hidden else game.clone()
            self._iterate(root, world, [margin(world, p) for p in range(world.players)])
            done += 1
        visits = {label: child.visits for label, child in root.children.items()}
        best = max(visits.get(m.label, -1) for m in moves)
        return self._rng.choice([i for i, m in enumerate(moves) if visits.get(m.label, -1) == best])

    def _compare(self, game: Game, player: int, ranks: dict[str, int], deadline: float | None) -> int:
        """The candidate whose rollouts end best for `player` on average, all played on the same deals.

        Each round deals one determinization and one seed for the rollouts' choices, and plays
        every candidate from it (common random numbers), so that what the candidates do not
        change, such as another player's luck, cancels out. Ties go to the better ranked.
        """
        moves = [m.label for m in game.legal_moves()]
        candidates = sorted(ranks, key=ranks.__getitem__)
        if self.endgame:
            best = self._endgame_choice(game, player, candidates, deadline)
            self._plan = (game, len(game.history) + 1, self._lines[best])
            return moves.index(best)
        totals = dict.fromkeys(candidates, 0.0)
        tried = 0
        for label, world, seed in self._on_shared_deals(game, player, candidates, deadline):
            tried += 1
            if world is None:  # not on this deal: it cannot be relied on
                totals[label] -= _DECIDED
                continue
            self._roll_out(world, random.Random(seed))  # noqa: S311 - common random numbers, not a secret
            totals[label] += advantage(world, player)
        rounds = tried // len(candidates)
        best = max(candidates, key=lambda label: (totals[label], -ranks[label]))
        if totals[best] - totals[candidates[0]] <= self.margin * rounds:
            best = candidates[0]  # not better than greedy's choice by enough to leave it
        if self.finish and best != candidates[0]:
            self.finished += 1
            if not self._confirmed(game, player, candidates[0], best):
                self.vetoed += 1
                best = candidates[0]
        self.compared += 1
        self.departed += best != candidates[0]
        self._plan = (game, len(game.history) + 1, self._lines[best])
        return moves.index(best)

    def _on_shared_deals(self, game: Game, player: int, candidates: list[str], deadline: float | None, *,
                         count: int | None = None) -> Iterator[tuple[str, Game | None, float]]:
        """Round after round, one shared deal: each candidate on it, played with the rest of its line.

        Yields the candidate, its game (None where the deal does not offer it) and the round's
        rollout seed, one candidate at a time: the caller rolls each out before the next is made.
        Rounds go on while the iterations (or the time) last, at least one; or `count` rounds.
        """
        hidden = hidden_information(game)
        rounds = 0
        while (rounds < count) if count is not None else (rounds * len(candidates) < self.iterations) if (
                deadline is None) else (rounds == 0 or time.monotonic() < deadline):
            deal = game.determinize(player, self._rng) if hidden else game.clone()
            seed = self._rng.random()
            for label in candidates:
                world = deal.clone()
                offered = [m.label for m in world.legal_moves()]
                if label not in offered:
                    yield label, None, seed
                    continue
                world.apply_action(offered.index(label))
                _follow(world, self._lines[label], player)
                yield label, world, seed
            rounds += 1

    def _endgame_choice(self, game: Game, player: int, candidates: list[str], deadline: float | None) -> str:
        """Greedy's first choice, unless the end is near and another candidate ends the game better on shared deals.

        Near the end (`_ends_within`), every candidate is played on the same deals with the rest of its
        line, then the game to its end (`_to_the_end`, the same seed for all); a candidate is worth the
        share of those games `player` wins, then (to break ties) its final score margin over the best
        other player in sum. Greedy's choice is left only for a candidate that wins more, or as many
        by a margin larger by more than `margin` a deal.
        """
        greedys = candidates[0]
        if len(candidates) == 1 or not self._ends_within(game, player):
            return greedys
        wins = dict.fromkeys(candidates, 0.0)
        margins = dict.fromkeys(candidates, 0.0)
        tried = 0
        for label, world, seed in self._on_shared_deals(game, player, candidates, deadline):
            tried += 1
            if world is None:  # not on this deal: it cannot be relied on
                wins[label] -= _DECIDED
                continue
            self._to_the_end(world, random.Random(seed))  # noqa: S311 - common random numbers, not a secret
            winners = world.winners() if world.is_over else []
            wins[label] += 1 / len(winners) if player in winners else 0.0
            scores = world.scores()
            others = [s for q, s in enumerate(scores) if q != player]
            margins[label] += scores[player] - (max(others) if others else 0)
        rounds = tried // len(candidates)
        best = max(candidates, key=lambda label: (wins[label], margins[label], -candidates.index(label)))
        if wins[best] == wins[greedys] and margins[best] - margins[greedys] <= self.margin * rounds:
            best = greedys
        self.compared += 1
        self.departed += best != greedys
        return best

    def _ends_within(self, game: Game, player: int) -> bool:
        """Whether one rollout for `player` (each turn as in `plan` rollouts) ends the game within `endgame` turns."""
        world = _searchable(game, player, self._rng)
        stop = world.turn_count + self.endgame
        for _ in range(self.endgame * _DECISIONS_PER_TURN):
            if world.is_over or world.turn_count >= stop:
                break
            self._step(world, self._rng)
        return world.is_over

    def _to_the_end(self, world: Game, rng: random.Random) -> None:
        """Plays on to the end of the game (at most `_TO_END` decisions), each decision as in rollouts."""
        for _ in range(_TO_END):
            if world.is_over:
                return
            self._step(world, rng)

    def _step(self, world: Game, rng: random.Random) -> None:
        """One decision of a rollout, or with `plan` the rest of the mover's turn as the greedy agent would play it."""
        n = len(world.legal_actions())
        if n > 1 and self.plan:
            self._play_turn(world, rng)
        elif n > 1 and self.guide > 0 and rng.random() < self.guide:
            world.apply_action(_best_action(world, rng))
        else:
            world.apply_action(rng.randrange(n))

    def _confirmed(self, game: Game, player: int, greedys: str, challenger: str) -> bool:
        """Whether `challenger` ends the game better for `player` than `greedys` over `finish` shared deals.

        Each deal plays both moves, the rest of their greedy lines and the rollout as in `_compare`,
        then the game on to its end (`_play_to_end`, the same seed for both); a move's value is
        `player`'s final score less the best other player's. The challenger must do better in sum.
        """
        totals = {greedys: 0.0, challenger: 0.0}
        for label, world, seed in self._on_shared_deals(game, player, [greedys, challenger], None, count=self.finish):
            if world is None:
                totals[label] -= _DECIDED
                continue
            rng = random.Random(seed)  # noqa: S311 - common random numbers, not a secret
            self._roll_out(world, rng)
            self._play_to_end(world, rng)
            scores = world.scores()
            others = [s for q, s in enumerate(scores) if q != player]
            totals[label] += scores[player] - (max(others) if others else 0)
        return totals[challenger] > totals[greedys]

    def _play_to_end(self, world: Game, rng: random.Random) -> None:
        """Plays on to the end of the game (at most `_TO_END` decisions), each decision as in `guide` rollouts."""
        for _ in range(_TO_END):
            if world.is_over:
                return
            n = len(world.legal_actions())
            if n > 1 and self.guide > 0 and rng.random() < self.guide:
                world.apply_action(_best_action(world, rng))
            else:
                world.apply_action(rng.randrange(n))

    def _root_ranks(self, world: Game, player: int) -> dict[str, int]:
        """The `top` best first moves by the greedy agent's search of the rest of the turn; keeps their lines."""
        options = [(value, self._rng.random(), line)
                   for value, line in turn_options(world, player, self.root, self._rng)]
        options.sort(reverse=True)
        ranks = {}
        for rank, (_, _, line) in enumerate(options[:self.top]):
            line_world = world.clone()
            labels = []
            for action in line:
                labels.append(line_world.legal_moves()[action].label)
                line_world.apply_action(action)
            ranks[labels[0]] = rank
            self._lines[labels[0]] = labels[1:]
        return ranks

    def _ranks(self, world: Game, moves: list[Move]) -> dict[str, int]:
        """The `top` best moves by the mover's advantage right after each."""
        mover = moves[0].player
        values = []
        for action, move in enumerate(moves):
            child = world.clone()
            child.apply_action(action)
            values.append((advantage(child, mover), self._rng.random(), move.label))
        values.sort(reverse=True)
        return {label: rank for rank, (_, _, label) in enumerate(values[:self.top])}

    def _iterate(self, root: _Node, world: Game, start: list[float]) -> None:
        rng = self._rng
        node, path = root, [root]
        first = None
        while not world.is_over and not (self.depth and len(path) > self.depth):
            moves = world.legal_moves()
            mover = moves[0].player
            offered: Sequence[int] = range(len(moves))
            if self.top:
                if node.ranks is None:
                    node.ranks = self._ranks(world, moves)
                ranks = node.ranks
                # A determinization may lack every ranked move: then all of its moves are offered.
                offered = [i for i in offered if moves[i].label in ranks] or offered
            untried = [i for i in offered if moves[i].label not in node.children]
            for i in offered:
                child = node.children.get(moves[i].label)
                if child is not None:
                    child.available += 1
            if untried:
                known = node.ranks
                i = rng.choice(untried) if known is None else min(untried, key=lambda j: known.get(moves[j].label, -1))
                world.apply_action(i)
                first = first or moves[i].label
                node.children[moves[i].label] = node = _Node(mover)
                path.append(node)
                break
            kids = node.children
            explore = self.explore
            scores = {i: _ucb(kids[moves[i].label], explore) for i in offered}
            i = max(scores, key=scores.__getitem__)
            world.apply_action(i)
            first = first or moves[i].label
            node = node.children[moves[i].label]
            path.append(node)
        if len(path) > 1 and path[-2] is root and first in self._lines:
            _follow(world, self._lines[first], path[1].player)
        self._roll_out(world)
        reward = self._rewards(world, start)
        for n in path:
            n.visits += 1
            if n.player is not None:
                n.total += reward[n.player]

    def _roll_out(self, world: Game, rng: random.Random | None = None) -> None:
        """Plays on until `rollout` more turns have begun (or, in a game without turns, as many decisions).

        With `even`, it then plays on, turn by turn, until every player has played as many of its
        turns as the others (at most `rollout` turns a player in all), so that a move that gives
        its player one more turn before the rollout ends is not credited with that turn's gains.
        """
        rng = rng or self._rng
        stop = world.turn_count + self.rollout
        reach = self.rollout * (world.players if self.even else 1)
        bound = world.turn_count + reach
        turns = [0] * world.players  # with `even`: the turns each player has played in the rollout
        seen = -1
        for _ in range(reach * _DECISIONS_PER_TURN):
            if world.is_over:
                return
            if world.turn_count != seen:  # a turn begins (or the rollout does)
                if world.turn_count >= stop and (not self.even or world.turn_count >= bound
                                                 or min(turns) == max(turns)):
                    return
                seen = world.turn_count
                who = world.state.turn_player
                if isinstance(who, int) and 0 <= who < len(turns):
                    turns[who] += 1
            n = len(world.legal_actions())
            if n > 1 and self.plan:
                self._play_turn(world, rng)
            elif n > 1 and self.guide > 0 and rng.random() < self.guide:
                world.apply_action(_best_action(world, rng))
            else:
                world.apply_action(rng.randrange(n))

    def _play_turn(self, world: Game, rng: random.Random) -> None:
        """Plays the mover's best line to the end of their turn, as the greedy agent with `plan` positions would."""
        mover = world.to_move
        assert mover is not None  # noqa: S101 - only asked while the game goes on
        _, line = turn_search(world, mover, self.plan, rng)
        if not line:  # no budget to look ahead: one best decision
            world.apply_action(_best_action(world, rng))
        for action in line:
            # The line was found on copies; a draw that came out otherwise here ends it early.
            if world.is_over or world.to_move != mover or action >= len(world.legal_actions()):
                return
            world.apply_action(action)

    def _rewards(self, world: Game, start: list[float]) -> list[float]:
        """Each player's reward in [0, 1]: the winners' share of a finished game, else the squashed gain.

        The gain is how much a player's margin grew since the iteration began, so that rewards
        tell the moves apart however far ahead or behind the player already is.
        """
        if world.is_over:
            winners = world.winners()
            return [1 / len(winners) if p in winners else 0.0 for p in range(world.players)]
        gains = [margin(world, p) - m for p, m in enumerate(start)]
        scale = self._margins.add(gains)
        return [0.5 + 0.5 * math.tanh(g / scale) for g in gains]


class _Scale:
    """The mean absolute gain seen so far: the unit in which a search squashes gains."""

    __slots__ = ("count", "total")

    def __init__(self) -> None:
        self.total = 0.0
        self.count = 0

    def add(self, gains: list[float]) -> float:
        """Takes in a leaf's gains and gives the scale to read them on."""
        self.total += sum(abs(g) for g in gains)
        self.count += len(gains)
        return max(self.total / self.count, _TINY)


def margin(game: Game, player: int) -> float:
    """`player`'s heuristic less the best other player's (their heuristic alone in a one-player game)."""
    mine = game.heuristic(player)
    others = [game.heuristic(q) for q in range(game.players) if q != player]
    return mine - max(others) if others else mine


def _best_action(world: Game, rng: random.Random) -> int:
    """The action that leaves the mover best placed by `advantage` right after it, ties broken at random."""
    mover = world.to_move
    assert mover is not None  # noqa: S101 - only asked while the game goes on
    best, chosen = -math.inf, []
    for action in range(len(world.legal_actions())):
        child = world.clone()
        child.apply_action(action)
        value = advantage(child, mover)
        if value > best:
            best, chosen = value, [action]
        elif value == best:
            chosen.append(action)
    return rng.choice(chosen)


def _follow(world: Game, labels: list[str], player: int | None) -> None:
    """Plays `labels` while `player` decides and the game offers them (a greedy line found on another deal)."""
    for label in labels:
        if world.is_over or world.to_move != player:
            return
        offered = [m.label for m in world.legal_moves()]
        if label not in offered:
            return
        world.apply_action(offered.index(label))


def _winning_action(game: Game, player: int) -> int | None:
    """An action after which the game is over and `player` its only winner, if there is one."""
    for action in range(len(game.legal_actions())):
        child = game.clone()
        child.apply_action(action)
        if child.is_over and child.winners() == [player]:
            return action
    return None


def _ucb(kid: _Node, explore: float) -> float:
    """UCT's score of a child, its exploration counted over the iterations it was available in."""
    return kid.total / kid.visits + explore * math.sqrt(math.log(kid.available) / kid.visits)


def parse_budget(spec: str, budget: str | None) -> tuple[int, float | None]:
    """An iteration count (``400``) or a time (``2s``, ``0.5s``) from a spec's budget part.

    Raises:
        AgentError: a budget that is neither, or not above zero.
    """
    if budget is None:
        return GREEDY_BUDGET, None
    text = budget.strip()
    try:
        if text.endswith("s"):
            seconds = float(text[:-1])
            if not math.isfinite(seconds) or seconds <= 0:
                raise ValueError  # noqa: TRY301 - one message for every bad budget
            return 1, seconds
        iterations = int(text)
        if iterations <= 0:
            raise ValueError  # noqa: TRY301 - as above
    except ValueError:
        name = spec.partition(":")[0]
        msg = (f"bad budget in {spec!r}: give a number of iterations (e.g. {name}:400) or seconds (e.g. {name}:2s); "
               f"agents: {', '.join(agent_names())}")
        raise AgentError(msg) from None
    return iterations, None


def _greedy(budget: str | None, seed: int) -> Agent:
    positions, seconds = parse_budget(f"greedy:{budget}", budget)
    if seconds is not None:
        msg = f"the greedy agent's budget is a number of positions (e.g. greedy:200), not {budget!r}"
        raise AgentError(msg)
    return GreedyAgent(seed, positions)


# MCTS's options in a spec: name, type, least value, greatest value (None: no bound).
_MCTS_OPTIONS: dict[str, tuple[type[int | float], float, float | None]] = {
    "explore": (float, 0, None), "guide": (float, 0, 1), "plan": (int, 0, None), "rollout": (int, 0, None),
    "top": (int, 0, None), "depth": (int, 0, None), "root": (int, 1, None), "follow": (int, 0, 1),
    "margin": (float, 0, None), "even": (int, 0, 1), "finish": (int, 0, None), "endgame": (int, 0, None)}


def _mcts(budget: str | None, seed: int) -> Agent:
    """``mcts``, ``mcts:400``, ``mcts:2s``, with options after further colons: ``mcts:200:top=4:plan=20``."""
    parts = [] if budget is None else budget.split(":")
    count = parts.pop(0) if parts and "=" not in parts[0] else None
    spec = f"mcts:{budget}"
    iterations, seconds = parse_budget(f"mcts:{count}", count)
    options: dict[str, float] = {}
    for part in parts:
        key, equals, text = part.partition("=")
        if not equals or key.strip() not in _MCTS_OPTIONS:
            msg = (f"bad option {part!r} in {spec!r}: give key=value with a key among "
                   f"{', '.join(_MCTS_OPTIONS)} (e.g. mcts:200:top=4:plan=20:rollout=3)")
            raise AgentError(msg)
        key = key.strip()
        kind, least, most = _MCTS_OPTIONS[key]
        try:
            value = kind(text.strip())
        except ValueError:
            value = None
        if value is None or not math.isfinite(value) or value < least or (most is not None and value > most):
            bounds = f"at least {least}" if most is None else f"from {least} to {most}"
            number = "a whole number" if kind is int else "a number"
            msg = f"bad value {text!r} for {key} in {spec!r}: {key} takes {number} {bounds}"
            raise AgentError(msg)
        options[key] = value
    return MCTSAgent(seed, iterations, seconds, rollout=int(options.get("rollout", 1)),
                     guide=options.get("guide", 0.0), explore=options.get("explore", _EXPLORE),
                     top=int(options.get("top", 0)), plan=int(options.get("plan", 0)),
                     depth=int(options.get("depth", 0)), root=int(options.get("root", GREEDY_BUDGET)),
                     follow=int(options.get("follow", 0)), margin=options.get("margin", 0.0),
                     even=int(options.get("even", 0)), finish=int(options.get("finish", 0)),
                     endgame=int(options.get("endgame", 0)))


register_agent("greedy", _greedy)
register_agent("mcts", _mcts)
