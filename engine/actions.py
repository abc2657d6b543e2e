"""What a player can do, and the exact menu of what they may do now.

Amounts in a :class:`BetOrRaiseTo` are **street totals**: "raise to 300" means the
player's chips in front of them on this street become 300.

>>> BetOrRaiseTo(seat=3, amount=300)
BetOrRaiseTo(seat=3, amount=300)
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import InvalidActionError

__all__ = ["Action", "ActionMenu", "BetOrRaiseTo", "CheckOrCall", "Fold"]


def _check_seat(seat: object) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
        raise InvalidActionError(f"seat must be a non-negative int, got {seat!r}")


@dataclass(frozen=True, slots=True)
class Fold:
    """Give up the hand."""

    seat: int

    def __post_init__(self) -> None:
        _check_seat(self.seat)


@dataclass(frozen=True, slots=True)
class CheckOrCall:
    """Check if nothing is owed, otherwise call (all-in for less if the stack is short)."""

    seat: int

    def __post_init__(self) -> None:
        _check_seat(self.seat)


@dataclass(frozen=True, slots=True)
class BetOrRaiseTo:
    """Bet, or raise, so that this street's total in front of the player is ``amount``."""

    seat: int
    amount: int

    def __post_init__(self) -> None:
        _check_seat(self.seat)
        if not isinstance(self.amount, int) or isinstance(self.amount, bool) or self.amount <= 0:
            raise InvalidActionError(f"amount must be a positive int, got {self.amount!r}")


Action = Fold | CheckOrCall | BetOrRaiseTo


@dataclass(frozen=True, slots=True)
class ActionMenu:
    """Exactly what ``seat`` may do now; :meth:`engine.table.Table.apply` enforces the same.

    ``call`` is the increment a call costs (0 means check). When ``can_raise``,
    ``min_raise_to`` and ``max_raise_to`` bound the street total of a bet or raise, and
    ``raise_is_all_in_only`` says the stack cannot make a full raise: the only raise is
    all-in, ``min_raise_to == max_raise_to``.
    """

    seat: int
    can_fold: bool
    can_check: bool
    call: int
    call_is_all_in: bool
    can_raise: bool
    min_raise_to: int
    max_raise_to: int
    raise_is_all_in_only: bool
    is_bet: bool
    """Whether a raise here is the street's first bet (``bet``) or a ``raise``."""

    def allows(self, action: Action) -> bool:
        """Whether ``action`` is on this menu."""
        if action.seat != self.seat:
            return False
        if isinstance(action, Fold):
            return self.can_fold
        if isinstance(action, CheckOrCall):
            return True
        return self.can_raise and self.min_raise_to <= action.amount <= self.max_raise_to
