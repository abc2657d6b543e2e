"""The browser-test machinery itself: Debian's Chromium opens the client a real server
serves, and the page keeps to that server."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from tests.web.conftest import LiveServer, PageLog, screenshot

WEB = Path(__file__).resolve().parents[2] / "server" / "web"


def test_the_client_opens_in_chromium_and_loads_only_from_the_server(
    live_server: LiveServer, page: Page
) -> None:
    response = page.goto(live_server.url, wait_until="load")
    assert response is not None and response.status == 200
    expect(page).to_have_title("pokerroom")
    page.wait_for_load_state("networkidle")  # whatever the client fetches once it runs
    path = screenshot(page, "smoke")
    assert path.stat().st_size > 0
    log = PageLog.of(page)
    assert f"{live_server.url}app.js" in log.requests
    # app.js is an ES module: every module beside it is imported, from this server.
    modules = {f"{live_server.url}{path.name}" for path in WEB.glob("*.js")}
    assert modules <= set(log.requests), modules - set(log.requests)
    log.assert_clean(live_server.url)
