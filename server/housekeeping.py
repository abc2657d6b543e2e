"""Housekeeping, every ``housekeeping_seconds``: the guests this process holds are marked
seen (so no process forgets them), then the database forgets guests who never played
and tables where nothing happened (:mod:`server.store.pruning`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable

from server.settings import ServerSettings
from server.store import Store
from server.store.pruning import Pruned

__all__ = ["keep_house", "tidy"]

log = logging.getLogger("pokerroom")


async def tidy(store: Store, in_use: Iterable[int], older_than: float) -> Pruned | None:
    """One round; None if the database was away (tried again next round)."""
    try:
        await store.mark_seen(in_use)
        pruned = await store.prune(older_than)
    except Exception as exc:  # the database is away, say: next round
        log.warning("housekeeping failed (%s); it is tried again later", exc or type(exc).__name__)
        return None
    if pruned.players or pruned.tables:
        log.info("housekeeping: forgot %d guests who never played and %d tables where "
                 "nothing happened", pruned.players, pruned.tables)  # fmt: skip
    return pruned


async def keep_house(
    store: Store, settings: ServerSettings, in_use: Callable[[], Iterable[int]]
) -> None:
    """:func:`tidy` every ``settings.housekeeping_seconds``, for ever."""
    while True:
        await asyncio.sleep(settings.housekeeping_seconds)
        await tidy(store, in_use(), settings.forget_after_seconds)
