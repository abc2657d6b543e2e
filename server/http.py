"""Plain HTTP beside the websocket: ``/healthz`` for load balancers and the browser
client's files; only ``/ws`` upgrades to the JSON protocol."""

from __future__ import annotations

from http import HTTPStatus

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

from server import web


def process_request(connection: ServerConnection, request: Request) -> Response | None:
    """The HTTP answer to ``request``, or None to go on with the websocket handshake."""
    path = request.path.split("?", 1)[0]
    if path == "/healthz":
        return connection.respond(HTTPStatus.OK, "ok\n")
    if (response := web.page(path)) is not None:
        return response
    if path != "/ws":
        return connection.respond(HTTPStatus.NOT_FOUND, "pokerroom: connect a websocket to /ws\n")
    return None
