"""Every family of games in Debian's headless Chromium, against a real server: a hand of
fixed-limit hold'em, Omaha hi-lo, seven-card stud, 2-7 triple draw and poker dice, each
played by clicking at a table of that game with house bots, some watched by a spectator.
Each test looks at what is drawn (cards per seat, up cards public and down cards
private, the draw and the re-roll, split pots by half, the action bar the menu calls
for) and takes screenshots at desktop (1280x800) and phone (390x844) widths, which
docs/browser.md shows.

Jokers and a split pot need a deal that has them: those hands are dealt by the engine
from a seeded deck and drawn by the page's own modules (the table model and the felt),
as the hand viewer draws a stored hand."""

from __future__ import annotations

import contextlib
import json
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, ViewportSize, WebSocket, expect

import engine
from engine import (
    Action,
    ActionMenu,
    AnteKind,
    BringIn,
    CheckOrCall,
    Deck,
    Draw,
    Fold,
    Table,
    TableConfig,
    TableView,
    redact,
)
from server import protocol
from server.app import ServerSettings
from tests.web.conftest import LiveServer, PageLog, screenshot, serve_in_thread

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
ME = 0  # our seat; house bots sit in the others


class Steady:
    """A house bot for any game: brings in when it must, checks or calls, stands pat."""

    def act(self, view: TableView, menu: ActionMenu) -> Action:
        if menu.can_draw:
            return Draw(menu.seat, ())
        if menu.can_bring_in:
            return BringIn(menu.seat)
        if menu.can_call:
            return CheckOrCall(menu.seat)
        return Fold(menu.seat)


def config(key: str, seats: int) -> TableConfig:
    """A table of game ``key``: blinds of 50/100 (a fixed-limit game bets 100/200), or
    without blinds an ante of 10 and bets of 100/200, with a bring-in of 25 in stud."""
    game = engine.game(key)
    if game.blinds:
        return TableConfig(game=game, seats=seats, small_blind=50, big_blind=100)
    bring_in = 25 if game.bring_in else 0
    return TableConfig(game=game, seats=seats, ante=10, ante_kind=AnteKind.PER_PLAYER,
                       bring_in=bring_in, small_bet=100, big_bet=200)  # fmt: skip


@pytest.fixture
def game_table(tmp_path: Path) -> Iterator[Callable[[str, int], LiveServer]]:
    """Opens a server whose table "demo" plays a game, ``game_table("stud", 5)``, with
    steady house bots (thinking 10 ms) in every seat but ours (seat 0)."""
    with contextlib.ExitStack() as stack:
        settings = ServerSettings(house_think_seconds=0.01)

        def open_table(key: str, seats: int) -> LiveServer:
            bots = {s: Steady() for s in range(1, seats)}
            table = config(key, seats)
            served = serve_in_thread(tmp_path / f"{key}.db", bots=bots, settings=settings,
                                     config=table)  # fmt: skip
            return stack.enter_context(served)

        yield open_table


@dataclass
class Frames:
    """Every message a page's websockets received and sent, decoded."""

    received: list[dict[str, Any]] = field(default_factory=list)
    sent: list[dict[str, Any]] = field(default_factory=list)

    def watch(self, page: Page) -> Frames:
        def on_socket(ws: WebSocket) -> None:
            ws.on("framereceived", lambda frame: self.received.append(json.loads(frame)))
            ws.on("framesent", lambda frame: self.sent.append(json.loads(frame)))

        page.on("websocket", on_socket)
        return self

    def events(self, kind: str) -> list[dict[str, Any]]:
        return [
            {**m["event"], "hand_number": m["hand_number"]}
            for m in self.received
            if m.get("type") == "event" and m["event"]["type"] == kind
        ]

    def requests(self, hand: int) -> set[int]:
        """Our decisions in hand ``hand`` so far: the ``seq`` of each action request (a
        request may come again, after a snapshot)."""
        return {
            m["seq"]
            for m in self.received
            if m.get("type") == "action_request" and m["hand_number"] == hand
        }

    def last_request(self) -> dict[str, Any]:
        """Our latest action request (its ``menu``)."""
        return [m for m in self.received if m.get("type") == "action_request"][-1]


def sit(page: Page, live: LiveServer, name: str = "alice") -> None:
    """Sign in as a guest and take the free seat at table "demo" from the lobby."""
    page.goto(live.url)
    page.fill("input[name=name]", name)
    page.click("[data-testid=play-as-guest]")
    expect(page.get_by_test_id("me")).to_have_text(name)
    row = page.locator("tr[data-table=demo]")
    row.locator("input[name=buy_in]").fill(
        str(live.call(lambda: live.runner.core.table.config.max_buy_in))
    )
    row.get_by_test_id("sit").click()
    expect(page.get_by_test_id("room")).to_be_visible()


def watch(page: Page, live: LiveServer) -> None:
    """Watch table "demo" without a seat (nor a name)."""
    page.goto(f"{live.url}#/table/demo")
    expect(page.get_by_test_id("room")).to_be_visible()


def hand_over(live: LiveServer, hand: int) -> bool:
    return live.call(lambda: live.runner.finished_through) >= hand


def play_hand(
    page: Page, live: LiveServer, frames: Frames, on_turn: Callable[[Locator], bool]
) -> int:
    """Play the hand under way (or the next) to its end: at each of our turns
    ``on_turn(turn)`` may act itself (returning True); otherwise bring in if due, else
    check or call. Returns the hand's number."""
    turn = page.get_by_test_id("your-turn")
    expect(turn).to_be_visible(timeout=10_000)
    hand = live.call(lambda: live.runner.core.table.hand_number)
    answered = 0
    while True:
        # Wait for a request we have not answered (the next may come at once, drawn in
        # the same place), or for the hand to end.
        while len(frames.requests(hand)) <= answered and not hand_over(live, hand):
            page.wait_for_timeout(20)
        if len(frames.requests(hand)) <= answered:
            return hand
        answered = len(frames.requests(hand))
        expect(turn).to_be_visible()
        if on_turn(turn):
            continue
        for action in ("bring-in", "check", "call", "stand-pat"):
            button = turn.get_by_test_id(action)
            if button.count():
                button.click()
                break
        else:
            raise AssertionError(f"nothing to click: {turn.inner_text()!r}")


def seat_cards(page: Page, seat: int) -> list[str]:
    """The cards drawn at ``seat``: each a card, a die's face, or "hidden" (a back)."""
    cards = page.locator(f"[data-testid=cards-{seat}] [data-card]")
    return [c.get_attribute("data-card") or "" for c in cards.all()]


def both_widths(page: Page, name: str) -> None:
    """Screenshots ``<name>-desktop.png`` and ``<name>-phone.png``; at both widths nothing
    sticks out sideways (the page is no wider than the window)."""
    for size, suffix in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page.set_viewport_size(size)
        screenshot(page, f"{name}-{suffix}")
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= size["width"], f"{name} is {width} px wide at {size['width']} px"
    page.set_viewport_size(DESKTOP)


def test_the_lobby_shows_the_game_and_creates_a_table_of_stud(
    game_table: Callable[[str, int], LiveServer], page: Page
) -> None:
    live = game_table("razz", 4)
    page.goto(live.url)
    page.fill("input[name=name]", "alice")
    page.click("[data-testid=play-as-guest]")
    # Signed in, the lobby is drawn again: its forms are new ones from then on.
    expect(page.get_by_test_id("me")).to_have_text("alice")
    row = page.locator("tr[data-table=demo]")
    expect(row.get_by_test_id("game")).to_have_text("Razz")
    expect(row.get_by_test_id("stakes")).to_have_text("100/200, ante 10, bring-in 25")
    page.get_by_text("Create a table").click()
    form = page.locator(".create:not(.host-create) form")  # not the private game's form
    form.get_by_test_id("game-choice").select_option("stud")
    # Stud takes an ante, a bring-in and bets, and no blinds.
    expect(form.locator("input[name=big_blind]")).to_be_hidden()
    expect(form.locator("input[name=bring_in]")).to_be_visible()
    form.locator("input[name=name]").fill("Stud night")
    form.locator("input[name=ante]").fill("5")
    form.locator("input[name=bring_in]").fill("10")
    form.locator("input[name=small_bet]").fill("40")
    form.locator("input[name=big_bet]").fill("80")
    both_widths(page, "lobby-create-stud")
    form.get_by_role("button", name="Create").click()
    expect(page).to_have_url(re.compile(r"#/table/stud-night$"))
    expect(page.get_by_test_id("game")).to_have_text("Seven-card stud · 40/80, ante 5, bring-in 10")
    made = live.call(lambda: live.server.hosting.tables["stud-night"].core.table.config)
    assert (made.game.key, made.ante, made.bring_in, made.small_bet, made.big_bet) == (
        "stud",
        5,
        10,
        40,
        80,
    )
    PageLog.of(page).assert_clean(live.url)


# -- the families --------------------------------------------------------------------------


def test_fixed_limit_holdem_offers_one_bet_size_and_no_slider(
    game_table: Callable[[str, int], LiveServer], page: Page
) -> None:
    live = game_table("flhe", 4)
    frames = Frames().watch(page)
    page.goto(live.url)
    row = page.locator("tr[data-table=demo]")
    expect(row.get_by_test_id("game")).to_have_text("Fixed-limit Texas hold'em")
    expect(row.get_by_test_id("stakes")).to_have_text("100/200")
    sit(page, live)
    raised: list[int] = []

    def on_turn(turn: Locator) -> bool:
        assert len(seat_cards(page, ME)) == 2 and "hidden" not in seat_cards(page, ME)
        raise_button = turn.get_by_test_id("raise")
        if raised or not raise_button.count():
            return False
        menu = frames.last_request()["menu"]
        assert menu["min_raise_to"] == menu["max_raise_to"]  # fixed limit: one size
        expect(turn.get_by_test_id("raise-slider")).to_have_count(0)
        size = menu["min_raise_to"]
        expect(raise_button).to_have_text(re.compile(rf"^(Bet|Raise to) {size:,}$"))
        both_widths(page, "holdem-fixed-limit")
        raise_button.click()
        raised.append(size)
        return True

    play_hand(page, live, frames, on_turn)
    mine = [e for e in frames.events("action_taken") if e["seat"] == ME]
    assert any(e["kind"] in ("bet", "raise") and e["street_total"] == raised[0] for e in mine)
    PageLog.of(page).assert_clean(live.url)


def test_omaha_hi_lo_draws_four_cards_a_seat_pot_limit_and_the_halves_of_the_pot(
    game_table: Callable[[str, int], LiveServer], page: Page
) -> None:
    live = game_table("plo8", 4)
    frames = Frames().watch(page)
    sit(page, live)
    looked: list[bool] = []

    def on_turn(turn: Locator) -> bool:
        mine = seat_cards(page, ME)
        assert len(mine) == 4 and "hidden" not in mine, mine
        for seat in (1, 2, 3):  # the others' four cards, face down
            assert seat_cards(page, seat) in ([], ["hidden"] * 4), seat
        if looked or not turn.get_by_test_id("raise-slider").count():
            return False
        menu = frames.last_request()["menu"]
        turn.get_by_test_id("pot").click()  # pot limit: the pot is the most
        expect(turn.get_by_test_id("raise-amount")).to_have_value(str(menu["max_raise_to"]))
        expect(turn.get_by_test_id("all-in")).to_have_count(0)
        both_widths(page, "omaha-hi-lo")
        looked.append(True)
        return False

    hand = play_hand(page, live, frames, on_turn)
    assert looked
    expect(page.get_by_test_id("results")).to_contain_text(f"Hand #{hand}")
    awards = [e for e in frames.events("pot_awarded") if e["hand_number"] == hand]
    assert awards and all(e["half"] in ("high", "low") for e in awards)
    results = page.get_by_test_id("result")
    expect(results).to_have_count(len(awards))
    for line, award in zip(results.all(), awards, strict=True):
        assert line.get_attribute("data-half") == award["half"]
        badge = "High" if award["half"] == "high" else "Low"
        expect(line.get_by_test_id("half")).to_have_text(badge)
    screenshot(page, "omaha-hi-lo-results")
    PageLog.of(page).assert_clean(live.url)


def test_stud_up_cards_are_public_and_down_cards_the_owners_only(
    game_table: Callable[[str, int], LiveServer], page: Page, new_page: Callable[[], Page]
) -> None:
    live = game_table("stud", 5)
    frames = Frames().watch(page)
    sit(page, live)
    spectator = new_page()
    seen = Frames().watch(spectator)
    watch(spectator, live)
    looked: list[int] = []

    def spectator_sees_every_up_card() -> None:
        """Each seat's up cards as the table shows them to everyone, its down cards as
        backs."""
        public = live.call(lambda: live.runner.core.table.view(None))
        ups = {s.seat: [str(c) for c in s.up_cards] for s in public.seats if not s.folded}
        assert len(ups) == 5, ups
        for seat, cards in ups.items():
            box = spectator.get_by_test_id(f"cards-{seat}")
            expect(box.locator(".card.up")).to_have_count(len(cards))
            assert [c.get_attribute("data-card") for c in box.locator(".card.up").all()] == cards
            assert set(seat_cards(spectator, seat)) - set(cards) == {"hidden"}, seat
            backs = len(seat_cards(spectator, seat)) - len(cards)
            expect(box.locator(".card.back.down")).to_have_count(backs)

    def on_turn(turn: Locator) -> bool:
        count = len(seat_cards(page, ME))
        assert count in (3, 4, 5, 6, 7), count
        assert "hidden" not in seat_cards(page, ME)  # our down cards, face up to us
        down = page.locator(f"[data-testid=cards-{ME}] .card.down")
        expect(down).to_have_count(2 if count < 7 else 3)
        expect(page.locator(f"[data-testid=cards-{ME}] .card.up")).to_have_count(
            count - down.count()
        )
        if count == 7 and not looked:
            spectator_sees_every_up_card()
            both_widths(page, "stud-seventh-street")
            both_widths(spectator, "stud-spectator")
            looked.append(count)
        return False

    hand = play_hand(page, live, frames, on_turn)
    assert looked, "the hand never reached seventh street"
    assert all(e["cards"] is None for e in seen.events("hole_cards_dealt"))
    brought_in = [e for e in frames.events("action_taken") if e["kind"] == "bring_in"]
    assert any(e["hand_number"] == hand for e in brought_in)
    log = page.evaluate("() => window.pokerroom.table.log.map((line) => line.text)")
    assert any(re.fullmatch(r"\S+ brings in for 25", line) for line in log), log
    PageLog.of(page).assert_clean(live.url)
    PageLog.of(spectator).assert_clean(live.url)


def test_a_draw_picks_cards_then_discards_them_and_the_others_see_how_many(
    game_table: Callable[[str, int], LiveServer], page: Page, new_page: Callable[[], Page]
) -> None:
    live = game_table("27td", 4)
    frames = Frames().watch(page)
    sit(page, live)
    spectator = new_page()
    watch(spectator, live)
    drew: list[list[str]] = []

    def on_turn(turn: Locator) -> bool:
        mine = seat_cards(page, ME)
        assert len(mine) == 5 and "hidden" not in mine, mine
        draw = turn.get_by_test_id("draw")
        if not draw.count():
            return False
        if drew:  # later draws: stand pat
            turn.get_by_test_id("stand-pat").click()
            return True
        expect(turn.get_by_test_id("discard")).to_be_disabled()  # nothing picked yet
        picks = draw.get_by_test_id("pick")
        expect(picks).to_have_count(5)
        chosen = [
            picks.nth(1).get_attribute("data-card") or "",
            picks.nth(3).get_attribute("data-card") or "",
        ]
        picks.nth(1).click()
        picks.nth(3).click()
        expect(turn.get_by_test_id("discard")).to_have_text("Discard 2")
        both_widths(page, "draw-picking")
        turn.get_by_test_id("discard").click()
        drew.append(chosen)
        return True

    live_hand = live.call(lambda: live.runner.core.table.hand_number)

    def after_draw(turn: Locator) -> bool:
        acted = on_turn(turn)
        if drew and len(drew) == 1 and not acted:
            # Betting after our draw: everyone's draw is on the felt.
            expect(spectator.get_by_test_id(f"drew-{ME}")).to_have_text("drew 2")
            for seat in (1, 2, 3):
                badge = spectator.get_by_test_id(f"drew-{seat}")
                if badge.count():
                    expect(badge).to_have_text("stood pat")
            both_widths(spectator, "draw-spectator")
            drew.append([])
        return acted

    hand = play_hand(page, live, frames, after_draw)
    assert hand >= live_hand and drew
    sent = [m for m in frames.sent if m.get("type") == "act" and m.get("action") == "draw"]
    assert sent[0]["discard"] == drew[0]
    mine = [e for e in frames.events("cards_drawn") if e["seat"] == ME and e["hand_number"] == hand]
    assert mine[0]["count"] == 2 and mine[0]["discarded"] == drew[0]
    PageLog.of(page).assert_clean(live.url)
    PageLog.of(spectator).assert_clean(live.url)


def test_poker_dice_are_drawn_as_dice_and_picked_to_re_roll(
    game_table: Callable[[str, int], LiveServer], page: Page
) -> None:
    live = game_table("dice", 4)
    frames = Frames().watch(page)
    sit(page, live)
    rolled: list[list[str]] = []

    def on_turn(turn: Locator) -> bool:
        dice = page.locator(f"[data-testid=cards-{ME}] .die")
        expect(dice).to_have_count(5)
        for die in dice.all():  # as many pips as the face says
            face = int(die.get_attribute("data-card") or 0)
            expect(die.locator(".pip")).to_have_count(face)
        for seat in (1, 2, 3):  # everyone's dice are public
            assert len(seat_cards(page, seat)) in (0, 5) and "hidden" not in seat_cards(page, seat)
        draw = turn.get_by_test_id("draw")
        if not draw.count():
            return False
        if rolled:
            turn.get_by_test_id("stand-pat").click()
            return True
        picks = draw.get_by_test_id("pick")
        chosen = [
            picks.nth(0).get_attribute("data-card") or "",
            picks.nth(4).get_attribute("data-card") or "",
        ]
        picks.nth(0).click()
        picks.nth(4).click()
        expect(turn.get_by_test_id("discard")).to_have_text("Re-roll 2")
        both_widths(page, "dice-re-roll")
        turn.get_by_test_id("discard").click()
        rolled.append(chosen)
        return True

    hand = play_hand(page, live, frames, on_turn)
    assert rolled
    mine = [e for e in frames.events("cards_drawn") if e["seat"] == ME and e["hand_number"] == hand]
    assert mine[0]["count"] == 2 and mine[0]["face_up"] and mine[0]["discarded"] == rolled[0]
    PageLog.of(page).assert_clean(live.url)


VIEWED = {"stud": (5, 7, 4), "27td": (4, 5, 0)}
"""Games replayed in the viewer: seats at the table, our cards at the end, how many up."""


@pytest.mark.parametrize("key", VIEWED)
def test_the_hand_viewer_replays_a_hand_of_stud_and_of_a_draw_game(
    game_table: Callable[[str, int], LiveServer], page: Page, key: str
) -> None:
    seats, cards, up = VIEWED[key]
    live = game_table(key, seats)
    frames = Frames().watch(page)
    sit(page, live)
    hand = play_hand(page, live, frames, lambda turn: False)
    page.get_by_role("link", name="My hands").click()
    page.locator("tr[data-hand]").first.get_by_test_id("replay").click()
    viewer = page.get_by_test_id("viewer")
    expect(viewer.get_by_test_id("game")).to_contain_text(engine.game(key).name)
    expect(viewer).to_contain_text(f"#{hand}")
    step = viewer.get_by_test_id("step")
    total = int(step.inner_text().split(" / ")[1])
    while int(step.inner_text().split(" / ")[0]) < total:
        viewer.get_by_test_id("next").click()
    # Our hand at the end, every card face up to us, stud's up cards standing high.
    mine = seat_cards(page, ME)
    assert len(mine) == cards and "hidden" not in mine, mine
    expect(page.locator(f"[data-testid=cards-{ME}] .card.up")).to_have_count(up)
    # Every seat's final hand: the cards it showed, or its backs.
    for e in frames.events("cards_shown"):
        if e["hand_number"] == hand:
            assert seat_cards(page, e["seat"]) == e["cards"], e
    expect(page.get_by_test_id("results")).to_be_visible()
    both_widths(page, f"viewer-{key}")
    PageLog.of(page).assert_clean(live.url)


# -- hands dealt by the engine ---------------------------------------------------------------


def engine_hand(key: str, seed: int) -> dict[str, Any]:
    """A hand of game ``key`` between three players who check and call, from a deck
    shuffled with ``seed``, as the hand viewer gets it (seen from seat 0)."""
    game = engine.game(key)
    table = Table(config(key, 3))
    for seat in range(3):
        table.sit_down(seat, 10_000)
    events = list(table.start_hand(Deck.shuffled(random.Random(seed), game.deck)))
    bot = Steady()
    while table.hand_in_progress and table.to_act is not None:
        menu = table.legal_actions(table.to_act)
        assert menu is not None
        events += table.apply(bot.act(table.view(menu.seat), menu))
    cfg = table.config
    return {
        "table": "Scene", "hand_number": 1, "seat": 0,
        "players": [{"seat": s, "name": name} for s, name in enumerate(("alice", "bob", "carol"))],
        "small_blind": cfg.small_blind, "big_blind": cfg.big_blind, "ante": cfg.ante,
        "small_bet": cfg.small_bet, "big_bet": cfg.big_bet, "bring_in": cfg.bring_in,
        "game": game.to_dict(),
        "events": [protocol.event_body(redact(e, 0)) for e in events],
    }  # fmt: skip


def find_hand(key: str, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    for seed in range(2_000):
        hand = engine_hand(key, seed)
        if wanted(hand):
            return hand
    raise AssertionError(f"no deal of {key} in 2,000 seeds has it")


def draw_stored_hand(page: Page, live: LiveServer, hand: dict[str, Any]) -> None:
    """Draw ``hand`` to its end with the page's table model and felt, as the viewer does."""
    page.goto(live.url)
    expect(page.get_by_test_id("tables")).not_to_have_text("Loading tables…")
    page.evaluate(
        """async (hand) => {
          const { TableModel } = await import("/model.js");
          const { drawTable } = await import("/table.js");
          const t = TableModel.replay(hand, hand.events.length);
          drawTable({ main: document.getElementById("main"), controlsKept: null, table: null }, t);
        }""",
        hand,
    )
    expect(page.get_by_test_id("room")).to_be_visible()


def test_jokers_are_drawn_as_jokers(live_server: LiveServer, page: Page) -> None:
    def joker_in_my_hand(hand: dict[str, Any]) -> bool:
        dealt = [e for e in hand["events"] if e["type"] == "hole_cards_dealt" and e["cards"]]
        return any(c.startswith("X") for c in dealt[0]["cards"])

    hand = find_hand("nlhe-wild2", joker_in_my_hand)
    draw_stored_hand(page, live_server, hand)
    jokers = page.locator(f"[data-testid=cards-{ME}] .card.joker")
    expect(jokers.first).to_contain_text("JOKER")
    expect(page.get_by_test_id("game")).to_have_text(re.compile("hold'em"))
    screenshot(page, "jokers")
    PageLog.of(page).assert_clean(live_server.url)


def test_a_split_pot_names_who_won_the_high_half_and_who_won_the_low(
    live_server: LiveServer, page: Page
) -> None:
    def split(hand: dict[str, Any]) -> bool:
        awards = [e for e in hand["events"] if e["type"] == "pot_awarded"]
        high = {s for e in awards if e["half"] == "high" for s, _ in e["shares"]}
        low = {s for e in awards if e["half"] == "low" for s, _ in e["shares"]}
        return bool(low) and high != low

    hand = find_hand("stud8", split)
    draw_stored_hand(page, live_server, hand)
    names = {p["seat"]: p["name"] for p in hand["players"]}
    for award in (e for e in hand["events"] if e["type"] == "pot_awarded"):
        line = page.locator(f"[data-testid=result][data-half={award['half']}]")
        expect(line.get_by_test_id("half")).to_have_text(award["half"].capitalize())
        for seat, amount in award["shares"]:
            expect(line).to_contain_text(f"{names[seat]} wins {amount:,}")
        expect(line).to_contain_text(f"{award['half']} half")
    # Seven cards a seat at the showdown, the up cards standing high.
    for seat in range(3):
        assert len(seat_cards(page, seat)) in (0, 7)
    both_widths(page, "stud-hi-lo-split")
    PageLog.of(page).assert_clean(live_server.url)
