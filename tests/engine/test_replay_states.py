"""A replay keeps the hand's public state after each step (``replay(states=True)``):
the same states, after the same events, that a live table says after each batch (whose
turn it is, the pots, the bet to match), the cards shown and the rabbit after the hand
included. The server's stored-hand replies carry them (``hand``'s ``states``)."""

from __future__ import annotations

import random

import pytest

from engine import (
    Deck,
    Event,
    PlayerSat,
    PlayerSatIn,
    PlayerSatOut,
    PlayerStood,
    PublicState,
    Table,
    TableConfig,
    history,
    stakes_for_blinds,
)
from engine.games import GAMES
from server.bots import RandomBot

TABLE_EVENTS = (PlayerSat, PlayerStood, PlayerSatOut, PlayerSatIn)
GAMES_WITH_SHOWS = ["nlhe", "plo8", "stud", "27td", "razz", "kuhn", "dice"]


def live_hand(key: str, seed: int) -> tuple[Table, list[tuple[int, PublicState]]]:
    """A hand of ``key`` among four random players (two where the game seats two), then
    every hand shown and the rabbit hunted: the table, and after each batch of events
    the events so far and the table's state."""
    g = GAMES[key]
    seats = min(4, g.max_players)
    table = Table(TableConfig(game=g, seats=seats, **stakes_for_blinds(g, 50, 100)))
    for seat in range(seats):
        table.sit_down(seat, table.config.max_buy_in, wait_for_big_blind=False)
    rng = random.Random(seed)
    bot = RandomBot(seed)
    said: list[tuple[int, PublicState]] = []
    count = 0

    def batch(events: list[Event]) -> None:
        """The hand's own events count (a player busting, standing up, is the table's)."""
        nonlocal count
        if events:
            count += sum(not isinstance(e, TABLE_EVENTS) for e in events)
            said.append((count, table.public_state()))

    batch(table.start_hand(Deck.shuffled(rng, g.deck)))
    while table.hand_in_progress:
        actor = table.to_act
        assert actor is not None
        menu = table.legal_actions(actor)
        assert menu is not None
        batch(table.apply(bot.act(table.view(actor), menu)))
    hand = table.hand
    assert hand is not None
    for seat in hand.seats:
        if hand.position[seat] not in hand.shown and rng.random() < 0.7:
            batch(table.show_cards(seat, hand.holes[hand.position[seat]]))
    batch(table.rabbit_hunt())
    return table, said


@pytest.mark.parametrize("key", GAMES_WITH_SHOWS)
def test_a_replays_states_are_what_the_live_table_said_after_each_batch(key: str) -> None:
    for seed in range(8):
        table, said = live_hand(key, seed)
        hand = table.hand
        assert hand is not None
        written = history.from_hand(hand, players=[f"p{s}" for s in hand.seats])
        played = history.replay(
            written, seats=hand.seats, button=hand.setup.button, small_blind=50,
            states=True,
        )  # fmt: skip
        assert played.states == said, (key, seed)
        assert history.replay(written).states == []  # kept only when asked for
