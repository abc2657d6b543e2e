"""A table's ledger (server/store/ledger.py, ``pokerroom ledger export``): sessions in
PokerNow's columns, nets that balance to zero, and settled by ``ledger settle``."""

from __future__ import annotations

import asyncio
import csv
import datetime as dt
import io
import json
from pathlib import Path

import pytest
from sqlalchemy import insert

from server.cli import main
from server.settle import read_ledger, settle
from server.store import Store
from server.store.ledger import CSV_COLUMNS, entry
from server.store.models import LEDGER
from tests.server.conftest import demo_server

T0 = dt.datetime(2026, 11, 20, 20, 0, tzinfo=dt.UTC)


async def test_sessions_run_from_a_buy_in_to_the_cash_out_that_empties_the_seat(
    tmp_path: Path,
) -> None:
    async with Store.open(f"sqlite+aiosqlite:///{tmp_path / 'l.db'}") as store:
        table = await store.ensure_table("friday", {})
        ids = await store.ensure_players(["ann", "bob"])
        ann, bob = ids["ann"], ids["bob"]
        moves = [
            (ann, 1000, "buy_in"), (bob, 1000, "buy_in"),
            (ann, 400, "hand"), (bob, -400, "hand"),
            (bob, -600, "hand"), (ann, 600, "hand"),  # bob is broke: still seated
            (bob, 500, "buy_in"),  # a rebuy: the same session
            (ann, -2000, "cash_out"),  # ann leaves with everything: her session ends
            (ann, 300, "buy_in"),  # and comes back: a second session
            (ann, 100, "hand"), (bob, -100, "hand"),
        ]  # fmt: skip
        rows = [
            entry(p, table, amount, reason, T0 + dt.timedelta(minutes=i))
            for i, (p, amount, reason) in enumerate(moves)
        ]
        async with store.engine.begin() as conn:
            await conn.execute(insert(LEDGER), rows)
        found = await store.ledger_sessions("friday")
        with pytest.raises(Exception, match="no table 'monday'"):
            await store.ledger_sessions("monday")
    got = [(s.nickname, s.buy_in, s.buy_out, s.stack, s.net, s.end is None) for s in found]
    assert got == [
        ("ann", 1000, 2000, 0, 1000, False),
        ("bob", 1500, 0, 400, -1100, True),
        ("ann", 300, 0, 400, 100, True),
    ]
    assert sum(s.net for s in found) == 0
    assert found[0].csv_row()[2:4] == ["2026-11-20T20:00:00.000Z", "2026-11-20T20:07:00.000Z"]


async def test_a_played_table_exports_a_ledger_that_balances_and_settles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "server.db"
    async with demo_server(db, bots=4) as demo:
        while demo.runner.finished_through < 12:
            await asyncio.sleep(0.05)
        async with Store.open(f"sqlite+aiosqlite:///{db}") as store:
            live = await store.ledger_sessions("demo")
        # At every moment the nets, stacks at the table included, sum to zero.
        assert len(live) == 4 and sum(s.net for s in live) == 0
        assert all(s.end is None and s.stack > 0 for s in live)
    url = f"sqlite+aiosqlite:///{db}"
    assert await asyncio.to_thread(main, ["ledger", "export", "--table", "demo", "--db", url]) == 0
    text = capsys.readouterr().out
    rows = list(csv.reader(io.StringIO(text)))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert len(rows) == 5
    closed = rows[1:]
    assert all(r[3] and r[6] == "0" for r in closed)  # the server stopped: all cashed out
    assert sum(int(r[7]) for r in closed) == 0
    assert any(int(r[7]) for r in closed)  # somebody won something in 12 hands
    nets = read_ledger(text)
    settled = ["ledger", "settle", "--table", "demo", "--db", url, "--json"]
    assert await asyncio.to_thread(main, settled) == 0
    from_store = capsys.readouterr().out
    assert [t.to_json() for t in settle(nets)] == json.loads(from_store)
