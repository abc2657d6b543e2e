"""The browser client: static files served by the websocket server on the same port.

Everything the page needs is in this folder (no build step, no CDN, no web fonts from
elsewhere): a server run offline serves a working client. The page loads ``app.js`` as
an ES module, which imports the others (``./model.js``, ...) from beside it.
``page(path)`` answers ``GET path`` with a file from here (``/`` is ``index.html``; every
script and style sheet here is served at ``/<its name>``), or ``/catalogue.json`` (what a
table may play, as ``welcome`` says it: a page that has said no hello yet needs it too),
or None when there is no such page.
"""

from __future__ import annotations

import functools
from http import HTTPStatus
from importlib import resources

from websockets.datastructures import Headers
from websockets.http11 import Response

from server import protocol

__all__ = ["page"]

CATALOGUE = "catalogue.json"
"""The one page that is no file: what ``welcome`` says a table may play."""

_TYPES = {
    "json": "application/json",
    "html": "text/html; charset=utf-8",
    "js": "text/javascript; charset=utf-8",
    "css": "text/css; charset=utf-8",
}
# The page may talk to this server only: scripts, styles and the websocket are its own.
_POLICY = (
    "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
    "style-src 'self'; script-src 'self'; frame-ancestors 'none'"
)
# Exact paths only, looked up as they are: no path the client sends is ever joined to a
# folder, so nothing outside this one can be named.
_FILES = (
    {"/": "index.html"}
    | {
        f"/{file.name}": file.name
        for file in resources.files(__package__).iterdir()
        if file.name.endswith((".js", ".css"))
    }
    | {f"/{CATALOGUE}": CATALOGUE}
)


@functools.cache
def _body(name: str) -> bytes:
    if name == CATALOGUE:
        return protocol.dumps(protocol.catalogue_body()).encode()
    return resources.files(__package__).joinpath(name).read_bytes()


def page(path: str) -> Response | None:
    """The response for ``GET path`` if it is one of the client's files."""
    name = _FILES.get(path)
    if name is None:
        return None
    body = _body(name)
    headers = Headers(
        [
            ("Content-Type", _TYPES[name.rsplit(".", 1)[1]]),
            ("Content-Length", str(len(body))),
            ("Cache-Control", "no-cache"),
            ("Content-Security-Policy", _POLICY),
            ("X-Content-Type-Options", "nosniff"),
        ]
    )
    return Response(HTTPStatus.OK.value, HTTPStatus.OK.phrase, headers, body)
