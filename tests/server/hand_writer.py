"""Write hands to a store forever, printing each committed hand's number.

Run by tests/server/test_crash.py, which kills it with SIGKILL mid-write:

    python -m tests.server.hand_writer DATABASE_URL
"""

from __future__ import annotations

import asyncio
import datetime as dt
import sys

from server.store import Store, hand_rows
from tests.server.conftest import play_hands


async def main(url: str) -> None:
    async with Store.open(url, upgrade=url.startswith("sqlite")) as store:
        names = [f"crash{i}" for i in range(6)]
        ids = await store.ensure_players(names)
        table_id = await store.ensure_table("crash", {})
        for number, hand in enumerate(play_hands(1_000_000, seed=7), start=1):
            now = dt.datetime.now(dt.UTC)
            rows = hand_rows(
                hand,
                table_id=table_id,
                player_ids=[ids[names[s]] for s in hand.seats],
                names=[names[s] for s in hand.seats],
                started_at=now,
                ended_at=now,
            )
            await store.write_hand(rows)
            print(number, flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
