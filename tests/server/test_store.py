"""The store on SQLite and on PostgreSQL: migrations, writing, reading, importing."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import hashlib
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import func, inspect, select, text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from engine import Hand, history
from server.export import pokerstars
from server.store import (
    HandRows,
    HandWriter,
    MigrationError,
    Store,
    StoreError,
    UnknownHandError,
    hand_rows,
    migrate,
)
from server.store import writer as writer_module
from server.store.models import Action, Base, HandPlayer, LedgerEntry
from server.store.models import Hand as HandRow
from tests.conftest import SHARED_DATA
from tests.server.conftest import create_pg_database, drop_pg_database, play_hands
from tests.server.test_export_pokerstars import dead_button_hand

NOW = dt.datetime(2026, 11, 21, 12, 0, tzinfo=dt.UTC)
PLURIBUS = SHARED_DATA / "phh" / "pluribus"


async def schema_differences(engine: AsyncEngine) -> list[object]:
    async with engine.connect() as conn:
        return await conn.run_sync(
            lambda sync: compare_metadata(MigrationContext.configure(sync), Base.metadata)
        )


async def table_names(engine: AsyncEngine) -> set[str]:
    async with engine.connect() as conn:
        names = await conn.run_sync(lambda sync: inspect(sync).get_table_names())
    return set(names) - {"alembic_version"}


async def test_migrations_build_the_models_schema_and_go_down_and_up_again(db_url: str) -> None:
    engine = create_async_engine(db_url)
    try:
        assert await migrate.current(engine) is None
        await migrate.upgrade(engine)
        assert await migrate.current(engine) == migrate.head()
        assert await schema_differences(engine) == []
        await migrate.downgrade(engine, "base")
        assert await table_names(engine) == set()
        await migrate.upgrade(engine)
        assert await schema_differences(engine) == []
        assert await table_names(engine) == set(Base.metadata.tables)
    finally:
        await engine.dispose()


async def test_postgresql_is_not_migrated_behind_the_operators_back(db_url: str) -> None:
    if db_url.startswith("sqlite"):
        async with Store.open(db_url) as store:  # SQLite: upgraded on open
            assert await store.count_hands() == 0
        return
    with pytest.raises(MigrationError, match="run pokerroom db upgrade"):
        async with Store.open(db_url):
            pass


NAMES = [f"player{i}" for i in range(10)]


def rows_of(hand: Hand, table_id: int, ids: dict[str, int]) -> HandRows:
    """A played hand's rows, seat ``s`` played by ``player{s}``."""
    return hand_rows(
        hand,
        table_id=table_id,
        player_ids=[ids[NAMES[s]] for s in hand.seats],
        names=[NAMES[s] for s in hand.seats],
        started_at=NOW,
        ended_at=NOW,
    )


async def write_played(store: Store, hands: list[Hand]) -> list[int]:
    ids = await store.ensure_players(NAMES)
    table_id = await store.ensure_table("test table", {"small_blind": 50, "big_blind": 100})
    return [await store.write_hand(rows_of(hand, table_id, ids)) for hand in hands]


async def test_a_written_hand_reads_back_and_replays_exactly(db_url: str) -> None:
    hands = list(play_hands(40, seed=1))
    async with Store.open(db_url, upgrade=True) as store:
        ids = await write_played(store, hands)
        assert await store.hand_ids() == ids
        for hand_id, hand in zip(ids, hands, strict=True):
            info = await store.hand_info(hand_id)
            assert info.players == tuple(f"player{s}" for s in hand.seats)
            replay = history.replay(info.history)
            assert replay.hand.stacks == hand.stacks
            assert [type(e) for e in replay.events] == [
                type(e) for e in hand.log if type(e).__name__ != "PlayerStood"
            ]
        async with store.engine.connect() as conn:
            for hand_id, hand in zip(ids, hands, strict=True):
                nets = (
                    await conn.execute(
                        select(HandPlayer.net)
                        .where(HandPlayer.hand_id == hand_id)
                        .order_by(HandPlayer.position)
                    )
                ).scalars()
                assert list(nets) == [
                    s - t for s, t in zip(hand.stacks, hand.setup.stacks, strict=True)
                ]
                ledger = await conn.execute(
                    select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(
                        LedgerEntry.hand_id == hand_id
                    )
                )
                assert ledger.scalar_one() == 0  # chips only move between the players
                actions = await conn.execute(
                    select(func.count()).select_from(Action).where(Action.hand_id == hand_id)
                )
                kinds = {"ActionTaken", "ForcedBetPosted"}
                assert actions.scalar_one() == sum(type(e).__name__ in kinds for e in hand.log)


async def test_batched_writes_keep_the_order_of_the_hands(db_url: str) -> None:
    hands = list(play_hands(30, seed=2))
    async with Store.open(db_url, upgrade=True) as store:
        names = [f"player{i}" for i in range(10)]
        ids = await store.ensure_players(names)
        table_id = await store.ensure_table("batch", {})
        batch = [
            hand_rows(h, table_id=table_id, player_ids=[ids[names[s]] for s in h.seats],
                      names=[names[s] for s in h.seats], started_at=NOW, ended_at=NOW)
            for h in hands
        ]  # fmt: skip
        written = await store.write_hands(batch)
        for hand_id, hand in zip(written, hands, strict=True):
            info = await store.hand_info(hand_id)
            assert history.replay(info.history).hand.stacks == hand.stacks


async def test_a_failed_write_leaves_nothing_behind(db_url: str) -> None:
    hands = list(play_hands(2, seed=3))
    async with Store.open(db_url, upgrade=True) as store:
        await write_played(store, hands[:1])
        before = await counts(store)
        # Another hand under the same table and hand number breaks a unique constraint
        # after the hand row is built: the whole transaction must go.
        ids = await store.ensure_players(NAMES)
        table_id = await store.ensure_table("test table", {})
        other = rows_of(hands[1], table_id, ids)
        other.hand["hand_number"] = 1
        with pytest.raises(StoreError, match="hand 1 of table 1 was not stored"):
            await store.write_hand(other)
        assert await counts(store) == before


async def test_the_same_hand_written_again_is_stored_once(db_url: str) -> None:
    """A write retried after its commit's reply was lost sends the same rows again: the
    hand's digest finds it stored, and its id comes back (issue 29)."""
    hands = list(play_hands(1, seed=3))
    async with Store.open(db_url, upgrade=True) as store:
        (first,) = await write_played(store, hands)
        before = await counts(store)
        assert await write_played(store, hands) == [first]
        async with store.writer() as writer:  # batched with a new hand, in one round
            ids = await store.ensure_players(NAMES)
            table_id = await store.ensure_table("test table", {})
            new = rows_of(next(iter(play_hands(2, seed=3))), table_id, ids)
            new.hand["hand_number"] = 7
            new.hand["digest"] = "f" * 64
            again, fresh = await asyncio.gather(
                writer.write(rows_of(hands[0], table_id, ids)), writer.write(new)
            )
        assert again == first and fresh != first
        after = await counts(store)
        assert after[0] == before[0] + 1  # one hand more, not two


async def counts(store: Store) -> tuple[int, ...]:
    async with store.engine.connect() as conn:
        return tuple(
            [
                (await conn.execute(select(func.count()).select_from(model))).scalar_one()
                for model in (HandRow, HandPlayer, Action, LedgerEntry)
            ]
        )


async def test_import_pluribus_hands_lists_and_skips_duplicates(db_url: str) -> None:
    files = sorted((PLURIBUS / "30").glob("*.phh"))[:40]
    items = [(str(f), "pluribus/30", history.load(f.read_text())) for f in files]
    async with Store.open(db_url, upgrade=True) as store:
        report = await store.import_histories(items, batch_size=15)
        assert (report.imported, report.errors, report.duplicates) == (40, 0, 0)
        again = await store.import_histories(items[:5])
        assert (again.imported, again.duplicates) == (0, 5)
        mine = await store.list_hands(player="Pluribus", limit=100)
        assert len(mine) == 40 and all("Pluribus" in dict(h.players) for h in mine)
        assert await store.list_hands(table="no such table") == []
        newest = await store.list_hands(limit=3)
        assert [h.id for h in newest] == sorted((h.id for h in newest), reverse=True)
        info = await store.hand_info(newest[0].id)
        recorded = history.load(files[-1].read_text())
        assert history.replay(info.history).final_stacks == recorded.finishing_stacks


async def test_hands_imported_under_a_live_tables_name_leave_its_numbers_alone(
    db_url: str,
) -> None:
    live_hands = list(play_hands(2, seed=3))
    exported = history.load((PLURIBUS / "30" / "3.phh").read_text())
    exported.fields["table"] = "demo"  # as if exported from this server's demo table
    async with Store.open(db_url, upgrade=True) as store:
        ids = await store.ensure_players(NAMES)
        live = await store.ensure_table("demo", {})
        async with store.writer() as writer:
            await writer.write(rows_of(live_hands[0], live, ids))  # hand 1
            report = await store.import_histories([("export", "ignored", exported)])
            assert report.imported == 1
            await writer.write(rows_of(live_hands[1], live, ids))  # hand 2: still free
        listed = await store.list_hands(table="demo", limit=10)
        assert sorted(h.hand_number for h in listed) == [1, 1, 2]
        assert await store.last_hand_number(live) == 2
        assert await store.ensure_table("demo", {}, imported=True) != live


async def test_a_players_hands_page_by_id_and_leave_out_imported_and_older_hands(
    db_url: str,
) -> None:
    live_hands = list(play_hands(6, seed=4))
    exported = history.load((PLURIBUS / "30" / "3.phh").read_text())
    exported.fields["players"] = NAMES[:6]  # the same names, in a hand imported
    async with Store.open(db_url, upgrade=True) as store:
        ids = await store.ensure_players(NAMES)
        table = await store.ensure_table("demo", {})
        written = []
        for minute, hand in enumerate(live_hands):
            rows = rows_of(hand, table, ids)
            rows.hand["started_at"] = NOW + dt.timedelta(minutes=minute)
            written.append(await store.write_hand(rows))
        assert (await store.import_histories([("export", "demo", exported)])).imported == 1
        (imported,) = await store.list_hands(imported=True)
        assert "player0" in dict(imported.players)

        played = [(i, h) for i, h in zip(written, live_hands, strict=True) if 0 in h.seats]
        assert 2 < len(played) < len(written)  # seat 0 sat one out: not their hand
        mine = await store.list_hands(player="player0", imported=False, limit=100)
        assert [h.id for h in mine] == [i for i, _ in played[::-1]]
        for summary, (_, hand) in zip(mine, played[::-1], strict=True):
            assert summary.engine_seats == hand.seats
            assert summary.players == tuple(
                (NAMES[s], hand.stacks[p] - hand.setup.stacks[p]) for p, s in enumerate(hand.seats)
            )
        page = await store.list_hands(player="player0", imported=False, before=written[3], limit=2)
        assert [h.id for h in page] == [written[2], written[1]]
        later = NOW + dt.timedelta(minutes=4)  # hands 5 and 6
        recent = await store.list_hands(player="player0", since=later, imported=False)
        assert [h.id for h in recent] == [i for i, _ in played[::-1] if i >= written[4]]
        assert recent and len(recent) < len(mine)

        stored = await store.stored_hand(written[2], player="player0", imported=False)
        setup = live_hands[2].setup
        assert stored.hand_number == setup.hand_number
        assert stored.info.button_seat - 1 == setup.button  # HandInfo's seats are from 1
        assert (stored.info.small_blind, stored.big_blind, stored.ante) == (50, 100, 0)
        assert stored.info == await store.hand_info(written[2])
        for hand_id, narrowed in (
            (imported.id, {"player": "player0", "imported": False}),
            (written[2], {"player": "player0", "since": later}),
            (written[2], {"player": "nobody"}),
        ):
            with pytest.raises(UnknownHandError, match=f"no hand with id {hand_id}"):
                await store.stored_hand(hand_id, **narrowed)  # type: ignore[arg-type]


async def test_a_stored_hands_info_has_the_tables_button_and_small_blind(db_url: str) -> None:
    """PHH records neither; the exporters get them from the hand's row: here a dead
    button (seat 2, from 1, is empty) and a small blind of 5 that nobody posted."""
    hand = dead_button_hand()
    pluribus = history.load((PLURIBUS / "30" / "3.phh").read_text())
    async with Store.open(db_url, upgrade=True) as store:
        ids = await store.ensure_players(NAMES)
        table_id = await store.ensure_table("dead", {"small_blind": 5, "big_blind": 10})
        played = await store.hand_info(await store.write_hand(rows_of(hand, table_id, ids)))
        await store.import_histories([("pluribus", "pluribus/30", pluribus)])
        (summary,) = await store.list_hands(imported=True)
        imported = await store.hand_info(summary.id)
    assert (played.button, played.small_blind, played.seats) == (2, 5, (5, 6, 1))
    assert pokerstars.render(played).splitlines()[:2] == [
        f"PokerStars Hand #{played.hand_id}:  Hold'em No Limit (5/10) - "
        "2026/11/21 12:00:00 UTC [2026/11/21 7:00:00 ET]",
        "Table 'dead' 6-max Seat #2 is the button",
    ]
    # An imported history's button is its last player's, its small blind the smallest.
    assert (imported.button, imported.small_blind) == (imported.seats[-1], 50)


async def test_an_import_never_half_imports_a_hand(db_url: str, tmp_path: Path) -> None:
    good = [history.load(f.read_text()) for f in sorted((PLURIBUS / "31").glob("*.phh"))[:3]]
    bad = history.load((PLURIBUS / "31" / "5.phh").read_text())
    bad.actions = [a for a in bad.actions if a.startswith("d dh")]  # nobody ever acts
    other = history.load((SHARED_DATA / "phh" / "antonius-blom-2009.phh").read_text())
    other.variant = "PX"  # a variant nobody plays
    items = [("good0", "t", good[0]), ("bad", "t", bad), ("good1", "t", good[1]),
             ("other", "t", other), ("good2", "t", good[2])]  # fmt: skip
    async with Store.open(db_url, upgrade=True) as store:
        report = await store.import_histories(items)
        assert (report.imported, report.errors, report.unsupported) == (3, 1, 1)
        assert ("other", "unsupported", "variant 'PX' is not a game we play") in report.lines
        assert ("bad", "error", "the actions end before the hand does") in report.lines
        hands, players, actions, _ledger = await counts(store)
        assert hands == 3 and players == 18
        expected = sum(
            sum(
                type(e).__name__ in {"ActionTaken", "ForcedBetPosted"}
                for e in history.replay(h).events
            )
            for h in good
        )
        assert actions == expected


async def test_decimal_money_hands_store_in_cents(db_url: str) -> None:
    path = next((SHARED_DATA / "phh" / "handhq").rglob("*.phhs"))
    items = [
        (f"{path}[{i}]", "handhq", hh) for i, hh in enumerate(history.load_all(path.read_text()), 1)
    ]
    async with Store.open(db_url, upgrade=True) as store:
        report = await store.import_histories(items)
        assert report.imported + report.errors == 12 and report.imported >= 11
        hands = await store.list_hands(limit=20)
        # Each hand keeps its smallest unit: cents, or tenths where that is enough.
        assert {h.scale for h in hands} <= {10, 100} and all(h.pot % 1 == 0 for h in hands)


async def test_an_unknown_hand_id_is_a_clear_error(db_url: str) -> None:
    async with Store.open(db_url, upgrade=True) as store:
        with pytest.raises(UnknownHandError, match="no hand with id 4242"):
            await store.hand_info(4242)


async def test_sqlite_runs_in_wal_mode(tmp_path: Path) -> None:
    async with (
        Store.open(f"sqlite+aiosqlite:///{tmp_path / 'wal.db'}") as store,
        store.engine.connect() as conn,
    ):
        assert (await conn.execute(text("PRAGMA journal_mode"))).scalar_one() == "wal"
        assert (await conn.execute(text("PRAGMA foreign_keys"))).scalar_one() == 1


async def test_the_writer_checkpoints_sqlite_outside_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The log is copied into the database file by a worker thread, not at a commit."""
    path = tmp_path / "checkpoint.db"
    hands = list(play_hands(4, seed=9))

    def hands_in_database_file_alone() -> int:
        """Hands a copy of the database file holds without its write-ahead log."""
        copy = tmp_path / "copy.db"
        copy.write_bytes(path.read_bytes())
        with contextlib.closing(sqlite3.connect(copy)) as conn:
            if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'hands'").fetchone():
                return 0  # even the schema is only in the log still
            return int(conn.execute("SELECT count(*) FROM hands").fetchone()[0])

    threads: list[str] = []
    original = writer_module._checkpoint

    def checkpoint(name: str) -> None:
        threads.append(threading.current_thread().name)
        original(name)

    monkeypatch.setattr(writer_module, "_checkpoint", checkpoint)
    async with Store.open(f"sqlite+aiosqlite:///{path}", upgrade=True) as store:
        ids = await store.ensure_players(NAMES)
        table = await store.ensure_table("t", {})
        async with store.writer() as writer:
            await writer.write(rows_of(hands[0], table, ids))
            assert threads == [] and hands_in_database_file_alone() == 0  # a small log waits
            monkeypatch.setattr(writer_module, "_CHECKPOINT_BYTES", 0)
            for hand in hands[1:]:
                await writer.write(rows_of(hand, table, ids))
                if writer._checkpoint is not None:  # the checkpoint, in its thread
                    await writer._checkpoint
            assert hands_in_database_file_alone() == 4
    assert threads and threading.main_thread().name not in threads


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ('currency = "DOGECOINS1"\n', "currency must be a code of up to 8 letters"),
        ("seats = [1, 1, 2, 3, 4, 5]\n", "seats must be 6 distinct numbers"),
    ],
)
async def test_imports_check_what_the_database_cannot_hold(
    db_url: str, extra: str, message: str
) -> None:
    text = (PLURIBUS / "30" / "3.phh").read_text() + "\n" + extra
    bad = history.load(text)
    good = history.load((PLURIBUS / "30" / "4.phh").read_text())
    async with Store.open(db_url, upgrade=True) as store:
        report = await store.import_histories([("bad", "t", bad), ("good", "t", good)])
        assert (report.imported, report.errors) == (1, 1)
        assert report.lines[0][2].startswith(message)


async def test_one_writer_commits_many_tables_hands_together(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    hands = list(play_hands(32, seed=5))
    async with Store.open(db_url, upgrade=True) as store:
        ids = await store.ensure_players(NAMES)
        tables = [await store.ensure_table(f"table {t}", {}) for t in range(3)]

        def rows(n: int) -> HandRows:
            return rows_of(hands[n], tables[n % 3], ids)

        rounds: list[int] = []  # the number of writes in each transaction
        original = HandWriter._write

        async def slow(self: HandWriter, items: list[Any]) -> list[int | None]:
            rounds.append(len(items))
            await asyncio.sleep(0.05)  # a round trip that takes a while
            return await original(self, items)

        monkeypatch.setattr(HandWriter, "_write", slow)
        async with store.writer() as writer:
            # Three tables' hands and a buy-in, handed over in one turn of the event loop:
            # the hands go in one transaction, the buy-in in the next.
            written = await asyncio.gather(
                *(writer.write(rows(n)) for n in range(27)),
                writer.record(ids[NAMES[0]], tables[0], 500, "buy_in"),
            )
            assert rounds == [27, 1]
            # Hands handed over while a round is being written go into the next, together.
            first = asyncio.ensure_future(writer.write(rows(28)))
            while not writer._rounds or writer._pending:  # a round has taken it, alone
                await asyncio.sleep(0)
            later = [
                await first,
                *await asyncio.gather(*(writer.write(rows(n)) for n in (29, 30, 31))),
            ]
            assert rounds[2:] == [1, 3] and len(set(later)) == 4
            # Another hand under a stored hand's number is refused; the others in its
            # round are not; a stored hand written again gives its id back.
            clash = rows(3)
            clash.hand["hand_number"] = hands[0].setup.hand_number
            clash.hand["digest"] = "0" * 64  # not a hand stored: another one
            again = await asyncio.gather(
                writer.write(clash), writer.write(rows(27)), writer.write(rows(0)),
                return_exceptions=True,
            )  # fmt: skip
        assert isinstance(again[0], StoreError) and "was not stored" in str(again[0])
        assert isinstance(again[1], int) and again[2] == written[0]
        assert written[-1] is None and len(set(written[:-1])) == 27
        stored = [*written[:-1], *later, again[1]]
        assert await store.hand_ids() == sorted(stored)  # type: ignore[type-var]
        async with store.engine.connect() as conn:
            buy_ins = await conn.execute(
                select(LedgerEntry.amount).where(LedgerEntry.reason == "buy_in")
            )
            assert list(buy_ins.scalars()) == [500]


async def test_the_writer_reconnects_when_postgresql_drops_its_connection() -> None:
    url = await create_pg_database()
    try:
        hands = list(play_hands(2, seed=6))
        async with Store.open(url, upgrade=True) as store:
            ids = await store.ensure_players(NAMES)
            table = await store.ensure_table("t", {})
            both = [rows_of(hand, table, ids) for hand in hands]
            async with store.writer() as writer:
                first = await writer.write(both[0])
                async with store.engine.connect() as conn:  # an operator kills the session
                    killed = await conn.execute(
                        text(
                            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                        )
                    )
                    assert killed.scalar_one() >= 1
                second = await writer.write(both[1])
            assert await store.hand_ids() == [first, second]
    finally:
        await drop_pg_database(url)


async def test_account_tokens_are_stored_only_as_their_hash(tmp_path: Path) -> None:
    """The token a new account gets is never written down: the database keeps its
    SHA-256, which finds the account again; neither the token nor any part of its text
    is anywhere in the file."""
    path = tmp_path / "tokens.db"
    async with Store.open(f"sqlite+aiosqlite:///{path}") as store:
        player_id, token = await store.create_account("carol")
        assert await store.player_by_token(token) == (player_id, "carol")
        assert await store.player_by_token(token[:-1] + "x") is None
        async with store.engine.connect() as conn:
            kept = (await conn.execute(text("SELECT token_hash FROM players"))).scalars().all()
    assert kept == [hashlib.sha256(token.encode()).hexdigest()]
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir())  # the file and its log
    assert token.encode() not in stored and token[:16].encode() not in stored
