"""Golden playthroughs: seeded random games of every bundled ruleset, recorded once and replayed.

A record holds, for one game: the ruleset, player count, options and seed; the events of setup;
at every decision the player, the prompt, the offered labels, the chosen label and the events
that followed; then the end reason, scores and winners. The engine must reproduce every record
exactly, so any change in what it offers, does or scores shows here, at the first decision that
differs.

Record (only when a change of behaviour is deliberate, in a commit of its own that says why):

    python tests/golden/playthrough.py --update [NAME ...]
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import attrs

import boardkit

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
# Games per ruleset and player count; the option sets take turns among them, so each is played.
GAMES = 30
# Random play may never finish some games (Chakra's tokens locked in notches): a record stops
# at this many decisions, and keeps the scores it has then.
MAX_DECISIONS = 300

# Every bundled ruleset and the examples' games, by name or path relative to the repository.
RULESETS = ["mandala", "mandala_seed", "ananda", "chakra", "chakra_short", "meenakshi", "examples/go_fish.bk"]


def load(name: str) -> boardkit.Ruleset:
    return boardkit.load_ruleset(str(ROOT / name) if name.endswith(".bk") else name)


def setups(name: str) -> list[tuple[int, dict[str, Any], int]]:
    """GAMES seeds for every player count, the combinations of the options that list their
    choices taking turns, so that every player count meets every option set."""
    rules = load(name)
    choices = {k: list(o.choices) for k, o in rules.options.items() if o.choices}
    combos = [dict(zip(choices, values)) for values in itertools.product(*choices.values())]
    games = max(GAMES, len(combos))
    return [(p, combos[(seed + p) % len(combos)], seed)
            for p in range(rules.min_players, rules.max_players + 1) for seed in range(games)]


def encode_event(event: Any) -> list[Any]:
    return [type(event).__name__, *attrs.astuple(event, recurse=False)]


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


def play(name: str, players: int, options: dict[str, Any], seed: int,
         chosen: list[str] | None = None) -> dict[str, Any]:
    """Plays one game: by a random generator seeded from `seed`, or by the given labels."""
    game = load(name).new_game(players=players, seed=seed, options=options)
    pick = random.Random(f"golden:{seed}")
    seen = len(game.events)
    record: dict[str, Any] = {"players": players, "options": options, "seed": seed,
                              "setup": [encode_event(e) for e in game.events]}
    decisions = []
    while not game.is_over and len(decisions) < MAX_DECISIONS:
        if chosen is not None and len(decisions) >= len(chosen):
            break
        player, prompt = game.to_move, game.prompt
        labels = [m.label for m in game.legal_moves()]
        label = chosen[len(decisions)] if chosen is not None else labels[pick.randrange(len(labels))]
        if label not in labels:  # a replay that went another way: the caller reports the difference
            decisions.append([player, prompt, labels, None, []])
            break
        game.play(label)
        events = game.events
        decisions.append([player, prompt, labels, label, [encode_event(e) for e in events[seen:]]])
        seen = len(events)
    record["decisions"] = decisions
    record["end"] = game.end_reason
    record["scores"] = game.scores()
    record["winners"] = game.winners()
    return _plain(record)


def path_for(name: str) -> Path:
    return HERE / f"{Path(name).stem}.jsonl.gz"


def read(name: str) -> list[dict[str, Any]]:
    with gzip.open(path_for(name), "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def _record_one(job: tuple[str, int, dict[str, Any], int]) -> dict[str, Any]:
    return play(*job)


def record(name: str) -> int:
    jobs = [(name, p, opts, seed) for p, opts, seed in setups(name)]
    with ProcessPoolExecutor() as pool:
        games = list(pool.map(_record_one, jobs, chunksize=4))
    # mtime=0: the same records make the same bytes.
    with path_for(name).open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as gz:
        for g in games:
            gz.write((json.dumps(g, separators=(",", ":")) + "\n").encode("utf-8"))
    return len(games)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--update", action="store_true", help="record the games again")
    parser.add_argument("names", nargs="*", default=RULESETS)
    args = parser.parse_args(argv)
    if not args.update:
        parser.error("nothing to do without --update (the test suite replays the records)")
    for name in args.names:
        n = record(name)
        print(f"{name}: {n} games -> {path_for(name).relative_to(ROOT)} ({path_for(name).stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
