"""Hold'em equity: how often each hand wins or ties over the boards still to come.

Exact enumeration of every remaining board when asked for (``exact=True``) or when it is
cheap; Monte Carlo over ``samples`` random boards (reproducible with ``seed``) otherwise.

>>> ak, qq = equity(["AhKh", "QsQd"])
>>> ak.wins, ak.ties, ak.boards, round(ak.equity * 100, 4)
(787966, 6732, 1712304, 46.2145)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from engine.cards import Card, to_cards
from engine.errors import InvalidHandError
from engine.evaluator import _rank_rows

if TYPE_CHECKING:  # numpy loads when equity runs, not with the engine
    import numpy as np
    import numpy.typing as npt

__all__ = ["Equity", "equity"]

CardsLike = str | Iterable[Card | str | int]

# Enumerate exactly by default when it takes at most this many hand evaluations
# (heads-up preflop is 2 x 1,712,304; about a second here).
EXACT_LIMIT: Final = 4_000_000
DEFAULT_SAMPLES: Final = 200_000
_CHUNK: Final = 1 << 19


@dataclass(frozen=True)
class Equity:
    """One hand's result over ``boards`` boards.

    ``wins`` counts boards it wins alone, ``ties`` boards where it shares the best hand;
    ``equity`` is its expected share of the pot: wins plus each tie split evenly.
    """

    hand: tuple[Card, ...]
    wins: int
    ties: int
    boards: int
    equity: float
    exact: bool

    @property
    def win_share(self) -> float:
        """Fraction of boards won outright."""
        return self.wins / self.boards

    @property
    def tie_share(self) -> float:
        """Fraction of boards tied for the best hand."""
        return self.ties / self.boards


def equity(
    hands: Sequence[CardsLike],
    board: CardsLike = (),
    dead: CardsLike = (),
    *,
    exact: bool | None = None,
    samples: int | None = None,
    seed: int | None = None,
) -> tuple[Equity, ...]:
    """Each Hold'em hand's wins, ties and equity against the others.

    ``hands`` are two-card hands (``"AhKh"`` or two cards); ``board`` holds 0 to 5 cards
    already dealt; ``dead`` cards are out of the deck. With ``exact=None`` the boards are
    enumerated when that costs at most :data:`EXACT_LIMIT` evaluations and no ``samples``
    were asked for; otherwise ``samples`` (default :data:`DEFAULT_SAMPLES`) random boards
    are dealt from a generator seeded with ``seed``.
    """
    import numpy as np  # noqa: PLC0415  (on first use: the hand tools never need it)

    holes = [to_cards(h) for h in hands]
    if len(holes) < 2:
        raise InvalidHandError(f"equity needs at least 2 hands, got {len(holes)}")
    for i, hole in enumerate(holes, start=1):
        if len(hole) != 2:
            raise InvalidHandError(f"hand {i} has {len(hole)} cards; a hold'em hand has 2")
    board_cards = to_cards(board)
    if len(board_cards) > 5:
        raise InvalidHandError(f"a board has at most 5 cards, got {len(board_cards)}")
    # Raises DuplicateCardError naming any card used twice across hands, board and dead.
    used = to_cards([c for h in holes for c in h] + list(board_cards) + list(to_cards(dead)))
    remaining = np.array(sorted(set(range(52)) - {c.code for c in used}), dtype=np.int64)
    missing = 5 - len(board_cards)
    if len(remaining) < missing:
        raise InvalidHandError("not enough cards left in the deck to complete the board")
    if samples is not None and samples < 1:
        raise InvalidHandError(f"samples must be positive, got {samples!r}")

    total = math.comb(len(remaining), missing)
    if exact is None:
        exact = samples is None and total * len(holes) <= EXACT_LIMIT
    if exact:
        boards = total
        runouts = _chunks_exact(remaining, missing)
    else:
        boards = samples or DEFAULT_SAMPLES
        runouts = _chunks_random(remaining, missing, boards, seed)

    wins = np.zeros(len(holes), dtype=np.int64)
    ties = np.zeros(len(holes), dtype=np.int64)
    shares = np.zeros(len(holes), dtype=np.float64)
    fixed = np.array([c.code for c in board_cards], dtype=np.int64)
    for runout in runouts:
        full_board = np.hstack([np.broadcast_to(fixed, (len(runout), len(fixed))), runout])
        ranks = np.stack(
            [
                _rank_rows(
                    np.hstack(
                        [full_board, np.broadcast_to([h[0].code, h[1].code], (len(runout), 2))]
                    )
                )
                for h in holes
            ]
        )
        best = ranks == ranks.max(axis=0)
        winners = best.sum(axis=0)
        wins += (best & (winners == 1)).sum(axis=1)
        ties += (best & (winners > 1)).sum(axis=1)
        shares += (best / winners).sum(axis=1)
    return tuple(
        Equity(
            hand=hole,
            wins=int(w),
            ties=int(t),
            boards=boards,
            equity=float(s) / boards,
            exact=exact,
        )
        for hole, w, t, s in zip(holes, wins, ties, shares, strict=True)
    )


@functools.lru_cache(maxsize=8)
def _combinations(n: int, k: int) -> npt.NDArray[np.int8]:
    """Every k-subset of range(n) as rows of an int8 array, in lexicographic order."""
    import numpy as np  # noqa: PLC0415  (on first use: the hand tools never need it)

    if k == 0:
        return np.zeros((1, 0), dtype=np.int8)
    # Build column by column: rows ending at each possible last element.
    rows = np.arange(n, dtype=np.int8).reshape(-1, 1)
    for width in range(2, k + 1):
        last = rows[:, -1]
        counts = (n - 1 - last).astype(np.int64)
        prefix = np.repeat(rows, counts, axis=0)
        starts = np.repeat(last.astype(np.int64) + 1, counts)
        offsets = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        rows = np.hstack([prefix, (starts + offsets).astype(np.int8).reshape(-1, 1)])
        # Drop prefixes that cannot be completed to k elements.
        rows = rows[rows[:, -1] <= n - 1 - (k - width)]
    return rows


def _chunks_exact(
    remaining: npt.NDArray[np.int64], missing: int
) -> Iterable[npt.NDArray[np.int64]]:
    combos = _combinations(len(remaining), missing)
    for start in range(0, len(combos), _CHUNK):
        yield remaining[combos[start : start + _CHUNK]]


def _chunks_random(
    remaining: npt.NDArray[np.int64], missing: int, samples: int, seed: int | None
) -> Iterable[npt.NDArray[np.int64]]:
    import numpy as np  # noqa: PLC0415  (on first use: the hand tools never need it)

    rng = np.random.default_rng(seed)
    for start in range(0, samples, _CHUNK):
        n = min(_CHUNK, samples - start)
        # A random k-subset per row: the k smallest of uniform keys.
        picks = (
            np.argpartition(rng.random((n, len(remaining))), missing - 1, axis=1)[:, :missing]
            if missing
            else np.zeros((n, 0), dtype=np.int64)
        )
        yield remaining[picks]
