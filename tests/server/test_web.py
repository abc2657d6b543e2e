"""The browser client's files, served by the websocket server itself."""

from __future__ import annotations

import asyncio
import re
import urllib.request
from email.message import Message
from pathlib import Path

from tests.server.conftest import demo_server

WEB = Path(__file__).parents[2] / "server" / "web"


def fetch(url: str) -> tuple[int, Message, str]:
    with urllib.request.urlopen(url) as response:
        return response.status, response.headers, response.read().decode()


async def test_the_client_is_served_at_root_with_nothing_from_elsewhere(tmp_path: Path) -> None:
    async with demo_server(tmp_path / "web.db") as demo:
        base = f"http://{demo.address}"
        status, headers, html = await asyncio.to_thread(fetch, f"{base}/")
        assert status == 200 and headers["Content-Type"].startswith("text/html")
        policy = headers["Content-Security-Policy"]
        assert "default-src 'self'" in policy and "script-src 'self'" in policy
        # Every file the page loads is the server's own: no CDN, no web font from elsewhere.
        urls = re.findall(r'(?:src|href)="([^"#]+)"', html)
        assert "/app.js" in urls and "/app.css" in urls
        for url in urls:
            if url.startswith("data:"):
                continue  # inline (the empty favicon): nothing fetched
            assert url.startswith("/"), url
            status, headers, body = await asyncio.to_thread(fetch, f"{base}{url}")
            assert status == 200 and body == (WEB / url.lstrip("/")).read_text()
        scripts = sorted(p.name for p in WEB.iterdir() if p.suffix in (".js", ".css"))
        assert {"app.js", "app.css", "model.js"} <= set(scripts)
        for name in scripts:  # every module the page imports
            text = (WEB / name).read_text()
            assert not re.search(r"(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}/", text), name
            status, _, body = await asyncio.to_thread(fetch, f"{base}/{name}")
            assert status == 200 and body == text, name
