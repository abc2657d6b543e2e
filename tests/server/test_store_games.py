"""The store keeps hands of every game: each says its game, reads back and replays, and
the migration that added the game brings older rows along as no-limit hold'em. On
SQLite and on PostgreSQL (whose columns enforce their lengths: seven stud cards)."""

from __future__ import annotations

import datetime as dt
import random

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from engine import GAMES, Deck, Hand, Table, history
from server.hosting import house_config
from server.store import Store, migrate
from server.store.records import hand_rows
from tests.helpers import play_out
from tests.server.conftest import play_hands

NOW = dt.datetime(2026, 11, 26, 12, 0, tzinfo=dt.UTC)


def one_hand(key: str, seed: int) -> Hand:
    """A finished hand of game ``key``, random legal actions, at the house's stakes."""
    rng = random.Random(seed)
    config = house_config(GAMES[key], seats=3)
    table = Table(config)
    for seat in range(config.seats):
        table.sit_down(seat, 50 * config.unit)
    table.start_hand(Deck.shuffled(rng, config.game.deck))
    play_out(table, rng)
    assert table.hand is not None and table.hand.is_over
    return table.hand


async def test_every_game_stores_says_its_game_and_replays(db_url: str) -> None:
    async with Store.open(db_url, upgrade=True) as store:
        names = ["ann", "bob", "cat"]
        ids = await store.ensure_players(names)
        written: dict[str, tuple[int, Hand]] = {}
        for n, key in enumerate(GAMES):
            hand = one_hand(key, seed=n)
            table_id = await store.ensure_table(f"t-{key}", {"game": GAMES[key].to_dict()})
            players = [names[s] for s in hand.seats]
            rows = hand_rows(hand, table_id=table_id, player_ids=[ids[p] for p in players],
                             names=players, started_at=NOW, ended_at=NOW)  # fmt: skip
            written[key] = (await store.write_hand(rows), hand)
        for key, (hand_id, hand) in written.items():
            listed = await store.list_hands(game=key)
            assert [(h.id, h.game) for h in listed] == [(hand_id, key)], key
            info = await store.hand_info(hand_id)
            assert info.history.game is GAMES[key]
            assert history.replay(info.history).hand.stacks == hand.stacks, key
        async with store.engine.connect() as conn:
            stud = written["stud"][0]
            cards = (
                await conn.execute(
                    sa.text("SELECT hole_cards FROM hand_players WHERE hand_id = :h"), {"h": stud}
                )
            ).scalars()
            assert {len(c) for c in cards} <= {6, 8, 10, 12, 14}  # dealt 3 to 7 cards each
        assert len(await store.list_hands(limit=100)) == len(GAMES)


async def test_the_migration_brings_stored_hands_along_as_no_limit_holdem(db_url: str) -> None:
    engine = create_async_engine(db_url)
    try:
        await migrate.upgrade(engine, "0005")
        hand = next(play_hands(1, seed=7, players=3))
        rows = hand_rows(hand, table_id=1, player_ids=[1, 2, 3], names=["a", "b", "c"],
                         started_at=NOW, ended_at=NOW)  # fmt: skip
        del rows.hand["game"]  # the hands row as migration 0005 has it
        meta = sa.MetaData()
        async with engine.begin() as conn:
            await conn.run_sync(meta.reflect)
            await conn.execute(
                meta.tables["players"].insert(),
                [
                    {"id": i, "name": n, "created_at": NOW}
                    for i, n in ((1, "a"), (2, "b"), (3, "c"))
                ],
            )
            await conn.execute(
                meta.tables["tables"].insert(),
                {"id": 1, "name": "old", "imported": False, "config": {}, "created_at": NOW},
            )
            await conn.execute(meta.tables["hands"].insert(), {**rows.hand, "id": 1})
            await conn.execute(
                meta.tables["hand_players"].insert(), [{**p, "hand_id": 1} for p in rows.players]
            )
        await migrate.upgrade(engine)
    finally:
        await engine.dispose()
    async with Store.open(db_url) as store:
        assert [h.game for h in await store.list_hands(game="nlhe")] == ["nlhe"]
        assert await store.list_hands(game="plo") == []
        info = await store.hand_info(1)
        assert history.replay(info.history).hand.stacks == hand.stacks
