"""Build the evaluator's lookup tables shipped in ``engine/data/eval_tables.bin``.

The tables are derived from the hand-class logic in :mod:`engine.evaluator`
(``rank_class`` and ``flush_class``) and the card keys there. Building them takes a few
seconds, too slow for every import, so they are shipped and this module rebuilds them::

    python -m engine.tablegen          # rewrite engine/data/eval_tables.bin
    python -m engine.tablegen --check  # exit 1 if the shipped file is stale

File layout, repeated per table: name length (1 byte), name (ASCII), array typecode
(1 byte), item count (uint32 little-endian), items (little-endian).
"""

from __future__ import annotations

import argparse
import sys
from array import array
from collections import Counter
from itertools import combinations_with_replacement, product
from pathlib import Path

from engine.hand_classes import CLASS_RANK, RANK_KEYS, SUIT_KEYS, flush_class, rank_class

TABLES_PATH = Path(__file__).with_name("data") / "eval_tables.bin"


def rank_tables(n: int) -> tuple[list[int], list[int]]:
    """Sorted rank-key sums of every multiset of ``n`` ranks (at most four of a rank),
    and the rank of the best hand without a flush for each."""
    entries: dict[int, int] = {}
    for ranks in combinations_with_replacement(range(13), n):
        counts = Counter(ranks)
        if max(counts.values()) > 4:
            continue
        key = sum(RANK_KEYS[r] for r in ranks)
        assert key not in entries, "rank keys must give unique sums"
        entries[key] = CLASS_RANK[rank_class([counts[r] for r in range(13)])]
    keys = sorted(entries)
    return keys, [entries[k] for k in keys]


def flush_suit_table(n: int) -> list[int]:
    """By the low byte of an ``n``-card key sum: 0 if no suit has five cards, else suit + 1."""
    table = [0] * 256
    seen: dict[int, int] = {}
    for counts in product(range(n + 1), repeat=4):
        if sum(counts) != n:
            continue
        total = sum(c * k for c, k in zip(counts, SUIT_KEYS, strict=True))
        suit = next((s + 1 for s, c in enumerate(counts) if c >= 5), 0)
        assert seen.setdefault(total, suit) == suit, "suit keys must identify the flush suit"
        table[total] = suit
    return table


def flush_rank_table() -> list[int]:
    """By a 13-bit mask of one suit's ranks: the best flush rank, or 0 below five cards."""
    return [CLASS_RANK[flush_class(m)] if m.bit_count() >= 5 else 0 for m in range(1 << 13)]


def build() -> bytes:
    """The bytes of ``eval_tables.bin``."""
    tables: list[tuple[str, str, list[int]]] = [("flush_rank", "H", flush_rank_table())]
    for n in (5, 6, 7):
        keys, ranks = rank_tables(n)
        tables += [
            (f"keys{n}", "I", keys),
            (f"ranks{n}", "H", ranks),
            (f"flush_suit{n}", "B", flush_suit_table(n)),
        ]
    out = bytearray()
    for name, typecode, values in tables:
        items = array(typecode, values)
        if sys.byteorder == "big":
            items.byteswap()
        out += bytes([len(name)]) + name.encode() + typecode.encode()
        out += len(values).to_bytes(4, "little") + items.tobytes()
    return bytes(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="only check the shipped file")
    args = parser.parse_args(argv)
    data = build()
    if args.check:
        if TABLES_PATH.read_bytes() != data:
            print(f"{TABLES_PATH} is stale: run python -m engine.tablegen", file=sys.stderr)
            return 1
        print(f"{TABLES_PATH} is up to date")
        return 0
    TABLES_PATH.write_bytes(data)
    print(f"wrote {TABLES_PATH} ({len(data):,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
