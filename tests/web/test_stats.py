"""Player statistics in the browser: a seat's name plate opens that player's card, with
the figures the server sent (``stats``), by mouse or keyboard; the Stats panel lists every
player seated, tonight and all time at this table; hovering or focusing a name plate
shows the HUD; each reads at a desktop's width and a phone's."""

from __future__ import annotations

import json
from collections.abc import Iterator
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize, WebSocket, expect

from server.app import ServerSettings
from tests.web.conftest import SCREENSHOTS, LiveServer, screenshot, serve_in_thread

STATIONS = {0: "calling-station", 1: "tight-aggressive", 2: "random"}
PHONE: ViewportSize = {"width": 390, "height": 844}
COUNTING_MS = 60_000


@pytest.fixture
def table(tmp_path: Path) -> Iterator[LiveServer]:
    """Table "demo", 4 seats: three house bots of different styles playing at once."""
    settings = ServerSettings(house_think_seconds=0.05)
    with serve_in_thread(tmp_path / "stats.db", bots=STATIONS, seats=4, settings=settings) as live:
        live.wait_until(lambda: live.runner.core.table.hand_number > 8, timeout=30)
        yield live


def wait_for_replies(page: Page, replies: list[dict[str, Any]], count: int) -> None:
    """Until ``replies`` (from :func:`stats_replies`) holds ``count``: Playwright hands
    the page's frames over while it waits."""
    for _ in range(100):
        if len(replies) >= count:
            return
        page.wait_for_timeout(200)
    raise AssertionError(f"{len(replies)} stats replies in 20 s, not {count}")


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
    """As the page shows a rate: its shortest decimal rounded half away from zero to one
    place (the browser's Intl formatting), -961.65 to -961.7 (Python's own format rounds
    the binary value, 961.6499..., to -961.6)."""
    shown = Decimal(repr(abs(x))).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    return f"{'+' if x >= 0 else '−'}{shown:,}"


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
    # The pointer on the plate also asked for the HUD's figures (no game: the table's).
    (reply,) = [r for r in replies if r["game"] == "nlhe"]
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


def row_of(p: dict[str, Any]) -> dict[str, str]:
    """How the Stats panel shows a player's line of a ``stats`` reply."""

    def chips(x: float) -> str:
        n = round(x)
        return f"{'+' if n > 0 else '−' if n < 0 else ''}{abs(n):,}"

    af = "–" if p["aggression"] is None else f"{p['aggression']:.2f}"
    return {"hands": f"{p['hands']:,}"} | {k: pct(p[k]) for k in ("vpip", "pfr", "three_bet")} | {
        "aggression": af, "wtsd": pct(p["wtsd"]), "wsd": pct(p["wsd"]),
        "net": chips(p["net"]), "adjusted_net": chips(p["adjusted_net"]),
    }  # fmt: skip


def shown_rows(page: Page, part: str) -> dict[str, dict[str, str]]:
    """The panel's rows in ``part`` (stats-tonight, stats-all-time): player -> figures."""
    found: dict[str, dict[str, str]] = page.evaluate(
        """(part) => Object.fromEntries([...document.querySelectorAll(
             `[data-testid=${part}] tbody tr`)].map((tr) => [tr.dataset.player,
             Object.fromEntries([...tr.querySelectorAll("td")].map((td) =>
               [td.dataset.stat, td.textContent]))]))""",
        part,
    )
    return found


def test_the_stats_panel_shows_tonight_and_all_time_at_this_table(
    table: LiveServer, page: Page
) -> None:
    replies = stats_replies(page)
    page.goto(f"{table.url}#/table/demo")
    page.get_by_test_id("table-stats").click()
    for part in ("stats-tonight", "stats-all-time"):
        rows = page.get_by_test_id(part).locator("tbody tr")
        expect(rows).to_have_count(3, timeout=COUNTING_MS)
    tonight = [r for r in replies if r["since"] is not None]
    always = [r for r in replies if r["since"] is None]
    assert len(tonight) == 1 and len(always) == 1
    assert tonight[0]["table"] == always[0]["table"] == "demo"
    assert tonight[0]["game"] is None and always[0]["last"] == 5000
    for part, reply in (("stats-tonight", tonight[0]), ("stats-all-time", always[0])):
        shown = shown_rows(page, part)
        assert list(shown) == ["house-1", "house-2", "house-3"]
        assert shown == {p["name"]: row_of(p) for p in reply["players"]}
    # Every hand here began tonight: the two agree on what they both counted.
    assert [p["name"] for p in tonight[0]["players"]] == [p["name"] for p in always[0]["players"]]
    card = page.get_by_test_id("stats-card")
    page.screenshot(path=SCREENSHOTS / "home-stats-1280.png", animations="disabled")
    page.set_viewport_size(PHONE)
    box = card.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    page.screenshot(path=SCREENSHOTS / "home-stats-390.png", animations="disabled")
    # Leaving the table closes it.
    page.keyboard.press("Escape")
    page.goto(f"{table.url}#/")
    expect(card).to_have_count(0)


def test_the_hud_shows_on_a_hovered_or_focused_name_plate(table: LiveServer, page: Page) -> None:
    replies = stats_replies(page)
    first = table.call(lambda: table.runner.core.table.hand_number)
    page.goto(f"{table.url}#/table/demo")
    page.get_by_test_id("name-1").hover()
    hud = page.get_by_test_id("hud")
    expect(hud).to_be_visible()
    expect(hud).to_have_attribute("data-player", "house-2")
    expect(hud.locator("[data-stat=hands]")).to_be_visible(timeout=COUNTING_MS)
    (reply,) = replies  # one request for everyone seated: all time at this table
    assert reply["since"] is None and reply["table"] == "demo"
    assert [p["name"] for p in reply["players"]] == ["house-1", "house-2", "house-3"]
    p = reply["players"][1]
    want = row_of(p)
    for key in ("hands", "vpip", "pfr", "aggression"):
        expect(hud.locator(f"[data-stat={key}]")).to_have_text(want[key])
    gap = page.evaluate(
        """() => document.querySelector("[data-testid=hud]").getBoundingClientRect().top
             - document.querySelector("[data-testid=name-1]").getBoundingClientRect().bottom"""
    )
    assert 0 <= gap < 10  # just under the plate, wherever the redraws moved it

    # Off the plate it goes; another plate in the same hand asks nothing more.
    page.mouse.move(5, 5)
    expect(hud).to_have_count(0)
    hand = table.call(lambda: table.runner.core.table.hand_number)
    page.get_by_test_id("name-0").focus()  # by keyboard too: figures kept, shown at once
    expect(hud).to_have_attribute("data-player", "house-1")
    expect(hud.locator("[data-stat=hands]")).to_be_visible(timeout=500)
    assert len(replies) <= 2  # asked again only if a hand began since the first answer
    page.keyboard.press("Escape")
    expect(hud).to_have_count(0)
    # A later hand asks again, once, for everyone.
    table.wait_until(lambda: table.runner.core.table.hand_number > hand + 1, timeout=20)
    page.get_by_test_id("name-2").hover()
    expect(hud).to_have_attribute("data-player", "house-3")
    expect(hud.locator("[data-stat=hands]")).to_be_visible()  # the figures it has, at once
    wait_for_replies(page, replies, 2)  # and the new ones asked for (the worker may be busy)
    page.wait_for_timeout(1_000)
    # At most once a hand (these bots play a hand a second), for everyone at once.
    last = table.call(lambda: table.runner.core.table.hand_number)
    assert 2 <= len(replies) <= last - first + 1
    assert all(r["since"] is None and len(r["players"]) == 3 for r in replies)
