"""What ``welcome`` tells every client a table may play: every game the engine plays and
every mix, so that no client keeps a list of its own (the browser's lobby reads it)."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from typing import Any

from websockets.asyncio.client import connect

from engine import GAMES, MIXES, game_from_dict
from server.app import PokerServer
from tests.server.clients import send, until


async def test_welcome_names_every_game_and_mix_the_server_plays(
    app: tuple[PokerServer, str],
) -> None:
    _, address = app
    async with connect(f"ws://{address}/ws", max_size=2**20) as ws:
        await send(ws, type="hello", version=1, name="ann")
        welcome = await until(ws, "welcome")
    told = [game_from_dict(g) for g in welcome["games"]]
    assert told == list(GAMES.values())  # each preset, as the engine defines it, in order
    assert all(g is GAMES[g.key] for g in told)
    assert [g["short_name"] for g in welcome["games"]] == [g.short_name for g in told]
    mixes = {m["key"]: m for m in welcome["mixes"]}
    assert list(mixes) == [*MIXES, "choice"]
    for key, mix in MIXES.items():
        assert mixes[key]["games"] == [g.key for g in mix.games]
        assert (mixes[key]["change"], mixes[key]["hands"]) == (mix.change.value, mix.hands)
    assert mixes["choice"]["dealers_choice"] is True
    assert mixes["choice"]["games"] == list(GAMES)  # a table picks its own from these


async def test_the_page_gets_the_same_catalogue_before_any_hello(
    app: tuple[PokerServer, str],
) -> None:
    """``/catalogue.json``: what the browser draws its lobby from, before anyone has said
    who they are: welcome's games, mixes and export formats, exactly."""
    _, address = app
    async with connect(f"ws://{address}/ws", max_size=2**20) as ws:
        await send(ws, type="hello", version=1, name="bea")
        welcome = await until(ws, "welcome")
    kind, served = await asyncio.to_thread(_get, f"http://{address}/catalogue.json")
    assert kind == "application/json"
    assert set(served) == {"games", "mixes", "table_options", "export_formats"}
    assert served == {key: welcome[key] for key in served}


def _get(url: str) -> tuple[str, Any]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.headers["Content-Type"], json.load(response)
