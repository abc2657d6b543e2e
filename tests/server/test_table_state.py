"""The server says what the table is: the last event message of every batch carries the
table's public state after it (whose turn it is, the pots, the bet to match), so that no
client re-derives the rules. Checked against what happens next, in every game."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any

import pytest

from engine import GAMES
from server.bots import RandomBot
from server.tables import Caller, HouseSit, Player, TableRunner, TableSettings
from tests.server.clients import Inbox, running, spectate
from tests.server.test_strategies import game_config

DECISIONS = ("action_taken", "cards_drawn")
"""The events a player's own decision makes."""


class Batches(Inbox):
    """A spectator that keeps each batch of messages as the table sent it."""

    def __init__(self) -> None:
        super().__init__()
        self.batches: list[list[dict[str, Any]]] = []

    def send_table(self, table_id: str, hand_number: int, texts: Sequence[str]) -> None:
        batch = [json.loads(text) for text in texts]
        self.batches.append(batch)
        self.messages += batch


async def _watch(key: str, hands: int) -> Batches:
    """A table of ``key`` played by random house bots until ``hands`` hands are over,
    as a spectator saw it."""
    config = game_config(key, seats=4)
    runner = TableRunner(TableSettings("t", "T", config), house_think_seconds=0.0)
    spectator = Batches()
    bots = {s: (Player(s + 1, f"bot-{s}", bot=True), RandomBot(s)) for s in range(config.seats)}
    async with running(runner):
        await spectate(runner, spectator)
        await runner.submit(HouseSit(bots, config.max_buy_in), Caller(None))
        async with asyncio.timeout(30):
            while len(spectator.events("hand_ended")) < hands:
                await asyncio.sleep(0.01)
    return spectator


@pytest.mark.parametrize("key", list(GAMES))
async def test_every_batch_ends_with_the_state_and_the_state_says_who_acts_next(key: str) -> None:
    seen = await _watch(key, hands=6)
    state: dict[str, Any] | None = None
    decisions = 0
    for batch in seen.batches:
        events = [m for m in batch if m["type"] == "event"]
        if not events:
            continue
        assert all("state" not in m for m in events[:-1])  # the state after, once
        for message in events:
            event = message["event"]
            if event["type"] in DECISIONS:
                # Whoever decided is whom the last state said was to act.
                assert state is not None and state["to_act"] == event["seat"], (key, event)
                decisions += 1
        state = events[-1]["state"]
        if events[-1]["event"]["type"] == "hand_ended":
            assert (state["hand_in_progress"], state["to_act"], state["pots"]) == (False, None, [])
        else:
            assert all(p > 0 for p in state["pots"]) and state["current_bet"] >= 0
    assert decisions > 20  # random bots decide often enough to test this


async def test_the_state_adds_up_to_the_chips_put_in_when_a_street_is_dealt() -> None:
    """At a new street every chip bet is in the pots: their sum is what the players have
    put in so far (each seat's hand_total, as its last bet said)."""
    seen = await _watch("nlhe", hands=40)
    totals: dict[int, int] = {}
    checked = 0
    for message in seen.messages:
        if message["type"] != "event":
            continue
        event = message["event"]
        if event["type"] == "hand_started":
            totals = {}
        if "hand_total" in event:
            totals[event["seat"]] = event["hand_total"]
        if event["type"] == "board_dealt" and "state" in message:
            state = message["state"]
            assert sum(state["pots"]) == sum(totals.values()), message
            assert state["current_bet"] == 0
            checked += 1
    assert checked > 5
