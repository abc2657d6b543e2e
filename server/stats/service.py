"""Statistics on request, for the protocol's ``stats`` message (docs/protocol.md#stats).

A request names players, a table, a game and how many of the newest hands to count; the
answer is each player's figures as ``pokerroom hands stats --json`` gives them
(:meth:`server.stats.PlayerStats.as_json`). Three things make it safe to offer anyone:

- **Public cards only.** Each stored hand is replayed from its history as a spectator
  saw it (:func:`engine.history.redact` with no seat): hole cards never shown are
  unknown. So the all-in adjustment enumerates among the cards shown, and the folded
  players' unseen cards stay in the deck, where a spectator would count them too: the
  figures are a function of what the table showed, and nothing about a card never shown
  can be worked out from them. (The CLI, the operator's tool, uses every card.)
- **Off the event loop.** Replaying hands and enumerating all-in run-outs (a quarter of
  a second for a hold'em preflop all-in) run in one worker process, so no table waits
  for them, even for the GIL. The worker keeps each hand's facts (a stored hand never
  changes), so a table's next request counts only its new hands; games ranked board by
  board keep an all-in over :data:`BUDGET` at its actual result, as tournaments do.
- **Bounded.** At most :data:`MAX_HANDS` hands a request; :class:`Limits` counts
  requests by address, and how many are being computed.

The caller brings the database as two functions (``list_hands`` and ``histories``):
statistics need no store (docs/architecture.md).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import multiprocessing
import signal
import time
import uuid
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from server.stats.hands import HandFacts, facts
from server.stats.players import PlayerStats, player_stats

if TYPE_CHECKING:
    from server.store import HandSummary

__all__ = ["BUDGET", "MAX_HANDS", "Limits", "Query", "StatsBusyError", "StatsService"]

MAX_HANDS = 5_000
"""The most hands one request counts (its ``last``)."""
BUDGET = 50_000
"""Hand evaluations an all-in adjustment may make one by one (short deck, Omaha hi-lo):
about 0.3 s, the tournaments' budget (docs/statistics.md)."""
KEPT_HANDS = 10_000
"""Hands whose facts the worker keeps (about 3 kB each)."""
CHUNK = 100
"""Hands the worker replays per call: requests queued behind a long one take turns."""
PAGE = 500
"""Hands listed, or histories read, per database query."""

T = TypeVar("T")


class StatsBusyError(Exception):
    """A request over a limit (:class:`Limits`); the message says which."""


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
    """How many ``stats`` requests one address may send in a minute and have answered
    at once, and how many may be computed at once in all."""

    per_minute: int = 30
    at_once: int = 2
    in_all: int = 8

    def __post_init__(self) -> None:
        self._sent: dict[str, deque[float]] = {}
        self._running: dict[str, int] = {}

    def start(self, address: str) -> None:
        """Count a request from ``address``; :class:`StatsBusyError` if over a limit."""
        now = time.monotonic()
        sent = self._sent.setdefault(address, deque())
        while sent and now - sent[0] > 60:
            sent.popleft()
        if len(sent) >= self.per_minute:
            raise StatsBusyError(f"at most {self.per_minute} stats requests a minute")
        if self._running.get(address, 0) >= self.at_once:
            raise StatsBusyError(f"at most {self.at_once} stats requests at once: wait for a reply")
        if sum(self._running.values()) >= self.in_all:
            raise StatsBusyError("the server is busy with statistics: try again shortly")
        sent.append(now)
        self._running[address] = self._running.get(address, 0) + 1
        if len(self._sent) > 10_000:  # forget addresses gone quiet
            for old in [a for a, q in self._sent.items() if not q or now - q[-1] > 60]:
                del self._sent[old]

    def done(self, address: str) -> None:
        left = self._running.get(address, 1) - 1
        if left:
            self._running[address] = left
        else:
            self._running.pop(address, None)


class ListHands(Protocol):
    """:meth:`server.store.Store.list_hands`, as far as statistics use it."""

    def __call__(
        self,
        *,
        player: str | None,
        table: str | None,
        game: str | None,
        before: int | None,
        since: dt.datetime | None,
        imported: bool | None,
        limit: int,
    ) -> Awaitable[Sequence[HandSummary]]: ...


Histories = Callable[[Sequence[int]], Awaitable[dict[int, str]]]
"""Stored hands' PHH texts by id."""


class StatsService:
    """Answers ``stats`` requests: lists the hands in the event loop (the database is
    async), counts them in the worker process, keeps the last answers."""

    def __init__(
        self,
        list_hands: ListHands,
        histories: Histories,
        *,
        limits: Limits | None = None,
        executor: Executor | None = None,
    ) -> None:
        self.list_hands = list_hands
        self.histories = histories
        self.limits = limits or Limits()
        self._executor = executor
        self._answers: OrderedDict[Query, tuple[tuple[int, ...], dict[str, Any]]] = OrderedDict()
        # The worker serves every store in this process (tests open many, each numbering
        # its hands from 1): it keeps hands by (store, id).
        self._store = uuid.uuid4().hex

    async def stats(self, query: Query, address: str) -> dict[str, Any]:
        """The body of the reply to ``query`` (docs/protocol.md#stats)."""
        self.limits.start(address)
        try:
            return await self._stats(query)
        finally:
            self.limits.done(address)

    async def _stats(self, query: Query) -> dict[str, Any]:
        hands = await self._hands(query)
        ids = tuple(h.id for h in hands)
        kept = self._answers.get(query)
        if kept is not None and kept[0] == ids:
            self._answers.move_to_end(query)
            return kept[1]
        names = {h.id: tuple(name for name, _ in h.players) for h in hands}
        rows = await self._counted(ids, names, query.players)
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
        self._answers[query] = (ids, body)
        if len(self._answers) > 64:
            self._answers.popitem(last=False)
        return body

    async def _hands(self, query: Query) -> list[HandSummary]:
        """The newest ``query.last`` hands asked for, newest first: a page at a time, so
        that the event loop turns between pages."""
        found: dict[int, HandSummary] = {}
        for player in query.players or (None,):
            before, left = None, query.last
            while left > 0:
                page = await self.list_hands(
                    player=player, table=query.table, game=query.game, before=before,
                    since=query.since, imported=False, limit=min(PAGE, left),
                )  # fmt: skip
                found.update((h.id, h) for h in page)
                if len(page) < min(PAGE, left):
                    break
                before, left = page[-1].id, left - len(page)
        return [found[i] for i in sorted(found, reverse=True)[: query.last]]

    async def _counted(
        self, ids: Sequence[int], names: dict[int, tuple[str, ...]], players: Sequence[str]
    ) -> list[dict[str, Any]]:
        """Each player's figures over the hands ``ids``, computed by the worker: it
        replays the hands it has not kept, then counts."""
        for _ in range(3):  # a hand forgotten between the two steps (other requests): again
            missing = await self._run(_missing, self._store, list(ids))
            for start in range(0, len(missing), PAGE):
                texts = await self.histories(missing[start : start + PAGE])
                items = [(i, names[i], texts[i]) for i in missing[start : start + PAGE]]
                for at in range(0, len(items), CHUNK):
                    await self._run(_replay, self._store, items[at : at + CHUNK])
            rows = await self._run(_count, self._store, list(ids), list(players))
            if rows is not None:
                return rows
        raise StatsBusyError("the server is busy with statistics: try again shortly")

    async def _run(self, function: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(), function, *args)
        except BrokenProcessPool:  # the worker died (killed, out of memory): a new one
            global _POOL  # noqa: PLW0603
            _POOL = None
            return await loop.run_in_executor(self._pool(), function, *args)

    def _pool(self) -> Executor:
        global _POOL  # noqa: PLW0603
        if self._executor is not None:
            return self._executor
        if _POOL is None:
            # spawn: a fork of a process running an event loop and database threads could
            # inherit a lock held mid-operation. One worker: one core at most, however
            # many ask.
            _POOL = ProcessPoolExecutor(
                1, mp_context=multiprocessing.get_context("spawn"), initializer=_quiet
            )
        return _POOL


_POOL: ProcessPoolExecutor | None = None
"""The worker process, shared by every server in this process, started on first use."""


# -- in the worker process -----------------------------------------------------------------


def _quiet() -> None:
    """Ctrl-C at the terminal reaches the whole process group: the server shuts down, and
    shuts its worker down with it, without a traceback from the worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


_KEPT: OrderedDict[tuple[str, int], HandFacts | None] = OrderedDict()
"""Facts of the hands replayed, by store and hand id, the least recently used first (None: a
history that does not replay, left out of the counts)."""


def _missing(store: str, ids: list[int]) -> list[int]:
    return [i for i in ids if (store, i) not in _KEPT]


def _replay(store: str, items: list[tuple[int, tuple[str, ...], str]]) -> None:
    """Replay stored hands (id, players in position order, PHH text) as a spectator saw
    them, and keep their facts."""
    from engine import EngineError, history  # noqa: PLC0415  (in the worker only)

    for hand_id, players, text in items:
        try:
            public = history.redact(history.load(text), None)
            found = facts(players, public, history.replay(public), budget=BUDGET)
        except EngineError:  # stored by us, so a bug: one hand must not cost them all
            found = None
        _KEPT[store, hand_id] = found
        _KEPT.move_to_end((store, hand_id))
    while len(_KEPT) > KEPT_HANDS:
        _KEPT.popitem(last=False)


def _count(store: str, ids: list[int], players: list[str]) -> list[dict[str, Any]] | None:
    """The figures of ``players`` (all: empty) over hands ``ids`` (newest first); None if
    some hand's facts are no longer kept."""
    keys = [(store, i) for i in reversed(ids)]
    if any(k not in _KEPT for k in keys):
        return None
    for k in keys:
        _KEPT.move_to_end(k)
    table = player_stats(f for k in keys if (f := _KEPT[k]) is not None)
    if not players:
        return [s.as_json() for s in table.values()]
    return [(table.get(name) or PlayerStats(name)).as_json() for name in players]
