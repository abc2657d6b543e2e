"""The Slumbot-style API over HTTP (aiohttp): ``POST /api/login``, ``/api/new_hand`` and
``/api/act``, JSON in and out, on its own port in the server's process (docs/bots.md,
"HTTP: the Slumbot-style API").

Every refusal is ``{"error_msg": ...}``: status 400 for a request the API cannot play
(a malformed body, an unknown token, an illegal ``incr``), 404 and 405 for a path or a
method it does not serve, 413 for a body over the limit, 503 when the sessions are at
their cap. A request's failure ends nothing but that request.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from server.bots import STRATEGIES
from server.slumbot.errors import ApiError
from server.slumbot.recording import Recorder
from server.slumbot.sessions import Sessions
from server.store import HandWriter, Store

__all__ = ["ENDPOINTS", "ApiLimits", "SlumbotApi"]

log = logging.getLogger("pokerroom")

ENDPOINTS = ("/api/login", "/api/new_hand", "/api/act")
_SESSIONS: web.AppKey[Sessions] = web.AppKey("sessions", Sessions)
_MAX_BODY: web.AppKey[int] = web.AppKey("max_body", int)
_PROXIES: web.AppKey[frozenset[str]] = web.AppKey("proxies", frozenset)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _reply(body: dict[str, Any], status: int = 200) -> web.Response:
    return web.json_response(body, status=status)


@web.middleware
async def _errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every failure as ``{"error_msg": ...}``, whatever raised it."""
    try:
        return await handler(request)
    except ApiError as exc:
        return _reply({"error_msg": str(exc)}, exc.status)
    except web.HTTPRequestEntityTooLarge:
        limit = request.app[_MAX_BODY]
        return _reply({"error_msg": f"body too large: at most {limit} bytes"}, 413)
    except web.HTTPMethodNotAllowed as exc:
        return _reply({"error_msg": f"method {exc.method} not allowed: use POST"}, 405)
    except web.HTTPNotFound:
        where = ", ".join(ENDPOINTS)
        return _reply({"error_msg": f"no endpoint {request.path!r}: POST to {where}"}, 404)
    except web.HTTPException as exc:
        return _reply({"error_msg": exc.reason.lower()}, exc.status)
    except Exception:  # a bug: logged, the client told, nothing else disturbed
        log.exception("api %s failed", request.path)
        return _reply({"error_msg": "internal error: the request was not completed"}, 500)


async def _body(request: web.Request) -> dict[str, Any]:
    raw = await request.read()  # over client_max_size: HTTPRequestEntityTooLarge
    if not raw.strip():
        return {}  # Slumbot's own new_hand takes an empty body: a new anonymous session
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):  # malformed, or nested past the parser's depth
        raise ApiError('body is not JSON: send a JSON object, such as {"token": ...}') from None
    if not isinstance(body, dict):
        raise ApiError(f"body must be a JSON object, got {type(body).__name__}")
    return body


def _address(request: web.Request) -> str:
    """Where a client connects from, as the websocket's caps count it
    (server.connections.client_address): the peer, or from a trusted proxy the last
    address of its ``X-Forwarded-For``; IPv6 by its /64, IPv4-mapped as IPv4."""
    peer = request.remote or "unknown"
    if peer in request.app[_PROXIES]:
        peer = request.headers.get("X-Forwarded-For", "").rsplit(",", 1)[-1].strip() or peer
    try:
        ip = ipaddress.ip_address(peer)
    except ValueError:
        return peer[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{ip}/64", strict=False))
    return str(ip)


async def _login(request: web.Request) -> web.Response:
    body = await _body(request)
    sessions = request.app[_SESSIONS]
    session = await sessions.login(body.get("username"), body.get("password"), _address(request))
    return _reply({"token": session.token})


async def _new_hand(request: web.Request) -> web.Response:
    body = await _body(request)
    sessions = request.app[_SESSIONS]
    opponent = body.get("opponent")
    if opponent is not None and (not isinstance(opponent, str) or opponent not in STRATEGIES):
        raise ApiError(f"unknown opponent {opponent!r}: give one of {', '.join(STRATEGIES)}")
    token = body.get("token")
    if token is None:
        session = await sessions.anonymous(_address(request))
    else:
        session = sessions.get(token)
    return _reply(await session.new_hand(opponent))


async def _act(request: web.Request) -> web.Response:
    body = await _body(request)
    session = request.app[_SESSIONS].get(body.get("token"))
    if "incr" not in body:
        raise ApiError("act: give incr, your action: k, c, f or b<N>")
    return _reply(await session.act(body["incr"]))


def make_app(sessions: Sessions, max_body: int, proxies: frozenset[str]) -> web.Application:
    """The API's aiohttp application over ``sessions``; ``proxies`` are trusted to say
    where their clients are (``X-Forwarded-For``)."""
    app = web.Application(client_max_size=max_body, middlewares=[_errors])
    app[_SESSIONS] = sessions
    app[_MAX_BODY] = max_body
    app[_PROXIES] = proxies
    app.router.add_post("/api/login", _login)
    app.router.add_post("/api/new_hand", _new_hand)
    app.router.add_post("/api/act", _act)
    return app


@dataclass(frozen=True)
class ApiLimits:
    """What the API serves at most (server.settings.ServerSettings: ``api_*``)."""

    sessions: int = 1_000
    per_address: int = 20
    idle_seconds: float = 3_600.0
    body_bytes: int = 4_096
    proxies: frozenset[str] = frozenset()


class SlumbotApi:
    """The API's sessions and its HTTP server, in the server's process and store."""

    def __init__(self, store: Store, *, opponent: str, limits: ApiLimits) -> None:
        self.store, self.opponent, self.limits = store, opponent, limits
        self.sessions: Sessions | None = None
        self.port: int | None = None

    @contextlib.asynccontextmanager
    async def running(self, writer: HandWriter, host: str, port: int) -> AsyncIterator[int]:
        """Serve on ``host:port`` (0: a free port) until the block ends; yields the port.
        :class:`OSError` if it cannot listen there."""
        recorder = Recorder(self.store, writer)
        limits = self.limits
        self.sessions = sessions = Sessions(
            self.store, recorder, opponent=self.opponent, limit=limits.sessions,
            per_address=limits.per_address, idle_seconds=limits.idle_seconds,
        )  # fmt: skip
        runner = web.AppRunner(
            make_app(sessions, limits.body_bytes, limits.proxies), access_log=None,
            handle_signals=False, shutdown_timeout=5.0,
        )  # fmt: skip
        await runner.setup()
        try:
            await web.TCPSite(runner, host, port).start()
            self.port = port = runner.addresses[0][1]
            expiry = asyncio.create_task(sessions.expire_forever(), name="api sessions")
            try:
                yield port
            finally:
                expiry.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await expiry
        finally:
            await runner.cleanup()
