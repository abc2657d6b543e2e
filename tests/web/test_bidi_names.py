"""A name that turns text around keeps the page's own sentences in order (issue 29 item
16). The server strips direction controls from the names people choose
(tests/server/test_names.py); a table named before that, stored with a right-to-left
override (U+202E), still comes back with its name after a restart. So the browser
isolates the text people choose (<bdi>) where it puts it into a sentence: the override
turns the name around, and nothing after it."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from server import protocol
from server.tables import Player
from tests.web.conftest import LiveServer, screenshot

TURNED = "Friday \u202enight"
"""A name stored before names were cleaned: the override reverses what follows it."""

WORD_LEFT = """(root, word) => {
  // The left edge of ``word``'s first letter, as laid out, inside ``root``.
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    const at = node.data.indexOf(word);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + 1);
    return range.getBoundingClientRect().left;
  }
  return null;
}"""


def left_of(where: Locator, word: str) -> float:
    x = where.evaluate(WORD_LEFT, word)
    assert x is not None, word
    return float(x)


def test_a_name_with_an_override_leaves_the_join_sentence_in_order(
    live_server: LiveServer, page: Page
) -> None:
    live = live_server
    # As a table made before names were cleaned would be: built without the protocol's
    # validation.
    host = Player(live.run(live.server.store.guest("hana")), "hana")
    valid = protocol.CreateTable(
        type="create_table", name="x", small_blind=1, big_blind=2, private=True
    )
    asked = protocol.CreateTable.model_construct(**{**valid.model_dump(), "name": TURNED})
    runner = live.run(live.server.hosting.create_for(host, "127.0.0.1", asked))
    assert runner.settings.name == TURNED
    page.goto(f"{live.url}#/join/{runner.settings.table_id}/{runner.core.host.invite}")
    about = page.get_by_test_id("join-table")
    expect(about).to_contain_text("The host lets you in.")
    expect(about.locator("bdi")).to_have_text(TURNED)
    # Its words in reading order, left to right: "The" before "host" before "lets".
    assert left_of(about, "The") < left_of(about, "host") < left_of(about, "lets")
    screenshot(page, "join-turned-name")
