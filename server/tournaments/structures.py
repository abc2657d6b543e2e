"""Blind structures and payout structures: named, and configurable from JSON.

A blind structure is a list of levels (small blind, big blind, ante) and how long each
lasts: a number of hands, or of seconds on the tournament's clock. A payout structure
is the share of the prize pool each finishing place gets; the chips are ints, and the
odd chips of a split go to the best places (docs/tournaments.md).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "BLIND_STRUCTURES",
    "PAYOUTS",
    "BlindStructure",
    "Level",
    "blind_structure",
    "payout_structure",
    "payouts",
]


@dataclass(frozen=True)
class Level:
    small_blind: int
    big_blind: int
    ante: int = 0

    def __post_init__(self) -> None:
        if not 0 < self.small_blind <= self.big_blind or self.ante < 0:
            raise ValueError(
                f"a level needs 0 < small blind <= big blind and an ante >= 0, got {self!r}"
            )


@dataclass(frozen=True)
class BlindStructure:
    """Levels, each lasting ``hands`` hands or ``seconds`` seconds (one of the two)."""

    name: str
    levels: tuple[Level, ...]
    hands: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if not self.levels:
            raise ValueError(f"blind structure {self.name!r} has no levels")
        if (self.hands is None) == (self.seconds is None):
            raise ValueError(
                f"blind structure {self.name!r}: give the length of a level in hands or in "
                "seconds (one of the two)"
            )
        if (self.hands is not None and self.hands < 1) or (
            self.seconds is not None and self.seconds <= 0
        ):
            raise ValueError(f"blind structure {self.name!r}: a level must last a while")

    def level(self, hands: int, seconds: float) -> int:
        """The level (from 0) after ``hands`` hands (rounds, at several tables) or
        ``seconds`` seconds; the last level lasts for ever."""
        done = hands // self.hands if self.hands is not None else int(seconds // self.seconds)  # type: ignore[operator]
        return min(done, len(self.levels) - 1)


def _levels(*blinds: tuple[int, int, int]) -> tuple[Level, ...]:
    return tuple(Level(sb, bb, ante) for sb, bb, ante in blinds)


# Blinds double about every two levels; antes (per player) from the fifth level, at about
# an eighth of the big blind. Starting stacks of 1,500 to 3,000 chips suit them.
_CLASSIC = _levels(
    (10, 20, 0), (15, 30, 0), (25, 50, 0), (50, 100, 0), (75, 150, 15), (100, 200, 25),
    (150, 300, 40), (200, 400, 50), (300, 600, 75), (400, 800, 100), (600, 1_200, 150),
    (800, 1_600, 200), (1_000, 2_000, 250), (1_500, 3_000, 400), (2_000, 4_000, 500),
    (3_000, 6_000, 750), (5_000, 10_000, 1_000), (7_500, 15_000, 2_000),
    (10_000, 20_000, 3_000), (15_000, 30_000, 4_000), (25_000, 50_000, 5_000),
)  # fmt: skip

BLIND_STRUCTURES = {
    "standard": BlindStructure("standard", _CLASSIC, hands=20),
    "turbo": BlindStructure("turbo", _CLASSIC, hands=10),
    "hyper": BlindStructure("hyper", _CLASSIC, hands=5),
    "standard-timed": BlindStructure("standard-timed", _CLASSIC, seconds=600.0),
    "turbo-timed": BlindStructure("turbo-timed", _CLASSIC, seconds=300.0),
}
"""The named blind structures; ``blind_structure`` also reads a JSON file."""

PAYOUTS: dict[str, tuple[float, ...]] = {
    "winner-takes-all": (1.0,),
    "top-2": (0.65, 0.35),
    "top-3": (0.50, 0.30, 0.20),
    "top-4": (0.40, 0.30, 0.20, 0.10),
    "top-6": (0.35, 0.25, 0.15, 0.10, 0.08, 0.07),
    "top-9": (0.30, 0.20, 0.14, 0.10, 0.08, 0.06, 0.05, 0.04, 0.03),
}
"""Shares of the prize pool by finishing place; ``payout_structure`` also reads JSON."""


def blind_structure(spec: str) -> BlindStructure:
    """A named structure (:data:`BLIND_STRUCTURES`) or a JSON file
    ``{"name": ..., "hands": N or "seconds": S, "levels": [[sb, bb, ante], ...]}``;
    :class:`ValueError` saying what is wrong."""
    if spec in BLIND_STRUCTURES:
        return BLIND_STRUCTURES[spec]
    data = _json(spec, "blind structure", BLIND_STRUCTURES)
    try:
        levels = tuple(Level(*map(_int, level)) for level in data["levels"])
        return BlindStructure(
            str(data.get("name", Path(spec).stem)), levels,
            hands=data.get("hands"), seconds=data.get("seconds"),
        )  # fmt: skip
    except (KeyError, TypeError) as exc:
        raise ValueError(
            f"{spec}: a blind structure needs levels [[sb, bb, ante], ...] ({exc})"
        ) from None


def payout_structure(spec: str) -> tuple[float, ...]:
    """A named payout structure (:data:`PAYOUTS`) or a JSON file ``[0.5, 0.3, 0.2]``."""
    if spec in PAYOUTS:
        return PAYOUTS[spec]
    data = _json(spec, "payout structure", PAYOUTS)
    if (
        not isinstance(data, list) or not data
        or not all(isinstance(x, int | float) and x > 0 for x in data)
        or abs(sum(data) - 1) > 1e-9 or list(data) != sorted(data, reverse=True)
    ):  # fmt: skip
        raise ValueError(f"{spec}: payouts are shares from first place down, summing to 1")
    return tuple(float(x) for x in data)


def payouts(prize_pool: int, shares: Sequence[float], entrants: int) -> list[int]:
    """The prize of each paid place, in chips, adding up to ``prize_pool``. With fewer
    entrants than paid places, the shares of those places are spread over the rest in
    proportion; the odd chips of the rounding go to the best places, one each.

    >>> payouts(1_000, PAYOUTS["top-3"], entrants=9)
    [500, 300, 200]
    >>> payouts(100, PAYOUTS["top-3"], entrants=2), payouts(7, (0.5, 0.5), entrants=4)
    ([63, 37], [4, 3])
    """
    paid = list(shares[: max(1, min(len(shares), entrants))])
    total = sum(paid)
    prizes = [int(prize_pool * share / total) for share in paid]
    for place in range(prize_pool - sum(prizes)):
        prizes[place % len(prizes)] += 1
    return prizes


def _int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{value!r} is not a whole number of chips")
    return value


def _json(spec: str, what: str, named: dict[str, Any]) -> Any:
    path = Path(spec)
    if not path.is_file():
        raise ValueError(f"unknown {what} {spec!r}: use one of {', '.join(named)} or a JSON file")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{spec}: not a readable JSON {what} ({exc})") from None
