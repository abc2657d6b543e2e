"""Table chat in the browser (docs/client.md#chat): two people, each in a browser context of
their own, talk and react at a table; a message with markup and a script shows as the
text it is (no element made, nothing run); the host's mute stops a player's messages;
the last lines come back with the page."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.web.conftest import LiveServer, PageLog
from tests.web.test_private_table import ask_for_a_seat, host_a_game, sign_in

PAYLOAD = "<img src=x onerror=window.pwned=1><script>window.pwned=2</script>"


def say(page: Page, text: str) -> None:
    page.get_by_test_id("chat-input").fill(text)
    page.get_by_test_id("chat-send").click()


def lines(page: Page) -> list[tuple[str, str]]:
    """The chat's lines on screen: (name, text)."""
    found: list[list[str]] = page.evaluate(
        """() => [...document.querySelectorAll("[data-testid=chat-lines] li")]
             .map((li) => [li.dataset.name, li.querySelector(".text").textContent])"""
    )
    return [(name, text) for name, text in found]


def test_two_people_chat_and_react_at_a_table(
    live_server: LiveServer, new_page: Callable[[], Page]
) -> None:
    live = live_server
    ann, bob = new_page(), new_page()
    sign_in(ann, live, "ann")
    ann.goto(f"{live.url}#/table/demo")
    ann.get_by_test_id("sit-5").click()  # the demo table's free seat
    expect(ann.get_by_test_id("seat-5")).to_contain_text("ann")
    sign_in(bob, live, "bob")  # bob watches
    bob.goto(f"{live.url}#/table/demo")
    expect(bob.get_by_test_id("chat")).to_be_visible()
    expect(ann.get_by_test_id("chat-input")).to_have_attribute("maxlength", "200")

    say(ann, "hello bob")
    for page in (ann, bob):
        expect(page.get_by_test_id("chat-lines").locator("li")).to_have_count(1)
    assert lines(bob) == [("ann", "hello bob")]
    expect(ann.get_by_test_id("chat-input")).to_have_value("")
    say(bob, "hi ann, just watching")
    expect(ann.get_by_test_id("chat-lines").locator("li")).to_have_count(2)
    assert lines(ann)[-1] == ("bob", "hi ann, just watching")

    # A reaction floats by the sender's seat, or over the chat for a spectator.
    ann.get_by_test_id("react").and_(ann.locator("[data-emoji='🔥']")).click()
    floating = bob.get_by_test_id("reaction").and_(bob.locator("[data-name=ann]"))
    where = bob.wait_for_function(
        """() => {
          const el = document.querySelector("[data-testid=reaction][data-name=ann]");
          const seat = document.querySelector("[data-testid=seat-5]");
          if (!el || !seat) return null;
          const a = el.getBoundingClientRect(), b = seat.getBoundingClientRect();
          return {text: el.textContent, seat: el.dataset.seat,
                  dx: Math.abs(a.x + a.width / 2 - (b.x + b.width / 2))};
        }"""
    ).json_value()
    assert where["text"].startswith("🔥") and where["seat"] == "5"
    assert where["dx"] < 40  # over the sender's seat
    expect(floating).to_have_count(0, timeout=4_000)  # briefly
    bob.get_by_test_id("react").and_(bob.locator("[data-emoji='👏']")).click()
    expect(ann.get_by_test_id("reaction").and_(ann.locator("[data-name=bob]"))).to_have_attribute(
        "data-seat", ""
    )

    # The text typed while the table redraws (at every event) stays, and so does the focus.
    box_ = ann.get_by_test_id("chat-input")
    box_.click()
    ann.keyboard.type("still typ", delay=60)
    ann.wait_for_timeout(400)
    ann.keyboard.type("ing", delay=60)
    expect(box_).to_have_value("still typing")
    expect(box_).to_be_focused()

    # A reload brings the last lines back (the snapshot's chat).
    bob.reload()
    expect(bob.get_by_test_id("chat-lines").locator("li")).to_have_count(2)
    assert [name for name, _ in lines(bob)] == ["ann", "bob"]
    for page in (ann, bob):
        PageLog.of(page).assert_clean(live.url)


def test_markup_in_a_message_is_text_and_runs_nothing(
    live_server: LiveServer, new_page: Callable[[], Page]
) -> None:
    live = live_server
    ann, bob = new_page(), new_page()
    for page, name in ((ann, "ann"), (bob, "bob")):
        sign_in(page, live, name)
        page.goto(f"{live.url}#/table/demo")
        expect(page.get_by_test_id("chat")).to_be_visible()
    say(ann, PAYLOAD)
    for page in (ann, bob):
        expect(page.get_by_test_id("chat-lines").locator("li")).to_have_count(1)
        assert lines(page) == [("ann", PAYLOAD)]
        chat = page.get_by_test_id("chat-lines")
        expect(chat.locator("img, script")).to_have_count(0)
        page.wait_for_timeout(200)
        assert page.evaluate("() => window.pwned") is None
        assert page.evaluate("() => document.querySelectorAll('img[src=x]').length") == 0
    # Again after a reload: the history is drawn the same way.
    bob.reload()
    expect(bob.get_by_test_id("chat-lines").locator("li")).to_have_count(1)
    assert lines(bob) == [("ann", PAYLOAD)]
    assert bob.evaluate("() => window.pwned") is None
    assert bob.evaluate("() => document.querySelectorAll('.chat img, .chat script').length") == 0


def host(page: Page, table: str, action: str, **fields: object) -> None:
    """The host's control, sent as host.js's buttons send it (over the page's socket)."""
    page.evaluate(
        "([m]) => window.pokerroom.conn.request(m)",
        [{"type": "host", "table": table, "action": action, **fields}],
    )


def test_the_hosts_mute_stops_a_players_messages(
    live_server: LiveServer, new_page: Callable[[], Page]
) -> None:
    live = live_server
    hana, bob, cy = new_page(), new_page(), new_page()
    sign_in(hana, live, "hana")
    link = host_a_game(hana)
    ask_for_a_seat(bob, link, "bob", 200)
    hana.get_by_test_id("host-requests").locator("li[data-player=bob]").get_by_test_id(
        "approve"
    ).click()
    expect(bob.get_by_test_id("chat")).to_be_visible()
    say(bob, "thanks for having me")
    expect(hana.get_by_test_id("chat-lines").locator("li")).to_have_count(1)

    host(hana, "friday", "mute", player="bob")
    say(bob, "you cannot hear this")
    expect(bob.get_by_test_id("chat-error")).to_contain_text("muted")
    expect(bob.get_by_test_id("chat-input")).to_have_value("you cannot hear this")  # kept
    say(hana, "quiet please")
    for page in (hana, bob):
        expect(page.get_by_test_id("chat-lines").locator("li")).to_have_count(2)
    assert [text for _, text in lines(hana)] == ["thanks for having me", "quiet please"]

    # A spectator with the invite may not chat until the host allows it.
    cy.goto(link)
    cy.fill("input[name=name]", "cy")
    cy.get_by_test_id("join-name").click()
    cy.goto(f"{live.url}#/table/friday")
    expect(cy.get_by_test_id("chat-lines").locator("li")).to_have_count(2)
    say(cy, "hello from the rail")
    expect(cy.get_by_test_id("chat-error")).to_contain_text("Spectators do not chat")
    host(hana, "friday", "spectator_chat", on=True)
    host(hana, "friday", "unmute", player="bob")
    say(cy, "hello from the rail")
    expect(hana.get_by_test_id("chat-lines").locator("li")).to_have_count(3)
    say(bob, "back again")
    expect(cy.get_by_test_id("chat-lines").locator("li")).to_have_count(4)
    assert lines(cy)[-2:] == [("cy", "hello from the rail"), ("bob", "back again")]
    expect(cy.get_by_test_id("chat-error")).to_have_text("")
