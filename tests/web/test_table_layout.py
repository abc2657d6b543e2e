"""The felt at every table size (2 to 10 seats), on a desktop and on a phone: every seat,
its name plate, badges (D, SB, BB, STR), last action and bet, every empty seat's label,
and the board's cards and the pot lie inside the felt, and nothing of one seat covers
another seat's or the middle's. The table is drawn from a view set by hand in the page's
model of an empty table (no hand of the server's moves anything)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from tests.web.conftest import LiveServer, PageLog, screenshot, serve_in_thread

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
NAMES = ("hana", "bob", "cy", "dan", "eve", "fay", "gus", "hal", "ivy", "jo")
BOARD = ["Ah", "Kd", "Td", "7c", "2s"]

DRAW = """([summary, view, blinds, actions]) => {
  const t = window.pokerroom.table;
  t.setSnapshot({ seq: t.seq, summary: { ...t.summary, ...summary }, view });
  t.blinds = blinds;
  t.lastAction = actions;
  window.pokerroom.draw();
  return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
}"""

MEASURE = """() => {
  const felt = document.querySelector(".room .felt");
  const f = felt.getBoundingClientRect();
  // Inside the felt's rim: its padding box.
  const inner = { left: f.left + felt.clientLeft, top: f.top + felt.clientTop,
    right: f.left + felt.clientLeft + felt.clientWidth,
    bottom: f.top + felt.clientTop + felt.clientHeight };
  const box = (el, owner, what) => {
    const r = el.getBoundingClientRect();
    return { owner, what: `${what} ${el.textContent.trim()}`.slice(0, 40),
      left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  };
  const items = [];
  for (const seat of felt.querySelectorAll(".seat")) {
    const owner = `seat ${seat.dataset.seat}`;
    items.push(box(seat, owner, "plate"));
    for (const el of seat.querySelectorAll(".badge, .last-action, .bet, .seat-tag, .who .name")) {
      items.push(box(el, owner, el.className));
    }
  }
  const middle = felt.querySelectorAll(
    ".center .card, .center .pot-total, .center .hand-number, .center .street");
  middle.forEach((el, i) => items.push(box(el, `middle ${i}`, el.className)));
  return { inner, items };
}"""


@pytest.fixture
def empty(tmp_path: Path) -> Iterator[LiveServer]:
    """Table "demo" with nobody at it: nothing happens there unless a test says so."""
    with serve_in_thread(tmp_path / "layout.db", bots={}) as live:
        yield live


def seat_view(n: int, filled: list[int], mine: int | None, twice: bool) -> dict[str, Any]:
    """A hand on the flop at an ``n``-seat table, ``filled`` seated: every one has bet
    (bets of one to four digits), ours face up, the last one folded; or (``twice``) a
    hand run twice on the river, two boards, the first two seated folded."""
    seats = [
        {"seat": k, "name": NAMES[k], "stack": 12_345, "in_hand": True,
         "folded": k in (filled[:2] if twice else filled[-1:]),
         "all_in": False, "street_total": [4, 40, 400, 4000][k % 4], "hand_total": 4000,
         "sitting_out": False, "waiting_for_big_blind": False, "has_cards": True,
         "cards": ["Ah", "Kd"] if k == mine else None, "up_cards": [], "bot": False,
         "straddle": False, "shown_cards": []}
        for k in filled
    ]  # fmt: skip
    boards = [BOARD, [*BOARD[:2], "9s", "8s", "3h"]] if twice else []
    board = BOARD if twice else BOARD[:3]
    return {"hand_number": 12, "hand_in_progress": True, "street": "river" if twice else "flop",
            "board": board, "boards": boards, "pots": [], "button": filled[0],
            "to_act": filled[1 % len(filled)], "viewer": mine, "menu": None,
            "seats": seats}  # fmt: skip


def draw(page: Page, n: int, filled: list[int], mine: int | None, twice: bool = False) -> None:
    view = seat_view(n, filled, mine, twice)
    badges = ["SB", "BB", "STR"]
    blinds = {str(k): b for k, b in zip(filled[1:], badges, strict=False)}
    # Every kind of last action, each a class of its own (a bet is not the chips' .bet).
    kinds = ["Raise to 4,000", "Bet 400", "Call 40", "Check", "All in 4,000", "Complete to 40"]
    actions = {str(k): kinds[i % len(kinds)] for i, k in enumerate(filled)}
    page.evaluate(DRAW, [{"seats": n}, view, blinds, actions])
    expect(page.locator(".room .seat")).to_have_count(n)


def overlaps(page: Page) -> list[str]:
    """What lies outside the felt or over something of another seat's (or the middle's)."""
    found: dict[str, Any] = page.evaluate(MEASURE)
    inner, items = found["inner"], found["items"]
    slack = 0.5
    bad = [
        f"{i['owner']} {i['what']!r} outside the felt"
        for i in items
        if i["left"] < inner["left"] - slack
        or i["top"] < inner["top"] - slack
        or i["right"] > inner["right"] + slack
        or i["bottom"] > inner["bottom"] + slack
    ]
    for n, a in enumerate(items):
        for b in items[n + 1 :]:
            if a["owner"] == b["owner"]:
                # One's own last action never covers one's name.
                pair = {a["what"].split()[0], b["what"].split()[0]}
                if pair != {"last-action", "name"}:
                    continue
            x = min(a["right"], b["right"]) - max(a["left"], b["left"])
            y = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
            if x > slack and y > slack:
                bad.append(f"{a['owner']} {a['what']!r} over {b['owner']} {b['what']!r}")
    return bad


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_nothing_on_the_felt_overlaps_at_any_table_size(
    empty: LiveServer, page: Page, size: ViewportSize
) -> None:
    page.set_viewport_size(size)
    page.emulate_media(reduced_motion="reduce")  # cards dealt stand still: measured where they lie
    page.goto(f"{empty.url}#/table/demo")
    expect(page.get_by_test_id("room")).to_be_visible()
    found: list[str] = []
    for n in range(2, 11):
        # A full table, seen from a seat; four players at a larger table, watched.
        layouts: list[tuple[list[int], int | None]] = [(list(range(n)), n // 2)]
        if n > 4:
            layouts.append(([0, 2, n // 2 + 1, n - 1], None))
        for filled, mine in layouts:
            for twice in (False, True) if len(filled) > 2 else (False,):
                draw(page, n, filled, mine, twice)
                what = f"{n} seats, {len(filled)} seated{', run twice' if twice else ''}"
                found += [f"{what}: {x}" for x in overlaps(page)]
                if n == 9:
                    tag = f"{n}-{len(filled)}{'-twice' if twice else ''}-{size['width']}"
                    screenshot(page, f"layout-{tag}", full_page=False)
    assert not found, "\n".join(found)
    PageLog.of(page).assert_clean(empty.url)


LOG = """(lines) => {
  const t = window.pokerroom.table;
  for (const line of lines) t.line(line);
  window.pokerroom.draw();
  return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
}"""

CUT = """() => {
  const list = document.querySelector("[data-testid=log]").getBoundingClientRect();
  return [...document.querySelectorAll("[data-testid=log] li")]
    .map((li) => li.getBoundingClientRect())
    .filter((r) => r.bottom > list.top + 1 && r.top < list.bottom - 1)
    .filter((r) => r.top < list.top - 1 || r.bottom > list.bottom + 1)
    .map((r) => [r.top - list.top, list.bottom - r.bottom]);
}"""


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_hand_log_shows_whole_lines_the_newest_last(
    empty: LiveServer, page: Page, size: ViewportSize
) -> None:
    page.set_viewport_size(size)
    page.goto(f"{empty.url}#/table/demo")
    expect(page.get_by_test_id("room")).to_be_visible()
    words = "cy wins 160 from the main pot with Three of a Kind, Sevens, Ace and King kickers"
    lines = [f"{n}. {' '.join(words.split()[: 3 + n % 12])}" for n in range(60)]
    page.evaluate(LOG, lines)
    log = page.get_by_test_id("log")
    expect(log.locator("li").last).to_have_text(lines[-1])
    assert page.evaluate(CUT) == []  # no line is cut at the top or the bottom
    assert log.evaluate("(ul) => ul.scrollHeight - ul.scrollTop - ul.clientHeight") < 1
    PageLog.of(page).assert_clean(empty.url)
