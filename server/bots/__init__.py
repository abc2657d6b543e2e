"""Bots: players the server seats itself. Each answers ``act(view, menu)`` with a legal
action; :func:`load_bot` finds one by built-in name or ``module:Class``.

The bot SDK, which plays a bot at a server over the websocket like any outside player,
lives in submodules imported on their own (so that this package loads no websockets):
``client`` (:class:`~server.bots.client.BotClient`, on top of ``conversation``,
``connection``, ``pacing`` and ``decisions``), ``tournament_client``, ``mirror`` (one seat's
picture of a table), ``wire`` (menus in, acts out), ``loader`` (bots by name, module or
file) and ``errors``."""

from server.bots.strategies import (
    STRATEGIES,
    Bot,
    CallingStation,
    RandomBot,
    TightAggressive,
    chen_score,
    load_bot,
)

__all__ = [
    "STRATEGIES",
    "Bot",
    "CallingStation",
    "RandomBot",
    "TightAggressive",
    "chen_score",
    "load_bot",
]
