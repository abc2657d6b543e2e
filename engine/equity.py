"""Hold'em and Omaha equity: how often each hand wins or ties over the boards to come.

Exact enumeration of every remaining board when asked for (``exact=True``) or when it is
cheap; Monte Carlo over ``samples`` random boards (reproducible with ``seed``) otherwise.
Two-card hands play hold'em; four-card hands (five and six too) play Omaha, where a hand is
exactly two hole cards and three board cards.

>>> ak, qq = equity(["AhKh", "QsQd"])
>>> ak.wins, ak.ties, ak.boards, round(ak.equity * 100, 4)
(787966, 6732, 1712304, 46.2145)
>>> aces, rundown = equity(["AsAd Kh Qc", "Jh Th 9s 8s"], board="2h 7h Kd")
>>> aces.boards, aces.wins, rundown.wins, aces.ties
(820, 457, 363, 0)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal, TypeAlias, cast

from engine.cards import Card, to_cards
from engine.errors import InvalidHandError
from engine.evaluator import (
    _OMAHA_SPLITS,
    _Batch,
    _batch_tables,
    _omaha_board,
    _omaha_rank,
    _omaha_tables,
    _rank_sums,
    _sum_cards,
)

if TYPE_CHECKING:  # numpy loads when equity runs, not with the engine
    import numpy as np
    import numpy.typing as npt

    from engine import games

__all__ = ["Equity", "Game", "equity"]

CardsLike = str | Iterable[Card | str | int]
Game = Literal["holdem", "omaha"]
"""The two games of the batch paths; any board game of :mod:`engine.games` plays too."""
SCALAR_EXACT_LIMIT: Final = 500_000
"""Other board games rank hand by hand: enumerate exactly up to this many evaluations."""
SCALAR_SAMPLES: Final = 20_000

# Enumerate exactly by default when it takes at most this many hand evaluations
# (heads-up preflop is 2 x 1,712,304 in hold'em, 2 x 1,086,008 in Omaha).
EXACT_LIMIT: Final = 4_000_000
DEFAULT_SAMPLES: Final = 200_000
_CHUNK: Final = 1 << 15  # boards at a time: the per-board arrays stay in the CPU cache
_HOLE_CARDS: Final = {"holdem": (2,), "omaha": (4, 5, 6)}


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


def _game_of(holes: Sequence[tuple[Card, ...]], game: Game | None) -> Game:
    """The game played, checking every hand's size against it."""
    first = len(holes[0])
    if game is None:
        game = "omaha" if first in _HOLE_CARDS["omaha"] else "holdem"
        if first not in _HOLE_CARDS[game]:
            raise InvalidHandError(
                f"hand 1 has {first} cards; a hold'em hand has 2, an omaha hand 4, 5 or 6"
            )
    for i, hole in enumerate(holes, start=1):
        if len(hole) not in _HOLE_CARDS[game]:
            rule = "a hold'em hand has 2" if game == "holdem" else "an omaha hand has 4, 5 or 6"
            raise InvalidHandError(f"hand {i} has {len(hole)} cards; {rule}")
        if len(hole) != first:
            raise InvalidHandError(
                f"hand {i} has {len(hole)} cards but hand 1 has {first}; all need as many"
            )
    return game


def equity(
    hands: Sequence[CardsLike],
    board: CardsLike = (),
    dead: CardsLike = (),
    *,
    game: Game | games.Game | str | None = None,
    exact: bool | None = None,
    samples: int | None = None,
    seed: int | None = None,
) -> tuple[Equity, ...]:
    """Each hand's wins, ties and equity against the others.

    ``game`` is ``"holdem"`` (two-card hands) or ``"omaha"`` (four-card hands; five- and
    six-card Omaha too; each hand uses exactly two hole cards and three board cards); left
    ``None``, it follows the first hand's size: two cards hold'em, four to six Omaha. Any
    other board game of :mod:`engine.games` (a :class:`engine.games.Game` or its key: short
    deck, Omaha hi-lo, hold'em with jokers) ranks hand by hand with the game's rankings
    (:func:`_board_game_equity`); hold'em and Omaha high keys take the fast paths. All
    hands have the same size. ``board`` holds 0 to 5 cards already dealt; ``dead`` cards
    are out of the deck. With ``exact=None`` the boards are enumerated when that costs at
    most :data:`EXACT_LIMIT` evaluations and no ``samples`` were asked for; otherwise
    ``samples`` (default :data:`DEFAULT_SAMPLES`) random boards are dealt from a generator
    seeded with ``seed``.
    """
    import numpy as np  # noqa: PLC0415  (on first use: the hand tools never need it)

    if game is not None and game not in _HOLE_CARDS:
        return _board_game_equity(hands, board, dead, game, exact=exact, samples=samples, seed=seed)
    holes = [to_cards(h) for h in hands]
    if len(holes) < 2:
        raise InvalidHandError(f"equity needs at least 2 hands, got {len(holes)}")
    game = _game_of(holes, cast("Game | None", game))
    board_cards = to_cards(board)
    if len(board_cards) > 5:
        raise InvalidHandError(f"a board has at most 5 cards, got {len(board_cards)}")
    # Raises DuplicateCardError naming any card used twice across hands, board and dead.
    used = to_cards([c for h in holes for c in h] + list(board_cards) + list(to_cards(dead)))
    remaining = np.array(sorted(set(range(52)) - {c.code for c in used}), dtype=np.uint8)
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

    rank = _holdem_ranker(holes) if game == "holdem" else _omaha_ranker(holes)
    wins = np.zeros(len(holes), dtype=np.int64)
    # ties[k - 2]: boards on which each hand shares the pot k ways; counted exactly, so the
    # result is the same however the boards are cut into chunks.
    ties = np.zeros((len(holes) - 1, len(holes)), dtype=np.int64)
    fixed = np.array([c.code for c in board_cards], dtype=np.uint8)
    full_board = np.empty((_CHUNK, 5), dtype=np.uint8)
    full_board[:, : len(fixed)] = fixed
    for runout in runouts:
        rows = full_board[: len(runout)]
        rows[:, len(fixed) :] = runout
        ranks = rank(rows)
        best = ranks == ranks.max(axis=0)
        winners = best.sum(axis=0)
        wins += (best & (winners == 1)).sum(axis=1)
        for k in range(2, len(holes) + 1):
            ties[k - 2] += (best & (winners == k)).sum(axis=1)
    shares = wins + sum(ties[k - 2] / k for k in range(2, len(holes) + 1))
    return tuple(
        Equity(
            hand=hole,
            wins=int(w),
            ties=int(t),
            boards=boards,
            equity=float(s) / boards,
            exact=exact,
        )
        for hole, w, t, s in zip(holes, wins, ties.sum(axis=0), shares, strict=True)
    )


_Ranker: TypeAlias = "Callable[[npt.NDArray[np.uint8]], npt.NDArray[np.uint16]]"


def _key_and_bits(t: _Batch, codes: Iterable[int]) -> tuple[int, int]:
    """The sum of some cards' keys and the union of their bits (see engine.evaluator)."""
    key = bits = 0
    for code in codes:
        key += int(t.card_key[code])
        bits |= int(t.card_bits[code])
    return key, bits


def _holdem_ranker(holes: Sequence[tuple[Card, ...]]) -> _Ranker:
    """Ranks, one row per hand, of each hole with each board of a chunk of full boards."""
    import numpy as np  # noqa: PLC0415  (on first use: the hand tools never need it)

    t = _batch_tables()
    parts = [_key_and_bits(t, (c.code for c in hole)) for hole in holes]

    def rank(boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint16]:
        keys, bits = _sum_cards(t, boards, (0, 2), 4)  # once per board, then per hand:
        return np.stack([_rank_sums(t, 7, keys + key, bits | np.uint64(b)) for key, b in parts])

    return rank


def _omaha_ranker(holes: Sequence[tuple[Card, ...]]) -> _Ranker:
    """Like :func:`_holdem_ranker`, each hand its best two hole and three board cards."""
    import numpy as np  # noqa: PLC0415  (on first use: the hand tools never need it)

    t, o = _batch_tables(), _omaha_tables()
    subsets = []  # per hand, per four-card subset (see engine.evaluator): key sum and bits
    for hole in holes:
        codes = [c.code for c in hole]
        parts = [
            _key_and_bits(t, (codes[c] for c in (a, a + 1, b, b + 1)))
            for a, b in _OMAHA_SPLITS[len(codes)]
        ]
        subsets.append([(np.int32(key), np.uint64(bits)) for key, bits in parts])

    def rank(boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint16]:
        against = _omaha_board(o, *_sum_cards(t, boards, (0, 2), 4))
        out = np.empty((len(holes), len(boards)), dtype=np.uint16)
        for row, parts in zip(out, subsets, strict=True):
            row[:] = _omaha_rank(o, against, *parts[0])
            for key, bits in parts[1:]:
                np.maximum(row, _omaha_rank(o, against, key, bits), out=row)
        return out

    return rank


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
    remaining: npt.NDArray[np.uint8], missing: int
) -> Iterable[npt.NDArray[np.uint8]]:
    combos = _combinations(len(remaining), missing)
    for start in range(0, len(combos), _CHUNK):
        yield remaining.take(combos[start : start + _CHUNK])


def _chunks_random(
    remaining: npt.NDArray[np.uint8], missing: int, samples: int, seed: int | None
) -> Iterable[npt.NDArray[np.uint8]]:
    import numpy as np  # noqa: PLC0415  (on first use: the hand tools never need it)

    rng = np.random.default_rng(seed)
    for start in range(0, samples, _CHUNK):
        n = min(_CHUNK, samples - start)
        # A random k-subset per row: the k smallest of uniform keys. (The generator fills
        # rows in order, so the chunk size does not change which boards a seed deals.)
        picks = (
            np.argpartition(rng.random((n, len(remaining))), missing - 1, axis=1)[:, :missing]
            if missing
            else np.zeros((n, 0), dtype=np.int64)
        )
        yield remaining.take(picks)


def _board_game_equity(
    hands: Sequence[CardsLike],
    board: CardsLike,
    dead: CardsLike,
    which: games.Game | str,
    *,
    exact: bool | None,
    samples: int | None,
    seed: int | None,
) -> tuple[Equity, ...]:
    """Equity in any board game, hand by hand with the game's rankings: each board's pot
    (each half of it, in a split game) goes to the best hands, shared on a tie. ``wins``
    counts boards a hand takes the whole pot alone, ``ties`` boards it takes a part of it;
    ``equity`` is its expected share of the pot."""
    import random  # noqa: PLC0415  (a seeded generator of our own, for Monte Carlo boards)

    from engine import games  # noqa: PLC0415  (the games load the tables: not for hold'em)
    from engine.rating import read_cards  # noqa: PLC0415

    g = which if isinstance(which, games.Game) else games.game(which)
    if g.hands == (games.GAMES["nlhe"].hands) and g.deck is games.NLHE.deck and g.hole_cards == 2:
        return equity(hands, board, dead, game="holdem", exact=exact, samples=samples, seed=seed)
    if g.hands == games.GAMES["plo"].hands:
        return equity(hands, board, dead, game="omaha", exact=exact, samples=samples, seed=seed)
    if not g.board_cards or g.draws or g.up_cards:
        raise InvalidHandError(
            f"equity is for board games (hold'em, Omaha, short deck); not {g.name}"
        )
    if samples is not None and samples < 1:
        raise InvalidHandError(f"samples must be positive, got {samples!r}")
    holes = [read_cards(g, h, f"hand {i}") for i, h in enumerate(hands, start=1)]
    if len(holes) < 2:
        raise InvalidHandError(f"equity needs at least 2 hands, got {len(holes)}")
    for i, hole in enumerate(holes, start=1):
        if len(hole) != g.hole_cards:
            raise InvalidHandError(f"hand {i} has {len(hole)} cards; {g.name} deals {g.hole_cards}")
    fixed = read_cards(g, board, "board")
    if len(fixed) > g.board_cards:
        raise InvalidHandError(f"a {g.name} board has at most {g.board_cards} cards")
    used = to_cards([c for h in holes for c in h] + list(fixed) + list(to_cards(dead)))
    remaining = [c.code for c in g.deck.cards if c not in set(used)]
    missing = g.board_cards - len(fixed)
    total = math.comb(len(remaining), missing)
    if exact is None:
        exact = samples is None and total * len(holes) <= SCALAR_EXACT_LIMIT
    if exact:
        from itertools import combinations  # noqa: PLC0415

        runouts: Iterable[tuple[int, ...]] = combinations(remaining, missing)
        boards = total
    else:
        boards = samples or SCALAR_SAMPLES
        rng = random.Random(seed)
        runouts = (tuple(rng.sample(remaining, missing)) for _ in range(boards))
    codes = [[c.code for c in h] for h in holes]
    base = [c.code for c in fixed]
    n = len(holes)
    wins, ties, shares = [0] * n, [0] * n, [0.0] * n
    for runout in runouts:
        full = [*base, *runout]
        pot = [0.0] * n
        halves = [(r, [r.rank(h, full) for h in codes]) for r in g.hands]
        low = halves[1][1] if len(halves) == 2 and any(halves[1][1]) else None
        for r, values in halves if low is not None else halves[:1]:
            top = max(values)
            winners = [i for i, v in enumerate(values) if v == top and (v or not r.low)]
            for i in winners:
                pot[i] += (0.5 if low is not None else 1.0) / len(winners)
        for i, share in enumerate(pot):
            shares[i] += share
            if share == 1.0:
                wins[i] += 1
            elif share:
                ties[i] += 1
    return tuple(
        Equity(hand=h, wins=w, ties=t, boards=boards, equity=s / boards, exact=exact)
        for h, w, t, s in zip(holes, wins, ties, shares, strict=True)
    )
