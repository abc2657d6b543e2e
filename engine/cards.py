"""Cards, ranks and suits, and the parser for card text.

Every card has an int ``code`` in 0..51 laid out as ``rank_index * 4 + suit_index``
(``rank_index`` 0 for a deuce .. 12 for an ace; suits in bridge order clubs, diamonds,
hearts, spades), so ``code >> 2`` is the rank and ``code & 3`` the suit. The hot paths of
the evaluator work on these codes; everything else uses :class:`Card`.

>>> parse_cards("As Kd 10h 9♣ tc")
(Card('As'), Card('Kd'), Card('Th'), Card('9c'), Card('Tc'))
>>> Card.parse("2c").code, Card.parse("As").code
(0, 51)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import Enum, IntEnum
from typing import Final

from engine.errors import DuplicateCardError, InvalidCardError

__all__ = ["Card", "Rank", "Suit", "parse_cards", "to_cards"]


class Rank(IntEnum):
    """A card's rank; the value is the rank's pip value with an ace high (14)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def char(self) -> str:
        """The one-character symbol: ``'2'`` to ``'9'``, then ``'TJQKA'``."""
        return _RANK_CHARS[self.value - 2]

    @property
    def noun(self) -> str:
        """The English name of one card of this rank, e.g. ``'King'``."""
        return _RANK_NOUNS[self.value - 2]

    @property
    def plural(self) -> str:
        """The English plural, e.g. ``'Sixes'``."""
        return "Sixes" if self is Rank.SIX else self.noun + "s"


class Suit(Enum):
    """A card's suit; the value is its lowercase letter."""

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    @property
    def index(self) -> int:
        """0..3 in bridge order (clubs, diamonds, hearts, spades)."""
        return _SUIT_ORDER.index(self)

    @property
    def symbol(self) -> str:
        """The Unicode suit symbol, e.g. ``'♠'``."""
        return _SUIT_SYMBOLS[self.index]


_RANK_CHARS: Final = "23456789TJQKA"
_RANK_NOUNS: Final = (
    "Two Three Four Five Six Seven Eight Nine Ten Jack Queen King Ace".split()  # noqa: SIM905
)
_SUIT_ORDER: Final = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
_SUIT_SYMBOLS: Final = "♣♦♥♠"


class Card:
    """One playing card. There are exactly 52 instances; compare them with ``is`` or ``==``.

    Cards order by rank, then suit (bridge order), which is the order of their codes.

    >>> Card.parse("Ah") > Card.parse("Kh")
    True
    >>> str(Card.from_code(12))
    '5c'
    """

    __slots__ = ("code", "rank", "suit")

    code: int
    rank: Rank
    suit: Suit

    def __init__(self, rank: Rank, suit: Suit) -> None:
        # Only called while building the 52 singletons below.
        self.rank = rank
        self.suit = suit
        self.code = (rank.value - 2) * 4 + suit.index

    @staticmethod
    def from_code(code: int) -> Card:
        """The card with this code (0..51)."""
        if not 0 <= code < 52:
            raise InvalidCardError(f"card code {code!r} is not in 0..51")
        return _BY_CODE[code]

    @staticmethod
    def parse(text: str) -> Card:
        """Parse exactly one card, e.g. ``'As'``, ``'10h'``, ``'9♣'``."""
        cards = parse_cards(text)
        if len(cards) != 1:
            raise InvalidCardError(f"expected one card, got {text!r}")
        return cards[0]

    def __str__(self) -> str:
        return self.rank.char + self.suit.value

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __lt__(self, other: Card) -> bool:
        return self.code < other.code

    def __le__(self, other: Card) -> bool:
        return self.code <= other.code

    def __gt__(self, other: Card) -> bool:
        return self.code > other.code

    def __ge__(self, other: Card) -> bool:
        return self.code >= other.code

    def __hash__(self) -> int:
        return self.code

    def __reduce__(self) -> tuple[object, tuple[int]]:
        # Unpickling must give back the singleton.
        return (Card.from_code, (self.code,))


_BY_CODE: Final = tuple(Card(rank, suit) for rank in Rank for suit in _SUIT_ORDER)

_RANK_BY_TEXT: Final = {**{c: Rank(i + 2) for i, c in enumerate(_RANK_CHARS)}, "10": Rank.TEN}
_SUIT_BY_TEXT: Final = {
    **{s.value: s for s in Suit},
    **{sym: _SUIT_ORDER[i] for i, sym in enumerate(_SUIT_SYMBOLS)},
    # The white (outline) suit symbols are the same suits.
    "♧": Suit.CLUBS,
    "♢": Suit.DIAMONDS,
    "♡": Suit.HEARTS,
    "♤": Suit.SPADES,
}
# One card: a rank ("10" or one character), a suit letter or symbol, then an optional
# emoji variation selector (U+FE0F) or text selector (U+FE0E) that some keyboards add.
_CARD_RE: Final = re.compile(r"(10|[2-9tjqka])([shdc♠♥♦♣♤♡♢♧])[\ufe0e\ufe0f]?", re.IGNORECASE)
_SEPARATORS: Final = re.compile(r"[\s,]+")


def parse_cards(text: str, *, distinct: bool = True) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas; a token may hold several cards (``'AhKh'``).

    Ranks are ``2-9 T 10 J Q K A`` and suits ``s h d c`` in any case, or the suit symbols
    ``♠ ♥ ♦ ♣``. A bad token raises :class:`InvalidCardError` naming it and its position
    (1-based); with ``distinct`` (the default) a repeated card raises
    :class:`DuplicateCardError`.

    >>> parse_cards("AhKh, 2♦️")
    (Card('Ah'), Card('Kh'), Card('2d'))
    """
    cards: list[Card] = []
    tokens = [t for t in _SEPARATORS.split(text) if t]
    for position, token in enumerate(tokens, start=1):
        offset = 0
        while offset < len(token):
            match = _CARD_RE.match(token, offset)
            if match is None:
                raise InvalidCardError(
                    f"invalid card {token!r} at position {position}: "
                    f"expected a rank (2-9, T, 10, J, Q, K, A) and a suit (s, h, d, c)"
                )
            rank = _RANK_BY_TEXT[match.group(1).upper()]
            suit = _SUIT_BY_TEXT[match.group(2).lower()]
            cards.append(_BY_CODE[(rank.value - 2) * 4 + suit.index])
            offset = match.end()
    if distinct:
        _check_distinct(cards)
    return tuple(cards)


def to_cards(cards: str | Iterable[Card | str | int], *, distinct: bool = True) -> tuple[Card, ...]:
    """Coerce text, Cards, card strings or codes to a tuple of Cards.

    >>> to_cards(["As", 0, Card.parse("Kd")])
    (Card('As'), Card('2c'), Card('Kd'))
    """
    if isinstance(cards, str):
        return parse_cards(cards, distinct=distinct)
    result: list[Card] = []
    for position, item in enumerate(cards, start=1):
        if isinstance(item, Card):
            result.append(item)
        elif isinstance(item, str):
            parsed = parse_cards(item, distinct=False)
            if len(parsed) != 1:
                raise InvalidCardError(f"invalid card {item!r} at position {position}")
            result.append(parsed[0])
        elif isinstance(item, int) and not isinstance(item, bool):
            if not 0 <= item < 52:
                raise InvalidCardError(f"invalid card code {item!r} at position {position}")
            result.append(_BY_CODE[item])
        else:
            raise InvalidCardError(f"invalid card {item!r} at position {position}")
    if distinct:
        _check_distinct(result)
    return tuple(result)


def _check_distinct(cards: list[Card]) -> None:
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise DuplicateCardError(f"card {str(card)!r} appears more than once")
        seen.add(card)
