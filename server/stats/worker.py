"""The records worker: one process of its own that reads stored hands from the database
and does the slow work on them (statistics, exports), so that no table waits for it.

Everything a heavy request costs happens there: the queries, decoding thousands of rows
through the database driver, parsing and replaying histories, building the reply. The
event loop sends the job's name and a few small arguments, and gets back the reply's body
(a ``stats`` message's figures, an export's text). Before, the event loop listed the
hands and read their histories itself and pickled them to the worker: ``stats`` asking
for 5,000 hands of six players from eight addresses took a table to 0.32 of its hand rate.

The worker runs at a lower priority than the server (:data:`NICENESS`): on a machine with
fewer cores than busy processes the tables are served first, and only these requests wait.

A job is ``async def job(store, *args)``, a module-level function (it is sent by name).
The worker opens the store itself, once, from :attr:`Records.source`: the store's own
``open`` and its URL, so this module needs no import of the store (statistics sit below
it, docs/architecture.md). A database no other process can open (SQLite in memory) is
read in the event loop instead, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import multiprocessing
import os
import signal
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = ["NICENESS", "Records", "Source"]

T = TypeVar("T")

NICENESS = 10
"""How much lower than the server's the worker's priority is (``os.nice``)."""
STORES = 4
"""Stores the worker keeps open at once (a process that serves several: the tests')."""


@dataclass(frozen=True)
class Source:
    """How the worker opens the database: ``open()`` is the store's async context
    manager, and ``key`` names it (one per :class:`Records`) among those it has open."""

    key: str
    open: Callable[[], contextlib.AbstractAsyncContextManager[Any]]


class Records:
    """Runs jobs on stored hands in the worker process, with the database of ``store``."""

    def __init__(self, store: Any) -> None:
        self.store = store
        url = store.engine.url
        self.source: Source | None = None
        if url.get_backend_name() != "sqlite" or url.database not in (None, "", ":memory:"):
            text = url.render_as_string(hide_password=False)
            # One connection is plenty: the worker runs one job at a time.
            opener = functools.partial(type(store).open, text, upgrade=False, pool_size=1)
            self.source = Source(uuid.uuid4().hex, opener)

    @property
    def key(self) -> str:
        """What the worker keeps this store's facts under."""
        return self.source.key if self.source is not None else f"loop-{id(self)}"

    async def run(self, job: Callable[..., Awaitable[T]], *args: Any) -> T:
        """``await job(store, *args)`` in the worker (everything must pickle: plain
        values); the job's exception is raised here. A worker that died (killed, out of
        memory) is replaced and the job run once more."""
        if self.source is None:  # in memory: only this process can read it
            return await job(self.store, *args)
        global _POOL  # noqa: PLW0603
        loop = asyncio.get_running_loop()
        call = functools.partial(_call, self.source, job, args)
        try:
            return await loop.run_in_executor(_pool(), call)
        except BrokenProcessPool:
            _POOL = None
            return await loop.run_in_executor(_pool(), call)


_POOL: ProcessPoolExecutor | None = None
"""The worker process, shared by every server in this process, started on first use."""


def _pool() -> ProcessPoolExecutor:
    global _POOL  # noqa: PLW0603
    if _POOL is None:
        # spawn: a fork of a process running an event loop and database threads could
        # inherit a lock held mid-operation. One worker: one core at most, however many ask.
        _POOL = ProcessPoolExecutor(
            1, mp_context=multiprocessing.get_context("spawn"), initializer=_start
        )
    return _POOL


# -- in the worker process -----------------------------------------------------------------


def _start() -> None:
    """Ctrl-C at the terminal reaches the whole process group: the server shuts down, and
    shuts its worker down with it, without a traceback from the worker. A lower priority:
    the server's event loop goes first."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.nice(NICENESS)


_LOOP: asyncio.AbstractEventLoop | None = None
"""The worker's event loop: the store's connections belong to it, so it is kept."""
_STORES: OrderedDict[str, tuple[Any, contextlib.AsyncExitStack]] = OrderedDict()


def _call(source: Source, job: Callable[..., Awaitable[T]], args: tuple[Any, ...]) -> T:
    global _LOOP  # noqa: PLW0603
    if _LOOP is None:
        _LOOP = asyncio.new_event_loop()
    return _LOOP.run_until_complete(_run(source, job, args))


async def _run(source: Source, job: Callable[..., Awaitable[T]], args: tuple[Any, ...]) -> T:
    if source.key not in _STORES:
        stack = contextlib.AsyncExitStack()
        store = await stack.enter_async_context(source.open())
        _STORES[source.key] = (store, stack)
        while len(_STORES) > STORES:  # the least recently used goes
            _, (_, old) = _STORES.popitem(last=False)
            with contextlib.suppress(Exception):  # a database gone away: nothing to close
                await old.aclose()
    _STORES.move_to_end(source.key)
    return await job(_STORES[source.key][0], *args)
