"""At a private table, a seat's name plate opens that player's figures at this table: the
server counts a private table's hands only for a request naming it, from someone at it
(issue 29 item 4), so the card asks for them there."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.web.conftest import LiveServer
from tests.web.test_private_table import host_a_game, play_until, sign_in


def test_a_player_card_at_a_private_table_counts_its_hands(
    live_server: LiveServer, page: Page
) -> None:
    live = live_server
    sign_in(page, live, "hana")
    host_a_game(page)
    for seat in ("1", "2"):  # two house bots
        page.get_by_test_id("bot-seat").select_option(seat)
        page.get_by_test_id("bot-strategy").select_option("calling-station")
        page.get_by_test_id("bot-add").click()
        expect(page.get_by_test_id(f"name-{seat}")).to_contain_text("bot")
    # The host sits too, and checks or calls.
    play_until([page], lambda: len(live.run(live.server.store.list_hands(table="friday"))) >= 3)
    page.get_by_test_id("name-1").click()
    card = page.get_by_test_id("stats-card")
    expect(card).to_be_visible()
    expect(card.locator("[data-stat=hands]")).not_to_have_text("0", timeout=60_000)
    expect(card.get_by_test_id("stats-over")).to_contain_text("at this table")
