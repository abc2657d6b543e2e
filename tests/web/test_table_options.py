"""Table options in the browser (docs/home-games.md, "Table options"), against a real
server: the host's form offers each option only for a game that may have it; run it
twice draws two boards, each with its half of the pot; after a hand, players show their
cards and anyone hunts the rabbit; a player straddles; a bomb pot is voted for, and the
host calls a double-board one; the host mutes a player and lets spectators chat; bots
are marked; the 7-2 bounty is in the results."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, ViewportSize, expect

import engine
from engine import ActionMenu, BetOrRaiseTo, CheckOrCall, TableConfig, TableView
from server.app import ServerSettings
from server.fairness import HandIdentity, Shuffle
from tests.web.conftest import SCREENSHOTS, LiveServer, PageLog, screenshot, serve_in_thread
from tests.web.test_client import STATIONS, sign_in
from tests.web.test_private_table import ask_for_a_seat, play_until

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
SPLIT_SEED = (3).to_bytes(32, "big")
"""A deck for hand 1 of table "demo" (heads up, all in preflop, run twice) whose runs
go one to each player: nobody busts, both seats stay in the pictures."""


class AllIn:
    """A house bot that goes all in whenever it may raise, and calls otherwise."""

    def act(self, view: TableView, menu: ActionMenu) -> engine.Action:
        if menu.can_raise:
            return BetOrRaiseTo(menu.seat, menu.max_raise_to)
        return CheckOrCall(menu.seat)


def heads_up(tmp_path: Path, **options: object) -> Iterator[LiveServer]:
    config = TableConfig(small_blind=50, big_blind=100, seats=2, **options)  # type: ignore[arg-type]
    settings = ServerSettings(house_think_seconds=0.01)
    with serve_in_thread(
        tmp_path / "options.db", bots={1: AllIn()}, config=config, settings=settings,
        show_seconds=10,
    ) as live:  # fmt: skip
        yield live


@pytest.fixture
def twice(tmp_path: Path) -> Iterator[LiveServer]:
    """Table "demo", heads up, run it twice: an all-in bot in seat 1, seat 0 free; 10 s
    after each hand to show cards."""
    yield from heads_up(tmp_path, run_it_twice=True)


def sit_heads_up(page: Page, live: LiveServer, name: str = "alice") -> None:
    sign_in(page, live, name)
    row = page.locator("tr[data-table=demo]")
    row.locator("input[name=buy_in]").fill("10000")
    row.get_by_test_id("sit").click()
    expect(page.get_by_test_id("room")).to_be_visible()


def test_the_host_form_offers_each_option_only_where_the_game_has_it(
    live_server: LiveServer, page: Page
) -> None:
    live = live_server
    sign_in(page, live, "hana")
    page.get_by_text("Host a private game").click()
    form = page.get_by_test_id("host-form")
    offered: dict[str, list[str]] = page.evaluate(
        "async () => (await import('/format.js')).catalogue.table_options"
    )
    games = form.locator("select[name=game] option").evaluate_all("(os) => os.map((o) => o.value)")
    assert games == [k for k, g in engine.GAMES.items() if g.blinds]  # the host form's games
    assert list(offered) == list(engine.GAMES)  # the server's catalogue: every game
    for key, allowed in offered.items():  # the engine's rule, for every game
        g = engine.game(key)
        rules = (("straddle", g.straddles), ("bomb_pot", g.bomb_pots),
                 ("run_it_twice", g.runs_twice), ("seven_deuce", g.seven_deuce))  # fmt: skip
        assert allowed == [name for name, ok in rules if ok], key
    fields = {
        "straddle": form.locator("input[name=button_straddle]"),
        "bomb_pot": form.locator("input[name=bomb_pot]"),
        "run_it_twice": form.locator("input[name=run_it_twice]"),
        "seven_deuce": form.locator("input[name=seven_deuce]"),
    }
    for key in ("flhe", "plo", "27td", "nlhe"):
        form.locator("select[name=game]").select_option(key)
        for option, field in fields.items():
            if option in offered[key]:
                expect(field).to_be_visible()
            else:
                expect(field).to_be_hidden()
        expect(form.locator("input[name=show_seconds]")).to_be_visible()
    form.locator("input[name=name]").fill("Friday")
    form.locator("input[name=button_straddle]").check()
    form.locator("input[name=bomb_pot]").fill("10")
    form.locator("input[name=bomb_pot_every]").fill("5")
    form.locator("input[name=bomb_pot_boards]").check()
    form.locator("input[name=run_it_twice]").check()
    form.locator("input[name=seven_deuce]").fill("4")
    form.locator("input[name=show_seconds]").fill("6")
    form.screenshot(path=SCREENSHOTS / "home-options.png", animations="disabled")
    form.get_by_test_id("host-create").click()
    expect(page.get_by_test_id("host-panel")).to_be_visible()
    cfg = live.call(lambda: live.server.hosting.tables["friday"].core.table.config)
    assert (cfg.button_straddle, cfg.bomb_pot, cfg.bomb_pot_every, cfg.bomb_pot_boards) == (
        True,
        10,
        5,
        2,
    )
    assert (cfg.run_it_twice, cfg.seven_deuce) == (True, 4)
    assert live.call(lambda: live.server.hosting.tables["friday"].settings.show_seconds) == 6
    expect(page.get_by_test_id("table-options")).to_have_text(
        "Straddles (the button too) · Bomb pot 10 every 5 hands, two boards · Run it twice"
        " · 7-2 bounty 4"
    )
    PageLog.of(page).assert_clean(live.url)


def test_run_it_twice_draws_two_boards_each_with_its_half(
    twice: LiveServer, new_page: Callable[[], Page]
) -> None:
    live = twice
    live.call(
        lambda: setattr(
            live.runner.core,
            "new_shuffle",
            lambda table, n: Shuffle(HandIdentity(table, n), SPLIT_SEED),
        )
    )
    page, watcher = new_page(), new_page()
    sit_heads_up(page, live)
    watcher.goto(f"{live.url}#/table/demo")
    expect(page.get_by_test_id("bot-1")).to_have_text("BOT")
    expect(page.get_by_test_id("table-options")).to_have_text("Straddles · Run it twice")
    deadline = time.monotonic() + 30
    asked = False
    while not page.get_by_test_id("boards").count():
        assert time.monotonic() < deadline, "no hand was run twice"
        turn = page.get_by_test_id("your-turn")
        if turn.count() and turn.is_visible():
            if turn.get_by_test_id("rit-yes").count():
                expect(turn).to_contain_text("Run it twice?")
                expect(page.get_by_test_id("rit-countdown")).to_have_text(
                    re.compile(r"^\d+s: no answer is no$")
                )
                screenshot(page, "run-twice-asked")
                turn.get_by_test_id("rit-yes").click()
                asked = True
            else:
                for action in ("call", "check"):
                    if turn.get_by_test_id(action).count():
                        turn.get_by_test_id(action).click()
                        break
        time.sleep(0.05)
    assert asked
    for p in (page, watcher):
        boards = p.get_by_test_id("boards")
        expect(boards.locator("[data-testid=board-0] [data-card]")).to_have_count(5)
        expect(boards.locator("[data-testid=board-1] [data-card]")).to_have_count(5)
        expect(boards.locator(".board-label")).to_have_text(["Run 1", "Run 2"])
        expect(p.get_by_test_id("board-won-0")).to_be_visible()
        expect(p.get_by_test_id("board-won-1")).to_be_visible()
        expect(p.get_by_test_id("log")).to_contain_text("agrees to run it twice")
    first = (
        page.get_by_test_id("board-0")
        .locator("[data-card]")
        .evaluate_all("(cs) => cs.map((c) => c.dataset.card)")
    )
    second = (
        page.get_by_test_id("board-1")
        .locator("[data-card]")
        .evaluate_all("(cs) => cs.map((c) => c.dataset.card)")
    )
    assert len(set(first) | set(second)) > 5  # the runs share what was dealt before them only
    results = page.get_by_test_id("result-board")
    expect(results.first).to_have_text("run 1")
    expect(results.last).to_have_text("run 2")
    # The seeded deck: alice takes the first run, the bot the second; half the pot each.
    expect(page.get_by_test_id("board-won-0")).to_have_text("alice +10,000")
    expect(page.get_by_test_id("board-won-1")).to_have_text("house-2 +10,000")
    expect(page.get_by_test_id("stack-1")).to_have_text("10,000")
    # The pictures in docs/home-games.md, while the pause after the hand keeps the boards.
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=SCREENSHOTS / "home-run-twice-1280.png", animations="disabled")
    page.set_viewport_size(PHONE)
    page.screenshot(
        path=SCREENSHOTS / "home-run-twice-390.png", animations="disabled", full_page=True
    )
    # On a phone both runs fit inside the felt.
    felt = page.locator(".felt").bounding_box()
    for i in (0, 1):
        box = page.get_by_test_id(f"board-{i}").bounding_box()
        assert (
            felt
            and box
            and felt["x"] <= box["x"]
            and box["x"] + box["width"] <= felt["x"] + felt["width"]
        )
    page.set_viewport_size(DESKTOP)
    for p in (page, watcher):
        PageLog.of(p).assert_clean(live.url)


def test_after_a_hand_players_show_cards_and_anyone_hunts_the_rabbit(
    twice: LiveServer, new_page: Callable[[], Page]
) -> None:
    live = twice
    page, watcher = new_page(), new_page()
    sit_heads_up(page, live)
    watcher.goto(f"{live.url}#/table/demo")
    turn = page.get_by_test_id("your-turn")
    expect(turn).to_be_visible(timeout=10_000)
    expect(page.get_by_test_id("street")).to_have_text("Preflop")
    mine = (
        page.get_by_test_id("cards-0")
        .locator("[data-card]")
        .evaluate_all("(cs) => cs.map((c) => c.dataset.card)")
    )
    turn.get_by_test_id("fold").click()  # the hand is over before the flop
    after = page.get_by_test_id("after-hand")
    expect(after.get_by_test_id("show-card")).to_have_count(2)
    expect(after.get_by_test_id("show-all")).to_have_text("Show both")
    # The watcher may hunt the rabbit; nobody watching may show a player's cards.
    expect(watcher.get_by_test_id("show-card")).to_have_count(0)
    watcher.get_by_test_id("rabbit-hunt").click()
    for p in (page, watcher):
        rabbit = p.get_by_test_id("rabbit")
        expect(rabbit.locator("[data-card]")).to_have_count(5)
        expect(rabbit).to_have_attribute("title", re.compile("not part of the hand"))
        expect(p.get_by_test_id("log")).to_contain_text("(not part of the hand)")
    expect(page.get_by_test_id("rabbit-hunt")).to_have_count(0)  # once a hand
    after.locator(f"[data-testid=show-card][data-card='{mine[0]}']").click()
    expect(watcher.get_by_test_id("cards-0").locator(f"[data-card='{mine[0]}']")).to_have_class(
        re.compile("revealed")
    )
    expect(watcher.get_by_test_id("cards-0").locator("[data-card=hidden]")).to_have_count(1)
    expect(page.get_by_test_id("show-card")).to_have_count(1)  # the other card is left
    page.get_by_test_id("show-card").click()
    expect(watcher.get_by_test_id("cards-0").locator(".revealed")).to_have_count(2)
    expect(watcher.get_by_test_id("results")).to_contain_text("alice shows")
    watcher.locator(".table-screen").screenshot(
        path=SCREENSHOTS / "home-rabbit.png", animations="disabled"
    )
    # The pause ends with the next hand: the buttons go.
    expect(page.get_by_test_id("after-hand")).to_have_count(0, timeout=12_000)
    for p in (page, watcher):
        PageLog.of(p).assert_clean(live.url)


@pytest.fixture
def stations(tmp_path: Path) -> Iterator[LiveServer]:
    """Table "demo", 4 seats: three calling stations, seat 3 free; straddles allowed."""
    settings = ServerSettings(house_think_seconds=0.01)
    with serve_in_thread(tmp_path / "str.db", bots=STATIONS, seats=4, settings=settings) as live:
        yield live


def test_a_player_straddles_under_the_gun(
    stations: LiveServer, new_page: Callable[[], Page]
) -> None:
    live = stations
    page, watcher = new_page(), new_page()
    sign_in(page, live, "alice")
    row = page.locator("tr[data-table=demo]")
    row.locator("input[name=buy_in]").fill("10000")
    row.get_by_test_id("sit").click()
    watcher.goto(f"{live.url}#/table/demo")
    for n in range(3):
        expect(watcher.get_by_test_id(f"bot-{n}")).to_have_text("BOT")
    expect(watcher.get_by_test_id("bot-3")).to_have_count(0)
    toggle = page.get_by_test_id("straddle-toggle")
    expect(toggle).to_have_text("Straddle: off")
    toggle.click()
    expect(toggle).to_have_text("Straddle: on")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(watcher.get_by_test_id("straddle-3")).to_have_text("straddles")
    assert live.call(
        lambda: next(s for s in live.runner.core.table.view(None).seats if s.seat == 3).straddle
    )
    # Play on until alice is under the gun: she posts the straddle, 200.
    posted = re.compile(r"alice posts a straddle of 200")
    deadline = time.monotonic() + 60
    while not posted.search(watcher.get_by_test_id("log").inner_text()):
        assert time.monotonic() < deadline, "alice never straddled"
        turn = page.get_by_test_id("your-turn")
        if turn.count() and turn.is_visible():
            for action in ("check", "call"):
                if turn.get_by_test_id(action).count():
                    turn.get_by_test_id(action).click()
                    break
        time.sleep(0.05)
    toggle.click()
    expect(toggle).to_have_text("Straddle: off")
    expect(watcher.get_by_test_id("straddle-3")).to_have_count(0)
    expect(watcher.get_by_test_id("log")).to_contain_text("alice stops straddling")
    for p in (page, watcher):
        PageLog.of(p).assert_clean(live.url)


def test_a_bomb_pot_vote_and_the_hosts_double_board_bomb_pot(
    live_server: LiveServer, new_page: Callable[[], Page]
) -> None:
    live = live_server
    hana, bob = new_page(), new_page()
    sign_in(hana, live, "hana")
    hana.get_by_text("Host a private game").click()
    form = hana.get_by_test_id("host-form")
    form.locator("input[name=name]").fill("Friday")
    form.locator("input[name=bomb_pot]").fill("10")
    form.locator("input[name=show_seconds]").fill("1")
    form.get_by_test_id("host-create").click()
    link = hana.get_by_test_id("invite-link").input_value()
    ask_for_a_seat(bob, link, "bob", 200)
    hana.get_by_test_id("host-requests").locator("li[data-player=bob]").get_by_test_id(
        "approve"
    ).click()
    expect(bob.get_by_test_id("bomb-vote")).to_be_visible()
    # Two seated: a bomb pot needs both votes.
    bob.get_by_test_id("bomb-vote").click()
    expect(hana.get_by_test_id("bomb-vote")).to_have_text("Vote bomb pot (1/2)")
    expect(bob.get_by_test_id("bomb-vote")).to_have_attribute("aria-pressed", "true")
    bob.get_by_test_id("bomb-vote").click()  # taken back
    expect(hana.get_by_test_id("bomb-vote")).to_have_text("Vote bomb pot (0/2)")

    # The host's controls: mute, spectators' chat, a double-board bomb pot next hand.
    panel = hana.get_by_test_id("host-panel")
    panel.locator("li[data-player=bob]").get_by_test_id("host-mute").click()
    expect(bob.get_by_test_id("log")).to_contain_text("hana (host): bob is muted")
    table = live.call(lambda: live.server.hosting.tables["friday"].core)
    assert live.call(lambda: "bob" in table.chat.muted)
    panel.locator("li[data-player=bob]").get_by_test_id("host-unmute").click()
    expect(bob.get_by_test_id("log")).to_contain_text("hana (host): bob may chat again")
    assert live.call(lambda: "bob" not in table.chat.muted)
    panel.get_by_test_id("host-spectator-chat").click()
    expect(bob.get_by_test_id("log")).to_contain_text("hana (host): spectators may chat")
    expect(panel.get_by_test_id("host-spectator-chat")).to_have_text("Spectators may chat: yes")
    assert live.call(lambda: table.chat.spectators_may_chat)
    panel.get_by_test_id("host-bomb-boards").check()
    panel.get_by_test_id("host-bomb-pot").click()
    expect(bob.get_by_test_id("log")).to_contain_text("hana (host): bomb pot next hand, two boards")
    pages = [hana, bob]
    play_until(pages, lambda: bool(bob.get_by_test_id("boards").count()), timeout=60)
    expect(bob.get_by_test_id("bomb-pot")).to_have_text("Bomb pot · two boards")
    expect(bob.get_by_test_id("log")).to_contain_text("Bomb pot: everyone antes 10")
    expect(bob.get_by_test_id("boards").locator(".board-label")).to_have_text(
        ["Board 1", "Board 2"]
    )
    expect(bob.get_by_test_id("board-0").locator("[data-card]:not(.slot)")).to_have_count(3)
    expect(bob.get_by_test_id("board-1").locator("[data-card]:not(.slot)")).to_have_count(3)
    play_until(pages, lambda: bool(bob.get_by_test_id("board-won-1").count()), timeout=60)
    expect(bob.get_by_test_id("board-won-0")).to_be_visible()
    screenshot(bob, "home-double-board")
    for p in pages:
        PageLog.of(p).assert_clean(live.url)


NAMES = ("ann", "bob", "cy")


@pytest.fixture
def empty(tmp_path: Path) -> Iterator[LiveServer]:
    """Table "demo" with nobody at it: nothing happens there unless a test says so."""
    with serve_in_thread(tmp_path / "empty.db", bots={}) as live:
        yield live


def test_the_seven_deuce_bounty_and_cards_shown_are_in_the_results(
    empty: LiveServer, page: Page
) -> None:
    """The events of a hand won with 7-2, given to the page's model of an empty table (no
    hand of the server's interferes)."""
    live_server = empty
    page.goto(f"{live_server.url}#/table/demo")
    expect(page.get_by_test_id("room")).to_be_visible()
    seat: dict[str, object] = {"stack": 1000, "in_hand": False, "folded": False, "all_in": False,
            "street_total": 0, "hand_total": 0, "sitting_out": False,
            "waiting_for_big_blind": False, "has_cards": False, "cards": None, "up_cards": [],
            "bot": False, "straddle": False, "shown_cards": []}  # fmt: skip
    seats = [{**seat, "seat": n, "name": name} for n, name in enumerate(NAMES)]
    view = {"hand_number": 7, "hand_in_progress": False, "street": None, "board": [],
            "boards": [], "pots": [], "button": 0, "to_act": None, "viewer": None, "menu": None,
            "seats": seats}  # fmt: skip

    def acted(n: int, kind: str, put: int) -> dict[str, object]:
        return {"type": "action_taken", "seat": n, "kind": kind, "street": "preflop",
                "increment": put, "street_total": put, "hand_total": put,
                "stack": 1000 - put, "all_in": False}  # fmt: skip

    events = [
        {"type": "hand_started", "hand_number": 8, "button": 0, "seats": [1, 2, 0],
         "stacks": [1000] * 3, "small_blind": 5, "big_blind": 10, "ante": 0,
         "big_blind_seat": 2},
        *({"type": "hole_cards_dealt", "seat": n, "cards": None} for n in (1, 2, 0)),
        acted(0, "raise", 30), acted(1, "fold", 0), acted(2, "fold", 0),
        {"type": "pot_awarded", "pot": 0, "amount": 30, "eligible": [0], "shares": [[0, 30]],
         "rank": 0, "description": ""},
        {"type": "hand_ended", "hand_number": 8,
         "stacks": [[1, 1000], [2, 1000], [0, 1000]], "board": []},
        {"type": "cards_revealed", "seat": 0, "cards": ["7h", "2c"]},
        {"type": "bounty_paid", "seat": 0, "bounty": 100, "payers": [[1, 100], [2, 100]],
         "amount": 200, "stack": 1200},
    ]  # fmt: skip
    page.evaluate(
        """([view, events]) => { const t = window.pokerroom.table;
          const options = { seven_deuce: 100, show_seconds: 5 };
          t.setSnapshot({ seq: t.seq, summary: { ...t.summary, options }, view });
          for (const e of events) t.apply(e);
          window.pokerroom.draw(); }""",
        [view, events],
    )
    expect(page.get_by_test_id("bounty")).to_have_text(
        "ann wins the 7-2 bounty: 200 (bob 100, cy 100)"
    )
    expect(page.get_by_test_id("stack-0")).to_have_text("1,200")
    expect(page.get_by_test_id("stack-1")).to_have_text("900")
    expect(page.get_by_test_id("cards-0").locator(".revealed")).to_have_count(2)
    expect(page.get_by_test_id("log")).to_contain_text("ann shows 7h 2c")
    # The log says it as the results do: who wins what, from which pot.
    expect(page.get_by_test_id("log")).to_contain_text("ann wins 30 from the main pot")
    expect(page.get_by_test_id("table-options")).to_have_text("7-2 bounty 100")
    PageLog.of(page).assert_clean(live_server.url)


def test_the_lobbys_create_form_offers_the_same_options(empty: LiveServer, page: Page) -> None:
    """A public table takes the table options too, from one definition with the host's
    form: each where the game has it, none for a mixed game; its pause defaults to 0."""
    live = empty
    sign_in(page, live, "alice")
    page.get_by_text("Create a table").click()
    form = page.locator(".create:not(.host-create) form")
    options = form.get_by_test_id("create-options")
    form.get_by_test_id("game-choice").select_option("stud")
    expect(options.locator("[data-option=straddle]")).to_be_hidden()
    expect(options.locator("[data-option=show]")).to_be_visible()
    form.get_by_test_id("game-choice").select_option("mix:horse")
    expect(options).to_be_hidden()
    form.get_by_test_id("game-choice").select_option("nlhe")
    expect(options.locator("input[name=show_seconds]")).to_have_value("0")
    form.locator("input[name=name]").fill("Options")
    options.locator("input[name=run_it_twice]").check()
    options.locator("input[name=seven_deuce]").fill("50")
    form.get_by_role("button", name="Create").click()
    expect(page).to_have_url(re.compile(r"#/table/options$"))
    runner = live.call(lambda: live.server.hosting.tables["options"])
    cfg = runner.core.table.config
    assert (cfg.run_it_twice, cfg.seven_deuce, cfg.bomb_pot, runner.settings.show_seconds) == (
        True,
        50,
        0,
        0,
    )
    expect(page.get_by_test_id("table-options")).to_contain_text("Run it twice · 7-2 bounty 50")
    PageLog.of(page).assert_clean(live.url)
