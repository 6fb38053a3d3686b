"""Agent strength and game balance runs (long: run in the background, not in the tests).

Usage: python benchmarks/bench_agents.py NAME [--players P] --agents A,B --games N [--jobs J]
       [--stall S] [--seed S] [--by NAME] [--json FILE] [--conservative A]
       python benchmarks/bench_agents.py NAME [--players P] --agents A,B --pool OUT1 OUT2 ... [--by NAME]
       [--conservative A]

Plays a tournament (seats rotate), prints each game's record as a JSON line as it ends, then win rates with
95% Wilson intervals, ratings, end reasons and game lengths; --json keeps the records for `boardkit` reports.
With --jobs 1, each record also tells, for MCTS agents that compare greedy's candidates (`top` with
`depth=1`), how many of the turns they compared left greedy's first move ("departed": [left, compared]).
--pool reports again, over all their games, the JSON lines of outputs of this script kept from runs of the
same agents (pool only runs whose agents are the same, seeds differing) and plays nothing.
"""

from __future__ import annotations

import argparse
import json
import sys

import attrs

import boardkit
from boardkit.agents import Agent, MCTSAgent, register_agent
from boardkit.tools.simulate import GameRecord, SimulationResult, simulate
from boardkit.tools.tournament import Tournament


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("ruleset")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--agents", required=True)
    parser.add_argument("--games", type=int)
    parser.add_argument("--pool", nargs="+")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--stall", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-moves", type=int, default=5000)
    parser.add_argument("--by", action="append", default=[])
    parser.add_argument("--json")
    parser.add_argument("--conservative", metavar="AGENT")
    args = parser.parse_args()
    rules = boardkit.load_ruleset(args.ruleset)
    agents = args.agents.split(",")
    if args.conservative is not None and args.conservative not in agents:
        parser.error(f"--conservative names an agent of --agents, not {args.conservative!r}")
    if args.pool:
        records = []
        for name in args.pool:
            with open(name, encoding="utf-8") as kept:
                records += [_record(json.loads(line)) for line in kept if line.startswith("{")]
        pooled = SimulationResult(rules.name, args.players, -1, 1, args.max_moves, {}, tuple(records),
                                  sum(r.seconds for r in records))
        assert all(set(r.agents) <= set(agents) for r in records), "pool only runs of the same agents"
        text = Tournament(rules.title, tuple(dict.fromkeys(agents)), tuple(args.by), pooled).text()
        print(text.replace(", seed -1:", f", {len(args.pool)} runs pooled:", 1))
        if args.conservative is not None:
            print(_conservative(rules.title, agents, args.by, pooled, args.conservative))
        departed = [line for r in args.pool for line in _departures(r)]
        if departed:
            left, compared = map(sum, zip(*departed, strict=True))
            print(f"turns that left greedy's first move: {left} of {compared} compared ({100 * left / compared:.1f}%)")
        return 0
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
            if any(agent.finish for _, agent in made):  # departures put to whole games: [kept greedy's, checked]
                line["vetoed"] = {spec: [agent.vetoed, agent.finished] for spec, agent in made if agent.finish}
            made.clear()
        print(json.dumps(line), flush=True)

    result = simulate(rules, agents=agents, rotate=True, games=args.games, players=args.players, seed=args.seed,
                      jobs=args.jobs, stall=args.stall, max_moves=args.max_moves, by=args.by, on_game=shown)
    report = Tournament(rules.title, tuple(dict.fromkeys(agents)), tuple(args.by), result)
    print(report.text())
    if args.conservative is not None:
        print(_conservative(rules.title, agents, args.by, result, args.conservative))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(report.to_dict(), out)
    return 0


def _conservative(title: str, agents: list[str], by: list[str], result: SimulationResult, loser: str) -> str:
    """The report again, every game not ended by the rules counted as won by the seats other than `loser`'s."""
    records = tuple(attrs.evolve(r, winners=tuple(s for s, a in enumerate(r.agents) if a != loser),
                                 end_reason=f"{r.end_reason} (counted lost by {loser})") if r.aborted else r
                    for r in result.records)
    counted = attrs.evolve(result, records=records)
    text = Tournament(title, tuple(dict.fromkeys(agents)), tuple(by), counted).text()
    ended = sum(not r.aborted for r in result.records)
    text = text.replace(f"{len(records)} ended by the rules", f"{ended} ended by the rules", 1)
    return f"conservative reading: games not ended by the rules count as lost by {loser}\n{text}"


def _record(line: dict[str, object]) -> GameRecord:
    """A game's record from its JSON line."""
    fields = {f: line[f] for f in ("index", "seed", "agent_seed", "decisions", "turns", "end_reason", "seconds",
                                   "first_player")}
    scores = line["scores"]
    return GameRecord(**fields, scores=None if scores is None else tuple(scores),  # type: ignore[arg-type]
                      winners=tuple(line["winners"]), agents=tuple(line["agents"]),  # type: ignore[arg-type]
                      tags=tuple(tuple(t) for t in line["tags"]))  # type: ignore[attr-defined]


def _departures(name: str) -> list[tuple[int, int]]:
    """Each game's MCTS departures from greedy's first move and turns compared, from an output's JSON lines."""
    with open(name, encoding="utf-8") as kept:
        return [tuple(counts) for line in kept if line.startswith("{")
                for counts in json.loads(line).get("departed", {}).values()]


if __name__ == "__main__":
    sys.exit(main())
