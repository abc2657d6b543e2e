"""Per-player statistics over a set of hands (definitions in docs/statistics.md)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from server.stats.hands import Adjustment, HandFacts

__all__ = ["Interval", "PlayerStats", "player_stats", "win_rate"]

Z95 = 1.959964
"""The normal quantile of a two-sided 95 % interval."""


@dataclass(frozen=True)
class Interval:
    """A win rate per 100 hands and its 95 % confidence interval (normal approximation:
    the mean of the per-hand results, +- 1.96 sample standard deviations over sqrt(n))."""

    rate: float
    low: float
    high: float

    @property
    def width(self) -> float:
        return self.high - self.low


def win_rate(results: Iterable[float | Fraction]) -> Interval | None:
    """Results per hand (in big blinds, or big bets) -> per 100 hands with a 95 % CI; None
    with fewer than two hands."""
    xs = [float(x) for x in results]
    if len(xs) < 2:
        return None
    mean = math.fsum(xs) / len(xs)
    variance = math.fsum((x - mean) ** 2 for x in xs) / (len(xs) - 1)
    half = Z95 * math.sqrt(variance / len(xs))
    return Interval(100 * mean, 100 * (mean - half), 100 * (mean + half))


def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


@dataclass
class PlayerStats:
    """One player's statistics over the hands they were dealt into."""

    name: str
    hands: int = 0
    vpip_hands: int = 0
    pfr_hands: int = 0
    three_bet_chances: int = 0
    three_bets: int = 0
    bets: int = 0
    calls: int = 0
    saw_second_round: int = 0
    showdowns: int = 0
    won_at_showdown: int = 0
    net: int = 0
    """Chips (summed across stakes as they are: compare ``bb_per_100`` across stakes)."""
    adjusted_net: Fraction = Fraction(0)
    adjusted_hands: int = 0
    """Hands whose result is all-in adjusted."""
    unadjusted_all_ins: int = 0
    """Hands all in before the last card kept at their actual result: a game without exact
    equity, or an enumeration over the caller's budget (``Adjustment.SKIPPED``)."""
    results_bb: list[Fraction] = field(default_factory=list, repr=False)
    adjusted_bb: list[Fraction] = field(default_factory=list, repr=False)
    results_big_bets: list[Fraction] = field(default_factory=list, repr=False)
    adjusted_big_bets: list[Fraction] = field(default_factory=list, repr=False)

    @property
    def vpip(self) -> float | None:
        return _ratio(self.vpip_hands, self.hands)

    @property
    def pfr(self) -> float | None:
        return _ratio(self.pfr_hands, self.hands)

    @property
    def three_bet(self) -> float | None:
        return _ratio(self.three_bets, self.three_bet_chances)

    @property
    def aggression(self) -> float | None:
        """(bets + raises) / calls after the first betting round; None with no calls."""
        return _ratio(self.bets, self.calls)

    @property
    def wtsd(self) -> float | None:
        return _ratio(self.showdowns, self.saw_second_round)

    @property
    def wsd(self) -> float | None:
        return _ratio(self.won_at_showdown, self.showdowns)

    @property
    def bb_per_100(self) -> Interval | None:
        return win_rate(self.results_bb)

    @property
    def adjusted_bb_per_100(self) -> Interval | None:
        return win_rate(self.adjusted_bb)

    @property
    def big_bets_per_100(self) -> Interval | None:
        """Over the fixed-limit hands only (None when there were none)."""
        return win_rate(self.results_big_bets)

    @property
    def adjusted_big_bets_per_100(self) -> Interval | None:
        return win_rate(self.adjusted_big_bets)

    def as_json(self) -> dict[str, Any]:
        def interval(i: Interval | None) -> dict[str, float] | None:
            return None if i is None else {"rate": i.rate, "low": i.low, "high": i.high}

        return {
            "name": self.name,
            "hands": self.hands,
            "vpip": self.vpip,
            "pfr": self.pfr,
            "three_bet": self.three_bet,
            "three_bet_chances": self.three_bet_chances,
            "aggression": self.aggression,
            "wtsd": self.wtsd,
            "wsd": self.wsd,
            "showdowns": self.showdowns,
            "net": self.net,
            "adjusted_net": float(self.adjusted_net),
            "adjusted_hands": self.adjusted_hands,
            "unadjusted_all_ins": self.unadjusted_all_ins,
            "bb_per_100": interval(self.bb_per_100),
            "adjusted_bb_per_100": interval(self.adjusted_bb_per_100),
            "big_bets_per_100": interval(self.big_bets_per_100),
            "adjusted_big_bets_per_100": interval(self.adjusted_big_bets_per_100),
        }


def player_stats(hands: Iterable[HandFacts]) -> dict[str, PlayerStats]:
    """Each player's statistics over ``hands``, by name, in order of first appearance."""
    stats: dict[str, PlayerStats] = {}
    for hand in hands:
        for p in hand.players:
            s = stats.get(p.name) or stats.setdefault(p.name, PlayerStats(p.name))
            s.hands += 1
            s.vpip_hands += p.vpip
            s.pfr_hands += p.pfr
            s.three_bet_chances += p.three_bet_chance
            s.three_bets += p.three_bet
            s.bets += p.bets
            s.calls += p.calls
            s.saw_second_round += p.saw_second_round
            s.showdowns += p.showdown
            s.won_at_showdown += p.won_at_showdown
            s.net += p.net
            s.adjusted_net += p.adjusted
            s.adjusted_hands += hand.adjustment is Adjustment.ALL_IN
            s.unadjusted_all_ins += hand.adjustment in (Adjustment.UNSUPPORTED, Adjustment.SKIPPED)
            s.results_bb.append(Fraction(p.net, hand.big_blind))
            s.adjusted_bb.append(p.adjusted / hand.big_blind)
            if hand.big_bet:
                s.results_big_bets.append(Fraction(p.net, hand.big_bet))
                s.adjusted_big_bets.append(p.adjusted / hand.big_bet)
    return stats
