"""A home game in the browser (docs/home-games.md), several people each in a browser
context of their own: the host creates a private table and shares its link; two friends
are let in and one is not; the host gives chips (from the next hand); a friend reloads
mid-hand, and opens the table in a new tab, and keeps the seat and the cards."""

from __future__ import annotations

import time
from collections.abc import Callable

from playwright.sync_api import Page, expect

from server.tables import TableCore
from tests.web.conftest import LiveServer, PageLog, screenshot

FACE_UP = "[data-card]:not([data-card=hidden])"


def sign_in(page: Page, live: LiveServer, name: str) -> None:
    page.goto(live.url)
    page.fill("input[name=name]", name)
    page.click("[data-testid=play-as-guest]")
    expect(page.get_by_test_id("me")).to_have_text(name)


def host_a_game(page: Page) -> str:
    """From the lobby: a private game of blinds 1/2, buy-ins 100 to 400; its link."""
    page.get_by_text("Host a private game").click()
    form = page.get_by_test_id("host-form")
    form.locator("input[name=name]").fill("Friday")
    screenshot(page, "home-lobby")
    form.get_by_test_id("host-create").click()
    expect(page.get_by_test_id("host-panel")).to_be_visible()
    return page.get_by_test_id("invite-link").input_value()


def ask_for_a_seat(page: Page, link: str, name: str, buy_in: int, seat: int | None = None) -> None:
    """Open the invite link as ``name`` and ask for a seat: ``seat`` (0-based), or the one
    the page offers (the free seat farthest from anyone seated)."""
    page.goto(link)
    page.fill("input[name=name]", name)
    page.get_by_test_id("join-name").click()
    page.get_by_test_id("join-buy-in").fill(str(buy_in))
    choice = page.get_by_test_id("join-seat")
    expect(choice.locator("option")).not_to_have_count(1)  # the table's free seats came
    if seat is not None:
        choice.select_option(str(seat))
    screenshot(page, "home-join")
    page.get_by_test_id("ask-seat").click()
    expect(page.get_by_test_id("table-error")).to_contain_text("Waiting for the host")


def runner(live: LiveServer) -> TableCore:
    return live.call(lambda: live.server.hosting.tables["friday"].core)


def play_until(pages: list[Page], done: Callable[[], bool], timeout: float = 30.0) -> None:
    """Whoever's turn it is checks or calls, until ``done()``."""
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the table did not get there"
        for page in pages:
            if done():  # one click more may carry the table past where it was to stop
                return
            turn = page.get_by_test_id("your-turn")
            if turn.count() and turn.is_visible():
                for action in ("check", "call"):
                    button = turn.get_by_test_id(action)
                    if button.count():
                        button.first.click()
                        break
        time.sleep(0.05)


def final_stack(table: TableCore, seat: int) -> int:
    """What ``seat`` had when the last hand ended."""
    hand = table.table.hand
    assert hand is not None
    return hand.stacks[hand.position[seat]]


def my_cards(page: Page, seat: int) -> list[str]:
    cards: list[str] = page.evaluate(
        """(seat) => [...document.querySelectorAll(`[data-testid=cards-${seat}] [data-card]`)]
             .map((c) => c.dataset.card).filter((c) => c !== "hidden")""",
        seat,
    )
    return cards


def test_a_home_game_from_the_invite_to_a_reload(
    live_server: LiveServer, new_page: Callable[[], Page]
) -> None:
    live = live_server
    hana, bob, cy, dan = new_page(), new_page(), new_page(), new_page()
    sign_in(hana, live, "hana")
    link = host_a_game(hana)
    assert "#/join/friday/" in link and len(link.rsplit("/", 1)[1]) >= 22
    for page, name, buy_in in ((bob, "bob", 200), (cy, "cy", 150), (dan, "dan", 300)):
        ask_for_a_seat(page, link, name, buy_in)
    requests = hana.get_by_test_id("host-requests")
    expect(requests.locator("li")).to_have_count(3)
    screenshot(hana, "home-requests")
    requests.locator("li[data-player=bob]").get_by_test_id("approve").click()
    requests.locator("li[data-player=cy]").get_by_test_id("approve").click()
    requests.locator("li[data-player=dan]").get_by_test_id("reject").click()
    expect(dan.get_by_test_id("table-error")).to_contain_text("said no")
    expect(bob.get_by_test_id("your-turn").or_(bob.get_by_test_id("room"))).to_be_visible()
    table = runner(live)
    seats = live.call(lambda: {s.player.name: n for n, s in table.seats.occupants.items()})
    assert set(seats) == {"hana", "bob", "cy"}
    assert live.call(lambda: table.table.stack(seats["cy"])) == 150

    # The host pauses, gives Bob 100 chips: nothing changes until this hand is over.
    hana.get_by_test_id("host-pause").click()
    expect(hana.get_by_test_id("host-resume")).to_be_visible()
    row = hana.locator("li[data-player=bob]")
    row.get_by_test_id("chips-amount").fill("100")
    row.get_by_test_id("chips-add").click()
    expect(bob.locator("main")).to_contain_text("+100 chips for bob")
    pages = [hana, bob, cy]
    play_until(pages, lambda: not live.call(lambda: table.table.hand_in_progress))
    # The chips land once the hand is stored, after the pause for showing cards.
    play_until(
        pages,
        lambda: (
            not live.call(
                lambda: (
                    table.host.queued_chips
                    or table.options.pause_ends is not None
                    or table.ledger_unrecorded
                )
            )
        ),
    )
    stack = live.call(lambda: table.table.stack(seats["bob"]))
    ledger = live.run(live.server.store.ledger_sessions("friday"))
    assert next(s for s in ledger if s.nickname == "bob").buy_in == 300
    dealt = live.call(lambda: final_stack(table, seats["bob"]))
    assert stack == dealt + 100  # the hand's end, and then the host's chips
    hana.get_by_test_id("host-resume").click()
    expect(hana.get_by_test_id("host-pause")).to_be_visible()
    screenshots_of_the_host(live, hana, table)

    reload_keeps_the_seat(live, bob, table, seats["bob"])
    hana.reload()  # the host's panel comes back with the page
    expect(hana.get_by_test_id("invite-link")).to_have_value(link)


def test_an_asker_picks_a_seat_far_from_the_others_and_the_host_sees_it_at_once(
    live_server: LiveServer, new_page: Callable[[], Page]
) -> None:
    live = live_server
    hana, bob, cy = new_page(), new_page(), new_page()
    sign_in(hana, live, "hana")
    link = host_a_game(hana)  # nine seats, hana in seat 1
    bob.goto(link)
    bob.fill("input[name=name]", "bob")
    bob.get_by_test_id("join-name").click()
    choice = bob.get_by_test_id("join-seat")
    # Every free seat, the farthest from hana's first: seat 5 (four seats away each side).
    expect(choice.locator("option")).to_have_count(9)
    expect(choice).to_have_value("4")
    expect(choice.locator("option:checked")).to_have_text("seat 5")
    bob.get_by_test_id("ask-seat").click()
    expect(bob.get_by_test_id("table-error")).to_contain_text("Waiting for the host")

    # The host sees the request at the top of the table screen, wherever she scrolled.
    alert = hana.get_by_test_id("host-alert")
    expect(alert).to_contain_text("1 person asks for a seat:")
    expect(alert).to_contain_text("bob (200, seat 5)")
    screenshot(hana, "home-host-request-1280", full_page=False)
    hana.set_viewport_size({"width": 390, "height": 844})
    screenshot(hana, "home-host-request-390", full_page=False)
    hana.set_viewport_size({"width": 1280, "height": 800})
    hana.mouse.wheel(0, 2000)
    box = alert.bounding_box()
    assert box and 0 <= box["y"] <= 10, box  # in view, at the top
    panel = hana.get_by_test_id("host-panel").bounding_box()
    log = hana.locator(".log").bounding_box()
    assert panel and log and panel["y"] < log["y"]  # the host's panel comes before the log
    expect(hana.get_by_test_id("host-requests")).to_contain_text("bob asks for seat 5 with 200")
    alert.get_by_test_id("alert-approve").click()
    expect(alert).to_have_count(0)
    table = runner(live)
    live.wait_until(lambda: 4 in table.seats.occupants)
    assert live.call(lambda: table.seats.occupants[4].player.name) == "bob"
    # The next asker is offered the seat farthest from both: seat 3 (two from each).
    ask_for_a_seat(cy, link, "cy", 150)
    expect(alert).to_contain_text("cy (150, seat 3)")
    alert.get_by_test_id("alert-reject").click()
    expect(cy.get_by_test_id("table-error")).to_contain_text("said no")
    for page in (hana, bob, cy):
        PageLog.of(page).assert_clean(live.url)


def screenshots_of_the_host(live: LiveServer, hana: Page, table: TableCore) -> None:
    """The host's screen mid-hand, on a laptop and on a phone (docs/home-games.md)."""
    live.wait_until(lambda: table.table.hand_in_progress)
    expect(hana.get_by_test_id("host-players")).to_be_visible()
    screenshot(hana, "home-host-1280")
    hana.set_viewport_size({"width": 390, "height": 844})
    screenshot(hana, "home-host-390")
    hana.set_viewport_size({"width": 1280, "height": 800})


def reload_keeps_the_seat(live: LiveServer, bob: Page, table: TableCore, me: int) -> None:
    """Bob reloads mid-hand: the same seat, the same cards; and again in a new tab."""
    played = live.call(lambda: table.stored_through)
    live.wait_until(lambda: table.table.hand_in_progress and table.table.hand_number > played)
    hand = live.call(lambda: table.table.hand_number)
    expect(bob.get_by_test_id(f"cards-{me}").locator(FACE_UP)).to_have_count(2)
    before = my_cards(bob, me)
    bob.reload()
    expect(bob.get_by_test_id(f"cards-{me}").locator(FACE_UP)).to_have_count(2)
    assert my_cards(bob, me) == before
    again = bob.context.new_page()  # no session in a new tab: the seat token
    again.goto(f"{live.url}#/table/friday")
    expect(again.get_by_test_id(f"cards-{me}").locator(FACE_UP)).to_have_count(2)
    assert my_cards(again, me) == before
    assert live.call(lambda: table.table.hand_number) == hand
    assert live.call(lambda: table.seats.occupants[me].player.name) == "bob"


def test_the_invite_offers_a_buy_in_its_table_takes(
    live_server: LiveServer, new_page: Callable[[], Page]
) -> None:
    """A 5/10 game with buy-ins of 500 to 2,000: the invite page fills in 100 big blinds
    (1,000), not a number of its own that the table would refuse, and asking for a seat
    with it goes through to the host."""
    live = live_server
    hana, bob = new_page(), new_page()
    sign_in(hana, live, "hana")
    hana.get_by_text("Host a private game").click()
    form = hana.get_by_test_id("host-form")
    form.locator("input[name=name]").fill("Stakes")
    for field, value in (("small_blind", 5), ("big_blind", 10), ("min_buy_in", 500),
                         ("max_buy_in", 2000)):  # fmt: skip
        form.locator(f"input[name={field}]").fill(str(value))
    form.get_by_test_id("host-create").click()
    link = hana.get_by_test_id("invite-link").input_value()
    bob.goto(link)
    bob.fill("input[name=name]", "bob")
    bob.get_by_test_id("join-name").click()
    expect(bob.get_by_test_id("join-table")).to_contain_text("buy-in 500 to 2000")
    expect(bob.get_by_test_id("join-buy-in")).to_have_value("1000")
    bob.get_by_test_id("ask-seat").click()
    expect(bob.get_by_test_id("table-error")).to_contain_text("Waiting for the host")
    expect(hana.get_by_test_id("host-requests").locator("li[data-player=bob]")).to_contain_text(
        "1000"
    )
    for page in (hana, bob):
        PageLog.of(page).assert_clean(live.url)
