"""A deliberately plain poker hand reference, independent of engine's evaluator and tables.

Values are tuples ``(category 0..8, tie-break ranks...)`` that compare like hands.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations


def value5(codes: tuple[int, ...]) -> tuple[int, ...]:
    ranks = sorted((c >> 2 for c in codes), reverse=True)
    flush = len({c & 3 for c in codes}) == 1
    distinct = sorted(set(ranks), reverse=True)
    straight_top = None
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            straight_top = distinct[0]
        elif distinct == [12, 3, 2, 1, 0]:
            straight_top = 3
    groups = sorted(Counter(ranks).items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = [count for _, count in groups]
    ordered = [rank for rank, _ in groups]
    if straight_top is not None and flush:
        return (8, straight_top)
    if shape == [4, 1]:
        return (7, *ordered)
    if shape == [3, 2]:
        return (6, *ordered)
    if flush:
        return (5, *ranks)
    if straight_top is not None:
        return (4, straight_top)
    if shape == [3, 1, 1]:
        return (3, *ordered)
    if shape == [2, 2, 1]:
        return (2, *ordered)
    if shape == [2, 1, 1, 1]:
        return (1, *ordered)
    return (0, *ranks)


def best_value(codes: tuple[int, ...]) -> tuple[int, ...]:
    """The best of every five-card subset."""
    return max(value5(five) for five in combinations(codes, 5))
