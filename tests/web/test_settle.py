"""Settling up and tonight's hands in the browser (docs/client.md#settling-up): after a
few hands the dialog lists each player's buy-in, cash-out, stack and net, the nets sum to
zero, who pays whom takes at most n - 1 transfers, and the CSV and the hands download
as files that parse."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, ViewportSize, expect

from engine.history import load_all
from server.app import ServerSettings
from tests.web.conftest import SCREENSHOTS, LiveServer, PageLog, serve_in_thread
from tests.web.test_private_table import sign_in

BOTS = {0: "calling-station", 1: "tight-aggressive", 2: "random"}
PHONE: ViewportSize = {"width": 390, "height": 844}
HEADER = "player_nickname,player_id,session_start_at,session_end_at,buy_in,buy_out,stack,net"


def downloaded_ledger(page: Page, dialog: Locator, filename: str) -> list[dict[str, str]]:
    """The rows of the CSV the Settle up dialog's Download CSV saves, once its name and
    PokerNow's header are checked."""
    with page.expect_download() as info:
        dialog.get_by_test_id("ledger-csv").click()
    download = info.value
    assert download.suggested_filename == filename
    text = Path(download.path()).read_text()
    assert text.splitlines()[0] == HEADER
    return list(csv.DictReader(io.StringIO(text)))


@pytest.fixture
def table(tmp_path: Path) -> Iterator[LiveServer]:
    """Table "demo", 4 seats: three house bots of different styles, a few hands played."""
    settings = ServerSettings(house_think_seconds=0.02)
    with serve_in_thread(tmp_path / "settle.db", bots=BOTS, seats=4, settings=settings) as live:
        live.wait_until(lambda: live.runner.core.table.hand_number > 5, timeout=30)
        yield live


def test_settle_up_sums_to_zero_and_the_csv_downloads(table: LiveServer, page: Page) -> None:
    sign_in(page, table, "ann")
    page.goto(f"{table.url}#/table/demo")
    page.get_by_test_id("settle-up").click()
    dialog = page.get_by_test_id("settle-dialog")
    expect(dialog).to_be_visible()
    rows = dialog.get_by_test_id("ledger-table").locator("tbody tr")
    expect(rows).to_have_count(3)
    expect(dialog.get_by_test_id("ledger-check")).to_have_attribute("data-sum", "0")
    expect(dialog.get_by_test_id("ledger-check")).to_contain_text("sum to 0")
    names = {r.get_attribute("data-player") for r in rows.all()}
    assert names == {"house-1", "house-2", "house-3"}
    nets: dict[str, int] = {}
    for row in rows.all():
        buy_in, buy_out, stack = (
            int(row.locator(f"[data-stat={k}]").inner_text().replace(",", ""))
            for k in ("buy_in", "buy_out", "stack")
        )
        net = int(row.locator("[data-stat=net]").inner_text().replace(",", "").replace("−", "-"))
        assert net == buy_out + stack - buy_in
        nets[str(row.get_attribute("data-player"))] = net
    assert sum(nets.values()) == 0
    # Who pays whom: at most n - 1 transfers, and after them everyone is square.
    transfers = dialog.get_by_test_id("transfers").locator("li")
    assert transfers.count() <= len(names) - 1
    for t in transfers.all():
        payer, payee, amount = (t.get_attribute(k) for k in ("data-from", "data-to", "data-amount"))
        assert payer and payee and amount
        expect(t).to_have_text(f"{payer} pays {payee} {int(amount):,}")
        nets[payer] += int(amount)
        nets[payee] -= int(amount)
    assert set(nets.values()) == {0}

    lines = downloaded_ledger(page, dialog, "demo-ledger.csv")
    assert {line["player_nickname"] for line in lines} == names
    assert sum(int(line["net"]) for line in lines) == 0
    PageLog.of(page).assert_clean(table.url)


def test_the_settle_dialog_stays_open_through_a_reconnection(table: LiveServer, page: Page) -> None:
    """A dropped connection comes back to the same table: the dialog someone is reading
    stays where it is (it closed, a moment after opening, on a busy CI machine)."""
    sign_in(page, table, "ann")
    page.goto(f"{table.url}#/table/demo")
    page.get_by_test_id("settle-up").click()
    dialog = page.get_by_test_id("settle-dialog")
    expect(dialog).to_be_visible()
    assert table.drop_connections() == 1
    expect(page.get_by_test_id("status")).to_have_text("reconnecting…", timeout=2_000)
    expect(page.get_by_test_id("status")).to_have_text("ann (guest)", timeout=10_000)
    expect(dialog).to_be_visible()
    expect(dialog.get_by_test_id("export-format")).to_be_visible()
    page.goto(f"{table.url}#/")
    expect(dialog).to_have_count(0)  # leaving the table closes it


def test_tonights_hands_download_in_each_format(table: LiveServer, page: Page) -> None:
    sign_in(page, table, "ann")
    page.goto(f"{table.url}#/table/demo")
    page.get_by_test_id("settle-up").click()
    dialog = page.get_by_test_id("settle-dialog")
    for key in ("pokerstars", "phh", "ohh"):
        dialog.get_by_test_id("export-format").select_option(key)
        # The file is written in the records worker, niced below the tables: on a busy
        # machine it takes longer than Playwright's default 5 s.
        with page.expect_download(timeout=30_000) as info:
            dialog.get_by_test_id("export-hands").click()
        download = info.value
        text = Path(download.path()).read_text()
        assert text.strip(), key
        suffix = {"pokerstars": ".txt", "phh": ".phhs", "ohh": ".ohh"}[key]
        assert download.suggested_filename.startswith("demo-")
        assert download.suggested_filename.endswith(suffix)
        expect(dialog.get_by_test_id("export-note")).to_contain_text(download.suggested_filename)
        if key == "pokerstars":
            assert text.startswith("PokerStars Hand #")
        elif key == "phh":
            assert len(load_all(text)) >= 5
        else:
            hands = [json.loads(line) for line in text.splitlines() if line.strip()]
            assert len(hands) >= 5 and all("ohh" in h for h in hands)
    PageLog.of(page).assert_clean(table.url)


def test_the_settle_up_dialog_at_a_desktops_and_a_phones_width(
    table: LiveServer, page: Page
) -> None:
    sign_in(page, table, "ann")
    page.goto(f"{table.url}#/table/demo")
    page.get_by_test_id("settle-up").click()
    dialog = page.get_by_test_id("settle-dialog")
    expect(dialog.get_by_test_id("ledger-table").locator("tbody tr")).to_have_count(3)
    page.screenshot(path=SCREENSHOTS / "home-settle-1280.png", animations="disabled")
    page.set_viewport_size(PHONE)
    box = dialog.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    net = dialog.locator("tbody tr").first.locator("[data-stat=net]").bounding_box()
    assert net is not None and net["x"] + net["width"] <= box["x"] + box["width"]  # no scrolling
    page.screenshot(path=SCREENSHOTS / "home-settle-390.png", animations="disabled")


FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def test_a_press_holds_the_tables_redraws_until_its_click(table: LiveServer, page: Page) -> None:
    """The bots act every 20 ms, and each event redraws the table: a redraw between a
    button's press and its release would lose the click. While pressed, the panel stays
    the one pressed in; let go, the table is drawn again."""
    sign_in(page, table, "ann")
    page.goto(f"{table.url}#/table/demo")
    button = page.get_by_test_id("settle-up")
    expect(button).to_be_visible()
    page.evaluate("() => { window.pressedIn = document.querySelector('.table-screen .panel'); }")
    page.wait_for_function("() => !window.pressedIn.isConnected", timeout=5000)  # it redraws
    button.dispatch_event("pointerdown")
    page.evaluate(FRAMES)  # a draw begun before the press is done
    page.evaluate("() => { window.pressedIn = document.querySelector('.table-screen .panel'); }")
    page.wait_for_timeout(400)  # twenty bot actions and more
    assert page.evaluate("() => window.pressedIn.isConnected")
    button.dispatch_event("pointerup")
    page.wait_for_function("() => !window.pressedIn.isConnected", timeout=5000)
    button.click()
    expect(page.get_by_test_id("settle-dialog")).to_be_visible()
