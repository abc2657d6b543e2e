"""The browser client in Debian's headless Chromium, against a real server: the lobby, a
seat at a table of house bots played by clicking, hole-card privacy, reconnection, the
phone layout, sitting out, and the hand viewer."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, WebSocket, expect

from server.app import ServerSettings
from tests.web.conftest import LiveServer, PageLog, screenshot, serve_in_thread

STATIONS = {0: "calling-station", 1: "calling-station", 2: "calling-station"}
"""House bots that call everything: with a player who checks or calls, every hand goes
to a showdown."""
ME = 3  # the free seat at the 4-seat test table


@pytest.fixture
def stations(tmp_path: Path) -> Iterator[LiveServer]:
    """Table "demo" with 4 seats: three calling stations that think 10 ms, seat 3 free."""
    settings = ServerSettings(house_think_seconds=0.01)
    with serve_in_thread(tmp_path / "web.db", bots=STATIONS, seats=4, settings=settings) as live:
        yield live


@dataclass
class Frames:
    """Every message the page's websockets received, decoded."""

    messages: list[dict[str, Any]] = field(default_factory=list)

    def watch(self, page: Page) -> Frames:
        def on_socket(ws: WebSocket) -> None:
            ws.on("framereceived", lambda frame: self.messages.append(json.loads(frame)))

        page.on("websocket", on_socket)
        return self

    def events(self, kind: str) -> list[dict[str, Any]]:
        return [
            {**m["event"], "hand_number": m["hand_number"]}
            for m in self.messages
            if m.get("type") == "event" and m["event"]["type"] == kind
        ]


def sign_in(page: Page, live: LiveServer, name: str) -> None:
    page.goto(live.url)
    page.fill("input[name=name]", name)
    page.click("[data-testid=play-as-guest]")
    expect(page.get_by_test_id("me")).to_have_text(name)


def sit(page: Page, buy_in: int) -> None:
    """Take a seat at table "demo" from the lobby."""
    row = page.locator("tr[data-table=demo]")
    row.locator("input[name=buy_in]").fill(str(buy_in))
    row.get_by_test_id("sit").click()
    expect(page.get_by_test_id("room")).to_be_visible()


def seated(page: Page, live: LiveServer) -> None:
    """Alice, signed in as a guest, in the free seat of table "demo" with 10,000 chips."""
    sign_in(page, live, "alice")
    sit(page, buy_in=10_000)


def check_or_call(page: Page, on_turn: Callable[[], None] = lambda: None) -> str:
    """When it is our turn, call ``on_turn``, then click check if it is free, else call;
    returns which."""
    turn = page.get_by_test_id("your-turn")
    expect(turn).to_be_visible(timeout=10_000)
    on_turn()
    for action in ("check", "call"):
        button = turn.get_by_test_id(action)
        if button.count():
            button.click()
            return action
    raise AssertionError("neither check nor call on offer")


def visible_cards(page: Page) -> tuple[int, dict[int, list[str]]]:
    """The hand number on screen and the face-up cards in each seat, read in one go (the
    page redraws with every event)."""
    hand, found = page.evaluate(
        """() => [
          Number(document.querySelector("[data-testid=hand-number]").textContent
            .replace("Hand #", "")) || 0,
          Object.fromEntries([...document.querySelectorAll("[data-testid^=cards-]")].map((box) =>
            [box.dataset.testid.replace("cards-", ""),
             [...box.querySelectorAll("[data-card]")].map((c) => c.dataset.card)
               .filter((c) => c !== "hidden")]))]"""
    )
    return hand, {int(seat): cards for seat, cards in found.items()}


def play_hands(page: Page, live: LiveServer, hands: int, on_turn: Callable[[], None]) -> None:
    """Check or call until the table has finished ``hands`` more hands, calling
    ``on_turn`` before each decision."""
    goal = live.call(lambda: live.runner.finished_through) + hands
    while live.call(lambda: live.runner.finished_through) < goal:
        check_or_call(page, on_turn)


def test_the_lobby_lists_tables_and_creates_one(stations: LiveServer, page: Page) -> None:
    sign_in(page, stations, "alice")
    row = page.locator("tr[data-table=demo]")
    expect(row).to_contain_text("Demo")
    expect(row).to_contain_text("50/100")
    expect(row).to_contain_text("3/4")  # three house bots at four seats
    stations.wait_until(lambda: stations.runner.core.hands_played >= 2)
    page.reload()  # the bots have played: the lobby has their average pot and hands an hour
    cells = page.locator("tr[data-table=demo] td")
    expect(cells.nth(1)).to_have_text("No-limit Texas hold'em")  # the game, then stakes
    expect(cells.nth(4)).to_have_text(re.compile(r"^[1-9][\d,]*$"))  # average pot
    expect(cells.nth(5)).to_have_text(re.compile(r"^[1-9][\d,]*$"))  # hands an hour
    screenshot(page, "lobby")
    page.get_by_text("Create a table").click()
    page.fill("input[name=name]", "Friday game")
    page.fill("input[name=big_blind]", "200")
    page.fill("input[name=small_blind]", "100")
    page.get_by_role("button", name="Create").click()
    expect(page).to_have_url(re.compile(r"#/table/friday-game$"))
    expect(page.get_by_test_id("room")).to_be_visible()
    assert stations.call(lambda: "friday-game" in stations.server.hosting.tables)
    PageLog.of(page).assert_clean(stations.url)


def test_a_player_plays_hands_to_showdown_by_clicking_and_sees_only_their_own_cards(
    stations: LiveServer, page: Page
) -> None:
    frames = Frames().watch(page)
    seated(page, stations)
    seen: list[tuple[int, dict[int, list[str]]]] = []

    def look() -> None:
        seen.append(visible_cards(page))
        if len(seen) == 3:
            screenshot(page, "table-mid-hand")

    play_hands(page, stations, 3, look)
    # Our clock counts down the table's 30 seconds.
    expect(page.get_by_test_id("your-turn")).to_be_visible(timeout=10_000)
    expect(page.locator(f"[data-testid=seat-{ME}] [data-testid=clock]")).to_have_text(
        re.compile(r"^(30|29|28)s$")
    )
    expect(page.get_by_test_id("hand-name").first).to_be_visible()  # "with Two Pair, ..."
    shown = {(e["hand_number"], e["seat"]): e["cards"] for e in frames.events("cards_shown")}
    mine = {e["hand_number"]: e["cards"] for e in frames.events("hole_cards_dealt") if e["cards"]}
    assert len({hand for hand, _ in shown}) >= 2  # several hands went to a showdown
    for hand, cards in seen:
        assert cards[ME] == mine[hand]  # our own cards, face up, at every decision
        for seat, faces in cards.items():
            # Anyone else's card on screen was shown at a showdown of that hand.
            assert seat == ME or not faces or faces == shown.get((hand, seat)), (hand, seat)
    # No message ever carried another player's hole cards but a showdown's.
    dealt = [e for e in frames.events("hole_cards_dealt") if e["seat"] != ME]
    assert dealt and all(e["cards"] is None for e in dealt)
    PageLog.of(page).assert_clean(stations.url)


def test_raising_with_the_slider_presets_acts_for_that_amount(
    stations: LiveServer, page: Page
) -> None:
    frames = Frames().watch(page)
    seated(page, stations)
    turn = page.get_by_test_id("your-turn")
    expect(turn).to_be_visible(timeout=10_000)
    amount = page.get_by_test_id("raise-amount")
    low, high = int(amount.get_attribute("min") or 0), int(amount.get_attribute("max") or 0)

    def owed() -> tuple[int, int, int]:
        table = stations.runner.core.table
        menu = table.legal_actions(ME)
        assert menu is not None
        seats = table.view(None).seats
        mine = next(s.street_total for s in seats if s.seat == ME)
        return sum(s.hand_total for s in seats), mine, menu.call

    in_pot, mine, call = stations.call(owed)
    # A pot-sized raise: call, then raise by the pot as it is once called.
    for preset, part in (("half-pot", 0.5), ("pot", 1.0)):
        page.get_by_test_id(preset).click()
        expected = min(high, max(low, mine + call + int(part * (in_pot + call))))
        assert int(amount.input_value()) == expected, preset
    pot = int(amount.input_value())
    assert low < pot < high  # the stacks are deep: a pot raise is neither limit
    page.get_by_test_id("all-in").click()
    assert int(amount.input_value()) == high
    amount.fill(str(high + 1_000))  # typed beyond the limit: held to the maximum
    amount.dispatch_event("change")
    assert int(amount.input_value()) == high
    amount.fill(str(pot))
    amount.dispatch_event("change")
    page.get_by_test_id("raise").click()
    raise_line = re.compile(rf"alice (raises to|bets) {pot:,}")
    expect(page.get_by_test_id("log")).to_contain_text(raise_line)
    raised = [e for e in frames.events("action_taken") if e["seat"] == ME]
    assert raised[-1]["kind"] in ("bet", "raise") and raised[-1]["street_total"] == pot


def test_the_page_reconnects_after_the_server_drops_it_and_plays_on(
    stations: LiveServer, page: Page
) -> None:
    seated(page, stations)
    check_or_call(page)
    assert stations.drop_connections() == 1
    expect(page.get_by_test_id("status")).to_have_text("reconnecting…", timeout=2_000)
    expect(page.get_by_test_id("status")).to_have_text("alice (guest)", timeout=10_000)
    # The seat is still ours, on the new connection: we are asked, and act, again.
    play_hands(page, stations, 2, lambda: None)
    seat = stations.call(lambda: stations.runner.core.seats.occupants[ME].player.name)
    assert seat == "alice"
    expect(page.get_by_test_id(f"seat-{ME}")).to_contain_text("alice")


def test_the_table_fits_a_phone_and_a_player_sits_out_and_back_in(
    stations: LiveServer, new_page: Callable[[], Page]
) -> None:
    page = new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in(page, stations, "alice")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the lobby fits
    sit(page, buy_in=10_000)
    expect(page.get_by_test_id("your-turn")).to_be_visible(timeout=10_000)
    # Nothing sticks out sideways, and the buttons are on screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for name in ("fold", "call", "check", "raise"):
        button = page.get_by_test_id("your-turn").get_by_test_id(name)
        if button.count():
            box = button.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    screenshot(page, "table-phone")
    page.get_by_test_id("sit-out").click()
    stations.wait_until(lambda: stations.runner.core.table.is_sitting_out(ME), timeout=10)
    expect(page.get_by_test_id(f"seat-{ME}")).to_contain_text("sitting out", timeout=10_000)
    page.get_by_test_id("sit-in").click()
    stations.wait_until(lambda: not stations.runner.core.table.is_sitting_out(ME), timeout=10)
    expect(page.get_by_test_id(f"seat-{ME}")).not_to_contain_text("sitting out")


def test_a_spectator_sees_no_hole_card_before_it_is_shown(stations: LiveServer, page: Page) -> None:
    frames = Frames().watch(page)
    page.goto(stations.url)  # no name needed to watch
    page.locator("tr[data-table=demo]").get_by_test_id("watch").click()
    expect(page.get_by_test_id("room")).to_be_visible()
    goal = stations.call(lambda: stations.runner.finished_through) + 3
    seen: list[tuple[int, dict[int, list[str]]]] = []
    while stations.call(lambda: stations.runner.finished_through) < goal:
        seen.append(visible_cards(page))
        page.wait_for_timeout(20)
    # The last showdown's hands stay on show, face up, beside its result.
    expect(page.get_by_test_id("results")).to_be_visible()
    hand, lines = page.evaluate(  # in one go: the panel changes with every hand
        """() => {
          const panel = document.querySelector("[data-testid=results]");
          return [Number(panel.querySelector("h3").textContent.replace("Hand #", "")),
                  [...panel.querySelectorAll(".shown")].map((line) => [Number(line.dataset.seat),
                    [...line.querySelectorAll("[data-card]")].map((c) => c.dataset.card)])];
        }"""
    )
    # Playwright hands over the frames the page received a little after the page has
    # them: let it catch up with what was on screen, then compare.
    page.wait_for_timeout(300)
    shown = {(e["hand_number"], e["seat"]): e["cards"] for e in frames.events("cards_shown")}
    for seen_hand, cards in seen:
        for seat, faces in cards.items():
            assert not faces or faces == shown.get((seen_hand, seat)), (seen_hand, seat)
    assert lines  # at least the winner showed
    for seat, cards in lines:
        assert cards == shown[hand, seat]
    PageLog.of(page).assert_clean(stations.url)


def test_an_account_token_is_kept_in_the_browser(stations: LiveServer, page: Page) -> None:
    page.goto(stations.url)
    page.fill("input[name=name]", "carol")
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_test_id("me")).to_have_text("carol")
    token = page.evaluate("localStorage.getItem('pokerroom.token')")
    assert token and len(token) >= 16
    page.evaluate("sessionStorage.clear()")  # a new visit: only the token remains
    page.reload()
    expect(page.get_by_test_id("identity")).to_contain_text("carol (account)")
    page.get_by_text("Your account token").click()
    expect(page.get_by_test_id("token")).to_have_text(token)  # to take to another browser
    assert stations.run(stations.server.store.player_by_token(token)) is not None


def test_a_stored_hand_opens_in_the_viewer_and_steps_through(
    stations: LiveServer, page: Page
) -> None:
    seated(page, stations)
    play_hands(page, stations, 3, lambda: None)  # the first may have begun before we sat
    page.evaluate("window.pokerroom.handsPage = 1")  # a page of one: the list pages
    page.get_by_role("link", name="My hands").click()
    rows = page.locator("tr[data-hand]")
    expect(rows).to_have_count(1)
    page.get_by_test_id("more-hands").click()
    expect(rows).to_have_count(2)
    ids = [int(r.get_attribute("data-hand") or 0) for r in rows.all()]
    assert ids[0] > ids[1]  # newest first
    hand_id = ids[0]
    rows.first.get_by_test_id("replay").click()
    expect(page).to_have_url(re.compile(rf"#/hand/{hand_id}$"))
    viewer = page.get_by_test_id("viewer")
    step = viewer.get_by_test_id("step")
    expect(step).to_have_text(re.compile(r"^1 / \d+$"))
    total = int(step.inner_text().split(" / ")[1])
    mine = page.locator(f"[data-testid=cards-{ME}] [data-card]")
    board = page.locator("[data-testid=board] [data-card]")
    # Step to the flop: our cards face up, the others' face down, three cards on the board.
    while board.count() < 3:
        viewer.get_by_test_id("next").click()
    assert all(c.get_attribute("data-card") != "hidden" for c in mine.all())
    assert mine.count() == 2
    # Every player called the big blind (calling stations, and we check or call).
    called = len(page.locator("[data-testid^=cards-]:has([data-card])").all())
    expect(page.get_by_test_id("pot-total")).to_have_text(f"Pot: {100 * called:,}")
    screenshot(page, "viewer")
    at_flop = int(step.inner_text().split(" / ")[0])
    viewer.get_by_test_id("prev").click()
    expect(step).to_have_text(f"{at_flop - 1} / {total}")
    assert board.count() == 0  # back before the flop
    while int(step.inner_text().split(" / ")[0]) < total - 3:
        viewer.get_by_test_id("next").click()
    viewer.get_by_test_id("play").click()  # the last steps by itself
    expect(step).to_have_text(f"{total} / {total}")
    expect(page.get_by_test_id("results")).to_be_visible()
    # The downloads are the hand as text: PHH and PokerStars, from this player's seat.
    with page.expect_download() as phh:
        viewer.get_by_test_id("download-phh").click()
    text = Path(phh.value.path()).read_text()
    assert 'variant = "NT"' in text and "_seed" not in text
    with page.expect_download() as stars:
        viewer.get_by_test_id("download-pokerstars").click()
    assert "Dealt to alice" in Path(stars.value.path()).read_text()
    page.set_viewport_size({"width": 390, "height": 844})  # the viewer and list on a phone
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.get_by_role("link", name="My hands").click()
    expect(rows.first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    PageLog.of(page).assert_clean(stations.url)


def test_the_clock_counts_down_the_decision_then_the_time_bank(tmp_path: Path, page: Page) -> None:
    settings = ServerSettings(house_think_seconds=0.01)
    with serve_in_thread(
        tmp_path / "clock.db", bots=STATIONS, seats=4, settings=settings,
        decision_seconds=1, time_bank_seconds=5,
    ) as live:  # fmt: skip
        seated(page, live)
        clock = page.locator(f"[data-testid=seat-{ME}] [data-testid=clock]")
        expect(clock).to_have_text("1s", timeout=10_000)
        expect(clock).to_have_text(re.compile(r"^time bank [1-5]s$"), timeout=3_000)
        expect(clock).to_have_class(re.compile(r"\bbank\b"))
