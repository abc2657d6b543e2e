"""Work too slow for the event loop, in a worker process: a pure function and its
arguments go out, its result comes back, and no table waits meanwhile, not even for the
GIL.

:func:`run` sends a call to the process's shared pool (one worker, started on first use:
one core at most, however many ask; a worker that dies is replaced). The worker runs at a
lower priority than the server, so on a machine with fewer cores than busy processes the
tables are served first and only the slow requests wait. :class:`Slots` caps how many
calls wait at once, in all and for one key (a client's address), so that one client's
queue of calls never holds more than its share of the worker's, and how much of the
time the worker may be busy with them.

The statistics worker (server/stats/service.py) predates this module and keeps its own
process, with the facts it caches.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import multiprocessing
import os
import signal
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

__all__ = ["Slots", "run"]

T = TypeVar("T")

WORKERS = 1
"""Worker processes in the pool: one core at most for slow work."""
NICENESS = 19
"""How much lower than the server's the worker's priority is (``os.nice``)."""

_POOL: ProcessPoolExecutor | None = None


def _pool() -> ProcessPoolExecutor:
    global _POOL  # noqa: PLW0603
    if _POOL is None:
        # spawn: a fork of a process running an event loop and database threads could
        # inherit a lock held mid-operation.
        _POOL = ProcessPoolExecutor(
            WORKERS, mp_context=multiprocessing.get_context("spawn"), initializer=_worker_start
        )
    return _POOL


async def run(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``function(*args, **kwargs)`` in the worker process (all must pickle: a
    module-level function and plain values). A worker that died (killed, out of memory)
    is replaced and the call made once more; an exception ``function`` raises is raised
    here."""
    global _POOL  # noqa: PLW0603
    loop = asyncio.get_running_loop()
    call = functools.partial(function, *args, **kwargs)
    try:
        return await loop.run_in_executor(_pool(), call)
    except BrokenProcessPool:
        _POOL = None
        return await loop.run_in_executor(_pool(), call)


class Slots:
    """At most ``in_all`` calls under way at once, and ``per_key`` for one key; a call
    past either waits its turn (in order) for a slot. With a ``share`` under 1, a call
    keeps its slot after it returns, for as long again as it took times ``1 / share -
    1``: calls that follow one another keep the worker busy ``share`` of the time at
    most. (Heavy arithmetic on one core slows a busy event loop on another by a tenth,
    whatever its priority: the memory and caches they share. Part of the time, by part
    of that.)"""

    def __init__(self, in_all: int, per_key: int, share: float = 1.0) -> None:
        self.per_key, self.share = per_key, share
        self._all = asyncio.Semaphore(in_all)
        self._keys: dict[str, tuple[asyncio.Semaphore, int]] = {}  # key: its slots, users

    @contextlib.asynccontextmanager
    async def slot(self, key: str) -> AsyncIterator[None]:
        """Hold a slot of ``key``'s and one of all for the block. A key's calls wait for
        its own slots first, so a key with many calls waiting holds at most ``per_key``
        of the places in the queue for all: the others' calls are not behind all of its.
        The rest a call owes (``share``) is the next call's wait, not this one's."""
        own, users = self._keys.get(key) or (asyncio.Semaphore(self.per_key), 0)
        self._keys[key] = (own, users + 1)
        try:
            async with own:
                await self._all.acquire()
                started = time.monotonic()
                try:
                    yield
                finally:
                    rest = (time.monotonic() - started) * (1 / self.share - 1)
                    if rest > 0:
                        asyncio.get_running_loop().call_later(rest, self._all.release)
                    else:
                        self._all.release()
        finally:
            own, users = self._keys[key]
            if users == 1:
                del self._keys[key]
            else:
                self._keys[key] = (own, users - 1)


# -- in the worker process -----------------------------------------------------------------


def _worker_start() -> None:
    """Ctrl-C at the terminal reaches the whole process group: the server shuts down,
    and shuts its worker down with it, without a traceback from the worker. A lower
    priority: the server's event loop goes first."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
