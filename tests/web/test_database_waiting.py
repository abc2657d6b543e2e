"""When the database cannot take a finished hand, the table waits for it and says so
(docs/protocol.md "When the database is away"): a person at the table reads it in plain
words, on a desktop and on a phone; someone who opens the table meanwhile reads it too;
and it goes once the hand is stored and the table deals on (issue 29 item 2)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Locator, Page, ViewportSize, expect

from tests.web.conftest import LiveServer, screenshot, serve_in_thread

PHONE: ViewportSize = {"width": 390, "height": 844}


def test_players_are_told_while_the_table_waits_for_its_database(
    tmp_path: Path, new_page: Callable[[], Page]
) -> None:
    db = tmp_path / "web.db"
    with serve_in_thread(db) as live:
        desk, phone = new_page(), new_page()
        phone.set_viewport_size(PHONE)
        desk.goto(f"{live.url}#/table/{live.table_id}")
        expect(desk.get_by_test_id("room")).to_be_visible()
        hands = hand_number(live)
        live.wait_until(
            lambda: live.runner.core.table.hand_number > hands, timeout=20
        )  # bots are dealing
        banner = desk.get_by_test_id("table-waiting")
        expect(banner).to_have_count(0)

        # Another process takes SQLite's write lock and keeps it: the next hand to end
        # cannot be stored.
        holder = sqlite3.connect(db, timeout=5, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            expect(banner).to_be_visible(timeout=30_000)
            expect(banner).to_contain_text("waiting for its database")
            expect(banner).to_contain_text("Nothing is lost")
            waiting_at = hand_number(live)
            inside_viewport(desk, banner)
            screenshot(desk, "database-waiting-desktop", full_page=False)
            # Someone who opens the table now learns it from their snapshot.
            phone.goto(f"{live.url}#/table/{live.table_id}")
            expect(phone.get_by_test_id("table-waiting")).to_be_visible()
            phone.get_by_test_id("table-waiting").scroll_into_view_if_needed()
            inside_viewport(phone, phone.get_by_test_id("table-waiting"))
            screenshot(phone, "database-waiting-phone", full_page=False)
            assert hand_number(live) == waiting_at  # nothing was dealt meanwhile
        finally:
            holder.execute("ROLLBACK")
            holder.close()

        # The hand is stored, the table deals on, and both pages say nothing more of it.
        expect(banner).to_have_count(0, timeout=15_000)
        expect(phone.get_by_test_id("table-waiting")).to_have_count(0)
        live.wait_until(lambda: live.runner.core.table.hand_number > waiting_at, timeout=20)
        stored = live.run(live.server.store.list_hands(table=live.table_id, limit=1000))
        assert len(stored) >= waiting_at  # the hand that waited was stored, once
        assert len({h.hand_number for h in stored}) == len(stored)


def hand_number(live: LiveServer) -> int:
    return live.call(lambda: live.runner.core.table.hand_number)


def inside_viewport(page: Page, locator: Locator) -> None:
    """The whole notice is on screen, at the width it was laid out for."""
    box = locator.bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (box, size)
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (box, size)
