"""Bots: players the server seats itself. Each answers ``act(view, menu)`` with a legal
action; :func:`load_bot` finds one by built-in name or ``module:Class``."""

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
