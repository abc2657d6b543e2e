"""Win rates with their uncertainty: big blinds per 100 hands and a 95 % confidence
interval, plain or after duplicate pairing (docs/tournaments.md)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["ADJUST_BUDGET", "STAT_KEYS", "Rate", "bb_per_100"]

Z95 = 1.959963984540054  # the normal quantile for a two-sided 95 % interval

ADJUST_BUDGET = 50_000
"""The most hand evaluations a hand's all-in adjustment may make one by one (games the
engine ranks board by board: short deck, Omaha hi-lo, ...; about 0.3 s at most). Hold'em
and Omaha high enumerate in batches and are always adjusted; an all-in over the budget
(an Omaha hi-lo or short deck preflop all-in) keeps its actual result, and is counted."""

STAT_KEYS = (
    "hands", "vpip", "pfr", "three_bet", "three_bet_chances", "aggression", "wtsd", "wsd",
    "showdowns", "adjusted_hands", "unadjusted_all_ins",
)  # fmt: skip
"""The player statistics a tournament reports (server.stats, docs/statistics.md); its
win rates are its own, in the tournament's unit."""


@dataclass(frozen=True)
class Rate:
    """Big blinds won per 100 hands, and its 95 % confidence interval."""

    bb_per_100: float
    low: float
    high: float
    samples: int
    """Results the rate is the mean of: hands, or duplicate groups."""

    @property
    def margin(self) -> float:
        """Half the interval's width."""
        return (self.high - self.low) / 2

    def __str__(self) -> str:
        if math.isnan(self.margin):
            return f"{self.bb_per_100:+.1f}"
        return f"{self.bb_per_100:+.1f} ± {self.margin:.1f}"


def bb_per_100(results: Sequence[float]) -> Rate:
    """The rate of per-hand results in big blinds (or of per-group means, after duplicate
    pairing), with a normal-approximation 95 % interval: mean ± 1.96 standard errors.
    With fewer than two results there is no interval (NaN bounds).

    >>> rate = bb_per_100([1.0, -0.5, 2.0, 0.5])
    >>> round(rate.bb_per_100, 1), round(rate.low, 1), round(rate.high, 1)
    (75.0, -27.0, 177.0)
    """
    n = len(results)
    if n == 0:
        return Rate(0.0, math.nan, math.nan, 0)
    mean = 100 * statistics.fmean(results)
    if n < 2:
        return Rate(mean, math.nan, math.nan, n)
    error = 100 * statistics.stdev(results) / math.sqrt(n)
    return Rate(mean, mean - Z95 * error, mean + Z95 * error, n)
