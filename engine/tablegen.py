"""Build the evaluator's lookup tables shipped in ``engine/data/``.

The tables are derived from the hand-class logic in :mod:`engine.hand_classes`
(``rank_class`` and ``flush_class``) and the card keys there. Building them takes a few
seconds, too slow for every import, so they are shipped and this module rebuilds them::

    python -m engine.tablegen          # rewrite both files in engine/data/
    python -m engine.tablegen --check  # exit 1 if a shipped file is stale

Two files, one layout: repeated per table, name length (1 byte), name (ASCII), array
typecode (1 byte), item count (uint32 little-endian), items (little-endian).

- ``eval_tables.bin`` (hold'em, about 0.7 MB): loaded with the engine. :func:`build`.
- ``omaha_tables.xz`` (Omaha, 27 MB of tables, 1.7 MB as shipped): the same layout,
  xz-compressed, loaded on the first Omaha batch. :func:`build_omaha`. The check compares
  the decompressed bytes, so a different xz encoder cannot make it fail.

Rank multisets are found by perfect hashes of their rank-key sums (a displacement table,
see :func:`perfect_hash`), small enough to stay in the CPU cache.

>>> offsets = perfect_hash([3, 9, 17, 18], shift=3)
>>> offsets, hash_slots([3, 9, 17, 18], 3, offsets)
([-1, 2, -1], [2, 3, 0, 1])
"""

from __future__ import annotations

import argparse
import lzma
import sys
from array import array
from collections import Counter
from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement, product
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.hand_classes import CLASS_RANK, RANK_KEYS, SUIT_KEYS, flush_class, rank_class

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

TABLES_PATH = Path(__file__).with_name("data") / "eval_tables.bin"
OMAHA_PATH = Path(__file__).with_name("data") / "omaha_tables.xz"

# Perfect-hash shift by number of cards, chosen for the fewest bytes of slots and offsets.
HASH_SHIFTS = {4: 11, 5: 11, 6: 10, 7: 9}

# (name, array typecode, items): a list, or a numpy array for the large Omaha tables.
Table = tuple[str, str, "Sequence[int] | npt.NDArray[Any]"]


def rank_tables(n: int) -> tuple[list[int], list[int]]:
    """Sorted rank-key sums of every multiset of ``n`` ranks (at most four of a rank),
    and the rank of the best hand without a flush for each (0 below five cards).

    >>> keys, ranks = rank_tables(5)
    >>> len(keys), min(ranks), max(ranks)
    (6175, 1, 7452)
    """
    entries: dict[int, int] = {}
    for ranks in combinations_with_replacement(range(13), n):
        counts = Counter(ranks)
        if max(counts.values()) > 4:
            continue
        key = sum(RANK_KEYS[r] for r in ranks)
        assert key not in entries, "rank keys must give unique sums"
        entries[key] = CLASS_RANK[rank_class([counts[r] for r in range(13)])] if n >= 5 else 0
    keys = sorted(entries)
    return keys, [entries[k] for k in keys]


def flush_suit_table(n: int, at_least: int = 5) -> list[int]:
    """By the low byte of an ``n``-card key sum: 0 if no suit has ``at_least`` cards, else
    suit + 1.

    >>> flush_suit_table(7)[5 * SUIT_KEYS[2] + 2 * SUIT_KEYS[0]]  # five hearts, two clubs
    3
    """
    table = [0] * 256
    seen: dict[int, int] = {}
    for counts in product(range(n + 1), repeat=4):
        if sum(counts) != n:
            continue
        total = sum(c * k for c, k in zip(counts, SUIT_KEYS, strict=True))
        suit = next((s + 1 for s, c in enumerate(counts) if c >= at_least), 0)
        assert seen.setdefault(total, suit) == suit, "suit keys must identify the flush suit"
        table[total] = suit
    return table


def flush_rank_table() -> list[int]:
    """By a 13-bit mask of one suit's ranks: the best flush rank, or 0 below five cards."""
    return [CLASS_RANK[flush_class(m)] if m.bit_count() >= 5 else 0 for m in range(1 << 13)]


def perfect_hash(keys: Sequence[int], shift: int) -> list[int]:
    """Offsets of a displacement hash of distinct ``keys``: key ``k`` goes to slot
    ``(k & (2**shift - 1)) + offsets[k >> shift]``, and no two keys share a slot.

    The keys are cut into rows by ``k >> shift``; the rows are laid over one another,
    fullest first, each at the lowest displacement where its keys land on free slots
    (Tarjan and Yao's row displacement). Offsets may be negative; slots never are.
    """
    import numpy as np  # noqa: PLC0415  (the builder's only numpy use besides Omaha)

    ordered = np.array(sorted(keys), dtype=np.int64)
    mask = (1 << shift) - 1
    rows = ordered >> shift
    counts = np.bincount(rows)
    starts = np.concatenate([[0], np.cumsum(counts)])
    offsets = np.zeros(len(counts), dtype=np.int64)
    window = 1 << 15
    free = np.ones(len(ordered) + mask + 2 * window, dtype=bool)
    first_free = 0
    order = np.argsort(-counts, kind="stable")
    for row in order[counts[order] > 1]:
        cols = ordered[starts[row] : starts[row + 1]] & mask
        low = first_free - int(cols[0])
        while True:  # the first displacement, window by window, where every key is free
            if low + int(cols[-1]) + window > len(free):
                free = np.concatenate([free, np.ones(len(free), dtype=bool)])
            fits = free[low + cols[0] : low + cols[0] + window].copy()
            for col in cols[1:]:
                fits &= free[low + col : low + col + window]
            hits = np.flatnonzero(fits)
            if hits.size:
                break
            low += window
        offsets[row] = low + int(hits[0])
        free[cols + offsets[row]] = False
        while not free[first_free]:
            first_free += 1
    singles = order[counts[order] == 1]  # one key each: fill the holes left, in order
    slots = np.flatnonzero(free)[: len(singles)]
    offsets[singles] = slots - (ordered[starts[singles]] & mask)
    return [int(x) for x in offsets]


def hash_slots(keys: Sequence[int], shift: int, offsets: Sequence[int]) -> list[int]:
    """The slot of each key under :func:`perfect_hash`'s offsets.

    >>> hash_slots([3, 9, 17, 18], 3, [-1, 2, -1])
    [2, 3, 0, 1]
    """
    mask = (1 << shift) - 1
    return [(k & mask) + offsets[k >> shift] for k in keys]


def hashed(name: str, keys: Sequence[int], shift: int, values: Sequence[int]) -> list[Table]:
    """The tables of a perfect hash from ``keys`` to ``values``: ``{name}_shift`` (one
    item), ``{name}_offset`` and ``{name}_value`` (by slot; 0 in unused slots)."""
    offsets = perfect_hash(keys, shift)
    slots = hash_slots(keys, shift, offsets)
    assert len(set(slots)) == len(slots) and min(slots) >= 0
    by_slot = [0] * (max(slots) + 1)
    for slot, value in zip(slots, values, strict=True):
        by_slot[slot] = value
    return [
        (f"{name}_shift", "B", [shift]),
        (f"{name}_offset", "i", offsets),
        (f"{name}_value", "H", by_slot),
    ]


def pack(tables: Sequence[Table]) -> bytes:
    """Tables in the shipped layout.

    >>> pack([("ab", "H", [1, 258])]).hex(" ")
    '02 61 62 48 02 00 00 00 01 00 02 01'
    """
    out = bytearray()
    for name, typecode, values in tables:
        if isinstance(values, Sequence):
            items = array(typecode, values)
            if sys.byteorder == "big":
                items.byteswap()
            raw, count = items.tobytes(), len(items)
        else:  # numpy: the same C types, little-endian
            raw, count = values.astype(f"<{typecode}").tobytes(), values.size
        out += bytes([len(name)]) + name.encode() + typecode.encode()
        out += count.to_bytes(4, "little") + raw
    return bytes(out)


def build() -> bytes:
    """The bytes of ``eval_tables.bin``: ``flush_rank`` (by a suit's 13-bit rank mask),
    ``keys7``/``ranks7`` (every seven-rank multiset, for :func:`engine.evaluator.rank7`'s
    direct table), and per hand size n of 5, 6 and 7 ``flush_suit{n}`` (by the low byte of
    the key sum) and the perfect hash ``rank{n}`` from rank-key sum to rank."""
    tables: list[Table] = [("flush_rank", "H", flush_rank_table())]
    for n in (5, 6, 7):
        keys, ranks = rank_tables(n)
        if n == 7:
            tables += [("keys7", "I", keys), ("ranks7", "H", ranks)]
        tables.append((f"flush_suit{n}", "B", flush_suit_table(n)))
        tables += hashed(f"rank{n}", keys, HASH_SHIFTS[n], ranks)
    return pack(tables)


def _omaha_high(
    boards: npt.NDArray[np.int64], holes: npt.NDArray[np.int64]
) -> npt.NDArray[np.uint16]:
    """Best rank without a flush, by (board multiset, hole multiset), 0 where impossible."""
    import numpy as np  # noqa: PLC0415  (the tables are built vectorised)

    rank_keys = np.array(RANK_KEYS, dtype=np.int64)
    keys5, ranks5 = (np.array(t, dtype=np.int64) for t in rank_tables(5))
    pairs = np.array(list(combinations_with_replacement(range(13), 2)), dtype=np.int64)
    pair_index = np.zeros((13, 13), dtype=np.int64)
    pair_index[pairs[:, 0], pairs[:, 1]] = np.arange(len(pairs))
    # Every three board ranks with every two hole ranks: 6,175 x 10 x 91 five-rank sums.
    triples = boards[:, list(combinations(range(5), 3))]
    sums = rank_keys[triples].sum(axis=2)[:, :, None] + rank_keys[pairs].sum(axis=1)
    found = np.minimum(np.searchsorted(keys5, sums), len(keys5) - 1)
    ranks = np.where(keys5[found] == sums, ranks5[found], 0)
    low = triples[:, :, 0, None]
    five_alike = (low == triples[:, :, 2, None]) & (low == pairs[:, 0]) & (low == pairs[:, 1])
    ranks[five_alike] = 0  # rrr + rr: no such hand (and its sum may equal a real one's)
    by_pair = ranks.max(axis=1).astype(np.uint16)  # (board, rank pair)
    high = np.zeros((len(boards), len(holes)), dtype=np.uint16)
    for i, j in combinations(range(4), 2):  # the best of the hole's six pairs
        np.maximum(high, by_pair[:, pair_index[holes[:, i], holes[:, j]]], out=high)
    # More than four of a rank between board and hole is impossible: with each multiset's
    # counts as 4-bit digits, a digit of the sum above 4 sets its top bit once 3 is added.
    digits = np.array([1 << (4 * r) for r in range(13)], dtype=np.uint64)
    board_counts, hole_counts = digits[boards].sum(axis=1), digits[holes].sum(axis=1)
    threes, tops = np.uint64(0x3333333333333), np.uint64(0x8888888888888)
    high[((board_counts[:, None] + hole_counts + threes) & tops) != 0] = 0
    return high


def _omaha_flush(
    board_masks: npt.NDArray[np.int64], hole_masks: npt.NDArray[np.int64]
) -> npt.NDArray[np.uint16]:
    """Best flush with two hole and three board cards of one suit, by (board suited-rank
    mask, hole suited-rank mask), each list led by a row/column of zeros for "none"."""
    import numpy as np  # noqa: PLC0415  (the tables are built vectorised)

    flush_rank = np.array(flush_rank_table(), dtype=np.uint16)

    def submasks(masks: npt.NDArray[np.int64], k: int, width: int) -> npt.NDArray[np.int64]:
        out = np.zeros((len(masks), width), dtype=np.int64)
        for i, m in enumerate(masks.tolist()):
            bits = [1 << b for b in range(13) if m >> b & 1]
            subs = [sum(c) for c in combinations(bits, k)]
            out[i, : len(subs)] = subs
        return out

    two = np.array([m for m in range(1 << 13) if m.bit_count() == 2], dtype=np.int64)
    two_index = np.zeros(1 << 13, dtype=np.int64)
    two_index[two] = np.arange(len(two))
    triples = submasks(board_masks, 3, 10)[:, :, None]
    disjoint = ((triples & two) == 0) & (triples != 0)
    by_pair = np.where(disjoint, flush_rank[triples | two], 0).max(axis=1).astype(np.uint16)
    table = np.zeros((len(board_masks) + 1, len(hole_masks) + 1), dtype=np.uint16)
    for col in submasks(hole_masks, 2, 6).T:  # the best of the hole's pairs in the suit
        np.maximum(
            table[1:, 1:],
            np.where(col != 0, by_pair[:, two_index[col]], np.uint16(0)),
            out=table[1:, 1:],
        )
    table[1:, 1:][(board_masks[:, None] & hole_masks) != 0] = 0  # shared cards: impossible
    return table


def build_omaha() -> bytes:
    """The bytes of ``omaha_tables.xz`` before compression.

    - ``board_*`` and ``hole_*``: perfect hashes from the rank-key sum of five board cards
      (four hole cards) to the index of its rank multiset, in key order: 6,175 (1,820).
    - ``high``: by ``board * 1820 + hole`` index, the best rank without a flush using two
      hole and three board ranks.
    - ``flush_suit``: by the low byte of five board card keys, the suit + 1 holding three or
      more of them, else 0 (at most one suit can).
    - ``flush_board``, ``flush_hole``: by a 13-bit mask of the board's (hole's) ranks in that
      suit, its row (column) in ``flush``: boards with 3 to 5 ranks, holes with 2 to 4; 0
      (a row or column of zeros) for the rest.
    - ``flush``: the best flush or straight flush of two hole and three board cards.
    """
    import numpy as np  # noqa: PLC0415  (the tables are built vectorised)

    tables: list[Table] = []
    multisets = {}
    for name, n in (("board", 5), ("hole", 4)):
        keys, _ = rank_tables(n)
        tables += hashed(name, keys, HASH_SHIFTS[n], range(len(keys)))
        rows = [
            c for c in combinations_with_replacement(range(13), n) if max(Counter(c).values()) <= 4
        ]
        rows.sort(key=lambda c: sum(RANK_KEYS[r] for r in c))
        multisets[name] = np.array(rows, dtype=np.int64)
    high = _omaha_high(multisets["board"], multisets["hole"])
    masks = np.arange(1 << 13)
    bits = np.bitwise_count(masks)
    board_masks = masks[(bits >= 3) & (bits <= 5)]
    hole_masks = masks[(bits >= 2) & (bits <= 4)]
    board_row = np.zeros(1 << 13, dtype=np.int64)
    board_row[board_masks] = np.arange(1, len(board_masks) + 1)
    hole_col = np.zeros(1 << 13, dtype=np.int64)
    hole_col[hole_masks] = np.arange(1, len(hole_masks) + 1)
    flush = _omaha_flush(board_masks, hole_masks)
    tables += [
        ("high", "H", high.ravel()),
        ("flush_suit", "B", flush_suit_table(5, at_least=3)),
        ("flush_board", "H", board_row),
        ("flush_hole", "H", hole_col),
        ("flush", "H", flush.ravel()),
    ]
    return pack(tables)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="only check the shipped files")
    args = parser.parse_args(argv)
    stale = 0
    for path, data, compressed in (
        (TABLES_PATH, build(), False),
        (OMAHA_PATH, build_omaha(), True),
    ):
        if args.check:
            shipped = path.read_bytes() if path.exists() else b""
            if compressed and shipped:
                shipped = lzma.decompress(shipped)
            if shipped != data:
                print(f"{path} is stale: run python -m engine.tablegen", file=sys.stderr)
                stale = 1
            else:
                print(f"{path} is up to date")
            continue
        path.write_bytes(lzma.compress(data, preset=6) if compressed else data)
        print(f"wrote {path} ({path.stat().st_size:,} bytes)")
    return stale


if __name__ == "__main__":
    raise SystemExit(main())
