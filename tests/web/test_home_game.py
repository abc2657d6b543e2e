"""A whole home game in the browser (docs/home-games.md), against a real server, with six
people each in a browser context of their own: hana hosts, bob, cy and dan are let in,
eve is not, and sam watches through the link.

One hand after another, as a night goes:

- hana hosts a private game from the lobby's form (run it twice, straddles: hold'em has
  them), pauses it, and shares the link; four people ask for a seat with it; she lets
  three in and says no to eve, who is told so.
- Hand 1: bob switches Straddle on; hana gives dan +100 chips mid-hand, which change
  nothing until the hand is over (the plate, the server, the stored hand), then land.
- Hand 2: cy reloads mid-hand and keeps the seat and the same hole cards; bob is not
  under the gun, so no straddle.
- Hand 3: bob is under the gun and posts the straddle: the hand log, the STR badge, the
  stored hand's ``blinds_or_straddles``. The host's screen, for docs/home-games.md.
- Hand 4 (a fixed deck): cy goes all in, dan calls, both say yes to "Run it twice?": two
  runs, one to each; the stored hand has the two runs.
- Settle up: the ledger's nets sum to 0 (dan's buy-in counts the host's chips), at most
  n - 1 transfers settle everyone, and the CSV downloads in PokerNow's columns.
- sam's page never received a hole card before it was shown: every websocket frame it
  got, checked against the cards the stored hands say were dealt.
"""

from __future__ import annotations

import json
import re
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize, WebSocket, expect

from engine.history import HandHistory
from server.fairness import HandIdentity, Shuffle
from server.tables import TableCore
from tests.web.conftest import SCREENSHOTS, LiveServer, PageLog, serve_in_thread
from tests.web.test_private_table import FACE_UP, ask_for_a_seat, my_cards, play_until, sign_in
from tests.web.test_settle import downloaded_ledger

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
SEATS = {"hana": 0, "bob": 1, "cy": 2, "dan": 3}
"""The host sits first (seat 1); the others next to her, in the seats they ask for."""
RUN_TWICE_HAND = 4
RUN_TWICE_SEED = (7).to_bytes(32, "big")
"""The deck of hand 4 at table "friday": dan has the button, cy is under the gun. cy is
dealt 3s 3c and dan Qh 8h; all in before the flop and run twice, cy takes run 1 (three
threes on 9s 7h Qc 3h Jd) and dan run 2 (a pair of eights on Td 5h 2h Jc 8s)."""
CARD = re.compile(r"[2-9TJQKA][cdhs]")
COUNTDOWN = re.compile(r"^\d+s: no answer is no$")


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    """A server whose demo table is empty: only the home game deals."""
    with serve_in_thread(tmp_path / "home.db", bots={}) as live:
        yield live


def test_a_home_game_from_the_link_to_settling_up(
    live: LiveServer, new_page: Callable[[], Page]
) -> None:
    hana, bob, cy, dan, eve, sam = (new_page() for _ in range(6))
    frames = watch_frames(sam)

    # hana hosts; the table waits (paused) while her friends come in.
    sign_in(hana, live, "hana")
    link = host_a_game(hana)
    hana.get_by_test_id("host-pause").click()
    expect(hana.get_by_test_id("host-resume")).to_be_visible()
    table: TableCore = live.call(lambda: live.server.hosting.tables["friday"].core)
    live.call(lambda: setattr(table, "new_shuffle", fixed_deck))
    sam.goto(link)  # a spectator: the link, then the table's page (the invite is kept)
    expect(sam.get_by_test_id("join-table")).to_contain_text("Friday: ")
    sam.goto(f"{live.url}#/table/friday")
    expect(sam.get_by_test_id("seat-0")).to_contain_text("hana")

    asking = ((bob, "bob", 200), (cy, "cy", 150), (dan, "dan", 300), (eve, "eve", 250))
    for page, name, buy_in in asking:  # each asks for the seat they are given (eve: any)
        ask_for_a_seat(page, link, name, buy_in, SEATS.get(name))
    requests = hana.get_by_test_id("host-requests")
    expect(requests.locator("li")).to_have_count(4)
    for name in ("bob", "cy", "dan"):
        requests.locator(f"li[data-player={name}]").get_by_test_id("approve").click()
        expect(requests.locator(f"li[data-player={name}]")).to_have_count(0)
    requests.locator("li[data-player=eve]").get_by_test_id("reject").click()
    expect(eve.get_by_test_id("table-error")).to_contain_text("The host said no")
    expect(hana.get_by_text("No one is asking for a seat.")).to_be_visible()
    assert live.call(lambda: {n: s.player.name for n, s in table.seats.occupants.items()}) == {
        n: name for name, n in SEATS.items()
    }
    for name, page in (("bob", bob), ("cy", cy), ("dan", dan)):
        expect(page.get_by_test_id(f"seat-{SEATS[name]}")).to_have_class(re.compile(r"\bmine\b"))
    players = {"hana": hana, "bob": bob, "cy": cy, "dan": dan}
    pages = list(players.values())

    hana.get_by_test_id("host-resume").click()
    hand_1_chips_wait_for_the_next_hand(live, table, players, sam, frames)
    hand_2_a_reload_keeps_the_seat_and_cards(live, table, cy, pages)
    hand_3_bob_straddles(live, table, hana, sam, pages)
    hand_4_run_twice(live, table, players, sam)
    settle_up(live, table, hana)
    no_hole_card_before_it_was_shown(live, frames)
    for page in (*pages, eve, sam):
        PageLog.of(page).assert_clean(live.url)


# -- the steps -----------------------------------------------------------------------------


def host_a_game(hana: Page) -> str:
    """The lobby's form: hold'em 1/2, run it twice, 10 s to act, 1 s to show cards."""
    hana.get_by_text("Host a private game").click()
    form = hana.get_by_test_id("host-form")
    form.locator("input[name=name]").fill("Friday")
    form.locator("input[name=decision_seconds]").fill("10")
    form.locator("input[name=run_it_twice]").check()
    form.locator("input[name=show_seconds]").fill("1")
    form.get_by_test_id("host-create").click()
    expect(hana.get_by_test_id("host-panel")).to_be_visible()
    expect(hana.get_by_test_id("table-options")).to_have_text("Straddles · Run it twice")
    link = hana.get_by_test_id("invite-link").input_value()
    assert "#/join/friday/" in link
    return link


def hand_1_chips_wait_for_the_next_hand(
    live: LiveServer,
    table: TableCore,
    players: dict[str, Page],
    sam: Page,
    frames: list[str | bytes],
) -> None:
    hana, bob, dan = players["hana"], players["bob"], players["dan"]
    live.wait_until(lambda: table.table.hand_in_progress)
    assert live.call(lambda: table.table.hand_number) == 1
    # bob opts in to straddling: from the next hand where he is under the gun (hand 3).
    toggle = bob.get_by_test_id("straddle-toggle")
    expect(toggle).to_have_text("Straddle: off")
    toggle.click()
    expect(toggle).to_have_text("Straddle: on")
    expect(sam.get_by_test_id(f"straddle-{SEATS['bob']}")).to_have_text("straddles")

    # Mid-hand, hana gives dan 100 chips: nothing moves before the hand is over.
    dan_seat = SEATS["dan"]
    row = hana.get_by_test_id("host-players").locator("li[data-player=dan]")
    expect(row).to_contain_text("dan · 300")
    row.get_by_test_id("chips-amount").fill("100")
    row.get_by_test_id("chips-add").click()
    for page in (dan, sam):
        expect(page.get_by_test_id("log")).to_contain_text(
            "hana (host): +100 chips for dan, from the next hand"
        )
    assert live.call(lambda: table.table.hand_in_progress and table.table.hand_number == 1)
    assert live.call(lambda: table.table.stack(dan_seat)) == 300  # dan is under the gun: not acted
    for page in (dan, sam):
        expect(page.get_by_test_id(f"stack-{dan_seat}")).to_have_text("300")
    expect(row).to_contain_text("dan · 300")

    play_until(list(players.values()), hand_dealt(live, table, 2))
    first = stored_hand(live, 1)
    assert first.starting["dan"] == 300  # hand 1 was dealt without the chips
    second = stacks_dealt(sam, frames, 2)  # what everyone watching was told
    assert second[dan_seat] == first.finishing["dan"] + 100  # hand 2 with them
    # dan is the big blind of hand 2: what his plate shows is what he has at the table.
    now = live.call(lambda: table.table.stack(dan_seat))
    assert now <= second[dan_seat] - 2
    expect(dan.get_by_test_id(f"stack-{dan_seat}")).to_have_text(f"{now:,}")
    ledger = live.run(live.server.store.ledger_sessions("friday"))
    assert next(s for s in ledger if s.nickname == "dan").buy_in == 400


def hand_2_a_reload_keeps_the_seat_and_cards(
    live: LiveServer, table: TableCore, cy: Page, pages: list[Page]
) -> None:
    me = SEATS["cy"]
    mine = cy.get_by_test_id(f"cards-{me}").locator(FACE_UP)
    expect(mine).to_have_count(2)
    before = my_cards(cy, me)
    dealt = live.call(lambda: next(s for s in table.table.view(me).seats if s.seat == me).cards)
    assert dealt is not None and sorted(before) == sorted(map(str, dealt))
    cy.reload()
    expect(mine).to_have_count(2)
    assert my_cards(cy, me) == before
    expect(cy.get_by_test_id(f"seat-{me}")).to_have_class(re.compile(r"\bmine\b"))
    assert live.call(lambda: (table.table.hand_number, table.seats.occupants[me].player.name)) == (
        2,
        "cy",
    )
    play_until(pages, hand_dealt(live, table, 3))
    # bob had the button in hand 2, not the gun: nobody straddled.
    second, first = stored_hand(live, 2), stored_hand(live, 1)
    assert max(second.history.blinds_or_straddles) == 2
    assert second.starting["dan"] == first.finishing["dan"] + 100


def hand_3_bob_straddles(
    live: LiveServer, table: TableCore, hana: Page, sam: Page, pages: list[Page]
) -> None:
    bob = SEATS["bob"]
    expect(sam.get_by_test_id("log")).to_contain_text("bob posts a straddle of 4")
    for page in (hana, sam):
        badge = page.get_by_test_id(f"seat-{bob}").locator(".badge.straddle")
        expect(badge).to_have_text("STR")
        expect(page.get_by_test_id(f"bet-{bob}")).to_have_text("4")
    # The host's screen mid-hand, for docs/home-games.md.
    expect(hana.get_by_test_id("host-players").locator("li")).to_have_count(3)
    hana.screenshot(path=SCREENSHOTS / "home-host-1280.png", full_page=True, animations="disabled")
    hana.set_viewport_size(PHONE)
    hana.screenshot(path=SCREENSHOTS / "home-host-390.png", full_page=True, animations="disabled")
    hana.set_viewport_size(DESKTOP)
    # Paused after this hand: nobody's clicks reach into hand 4, played by its own rules.
    hana.get_by_test_id("host-pause").click()
    expect(hana.get_by_test_id("host-resume")).to_be_visible()
    play_until(pages, lambda: live.call(lambda: not table.table.hand_in_progress))
    third = stored_hand(live, 3)
    assert third.history.blinds_or_straddles[third.players.index("bob")] == 4
    assert sorted(third.history.blinds_or_straddles) == [0, 1, 2, 4]


def hand_4_run_twice(
    live: LiveServer, table: TableCore, players: dict[str, Page], sam: Page
) -> None:
    hana, cy = players["hana"], players["cy"]
    hana.get_by_test_id("host-resume").click()
    live.wait_until(lambda: table.table.hand_in_progress)
    assert live.call(lambda: table.table.hand_number) == RUN_TWICE_HAND
    # Pause after this hand: the two runs stay on the felt for the pictures.
    hana.get_by_test_id("host-pause").click()
    expect(hana.get_by_test_id("host-resume")).to_be_visible()
    asked: set[str] = set()
    deadline = time.monotonic() + 20
    while not sam.get_by_test_id("board-won-1").count():
        assert time.monotonic() < deadline, "the hand was not run twice"
        for name, page in players.items():
            turn = page.get_by_test_id("your-turn")
            if not (turn.count() and turn.is_visible()):
                continue
            if turn.get_by_test_id("rit-yes").count():
                expect(turn).to_contain_text("Run it twice?")
                expect(page.get_by_test_id("rit-countdown")).to_have_text(COUNTDOWN)
                turn.get_by_test_id("rit-yes").click()
                asked.add(name)
            elif name == "cy":  # under the gun: all in
                turn.get_by_test_id("all-in").click()
                expect(turn.get_by_test_id("raise")).to_contain_text("(all in)")
                turn.get_by_test_id("raise").click()
            elif name == "dan":
                turn.get_by_test_id("call").click()
            else:
                turn.get_by_test_id("fold").click()
        time.sleep(0.05)
    assert asked == {"cy", "dan"}
    for page in (cy, sam):
        boards = page.get_by_test_id("boards")
        expect(boards.locator(".board-label")).to_have_text(["Run 1", "Run 2"])
        expect(boards.locator("[data-testid=board-0] [data-card]")).to_have_count(5)
        expect(boards.locator("[data-testid=board-1] [data-card]")).to_have_count(5)
        expect(page.get_by_test_id("board-won-0")).to_have_text(re.compile(r"^cy \+[\d,]+$"))
        expect(page.get_by_test_id("board-won-1")).to_have_text(re.compile(r"^dan \+[\d,]+$"))
        for name in ("cy", "dan"):
            expect(page.get_by_test_id("log")).to_contain_text(f"{name} agrees to run it twice")
    halves = [number(sam.get_by_test_id(f"board-won-{i}").inner_text().split()[1]) for i in (0, 1)]
    runs = [cards_of(sam, f"board-{i}") for i in (0, 1)]
    assert runs == [["9s", "7h", "Qc", "3h", "Jd"], ["Td", "5h", "2h", "Jc", "8s"]]
    for name, cards in (("cy", ["3s", "3c"]), ("dan", ["Qh", "8h"])):  # shown when all in
        assert sorted(cards_of(sam, f"cards-{SEATS[name]}")) == sorted(cards)

    stored_with_two_runs(live, halves)

    # The pictures: kept in artifacts/ (tests/web/test_table_options.py makes the docs').
    cy.screenshot(path=artifact("home-game-run-twice-1280"), animations="disabled")
    cy.set_viewport_size(PHONE)
    cy.screenshot(path=artifact("home-game-run-twice-390"), full_page=True, animations="disabled")
    cy.set_viewport_size(DESKTOP)


def stored_with_two_runs(live: LiveServer, halves: list[int]) -> None:
    """The stored hand: both said yes, the board's rest was dealt twice, and each run
    paid its half of the pot."""
    fourth = stored_hand(live, RUN_TWICE_HAND)
    answers = fourth.history.fields["_run_it_twice"]
    assert len(answers) == 2 and all(a.endswith(" y") for a in answers)
    dealt = [chunks(a.split()[2]) for a in fourth.history.actions if a.startswith("d db ")]
    assert dealt == [["9s", "7h", "Qc"], ["3h"], ["Jd"], ["Td", "5h", "2h"], ["Jc"], ["8s"]]
    cy_start = fourth.starting["cy"]
    pot = 2 * cy_start + 1 + 2  # cy's stack, called, and the blinds folded
    assert sum(halves) == pot and abs(halves[0] - halves[1]) <= 1
    assert fourth.finishing["cy"] == halves[0]
    assert fourth.finishing["dan"] == fourth.starting["dan"] - cy_start + halves[1]


def settle_up(live: LiveServer, table: TableCore, hana: Page) -> None:
    live.wait_until(lambda: not table.table.hand_in_progress and not table.ledger_unrecorded)
    stacks = live.call(lambda: {name: table.table.stack(n) for name, n in SEATS.items()})
    assert sum(stacks.values()) == 400 + 200 + 150 + 300 + 100  # every chip bought is there
    hana.get_by_test_id("settle-up").click()
    dialog = hana.get_by_test_id("settle-dialog")
    rows = dialog.get_by_test_id("ledger-table").locator("tbody tr")
    expect(rows).to_have_count(4)
    expect(dialog.get_by_test_id("ledger-check")).to_have_attribute("data-sum", "0")
    nets: dict[str, int] = {}
    for row in rows.all():
        name = str(row.get_attribute("data-player"))
        buy_in, buy_out, stack, net = (number(row.locator(f"[data-stat={k}]").inner_text())
                                       for k in ("buy_in", "buy_out", "stack", "net"))  # fmt: skip
        assert stack == stacks[name] and buy_out == 0
        assert buy_in == {"hana": 400, "bob": 200, "cy": 150, "dan": 400}[name]
        assert net == buy_out + stack - buy_in
        nets[name] = net
    assert set(nets) == set(SEATS) and sum(nets.values()) == 0
    transfers = dialog.get_by_test_id("transfers").locator("li")
    assert transfers.count() <= len(nets) - 1
    owed = dict(nets)
    for t in transfers.all():
        payer, payee, amount = (str(t.get_attribute(f"data-{k}")) for k in ("from", "to", "amount"))
        expect(t).to_have_text(f"{payer} pays {payee} {int(amount):,}")
        owed[payer] += int(amount)
        owed[payee] -= int(amount)
    assert set(owed.values()) == {0}
    hana.screenshot(path=artifact("home-game-settle-1280"), animations="disabled")
    hana.set_viewport_size(PHONE)
    hana.screenshot(path=artifact("home-game-settle-390"), animations="disabled")
    hana.set_viewport_size(DESKTOP)

    lines = downloaded_ledger(hana, dialog, "friday-ledger.csv")
    assert {line["player_nickname"] for line in lines} == set(SEATS)
    assert sum(int(line["net"]) for line in lines) == 0
    by_name: dict[str, int] = defaultdict(int)
    for line in lines:
        by_name[line["player_nickname"]] += int(line["net"])
    assert by_name == nets
    dialog.get_by_test_id("settle-dialog-close").click()

    # The Stats panel, for a look (the docs' pictures are test_stats.py's).
    hana.get_by_test_id("table-stats").click()
    stats = hana.get_by_test_id("stats-card")
    expect(stats.get_by_test_id("stats-tonight").locator("tbody tr")).to_have_count(4)
    expect(stats.get_by_test_id("stats-all-time").locator("tbody tr")).to_have_count(4)
    hana.screenshot(path=artifact("home-game-stats-1280"), animations="disabled")
    hana.set_viewport_size(PHONE)
    hana.screenshot(path=artifact("home-game-stats-390"), animations="disabled")
    hana.set_viewport_size(DESKTOP)


def no_hole_card_before_it_was_shown(live: LiveServer, frames: list[str | bytes]) -> None:
    """Every frame sam's page received, against every hole card dealt (the stored hands
    keep them all): none arrived before its owner showed it."""
    holes = {n: {c for a in stored_hand(live, n).history.actions if a.startswith("d dh ")
                 for c in chunks(a.split()[3])} for n in range(1, RUN_TWICE_HAND + 1)}  # fmt: skip
    assert all(len(cards) == 8 for cards in holes.values())
    seen = watched(frames, holes)
    assert seen.started == [1, 2, 3, 4]  # sam watched every hand from its start
    assert seen.dealt == 4 * 4
    assert {"3s", "3c", "Qh", "8h"} <= seen.shown[RUN_TWICE_HAND]  # shown when all in


@dataclass
class Watched:
    """What a spectator's frames told, read in order by :func:`watched`."""

    shown: dict[int, set[str]] = field(default_factory=lambda: defaultdict(set))
    """Hand number -> the hole cards shown in it so far."""
    started: list[int] = field(default_factory=list)
    """The hands whose ``hand_started`` came."""
    dealt: int = 0
    """``hole_cards_dealt`` events (each with ``cards: null``)."""


def watched(frames: list[str | bytes], holes: dict[int, set[str]]) -> Watched:
    """Read a spectator's frames in order, with ``holes``, every hand's hole cards; fail
    at the first frame that holds a hole card not shown yet: in an event (``event``
    messages, a resume's ``missed``), in a snapshot's seats, or anywhere else in it."""
    seen = Watched()
    hand = 0  # the hand a frame is about, when it does not say
    for n, raw in enumerate(frames):
        message = json.loads(raw)
        where = f"frame {n}: {raw!r}"
        parts: list[tuple[int, Any]] = []  # (hand number, part of the message)
        items = [message] if message.get("type") == "event" else list(message.get("missed", ()))
        for item in items:
            hand, event = item["hand_number"], item["event"]
            if event["type"] == "hand_started":
                seen.started.append(event["hand_number"])
            if event["type"] == "hole_cards_dealt":
                assert event["cards"] is None, where
                seen.dealt += 1
            if event["type"] in ("cards_shown", "cards_revealed"):
                seen.shown[hand] |= set(event["cards"])
            parts.append((hand, item))
        if "view" in message:
            hand = message["view"]["hand_number"]
            for seat in message["view"]["seats"]:
                assert seat["cards"] is None or set(seat["cards"]) <= seen.shown[hand], where
                assert set(seat["shown_cards"]) <= seen.shown[hand], where
            parts.append((hand, message["view"]))
        if message.get("type") != "event":
            parts.append((hand, {k: v for k, v in message.items() if k not in ("missed", "view")}))
        for number, part in parts:
            leaked = (cards_in(part) & holes.get(number, set())) - seen.shown[number]
            assert not leaked, f"{where}: hole cards {sorted(leaked)} of hand {number}, not shown"
    return seen


# -- helpers -------------------------------------------------------------------------------


def hand_dealt(live: LiveServer, table: TableCore, number: int) -> Callable[[], bool]:
    """Whether hand ``number`` is being played."""
    return lambda: live.call(
        lambda: table.table.hand_number == number and table.table.hand_in_progress
    )


def fixed_deck(table: str, number: int) -> Shuffle:
    """The run-it-twice hand's deck is fixed; every other hand's is a fresh secret."""
    if number == RUN_TWICE_HAND:
        return Shuffle(HandIdentity(table, number), RUN_TWICE_SEED)
    return Shuffle.new(table, number)


def watch_frames(page: Page) -> list[str | bytes]:
    """Every websocket frame ``page`` receives, in order, from its first connection on."""
    frames: list[str | bytes] = []

    def on_frame(payload: str | bytes) -> None:
        frames.append(payload)

    def on_websocket(ws: WebSocket) -> None:
        ws.on("framereceived", on_frame)

    page.on("websocket", on_websocket)
    return frames


def stacks_dealt(page: Page, frames: list[str | bytes], number: int) -> dict[int, int]:
    """Seat -> stack at the start of hand ``number``, from the ``hand_started`` event
    ``page`` received (``frames``: all it received)."""
    expect(page.get_by_test_id("hand-number")).to_have_text(f"Hand #{number}")
    for raw in frames:
        m = json.loads(raw)
        started = m.get("type") == "event" and m["event"]["type"] == "hand_started"
        if started and m["hand_number"] == number:
            return dict(zip(m["event"]["seats"], m["event"]["stacks"], strict=True))
    raise AssertionError(f"no hand_started for hand {number}")


class Stored:
    """A stored hand: its PHH history, its players' names in PHH order, and their stacks
    at its start and end by name."""

    def __init__(self, history: HandHistory, players: tuple[str, ...]) -> None:
        self.history = history
        self.players = list(players)
        self.starting = dict(zip(players, map(int, history.starting_stacks), strict=True))
        assert history.finishing_stacks is not None
        self.finishing = dict(zip(players, map(int, history.finishing_stacks), strict=True))


def stored_hand(live: LiveServer, number: int) -> Stored:
    """Hand ``number`` of the home game, once it is stored."""

    async def read() -> Stored | None:
        for summary in await live.server.store.list_hands(limit=50):
            if summary.hand_number == number:
                info = (await live.server.store.stored_hand(summary.id)).info
                return Stored(info.history, info.players)
        return None

    deadline = time.monotonic() + 5
    while (found := live.run(read())) is None:
        assert time.monotonic() < deadline, f"hand {number} was not stored"
        time.sleep(0.05)
    return found


def cards_in(message: Any) -> set[str]:
    """Every string in a message that is a card's code."""
    if isinstance(message, dict):
        return set().union(*map(cards_in, message.values()))
    if isinstance(message, list):
        return set().union(*map(cards_in, message))
    return {message} if isinstance(message, str) and CARD.fullmatch(message) else set()


def chunks(cards: str) -> list[str]:
    """``"9s7hQc"`` -> ``["9s", "7h", "Qc"]``."""
    return [cards[i : i + 2] for i in range(0, len(cards), 2)]


def cards_of(page: Page, testid: str) -> list[str]:
    cards: list[str] = (
        page.get_by_test_id(testid)
        .locator("[data-card]")
        .evaluate_all("(cs) => cs.map((c) => c.dataset.card)")
    )
    return cards


def number(text: str) -> int:
    """``"1,250"``, ``"+1,250"`` or ``"−300"`` (a minus sign) as an int."""
    return int(text.replace(",", "").replace("+", "").replace("−", "-"))


def artifact(name: str) -> Path:
    """``artifacts/screenshots/<name>.png``: this run's pictures, not the docs'."""
    return SCREENSHOTS / f"{name}.png"
