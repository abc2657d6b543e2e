"""Settling up: who pays whom at the end of a night, in the fewest transfers.

Players whose nets sum to zero settle in ``n - g`` transfers, ``n`` being the players
with a non-zero net and ``g`` the most groups they split into whose nets each sum to
zero (each group settles inside itself in one transfer fewer than its size, and no
settlement does better). Up to :data:`EXACT_PLAYERS` players the groups are found
exactly, over every subset; beyond, a heuristic pairs equal and opposite nets first and
then has the biggest debtor pay the biggest creditor, which never takes more than
``n - 1`` transfers (docs/ledger.md).

>>> [str(t) for t in settle({"ann": 50, "bob": -30, "cy": -20, "dee": 10, "ed": -10})]
['bob pays ann 30', 'cy pays ann 20', 'ed pays dee 10']
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["EXACT_PLAYERS", "LedgerError", "Transfer", "read_ledger", "settle"]

EXACT_PLAYERS = 12
"""Up to this many players with a non-zero net, the fewest transfers are found exactly
(2^12 subsets); beyond, by the heuristic."""


class LedgerError(ValueError):
    """A ledger that cannot be settled: the message says why."""


@dataclass(frozen=True)
class Transfer:
    """``payer`` pays ``payee`` ``amount`` (in the ledger's units)."""

    payer: str
    payee: str
    amount: int

    def __str__(self) -> str:
        return f"{self.payer} pays {self.payee} {self.amount}"

    def to_json(self) -> dict[str, str | int]:
        return {"from": self.payer, "to": self.payee, "amount": self.amount}


def settle(nets: Mapping[str, int]) -> list[Transfer]:
    """The fewest transfers that bring every net to zero (exact up to
    :data:`EXACT_PLAYERS` players with a non-zero net). Raises :class:`LedgerError` when
    the nets do not sum to zero."""
    total = sum(nets.values())
    if total:
        raise LedgerError(f"the nets sum to {total}, not 0: this ledger does not balance")
    players = sorted((p for p, net in nets.items() if net), key=lambda p: (-nets[p], p))
    if len(players) <= EXACT_PLAYERS:
        groups = _zero_sum_groups([nets[p] for p in players])
    else:
        groups = _pairs_first([nets[p] for p in players])
    transfers: list[Transfer] = []
    for group in groups:
        transfers += _within({players[i]: nets[players[i]] for i in group})
    return sorted(transfers, key=lambda t: (t.payer, t.payee))


def _zero_sum_groups(nets: list[int]) -> list[list[int]]:
    """The indexes of ``nets`` split into the most groups that each sum to zero.

    ``best[mask]`` is the most zero-sum groups that the players in ``mask`` can be
    split into with one group perhaps left open; taking players out one at a time, a
    group closes each time the players taken so far sum to zero."""
    n = len(nets)
    full = (1 << n) - 1
    sums = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + nets[low.bit_length() - 1]
    best = [0] * (full + 1)
    came = [0] * (full + 1)  # the player whose removal gave best[mask]
    for mask in range(1, full + 1):
        for i in range(n):
            bit = 1 << i
            if mask & bit and (not came[mask] or best[mask ^ bit] > best[mask]):
                best[mask], came[mask] = best[mask ^ bit], bit
        best[mask] += sums[mask] == 0
    groups: list[list[int]] = []
    mask, group = full, list[int]()
    while mask:  # walk back: a group ends where the players left sum to zero
        if sums[mask] == 0 and group:
            groups.append(group)
            group = []
        group.append(came[mask].bit_length() - 1)
        mask ^= came[mask]
    if group:
        groups.append(group)
    return groups


def _pairs_first(nets: list[int]) -> list[list[int]]:
    """The heuristic's groups: each debtor paired with a creditor owed exactly as much,
    then everyone else in one group."""
    owed: dict[int, list[int]] = {}
    for i, net in enumerate(nets):
        if net > 0:
            owed.setdefault(net, []).append(i)
    groups: list[list[int]] = []
    for i, net in enumerate(nets):
        if net < 0 and owed.get(-net):
            groups.append([owed[-net].pop(), i])
    paired = {i for g in groups for i in g}
    rest = [i for i in range(len(nets)) if i not in paired]
    return [*groups, rest] if rest else groups


def _within(nets: dict[str, int]) -> list[Transfer]:
    """A zero-sum group settled in one transfer fewer than its size: the biggest debtor
    pays the biggest creditor, until one of them is square."""
    left = dict(nets)
    transfers = []
    while any(left.values()):
        payer = min(left, key=lambda p: (left[p], p))
        payee = max(left, key=lambda p: (left[p], [-ord(c) for c in p]))
        amount = min(-left[payer], left[payee])
        transfers.append(Transfer(payer, payee, amount))
        left[payer] += amount
        left[payee] -= amount
    return transfers


REQUIRED = ("player_nickname", "player_id", "net")
"""The columns a ledger must have: ours and PokerNow's both write these, with
``session_start_at``, ``session_end_at``, ``buy_in``, ``buy_out`` and ``stack`` (and
PokerNow's ``nit_escrow``, which is not part of the net and is not used)."""


def read_ledger(text: str) -> dict[str, int]:
    """Each player's net in a ledger CSV (ours or PokerNow's), by nickname: a player's
    sessions (rows with one ``player_id``) are summed and named by the nickname of the
    latest (by ``session_start_at`` when there is one, else the last row). Raises
    :class:`LedgerError` naming the line and the problem."""
    rows = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    columns = [c.strip() for c in rows.fieldnames or []]
    missing = [c for c in REQUIRED if c not in columns]
    if missing:
        found = ", ".join(columns[:8]) or "nothing"
        raise LedgerError(f"not a ledger: no column {', '.join(missing)} (found {found})")
    rows.fieldnames = columns
    nets: dict[str, int] = {}
    latest: dict[str, tuple[str, int, str]] = {}  # player_id: (start, line, nickname)
    for line, row in enumerate(rows, start=2):
        player = (row.get("player_id") or "").strip()
        nickname = (row.get("player_nickname") or "").strip()
        if not player or not nickname:
            raise LedgerError(f"line {line}: no player_id or player_nickname")
        nets[player] = nets.get(player, 0) + _amount(row.get("net"), line)
        start = (row.get("session_start_at") or "").strip()
        latest[player] = max(latest.get(player, ("", 0, "")), (start, line, nickname))
    if not nets:
        raise LedgerError("the ledger has no rows")
    named: dict[str, int] = {}
    for player, net in nets.items():
        nickname = latest[player][2]
        if nickname in named:  # two player ids under one nickname: keep them apart
            nickname = f"{nickname} ({player})"
        named[nickname] = net
    return named


def _amount(text: str | None, line: int) -> int:
    value = (text or "").strip()
    try:
        return int(value)
    except ValueError:
        raise LedgerError(
            f"line {line}: net {value!r} is not a whole number (amounts are in the file's units)"
        ) from None
