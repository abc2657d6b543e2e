"""Flood a server with one message, as fast as a connection goes, from a process of its
own (so that the server's process bears only the server's side of it); print how many
went out and how the server closed the connection, as JSON.

Run by tests/server/test_hostile.py:

    python -m tests.server.flooder URL SESSION MESSAGE SECONDS
"""

from __future__ import annotations

import json
import sys
import threading
import time

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect


def main(url: str, session: str, message: str, seconds: float) -> None:
    sent = 0
    replies: dict[str, int] = {}
    with connect(url) as ws:
        ws.send(json.dumps({"type": "hello", "session": session}))
        assert json.loads(ws.recv())["type"] == "welcome"

        def read() -> None:
            try:
                for raw in ws:
                    reply = json.loads(raw)
                    key = str(reply.get("code", reply["type"]))
                    replies[key] = replies.get(key, 0) + 1
            except ConnectionClosed:
                pass

        reader = threading.Thread(target=read)
        reader.start()
        deadline = time.monotonic() + seconds
        try:
            while time.monotonic() < deadline:
                ws.send(message)
                sent += 1
        except ConnectionClosed:
            pass
        reader.join(timeout=seconds)
        print(json.dumps({"sent": sent, "close_code": ws.close_code, "replies": replies}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]))
