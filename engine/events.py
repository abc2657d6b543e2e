"""What happened at a table: frozen values, in order, from :meth:`Table.apply` and friends.

The same events become wire messages, bus messages and the stored hand history. Every
amount says what it is: ``increment`` (chips moved by this event), ``street_total``
(the player's chips in front of them this street) and ``hand_total`` (their chips in the
pot this hand, antes included).

Only :class:`HoleCardsDealt` holds private information; :func:`redact` hides it from
anyone but its owner. Cards shown at showdown are public (:class:`CardsShown`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import IntEnum

from engine.cards import Card

__all__ = [
    "ActionTaken",
    "BoardDealt",
    "CardsMucked",
    "CardsShown",
    "Event",
    "ForcedBetPosted",
    "HandEnded",
    "HandStarted",
    "HoleCardsDealt",
    "PlayerSat",
    "PlayerSatIn",
    "PlayerSatOut",
    "PlayerStood",
    "PotAwarded",
    "Street",
    "UncalledBetReturned",
    "redact",
]


class Street(IntEnum):
    """Betting rounds in order."""

    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3

    def __str__(self) -> str:
        return self.name.lower()


@dataclass(frozen=True, slots=True)
class HandStarted:
    """A hand begins. ``seats`` are the players dealt in, in order from the seat left of the
    button (the button last); ``stacks`` are their stacks before any forced bet.
    ``big_blind_seat`` is the blind that opens the betting: preflop, the first to act is
    the next player (a newcomer's big blind posted elsewhere does not move it; with no
    blind, the button)."""

    hand_number: int
    button: int
    seats: tuple[int, ...]
    stacks: tuple[int, ...]
    small_blind: int
    big_blind: int
    ante: int
    big_blind_seat: int


@dataclass(frozen=True, slots=True)
class ForcedBetPosted:
    """An ante, blind or straddle. ``kind`` is ``"ante"``, ``"small_blind"``,
    ``"big_blind"``, ``"straddle"`` or ``"dead_blind"`` (dead money, e.g. a missed small
    blind). Antes and dead blinds do not count towards ``street_total``."""

    seat: int
    kind: str
    increment: int
    street_total: int
    hand_total: int
    stack: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class HoleCardsDealt:
    """A player's hole cards; ``cards`` is ``None`` in every copy but the owner's."""

    seat: int
    cards: tuple[Card, ...] | None


@dataclass(frozen=True, slots=True)
class ActionTaken:
    """A player acted. ``kind`` is ``"fold"``, ``"check"``, ``"call"``, ``"bet"`` or
    ``"raise"``; for a bet or raise, ``street_total`` is the amount raised to."""

    seat: int
    street: Street
    kind: str
    increment: int
    street_total: int
    hand_total: int
    stack: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class BoardDealt:
    """Community cards: ``cards`` are new this street, ``board`` is all of them so far."""

    street: Street
    cards: tuple[Card, ...]
    board: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class UncalledBetReturned:
    """The part of a bet nobody called goes back to its owner."""

    seat: int
    amount: int
    stack: int


@dataclass(frozen=True, slots=True)
class CardsShown:
    """A player's hole cards, tabled at showdown; when players are all in, before the rest
    of the board is dealt (so no hand value yet: that would tell the cards to come)."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CardsMucked:
    """A player at showdown gave up a hand that could not win; the cards stay hidden."""

    seat: int


@dataclass(frozen=True, slots=True)
class PotAwarded:
    """A pot (0 is the main pot, then side pots in order) goes to its winners.

    ``shares`` pairs each winner with what they get; odd chips go to the first winners
    left of the button. ``rank`` (on :func:`engine.evaluator.rank7`'s scale) and
    ``description`` name the winning hand; they are 0 and empty when everybody else folded.
    """

    pot: int
    amount: int
    eligible: tuple[int, ...]
    shares: tuple[tuple[int, int], ...]
    rank: int
    description: str


@dataclass(frozen=True, slots=True)
class HandEnded:
    """The hand is over; ``stacks`` pairs each player dealt in with their final stack."""

    hand_number: int
    stacks: tuple[tuple[int, int], ...]
    board: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class PlayerSat:
    """A player took ``seat`` with ``stack`` chips."""

    seat: int
    stack: int
    waiting_for_big_blind: bool


@dataclass(frozen=True, slots=True)
class PlayerStood:
    """A player left ``seat`` with ``stack`` chips; ``reason`` is ``"left"`` or ``"busted"``."""

    seat: int
    stack: int
    reason: str


@dataclass(frozen=True, slots=True)
class PlayerSatOut:
    """A player stays seated but is not dealt in."""

    seat: int


@dataclass(frozen=True, slots=True)
class PlayerSatIn:
    """A player sitting out comes back; ``posted`` says whether they post now or wait for
    the big blind."""

    seat: int
    waiting_for_big_blind: bool


Event = (
    HandStarted
    | ForcedBetPosted
    | HoleCardsDealt
    | ActionTaken
    | BoardDealt
    | UncalledBetReturned
    | CardsShown
    | CardsMucked
    | PotAwarded
    | HandEnded
    | PlayerSat
    | PlayerStood
    | PlayerSatOut
    | PlayerSatIn
)


def redact(event: Event, viewer: int | None) -> Event:
    """The event as ``viewer`` (a seat, or ``None`` for a spectator) may see it.

    >>> from engine.cards import parse_cards
    >>> dealt = HoleCardsDealt(seat=2, cards=parse_cards("As Kd"))
    >>> redact(dealt, 2) is dealt, redact(dealt, 3).cards, redact(dealt, None).cards
    (True, None, None)
    """
    if isinstance(event, HoleCardsDealt) and event.seat != viewer and event.cards is not None:
        return replace(event, cards=None)
    return event
