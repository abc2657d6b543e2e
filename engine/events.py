"""What happened at a table: frozen values, in order, from :meth:`Table.apply` and friends.

The same events become wire messages, bus messages and the stored hand history. Every
amount says what it is: ``increment`` (chips moved by this event), ``street_total``
(the player's chips in front of them this street) and ``hand_total`` (their chips in the
pot this hand, antes included).

Private information is in :class:`HoleCardsDealt` (cards dealt face down) and
:class:`CardsDrawn` (which cards a player threw away and which they drew); :func:`redact`
hides it from anyone but its owner. Cards dealt face up (:class:`UpCardsDealt`) and cards
shown at showdown (:class:`CardsShown`) are public.

Streets are the game's own: ``street`` fields hold a member of the game's street enum
(:attr:`engine.games.Game.street_enum`), :class:`Street` for hold'em and Omaha, so
``str(event.street)`` names it (``"flop"``, ``"third street"``, ``"second draw"``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import IntEnum

from engine.cards import Card

__all__ = [
    "ActionTaken",
    "BoardDealt",
    "BoardDealtOnBoard",
    "BombPotStarted",
    "BountyPaid",
    "CardsDrawn",
    "CardsMucked",
    "CardsRevealed",
    "CardsShown",
    "Event",
    "ForcedBetPosted",
    "HandEnded",
    "HandEndedOnBoards",
    "HandStarted",
    "HoleCardsDealt",
    "PlayerSat",
    "PlayerSatIn",
    "PlayerSatOut",
    "PlayerStood",
    "PotAwarded",
    "PotAwardedOnBoard",
    "RabbitHunted",
    "RunItTwiceAnswered",
    "Street",
    "UncalledBetReturned",
    "UpCardsDealt",
    "board_index",
    "boards_of",
    "redact",
]


class Street(IntEnum):
    """Hold'em's and Omaha's betting rounds in order (other games have their own enum)."""

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
    ante_kind: str
    """Who pays ``ante``: ``"none"``, ``"per_player"`` (every player dealt in; a bomb
    pot's bomb) or ``"big_blind"`` (the big blind, for the table): an
    :class:`engine.AnteKind`'s value."""
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
    """Cards dealt face down to a player; ``cards`` is ``None`` in every copy but the
    owner's."""

    seat: int
    cards: tuple[Card, ...] | None


@dataclass(frozen=True, slots=True)
class UpCardsDealt:
    """Cards dealt face up to a player (stud's up cards, open dice): everyone sees them."""

    seat: int
    street: IntEnum
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CardsDrawn:
    """A player drew: threw away ``discarded`` and was dealt ``drawn`` in their place (or
    re-rolled those dice). ``count`` is public; the cards are ``None`` in every copy but
    the owner's, unless the game deals them face up. ``count == 0`` is standing pat."""

    seat: int
    street: IntEnum
    count: int
    discarded: tuple[Card, ...] | None
    drawn: tuple[Card, ...] | None
    face_up: bool = False
    """The game deals these face up (open dice): everyone sees them."""


@dataclass(frozen=True, slots=True)
class ActionTaken:
    """A player acted. ``kind`` is ``"fold"``, ``"check"``, ``"call"``, ``"bet"``,
    ``"raise"``, ``"bring_in"`` (stud's forced opening, for less than a full bet) or
    ``"complete"`` (a bring-in or a short all-in made up to a full bet, in fixed limit);
    for a bet, raise or completion, ``street_total`` is the amount raised to."""

    seat: int
    street: IntEnum
    kind: str
    increment: int
    street_total: int
    hand_total: int
    stack: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class BoardDealt:
    """Community cards: ``cards`` are new this street, ``board`` is all of them so far
    (in stud, the common card dealt when the deck cannot give everyone a seventh card).
    A hand of two boards deals :class:`BoardDealtOnBoard` instead."""

    street: IntEnum
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
class RunItTwiceAnswered:
    """A player answered whether to run the rest of the board twice (docs/rules.md O5).
    When everyone agrees, the runs are dealt as :class:`BoardDealtOnBoard` events."""

    seat: int
    agree: bool


@dataclass(frozen=True, slots=True)
class CardsMucked:
    """A player at showdown gave up a hand that could not win; the cards stay hidden."""

    seat: int


@dataclass(frozen=True, slots=True)
class PotAwarded:
    """A pot (0 is the main pot, then side pots in order) goes to its winners.

    ``shares`` pairs each winner with what they get; odd chips go one each to the first
    winners left of the button (in stud, from the highest card by suit, docs/rules.md S2).
    ``rank`` (higher wins, on the scale of the game's ranking: :func:`engine.evaluator.rank7`'s
    for high hands) and ``description`` name the winning hand; they are 0 and empty when
    everybody else folded. In a game split high and low, each half of a pot is awarded
    on its own, ``half`` saying which (``"high"`` takes the whole pot when no low
    qualifies); it is ``None`` in other games.
    """

    pot: int
    amount: int
    eligible: tuple[int, ...]
    shares: tuple[tuple[int, int], ...]
    rank: int
    description: str
    half: str | None = None


@dataclass(frozen=True, slots=True)
class BountyPaid:
    """The 7-2 bounty (docs/rules.md O6): ``seat`` won the whole hand holding a 7 and a 2
    and showed them; every other player dealt in paid ``bounty`` (or what they had):
    ``payers`` pairs each with what they paid, ``amount`` is the total, ``stack`` the
    winner's stack after it."""

    seat: int
    bounty: int
    payers: tuple[tuple[int, int], ...]
    amount: int
    stack: int


@dataclass(frozen=True, slots=True)
class CardsRevealed:
    """After the hand, a player showed some or all of their hole cards, as they chose
    (docs/rules.md O8): public, like cards shown at showdown."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class RabbitHunted:
    """After a hand that ended before the river: the board cards that would have come
    next from the same deck (docs/rules.md O7). The hand's result is unchanged."""

    cards: tuple[Card, ...]
    board: tuple[Card, ...]
    """The whole board as it would have been."""


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


# -- the table options' shapes: subclasses, so that a hand without them keeps its events'
# shapes (and a consumer that knows only the base class still reads them) --------------


@dataclass(frozen=True, slots=True)
class BombPotStarted(HandStarted):
    """A bomb pot begins (docs/rules.md O3): everyone dealt in antes the bomb (``ante``),
    nobody posts a blind, and the flop comes at once; ``boards`` is 2 in a double-board
    bomb pot (O4)."""

    boards: int = 1


@dataclass(frozen=True, slots=True)
class BoardDealtOnBoard(BoardDealt):
    """Board cards in a hand of two boards (O4) or run twice (O5): ``board_index`` says
    which board or run, from 0. Each street deals the first board's cards, then the
    second's; a hand run twice deals the first run's streets, then the second's, and the
    second's ``board`` holds the cards dealt before the runs too."""

    board_index: int = 0


@dataclass(frozen=True, slots=True)
class PotAwardedOnBoard(PotAwarded):
    """A pot's share on one of two boards or runs (O4, O5): each pot is split in half
    between them, the odd chip to the first (``board_index`` 0)."""

    board_index: int = 0


@dataclass(frozen=True, slots=True)
class HandEndedOnBoards(HandEnded):
    """The end of a hand of two boards or run twice: ``boards`` has each (``board`` is
    the first)."""

    boards: tuple[tuple[Card, ...], ...] = ()


def board_index(event: BoardDealt | PotAwarded) -> int:
    """Which board or run an event is of: 0 but for the second of two (O4, O5).

    >>> board_index(BoardDealtOnBoard(Street.FLOP, (), (), 1))
    1
    """
    return event.board_index if isinstance(event, BoardDealtOnBoard | PotAwardedOnBoard) else 0


def boards_of(event: HandEnded) -> tuple[tuple[Card, ...], ...]:
    """Every board a hand ended with: one, or two (O4, O5)."""
    return event.boards if isinstance(event, HandEndedOnBoards) else (event.board,)


Event = (
    HandStarted
    | ForcedBetPosted
    | HoleCardsDealt
    | UpCardsDealt
    | CardsDrawn
    | ActionTaken
    | BoardDealt
    | UncalledBetReturned
    | CardsShown
    | CardsMucked
    | RunItTwiceAnswered
    | PotAwarded
    | BountyPaid
    | HandEnded
    | CardsRevealed
    | RabbitHunted
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
    if isinstance(event, CardsDrawn) and event.seat != viewer and not event.face_up:
        return replace(event, discarded=None, drawn=None) if event.drawn is not None else event
    return event
