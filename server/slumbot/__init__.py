"""A Slumbot-style HTTP API: a bot written for slumbot.com plays our house bots by
changing its base URL (docs/bots.md, "HTTP: the Slumbot-style API").

``actions`` holds Slumbot's action strings, ``play`` a hand under the engine and its
baseline, ``session`` one token's hands, ``sessions`` all of them, ``recording`` storing
the hands, ``http`` the aiohttp application and :class:`SlumbotApi`, which the server
runs beside its websocket.
"""

from server.slumbot.errors import ApiError
from server.slumbot.http import ENDPOINTS, ApiLimits, SlumbotApi

__all__ = ["ENDPOINTS", "ApiError", "ApiLimits", "SlumbotApi"]
