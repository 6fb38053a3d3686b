"""Statistics for tournaments and comparisons: intervals, ratings, distributions."""

from __future__ import annotations

import math
import random
import statistics
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

# The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054
# Bradley-Terry: iterations of the MM algorithm, and resamples for its intervals.
_BT_ROUNDS = 200
_BOOTSTRAP = 200


def wilson(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (shared wins may count as fractions).

    >>> [round(x, 3) for x in wilson(9, 10)]
    [0.596, 0.982]
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def proportion_difference(k1: float, n1: float, k2: float, n2: float) -> tuple[float, float, float]:
    """The difference p2 - p1 of two proportions and its 95% interval (Newcombe's, from Wilson's)."""
    p1, p2 = (k1 / n1 if n1 else 0.0), (k2 / n2 if n2 else 0.0)
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p2 - p1
    return (d, d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2), d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2))


def mean_difference(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float]:
    """The difference mean(b) - mean(a) and its 95% interval (Welch, normal approximation)."""
    if len(a) < 2 or len(b) < 2:  # noqa: PLR2004 - a variance needs two values
        d = (statistics.fmean(b) if b else 0.0) - (statistics.fmean(a) if a else 0.0)
        return (d, -math.inf, math.inf)
    d = statistics.fmean(b) - statistics.fmean(a)
    se = math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
    return (d, d - Z95 * se, d + Z95 * se)


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """A mean and its 95% interval (normal approximation)."""
    if not values:
        return (math.nan, math.nan, math.nan)
    m = statistics.fmean(values)
    if len(values) < 2:  # noqa: PLR2004 - a variance needs two values
        return (m, -math.inf, math.inf)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return (m, m - half, m + half)


def distribution(values: Sequence[float]) -> dict[str, float] | None:
    """Mean, standard deviation and quantiles (min, 10%, median, 90%, max); None for no values."""
    if not values:
        return None
    ordered = sorted(values)

    def at(q: float) -> float:
        return float(ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))])

    return {"mean": statistics.fmean(ordered), "sd": statistics.pstdev(ordered), "min": at(0), "p10": at(0.1),
            "median": float(statistics.median(ordered)), "p90": at(0.9), "max": at(1)}


#: One pairwise result: (i, j, points of i) with 1 a win of i, 0.5 a draw, 0 a win of j.
Pair = tuple[int, int, float]


def bradley_terry(pairs: Sequence[Pair], n: int) -> list[float]:
    """Bradley-Terry strengths of n entrants, as Elo-scale ratings with mean 0.

    Fitted by the MM algorithm with half a draw against every other entrant added, so that an
    entrant who won or lost everything keeps a finite rating.
    """
    wins = [0.0] * n
    games = [[0.0] * n for _ in range(n)]
    for i, j, points in pairs:
        wins[i] += points
        wins[j] += 1 - points
        games[i][j] += 1
        games[j][i] += 1
    for i in range(n):
        for j in range(n):
            if i != j:
                wins[i] += 0.25
                games[i][j] += 0.5
    strength = [1.0] * n
    for _ in range(_BT_ROUNDS):
        new = []
        for i in range(n):
            denom = sum(games[i][j] / (strength[i] + strength[j]) for j in range(n) if j != i and games[i][j])
            new.append(wins[i] / denom if denom else strength[i])
        mean_log = statistics.fmean(math.log(s) for s in new)
        strength = [s / math.exp(mean_log) for s in new]
    return [400 * math.log10(s) for s in strength]


def rating_intervals(games: Sequence[Sequence[Pair]], n: int, seed: int = 0) -> list[tuple[float, float, float]]:
    """Ratings with 95% bootstrap intervals (games resampled, each game's pairs kept together)."""
    flat = [p for g in games for p in g]
    ratings = bradley_terry(flat, n)
    if not games:
        return [(r, r, r) for r in ratings]
    rng = random.Random(seed)  # noqa: S311 - resampling, not a secret
    samples: list[list[float]] = [[] for _ in range(n)]
    for _ in range(_BOOTSTRAP):
        picked = [p for _ in range(len(games)) for p in games[rng.randrange(len(games))]]
        for i, r in enumerate(bradley_terry(picked, n)):
            samples[i].append(r)
    out = []
    for i in range(n):
        s = sorted(samples[i])
        out.append((ratings[i], s[int(0.025 * (len(s) - 1))], s[int(0.975 * (len(s) - 1))]))
    return out
