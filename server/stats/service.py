"""Statistics on request, for the protocol's ``stats`` message (docs/protocol.md#stats).

A request names players, a table, a game and how many of the newest hands to count; the
answer is each player's figures as ``pokerroom hands stats --json`` gives them
(:meth:`server.stats.PlayerStats.as_json`). Four things make it safe to offer anyone:

- **Public cards only.** Each stored hand is replayed from its history as a spectator
  saw it (:func:`engine.history.redact` with no seat): hole cards never shown are
  unknown. So the all-in adjustment enumerates among the cards shown, and the folded
  players' unseen cards stay in the deck, where a spectator would count them too: the
  figures are a function of what the table showed, and nothing about a card never shown
  can be worked out from them. (The CLI, the operator's tool, uses every card.)
- **Public tables only.** A private table's hands are its people's (docs/home-games.md):
  they are counted only when the request names that table, and the caller has checked
  that the asker may see it (``allowed``); a table no longer open here is nobody's to
  ask about. Every other request leaves them out, whoever asks: the answer is the same
  for everyone, and is kept for the next asker.
- **Off the event loop.** Everything runs in the records worker
  (:mod:`server.stats.worker`), a process of its own at a lower priority: listing the
  hands, reading their histories, replaying them and enumerating all-in run-outs (a
  quarter of a second for a hold'em preflop all-in), counting, and building the reply.
  The worker keeps each hand's facts (a stored hand never changes), so a table's next
  request counts only its new hands, and replays :data:`CHUNK` hands per call, so
  requests queued behind a long one take turns; games ranked board by board keep an
  all-in over :data:`BUDGET` at its actual result, as tournaments do.
- **Bounded.** At most :data:`MAX_HANDS` hands a request; :class:`Limits` counts
  requests by address, and how many are being computed.
"""

from __future__ import annotations

import datetime as dt
import time
import uuid
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from server.errors import Code, Refusal
from server.stats.hands import HandFacts, facts
from server.stats.players import PlayerStats, player_stats
from server.stats.worker import Records

if TYPE_CHECKING:
    from server.store import HandSummary, Store

__all__ = [
    "BUDGET",
    "MAX_HANDS",
    "SCANNED",
    "Limits",
    "PrivateTableError",
    "Query",
    "StatsBusyError",
    "StatsService",
]

MAX_HANDS = 5_000
"""The most hands one request counts (its ``last``)."""
SCANNED = 20_000
"""The most hands (those any of the players named played, or, naming nobody, anyone's) a
request looks through for the newest ``last`` of public tables: private tables' hands
are skipped. One scan for all the players named: a scan each listed every hand they
shared once for each (6 players over 5,000 hands: 7.6 s of a 10.7 s answer)."""
BUDGET = 50_000
"""Hand evaluations an all-in adjustment may make one by one (short deck, Omaha hi-lo):
about 0.3 s, the tournaments' budget (docs/statistics.md)."""
KEPT_HANDS = 10_000
"""Hands whose facts the worker keeps (about 3 kB each)."""
CHUNK = 100
"""Hands the worker replays per call: requests queued behind a long one take turns."""
PAGE = 500
"""Hands listed per database query."""
PRIVACY_SECONDS = 30.0
"""How long the worker trusts what it read of a table being private."""


class StatsBusyError(Refusal):
    """A request over a limit (:class:`Limits`): ``too_many_stats`` or
    ``too_many_exports``; the message says which limit."""


class PrivateTableError(Refusal):
    """A request for a private table's figures from someone who may not see it."""

    def __init__(self, message: str) -> None:
        super().__init__(Code.BAD_INVITE, message)


@dataclass(frozen=True)
class Query:
    """What a ``stats`` message asks: the newest ``last`` hands played here of ``table``
    and ``game`` (None: any), begun ``since`` (None: ever), in which one of ``players``
    played (empty: anyone), and the figures of ``players`` (empty: of everyone in them)."""

    players: tuple[str, ...] = ()
    table: str | None = None
    game: str | None = None
    last: int = 1_000
    since: dt.datetime | None = None


@dataclass
class Limits:
    """How many requests (of ``what``: ``stats``, ``export``) one address may send in a
    minute and have answered at once, and how many may be computed at once in all."""

    per_minute: int = 30
    at_once: int = 2
    in_all: int = 8
    what: str = "stats"
    code: Code = Code.TOO_MANY_STATS
    """The code of a refusal over a limit."""
    _sent: dict[str, deque[float]] = field(default_factory=dict, init=False, repr=False)
    _running: dict[str, int] = field(default_factory=dict, init=False, repr=False)

    def start(self, address: str) -> None:
        """Count a request from ``address``; :class:`StatsBusyError` if over a limit."""
        now = time.monotonic()
        sent = self._sent.setdefault(address, deque())
        while sent and now - sent[0] > 60:
            sent.popleft()
        if len(sent) >= self.per_minute:
            raise StatsBusyError(self.code, f"at most {self._requests(self.per_minute)} a minute")
        if self._running.get(address, 0) >= self.at_once:
            raise StatsBusyError(
                self.code, f"at most {self._requests(self.at_once)} at once: wait for a reply"
            )
        if sum(self._running.values()) >= self.in_all:
            raise StatsBusyError(
                self.code, f"the server is busy with {self.what} requests: try again shortly"
            )
        sent.append(now)
        self._running[address] = self._running.get(address, 0) + 1
        if len(self._sent) > 10_000:  # forget addresses gone quiet
            for old in [a for a, q in self._sent.items() if not q or now - q[-1] > 60]:
                del self._sent[old]

    def _requests(self, count: int) -> str:
        return f"{count} {self.what} request{'' if count == 1 else 's'}"

    def done(self, address: str) -> None:
        left = self._running.get(address, 1) - 1
        if left:
            self._running[address] = left
        else:
            self._running.pop(address, None)


class StatsService:
    """Answers ``stats`` requests: the limits here, everything else in the records worker."""

    def __init__(self, records: Records, *, limits: Limits | None = None) -> None:
        self.records = records
        self.limits = limits or Limits()

    async def stats(self, query: Query, address: str, *, allowed: bool = False) -> dict[str, Any]:
        """The body of the reply to ``query`` (docs/protocol.md#stats). ``allowed``: the
        asker may see ``query.table`` if it is private (:class:`PrivateTableError` if it
        is, and they may not)."""
        self.limits.start(address)
        try:
            key = self.records.key
            step = await self.records.run(_prepare, key, query, allowed)
            while isinstance(step, str):  # hands still to replay, CHUNK a call
                step = await self.records.run(_advance, key, step)
            return step
        finally:
            self.limits.done(address)


# -- in the worker process -----------------------------------------------------------------


@dataclass
class _Pending:
    """A request whose hands the worker is replaying, between calls."""

    key: str
    query: Query
    ids: tuple[int, ...]
    names: dict[int, tuple[str, ...]]
    missing: list[int]
    rounds: int = 0


_KEPT: OrderedDict[tuple[str, int], HandFacts | None] = OrderedDict()
"""Facts of the hands replayed, by store and hand id, the least recently used first (None: a
history that does not replay, left out of the counts)."""
_ANSWERS: OrderedDict[tuple[str, Query], tuple[tuple[int, ...], dict[str, Any]]] = OrderedDict()
"""The last answers, with the hands they counted: good while the same hands are listed."""
_PENDING: OrderedDict[str, _Pending] = OrderedDict()
_PRIVATE: dict[tuple[str, str], tuple[bool, float]] = {}
"""Whether a table is private, by store and name, and when that was read."""


async def _prepare(store: Store, key: str, query: Query, allowed: bool) -> dict[str, Any] | str:
    """The answer to ``query``, or a token for :func:`_advance` if hands need replaying."""
    hands = await _listed(store, key, query, allowed)
    ids = tuple(h.id for h in hands)
    kept = _ANSWERS.get((key, query))
    if kept is not None and kept[0] == ids:
        _ANSWERS.move_to_end((key, query))
        return kept[1]
    names = {h.id: tuple(name for name, _ in h.players) for h in hands}
    token = uuid.uuid4().hex
    _PENDING[token] = _Pending(key, query, ids, names, _missing(key, ids))
    while len(_PENDING) > 32:  # a request whose asker went away midway
        _PENDING.popitem(last=False)
    return await _advance(store, key, token)


async def _advance(store: Store, key: str, token: str) -> dict[str, Any] | str:
    """Replay the next :data:`CHUNK` hands of a pending request: its token again while
    more remain, else its answer."""
    pending = _PENDING.get(token)
    if pending is None:
        raise StatsBusyError(
            Code.TOO_MANY_STATS, "the server is busy with stats requests: try again shortly"
        )
    # Hands another request replayed meanwhile are not replayed again: requests for the
    # same hands that arrive together share the work (eight of 5,000 hands each replayed
    # them eight times over before).
    pending.missing = [i for i in pending.missing if (key, i) not in _KEPT]
    if pending.missing:
        batch, pending.missing = pending.missing[:CHUNK], pending.missing[CHUNK:]
        texts = await store.hand_histories(batch)
        _replay(key, [(i, pending.names[i], texts.get(i)) for i in batch])
        if pending.missing:
            return token
    rows = _count(key, list(pending.ids), list(pending.query.players))
    if rows is None:  # a hand forgotten meanwhile (other requests): replay it again
        pending.rounds += 1
        pending.missing = _missing(key, pending.ids)
        if pending.rounds > 3:
            del _PENDING[token]
            raise StatsBusyError(
                Code.TOO_MANY_STATS, "the server is busy with stats requests: try again shortly"
            )
        return token
    del _PENDING[token]
    query, ids = pending.query, pending.ids
    body = {
        "type": "stats",
        "players": rows,
        "hands": len(ids),
        "newest": ids[0] if ids else None,
        "table": query.table,
        "game": query.game,
        "last": query.last,
        "since": None if query.since is None else query.since.isoformat(),
    }
    _ANSWERS[key, query] = (ids, body)
    while len(_ANSWERS) > 64:
        _ANSWERS.popitem(last=False)
    return body


async def _listed(store: Store, key: str, query: Query, allowed: bool) -> list[HandSummary]:
    """The newest ``query.last`` hands asked for, newest first; private tables' hands
    only when the query names the table and ``allowed``."""
    found: list[HandSummary] = []
    before, left, scanned = None, query.last, 0
    while left > 0 and scanned < SCANNED:
        size = PAGE if query.table is None else min(PAGE, left)
        page = await store.list_hands(
            player=query.players or None, table=query.table, game=query.game,
            before=before, since=query.since, imported=False, limit=size,
        )  # fmt: skip
        scanned += len(page)
        if query.table is None:
            page_kept = [h for h in page if not await _private(store, key, h.table)]
        else:
            page_kept = page
        found += page_kept[:left]
        left -= len(page_kept[:left])
        if len(page) < size:
            break
        before = page[-1].id
    table = query.table
    if table is not None and found and not allowed and await _private(store, key, table):
        raise PrivateTableError(
            f"table {table!r} is private: its figures are for those at it, while it is "
            "open here (watch it with its invite)"
        )
    return found


async def _private(store: Store, key: str, table: str) -> bool:
    """Whether the table (one with hands stored) is a private one."""
    known = _PRIVATE.get((key, table))
    now = time.monotonic()
    if known is not None and now - known[1] < PRIVACY_SECONDS:
        return known[0]
    config = await store.table_config(await store.ensure_table(table, {}))  # it exists
    private = config.get("private") is not None
    _PRIVATE[key, table] = (private, now)
    if len(_PRIVATE) > 10_000:
        _PRIVATE.clear()
    return private


def _missing(key: str, ids: tuple[int, ...]) -> list[int]:
    return [i for i in ids if (key, i) not in _KEPT]


def _replay(key: str, items: list[tuple[int, tuple[str, ...], str | None]]) -> None:
    """Replay stored hands (id, players in position order, PHH text; None: gone) as a
    spectator saw them, and keep their facts."""
    from engine import EngineError, history  # noqa: PLC0415  (in the worker only)

    for hand_id, players, text in items:
        if text is None:
            _KEPT[key, hand_id] = None
            continue
        try:
            public = history.redact(history.load(text), None)
            found = facts(players, public, history.replay(public), budget=BUDGET)
        except EngineError:  # stored by us, so a bug: one hand must not cost them all
            found = None
        _KEPT[key, hand_id] = found
        _KEPT.move_to_end((key, hand_id))
    while len(_KEPT) > KEPT_HANDS:
        _KEPT.popitem(last=False)


def _count(key: str, ids: list[int], players: list[str]) -> list[dict[str, Any]] | None:
    """The figures of ``players`` (all: empty) over hands ``ids`` (newest first); None if
    some hand's facts are no longer kept."""
    keys = [(key, i) for i in reversed(ids)]
    if any(k not in _KEPT for k in keys):
        return None
    for k in keys:
        _KEPT.move_to_end(k)
    table = player_stats(f for k in keys if (f := _KEPT[k]) is not None)
    if not players:
        return [s.as_json() for s in table.values()]
    return [(table.get(name) or PlayerStats(name)).as_json() for name in players]
