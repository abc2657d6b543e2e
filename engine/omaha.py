"""Omaha: the high hand, and the eight-or-better low, made of two hole cards and three board
cards, exactly.

Robert's Rules of Poker (Bob Ciaffone), section "Omaha": a player gets four hole cards and
makes a hand of exactly two of them and exactly three of the five board cards; section
"Omaha High-Low": the same for the low, which must be five different ranks of eight or
lower (ace low, straights and flushes do not count), and the two halves are chosen
independently, each with its own two hole cards. Five- and six-card Omaha (Big O, 6-card
PLO) keep the two-plus-three rule. So a board of four hearts and one heart in the hand is
no flush, and a board of A-2-3-4-5 is no low for anyone.

:func:`rank_omaha_high` is on the scale of :func:`engine.evaluator.rank7` (1..7462, higher is
stronger); :func:`rank_omaha_low8` on that of :func:`engine.lowball.rank_eight_low` (1..56,
higher is the better low, 0 for no low). Both take the board so far: three, four or five
cards. They check nothing; :func:`evaluate_omaha` is the checked entry point.

>>> value = evaluate_omaha("As Ah 2c 3d", "4h 5h 8h Kd Qs")
>>> value.describe_high()  # one heart in the hand: no flush
'One Pair, Aces, King-Queen-Eight kickers'
>>> value.describe_low()  # A-2 with 4-5-8: no wheel, that would take three hole cards
'Eight-Five-Four-Two-Ace'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final

from engine.cards import Card, to_cards
from engine.errors import DuplicateCardError, InvalidHandError
from engine.evaluator import describe_rank, evaluate
from engine.hand_classes import CARD_KEYS, five_card_keys
from engine.lowball import describe_eight_low, rank_eight_low

__all__ = [
    "OmahaValue",
    "best_omaha_high",
    "best_omaha_low8",
    "describe_omaha_high",
    "describe_omaha_low8",
    "evaluate_omaha",
    "rank_omaha_high",
    "rank_omaha_low8",
]

_FLUSH_FLAG: Final = 1 << 23  # above any sum of five rank keys
# _FLUSH5[low byte of the sum of five card keys]: _FLUSH_FLAG if the five share a suit (the
# suit keys 0, 1, 24, 33 times five; no other five suits sum to these).
_FLUSH5: Final = [_FLUSH_FLAG if byte in {0, 5, 120, 165} else 0 for byte in range(256)]


def _build_high5() -> dict[int, int]:
    """Rank (on rank7's scale) of five cards by the sum of their rank keys, plus
    _FLUSH_FLAG if they share a suit; read off the 7,462 hand classes."""
    return {key | (_FLUSH_FLAG if suited else 0): rank for key, suited, rank, _ in five_card_keys()}


_HIGH5: Final = _build_high5()

# The low: a rank bit per card for ace (bit 0) to eight (bit 7), 0 above eight; and the
# value of five different such ranks on rank_eight_low's scale, by their mask.
_LOW_ORDER: Final = tuple(((code >> 2) + 1) % 13 for code in range(52))
_LOW_BIT: Final = tuple(1 << low if low < 8 else 0 for low in _LOW_ORDER)
_LOW8_BY_MASK: Final = [
    rank_eight_low([(low - 1) % 13 * 4 for low in range(8) if mask >> low & 1])
    if mask.bit_count() == 5
    else 0
    for mask in range(256)
]


def rank_omaha_high(
    hole: Sequence[int],
    board: Sequence[int],
    *,
    _k: Sequence[int] = CARD_KEYS,
    _flush: Sequence[int] = _FLUSH5,
    _high5: dict[int, int] = _HIGH5,
) -> int:
    """The high rank (1..7462, :func:`~engine.evaluator.rank7`'s scale) of the best hand of
    exactly two of the hole cards (4 to 6) and three of the board cards (3 to 5), by code.

    >>> from engine.cards import parse_cards
    >>> hole, board = parse_cards("Ah Kc Qd Js"), parse_cards("2h 5h 8h Th 9c")
    >>> describe_omaha_high(rank_omaha_high([c.code for c in hole], [c.code for c in board]))
    'Straight, Queen high'
    """
    pairs = [_k[a] + _k[b] for a, b in combinations(hole, 2)]
    best = 0
    for a, b, c in combinations(board, 3):
        three = _k[a] + _k[b] + _k[c]
        for two in pairs:
            key = two + three
            rank = _high5[key >> 8 | _flush[key & 255]]
            if rank > best:  # noqa: PLR1730 - a comparison is cheaper than a call to max()
                best = rank
    return best


def rank_omaha_low8(
    hole: Sequence[int],
    board: Sequence[int],
    *,
    _bit: Sequence[int] = _LOW_BIT,
    _by_mask: Sequence[int] = _LOW8_BY_MASK,
) -> int:
    """The eight-or-better low (1..56, :func:`~engine.lowball.rank_eight_low`'s scale) of exactly
    two hole cards and three board cards, or 0 if no such five make a low.

    >>> from engine.cards import parse_cards
    >>> def low(hole, board):
    ...     return rank_omaha_low8([c.code for c in hole], [c.code for c in board])
    >>> hole = parse_cards("Ac 2d Kh Ks")
    >>> describe_omaha_low8(low(hole, parse_cards("3s 4h 8c Jd Qd")))
    'Eight-Four-Three-Two-Ace'
    >>> low(hole, parse_cards("3s 4h Jc Jd Qd"))  # two low cards on the board: no low
    0
    """
    pairs = set()
    for a, b in combinations(hole, 2):
        x, y = _bit[a], _bit[b]
        if x and y and x != y:
            pairs.add(x | y)
    best = 0
    if pairs:
        for a, b, c in combinations(board, 3):
            x, y, z = _bit[a], _bit[b], _bit[c]
            three = x | y | z
            if x and y and z and three.bit_count() == 3:
                for two in pairs:
                    if not two & three and _by_mask[two | three] > best:
                        best = _by_mask[two | three]
    return best


def _hands(hole: Sequence[int], board: Sequence[int]) -> Iterable[tuple[int, ...]]:
    """Every two hole cards with every three board cards; highest codes first, so that of
    hands of equal value the one with the highest suits comes first."""
    for two in combinations(sorted(hole, reverse=True), 2):
        for three in combinations(sorted(board, reverse=True), 3):
            yield two + three


def best_omaha_high(hole: Sequence[int], board: Sequence[int]) -> tuple[int, ...]:
    """The codes of the best high hand (two hole cards, three board cards), most significant
    first as in :attr:`engine.evaluator.HandValue.best_five`.

    >>> from engine.cards import parse_cards
    >>> hole, board = parse_cards("Ah Kc Qd Js"), parse_cards("2h 5h 8h Th 9c")
    >>> best = best_omaha_high([c.code for c in hole], [c.code for c in board])
    >>> [str(Card.from_code(c)) for c in best]
    ['Qd', 'Js', 'Th', '9c', '8h']
    """
    five = max(_hands(hole, board), key=lambda hand: rank_omaha_high(hand[:2], hand[2:]))
    return tuple(card.code for card in evaluate(five).best_five)


def best_omaha_low8(hole: Sequence[int], board: Sequence[int]) -> tuple[int, ...]:
    """The codes of the best eight-or-better low (two hole cards, three board cards),
    highest first; ``()`` if there is no low.

    >>> from engine.cards import parse_cards
    >>> hole, board = parse_cards("Ac 2d Kh Ks"), parse_cards("3s 4h 8c Jd Qd")
    >>> best = best_omaha_low8([c.code for c in hole], [c.code for c in board])
    >>> [str(Card.from_code(c)) for c in best]
    ['8c', '4h', '3s', '2d', 'Ac']
    """
    value = rank_omaha_low8(hole, board)
    if not value:
        return ()
    five = next(h for h in _hands(hole, board) if rank_omaha_low8(h[:2], h[2:]) == value)
    return tuple(sorted(five, key=lambda code: _LOW_ORDER[code], reverse=True))


def describe_omaha_high(value: int) -> str:
    """The high hand with this rank (1..7462) in words.

    >>> describe_omaha_high(7462)
    'Royal Flush'
    """
    return describe_rank(value)


def describe_omaha_low8(value: int) -> str:
    """The low with this value (0..56) in words; 0 is no low.

    >>> describe_omaha_low8(56), describe_omaha_low8(0)
    ('Five-Four-Three-Two-Ace', 'No qualifying low')
    """
    return describe_eight_low(value)


@dataclass(frozen=True)
class OmahaValue:
    """Both halves of an Omaha hand: the high, and the eight-or-better low (0 if none).

    >>> v = evaluate_omaha("Ah 2h 3c Kd", "4h 5h 9h Qs Jc")
    >>> v.high, v.describe_high(), [str(c) for c in v.high_cards]
    (6684, 'Flush, Ace-Nine-Five-Four-Two', ['Ah', '9h', '5h', '4h', '2h'])
    >>> v.low, v.describe_low(), v.low_cards
    (0, 'No qualifying low', ())
    """

    high: int
    """On :func:`~engine.evaluator.rank7`'s scale, 1..7462."""
    high_cards: tuple[Card, ...]
    """The five cards of the high hand, most significant first."""
    low: int
    """On :func:`~engine.lowball.rank_eight_low`'s scale, 1..56, or 0 for no low."""
    low_cards: tuple[Card, ...]
    """The five cards of the low, highest first; empty if there is no low."""

    def describe_high(self) -> str:
        """The high hand in words, e.g. ``'Flush, Ace-Nine-Five-Four-Two'``."""
        return describe_rank(self.high)

    def describe_low(self) -> str:
        """The low in words, e.g. ``'Seven-Five-Four-Three-Ace'``."""
        return describe_eight_low(self.low)


def evaluate_omaha(
    hole: str | Iterable[Card | str | int], board: str | Iterable[Card | str | int]
) -> OmahaValue:
    """Evaluate an Omaha hand: 4 to 6 hole cards and a board of 3 to 5 cards, all distinct,
    as text, :class:`Card` objects, card strings or codes.

    >>> evaluate_omaha("As Ah 2c", "4h 5h Kh")
    Traceback (most recent call last):
    ...
    engine.errors.InvalidHandError: an omaha hand needs 4 to 6 hole cards, got 3
    """
    hole_cards, board_cards = to_cards(hole), to_cards(board)
    if not 4 <= len(hole_cards) <= 6:
        raise InvalidHandError(f"an omaha hand needs 4 to 6 hole cards, got {len(hole_cards)}")
    if not 3 <= len(board_cards) <= 5:
        raise InvalidHandError(f"an omaha board has 3 to 5 cards, got {len(board_cards)}")
    shared = set(hole_cards) & set(board_cards)
    if shared:
        card = min(shared)
        raise DuplicateCardError(f"card {str(card)!r} is both in the hand and on the board")
    for card in (*hole_cards, *board_cards):
        if card.code > 51:
            raise InvalidHandError(f"omaha is played with the 52 cards, got {str(card)!r}")
    h, b = [c.code for c in hole_cards], [c.code for c in board_cards]
    return OmahaValue(
        high=rank_omaha_high(h, b),
        high_cards=tuple(Card.from_code(c) for c in best_omaha_high(h, b)),
        low=rank_omaha_low8(h, b),
        low_cards=tuple(Card.from_code(c) for c in best_omaha_low8(h, b)),
    )
