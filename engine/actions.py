"""What a player can do, and the exact menu of what they may do now.

Amounts in a :class:`BetOrRaiseTo` are **street totals**: "raise to 300" means the
player's chips in front of them on this street become 300. Stud opens with a
:class:`BringIn` (or a completion: a :class:`BetOrRaiseTo` of a full bet); draw games
and dice have a :class:`Draw` before each betting round after the first.

>>> BetOrRaiseTo(seat=3, amount=300)
BetOrRaiseTo(seat=3, amount=300)
>>> from engine.cards import parse_cards
>>> Draw(seat=1, discard=parse_cards("Kd 9c"))
Draw(seat=1, discard=(Card('Kd'), Card('9c')))
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card
from engine.errors import InvalidActionError

__all__ = [
    "Action",
    "ActionMenu",
    "BetOrRaiseTo",
    "BringIn",
    "CheckOrCall",
    "Draw",
    "Fold",
    "RunItTwice",
]


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


@dataclass(frozen=True, slots=True)
class BringIn:
    """Stud: open the first betting round for the bring-in, less than a full bet."""

    seat: int

    def __post_init__(self) -> None:
        _check_seat(self.seat)


@dataclass(frozen=True, slots=True)
class Draw:
    """Throw away ``discard`` (hole cards, or dice to re-roll) and be dealt as many new
    ones; an empty ``discard`` stands pat."""

    seat: int
    discard: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        _check_seat(self.seat)
        discard = self.discard
        if not isinstance(discard, tuple) or not all(isinstance(c, Card) for c in discard):
            raise InvalidActionError(f"discard must be a tuple of cards, got {discard!r}")


@dataclass(frozen=True, slots=True)
class RunItTwice:
    """Answer the table's question, asked of every player still in a hand that is all in
    before the river: deal the rest of the board twice (``agree``), or once. Everyone must
    agree; one no and it is dealt once (docs/rules.md O5)."""

    seat: int
    agree: bool

    def __post_init__(self) -> None:
        _check_seat(self.seat)
        if not isinstance(self.agree, bool):
            raise InvalidActionError(f"agree must be a bool, got {self.agree!r}")


Action = Fold | CheckOrCall | BetOrRaiseTo | BringIn | Draw | RunItTwice


@dataclass(frozen=True, slots=True)
class ActionMenu:
    """Exactly what ``seat`` may do now; :meth:`engine.table.Table.apply` enforces the same.

    ``call`` is the increment a call costs (0 means check). When ``can_raise``,
    ``min_raise_to`` and ``max_raise_to`` bound the street total of a bet or raise, and
    ``raise_is_all_in_only`` says the stack cannot make a full raise: the only raise is
    all-in, ``min_raise_to == max_raise_to``. In fixed limit the two are equal: the one
    size the street allows.

    Stud's first betting round opens with a forced wager: a ``bring_in`` above 0 offers a
    :class:`BringIn` of that many chips, beside completing to a full bet (the raise), and
    no check or call. In a draw (``max_discard`` 0 or more) the only choice is a
    :class:`Draw` of up to ``max_discard`` cards.
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
    bring_in: int = 0
    """The chips a :class:`BringIn` puts in (the increment); 0: no bring-in is due."""
    max_discard: int = -1
    """In a draw, the most cards a :class:`Draw` may throw away; -1: no draw now."""
    completes: bool = False
    """Stud's first round, before anyone has made a full bet: a raise *completes* the
    bring-in (or a short all-in bet) to the small bet."""
    run_it_twice: bool = False
    """The table asks whether to run the rest of the board twice: the only action is a
    :class:`RunItTwice` (docs/rules.md O5)."""

    @property
    def can_bring_in(self) -> bool:
        return self.bring_in > 0

    @property
    def can_draw(self) -> bool:
        return self.max_discard >= 0

    @property
    def can_call(self) -> bool:
        """Whether :class:`CheckOrCall` is allowed: not while a draw or a bring-in is due."""
        return self.bring_in == 0 and self.max_discard < 0 and not self.run_it_twice

    def allows(self, action: Action) -> bool:
        """Whether ``action`` is on this menu (a draw's cards are checked by the hand)."""
        if action.seat != self.seat:
            return False
        if isinstance(action, Fold):
            return self.can_fold
        if isinstance(action, CheckOrCall):
            return self.can_call
        if isinstance(action, BringIn):
            return self.can_bring_in
        if isinstance(action, Draw):
            return self.can_draw and len(action.discard) <= self.max_discard
        if isinstance(action, RunItTwice):
            return self.run_it_twice
        return self.can_raise and self.min_raise_to <= action.amount <= self.max_raise_to
