"""A private table's records are its people's alone (docs/home-games.md, issue 29 item 4):
a stranger, before and after hello, learns nothing of its hands, players or figures by any
message, and no unfiltered statistics count its hands; those at the table (its host, its
players, whoever watches it with the invite) get its figures. A real server on 127.0.0.1,
real websockets clients."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

from server.app import PokerServer
from tests.server.test_private_tables import Client, client, wire_home_game

TIMEOUT = 20.0
PRIVATE_NAMES = ("hana", "bob")


def stranger_probes(table: str, invite_shape: str, hand_id: int) -> list[dict[str, Any]]:
    """Every client message that names a table (or reads records), aimed at ``table``."""
    t = {"table": table}
    return [
        {"type": "stats", **t}, {"type": "stats", **t, "players": list(PRIVATE_NAMES)},
        {"type": "stats"}, {"type": "stats", "players": list(PRIVATE_NAMES)},
        {"type": "stats", "players": ["hana"], "last": 5000},
        {"type": "stats", "game": "nlhe"},
        {"type": "hands"}, {"type": "hand", "hand_id": hand_id},
        {"type": "export", **t, "format": "pokerstars"}, {"type": "export", **t, "format": "phh"},
        {"type": "export", **t, "format": "ohh"}, {"type": "ledger", **t},
        {"type": "spectate", **t}, {"type": "spectate", **t, "invite": invite_shape},
        {"type": "spectate", **t, "delay_hands": 1},
        {"type": "resume", **t, "last_seq": 0}, {"type": "resume", **t, "last_seq": 0,
                                                 "invite": invite_shape},
        {"type": "request_seat", **t, "invite": invite_shape, "buy_in": 200},
        {"type": "sit", **t, "buy_in": 200}, {"type": "chat", **t, "text": "hi"},
        {"type": "react", **t, "emoji": "👍"}, {"type": "host", **t, "action": "pause"},
        {"type": "host", **t, "action": "approve", "player": "eve"},
        {"type": "straddle", **t}, {"type": "bomb_pot", **t}, {"type": "rabbit", **t},
        {"type": "show", **t, "cards": ["As"]}, {"type": "leave", **t},
        {"type": "sit_out", **t}, {"type": "sit_in", **t},
        {"type": "act", **t, "action_id": "x1", "action": "fold"},
        {"type": "choose_game", **t, "game": "nlhe"}, {"type": "list_tables"},
    ]  # fmt: skip


def leaks(probe: dict[str, Any], reply: dict[str, Any], ids: list[int], invite: str) -> bool:
    """Whether a stranger's ``reply`` tells anything of the private table: a count of its
    hands (hana and bob played there alone), their names or its invite; or anything but an
    error to a message about it (leaving what one never watched is always fine)."""
    if reply["type"] == "stats":
        counted = [p for p in reply["players"] if p["name"] in PRIVATE_NAMES]
        return reply["newest"] in ids or any(p["hands"] for p in counted)
    if any(n in json.dumps(reply) for n in (*PRIVATE_NAMES, invite)):
        return True
    return reply["type"] != "error" and probe["type"] not in ("hands", "list_tables", "leave")


@contextlib.asynccontextmanager
async def played(
    app: tuple[PokerServer, str], hands: int, then: str = "pause"
) -> AsyncIterator[tuple[str, str, tuple[Client, Client], list[int]]]:
    """A home game of hana (its host) and bob that has played ``hands`` hands, then
    ``then`` (a host action): its table, invite, the two clients, the stored hands' ids."""
    server, address = app
    async with wire_home_game(address, *PRIVATE_NAMES) as (table, invite, (host, bob)):
        await host.autoplay()
        await bob.autoplay()
        ids = await stored_hands(server, table, hands)
        await host.host(then)
        yield table, invite, (host, bob), ids


async def stored_hands(server: PokerServer, table: str, count: int) -> list[int]:
    """The ids of the table's stored hands, once there are ``count``."""
    async with asyncio.timeout(TIMEOUT):
        while len(hands := await server.store.list_hands(table=table, limit=100)) < count:
            await asyncio.sleep(0.05)
    return [h.id for h in hands]


async def test_a_stranger_learns_nothing_of_a_private_table_by_any_message(
    app: tuple[PokerServer, str],
) -> None:
    _, address = app
    async with played(app, 3) as (table, invite, _, ids):
        leaked: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
        for name in (None, "eve"):  # before hello, and after
            async with client(address, name) as eve:
                for probe in stranger_probes(table, "x" * 32, ids[0]):
                    reply = await eve.ask(**probe)
                    if leaks(probe, reply, ids, invite):
                        leaked.append((str(name), probe, reply))
                # Nothing the table sends reached the stranger either.
                assert not [m for m in eve.messages if m.get("table") == table and "re" not in m]
        assert leaked == [], "\n".join(f"{w}: {p} -> {r}" for w, p, r in leaked)


async def test_those_at_a_private_table_get_its_figures_and_unfiltered_stats_never_count_it(
    app: tuple[PokerServer, str],
) -> None:
    _, address = app
    async with played(app, 3) as (table, invite, (host, bob), ids):
        everyone = {"type": "stats", "table": table, "players": list(PRIVATE_NAMES)}
        for who in (host, bob):  # the host and a player at the table
            reply = await who.ask(**everyone)
            assert reply["type"] == "stats", reply
            assert reply["hands"] >= len(ids) and reply["newest"] in ids
            assert [p["name"] for p in reply["players"]] == list(PRIVATE_NAMES)
            assert all(p["hands"] == reply["hands"] for p in reply["players"])
            # Their own unfiltered figures leave the private table out: these stats are
            # anyone's to ask for, and the answer is the same whoever asks.
            mine = await who.ask(type="stats", players=list(PRIVATE_NAMES))
            assert mine["hands"] == 0 and mine["newest"] is None, mine
        async with client(address, "carol") as carol:
            refused = await carol.ask(**everyone)
            assert (refused["type"], refused["code"]) == ("error", "bad_invite"), refused
            # Watching with the invite lets her see them; leaving ends it.
            watched = await carol.ask(type="spectate", table=table, invite=invite)
            assert watched["type"] == "snapshot", watched
            reply = await carol.ask(**everyone)
            assert reply["type"] == "stats" and reply["newest"] in ids, reply
            await carol.ask(type="leave", table=table)
            again = await carol.ask(**everyone)
            assert again["type"] == "error" and again["code"] == "bad_invite", again
        async with client(address) as anonymous:  # an invite watcher needs no hello
            await anonymous.ask(type="spectate", table=table, invite=invite)
            reply = await anonymous.ask(**everyone)
            assert reply["type"] == "stats" and reply["newest"] in ids, reply


async def test_a_closed_private_tables_figures_are_nobodys_to_ask_for(
    app: tuple[PokerServer, str],
) -> None:
    server, _ = app
    async with played(app, 2, then="close") as (table, _, (host, bob), _):
        async with asyncio.timeout(TIMEOUT):
            while table in server.hosting.tables:
                await asyncio.sleep(0.05)
        for who in (host, bob):
            reply = await who.ask(type="stats", table=table)
            assert (reply["type"], reply.get("code")) == ("error", "bad_invite"), reply
            # Their own hands stay theirs to list and replay.
            hands = await who.ask(type="hands")
            assert hands["type"] == "hands" and hands["hands"], hands
