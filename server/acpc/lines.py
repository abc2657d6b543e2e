"""Lines from the other end of an ACPC connection, read with a bound.

A line ends with LF (CRLF is read as LF). Whatever the peer sends, what is kept of a line
is at most :data:`MAX_LINE` bytes, the reference dealer's read buffer (net.h
``READBUF_LEN``); the rest of a longer line is read and dropped, a chunk at a time, so a
line of any length costs no more memory than that, and is marked :attr:`Line.cut`. Bytes
that are not UTF-8 are read as U+FFFD. A last line the peer never ended is no line: it
hung up in the middle of it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Final

__all__ = ["MAX_LINE", "Line", "read_line", "shown"]

MAX_LINE: Final = 4096


@dataclass(frozen=True)
class Line:
    """A line without its ending: ``text`` is all of it, or its first :data:`MAX_LINE`
    bytes when ``cut``."""

    text: str
    cut: bool = False


async def read_line(reader: asyncio.StreamReader, limit: int = MAX_LINE) -> Line | None:
    """The next line from ``reader``, or None when the peer has gone (the end of the
    stream, a reset connection, a line never ended)."""
    kept = bytearray()
    size = 0
    while True:
        try:
            chunk = await reader.readuntil(b"\n")
        except asyncio.LimitOverrunError as exc:
            # No LF within the stream's own limit: take what is buffered and go on looking.
            chunk = await reader.read(max(1, exc.consumed))
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            return None
        if not chunk:
            return None
        if len(kept) <= limit + 1:  # the bound, and room for a CRLF to tell where it ends
            kept += chunk[: limit + 2 - len(kept)]
        size += len(chunk)
        if chunk.endswith(b"\n"):
            break
    if size <= limit + 2:
        body = bytes(kept).rstrip(b"\r\n")
        if len(body) <= limit:
            return Line(body.decode("utf-8", "replace"))
    return Line(bytes(kept[:limit]).decode("utf-8", "replace"), cut=True)


def shown(text: str, room: int = 60) -> str:
    """``text`` as a message quotes it: ``repr``, and no more than ``room`` characters
    of it, so that what a peer sent never floods a log."""
    return repr(text) if len(text) <= room else f"{text[:room]!r}... ({len(text)} characters)"
