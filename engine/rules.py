"""Table configuration: stakes, antes, buy-ins and named rule options.

>>> config = TableConfig(small_blind=50, big_blind=100, seats=6)
>>> config.min_buy_in, config.max_buy_in
(4000, 20000)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from engine.errors import InvalidConfigError

__all__ = ["AnteKind", "ButtonRule", "TableConfig"]


class AnteKind(Enum):
    """How antes are paid: by nobody, by every player dealt in, or by the big blind alone."""

    NONE = "none"
    PER_PLAYER = "per_player"
    BIG_BLIND = "big_blind"


class ButtonRule(Enum):
    """How the button moves between hands (docs/rules.md, "Button and blinds")."""

    MOVING = "moving"
    """The button moves to the next player dealt in; the blinds follow it."""
    DEAD = "dead"
    """The big blind moves one player each hand; the button may be dead (TDA Rule 32)."""


@dataclass(frozen=True, slots=True)
class TableConfig:
    """Everything that fixes how a table plays. Chips are ints.

    ``ante`` is the amount each player pays with ``AnteKind.PER_PLAYER``, or the amount the
    big blind pays for the table with ``AnteKind.BIG_BLIND``. Buy-ins default to 40 and
    200 big blinds.
    """

    small_blind: int
    big_blind: int
    seats: int = 6
    ante: int = 0
    ante_kind: AnteKind = AnteKind.NONE
    min_buy_in: int = 0
    max_buy_in: int = 0
    button_rule: ButtonRule = ButtonRule.MOVING
    fold_when_check_is_free: bool = False
    """Allow folding when checking costs nothing (some sites do; TDA play does not need it)."""
    variant: str = field(default="NT")
    """PHH variant code; only no-limit Texas hold'em (``"NT"``) is played today."""

    def __post_init__(self) -> None:
        for name in ("small_blind", "big_blind", "seats", "ante", "min_buy_in", "max_buy_in"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidConfigError(f"{name} must be an int, got {value!r}")
        if not 2 <= self.seats <= 10:
            raise InvalidConfigError(f"a table has 2 to 10 seats, got {self.seats!r}")
        if self.big_blind <= 0 or not 0 <= self.small_blind <= self.big_blind:
            raise InvalidConfigError(
                f"blinds must satisfy 0 <= small_blind <= big_blind and big_blind > 0, "
                f"got {self.small_blind!r}/{self.big_blind!r}"
            )
        if self.ante < 0 or (self.ante > 0) != (self.ante_kind is not AnteKind.NONE):
            raise InvalidConfigError(
                f"ante {self.ante!r} does not fit ante_kind {self.ante_kind.value!r}"
            )
        if self.variant != "NT":
            raise InvalidConfigError(f"variant {self.variant!r} is not supported; only 'NT' is")
        if self.min_buy_in == 0:
            object.__setattr__(self, "min_buy_in", 40 * self.big_blind)
        if self.max_buy_in == 0:
            object.__setattr__(self, "max_buy_in", 200 * self.big_blind)
        if not 0 < self.min_buy_in <= self.max_buy_in:
            raise InvalidConfigError(
                f"buy-ins must satisfy 0 < min_buy_in <= max_buy_in, "
                f"got {self.min_buy_in!r}..{self.max_buy_in!r}"
            )
