"""MCTS's spec options (``mcts:200:top=4:plan=20``): parsing, errors, and what each option does."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import boardkit
from boardkit.agents import GreedyAgent, MCTSAgent, make_agent, register_agent
from boardkit.runtime.events import TurnStarted
from boardkit.tools.simulate import simulate

CONNECT_FOUR = str(Path(__file__).resolve().parents[1] / "benchmarks" / "connect_four.bk")


@pytest.fixture(scope="module")
def c4() -> boardkit.Ruleset:
    return boardkit.load_ruleset(CONNECT_FOUR)


@pytest.fixture(scope="module")
def mandala() -> boardkit.Ruleset:
    return boardkit.load_ruleset("mandala")


@pytest.mark.parametrize(("spec", "expected"), [
    ("mcts", {"iterations": 200, "seconds": None, "rollout": 1, "guide": 0.0, "top": 0, "plan": 0, "depth": 0}),
    ("mcts:30:top=3:depth=1:guide=1:rollout=3", {"iterations": 30, "top": 3, "depth": 1, "guide": 1.0, "rollout": 3}),
    ("mcts:200:rollout=3:guide=0.8", {"iterations": 200, "rollout": 3, "guide": 0.8}),
    ("mcts:top=4:plan=20", {"iterations": 200, "top": 4, "plan": 20, "rollout": 1}),
    ("mcts:2s:explore=1.4", {"seconds": 2.0, "explore": 1.4}),
    ("mcts:4:top=2:root=30", {"iterations": 4, "top": 2, "root": 30, "depth": 0}),
    ("mcts:50: top = 3 ", {"iterations": 50, "top": 3}),
    ("mcts:9:top=3:depth=1:margin=2.5", {"iterations": 9, "top": 3, "depth": 1, "margin": 2.5}),
    ("mcts:9:top=3", {"margin": 0.0}),
])
def test_spec_options_set_the_search(spec: str, expected: dict[str, object]) -> None:
    agent = make_agent(spec, 1)
    assert isinstance(agent, MCTSAgent)
    assert {key: getattr(agent, key) for key in expected} == expected


@pytest.mark.parametrize(("spec", "message"), [
    ("mcts:200:width=3", (r"bad option 'width=3' in 'mcts:200:width=3': give key=value with a key among "
                          r"explore, guide, plan, rollout, top, depth, root, follow, margin")),
    ("mcts:200:top", "bad option 'top'"),
    ("mcts:200:guide=2", r"bad value '2' for guide in 'mcts:200:guide=2': guide takes a number from 0 to 1"),
    ("mcts:200:rollout=1.5", "rollout takes a whole number at least 0"),
    ("mcts:200:top=-1", "top takes a whole number at least 0"),
    ("mcts:200:root=0", "root takes a whole number at least 1"),
    ("mcts:200:follow=2", "follow takes a whole number from 0 to 1"),
    ("mcts:200:explore=nan", "bad value 'nan' for explore"),
    ("mcts:200:margin=-1", "margin takes a number at least 0"),
    ("mcts:200:margin=inf", "bad value 'inf' for margin"),
    ("mcts:fast:top=2", "bad budget in 'mcts:fast'"),
    ("mcts:top=2:100", "bad option '100'"),
    ("greedy:50:top=2", "bad budget"),
    ("random:top=2", "takes no budget"),
])
def test_bad_spec_options_are_agent_errors(spec: str, message: str) -> None:
    with pytest.raises(boardkit.AgentError, match=message):
        make_agent(spec)


def _mid_game(rules: boardkit.Ruleset, seed: int, at_least: int) -> boardkit.Game:
    """A Mandala position of player 0 with a few options, reached by the greedy agents."""
    game = rules.new_game(players=2, seed=seed)
    agents = [GreedyAgent(seed=1, budget=20), GreedyAgent(seed=2, budget=20)]
    for _ in range(6):
        game.apply_action(agents[game.to_move or 0].act(game))
    while game.to_move != 0 or len(game.legal_actions()) < at_least:
        assert not game.is_over
        game.apply_action(agents[game.to_move or 0].act(game))
    return game


def test_top_one_plays_the_greedy_agents_choice(mandala: boardkit.Ruleset) -> None:
    """With one candidate at the root, the search can only confirm greedy's own move."""
    game = _mid_game(mandala, 21, 3)
    choices = {GreedyAgent(seed=s, budget=200).act(game) for s in range(3)}
    assert len(choices) == 1  # a position where greedy's best is unique
    before = game.to_json()
    for seed in range(3):
        assert MCTSAgent(seed=seed, iterations=8, top=1).act(game) in choices
    assert game.to_json() == before


def test_top_searches_only_that_many_moves(mandala: boardkit.Ruleset) -> None:
    game = _mid_game(mandala, 22, 3)
    agent = MCTSAgent(seed=0, iterations=40, top=2)
    tried: set[str] = set()
    iterate = agent._iterate  # noqa: SLF001 - the root's children are what the option bounds

    def spy(root: object, world: boardkit.Game, start: list[float]) -> None:
        iterate(root, world, start)  # type: ignore[arg-type]
        tried.update(root.children)  # type: ignore[attr-defined]

    agent._iterate = spy  # type: ignore[method-assign]  # noqa: SLF001
    agent.act(game)
    assert len(tried) == 2
    assert len(game.legal_actions()) >= 3


def test_plan_rollouts_end_with_their_turns(c4: boardkit.Ruleset, mandala: boardkit.Ruleset) -> None:
    for turns in (1, 3):
        world = c4.new_game(players=2, seed=0)
        MCTSAgent(seed=0, rollout=turns, plan=5)._roll_out(world)  # noqa: SLF001 - the bound is the point
        assert len(world.history) == turns
    world = _mid_game(mandala, 23, 2)
    turn = world.turn_count
    MCTSAgent(seed=0, rollout=2, plan=10)._roll_out(world)  # noqa: SLF001
    assert world.is_over or world.turn_count == turn + 2


def test_plan_rollouts_take_a_win_that_random_ones_miss(c4: boardkit.Ruleset) -> None:
    """Player 0 can win in column 0; the greedy-played turn finds it, a random one seldom does."""
    game = c4.new_game(players=2, seed=0)
    for column in (0, 6, 0, 6, 0, 5):
        game.play(str(column))
    planned = game.clone()
    MCTSAgent(seed=0, rollout=1, plan=10)._roll_out(planned)  # noqa: SLF001
    assert planned.is_over
    assert planned.winners() == [0]


def test_a_seeded_agent_with_options_decides_the_same(mandala: boardkit.Ruleset) -> None:
    game = _mid_game(mandala, 24, 3)
    spec = "mcts:12:top=3:plan=6:rollout=2"
    first = [make_agent(spec, seed).act(game) for seed in range(4)]
    assert first == [make_agent(spec, seed).act(game) for seed in range(4)]


def test_depth_one_keeps_the_tree_to_the_root_moves(mandala: boardkit.Ruleset) -> None:
    game = _mid_game(mandala, 25, 3)
    roots: list[object] = []
    for depth in (1, 0):
        agent = MCTSAgent(seed=0, iterations=30, depth=depth, guide=1.0, rollout=2)
        iterate = agent._iterate  # noqa: SLF001 - the tree's shape is what the option bounds

        def spy(root: object, world: boardkit.Game, start: list[float], iterate: object = iterate) -> None:
            iterate(root, world, start)  # type: ignore[operator]
            roots.append(root)

        agent._iterate = spy  # type: ignore[method-assign]  # noqa: SLF001
        agent.act(game)
    shallow, deep = roots[0], roots[-1]
    assert shallow.children  # type: ignore[attr-defined]
    assert all(not child.children for child in shallow.children.values())  # type: ignore[attr-defined]
    assert any(child.children for child in deep.children.values())  # type: ignore[attr-defined]


def test_compare_mode_is_seeded_and_follow_keeps_the_chosen_line(mandala: boardkit.Ruleset) -> None:
    """With top and depth=1 the candidates are compared on shared deals; follow=1 then plays the rest of the turn."""
    game = mandala.new_game(players=2, seed=26)
    spec = "mcts:4:top=2:depth=1:guide=1:rollout=2:follow=1"
    agent, twin = make_agent(spec, 3), make_agent(spec, 3)
    assert isinstance(agent, MCTSAgent)
    followed = 0
    for _ in range(40):
        if game.is_over:
            break
        choice = agent.act(game)
        assert choice == twin.act(game)
        rest = agent._plan[2] if agent._plan is not None else []  # noqa: SLF001 - the kept line
        game.apply_action(choice)
        if rest and game.to_move is not None and rest[0] in [m.label for m in game.legal_moves()]:
            agent._compare = twin._compare = None  # type: ignore[assignment,method-assign]  # noqa: SLF001
            labels = [m.label for m in game.legal_moves()]
            assert labels[agent.act(game)] == rest[0]  # no search: _compare is gone
            assert twin.act(game) == labels.index(rest[0])
            followed += 1
            del agent._compare, twin._compare  # noqa: SLF001
            game.apply_action(labels.index(rest[0]))
    assert followed > 0


def test_margin_keeps_greedys_choice_unless_another_beats_it_by_more(mandala: boardkit.Ruleset) -> None:
    """A position where the comparison leaves greedy's first move; a margin above any gain keeps it."""
    game = mandala.new_game(players=2, seed=20)
    game.apply_action(GreedyAgent(seed=1, budget=20).act(game))
    options = {"iterations": 6, "depth": 1, "rollout": 2, "guide": 1.0}
    greedys = MCTSAgent(seed=0, top=1, **options).act(game)  # type: ignore[arg-type]
    assert MCTSAgent(seed=0, top=3, **options).act(game) != greedys  # type: ignore[arg-type]
    assert MCTSAgent(seed=0, top=3, margin=1e12, **options).act(game) == greedys  # type: ignore[arg-type]


def test_a_wrapped_kind_counts_the_turns_that_left_greedys_choice(mandala: boardkit.Ruleset) -> None:
    """register_agent gives the factory it replaces, so a run can keep its agents and read their counts."""
    made: list[MCTSAgent] = []

    def keep(budget: str | None, seed: int) -> boardkit.agents.Agent:
        agent = plain(budget, seed)
        assert isinstance(agent, MCTSAgent)
        made.append(agent)
        return agent

    plain = register_agent("mcts", keep)
    assert plain is not None
    try:
        simulate(mandala, games=2, players=2, seed=5, agents=["mcts:6:top=3:depth=1:rollout=2:guide=1", "greedy"],
                 rotate=True)
    finally:
        assert register_agent("mcts", plain) is keep
    # The run checks the spec with one agent first, then makes one a game. Seen: 13 of 65 and 23 of 87
    # turns left greedy's first move.
    assert len(made) == 3
    assert all(0 < agent.departed < agent.compared for agent in made[1:])


@pytest.mark.slow
def test_the_turn_comparison_plays_chakra_on_a_par_with_greedy() -> None:
    """Minutes: the plain search scored nothing in 5 of 6 Chakra games against greedy; this one scores."""
    spec = "mcts:3:top=3:depth=1:plan=200:rollout=2:follow=1"
    result = simulate(boardkit.load_ruleset("chakra"), games=2, players=2, seed=820, agents=[spec, "greedy"],
                      rotate=True, stall=300)
    assert all(r.end_reason == "5 chakras harmonized" for r in result.records)
    assert all(r.scores[r.agents.index(spec)] >= 4 for r in result.records)  # seen: 6 and 17


def _rollout_turns(world: boardkit.Game, agent: MCTSAgent) -> list[int]:
    """The players of the turns a rollout from `world` plays: the turn under way, then each turn begun and played."""
    start = len(world.events)
    current = world.state.turn_player
    agent._roll_out(world)  # noqa: SLF001 - the rollout's extent is the point
    begun = [e.player for e in world.events[start:] if isinstance(e, TurnStarted)]
    # A rollout stops as a turn begins: the last turn begun was not played, unless the game ended in it.
    played = begun if world.is_over else begun[:-1]
    return [current, *played]


@pytest.mark.parametrize("spec", ["mcts:1:even=1", "mcts:9:top=3:depth=1:rollout=2:follow=1:margin=4:even=1"])
def test_even_is_parsed_and_off_by_default(spec: str) -> None:
    agent = make_agent(spec, 0)
    assert isinstance(agent, MCTSAgent)
    assert agent.even == 1
    plain = make_agent(spec.replace(":even=1", ""), 0)
    assert isinstance(plain, MCTSAgent)
    assert plain.even == 0


def test_even_rollouts_give_every_player_as_many_turns(c4: boardkit.Ruleset) -> None:
    """Alternating turns: one rollout turn is the other player's only; `even` adds the mover's next one."""
    for even, turns in ((0, 1), (1, 2)):
        world = c4.new_game(players=2, seed=0)
        world.play("3")
        assert _rollout_turns(world, MCTSAgent(seed=0, rollout=1, even=even)) == [1, 0][:turns]
    world = c4.new_game(players=2, seed=0)
    assert _rollout_turns(world, MCTSAgent(seed=0, rollout=2, even=1)) == [0, 1]  # already even: as without


def test_even_rollouts_share_turns_when_the_order_is_irregular() -> None:
    """Meenakshi with 2 players seats the turns by pawn heights (A, B, B, A in the first round): a
    plain two-turn rollout often gives one player both turns; an even one never ends that way."""
    rules = boardkit.load_ruleset("meenakshi")
    game = rules.new_game(players=2, seed=3)
    uneven_plain = longer = 0
    starts = 0
    rng = random.Random(5)
    while not game.is_over and starts < 12:
        turn = game.turn_count
        game.apply_action(rng.randrange(len(game.legal_actions())))
        if game.turn_count == turn or game.is_over:
            continue
        starts += 1  # the start of a turn: roll out from here both ways, on the same random choices
        plain = _rollout_turns(game.clone(), MCTSAgent(seed=starts, rollout=2))
        even = _rollout_turns(game.clone(), MCTSAgent(seed=starts, rollout=2, even=1))
        assert even[:len(plain)] == plain or len(plain) < 2  # the same turns first (the same choices)
        uneven_plain += plain.count(0) != plain.count(1)
        longer += len(even) > len(plain)
        assert even.count(0) == even.count(1) or len(even) == 4  # even, or at its bound of 2 turns a player
    assert uneven_plain > 0
    assert longer == uneven_plain


@pytest.mark.parametrize(("spec", "message"), [
    ("mcts:9:top=3:depth=1:finish=-1", "finish takes a whole number at least 0"),
    ("mcts:9:top=3:depth=1:finish=1.5", "finish takes a whole number at least 0"),
])
def test_bad_finish_is_an_agent_error(spec: str, message: str) -> None:
    with pytest.raises(boardkit.AgentError, match=message):
        make_agent(spec)


def test_finish_is_parsed_and_off_by_default() -> None:
    agent = make_agent("mcts:6:top=3:depth=1:rollout=2:guide=1:finish=4", 0)
    assert isinstance(agent, MCTSAgent)
    assert agent.finish == 4
    plain = make_agent("mcts:6:top=3:depth=1:rollout=2:guide=1", 0)
    assert isinstance(plain, MCTSAgent)
    assert plain.finish == 0


def test_finish_plays_departures_to_the_end_and_can_keep_greedys_choice(mandala: boardkit.Ruleset) -> None:
    """The margin test's position: the comparison leaves greedy's first move; `finish` puts that to whole games."""
    game = mandala.new_game(players=2, seed=20)
    game.apply_action(GreedyAgent(seed=1, budget=20).act(game))
    options = {"iterations": 6, "depth": 1, "rollout": 2, "guide": 1.0}
    greedys = MCTSAgent(seed=0, top=1, **options).act(game)  # type: ignore[arg-type]
    departs = MCTSAgent(seed=0, top=3, **options).act(game)  # type: ignore[arg-type]
    assert departs != greedys
    seen = set()
    for seed in range(12):
        plain = MCTSAgent(seed=seed, top=3, **options)  # type: ignore[arg-type]
        departure = plain.act(game)
        if not plain.departed:
            continue  # this seed's comparison keeps greedy's move: nothing to check
        agent = MCTSAgent(seed=seed, top=3, finish=3, **options)  # type: ignore[arg-type]
        twin = MCTSAgent(seed=seed, top=3, finish=3, **options)  # type: ignore[arg-type]
        choice = agent.act(game)
        assert choice == twin.act(game)  # seeded
        assert (agent.compared, agent.finished) == (1, 1)  # the same departure, checked on whole games
        assert agent.vetoed + agent.departed == 1
        assert (choice == departure) == (agent.departed == 1)
        seen.add(agent.vetoed)
    assert not game.is_over  # the game itself is untouched
    assert len(game.history) == 1
    assert seen == {0, 1}  # whole games sometimes confirm the departure, sometimes not


def test_finish_rollouts_reach_the_end_of_the_game(mandala: boardkit.Ruleset) -> None:
    game = mandala.new_game(players=2, seed=3)
    agent = MCTSAgent(seed=1, top=3, depth=1, guide=0.5, finish=1)
    world = game.clone()
    agent._play_to_end(world, random.Random(2))  # noqa: SLF001
    assert world.is_over
    assert world.winners()


@pytest.mark.parametrize(("spec", "message"), [
    ("mcts:9:top=3:depth=1:endgame=-1", "endgame takes a whole number at least 0"),
    ("mcts:9:top=3:depth=1:endgame=2.5", "endgame takes a whole number at least 0"),
])
def test_bad_endgame_is_an_agent_error(spec: str, message: str) -> None:
    with pytest.raises(boardkit.AgentError, match=message):
        make_agent(spec)


def test_endgame_is_parsed_and_off_by_default() -> None:
    agent = make_agent("mcts:16:top=4:depth=1:plan=50:follow=1:endgame=6", 0)
    assert isinstance(agent, MCTSAgent)
    assert agent.endgame == 6
    plain = make_agent("mcts:16:top=4:depth=1:plan=50:follow=1", 0)
    assert isinstance(plain, MCTSAgent)
    assert plain.endgame == 0


def _threatened(c4: boardkit.Ruleset) -> boardkit.Game:
    game = c4.new_game(players=2, seed=0)
    for column in (0, 6, 0, 6, 0):  # player 0 threatens four in column 0: player 1 must block it
        game.play(str(column))
    return game


def test_endgame_plays_greedys_choice_far_from_the_end(c4: boardkit.Ruleset) -> None:
    """No win within one turn: the game does not end within `endgame=1` turns, so nothing is compared."""
    game = _threatened(c4)
    options = {"iterations": 42, "depth": 1, "guide": 1.0}
    chosen = set()
    for seed in range(6):
        far = MCTSAgent(seed=seed, top=7, endgame=1, **options)  # type: ignore[arg-type]
        choice = far.act(game)
        assert choice == MCTSAgent(seed=seed, top=1, **options).act(game)  # type: ignore[arg-type]
        assert (far.compared, far.departed) == (0, 0)
        chosen.add(game.legal_moves()[choice].label)
    assert chosen != {"0"}  # greedy's heuristic sees no threat: its ties are broken at random


def test_endgame_compares_candidates_by_how_the_game_ends(c4: boardkit.Ruleset) -> None:
    """Near the end, every column is played to the game's end on shared deals: only the block avoids a loss."""
    game = _threatened(c4)
    departed = 0
    for seed in range(6):
        near = MCTSAgent(seed=seed, iterations=140, top=7, depth=1, guide=1.0, endgame=50)
        assert game.legal_moves()[near.act(game)].label == "0"
        assert near.compared == 1
        departed += near.departed
    assert departed > 0  # greedy's own choice was not the block for some seeds, and the search left it
    assert len(game.history) == 5  # the game itself is untouched


def test_endgame_rollouts_reach_the_end_of_the_game(c4: boardkit.Ruleset) -> None:
    world = _threatened(c4)
    MCTSAgent(seed=1, top=3, depth=1, plan=20, endgame=4)._to_the_end(world, random.Random(2))  # noqa: SLF001
    assert world.is_over
