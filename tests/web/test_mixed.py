"""Mixed games in Debian's headless Chromium, against a real server: a HORSE table that
changes game every hand, where a person plays hold'em and then razz (stud's layout), and
a dealer's choice table where the person picks the game in the page's picker and the next
hand plays it, while a spectator sees who is choosing. Both tables are created from the
lobby's form, as a player would, and filled with house bots. Screenshots at desktop
(1280x800) and phone (390x844) widths, which docs/browser.md shows."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

import engine
from server.app import ServerSettings
from tests.web.conftest import LiveServer, PageLog, serve_in_thread
from tests.web.test_games import Frames, Steady, both_widths, seat_cards
from tests.web.test_table_model import run_model


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    """A server whose demo table is empty; the tests create their own from the lobby."""
    settings = ServerSettings(house_think_seconds=0.01)
    with serve_in_thread(tmp_path / "mixed.db", bots={}, settings=settings) as served:
        yield served


def sign_in(page: Page, live: LiveServer, name: str) -> None:
    page.goto(live.url)
    page.fill("input[name=name]", name)
    page.click("[data-testid=play-as-guest]")
    expect(page.get_by_test_id("me")).to_have_text(name)


def create(page: Page, mix: str, table: str, **fields: str) -> Locator:
    """Fill the lobby's form for a table of ``mix`` ("horse", "choice"); returns the form,
    for the caller to look at and submit."""
    page.get_by_text("Create a table").click()
    form = page.locator(".create:not(.host-create) form")  # not the private game's form
    form.get_by_test_id("game-choice").select_option(f"mix:{mix}")
    form.locator("input[name=name]").fill(table)
    for name, value in fields.items():
        form.locator(f"input[name={name}]").fill(value)
    return form


def sit_and_fill(page: Page, live: LiveServer, table: str, bots: int) -> int:
    """Back at ``table`` from the lobby (its creator sits there already), then seat ``bots``
    steady house bots in the other seats; returns our seat."""
    page.get_by_role("link", name="Lobby", exact=True).click()
    page.locator(f"tr[data-table={table}]").get_by_test_id("watch").click()
    expect(page.get_by_test_id("room")).to_be_visible()
    page.wait_for_function("() => window.pokerroom.table?.mySeat()")
    me = int(page.evaluate("() => window.pokerroom.table.mySeat().seat"))
    runner = live.call(lambda: live.server.hosting.tables[table])
    free = [s for s in range(runner.core.table.config.seats) if s != me][:bots]
    house = {s: (f"house-{s + 1}", Steady()) for s in free}
    live.run(live.server.hosting.add_house_bots(runner, house, stack=10_000))
    return me


def play_until(page: Page, done: Callable[[Locator], bool], seconds: float = 60) -> Locator:
    """Play our turns (bring in, check, call, stand pat) until ``done(turn)`` at one of
    them; returns that turn's controls."""
    turn = page.get_by_test_id("your-turn")
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not turn.is_visible():
            page.wait_for_timeout(30)
            continue
        if done(turn):
            return turn
        for action in ("bring-in", "check", "call", "stand-pat"):
            button = turn.get_by_test_id(action)
            if button.count():
                button.click()
                break
    raise AssertionError(f"not done in {seconds} s")


def mix_line(page: Page) -> str:
    return page.get_by_test_id("mix").inner_text()


def test_a_horse_table_changes_game_every_hand_and_the_page_follows(
    live: LiveServer, page: Page, new_page: Callable[[], Page]
) -> None:
    sign_in(page, live, "alice")
    form = create(page, "horse", "HORSE night", small_bet="100", big_bet="200", every="1",
                  seats="4")  # fmt: skip
    # A mix takes its level and when it changes, and neither blinds nor a game's ante.
    expect(form.locator("input[name=big_blind]")).to_be_hidden()
    expect(form.locator("input[name=ante]")).to_be_hidden()
    expect(form.get_by_test_id("mix-games")).to_be_hidden()  # HORSE has its own games
    form.get_by_role("button", name="Create").click()
    expect(page).to_have_url(re.compile(r"#/table/horse-night$"))
    expect(page.get_by_test_id("mix")).to_have_text(
        "HORSE · Fixed-limit Texas hold'em · 1 hand left"
    )
    mix = live.call(lambda: live.server.hosting.tables["horse-night"].settings.mix)
    assert mix is not None and (mix.key, mix.hands) == ("horse", 1)
    page.get_by_role("link", name="Lobby", exact=True).click()
    row = page.locator("tr[data-table=horse-night]")
    expect(row.get_by_test_id("game")).to_have_text("HORSE (Limit hold'em)")
    expect(row.get_by_test_id("stakes")).to_have_text("100/200")
    both_widths(page, "mixed-lobby")
    me = sit_and_fill(page, live, "horse-night", bots=3)
    spectator = new_page()
    spectator.goto(f"{live.url}#/table/horse-night")
    expect(spectator.get_by_test_id("room")).to_be_visible()

    # The first hand: limit hold'em, two cards down.
    play_until(page, lambda turn: True)
    assert mix_line(page) == "HORSE · Fixed-limit Texas hold'em · last hand, then Omaha hi-lo"
    assert len(seat_cards(page, me)) == 2
    expect(page.locator(f"[data-testid=cards-{me}] .card.up")).to_have_count(0)
    # Then Omaha hi-lo, then razz: stud's up cards high, down cards low.
    play_until(page, lambda turn: mix_line(page).startswith("HORSE · Razz"))
    assert mix_line(page) == "HORSE · Razz · last hand, then Stud"
    expect(page.get_by_test_id("felt-game")).to_have_text("Razz")
    expect(page.get_by_test_id("game")).to_have_text("100/200, ante 20, bring-in 50")
    mine = page.get_by_test_id(f"cards-{me}")
    expect(mine.locator(".card.down")).to_have_count(2)
    assert mine.locator(".card.up").count() >= 1
    assert "hidden" not in seat_cards(page, me)
    log = page.evaluate("() => window.pokerroom.table.log.map((line) => line.text)")
    changes = [line for line in log if line.startswith("The game is now")]
    assert changes[:2] == [
        "The game is now Fixed-limit Omaha hi-lo 8 or better",
        "The game is now Razz",
    ], changes
    # The spectator followed every change: our seat's up cards, the rest backs.
    expect(spectator.get_by_test_id("mix")).to_have_text("HORSE · Razz · last hand, then Stud")
    theirs = spectator.get_by_test_id(f"cards-{me}")
    expect(theirs.locator(".card.back.down")).to_have_count(2)
    assert live.call(
        lambda: live.server.hosting.tables["horse-night"].core.table.config.game.key
    ) == ("razz")
    both_widths(page, "mixed-horse-razz")
    both_widths(spectator, "mixed-horse-spectator")
    PageLog.of(page).assert_clean(live.url)
    PageLog.of(spectator).assert_clean(live.url)


def test_dealers_choice_the_dealer_picks_in_the_picker_and_the_next_hand_plays_it(
    live: LiveServer, page: Page, new_page: Callable[[], Page]
) -> None:
    frames = Frames().watch(page)
    sign_in(page, live, "alice")
    form = create(page, "choice", "Choice", small_bet="100", big_bet="200", seats="3",
                  decision_seconds="60")  # fmt: skip
    games = form.get_by_test_id("mix-games")
    expect(games).to_be_visible()
    expect(form.get_by_test_id("mix-every")).to_have_value("1")  # a pick each hand
    games.get_by_label("Pot-limit Omaha", exact=True).uncheck()
    games.get_by_label("Badugi").check()
    both_widths(page, "mixed-create-dealers-choice")
    form.get_by_role("button", name="Create").click()
    expect(page).to_have_url(re.compile(r"#/table/choice$"))
    page.get_by_role("link", name="Lobby", exact=True).click()
    expect(page.locator("tr[data-table=choice]").get_by_test_id("game")).to_have_text(
        "Dealer's choice"
    )
    spectator = new_page()
    spectator.goto(f"{live.url}#/table/choice")
    expect(spectator.get_by_test_id("room")).to_be_visible()
    me = sit_and_fill(page, live, "choice", bots=2)

    # The first dealer is the first seat: ours. The picker lists the table's games by name,
    # the one being played marked, with a countdown.
    assert me == 0
    picker = page.get_by_test_id("game-picker")
    expect(picker).to_be_visible()
    choices = picker.get_by_test_id("choose-game")
    expect(choices).to_have_text([
        re.compile("^No-limit Texas hold'em"), "Seven-card stud", "Razz", "2-7 triple draw",
        "Badugi",
    ])  # fmt: skip
    current = picker.locator("[aria-current=true]")
    expect(current).to_have_attribute("data-game", "nlhe")
    expect(current).to_contain_text("playing now")
    expect(picker.get_by_test_id("pick-clock")).to_have_text(re.compile(r"^\d+s to choose$"))
    asked = [m for m in frames.received if m.get("type") == "game_choice"]
    assert asked and asked[0]["games"] == ["nlhe", "stud", "razz", "27td", "badugi"]
    expect(page.get_by_test_id("mix")).to_have_text("Dealer's choice · you are choosing the game")
    expect(page.get_by_test_id("waiting-turn")).to_have_text(
        "The next hand waits for your pick of the game."
    )
    # Everyone else is told who is choosing.
    expect(spectator.get_by_test_id("felt-game")).to_have_text("alice is choosing the game…")
    expect(spectator.get_by_test_id("mix")).to_have_text(
        "Dealer's choice · alice is choosing the game"
    )
    both_widths(page, "mixed-dealers-choice-picker")
    both_widths(spectator, "mixed-dealers-choice-spectator")

    picker.locator("[data-game='27td']").click()
    expect(picker).to_be_hidden()
    sent = [m for m in frames.sent if m.get("type") == "choose_game"]
    assert [m["game"] for m in sent] == ["27td"]
    # The hand dealt next is 2-7 triple draw: five cards each, and a draw to make.
    play_until(page, lambda turn: turn.get_by_test_id("draw").count() > 0)
    assert mix_line(page) == "Dealer's choice · 2-7 triple draw"
    assert len(seat_cards(page, me)) == 5 and "hidden" not in seat_cards(page, me)
    expect(spectator.get_by_test_id("mix")).to_have_text("Dealer's choice · 2-7 triple draw")
    expect(spectator.get_by_test_id(f"cards-{me}").locator(".card.back")).to_have_count(5)
    hands = [m for m in frames.received if m.get("type") == "event"
             and m["event"]["type"] == "hand_started"]  # fmt: skip
    assert (
        hands
        and live.call(lambda: live.server.hosting.tables["choice"].core.table.config.game.key)
        == "27td"
    )
    both_widths(page, "mixed-dealers-choice-draw")
    PageLog.of(page).assert_clean(live.url)
    PageLog.of(spectator).assert_clean(live.url)


# -- the mix's line, in the page's own model (Node) ------------------------------------------

LINES = """
const t = new TableModel("m");
const seats = [0, 1].map((seat) => ({ seat, name: `p${seat}`, stack: 1000, in_hand: false,
  folded: false, all_in: false, street_total: 0, hand_total: 0, sitting_out: false,
  has_cards: false, cards: null, up_cards: [] }));
const view = (playing) => ({ hand_number: 4, hand_in_progress: playing, street: null,
  board: [], pots: [], button: 0, to_act: null, viewer: 0, seats: structuredClone(seats) });
const started = { type: "hand_started", hand_number: 5, button: 1, seats: [0, 1],
  stacks: [1000, 1000], small_blind: 0, big_blind: 0, ante: 0, big_blind_seat: null };
const ended = { type: "hand_ended", stacks: [[0, 1000], [1, 1000]] };
const lines = [];
for (const step of input) {
  if (step.snapshot) t.setSnapshot({ seq: 0, summary: step.snapshot, view: view(step.playing) });
  if (step.changed) t.changeGame(step.changed);
  if (step.event === "started") t.apply(structuredClone(started));
  if (step.event === "ended") t.apply(structuredClone(ended));
  lines.push(t.mixLine());
}
console.log(JSON.stringify(lines));
"""


def summary(game: str, *, hands_left: int | None, played: int = 4, **mix: Any) -> dict[str, Any]:
    """A mixed table's summary, as the server sends it (server/tables/views.py)."""
    body = {"key": "horse", "name": "HORSE", "games": ["flhe", "flo8", "razz", "stud", "stud8"],
            "change": "hands", "hands": 3, "dealers_choice": False, "level": [100, 200],
            "game": game, "hands_left": hands_left, "choosing": None, **mix}  # fmt: skip
    return {"name": "m", "seats": 2, "hands_played": played, "mix": body,
            "game": engine.game(game).to_dict()}  # fmt: skip


def test_the_mix_line_counts_the_hands_left_of_each_game() -> None:
    steps = [
        # A hand of razz is being played, the second of three (the server counts it).
        {"snapshot": summary("razz", hands_left=2), "playing": True},
        {"event": "ended"},
        {"event": "started"},
        {"event": "ended"},
        # Between hands the server has not yet counted the hand just played.
        {"snapshot": summary("razz", hands_left=2), "playing": False},
        {"changed": summary("stud", hands_left=3)},
        {"event": "started"},
        {"snapshot": summary("stud", hands_left=3, change="orbit"), "playing": True},
        {
            "snapshot": summary(
                "nlhe",
                hands_left=1,
                key="choice",
                name="Dealer's choice",
                games=["nlhe", "27td"],
                hands=1,
                dealers_choice=True,
                choosing=1,
            ),
            "playing": False,
        },
        {"event": "started"},
    ]
    assert run_model(LINES, steps) == [
        "HORSE · Razz · 2 hands left",
        "HORSE · Razz · 1 hand left",
        "HORSE · Razz · last hand, then Stud",
        "HORSE · Razz · Stud next",
        "HORSE · Razz · 1 hand left",
        "HORSE · Seven-card stud · 3 hands left",
        "HORSE · Seven-card stud · 3 hands left",
        "HORSE · Seven-card stud · until the orbit ends",
        "Dealer's choice · p1 is choosing the game",
        "Dealer's choice · No-limit Texas hold'em",
    ]
