"""The table every player sees (issue 20, home games), in Chromium against a real server:
the pot at all times with its side pots, the phone layout, what a reload restores (the
blinds, the hand log, the last result, the time really left), sitting at your own table
and in an empty seat, the table's feel (last actions, the your-turn sound and title,
raise presets, keyboard shortcuts, reduced motion), the viewer's jumps and summary, and
small bugs (the 10 in its card, Older hands, a re-seated name, all in after the award,
Watch as a button)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from server.app import ServerSettings
from server.hosting import DEMO_BOTS
from tests.web.conftest import LiveServer, PageLog, screenshot, serve_in_thread
from tests.web.test_client import ME, STATIONS, check_or_call, play_hands, seated, sign_in

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}


@pytest.fixture
def callers(tmp_path: Path) -> Iterator[LiveServer]:
    """Table "demo", 4 seats: three calling stations that think 10 ms, seat 3 free."""
    settings = ServerSettings(house_think_seconds=0.01)
    with serve_in_thread(tmp_path / "feel.db", bots=STATIONS, seats=4, settings=settings) as live:
        yield live


@pytest.fixture
def empty(tmp_path: Path) -> Iterator[LiveServer]:
    """Table "demo" with nobody at it: nothing happens there unless a test says so."""
    with serve_in_thread(tmp_path / "empty.db", bots={}) as live:
        yield live


def server_pot(live: LiveServer) -> int:
    """Every chip bet in the hand being played, as the engine counts it."""
    return live.call(lambda: sum(s.hand_total for s in live.runner.core.table.view(None).seats))


def watch_empty_table(page: Page, live: LiveServer) -> None:
    page.goto(live.url)
    page.get_by_role("button", name="Watch").click()
    expect(page.get_by_test_id("room")).to_be_visible()
    expect(page.get_by_test_id("hand-number")).to_have_text("Waiting for players")


SEATS = """(seats) => seats.map((s) => ({in_hand: true, folded: false, all_in: false,
  street_total: 0, hand_total: 0, sitting_out: false, waiting_for_big_blind: false,
  has_cards: true, cards: null, up_cards: [], stack: 5000, ...s}))"""


def show(page: Page, view: dict[str, Any]) -> None:
    """Draw the page's table from ``view`` (the empty table's model, set by hand)."""
    page.evaluate(
        f"""(view) => {{
          const t = window.pokerroom.table;
          view.seats = ({SEATS})(view.seats);
          t.setSnapshot({{seq: t.seq, summary: t.summary, view: {{hand_in_progress: true,
            board: [], pots: [], button: 0, to_act: null, viewer: null, menu: null,
            street: "preflop", ...view}}}});
          window.pokerroom.draw();
        }}""",
        view,
    )


# -- the pot ---------------------------------------------------------------------------


def test_the_pot_counts_every_chip_preflop_and_this_streets_bets_later(
    callers: LiveServer, page: Page
) -> None:
    seated(page, callers)
    turn = page.get_by_test_id("your-turn")
    expect(turn).to_be_visible(timeout=10_000)
    expect(page.get_by_test_id("street")).to_have_text("Preflop")
    # Preflop there is a pot: the blinds and the calls, as the engine counts them.
    expect(page.get_by_test_id("pot-total")).to_have_text(f"Pot: {server_pot(callers):,}")
    assert server_pot(callers) >= 150
    screenshot(page, "table-your-turn")
    page.set_viewport_size(PHONE)
    screenshot(page, "table-your-turn-phone")
    page.set_viewport_size(DESKTOP)
    # On the flop: what the streets before put in, and this street's bets too.
    while True:
        check_or_call(page)
        expect(turn).to_be_visible(timeout=10_000)
        if page.get_by_test_id("street").inner_text() == "Flop":
            break
    expect(page.get_by_test_id("pot-total")).to_have_text(f"Pot: {server_pot(callers):,}")
    PageLog.of(page).assert_clean(callers.url)


def test_side_pots_are_listed_under_the_total(empty: LiveServer, page: Page) -> None:
    watch_empty_table(page, empty)
    # One player all in for 1,000 on the flop; two bet 500 more each on the turn.
    show(page, {"hand_number": 9, "street": "turn", "board": ["Ah", "Kd", "7c", "2s"],
                "pots": [3000, 2000], "to_act": 1, "seats": [
        {"seat": 0, "name": "short", "stack": 0, "all_in": True, "hand_total": 1000},
        {"seat": 1, "name": "bob", "street_total": 500, "hand_total": 2500},
        {"seat": 2, "name": "carol", "street_total": 500, "hand_total": 2500}]})  # fmt: skip
    expect(page.get_by_test_id("pot-total")).to_have_text("Pot: 6,000")
    expect(page.get_by_test_id("side-pots")).to_have_text("Main pot: 3,000Side pot 1: 2,000")
    expect(page.get_by_test_id("stack-0")).to_have_text("0 all in")
    screenshot(page, "side-pots")
    # Between hands there is no pot.
    page.evaluate(
        """() => { const t = window.pokerroom.table;
          t.apply({type: "hand_ended", hand_number: 9, board: [],
            stacks: [[0, 3000], [1, 3000], [2, 2500]]});
          window.pokerroom.draw(); }"""
    )
    expect(page.get_by_test_id("pot-total")).to_have_count(0)
    # The award is over: nobody is all in any more.
    expect(page.get_by_test_id("stack-0")).to_have_text("3,000")
    PageLog.of(page).assert_clean(empty.url)


# -- phones ----------------------------------------------------------------------------


def test_a_phone_shows_whole_names_cards_you_can_read_and_no_dead_space(
    live_server: LiveServer, page: Page
) -> None:
    page.set_viewport_size(PHONE)
    sign_in(page, live_server, "alice")
    row = page.locator("tr[data-table=demo]")
    row.get_by_test_id("sit").click()
    expect(page.get_by_test_id("your-turn")).to_be_visible(timeout=15_000)
    plates = page.locator("button.name")
    expect(plates).to_have_count(6)
    # No name is cut short: "house-2" and "house-3" can be told apart.
    cut = page.evaluate(
        """() => [...document.querySelectorAll("button.name")]
          .filter((b) => b.scrollWidth > b.clientWidth).map((b) => b.textContent)"""
    )
    assert cut == []
    widths = page.evaluate(
        """() => [...document.querySelectorAll(".seat .card")].map((c) => c.offsetWidth)"""
    )
    assert widths and min(widths) >= 22, widths
    gap = page.evaluate(
        """() => {
          const room = document.querySelector(".room").getBoundingClientRect();
          const seats = [...document.querySelectorAll(".room .seat")];
          const lowest = Math.max(...seats.map((s) => s.getBoundingClientRect().bottom));
          return room.bottom - lowest; }"""
    )
    assert gap < 24, f"{gap:.0f} px of felt-less room under the lowest seat"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "phone-table", full_page=False)
    PageLog.of(page).assert_clean(live_server.url)


# -- reloads ---------------------------------------------------------------------------


def test_a_reload_keeps_the_blinds_the_log_the_last_result_and_the_time_left(
    callers: LiveServer, page: Page
) -> None:
    seated(page, callers)
    play_hands(page, callers, 1, lambda: None)
    expect(page.get_by_test_id("your-turn")).to_be_visible(timeout=10_000)
    hand = callers.call(lambda: callers.runner.core.table.hand_number)
    time.sleep(3.5)  # the decision's clock runs
    page.reload()
    expect(page.get_by_test_id("your-turn")).to_be_visible()
    clock = page.locator(f"[data-testid=seat-{ME}] [data-testid=clock]")
    expect(clock).to_have_text(re.compile(r"^\d+s$"))
    assert int(clock.inner_text().rstrip("s")) <= 27  # not a fresh 30 s
    # The blinds' badges: a newcomer's big blind (ours, in our first hand) is a BB too.
    expect(page.locator(".badge.blind", has_text="SB")).to_have_count(1)
    expect(page.locator(".badge.blind", has_text="BB").first).to_be_visible()
    log = page.get_by_test_id("log")
    expect(log).to_contain_text(f"Hand #{hand}: blinds 50/100")
    expect(log).to_contain_text("posts the small blind of 50")
    won = re.compile(r"wins [\d,]+ from the main pot")
    expect(page.get_by_test_id("results")).to_contain_text(won)
    PageLog.of(page).assert_clean(callers.url)


# -- your own table ----------------------------------------------------------------------


def test_the_creator_sits_at_their_table_and_an_empty_seat_seats_you(
    live_server: LiveServer, new_page: Any
) -> None:
    assert len(DEMO_BOTS) < 6  # the demo keeps a seat free for a visitor
    bob = new_page()
    sign_in(bob, live_server, "bob")
    bob.locator("tr[data-table=demo]").get_by_role("button", name="Watch").click()
    free = bob.get_by_test_id("sit-5")
    expect(free).to_have_text("Sit here")
    free.click()
    expect(bob.locator(".seat.mine[data-seat='5']")).to_be_visible()
    expect(bob.get_by_test_id("sit-5")).to_have_count(0)
    assert live_server.call(lambda: live_server.runner.core.seats.occupants[5].player.name) == "bob"

    alice = new_page()
    sign_in(alice, live_server, "alice")
    alice.get_by_text("Create a table").click()
    alice.fill("input[name=name]", "Home game")
    alice.get_by_role("button", name="Create").click()
    expect(alice).to_have_url(re.compile(r"#/table/home-game$"))
    expect(alice.locator(".seat.mine")).to_be_visible()
    expect(alice.get_by_test_id("waiting-turn")).to_be_visible()
    host = live_server.call(lambda: live_server.server.hosting.tables["home-game"])
    assert live_server.call(
        lambda: [s.player.name for s in host.core.seats.occupants.values()]
    ) == ["alice"]
    for page in (alice, bob):
        PageLog.of(page).assert_clean(live_server.url)


# -- the table's feel --------------------------------------------------------------------


def test_last_actions_presets_shortcuts_the_title_and_the_sound(
    callers: LiveServer, page: Page
) -> None:
    seated(page, callers)
    turn = page.get_by_test_id("your-turn")
    expect(turn).to_be_visible(timeout=10_000)
    expect(page).to_have_title(re.compile(r"^▶ Your turn"))
    assert page.evaluate("window.pokerroom.chimes.played") >= 1
    # Preflop presets: the minimum, 2.5 and 3 times the bet (the big blind, unraised).
    amount = page.get_by_test_id("raise-amount")
    low = int(amount.get_attribute("min") or 0)
    for preset, value in (("min-raise", low), ("x2.5", 250), ("x3", 300)):
        page.get_by_test_id(preset).click()
        assert int(amount.input_value()) == max(low, value), preset
    # Shortcuts: said in the buttons' tooltips; typing in the amount box sends nothing.
    button = turn.locator("[data-testid=check], [data-testid=call]").first
    expect(button).to_have_attribute("title", re.compile(r"\(C\)$"))
    expect(turn.get_by_test_id("raise")).to_have_attribute("title", re.compile(r"\(R\)$"))
    acted = """() => window.pokerroom.table.log
      .filter((l) => /^alice (checks|calls)/.test(l.text)).length"""
    before = page.evaluate(acted)
    amount.click()
    page.keyboard.press("c")
    page.keyboard.press("f")
    time.sleep(0.3)
    expect(turn).to_be_visible()
    assert page.evaluate(acted) == before
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("c")  # check or call
    page.wait_for_function(f"() => ({acted})() > {before}")
    # Who did what this street, on their seats (the calling stations check or call).
    said = re.compile(r"^(Call [\d,]+|Check)$")
    expect(page.locator("[data-testid^=action-]").first).to_have_text(said, timeout=10_000)
    page.get_by_role("link", name="Lobby", exact=True).click()  # away from the table
    expect(page).to_have_title("pokerroom")
    page.go_back()
    # Muted, and still muted after a reload: no sound at the next turn.
    page.get_by_test_id("mute").click()
    expect(page.get_by_test_id("mute")).to_have_text("Sound: off")
    page.reload()
    expect(page.get_by_test_id("mute")).to_have_text("Sound: off")
    expect(page.get_by_test_id("mute")).to_have_attribute("aria-pressed", "true")
    before = page.evaluate("window.pokerroom.chimes.played")
    check_or_call(page)
    expect(page.get_by_test_id("your-turn")).to_be_visible(timeout=10_000)
    assert page.evaluate("window.pokerroom.chimes.played") == before
    PageLog.of(page).assert_clean(callers.url)


def test_cards_and_chips_move_unless_reduced_motion_is_asked(empty: LiveServer, page: Page) -> None:
    watch_empty_table(page, empty)
    animation = """() => {
      const probe = document.createElement("span");
      probe.className = "card deal";
      document.body.append(probe);
      const name = getComputedStyle(probe).animationName;
      probe.remove();
      return name; }"""
    assert page.evaluate(animation) == "deal"
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(animation) == "none"


# -- the viewer ------------------------------------------------------------------------


def test_the_viewer_jumps_by_street_and_sums_the_hand_up(callers: LiveServer, page: Page) -> None:
    seated(page, callers)
    play_hands(page, callers, 2, lambda: None)
    page.get_by_role("link", name="My hands").click()
    expect(page.locator("tr[data-hand]").first).to_be_visible()
    expect(page.get_by_test_id("more-hands")).to_be_hidden()  # no older hands: no button
    page.locator("tr[data-hand]").first.get_by_test_id("replay").click()
    viewer = page.get_by_test_id("viewer")
    summary = viewer.get_by_test_id("viewer-summary")
    expect(summary).to_contain_text(re.compile(r"^Pot [\d,]+.* wins "))
    board = page.locator("[data-testid=board] [data-card]")
    # Preflop in one click: every player's cards dealt, nobody has acted yet.
    viewer.get_by_test_id("jump-preflop").click()
    expect(page.locator(f"[data-testid=cards-{ME}] [data-card]")).to_have_count(2)
    expect(page.locator("[data-testid=cards-0] [data-card]")).to_have_count(2)
    expect(page.locator("[data-testid^=action-]")).to_have_count(0)
    expect(page.get_by_test_id("pot-total")).to_have_text(re.compile(r"^Pot: (150|250)$"))
    viewer.get_by_test_id("jump-flop").click()
    expect(board).to_have_count(3)
    expect(viewer.get_by_test_id("jump-flop")).to_have_attribute("aria-current", "step")
    expect(page.get_by_test_id("pot-total")).to_have_text(re.compile(r"^Pot: [\d,]+$"))
    screenshot(page, "viewer-flop")
    viewer.get_by_test_id("jump-river").click()
    expect(board).to_have_count(5)
    viewer.get_by_test_id("jump-result").click()
    expect(page.get_by_test_id("results")).to_be_visible()
    step = viewer.get_by_test_id("step")
    total = step.inner_text().split(" / ")[1]
    expect(step).to_have_text(f"{total} / {total}")
    page.set_viewport_size(PHONE)
    viewer.get_by_test_id("jump-flop").click()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "viewer-phone")
    PageLog.of(page).assert_clean(callers.url)


# -- small bugs ------------------------------------------------------------------------


def test_a_ten_fits_its_card_at_both_widths(empty: LiveServer, page: Page) -> None:
    watch_empty_table(page, empty)
    show(page, {"hand_number": 3, "street": "river", "board": ["Th", "Ts", "Td", "Tc", "9h"],
                "seats": [{"seat": 0, "name": "ann", "cards": ["Th", "Ts"]},
                          {"seat": 1, "name": "ben"}]})  # fmt: skip
    overflow = """() => [...document.querySelectorAll(".card b.ten")].filter((b) => {
        const c = b.parentElement.getBoundingClientRect(), r = b.getBoundingClientRect();
        return r.right > c.right - 1 || r.left < c.left; }).length"""
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        expect(page.locator(".card b.ten")).to_have_count(6)
        assert page.evaluate(overflow) == 0, size
    PageLog.of(page).assert_clean(empty.url)


def test_a_player_re_seated_is_named_in_the_log_once_the_name_is_known(
    empty: LiveServer, page: Page
) -> None:
    watch_empty_table(page, empty)
    show(page, {"hand_number": 4, "hand_in_progress": False, "seats": [
        {"seat": 0, "name": "ann", "in_hand": False},
        {"seat": 1, "name": "bob", "in_hand": False}]})  # fmt: skip
    lines = page.evaluate(
        """() => { const t = window.pokerroom.table;
          t.apply({type: "player_stood", seat: 1, stack: 5000, reason: "left"});
          t.apply({type: "player_sat", seat: 2, stack: 5000, waiting_for_big_blind: false});
          t.apply({type: "hand_started", hand_number: 5, button: 2, seats: [0, 2],
            stacks: [5000, 5000], small_blind: 50, big_blind: 100, ante: 0, big_blind_seat: 0});
          t.apply({type: "forced_bet_posted", seat: 2, kind: "small_blind", increment: 50,
            street_total: 50, hand_total: 50, stack: 4950, all_in: false});
          const before = t.log.slice(-2).map((l) => l.text);
          t.named(2, "bob");
          return [before, t.log.slice(-2).map((l) => l.text)]; }"""
    )
    assert lines[0] == [
        "Hand #5: blinds 50/100; seat 3 has the button",
        "seat 3 posts the small blind of 50",
    ]
    assert lines[1] == [
        "Hand #5: blinds 50/100; bob has the button",
        "bob posts the small blind of 50",
    ]


def test_watch_is_a_button(callers: LiveServer, page: Page) -> None:
    page.goto(callers.url)
    watch = page.locator("tr[data-table=demo]").get_by_role("button", name="Watch")
    expect(watch).to_be_visible()
    watch.click()
    expect(page).to_have_url(re.compile(r"#/table/demo$"))
    expect(page.get_by_test_id("room")).to_be_visible()
