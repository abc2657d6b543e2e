"""Naming and comparing the hands of any game: the hand tools' engine.

:func:`rate` ranks a player's hole cards (and the board, in a board game) under each of the
game's rankings: high, or low, or both for a split pot. :func:`contest` compares two hands
ranking by ranking. :func:`engine.evaluate` and :func:`engine.compare` remain the plain
best-five-of-seven high hand.

>>> rate("As Ks 7d 2c", "Qs Js 3d 4h 5c", game="plo8").describe()
'high: Straight, Five high; low: Five-Four-Three-Two-Ace'
>>> contest("AhKh", "QsQd", "2c 7d 9s Qh 3s", game="nlhe")
('LOSE',)
>>> contest("66612", "55543", game="dice")
('WIN',)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.cards import Card, parse_cards, parse_dice, to_cards
from engine.errors import InvalidHandError
from engine.evaluator import Outcome
from engine.games import Game, game

__all__ = ["Rating", "contest", "rate"]

CardsLike = str | Iterable[Card | str | int]


@dataclass(frozen=True)
class Rating:
    """A hand of a game under each of its rankings: ``values`` (higher is better; 0 is no
    qualifying low), ``names`` in words and ``best`` the cards that play, one each per
    ranking, high first."""

    game: Game
    hole: tuple[Card, ...]
    board: tuple[Card, ...]
    values: tuple[int, ...]
    names: tuple[str, ...]
    best: tuple[tuple[Card, ...], ...]

    def describe(self) -> str:
        """The hand in words; in a split game, each half named (``"low: none"``)."""
        if len(self.values) == 1:
            return self.names[0]
        halves = zip(("high", "low"), self.names, strict=True)
        return "; ".join(f"{half}: {name}" for half, name in halves)


def _game(which: Game | str) -> Game:
    return which if isinstance(which, Game) else game(which)


def read_cards(g: Game, cards: CardsLike, what: str) -> tuple[Card, ...]:
    """Cards (or dice) of ``g``'s deck, from text or values; ``what`` names them in errors."""
    if isinstance(cards, str):
        parsed = parse_dice(cards) if g.deck.dice else parse_cards(cards)
    else:
        parsed = to_cards(cards, distinct=not g.deck.dice)
    stray = next((c for c in parsed if c not in g.deck), None)
    if stray is not None:
        raise InvalidHandError(f"{what}: {str(stray)!r} is not in {g.name}'s {g.deck.name} deck")
    return parsed


def rate(hole: CardsLike, board: CardsLike = (), *, game: Game | str = "nlhe") -> Rating:
    """Rank ``hole`` (and ``board``) under each of ``game``'s rankings (a :class:`Game` or
    a preset key). Raises :class:`InvalidHandError` naming what does not fit the game: too
    many or too few cards, a card of another deck, a card twice.

    >>> rate("Kh", "Ks", game="leduc").names
    ('Pair of Kings',)
    """
    g = _game(game)
    hole_cards, board_cards = read_cards(g, hole, "hole"), read_cards(g, board, "board")
    if not g.deck.dice:
        to_cards([*hole_cards, *board_cards])  # raises DuplicateCardError naming the card
    _check_sizes(g, hole_cards, board_cards)
    hole_codes = [c.code for c in hole_cards]
    board_codes = [c.code for c in board_cards]
    values = tuple(r.rank(hole_codes, board_codes) for r in g.hands)
    names = tuple(r.describe(v) if v else "none" for r, v in zip(g.hands, values, strict=True))
    best = tuple(
        tuple(Card.from_code(c) for c in r.best(hole_codes, board_codes)) if v else ()
        for r, v in zip(g.hands, values, strict=True)
    )
    return Rating(g, hole_cards, board_cards, values, names, best)


def _check_sizes(g: Game, hole: tuple[Card, ...], board: tuple[Card, ...]) -> None:
    """A hand of the game's shape: all its hole cards (stud: five to seven), and a board
    no bigger than the game's, big enough to make a hand."""
    want, most_board = g.hole_cards, g.board_cards
    if g.up_cards and not g.deck.dice and not most_board:  # stud: five cards or more
        if not 5 <= len(hole) + len(board) <= want or len(board) > 1:
            raise InvalidHandError(f"a {g.name} hand has 5 to {want} cards, got {len(hole)}")
    elif len(hole) != want:
        raise InvalidHandError(f"a {g.name} hand has {want} hole cards, got {len(hole)}")
    if len(board) > max(most_board, 1 if g.up_cards else 0):
        raise InvalidHandError(f"{g.name} has a board of {most_board} cards, got {len(board)}")
    five = min(5, want + most_board)
    if most_board and len(hole) + len(board) < five:
        raise InvalidHandError(
            f"a {g.name} hand needs {five} cards with the board, got {len(hole) + len(board)}"
        )
    if most_board and want > 2 and board and len(board) < 3:  # Omaha: three from the board
        raise InvalidHandError(f"{g.name} plays three board cards; the board has {len(board)}")


def contest(
    a: CardsLike, b: CardsLike, board: CardsLike = (), *, game: Game | str = "nlhe"
) -> tuple[Outcome, ...]:
    """``'WIN'``, ``'LOSE'`` or ``'DRAW'`` for hand ``a`` against hand ``b`` on the same
    board, one per ranking of ``game`` (high first). A qualifying low beats none; two
    hands without one draw.

    >>> contest("Ah 2h Jc Td", "Kd 9c 9d Qc", "3s 4s 8d Kh Ks", game="flo8")
    ('LOSE', 'WIN')
    """
    first, second = rate(a, board, game=game), rate(b, board, game=game)
    shared = set(first.hole) & set(second.hole)
    if shared and not first.game.deck.dice:
        card = str(min(shared))
        raise InvalidHandError(f"card {card!r} is in both hands")
    return tuple(
        "WIN" if x > y else "LOSE" if x < y else "DRAW"
        for x, y in zip(first.values, second.values, strict=True)
    )
