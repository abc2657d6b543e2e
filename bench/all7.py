"""Evaluate all 133,784,560 seven-card hands with rank_batch and count the categories.

    python -m bench.all7 [--json]

Prints the count per category and the number of distinct ranks, checks them against the
known totals, and exits 1 on any difference. tests/engine/test_all7.py runs it in CI.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

# Run as a script, bench/ comes first on sys.path and bench/engine.py would hide the
# engine package: drop it (python -m bench.NAME needs no help).
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import numpy as np  # noqa: E402

from engine.evaluator import rank_batch  # noqa: E402
from engine.hand_classes import CLASS_RANK, HandCategory  # noqa: E402

EXPECTED = {
    "Straight Flush": 41_584,  # royal flushes included
    "Four of a Kind": 224_848,
    "Full House": 3_473_184,
    "Flush": 4_047_644,
    "Straight": 6_180_020,
    "Three of a Kind": 6_461_620,
    "Two Pair": 31_433_400,
    "One Pair": 58_627_800,
    "High Card": 23_294_460,
}
EXPECTED_DISTINCT = 4_824


def combinations(n: int, k: int) -> np.ndarray:
    """Every k-subset of range(n), lexicographic, as int8 rows."""
    from engine.equity import _combinations

    return _combinations(n, k)


def count_all() -> tuple[dict[str, int], int, int]:
    """Counts per category, distinct ranks and hands evaluated, over every 7-card hand."""
    per_rank = np.zeros(7463, dtype=np.int64)
    # The two lowest cards fixed, the other five from the cards above them.
    for c2 in range(1, 47):
        above = combinations(51 - c2, 5).astype(np.int8) + np.int8(c2 + 1)
        rows = np.empty((len(above), 7), dtype=np.int8)
        rows[:, 2:] = above
        rows[:, 1] = c2
        for c1 in range(c2):
            rows[:, 0] = c1
            per_rank += np.bincount(rank_batch(rows, validate=False), minlength=7463)
    category_of_rank = np.zeros(7463, dtype=np.int64)
    for (category, _), rank in CLASS_RANK.items():
        category_of_rank[rank] = category
    counts = {}
    for category in HandCategory:
        if category is not HandCategory.ROYAL_FLUSH:
            counts[str(category)] = int(per_rank[category_of_rank == category].sum())
    return counts, int((per_rank > 0).sum()), int(per_rank.sum())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    start = time.perf_counter()
    counts, distinct, hands = count_all()
    seconds = time.perf_counter() - start
    ok = counts == EXPECTED and distinct == EXPECTED_DISTINCT and hands == math.comb(52, 7)
    if args.json:
        print(
            json.dumps(
                {
                    "counts": counts,
                    "distinct": distinct,
                    "hands": hands,
                    "seconds": seconds,
                    "ok": ok,
                }
            )
        )
    else:
        for name, count in counts.items():
            mark = "" if count == EXPECTED[name] else f"  expected {EXPECTED[name]:,}"
            print(f"{name:<16} {count:>12,}{mark}")
        print(f"{'hands':<16} {hands:>12,}")
        print(f"{'distinct ranks':<16} {distinct:>12,}")
        print(
            f"{seconds:.1f} s, {hands / seconds / 1e6:.1f} M hands/s: {'OK' if ok else 'MISMATCH'}"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
