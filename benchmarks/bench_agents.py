"""Agent strength and game balance runs (long: run in the background, not in the tests).

Usage: python benchmarks/bench_agents.py NAME [--players P] --agents A,B --games N [--jobs J]
       [--stall S] [--seed S] [--by NAME] [--json FILE]

Plays a tournament (seats rotate), prints each game's record as a JSON line as it ends, then win rates with
95% Wilson intervals, ratings, end reasons and game lengths; --json keeps the records for `boardkit` reports.
With --jobs 1, each record also tells, for MCTS agents that compare greedy's candidates (`top` with
`depth=1`), how many of the turns they compared left greedy's first move ("departed": [left, compared]).
"""

from __future__ import annotations

import argparse
import json
import sys

import boardkit
from boardkit.agents import Agent, MCTSAgent, register_agent
from boardkit.tools.simulate import simulate
from boardkit.tools.tournament import Tournament


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("ruleset")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--agents", required=True)
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--stall", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-moves", type=int, default=5000)
    parser.add_argument("--by", action="append", default=[])
    parser.add_argument("--json")
    args = parser.parse_args()
    rules = boardkit.load_ruleset(args.ruleset)
    agents = args.agents.split(",")
    made: list[tuple[str, MCTSAgent]] = []  # this game's MCTS agents (games run here with --jobs 1)

    def counted(budget: str | None, seed: int) -> Agent:
        agent = plain(budget, seed)
        if isinstance(agent, MCTSAgent):
            made.append(("mcts" if budget is None else f"mcts:{budget}", agent))
        return agent

    plain = register_agent("mcts", counted)
    assert plain is not None

    def shown(record: object) -> None:  # each game as it ends, so that a cut run still tells
        line = record.to_dict()  # type: ignore[attr-defined]
        if made:
            line["departed"] = {spec: [agent.departed, agent.compared] for spec, agent in made}
            made.clear()
        print(json.dumps(line), flush=True)

    result = simulate(rules, agents=agents, rotate=True, games=args.games, players=args.players, seed=args.seed,
                      jobs=args.jobs, stall=args.stall, max_moves=args.max_moves, by=args.by, on_game=shown)
    report = Tournament(rules.title, tuple(dict.fromkeys(agents)), tuple(args.by), result)
    print(report.text())
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(report.to_dict(), out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
