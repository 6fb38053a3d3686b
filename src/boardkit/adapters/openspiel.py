"""Any ruleset as an OpenSpiel game for `pyspiel` (needs the `boardkit[openspiel]` extra).

The game is sequential. A ruleset that hides anything (a zone that is not public) is a game of
imperfect information. Chance is sampled (pyspiel's SAMPLED_STOCHASTIC mode): one chance node at
the start has a single outcome, 0, and applying it draws the game's seed among `SEED_SPACE`
from the game's own random generator (its `rng_seed` parameter); every shuffle and draw follows
from that seed. So few seeds that a player's first view told which was drawn would give away
every hidden card. Actions are those of `boardkit.adapters.actions`, observation tensors the
encoding of `boardkit.adapters.encoding`.

Information-state strings have perfect recall: a player's view now, the player's own decisions,
and a digest of every view the player had after the deal and after each decision. Information-state
tensors are the current view's encoding only, like observation tensors: they do not recall.

>>> from boardkit.adapters.openspiel import load_game
>>> game = load_game("benchmarks/connect_four.bk")
>>> state = game.new_initial_state()
>>> state.legal_actions()
[0, 1, 2, 3, 4, 5, 6]
"""

from __future__ import annotations

import hashlib
import json
import operator
import random
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np
import pyspiel

from boardkit.adapters.common import Spaces, rewards
from boardkit.errors import IllegalMove, OptionError
from boardkit.model.defs import MovePieces, Shuffle
from boardkit.model.expr import BuiltinCall, Expr, walk

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from boardkit.game import Game
    from boardkit.registry import Ruleset

__all__ = ["BoardkitGame", "BoardkitState", "load_game"]

#: Seeds the deal is drawn among: too many for anyone to tell which was drawn.
SEED_SPACE = 2**62
#: Decisions after which a game is cut short (OpenSpiel needs a bound on a game's length).
MAX_MOVES = 1000

# With two players, win/lose returns sum to zero.
_TWO = 2
# Games registered with pyspiel in this process, by short name.
_REGISTERED: dict[str, tuple[Spaces, int]] = {}
# The `rng_seed` parameter that asks for a generator seeded from the operating system.
_FRESH = -1


def load_game(rules: Ruleset | str, *, players: int | None = None, options: dict[str, Any] | None = None,
              max_moves: int = MAX_MOVES, rng_seed: int | None = None) -> BoardkitGame:
    """The OpenSpiel game of a ruleset (a name, a rule file's path or a `Ruleset`).

    The game is also registered with pyspiel under `game.get_type().short_name`, so that
    `pyspiel.load_game` finds it. `rng_seed` seeds the
    generator the deals are drawn from (None: from the operating system).

    Raises:
        RuleError: a decision of the rules whose options cannot be bounded.
        OptionError: a bad player count or option, or an `rng_seed` that is not a whole number >= 0.
    """
    if rng_seed is not None and (not isinstance(rng_seed, int) or isinstance(rng_seed, bool) or rng_seed < 0):
        msg = f"rng_seed is a whole number from 0, or None, not {rng_seed!r:.40}"
        raise OptionError(msg)
    spaces = Spaces(rules, players, options)
    ident = json.dumps([spaces.rules.source_filename, spaces.players, spaces.options, max_moves],
                       sort_keys=True, default=str)
    short = f"boardkit_{spaces.rules.name}_{hashlib.sha256(ident.encode()).hexdigest()[:10]}"
    if short not in _REGISTERED:
        _REGISTERED[short] = (spaces, max_moves)
        # pyspiel makes games of a registered type by calling a class with the game's parameters.
        maker = type(f"BoardkitGame_{short}", (BoardkitGame,), {"registered_as": short})
        pyspiel.register_game(_game_type(short, spaces), maker)
    return BoardkitGame(short, {"rng_seed": _FRESH if rng_seed is None else rng_seed})


def _random(spaces: Spaces) -> bool:
    """Whether the rules use chance: shuffles, draws from bags, or `random`."""
    game = spaces.rules.definition
    for proc in game.procs.values():
        for ins in proc.code:
            if isinstance(ins, Shuffle) or (isinstance(ins, MovePieces) and ins.drawn):
                return True
            for value in attrs.asdict(ins, recurse=False).values():
                exprs = value if isinstance(value, tuple) else (value,)
                if any(isinstance(n, BuiltinCall) and n.name == "random"
                       for x in exprs if isinstance(x, Expr) for n in walk(x)):
                    return True
    return False


def _hidden(spaces: Spaces) -> bool:
    return any(z.visibility != "public" for z in spaces.rules.definition.zones.values())


def _game_type(short: str, spaces: Spaces) -> pyspiel.GameType:
    n = spaces.players
    return pyspiel.GameType(
        short_name=short,
        long_name=f"boardkit {spaces.rules.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC if _random(spaces)
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if _hidden(spaces)
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.ZERO_SUM if n == _TWO else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=n,
        min_num_players=n,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"rng_seed": _FRESH},
    )


class BoardkitGame(pyspiel.Game):  # type: ignore[misc]
    """A ruleset as a pyspiel game; made by `load_game`."""

    registered_as = ""

    def __init__(self, short_name: str | dict[str, Any] = "", params: dict[str, Any] | None = None) -> None:
        if isinstance(short_name, dict):  # made by pyspiel, with the parameters only
            params = short_name
            short_name = self.registered_as
        short_name = short_name or self.registered_as
        spaces, max_moves = _REGISTERED[short_name]
        params = {"rng_seed": _FRESH, **(params or {})}
        chance = _random(spaces)
        n = spaces.players
        info = pyspiel.GameInfo(
            num_distinct_actions=spaces.actions.size,
            max_chance_outcomes=1 if chance else 0,
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if n == _TWO else None,
            max_game_length=max_moves,
        )
        super().__init__(_game_type(short_name, spaces), info, params)
        self.short_name = short_name
        self.spaces = spaces
        self.max_moves = max_moves
        self.chance = chance
        self.rng_seed = int(params["rng_seed"])
        self.rng = random.Random(None if self.rng_seed == _FRESH else self.rng_seed)  # noqa: S311 - not for secrets

    def __reduce__(self) -> tuple[Any, ...]:
        return pyspiel.load_game, (self.short_name, {"rng_seed": self.rng_seed})

    def draw_seed(self) -> int:
        """A deal's seed, drawn from the game's generator."""
        return self.rng.randrange(SEED_SPACE)

    def new_initial_state(self) -> BoardkitState:
        """A state before the deal (when the rules use chance) or at the first decision."""
        return BoardkitState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:  # noqa: ANN401, ARG002 - pyspiel's protocol
        """An observer of views; for information states (`perfect_recall`) its strings recall the past."""
        return Observer(self.spaces, recall=bool(getattr(iig_obs_type, "perfect_recall", False)))


# What each player recalls: the labels of their own decisions, and a digest of their views.
_Recall = tuple[list[list[str]], list[str]]


class _Play:
    """The boardkit game inside a state, dealt when first needed, with what each player recalls.

    `recall` holds, for each player p, the labels of p's own decisions and a digest of every view
    p had before a decision. It is worked out (by playing the game again) only when an
    information state is first asked for, and kept up to date from then on: play that never asks
    pays nothing for it. pyspiel copies a state's attributes with `copy.deepcopy` to clone it
    and pickles them to serialize it: this clones the game, and pickles as the game's JSON.
    """

    __slots__ = ("_game", "recall", "seed", "short_name")

    def __init__(self, short_name: str, seed: int | None, game: Game | None = None,
                 recall: _Recall | None = None) -> None:
        self.short_name = short_name
        self.seed = seed  # None before the deal
        self._game = game
        self.recall = recall  # None: not worked out yet

    @property
    def game(self) -> Game | None:
        if self._game is None and self.seed is not None:
            spaces = _REGISTERED[self.short_name][0]
            self._game = spaces.rules.new_game(players=spaces.players, seed=self.seed, options=spaces.options)
        return self._game

    def recalled(self, bk: Game) -> _Recall:
        """What each player recalls of `bk`, the game played from the start again the first time."""
        if self.recall is None:
            spaces = _REGISTERED[self.short_name][0]
            again = spaces.rules.new_game(players=spaces.players, seed=bk.seed, options=spaces.options)
            self.recall = [[] for _ in range(bk.players)], [""] * bk.players
            for label in bk.history:
                views, player = _views(again), int(again.to_move or 0)
                again.play(label)
                self.remember(views, player, label)
        return self.recall

    def remember(self, views: list[str] | None, player: int, label: str) -> None:
        """Adds the views before a decision, and the decision for the player who made it, if recalled."""
        if self.recall is None or views is None:
            return
        mine, seen = self.recall
        for p, text in enumerate(views):
            seen[p] = hashlib.sha256(f"{seen[p]}\n{text}".encode()).hexdigest()
        mine[player].append(label)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Play:
        recall = None if self.recall is None else ([list(m) for m in self.recall[0]], list(self.recall[1]))
        return _Play(self.short_name, self.seed, self._game.clone() if self._game is not None else None, recall)

    def __reduce__(self) -> tuple[Any, ...]:
        game = self.game
        return _load_play, (self.short_name, self.seed, game.to_json() if game is not None else "", self.recall)


def _load_play(short_name: str, seed: int | None, text: str, recall: _Recall | None) -> _Play:
    """A `_Play` from its pickled form."""
    game = _REGISTERED[short_name][0].rules.load_game(text) if text else None
    return _Play(short_name, seed, game, recall)


def _load_state(game: BoardkitGame, text: str) -> BoardkitState:
    """A state from its pickled form."""
    state: BoardkitState = game.deserialize_state(text)
    return state


def _views(bk: Game) -> list[str]:
    return [_view_text(bk, p) for p in range(bk.players)]


def _view_text(bk: Game, player: int) -> str:
    """The player's view as JSON text; the legal moves left out, as the rest tells them."""
    view = bk.view(player)
    view.pop("legal_moves", None)
    return json.dumps(view, sort_keys=True, default=str)


class BoardkitState(pyspiel.State):  # type: ignore[misc]
    """A game in progress; `bk` is the boardkit game (None before the deal)."""

    def __init__(self, game: BoardkitGame) -> None:
        super().__init__(game)
        self.play = _Play(game.short_name, None if game.chance else 0)

    @property
    def bk(self) -> Game | None:
        """The boardkit game; None before the deal."""
        return self.play.game

    def _spiel(self) -> BoardkitGame:
        game: BoardkitGame = self.get_game()
        return game

    def _cut(self, bk: Game) -> bool:
        return len(bk.history) >= self._spiel().max_moves

    def current_player(self) -> int:
        """The player who decides, CHANCE before the deal, TERMINAL at the end."""
        bk = self.bk
        if bk is None:
            return int(pyspiel.PlayerId.CHANCE)
        if bk.is_over or self._cut(bk):
            return int(pyspiel.PlayerId.TERMINAL)
        return int(bk.to_move or 0)

    def is_terminal(self) -> bool:
        """Whether the game is over, or cut short at `max_moves`."""
        bk = self.bk
        return bk is not None and (bk.is_over or self._cut(bk))

    def _legal_actions(self, player: int) -> list[int]:
        bk = self.bk
        if bk is None or self.is_terminal() or player != bk.to_move:
            return []
        return sorted(self._spiel().spaces.actions.legal(bk))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The deal's one outcome, 0: applying it draws the seed (sampled chance)."""
        return [] if self.play.seed is not None else [(0, 1.0)]

    def apply_action(self, action: Any) -> None:  # noqa: ANN401 - checked here, before pyspiel converts it
        """Plays an action: IllegalMove (the state unchanged) for one that is not a legal action number.

        pyspiel would reject a negative number or a non-integer itself, with its own errors.
        """
        try:
            number = operator.index(action)
        except TypeError:
            number = -1
        if isinstance(action, bool) or not 0 <= number < self._spiel().spaces.actions.size:
            # `_apply_action` sees the others: the deal's outcome checked, the move by the action space.
            msg = f"an action is a whole number from 0 to {self._spiel().spaces.actions.size - 1}, not {action!r:.40}"
            raise IllegalMove(msg)
        super().apply_action(number)

    def __reduce__(self) -> tuple[Any, ...]:
        # pyspiel pickles a state with `serialize_game_and_state`, which a sampled-chance Python
        # game cannot take (it asks the game for the state of a C++ generator).
        return _load_state, (self.get_game(), self.serialize())

    def _apply_action(self, action: int) -> None:
        bk = self.bk
        if bk is None:
            if action != 0:
                msg = f"the deal's one outcome is 0, not {action!r:.40}"
                raise IllegalMove(msg)
            self.play = _Play(self.play.short_name, self._spiel().draw_seed())
            return
        if self.is_terminal():
            msg = f"the game is over; action {action!r:.40} cannot be played"
            raise IllegalMove(msg)
        player = int(bk.to_move or 0)
        views = _views(bk) if self.play.recall is not None else None
        bk.apply_action(self._spiel().spaces.actions.move_index(bk, action))
        self.play.remember(views, player, bk.history[-1])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return "deal"
        return self._spiel().spaces.actions.describe(action)

    def returns(self) -> list[float]:
        """1 for a winner and -1 for the others at the end; zeros before, and for a game cut short."""
        bk = self.bk
        return rewards(bk, "win") if bk is not None else [0.0] * self._spiel().spaces.players

    def __str__(self) -> str:
        bk = self.bk
        return "before the deal" if bk is None else bk.to_json()


class Observer:
    """pyspiel's observer protocol over the view encoding: `tensor`, `dict`, `set_from`, `string_from`.

    With `recall` (information states), strings also hold the player's own decisions and a digest
    of the player's earlier views; tensors are the current view's encoding either way.
    """

    def __init__(self, spaces: Spaces, *, recall: bool = False) -> None:
        self.spaces = spaces
        self.recall = recall
        self.tensor: NDArray[np.float32] = np.zeros(spaces.observation.size, np.float32)
        self.dict = spaces.observation.split(self.tensor)

    def set_from(self, state: BoardkitState, player: int) -> None:
        """Fills `tensor` (and the views in `dict`) with the player's view of the state."""
        if state.bk is None:
            self.tensor.fill(0)
            return
        self.tensor[:] = self.spaces.observation.encode(state.bk, player)

    def string_from(self, state: BoardkitState, player: int) -> str:
        """The player's view as JSON text, with the decisions made so far counted (and recalled)."""
        bk = state.bk
        if bk is None:
            return "before the deal"
        view = bk.view(player)
        view.pop("legal_moves", None)
        view["decisions"] = len(bk.history)
        if self.recall:
            mine, seen = state.play.recalled(bk)
            view = {"now": view, "mine": mine[player], "seen": seen[player]}
        return json.dumps(view, sort_keys=True, default=str)
