"""Pots: the main pot and a side pot for every distinct all-in level, and how they split.

>>> build_pots([100, 300, 300, 50], live=[True, True, True, False])
[Pot(amount=350, eligible=(0, 1, 2)), Pot(amount=400, eligible=(1, 2))]
>>> split(101, [2, 0])  # odd chip to the first winner left of the button
[(2, 51), (0, 50)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Pot", "build_pots", "split"]


@dataclass(frozen=True, slots=True)
class Pot:
    """Chips and the positions (indices in hand order) who may win them."""

    amount: int
    eligible: tuple[int, ...]


def build_pots(contributions: Sequence[int], live: Sequence[bool]) -> list[Pot]:
    """Split hand totals into the main pot and side pots.

    Each distinct total among players still in the hand (``live``) closes a pot that every
    live player who put in at least that much may win; folded players' chips fill the pots
    up to what they put in. Chips above the highest live total (only possible from players
    who folded) go to the last pot. Pots with the same eligible players are merged.
    """
    levels = sorted({c for c, alive in zip(contributions, live, strict=True) if alive and c > 0})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in contributions)
        eligible = tuple(
            i
            for i, (c, alive) in enumerate(zip(contributions, live, strict=True))
            if alive and c >= level
        )
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        else:
            pots.append(Pot(amount, eligible))
        previous = level
    excess = sum(max(c - previous, 0) for c in contributions)
    if excess and pots:
        pots[-1] = Pot(pots[-1].amount + excess, pots[-1].eligible)
    return pots


def split(amount: int, winners: Sequence[int]) -> list[tuple[int, int]]:
    """Share ``amount`` among ``winners``, given in order from the first seat left of the
    button: equal shares, and the odd chips one each to the first winners (TDA Rule 20)."""
    share, odd = divmod(amount, len(winners))
    return [(w, share + (1 if i < odd else 0)) for i, w in enumerate(winners)]
