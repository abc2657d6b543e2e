"""Poker dice: five six-sided dice, ranked like poker hands without suits.

From the best: five of a kind, four of a kind, full house, straight (1-2-3-4-5 or 2-3-4-5-6,
the six-high straight the better), three of a kind, two pair, one pair, nothing. Within a
kind the grouped faces decide first (a full house by its three, then its pair; two pair by
the higher pair, then the lower), then the other dice from the highest down. The 252
different throws (multisets of five faces) are the classes. Rule sets differ on one point:
tables that order the kinds by their odds alone (Wikipedia's "Poker dice" article, for one)
put the straight, 240 throws in 7,776, above the full house, 300; here the full house is
higher.

Dice are plain faces 1..6 here (codes 54..59 in :mod:`engine.cards` are ``53 + face``).
:func:`rank_dice` numbers the classes 1 (6-4-3-2-1, the worst nothing) to 252 (five
sixes), higher is better; it checks nothing, :func:`evaluate_dice` is the checked entry
point.

>>> str(evaluate_dice("5 2 5 2 5"))
'Full House, Fives over Twos'
>>> evaluate_dice("2 3 4 5 6") > evaluate_dice("1 2 3 4 5") > evaluate_dice("6 6 6 5 4")
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import total_ordering
from itertools import combinations_with_replacement
from typing import Final

from engine.cards import Card, parse_dice
from engine.errors import InvalidHandError

__all__ = ["DiceValue", "best_dice", "describe_dice", "evaluate_dice", "rank_dice"]

_KINDS: Final = (
    "Nothing",
    "One Pair",
    "Two Pair",
    "Three of a Kind",
    "Straight",
    "Full House",
    "Four of a Kind",
    "Five of a Kind",
)
_SHAPES: Final = {
    (1, 1, 1, 1, 1): 0,
    (2, 1, 1, 1): 1,
    (2, 2, 1): 2,
    (3, 1, 1): 3,
    (3, 2): 5,
    (4, 1): 6,
    (5,): 7,
}
_STRAIGHT: Final = 4
_NOUNS: Final = ("", "One", "Two", "Three", "Four", "Five", "Six")
# A throw's key: three bits per face counting its dice (at most five), so the sum over the
# five dice is different for every multiset of faces.
_FACE_KEY: Final = tuple(0 if face == 0 else 1 << 3 * (face - 1) for face in range(7))

DiceClass = tuple[int, tuple[int, ...]]
"""The kind (an index into the kinds, weakest first) and the deciding faces in order."""


def _class(faces: Sequence[int]) -> DiceClass:
    groups = sorted(((faces.count(f), f) for f in set(faces)), reverse=True)
    ordered = tuple(f for _, f in groups)
    if sorted(faces) in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]):
        return _STRAIGHT, (max(faces),)
    return _SHAPES[tuple(n for n, _ in groups)], ordered


def _build() -> tuple[list[DiceClass], dict[int, int]]:
    by_key = {
        sum(_FACE_KEY[f] for f in throw): _class(throw)
        for throw in combinations_with_replacement(range(1, 7), 5)
    }
    ordered = sorted(by_key.values())  # weakest first
    value_of = {c: v for v, c in enumerate(ordered, start=1)}
    return ordered, {key: value_of[c] for key, c in by_key.items()}


_CLASSES, _BY_KEY = _build()


def rank_dice(
    faces: Sequence[int], *, _k: Sequence[int] = _FACE_KEY, _by_key: dict[int, int] = _BY_KEY
) -> int:
    """The value (1..252, higher is better) of five dice given by their faces (1..6).

    >>> rank_dice([6, 6, 6, 6, 6]), rank_dice([6, 5, 4, 2, 1])
    (252, 3)
    """
    a, b, c, d, e = faces
    return _by_key[_k[a] + _k[b] + _k[c] + _k[d] + _k[e]]


def best_dice(faces: Sequence[int]) -> tuple[int, ...]:
    """The five faces in order of significance: grouped faces first, then the others from
    the highest down; a straight from its top.

    >>> best_dice([2, 5, 2, 6, 5]), best_dice([3, 1, 5, 2, 4])
    ((5, 5, 2, 2, 6), (5, 4, 3, 2, 1))
    """
    return tuple(sorted(faces, key=lambda f: (faces.count(f), f), reverse=True))


def describe_dice(value: int) -> str:
    """The throw with this value (1..252) in words.

    >>> describe_dice(252), describe_dice(rank_dice([1, 2, 3, 4, 5]))
    ('Five of a Kind, Sixes', 'Straight, Five high')
    >>> describe_dice(rank_dice([3, 6, 3, 1, 6]))
    'Two Pair, Sixes and Threes, One kicker'
    """
    kind, faces = _CLASSES[value - 1]
    name, nouns = _KINDS[kind], [_NOUNS[f] for f in faces]
    match kind:
        case 7:
            return f"{name}, {_plural(faces[0])}"
        case 6:
            return f"{name}, {_plural(faces[0])}, {nouns[1]} kicker"
        case 5:
            return f"{name}, {_plural(faces[0])} over {_plural(faces[1])}"
        case 4:
            return f"{name}, {nouns[0]} high"
        case 3 | 1:
            return f"{name}, {_plural(faces[0])}, {'-'.join(nouns[1:])} kickers"
        case 2:
            return f"{name}, {_plural(faces[0])} and {_plural(faces[1])}, {nouns[2]} kicker"
        case _:
            return f"{name}, {'-'.join(nouns)}"


def _plural(face: int) -> str:
    return _NOUNS[face] + ("es" if face == 6 else "s")


@total_ordering
@dataclass(frozen=True, eq=False)
class DiceValue:
    """A throw's value and its faces in order of significance; ordered by the value.

    >>> v = evaluate_dice([4, 1, 4, 6, 4])
    >>> v.value, str(v), v.faces
    (161, 'Three of a Kind, Fours, Six-One kickers', (4, 4, 4, 6, 1))
    """

    value: int
    """1..252, higher is better."""
    faces: tuple[int, ...]
    """The five faces, most significant first."""

    def describe(self) -> str:
        """The throw in words, e.g. ``'Full House, Fives over Twos'``."""
        return describe_dice(self.value)

    def __str__(self) -> str:
        return self.describe()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DiceValue):
            return NotImplemented
        return self.value == other.value

    def __hash__(self) -> int:
        return hash(self.value)

    def __lt__(self, other: DiceValue) -> bool:
        return self.value < other.value


def evaluate_dice(dice: str | Iterable[Card | int]) -> DiceValue:
    """Evaluate five dice: text (``'6 6 2 1 5'``), die :class:`Card` objects, or faces 1..6.

    >>> evaluate_dice("6 6 2 1")
    Traceback (most recent call last):
    ...
    engine.errors.InvalidHandError: poker dice are 5 dice, got 4
    """
    faces: list[int] = []
    for die in parse_dice(dice) if isinstance(dice, str) else dice:
        card = die if isinstance(die, Card) else Card.die(die)
        if card.face is None:
            raise InvalidHandError(f"card {str(card)!r} is not a die")
        faces.append(card.face)
    if len(faces) != 5:
        raise InvalidHandError(f"poker dice are 5 dice, got {len(faces)}")
    return DiceValue(rank_dice(faces), best_dice(faces))
