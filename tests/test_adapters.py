"""The adapters: the action space and observation worked out from the rules, PettingZoo, OpenSpiel."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import boardkit
from boardkit import IllegalMove, RuleError

pytest.importorskip("numpy")

from boardkit.adapters.actions import ActionSpace
from boardkit.adapters.common import Spaces

ROOT = Path(__file__).parents[1]
RULESETS = [*boardkit.list_rulesets(), str(ROOT / "examples" / "go_fish.bk"),
            str(ROOT / "benchmarks" / "connect_four.bk")]
IDS = [Path(r).stem for r in RULESETS]


# The action space.
@pytest.mark.parametrize("name", RULESETS, ids=IDS)
def test_actions_are_stable_and_cover_every_move(name: str) -> None:
    rules = boardkit.load_ruleset(name)
    space = ActionSpace(rules, 2)
    rng = random.Random(3)
    meaning: dict[int, tuple[str, str]] = {}
    game = rules.new_game(players=2, seed=3)
    for _ in range(60):
        if game.is_over:
            break
        legal = space.legal(game)
        labels = [m.label for m in game.legal_moves()]
        assert len(set(legal)) == len(legal) == len(labels)
        assert all(0 <= a < space.size for a in legal)
        block = space.block(game)
        for a, label in zip(legal, labels, strict=True):
            if block.keys is not None:  # a value's number means that value in every state
                assert meaning.setdefault(a, (game.prompt or "", label)) == (game.prompt, label)
        a = rng.choice(legal)
        game.apply_action(space.move_index(game, a))


def test_an_unboundable_choice_is_a_located_error() -> None:
    # Column numbers up to a count the rules keep: neither the values nor their number is bounded.
    text = (ROOT / "benchmarks" / "connect_four.bk").read_text()
    text = text.replace("var winner = none", "var winner = none\nvar drops = 0")
    text = text.replace('choose x from open_columns() prompt "column"',
                        'choose x from open_columns() + range(7, 6 + drops) prompt "column"')
    text = text.replace("set p = next(p)", "set p = next(p)\n    set drops += 1")
    rules = boardkit.parse_ruleset(text, filename="unbounded.bk")
    with pytest.raises(RuleError) as err:
        ActionSpace(rules, 2)
    assert err.value.filename == "unbounded.bk"
    assert "cannot bound the options" in str(err.value)


def test_a_masked_action_is_an_illegal_move_and_changes_nothing() -> None:
    rules = boardkit.load_ruleset(str(ROOT / "benchmarks" / "connect_four.bk"))
    space = ActionSpace(rules, 2)
    game = rules.new_game(players=2)
    for _ in range(6):  # fill column 0
        game.apply_action(space.move_index(game, 0))
    before = game.to_json()
    with pytest.raises(IllegalMove, match="not legal now"):
        space.move_index(game, 0)
    with pytest.raises(IllegalMove):
        space.move_index(game, space.size + 3)
    with pytest.raises(IllegalMove):
        space.move_index(game, "1")
    assert game.to_json() == before


def test_observation_reads_back_into_named_parts() -> None:
    spaces = Spaces(str(ROOT / "benchmarks" / "connect_four.bk"))
    game = spaces.rules.new_game(players=2)
    game.apply_action(spaces.actions.move_index(game, 3))  # player 0 drops in column 3
    parts = spaces.observation.split(spaces.observation.encode(game, 1))
    assert parts["player"].tolist() == [0, 1]
    assert parts["to_move"].tolist() == [0, 1]
    assert parts["prompt"].tolist() == [1]
    board = parts["grid:board"]
    cells = spaces.observation.cells["board"]
    assert board.shape == (2, len(spaces.observation.feature_names), 42)
    assert board[0, 0, cells.index("3,0")] == 1  # occupied, at level 1
    assert board[0, 0].sum() == 1
    seat0 = spaces.observation.feature_names.index("Disc.seat=0")
    assert board[0, seat0, cells.index("3,0")] == 1
    assert parts["zone:supply[0]"][0] == 20


@pytest.mark.parametrize("name", RULESETS, ids=IDS)
def test_observation_of_the_state_is_that_of_the_view(name: str) -> None:
    import numpy as np  # noqa: PLC0415 - skipped above without it

    spaces = Spaces(name, players=2)
    rng = random.Random(4)
    game = spaces.rules.new_game(players=2, seed=4)
    for step in range(80):
        if step % 8 == 0 or game.is_over:
            for p in range(2):
                fast = spaces.observation.encode(game, p)
                assert np.array_equal(fast, spaces.observation.encode_view(game.view(p)))
        if game.is_over:
            break
        game.apply_action(rng.randrange(len(game.legal_actions())))


def test_hidden_zones_show_only_their_size() -> None:
    spaces = Spaces(str(ROOT / "examples" / "go_fish.bk"))
    game = spaces.rules.new_game(players=2, seed=1)
    mine = spaces.observation.split(spaces.observation.encode(game, 0))
    theirs = spaces.observation.split(spaces.observation.encode(game, 1))
    assert mine["zone:hand[1]"][0] == theirs["zone:hand[1]"][0] == 7
    assert mine["zone:hand[1]"][1:].sum() == 0  # no card of player 1's hand shows to player 0
    assert theirs["zone:hand[1]"][1:].sum() > 0
    assert mine["zone:deck"][1:].sum() == 0


# PettingZoo. Its checker warns that dict observations are not arrays: they are, with masks, its
# own convention for games with illegal actions.
@pytest.mark.filterwarnings("ignore:Observation:UserWarning")
@pytest.mark.parametrize(("moves", "cycles"), [(30, 8), pytest.param(400, 300, marks=pytest.mark.slow, id="long")])
@pytest.mark.parametrize("name", RULESETS, ids=IDS)
def test_pettingzoo_api_and_seed(name: str, moves: int, cycles: int) -> None:
    pz_test = pytest.importorskip("pettingzoo.test")
    from boardkit.adapters.pettingzoo import env  # noqa: PLC0415 - needs the extra

    pz_test.api_test(env(name, max_moves=moves, render_mode="ansi"), num_cycles=cycles)
    pz_test.seed_test(lambda: env(name, max_moves=moves), num_cycles=cycles)


def test_pettingzoo_plays_to_the_end_with_rewards() -> None:
    pytest.importorskip("pettingzoo")
    from boardkit.adapters.pettingzoo import env  # noqa: PLC0415

    e = env(str(ROOT / "benchmarks" / "connect_four.bk"), render_mode="ansi")
    e.reset(seed=5)
    rng = random.Random(5)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        e.step(rng.choice([i for i, ok in enumerate(obs["action_mask"]) if ok]))
    assert sorted(totals.values()) in ([-1.0, 1.0], [0.0, 0.0])
    assert "Connect Four" in e.render()


def test_pettingzoo_refuses_a_masked_action() -> None:
    pytest.importorskip("pettingzoo")
    from boardkit.adapters.pettingzoo import env  # noqa: PLC0415

    e = env(str(ROOT / "examples" / "go_fish.bk"))
    e.reset(seed=2)
    mask = e.last()[0]["action_mask"]
    masked = next(i for i, ok in enumerate(mask) if not ok)
    before = e.unwrapped.game.to_json()
    with pytest.raises(IllegalMove):
        e.step(masked)
    assert e.unwrapped.game.to_json() == before


def test_pettingzoo_truncates_at_the_move_bound() -> None:
    pytest.importorskip("pettingzoo")
    from boardkit.adapters.pettingzoo import env  # noqa: PLC0415

    e = env("chakra", max_moves=12)
    e.reset(seed=1)
    rng = random.Random(1)
    steps = 0
    for _ in e.agent_iter(100):
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            assert truncated
            e.step(None)
            continue
        e.step(rng.choice([i for i, ok in enumerate(obs["action_mask"]) if ok]))
        steps += 1
    assert steps == 12


# OpenSpiel.
@pytest.mark.parametrize("name", RULESETS, ids=IDS)
def test_openspiel_random_simulation(name: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from boardkit.adapters.openspiel import load_game  # noqa: PLC0415

    game = load_game(name, max_moves=15, rng_seed=1)
    # pyspiel cannot serialize a sampled-chance Python game (test_openspiel_states_round_trip does).
    serialize = game.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    pyspiel.random_sim_test(game, num_sims=1, serialize=serialize, verbose=False)


@pytest.mark.parametrize("name", RULESETS, ids=IDS)
def test_openspiel_states_round_trip(name: str) -> None:
    pytest.importorskip("pyspiel")
    import pickle  # noqa: PLC0415

    from boardkit.adapters.openspiel import load_game  # noqa: PLC0415

    game = load_game(name, max_moves=12, rng_seed=2)
    state = game.new_initial_state()
    rng = random.Random(2)
    while True:
        for again in (game.deserialize_state(state.serialize()), pickle.loads(pickle.dumps(state))):  # noqa: S301
            assert str(again) == str(state)
            assert again.history() == state.history()
            assert again.legal_actions() == state.legal_actions()
            if not state.is_chance_node():
                assert again.information_state_string(0) == state.information_state_string(0)
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))


def test_openspiel_chance_is_sampled_among_seeds_nobody_can_enumerate() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from boardkit.adapters.openspiel import SEED_SPACE, load_game  # noqa: PLC0415

    for name in ("mandala", str(ROOT / "examples" / "go_fish.bk")):
        game = load_game(name, players=2, rng_seed=5)
        assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
        assert game.max_chance_outcomes() == 1
        root = game.new_initial_state()
        assert root.chance_outcomes() == [(0, 1.0)]
        seeds = []
        for _ in range(6):
            state = root.clone()
            state.apply_action(0)
            seed = state.play.seed
            seeds.append(seed)
            for player in (0, 1):
                assert str(seed) not in state.information_state_string(player)
                assert str(seed) not in state.observation_string(player)
        assert len(set(seeds)) == len(seeds)
        assert max(seeds) > 2**40
        assert all(0 <= s < SEED_SPACE for s in seeds)
        # The same rng_seed draws the same deals.
        again = load_game(name, players=2, rng_seed=5).new_initial_state()
        again.apply_action(0)
        assert again.play.seed == seeds[0]


def test_openspiel_information_states_recall_the_players_own_decisions() -> None:
    pytest.importorskip("pyspiel")
    from boardkit.adapters.openspiel import load_game  # noqa: PLC0415

    game = load_game(str(ROOT / "examples" / "go_fish.bk"), players=2, rng_seed=0)
    root = game.new_initial_state()
    for _ in range(10):
        dealt = root.clone()
        dealt.apply_action(0)
        seen: dict[str, list[int]] = {}
        for a in dealt.legal_actions():
            after = dealt.clone()
            after.apply_action(a)
            for b in after.legal_actions() if after.current_player() == 0 else [None]:
                state = after.clone()
                if b is not None:
                    state.apply_action(b)
                text = state.information_state_string(0)
                assert seen.setdefault(text, state.history()) == state.history()
        assert len(seen) > 1
    # Recall worked out late (by playing the game again) is the recall kept up to date move by move.
    early = root.clone()
    early.apply_action(0)
    late = early.clone()
    early.information_state_string(1)  # from here on, early keeps its recall move by move
    rng = random.Random(4)
    for _ in range(8):
        action = rng.choice(early.legal_actions())
        early.apply_action(action)
        late.apply_action(action)
        assert early.play.recall is not None and late.play.recall is None
    assert [early.information_state_string(p) for p in (0, 1)] == [late.information_state_string(p) for p in (0, 1)]


def test_openspiel_malformed_actions_are_illegal_moves() -> None:
    pytest.importorskip("pyspiel")
    import numpy as np  # noqa: PLC0415

    from boardkit.adapters.openspiel import load_game  # noqa: PLC0415

    game = load_game(str(ROOT / "examples" / "go_fish.bk"), players=2, rng_seed=0)
    state = game.new_initial_state()
    for bad in (1, -1, 2.5, "0", None):
        with pytest.raises(IllegalMove):
            state.apply_action(bad)
    assert state.is_chance_node()
    state.apply_action(0)
    before, history = str(state), state.history()
    unused = max(set(range(game.num_distinct_actions())) - set(state.legal_actions()))
    for bad in (-1, 2.5, 3.0, "3", None, [1], True, float("nan"), np.float32(1.0), 2**70, 10**9, unused):
        with pytest.raises(IllegalMove):
            state.apply_action(bad)
        assert str(state) == before
        assert state.history() == history
    state.apply_action(np.int64(state.legal_actions()[0]))
    assert len(state.history()) == len(history) + 1


@pytest.mark.slow
@pytest.mark.parametrize("name", RULESETS, ids=IDS)
def test_openspiel_random_simulation_long(name: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from boardkit.adapters.openspiel import load_game  # noqa: PLC0415

    game = load_game(name, max_moves=300, rng_seed=1)
    serialize = game.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    pyspiel.random_sim_test(game, num_sims=5, serialize=serialize, verbose=False)


def test_openspiel_state_round_trips_through_its_text() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from boardkit.adapters.openspiel import load_game  # noqa: PLC0415

    game = load_game(str(ROOT / "examples" / "go_fish.bk"))
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    state = game.new_initial_state()
    assert state.is_chance_node()
    state.apply_action(0)
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state)
    assert again.legal_actions() == state.legal_actions()
    assert again.information_state_tensor(0) == state.information_state_tensor(0)
    with pytest.raises(IllegalMove):
        state.apply_action(max(set(range(game.num_distinct_actions())) - set(state.legal_actions())))


def test_openspiel_mcts_plays_against_a_boardkit_agent() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
    import numpy as np  # noqa: PLC0415

    from boardkit.adapters.openspiel import load_game  # noqa: PLC0415
    from boardkit.agents import RandomAgent  # noqa: PLC0415

    game = load_game(str(ROOT / "benchmarks" / "connect_four.bk"))
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    rng = np.random.default_rng(0)
    bot = mcts.MCTSBot(game, 1.4, 40, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    agent = RandomAgent(0)
    results = []
    for first in (0, 1):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == first:
                state.apply_action(bot.step(state))
            else:  # the boardkit agent picks a move of the boardkit game; play its action number
                space = game.spaces.actions
                index = agent.act(state.bk)
                state.apply_action(space.legal(state.bk)[index])
        results.append(state.returns()[first])
    assert all(r in (-1.0, 0.0, 1.0) for r in results)
    assert sum(results) > 0  # MCTS with 40 simulations beats random play at Connect Four
