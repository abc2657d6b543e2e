"""The Slumbot-style API over HTTP (aiohttp): ``POST /api/login``, ``/api/new_hand`` and
``/api/act``, JSON in and out, on its own port in the server's process (docs/bots.md,
"HTTP: the Slumbot-style API"; its limits in docs/operations.md).

Every refusal is ``{"error_msg": ...}``: status 400 for a request the API cannot play
(a malformed body, an unknown token, an illegal ``incr``), 404 and 405 for a path or a
method it does not serve, 408 for a request too slow to arrive, 409 for a request while
the session serves another (or one on an action string the hand has left), 413 for a
body over the limit, 429 (with ``Retry-After``) past a rate or a cap per address, 503
when the API is full. A request's failure ends nothing but that request. HTTP that does
not parse gets aiohttp's 400 and one short line in the log (at INFO), never a traceback.

What a request costs the event loop is bounded: the connections by
:mod:`server.slumbot.connections`, the rates by :mod:`server.slumbot.limits`, and a
finished hand's slow part runs in the worker process (:mod:`server.compute`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import resource
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from server import compute
from server.bots import STRATEGIES
from server.bus import EventBus
from server.slumbot.connections import Gate, normal_address
from server.slumbot.errors import ApiError
from server.slumbot.limits import HOLD, RateLimit
from server.slumbot.recording import Recorder
from server.slumbot.sessions import Sessions
from server.store import HandWriter, Store

__all__ = ["ENDPOINTS", "ApiLimits", "SlumbotApi"]

log = logging.getLogger("pokerroom")

ENDPOINTS = ("/api/login", "/api/new_hand", "/api/act")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(frozen=True)
class ApiLimits:
    """What the API serves at most: server.settings.ServerSettings' ``api_*``, where each
    is described and has its default."""

    sessions: int
    per_address: int
    idle_seconds: float
    body_bytes: int
    proxies: frozenset[str]
    unused_seconds: float
    requests_per_second: float
    """Per address."""
    burst: int
    requests_per_second_in_all: float
    """Every address's together (bursts of as many)."""
    session_requests_per_second: float
    session_burst: int
    connections: int
    """Open at once in all (at most a quarter of the process's open files limit)."""
    connections_per_address: int
    request_seconds: float
    """A request's line, headers and body arrive within this of its first byte."""
    keepalive_seconds: float
    """An idle connection closes after this."""
    worker_share: float
    """Of the worker's time, what finished hands may take (one at a time)."""


@dataclass
class _State:
    sessions: Sessions
    gate: Gate
    pace: RateLimit
    """Requests one address may send."""
    total: RateLimit
    """Requests every address may send together."""
    limits: ApiLimits


_STATE: web.AppKey[_State] = web.AppKey("state", _State)
_REQUEST_TOO_SLOW = "request too slow: send its line, headers and body within {} s"


def _reply(body: dict[str, Any], status: int = 200) -> web.Response:
    return web.json_response(body, status=status)


@web.middleware
async def _serve(request: web.Request, handler: Handler) -> web.StreamResponse:
    """A request whole within its deadline, at its address's pace, then its handler;
    every failure as ``{"error_msg": ...}``, whatever raised it."""
    state = request.app[_STATE]
    transport = request.transport
    deadline = state.gate.started(transport)
    try:
        await _arrive(request, deadline, state.limits.request_seconds)
        await _paced(state.pace, _address(request))  # an address's flood waits here,
        await _paced(state.total, "")  # not in the queue for all
        return await handler(request)
    except ApiError as exc:
        response = _reply({"error_msg": str(exc)}, exc.status)
        if exc.retry_after is not None:
            response.headers["Retry-After"] = str(exc.retry_after)
        if exc.status == 408:
            response.force_close()
        return response
    except web.HTTPRequestEntityTooLarge:
        limit = state.limits.body_bytes
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
    finally:
        state.gate.finished(transport)


async def _arrive(request: web.Request, deadline: float, seconds: float) -> None:
    """Read the whole body by ``deadline`` (loop time); aiohttp keeps it for
    ``request.read()``. Over the size limit: ``HTTPRequestEntityTooLarge``."""
    try:
        async with asyncio.timeout_at(None if deadline == math.inf else deadline):
            await request.read()
    except TimeoutError:
        raise ApiError(_REQUEST_TOO_SLOW.format(f"{seconds:g}"), status=408) from None
    except (web.RequestPayloadError, ConnectionError):
        raise ApiError("the request's body did not arrive whole") from None


async def _paced(limit: RateLimit, key: str) -> None:
    """Wait for ``key``'s turn at ``limit``'s rate; refused (429) after a second's wait if
    its turn is further off."""
    try:
        wait = limit.wait(key, time.monotonic())
    except ApiError:
        await asyncio.sleep(HOLD)  # refusing at once would let a flood go as fast as it can
        raise
    if wait:
        await asyncio.sleep(wait)


async def _body(request: web.Request) -> dict[str, Any]:
    raw = await request.read()  # read already by _arrive: kept
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
    if peer in request.app[_STATE].limits.proxies:
        peer = request.headers.get("X-Forwarded-For", "").rsplit(",", 1)[-1].strip() or peer
    return normal_address(peer)


async def _login(request: web.Request) -> web.Response:
    body = await _body(request)
    sessions = request.app[_STATE].sessions
    session = await sessions.login(body.get("username"), body.get("password"), _address(request))
    return _reply({"token": session.token})


async def _new_hand(request: web.Request) -> web.Response:
    body = await _body(request)
    sessions = request.app[_STATE].sessions
    opponent = body.get("opponent")
    if opponent is not None and (not isinstance(opponent, str) or opponent not in STRATEGIES):
        raise ApiError(f"unknown opponent {opponent!r}: give one of {', '.join(STRATEGIES)}")
    token = body.get("token")
    session = sessions.anonymous(_address(request)) if token is None else sessions.get(token)
    async with sessions.serving(session):
        return _reply(await session.new_hand(opponent))


async def _act(request: web.Request) -> web.Response:
    body = await _body(request)
    sessions = request.app[_STATE].sessions
    session = sessions.get(body.get("token"))
    if "incr" not in body:
        raise ApiError("act: give incr, your action: k, c, f or b<N>")
    async with sessions.serving(session):
        return _reply(await session.act(body["incr"], body.get("old_action")))


def make_app(state: _State) -> web.Application:
    """The API's aiohttp application over ``state``."""
    app = web.Application(client_max_size=state.limits.body_bytes, middlewares=[_serve])
    app[_STATE] = state
    app.router.add_post("/api/login", _login)
    app.router.add_post("/api/new_hand", _new_hand)
    app.router.add_post("/api/act", _act)
    return app


class _HttpLog(logging.LoggerAdapter):  # type: ignore[type-arg]
    """aiohttp's server logger, but a request that does not parse (a bad request line,
    bad headers, garbage, headers too long) is one short line at INFO, never a
    traceback: it is the client's mistake, not the server's, and anyone can send them.
    At most :data:`LINES` such lines a minute, then their count."""

    LINES = 10

    def __init__(self) -> None:
        super().__init__(logging.getLogger("aiohttp.server"), {})
        self._minute, self._lines, self._quiet = 0.0, 0, 0

    def exception(self, msg: object, *args: Any, exc_info: Any = True, **kwargs: Any) -> None:
        if isinstance(exc_info, HttpProcessingError):
            self._bad_request(args, exc_info)
        else:
            self.logger.error(msg, *args, exc_info=exc_info, **kwargs)

    def debug(self, msg: object, *args: Any, exc_info: Any = None, **kwargs: Any) -> None:
        if isinstance(exc_info, HttpProcessingError):  # a bad method, on a first request
            self._bad_request(args, exc_info)
        else:
            self.logger.debug(msg, *args, exc_info=exc_info, **kwargs)

    def _bad_request(self, args: tuple[Any, ...], exc: HttpProcessingError) -> None:
        now = time.monotonic()
        if now - self._minute >= 60:
            if self._quiet:
                log.info("api: %d more bad HTTP requests in the last minute", self._quiet)
            self._minute, self._lines, self._quiet = now, 0, 0
        if self._lines >= self.LINES:
            self._quiet += 1
            return
        self._lines += 1
        where = args[0] if args else "unknown"
        what = " ".join(str(exc.message).split())[:100]
        log.info("api: bad HTTP request from %s (answered 400): %s", where, what)


def connection_cap(wanted: int) -> int:
    """At most ``wanted`` API connections, and at most a quarter of the process's open
    files limit (``ulimit -n``): the websocket, ``/healthz``, the database and the log
    keep the rest."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(1, min(wanted, soft // 4))


class SlumbotApi:
    """The API's sessions and its HTTP server, in the server's process and store."""

    def __init__(
        self, store: Store, *, opponent: str, limits: ApiLimits, bus: EventBus | None = None
    ) -> None:
        self.store, self.opponent, self.limits, self.bus = store, opponent, limits, bus
        self.sessions: Sessions | None = None
        self.gate: Gate | None = None
        self.port: int | None = None

    @contextlib.asynccontextmanager
    async def running(self, writer: HandWriter, host: str, port: int) -> AsyncIterator[int]:
        """Serve on ``host:port`` (0: a free port) until the block ends; yields the port.
        :class:`OSError` if it cannot listen there."""
        limits = self.limits
        self.sessions = sessions = Sessions(
            self.store, Recorder(self.store, writer, self.bus), opponent=self.opponent,
            limit=limits.sessions, per_address=limits.per_address,
            idle_seconds=limits.idle_seconds, unused_seconds=limits.unused_seconds,
            pace=RateLimit(limits.session_requests_per_second, limits.session_burst,
                           "for this session"),
            settling=compute.Slots(in_all=1, per_key=1, share=limits.worker_share),
        )  # fmt: skip
        cap = connection_cap(limits.connections)
        if cap < limits.connections:
            log.warning("the API serves at most %d connections at once: a quarter of this "
                        "process's open files limit (ulimit -n)", cap)  # fmt: skip
        self.gate = gate = Gate(
            in_all=cap, per_address=limits.connections_per_address,
            request_seconds=limits.request_seconds, idle_seconds=limits.keepalive_seconds,
            proxies=limits.proxies,
        )  # fmt: skip
        state = _State(
            sessions, gate, RateLimit(limits.requests_per_second, limits.burst,
                                      "from your address"),
            RateLimit(limits.requests_per_second_in_all,
                      math.ceil(limits.requests_per_second_in_all), "to the API in all",
                      status=503),
            limits,
        )  # fmt: skip
        runner = web.AppRunner(
            make_app(state), access_log=None, handle_signals=False, shutdown_timeout=5.0,
            logger=_HttpLog(),
            # aiohttp's own timer, behind the gate's: an idle connection, or one whose
            # request has not arrived, closes after both bounds whatever happens.
            keepalive_timeout=limits.keepalive_seconds + limits.request_seconds,
            lingering_time=min(2.0, limits.request_seconds),
        )  # fmt: skip
        await runner.setup()
        try:
            assert runner.server is not None
            # Our own listener, not a TCPSite: its connections go through the gate.
            listener = await asyncio.get_running_loop().create_server(
                gate.protocol(runner.server), host, port, backlog=128
            )
            self.port = port = listener.sockets[0].getsockname()[1]
            expiry = asyncio.create_task(sessions.expire_forever(), name="api sessions")
            try:
                yield port
            finally:
                expiry.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await expiry
                listener.close()
                with contextlib.suppress(TimeoutError):  # ended sessions store their hands
                    await asyncio.wait_for(sessions.settled(), 5.0)
        finally:
            await runner.cleanup()
