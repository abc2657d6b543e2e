"""Hand evaluation: name, rank and compare poker hands of five to seven or more cards.

Every hand falls in one of 7,462 equivalence classes; :attr:`HandValue.rank` numbers them
1 (seven-five high, the worst) to 7,462 (a royal flush), so a higher rank is a stronger hand.
:func:`evaluate` gives the full :class:`HandValue`; :func:`rank7` (seven card codes) and
:func:`rank_batch` (a numpy array of hands) give the rank alone, fast;
:func:`rank_omaha_batch` ranks Omaha hands (two hole cards and three board cards) in bulk.

>>> evaluate("Kh Kd Ks 5c 5d 2h 3c").describe()
'Full House, Kings over Fives'
>>> compare("2H 2D AH KC 3D", "4H 4C JC TC 3H")
'LOSE'

How the fast paths work: each card code maps to a key ``rank_key * 256 + suit_key``. The
rank keys make the sum over any seven cards unique per multiset of ranks, and the suit
keys (0, 1, 24, 33) make the low byte of the sum tell whether five or more cards share a
suit, and which. So one sum of seven table entries and two lookups rank a hand; flushes
(3 % of seven-card hands) take a second path through a 13-bit mask of the flush suit's
ranks. The first card's key is biased so every partial sum stays a one-digit CPython int
(|x| < 2**30), which keeps the additions on CPython's fast path. The numpy paths sum the
same keys, two cards per lookup, and find the rank of a sum through a perfect hash (0.2 MB,
cache-resident) rather than rank7's 15.6 MB direct table; see the notes above
:func:`rank_batch` and :func:`rank_omaha_batch`. The tables are built by
:mod:`engine.tablegen` and shipped in ``engine/data/``.
"""

from __future__ import annotations

import functools
import mmap
import sys
from array import array
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any, Final, Literal, NamedTuple, cast

from engine.cards import Card, Rank, to_cards
from engine.errors import InvalidHandError
from engine.hand_classes import (
    CARD_KEYS,
    CLASS_RANK,
    RANK_KEYS,
    HandCategory,
    HandClass,
    flush_class,
    name_class,
    rank_class,
)

if TYPE_CHECKING:  # numpy loads with the batch path (rank_batch), not with evaluate()
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "HandCategory",
    "HandValue",
    "Outcome",
    "compare",
    "describe_rank",
    "evaluate",
    "rank7",
    "rank_batch",
    "rank_omaha_batch",
]

Outcome = Literal["WIN", "LOSE", "DRAW"]


# Half the largest seven-card rank sum (4 aces + 3 kings), rounded up; see _RANK7.
_HALF: Final = (4 * RANK_KEYS[12] + 3 * RANK_KEYS[11] + 2) // 2
_BIASED_KEYS: Final = tuple(k - _HALF * 256 for k in CARD_KEYS)


def _spans(raw: bytes) -> dict[str, tuple[str, int, int]]:
    """Each table in :mod:`engine.tablegen`'s layout: its typecode, byte offset and count."""
    spans: dict[str, tuple[str, int, int]] = {}
    pos = 0
    while pos < len(raw):
        name_len = raw[pos]
        name = raw[pos + 1 : pos + 1 + name_len].decode()
        pos += 1 + name_len
        typecode = chr(raw[pos])
        count = int.from_bytes(raw[pos + 1 : pos + 5], "little")
        spans[name] = (typecode, pos + 5, count)
        pos += 5 + array(typecode).itemsize * count
    return spans


def _load_tables() -> dict[str, array[int]]:
    raw = resources.files("engine").joinpath("data/eval_tables.bin").read_bytes()
    tables: dict[str, array[int]] = {}
    for name, (typecode, pos, count) in _spans(raw).items():
        values = array(typecode)
        values.frombytes(raw[pos : pos + values.itemsize * count])
        if sys.byteorder == "big":
            values.byteswap()
        tables[name] = values
    return tables


_TABLES: Final = _load_tables()
_FLUSH_RANK: Final = _TABLES["flush_rank"].tolist()
_FLUSH_SUIT7: Final = _TABLES["flush_suit7"].tolist()
# Ranks of seven-card hands without a flush, by rank-key sum. The table is rotated by
# _HALF so that ``sum_of_biased_keys >> 8`` (which runs from -_HALF to _HALF - 1) indexes it
# directly, negative indices counting from the end. uint16 rather than a list: a quarter
# of the memory, kinder to the cache; in anonymous memory, zero until written, so making it
# costs nothing and the pages no sum falls on (half of them) are never resident. (The numpy
# paths use a perfect hash of the same sums instead: 0.2 MB that stays in the CPU cache,
# where these 15.6 MB cannot.)
_RANK7: Final = memoryview(mmap.mmap(-1, 2 * 2 * _HALF)).cast("H")
for _key, _rank in zip(_TABLES.pop("keys7"), _TABLES.pop("ranks7"), strict=True):
    _RANK7[_key - _HALF] = _rank
# _SUIT_BITS[suit + 1][code]: the card's rank bit if the card is of that suit, else 0.
_SUIT_BITS: Final = [[0] * 52] + [
    [1 << (code >> 2) if code & 3 == suit else 0 for code in range(52)] for suit in range(4)
]


def rank7(  # noqa: PLR0917 - seven cards, positionally, is the fast call
    c1: int,
    c2: int,
    c3: int,
    c4: int,
    c5: int,
    c6: int,
    c7: int,
    *,
    _k1: Sequence[int] = _BIASED_KEYS,
    _k: Sequence[int] = CARD_KEYS,
    _fs: Sequence[int] = _FLUSH_SUIT7,
    _sb: Sequence[Sequence[int]] = _SUIT_BITS,
    _fr: Sequence[int] = _FLUSH_RANK,
    _r7: Sequence[int] = _RANK7,
) -> int:
    """The rank (1..7462, higher is stronger) of seven distinct cards given by their codes.

    Allocates nothing but ints; the tables are bound as defaults so lookups stay local.
    Codes are not checked: use :func:`evaluate` for untrusted input.

    >>> from engine.cards import parse_cards
    >>> rank7(*(c.code for c in parse_cards("As Ks Qs Js Ts 2c 3d")))
    7462
    """
    k = _k1[c1] + _k[c2] + _k[c3] + _k[c4] + _k[c5] + _k[c6] + _k[c7]
    suit = _fs[k & 255]
    if suit:
        bits = _sb[suit]
        return _fr[bits[c1] | bits[c2] | bits[c3] | bits[c4] | bits[c5] | bits[c6] | bits[c7]]
    return _r7[k >> 8]


# -- the numpy paths -----------------------------------------------------------------------
#
# Hands arrive as rows of uint8 card codes. Two neighbouring cards of a row, read as one
# little-endian uint16 (c1 + 256 * c2), index 65,536-entry pair tables, so seven cards take
# four lookups (three pairs and a single card) instead of seven, from a strided view of the
# caller's array: no copy. A card's key is rank7's (rank key * 256 + suit key); its bit is
# 1 << (16 * suit + rank), so ``bits >> 16 * suit & 0x1FFF`` is the suit's 13-bit rank mask,
# and the bits of distinct cards are distinct (a row repeats a card when fewer are set).
# Rank-key sums find their rank through a perfect hash (see _Hash); the flush suit, from
# the key sum's low byte, picks the flush mask, ranked by the 8,192-entry flush table, 0
# when there is no flush; the higher of the two ranks is the hand's.

_BATCH_CHUNK: Final = 1 << 14  # rows at a time: the intermediate arrays stay in L2 cache
_CARD_BITS: Final = tuple(1 << (16 * (code & 3) + (code >> 2)) for code in range(52))


class _Hash(NamedTuple):
    """A perfect hash of rank-key sums (see :func:`engine.tablegen.perfect_hash`): a key's
    slot is ``(key & (2**shift - 1)) + offset[key >> shift]``; ``value`` is by slot.

    Any other key lands on some slot or is clipped to the table, so unchecked hands with
    impossible sums get a meaningless value rather than an IndexError."""

    shift: int
    offset: npt.NDArray[np.int32]
    value: npt.NDArray[Any]

    def __call__(self, keys: npt.NDArray[np.int32]) -> npt.NDArray[Any]:
        slots = self.offset.take(keys >> self.shift, mode="clip")
        slots += keys & ((1 << self.shift) - 1)
        return self.value.take(slots, mode="clip")


class _Batch(NamedTuple):
    """The tables of the numpy paths (see above). (Named tuples rather than dataclasses:
    a dataclass costs the import a millisecond.)"""

    pair_key: npt.NDArray[np.int32]
    """By ``c1 + 256 * c2``: the sum of the two cards' keys."""
    pair_bits: npt.NDArray[np.uint64]
    """By ``c1 + 256 * c2``: the two cards' bits; none if ``c1 == c2``."""
    card_key: npt.NDArray[np.int32]
    """By code (256 entries, 0 past 51): the card's key."""
    card_bits: npt.NDArray[np.uint64]
    """By code (256 entries, 0 past 51): the card's bit."""
    rank: dict[int, _Hash]
    """By number of cards (5, 6, 7): the rank without a flush of a rank-key sum."""
    flush_shift: dict[int, npt.NDArray[np.uint64]]
    """By number of cards, then the low byte of the key sum: 16 * the flush suit, or 0."""
    flush_rank: npt.NDArray[np.uint16]
    """By a 13-bit rank mask: the best flush, 0 below five ranks."""


def _array(values: array[int], dtype: str) -> npt.NDArray[Any]:
    import numpy as np  # noqa: PLC0415  (on first use: the hand tools never need it)

    return np.frombuffer(values, dtype=values.typecode).astype(dtype)


@functools.cache
def _batch_tables() -> _Batch:
    # Built on first use: the scalar paths never need them.
    import numpy as np  # noqa: PLC0415  (on first use: the hand tools never need it)

    card_key = np.zeros(256, dtype=np.int32)
    card_key[:52] = CARD_KEYS
    card_bits = np.zeros(256, dtype=np.uint64)
    card_bits[:52] = _CARD_BITS
    low, high = np.arange(1 << 16) & 255, np.arange(1 << 16) >> 8
    pair_bits = card_bits[low] | card_bits[high]
    pair_bits[low == high] = 0
    flush_shift = {}
    for n in (5, 6, 7):
        suit = _array(_TABLES[f"flush_suit{n}"], "u8")
        flush_shift[n] = np.where(suit > 0, 16 * (suit - 1), 0).astype(np.uint64)
    return _Batch(
        pair_key=card_key[low] + card_key[high],
        pair_bits=pair_bits,
        card_key=card_key,
        card_bits=card_bits,
        rank={n: _hash(_TABLES, f"rank{n}", np.uint16) for n in (5, 6, 7)},
        flush_shift=flush_shift,
        flush_rank=_array(_TABLES["flush_rank"], "u2"),
    )


def _hash(tables: Mapping[str, Any], name: str, dtype: Any, scale: int = 1) -> _Hash:
    import numpy as np  # noqa: PLC0415  (on first use: the hand tools never need it)

    value = np.asarray(tables[f"{name}_value"]).astype(dtype) * dtype(scale)
    offset = np.asarray(tables[f"{name}_offset"]).astype(np.int32)
    return _Hash(int(tables[f"{name}_shift"][0]), offset, value)


def _pairs(rows: npt.NDArray[np.uint8], col: int) -> npt.NDArray[np.uint16]:
    """Cards ``col`` and ``col + 1`` of each row as one uint16, ``c1 + 256 * c2``: a
    strided view of ``rows`` (whose columns must be adjacent bytes), not a copy."""
    from numpy.lib.stride_tricks import as_strided  # noqa: PLC0415

    first = rows[0, col : col + 2].view("<u2")
    return as_strided(first, shape=(len(rows),), strides=(rows.strides[0],), writeable=False)


def _codes(rows: npt.NDArray[np.integer], validate: bool) -> npt.NDArray[np.uint8]:
    """``rows`` as uint8 codes in adjacent bytes: a view of int8 or uint8, else a copy."""
    import numpy as np  # noqa: PLC0415  (on first use: the hand tools never need it)

    if validate and (rows.min() < 0 or rows.max() > 51):
        raise InvalidHandError("card codes must be in 0..51")
    codes = rows.view(np.uint8) if rows.dtype == np.int8 else rows
    if codes.dtype != np.uint8 or codes.strides[1] != 1:
        return rows.astype(np.uint8, order="C")
    return cast("npt.NDArray[np.uint8]", codes)


def _sum_cards(
    t: _Batch, rows: npt.NDArray[np.uint8], pairs: Iterable[int], single: int | None = None
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.uint64]]:
    """Per row, the key sum and the bits of the card pairs starting at columns ``pairs``
    and of the card in column ``single``."""
    keys: npt.NDArray[np.int32] | None = None
    bits: npt.NDArray[np.uint64] | None = None
    for col in pairs:
        index = _pairs(rows, col)
        if keys is None or bits is None:
            keys, bits = t.pair_key.take(index), t.pair_bits.take(index)
        else:
            keys += t.pair_key.take(index)
            bits |= t.pair_bits.take(index)
    assert keys is not None and bits is not None
    if single is not None:
        keys += t.card_key.take(rows[:, single])
        bits |= t.card_bits.take(rows[:, single])
    return keys, bits


def _check_distinct(bits: npt.NDArray[np.uint64], cards: int, first_row: int) -> None:
    import numpy as np  # noqa: PLC0415  (on first use: the hand tools never need it)

    repeated = np.flatnonzero(np.bitwise_count(bits) != cards)
    if repeated.size:
        raise InvalidHandError(f"row {first_row + int(repeated[0])} repeats a card")


def _rank_sums(
    t: _Batch, n: int, keys: npt.NDArray[np.int32], bits: npt.NDArray[np.uint64]
) -> npt.NDArray[np.uint16]:
    """The ranks of ``n``-card hands from their key sums and bits."""
    import numpy as np  # noqa: PLC0415  (on first use: the hand tools never need it)

    ranks: npt.NDArray[np.uint16] = t.rank[n](keys >> 8)
    masks = (bits >> t.flush_shift[n].take(keys & 255)) & 0x1FFF
    np.maximum(ranks, t.flush_rank.take(masks.view(np.int64)), out=ranks)
    return ranks


def _integer_rows(codes: npt.ArrayLike, widths: Sequence[int], what: str) -> npt.NDArray[Any]:
    import numpy as np  # noqa: PLC0415  (on first use: the hand tools never need it)

    rows = np.asarray(codes)
    if rows.ndim != 2 or rows.shape[1] not in widths:
        width = "|".join(map(str, widths))
        raise InvalidHandError(f"expected {what} of shape (N, {width}), got shape {rows.shape!r}")
    if not np.issubdtype(rows.dtype, np.integer):
        raise InvalidHandError(f"expected integer card codes, got dtype {str(rows.dtype)!r}")
    return rows


def rank_batch(codes: npt.ArrayLike, *, validate: bool = True) -> npt.NDArray[np.uint16]:
    """Ranks of many hands at once: an (N, 7) array of card codes gives N ranks.

    (N, 5) and (N, 6) arrays work too. The scale is :func:`rank7`'s. With ``validate``
    (the default) codes outside 0..51 and repeated cards in a row raise
    :class:`InvalidHandError`; without, such rows get meaningless ranks (for trusted input,
    a little faster). Any integer dtype is accepted; int8 and uint8 arrays whose columns
    are adjacent bytes (C order, or a slice of columns of one) are read in place.

    >>> import numpy as np
    >>> rank_batch(np.array([[51, 47, 43, 39, 35, 0, 5]])).tolist()
    [7462]
    """
    import numpy as np  # noqa: PLC0415  (on first use: the hand tools never need it)

    hands = _integer_rows(codes, (7, 6, 5), "an array")
    n = hands.shape[1]
    t = _batch_tables()
    out = np.empty(len(hands), dtype=np.uint16)
    for start in range(0, len(hands), _BATCH_CHUNK):
        rows = _codes(hands[start : start + _BATCH_CHUNK], validate)
        keys, bits = _sum_cards(t, rows, range(0, n - 1, 2), n - 1 if n % 2 else None)
        if validate:
            _check_distinct(bits, n, start)
        out[start : start + len(rows)] = _rank_sums(t, n, keys, bits)
    return out


# -- Omaha ---------------------------------------------------------------------------------
#
# A hand is two of the hole cards with three of the five board cards. Its best rank is the
# higher of the best without a flush, which depends only on the two rank multisets, and
# the best flush, which only the one suit with three or more board cards can make. So two
# tables (built by engine.tablegen, shipped xz-compressed) rank four hole cards against a
# board: ``high`` by (board rank multiset, hole rank multiset), 6,175 x 1,820, and
# ``flush`` by (the board's ranks in that suit, the hole's ranks in it), 2,289 x 1,080.
# Five and six hole cards take the best of three four-card subsets, which between them
# hold every pair: with cards 0..4, {0,1,2,3}, {0,1,3,4}, {1,2,3,4}; with 0..5, {0,1,2,3},
# {0,1,4,5}, {2,3,4,5}. Each subset is two column pairs, by their first columns:
_OMAHA_SPLITS: Final = {4: ((0, 2),), 5: ((0, 2), (0, 3), (1, 3)), 6: ((0, 2), (0, 4), (2, 4))}


class _Omaha(NamedTuple):
    """The Omaha tables (see above), by ``engine.tablegen.build_omaha``."""

    board: _Hash
    """Board rank-key sum to its multiset's row offset in ``high`` (index * 1,820)."""
    hole: _Hash
    """Four hole cards' rank-key sum to their multiset's column in ``high``."""
    high: npt.NDArray[np.uint16]
    flush_shift: npt.NDArray[np.uint64]
    """By the low byte of the board's key sum: 16 * the suit with three or more, else 0."""
    flush_board: npt.NDArray[np.int32]
    """By the board's rank mask in that suit: its row offset in ``flush``, 0 for none."""
    flush_hole: npt.NDArray[np.int32]
    """By the hole's rank mask in that suit: its column in ``flush``, 0 for none."""
    flush: npt.NDArray[np.uint16]


@functools.cache
def _omaha_tables() -> _Omaha:
    import lzma  # noqa: PLC0415  (on first use: only Omaha needs it)

    import numpy as np  # noqa: PLC0415  (on first use: the hand tools never need it)

    raw = lzma.decompress(resources.files("engine").joinpath("data/omaha_tables.xz").read_bytes())
    tables = {  # copies: numpy reads aligned arrays several times faster
        name: np.frombuffer(raw, dtype=f"<{typecode}", count=count, offset=pos).astype(typecode)
        for name, (typecode, pos, count) in _spans(raw).items()
    }
    del raw
    holes = int(tables["hole_value"].max()) + 1
    columns = int(tables["flush_hole"].max()) + 1
    suit = tables["flush_suit"].astype(np.uint64)
    return _Omaha(
        board=_hash(tables, "board", np.int32, scale=holes),
        hole=_hash(tables, "hole", np.int32),
        high=tables["high"],
        flush_shift=np.where(suit > 0, 16 * (suit - 1), 0).astype(np.uint64),
        flush_board=tables["flush_board"].astype(np.int32) * np.int32(columns),
        flush_hole=tables["flush_hole"].astype(np.int32),
        flush=tables["flush"],
    )


_OmahaBoard = tuple["npt.NDArray[np.int32]", "npt.NDArray[np.uint64]", "npt.NDArray[np.int32]"]


def _omaha_board(
    o: _Omaha, keys: npt.NDArray[np.int32], bits: npt.NDArray[np.uint64]
) -> _OmahaBoard:
    """What the hole cards are ranked against, from the boards' key sums and bits: the row
    offset in ``high``, the flush suit's shift and the row offset in ``flush``."""
    import numpy as np  # noqa: PLC0415  (on first use: the hand tools never need it)

    shift = o.flush_shift.take(keys & 255)
    masks = (bits >> shift) & 0x1FFF
    return o.board(keys >> 8), shift, o.flush_board.take(masks.view(np.int64))


def _omaha_rank(o: _Omaha, board: _OmahaBoard, keys: Any, bits: Any) -> npt.NDArray[np.uint16]:
    """The ranks of four hole cards (key sums and bits: arrays, or one hand's scalars)
    against the boards."""
    import numpy as np  # noqa: PLC0415  (on first use: the hand tools never need it)

    high_row, shift, flush_row = board
    ranks: npt.NDArray[np.uint16] = o.high.take(high_row + o.hole(keys >> 8))
    masks = (bits >> shift) & 0x1FFF
    flush = o.flush.take(flush_row + o.flush_hole.take(masks.view(np.int64)))
    np.maximum(ranks, flush, out=ranks)
    return ranks


def rank_omaha_batch(
    hole: npt.ArrayLike, board: npt.ArrayLike, *, validate: bool = True
) -> npt.NDArray[np.uint16]:
    """Omaha ranks of many hands at once: each uses exactly two of its hole cards and
    exactly three of the five board cards.

    ``hole`` is an (N, 4) array of card codes ((N, 5) and (N, 6) work too), ``board`` an
    (N, 5) array; the result holds N ranks on :func:`rank7`'s scale. With ``validate``
    (the default) codes outside 0..51 and a card repeated within a row's hole and board
    cards raise :class:`InvalidHandError`. The first call loads the Omaha tables (27 MB,
    about 0.2 s).

    >>> import numpy as np
    >>> from engine.cards import parse_cards
    >>> hole = [c.code for c in parse_cards("Ah Kc 2c 2d")]
    >>> board = [c.code for c in parse_cards("Qh Jh Th 9h 8h")]  # the board does not play
    >>> describe_rank(int(rank_omaha_batch(np.array([hole]), np.array([board]))[0]))
    'Straight, Ace high'
    """
    import numpy as np  # noqa: PLC0415  (on first use: the hand tools never need it)

    holes = _integer_rows(hole, (4, 5, 6), "hole cards")
    boards = _integer_rows(board, (5,), "board cards")
    if len(holes) != len(boards):
        raise InvalidHandError(f"got {len(holes)} rows of hole cards but {len(boards)} boards")
    h = holes.shape[1]
    t, o = _batch_tables(), _omaha_tables()
    out = np.empty(len(holes), dtype=np.uint16)
    for start in range(0, len(holes), _BATCH_CHUNK):
        hole_rows = _codes(holes[start : start + _BATCH_CHUNK], validate)
        board_rows = _codes(boards[start : start + _BATCH_CHUNK], validate)
        keys, bits = _sum_cards(t, board_rows, (0, 2), 4)
        against = _omaha_board(o, keys, bits)
        cols = sorted({c for split in _OMAHA_SPLITS[h] for c in split})  # cover every card
        pair_keys = {c: t.pair_key.take(_pairs(hole_rows, c)) for c in cols}
        pair_bits = {c: t.pair_bits.take(_pairs(hole_rows, c)) for c in cols}
        if validate:
            _check_distinct(functools.reduce(np.bitwise_or, pair_bits.values(), bits), 5 + h, start)
        (a, b), *more = _OMAHA_SPLITS[h]
        ranks = _omaha_rank(o, against, pair_keys[a] + pair_keys[b], pair_bits[a] | pair_bits[b])
        for a, b in more:
            subset = _omaha_rank(
                o, against, pair_keys[a] + pair_keys[b], pair_bits[a] | pair_bits[b]
            )
            np.maximum(ranks, subset, out=ranks)
        out[start : start + len(hole_rows)] = ranks
    return out


@functools.total_ordering
@dataclass(frozen=True, eq=False, repr=False)
class HandValue:
    """The value of a poker hand: ordered by strength, named in words.

    >>> v = evaluate("Ah Ad 9c 9s Qh 3d 2c")
    >>> v.category, str(v)
    (<HandCategory.TWO_PAIR: 3>, 'Two Pair, Aces and Nines, Queen kicker')
    >>> [str(c) for c in v.best_five]
    ['Ah', 'Ad', '9s', '9c', 'Qh']
    """

    rank: int
    """1..7462 on :func:`rank7`'s scale; higher is stronger."""
    category: HandCategory
    best_five: tuple[Card, ...]
    """The five cards that play, most significant first."""
    ranks: tuple[Rank, ...]
    """The ranks that decide the hand within its category, most significant first."""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.rank == other.rank

    def __lt__(self, other: HandValue) -> bool:
        return self.rank < other.rank

    def __hash__(self) -> int:
        return hash(self.rank)

    def __str__(self) -> str:
        return self.describe()

    def __repr__(self) -> str:
        cards = " ".join(map(str, self.best_five))
        return f"<HandValue {self.rank} {self.describe()!r} [{cards}]>"

    def describe(self) -> str:
        """The hand in words, e.g. ``'Full House, Kings over Fives'``."""
        return name_class(self.category, self.ranks)


def evaluate(cards: str | Iterable[Card | str | int]) -> HandValue:
    """Evaluate the best five-card hand among five or more distinct cards.

    Cards may be text (``"As Ks Qs Js Ts"``), :class:`Card` objects, card strings or codes.

    >>> evaluate("9d 4c 3s 2h Ah Kd Kc").describe()
    'One Pair, Kings, Ace-Nine-Four kickers'
    >>> evaluate("5d 4c 3s 2h Ah 9d 9c").describe()
    'Straight, Five high'
    """
    hand = to_cards(cards)
    if len(hand) < 5:
        raise InvalidHandError(f"a hand needs at least 5 cards, got {len(hand)}")
    counts = [0] * 13
    suit_masks = [0, 0, 0, 0]
    for card in hand:
        counts[card.code >> 2] += 1
        suit_masks[card.code & 3] |= 1 << (card.code >> 2)
    best = rank_class(counts)
    flush_suit = -1
    for suit, mask in enumerate(suit_masks):
        if mask.bit_count() >= 5:
            candidate = flush_class(mask)
            if CLASS_RANK[candidate] > CLASS_RANK[best]:
                best, flush_suit = candidate, suit
    category, ranks = best
    if category is HandCategory.STRAIGHT_FLUSH and ranks[0] == 12:
        category = HandCategory.ROYAL_FLUSH
    return HandValue(
        rank=CLASS_RANK[best],
        category=category,
        best_five=_best_five(hand, best, flush_suit),
        ranks=tuple(Rank(r + 2) for r in ranks),
    )


def _best_five(hand: tuple[Card, ...], best: HandClass, flush_suit: int) -> tuple[Card, ...]:
    """Pick the cards that play: grouped cards first, then kickers; the wheel's ace last."""
    category, ranks = best
    pool = sorted((c for c in hand if flush_suit < 0 or c.code & 3 == flush_suit), reverse=True)
    if category in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH):
        top = ranks[0]
        wanted = [top - i for i in range(5)] if top > 3 else [3, 2, 1, 0, 12]
        group_sizes = [1] * 5
    else:
        wanted = list(ranks)
        group_sizes = {
            HandCategory.FOUR_OF_A_KIND: [4, 1],
            HandCategory.FULL_HOUSE: [3, 2],
            HandCategory.THREE_OF_A_KIND: [3, 1, 1],
            HandCategory.TWO_PAIR: [2, 2, 1],
            HandCategory.ONE_PAIR: [2, 1, 1, 1],
        }.get(category, [1] * 5)
    chosen: list[Card] = []
    for rank_index, size in zip(wanted, group_sizes, strict=False):
        chosen += [c for c in pool if c.code >> 2 == rank_index][:size]
    return tuple(chosen)


def _as_value(hand: HandValue | str | Iterable[Card | str | int]) -> HandValue:
    return hand if isinstance(hand, HandValue) else evaluate(hand)


def compare(
    hand_a: HandValue | str | Iterable[Card | str | int],
    hand_b: HandValue | str | Iterable[Card | str | int],
) -> Outcome:
    """``'WIN'``, ``'LOSE'`` or ``'DRAW'``, from ``hand_a``'s side.

    The hands are evaluated on their own; they may share cards (a common board).

    >>> compare("Ah Kh Qh Jh Th", "9s 9h 9d 9c 2s")
    'WIN'
    """
    a, b = _as_value(hand_a), _as_value(hand_b)
    return "WIN" if a > b else "LOSE" if a < b else "DRAW"


@functools.cache
def describe_rank(rank: int) -> str:
    """The name of the hand class with this rank (1..7462), as :meth:`HandValue.describe`.

    >>> describe_rank(7462), describe_rank(1)
    ('Royal Flush', 'High Card, Seven-Five-Four-Three-Two')
    """
    category, ranks = _CLASS_BY_RANK[rank]
    if category is HandCategory.STRAIGHT_FLUSH and ranks[0] == 12:
        category = HandCategory.ROYAL_FLUSH
    return HandValue(rank, category, (), tuple(Rank(r + 2) for r in ranks)).describe()


_CLASS_BY_RANK: Final = {rank: c for c, rank in CLASS_RANK.items()}
