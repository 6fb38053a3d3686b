"""Hypothesis strategies for random games: deal seeds, move-choice scripts, options, points."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from hypothesis import strategies as st

import boardkit

T = TypeVar("T")

seeds = st.integers(min_value=0, max_value=2**31 - 1)


@dataclass(frozen=True)
class Script:
    """How one random game is played: the deal's seed, then a choice per decision.

    The explicit choices come first (an index into the legal moves, modulo their number), so
    that Hypothesis can shrink the start of a failing game; a generator seeded by `tail_seed`
    makes the remaining choices.
    """

    seed: int
    choices: tuple[int, ...]
    tail_seed: int

    def picker(self) -> Callable[[Sequence[T]], T]:
        rng = random.Random(self.tail_seed)
        explicit = iter(self.choices)

        def pick(options: Sequence[T]) -> T:
            i = next(explicit, None)
            return rng.choice(options) if i is None else options[i % len(options)]

        return pick


scripts = st.builds(Script, seed=seeds, choices=st.lists(st.integers(0, 255), max_size=40).map(tuple),
                    tail_seed=seeds)


def options_for(rules: boardkit.Ruleset) -> st.SearchStrategy[dict[str, Any]]:
    """Any allowed combination of the ruleset's options (those with a list of choices)."""
    return st.fixed_dictionaries({name: st.sampled_from(list(opt.choices))
                                  for name, opt in rules.options.items() if opt.choices})


# Decision indices at which a property makes an expensive check (JSON, undo, illegal labels).
check_points = st.sets(st.integers(min_value=0, max_value=300), min_size=1, max_size=6)
cut_points = st.integers(min_value=0, max_value=400)
