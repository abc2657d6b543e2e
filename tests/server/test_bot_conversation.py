"""Keeping a seat at a table (server.bots.conversation): which table the client picks from
the lobby. (The conversation itself is played against a real server in
test_bot_client.py.)"""

from __future__ import annotations

from typing import Any

import pytest

from server.bots.conversation import choose_table
from server.bots.errors import BotClientError


def _table(table_id: str, players: int, seats: int = 2) -> dict[str, Any]:
    return {"id": table_id, "players": [f"p{i}" for i in range(players)], "seats": seats}


def test_the_table_asked_for_is_chosen_full_or_not() -> None:
    tables = [_table("a", 0), _table("b", 2)]
    assert choose_table(tables, "b")["id"] == "b"
    with pytest.raises(BotClientError, match="no table 'c' on the server"):
        choose_table(tables, "c")


def test_else_the_first_with_a_free_seat_else_the_first_waiting_list() -> None:
    assert choose_table([_table("a", 2), _table("b", 1), _table("c", 0)], None)["id"] == "b"
    assert choose_table([_table("a", 2), _table("b", 2)], None)["id"] == "a"
    with pytest.raises(BotClientError, match="the server has no tables"):
        choose_table([], None)
