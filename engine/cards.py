"""Cards, ranks and suits, jokers and dice, and the parsers for their text.

Every card has an int ``code``. The 52 standard cards have codes 0..51 laid out as
``rank_index * 4 + suit_index`` (``rank_index`` 0 for a deuce .. 12 for an ace; suits in
bridge order clubs, diamonds, hearts, spades), so ``code >> 2`` is the rank and
``code & 3`` the suit. The hot paths of the evaluators work on these codes; everything
else uses :class:`Card`.

Games that need more than the 52 use the same type: the two jokers are codes 52 and 53
(written ``X1`` and ``X2``; they have no rank or suit), and the six faces of a die are
codes 54..59 (written ``1`` to ``6``; dice are parsed by :func:`parse_dice`).

>>> parse_cards("As Kd 10h 9♣ tc X1")
(Card('As'), Card('Kd'), Card('Th'), Card('9c'), Card('Tc'), Card('X1'))
>>> Card.parse("2c").code, Card.parse("As").code, Card.parse("X2").code
(0, 51, 53)
>>> parse_dice("6 6 2 1 5")
(Card('6'), Card('6'), Card('2'), Card('1'), Card('5'))
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import Enum, IntEnum
from typing import Final

from engine.errors import DuplicateCardError, InvalidCardError

__all__ = ["JOKERS", "Card", "Rank", "Suit", "parse_cards", "parse_dice", "to_cards"]


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
    """One playing card, joker or die face. Each exists once; compare them with ``is`` or
    ``==``.

    Cards order by their codes: rank, then suit (bridge order), then the jokers, then
    the die faces. ``rank`` and ``suit`` are ``None`` for jokers and dice; ``face`` is a
    die's pips (1..6) and ``None`` otherwise.

    >>> Card.parse("Ah") > Card.parse("Kh")
    True
    >>> str(Card.from_code(12)), Card.from_code(52).is_joker, Card.from_code(59).face
    ('5c', True, 6)
    """

    __slots__ = ("code", "face", "rank", "suit", "text")

    code: int
    rank: Rank | None
    suit: Suit | None
    face: int | None
    text: str

    def __init__(self, code: int, rank: Rank | None, suit: Suit | None, face: int | None) -> None:
        # Only called while building the singletons below.
        self.code = code
        self.rank = rank
        self.suit = suit
        self.face = face
        if rank is not None and suit is not None:
            self.text = rank.char + suit.value
        elif face is not None:
            self.text = str(face)
        else:
            self.text = f"X{code - 51}"

    @property
    def is_joker(self) -> bool:
        """Whether this is one of the two jokers."""
        return self.code in (52, 53)

    @property
    def is_die(self) -> bool:
        """Whether this is a die face rather than a card."""
        return self.face is not None

    @staticmethod
    def from_code(code: int) -> Card:
        """The card with this code (0..51 the standard cards, 52 and 53 the jokers, 54..59
        the die faces 1..6)."""
        if not isinstance(code, int) or not 0 <= code < len(_BY_CODE):
            raise InvalidCardError(f"card code {code!r} is not in 0..{len(_BY_CODE) - 1}")
        return _BY_CODE[code]

    @staticmethod
    def die(face: int) -> Card:
        """The die face with ``face`` pips (1..6).

        >>> Card.die(4).code
        57
        """
        if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= 6:
            raise InvalidCardError(f"a die face is 1..6, got {face!r}")
        return _BY_CODE[53 + face]

    @staticmethod
    def parse(text: str) -> Card:
        """Parse exactly one card, e.g. ``'As'``, ``'10h'``, ``'9♣'``, ``'X1'``."""
        cards = parse_cards(text)
        if len(cards) != 1:
            raise InvalidCardError(f"expected one card, got {text!r}")
        return cards[0]

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({self.text!r})"

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


_BY_CODE: Final = (
    *(
        Card(i * 4 + j, rank, suit, None)
        for i, rank in enumerate(Rank)
        for j, suit in enumerate(_SUIT_ORDER)
    ),
    Card(52, None, None, None),
    Card(53, None, None, None),
    *(Card(53 + face, None, None, face) for face in range(1, 7)),
)
JOKERS: Final = (_BY_CODE[52], _BY_CODE[53])
"""The two jokers, ``X1`` and ``X2``."""

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
# emoji variation selector (U+FE0F) or text selector (U+FE0E) that some keyboards add; or
# a joker, X1 or X2.
_CARD_RE: Final = re.compile(
    r"(?:(10|[2-9tjqka])([shdc♠♥♦♣♤♡♢♧])|x([12]))[\ufe0e\ufe0f]?", re.IGNORECASE
)
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
            if match.group(3):
                cards.append(_BY_CODE[51 + int(match.group(3))])
            else:
                rank = _RANK_BY_TEXT[match.group(1).upper()]
                suit = _SUIT_BY_TEXT[match.group(2).lower()]
                cards.append(_BY_CODE[(rank.value - 2) * 4 + suit.index])
            offset = match.end()
    if distinct:
        _check_distinct(cards)
    return tuple(cards)


def parse_dice(text: str) -> tuple[Card, ...]:
    """Parse die faces: digits 1 to 6, separated by spaces or commas or run together
    (``'66 2,1 5'``). Faces repeat freely. A bad token raises :class:`InvalidCardError`
    naming it and its position (1-based).

    >>> [c.face for c in parse_dice("662, 1 5")]
    [6, 6, 2, 1, 5]
    """
    dice: list[Card] = []
    tokens = [t for t in _SEPARATORS.split(text) if t]
    for position, token in enumerate(tokens, start=1):
        if not all(ch in "123456" for ch in token):
            raise InvalidCardError(
                f"invalid die {token!r} at position {position}: expected faces 1 to 6"
            )
        dice += (_BY_CODE[53 + int(ch)] for ch in token)
    return tuple(dice)


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
            if not 0 <= item < len(_BY_CODE):
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
        if card in seen and card.face is None:  # dice repeat; cards and jokers do not
            raise DuplicateCardError(f"card {str(card)!r} appears more than once")
        seen.add(card)
