"""The ACPC dealer's deal: MT19937 seeded by ``init_genrand(seed)``, one stream per match.

The dealer (project_acpc_server, game.c ``dealCards``) builds the deck suit-major, the top
``numRanks`` ranks in the top ``numSuits`` suits, deals every card of a hand when the hand
starts (the hole cards of positions 0 to n-1, then each round's board cards) and draws
each card as ``deck[genrand_int32() % remaining]``, moving the last card into its place.
A card is ``rank * 4 + suit`` (ranks ``23456789TJQKA``, suits ``cdhs``), whatever the
deck's size. The same seed therefore deals the same cards as the real dealer.

>>> rng = MT19937(5489)
>>> [rng.next_u32() for _ in range(3)]
[3499211612, 581869302, 3890346734]
>>> card_text(51), card_text(0)
('As', '2c')
"""

from __future__ import annotations

from typing import Final

from engine.acpc import GameDef

__all__ = ["MT19937", "card_text", "deal"]

RANKS: Final = "23456789TJQKA"
SUITS: Final = "cdhs"
_N, _M = 624, 397
_UPPER, _LOWER, _MATRIX_A = 0x80000000, 0x7FFFFFFF, 0x9908B0DF


class MT19937:
    """The Mersenne Twister of Matsumoto and Nishimura (mt19937ar.c), as the dealer's rng.c
    has it: ``init_genrand`` and ``genrand_int32``. Python's ``random`` seeds with
    ``init_by_array`` instead, so it cannot stand in."""

    def __init__(self, seed: int) -> None:
        mt = [seed & 0xFFFFFFFF]
        for i in range(1, _N):
            mt.append((1812433253 * (mt[-1] ^ (mt[-1] >> 30)) + i) & 0xFFFFFFFF)
        self._mt = mt
        self._index = _N

    def next_u32(self) -> int:
        """The next output, in ``[0, 2**32)``."""
        if self._index >= _N:
            self._twist()
        y = self._mt[self._index]
        self._index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)

    def _twist(self) -> None:
        mt = self._mt
        for k in range(_N):
            y = (mt[k] & _UPPER) | (mt[(k + 1) % _N] & _LOWER)
            mt[k] = mt[(k + _M) % _N] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
        self._index = 0


def card_text(card: int) -> str:
    """The ACPC text of card ``rank * 4 + suit``: ``As``, ``Td``."""
    return RANKS[card // 4] + SUITS[card % 4]


def deal(game: GameDef, rng: MT19937) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """One hand's cards, drawn from ``rng`` as the dealer draws them: each position's hole
    cards (in position order), then every board card of every round."""
    deck = [
        rank * 4 + suit
        for suit in range(4 - game.num_suits, 4)
        for rank in range(13 - game.num_ranks, 13)
    ]

    def draw() -> int:
        i = rng.next_u32() % len(deck)
        card = deck[i]
        deck[i] = deck[-1]
        deck.pop()
        return card

    holes = tuple(
        tuple(draw() for _ in range(game.num_hole_cards)) for _ in range(game.num_players)
    )
    board = tuple(draw() for _ in range(sum(game.num_board_cards)))
    return holes, board
