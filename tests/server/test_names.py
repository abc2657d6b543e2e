"""Names people choose carry no invisible tricks (issue 29 item 16): control and format
characters (a right-to-left override, U+202E, reverses the text after it wherever it is
shown) are stripped from table and tournament names by the rule chat applies to its
lines, a name with nothing visible left is refused, and player and account names are
plain letters and digits. A real server on 127.0.0.1, real websockets clients."""

from __future__ import annotations

from typing import Any

import pytest
from websockets.asyncio.client import connect

from server import protocol
from server.app import PokerServer
from tests.helpers import ask

BLINDS = {"small_blind": 1, "big_blind": 2}
TRICKS = [
    ("Friday \u202enight", "Friday night"),  # right-to-left override
    ("\u2067Friday\u2069 \u200fnight\u200e", "Friday night"),  # isolates, RLM, LRM
    ("Fri\u200bday\ufeff\u061c", "Friday"),  # zero-width space, BOM, Arabic letter mark
    ("Friday\x00\x1b[31m\x7f", "Friday[31m"),  # NUL, escape, DEL
    ("  Friday\n\tnight\u2028 ", "Friday night"),  # line breaks and runs of space
    ("שישי \u202dנייט", "שישי נייט"),  # right-to-left letters stay; the override goes
    ("👩\u200d👩\u200d👧 night", "👩\u200d👩\u200d👧 night"),  # an emoji's joiners stay
]


@pytest.mark.parametrize(("chosen", "shown"), TRICKS)
def test_one_rule_for_names_and_chat(chosen: str, shown: str) -> None:
    assert protocol.visible_text(chosen) == shown
    table = protocol.parse(protocol.dumps({"type": "create_table", "name": chosen}))
    assert table.name == shown
    chat = protocol.parse(protocol.dumps({"type": "chat", "table": "t", "text": chosen}))
    assert chat.text == chosen  # chat's line is cleaned by the table, with the same rule
    tournament = {"type": "create_tournament", "name": chosen, "field": 2}
    assert protocol.parse(protocol.dumps(tournament)).name == shown


async def test_table_names_are_cleaned_and_invisible_ones_refused(
    app: tuple[PokerServer, str],
) -> None:
    _, address = app
    async with connect(f"ws://{address}/ws") as ws:
        await ask(ws, {"type": "hello", "name": "hana"})
        made = await ask(ws, {"type": "create_table", "name": "Friday \u202enight", **BLINDS})
        assert made["type"] == "table_created", made
        assert made["table"]["name"] == "Friday night"
        listed = await ask(ws, {"type": "list_tables"})
        assert "Friday night" in [t["name"] for t in listed["tables"]]
        assert not any("\u202e" in t["name"] for t in listed["tables"])
        for name in ("\u202e\u200f", " \n\t", "\x00\x01"):
            refused = await ask(ws, {"type": "create_table", "name": name, **BLINDS})
            assert (refused["type"], refused["code"]) == ("error", "bad_message"), refused
            assert refused["message"] == ("create_table: name: a name needs a visible character")
        said = await ask(ws, {"type": "spectate", "table": made["table"]["id"]})
        assert said["type"] == "snapshot"
        line = await ask(ws, {"type": "chat", "table": made["table"]["id"],
                              "text": "gg \u202ewp"})  # fmt: skip
        assert line["type"] == "chat_sent", line


@pytest.mark.parametrize("name", ["ann\u202e", "\u202eann", "an n", "ann\u200b", "äнн"])
async def test_player_and_account_names_are_plain(app: tuple[PokerServer, str], name: str) -> None:
    _, address = app
    message: dict[str, Any]
    async with connect(f"ws://{address}/ws") as ws:
        for message in ({"type": "hello", "name": name}, {"type": "create_account", "name": name}):
            refused = await ask(ws, message)
            assert (refused["type"], refused["code"]) == ("error", "bad_message"), refused
