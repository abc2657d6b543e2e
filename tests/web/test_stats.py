"""Player statistics in the browser: a seat's name plate opens that player's card, with
the figures the server sent (``stats``), by mouse or keyboard; the Stats view lists every
player seated; both read at a desktop's width and a phone's."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize, WebSocket, expect

from server.app import ServerSettings
from tests.web.conftest import LiveServer, screenshot, serve_in_thread

STATIONS = {0: "calling-station", 1: "tight-aggressive", 2: "random"}
PHONE: ViewportSize = {"width": 390, "height": 844}
COUNTING_MS = 60_000


@pytest.fixture
def table(tmp_path: Path) -> Iterator[LiveServer]:
    """Table "demo", 4 seats: three house bots of different styles playing at once."""
    settings = ServerSettings(house_think_seconds=0.05)
    with serve_in_thread(tmp_path / "stats.db", bots=STATIONS, seats=4, settings=settings) as live:
        live.wait_until(lambda: live.runner.table.hand_number > 8, timeout=30)
        yield live


def stats_replies(page: Page) -> list[dict[str, Any]]:
    """Every ``stats`` reply the page will receive, as it comes."""
    replies: list[dict[str, Any]] = []

    def on_socket(ws: WebSocket) -> None:
        def on_frame(frame: str | bytes) -> None:
            message = json.loads(frame)
            if message.get("type") == "stats":
                replies.append(message)

        ws.on("framereceived", on_frame)

    page.on("websocket", on_socket)
    return replies


def pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def signed(x: float) -> str:
    return f"{'+' if x >= 0 else '−'}{abs(x):,.1f}"


def test_a_name_plate_opens_the_players_figures_at_this_game(table: LiveServer, page: Page) -> None:
    replies = stats_replies(page)
    page.goto(f"{table.url}#/table/demo")
    plate = page.get_by_test_id("name-1")
    expect(plate).to_have_text("house-2")
    expect(plate).to_have_attribute("aria-haspopup", "dialog")
    plate.click()
    card = page.get_by_test_id("stats-card")
    expect(card).to_be_visible()
    expect(card.get_by_role("heading")).to_have_text("house-2")
    # The first request starts the server's worker and counts every hand: seconds.
    expect(card.locator("[data-stat=hands]")).not_to_have_text("0", timeout=COUNTING_MS)
    (reply,) = replies
    assert reply["game"] == "nlhe" and reply["last"] == 1000
    (p,) = reply["players"]
    assert p["name"] == "house-2" and p["hands"] >= 8
    expect(card.locator("[data-stat=hands]")).to_have_text(f"{p['hands']:,}")
    for key in ("vpip", "pfr", "three_bet", "wtsd", "wsd"):
        expect(card.locator(f"[data-stat={key}]")).to_have_text(pct(p[key]))
    af = "–" if p["aggression"] is None else f"{p['aggression']:.2f}"
    expect(card.locator("[data-stat=aggression]")).to_have_text(af)
    rate = p["bb_per_100"]
    expect(card.locator("[data-stat=bb_per_100]")).to_have_text(signed(rate["rate"]))
    expect(card.locator("[data-stat=bb_interval]")).to_have_text(
        f"95%: {signed(rate['low'])} to {signed(rate['high'])}"
    )
    expect(card.get_by_test_id("stats-over")).to_contain_text(
        f"{p['hands']:,} hands of No-limit Texas hold'em"
    )
    screenshot(page, "browser-stats-card")
    page.keyboard.press("Escape")
    expect(card).to_have_count(0)
    expect(page.get_by_test_id("name-1")).to_be_focused()  # back where it was opened

    # By keyboard, on a phone: the name plate is a button like any other.
    page.set_viewport_size(PHONE)
    page.get_by_test_id("name-0").focus()
    page.keyboard.press("Enter")
    expect(card.get_by_role("heading")).to_have_text("house-1")
    expect(card.locator("[data-stat=hands]")).not_to_have_text("0")
    box = card.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    screenshot(page, "browser-stats-card-phone", full_page=False)
    card.get_by_test_id("stats-close").click()
    expect(card).to_have_count(0)


def test_the_stats_view_lists_every_player_seated(table: LiveServer, page: Page) -> None:
    replies = stats_replies(page)
    page.goto(f"{table.url}#/table/demo")
    page.get_by_test_id("table-stats").click()
    rows = page.get_by_test_id("stats-table").locator("tbody tr")
    expect(rows).to_have_count(3, timeout=COUNTING_MS)
    (reply,) = replies
    assert [p["name"] for p in reply["players"]] == ["house-1", "house-2", "house-3"]
    for row, p in zip(rows.all(), reply["players"], strict=True):
        expect(row.locator("th")).to_have_text(p["name"])
        expect(row.locator("[data-stat=hands]")).to_have_text(f"{p['hands']:,}")
        expect(row.locator("[data-stat=vpip]")).to_have_text(pct(p["vpip"]))
    screenshot(page, "browser-stats-table")
    page.set_viewport_size(PHONE)
    card = page.get_by_test_id("stats-card")
    box = card.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    screenshot(page, "browser-stats-table-phone", full_page=False)
    # Leaving the table closes it.
    page.keyboard.press("Escape")
    page.goto(f"{table.url}#/")
    expect(card).to_have_count(0)
