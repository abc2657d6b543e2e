"""The bot SDK's errors: one root, raised by the clients that play a bot over the websocket
(:mod:`server.bots.client`, :mod:`server.bots.tournament_client`).

::

    BotClientError   the client cannot go on: a refused hello or buy-in, no such table,
                     a server that stays unreachable

A bot spec that cannot be loaded (:func:`server.bots.loader.load_bot_spec`) is a
:class:`ValueError` saying what is wrong, as :func:`server.bots.load_bot` raises.
"""

from __future__ import annotations

__all__ = ["BotClientError"]


class BotClientError(Exception):
    """The client cannot go on: a refused hello or buy-in, no such table, a server that
    stays unreachable."""
