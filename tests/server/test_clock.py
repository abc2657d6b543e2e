"""Each decision and its clock (server/tables/clock.py).

The rules, on the table core alone with a fake clock (tests/server/core_room.py): acting
once for an action id, only from the seated connection, stale answers, timeouts and
sitting out, a disconnected player's clock, and what a decision takes off the time bank.
End to end through the server, only the race of two websocket connections of one player
acting for the same seat at once."""

from __future__ import annotations

import asyncio
from typing import Any, Literal

import pytest
from websockets.asyncio.client import connect

from engine import ActionTaken, TableConfig
from server import protocol
from server.app import PokerServer
from server.errors import Refusal
from server.tables import Caller, Disconnect
from tests.server.clients import SESSIONS, Inbox, seated, send, until
from tests.server.core_room import Room


def play_until(room: Room, name: str) -> dict[str, Any]:
    """Everyone else checks or calls until it is ``name``'s turn; their action request."""
    for _ in range(100):
        if room.to_act() == name:
            return room.request(name)
        room.check_or_call()
    raise AssertionError(f"never {name}'s turn")


def free(request: dict[str, Any]) -> Literal["check", "call"]:
    """The request's check, or its call."""
    return "check" if request["menu"]["can_check"] else "call"


def clock_events(room: Room, name: str, seat: int) -> list[str]:
    """What ``name`` saw ``seat`` do or undergo: its actions ("action_taken:fold"...)
    and its sitting out, in order."""
    seen = []
    for m in room.person(name).messages:
        event = m.get("event", {}) if m["type"] == "event" else {}
        if event.get("seat") == seat and event["type"] == "action_taken":
            seen.append(f"action_taken:{event['kind']}")
        elif event.get("seat") == seat and event["type"] == "player_sat_out":
            seen.append("player_sat_out")
    return seen


# -- on the core ------------------------------------------------------------------------


def test_an_action_retried_with_the_same_id_acts_once() -> None:
    """The same action id again is answered again, marked a duplicate, and does nothing:
    not even a refusal once the turn has passed (a new id then is not the player's turn)."""
    room = Room(TableConfig(small_blind=1, big_blind=2, seats=2))
    room.sit("alice", 0)
    room.sit("bob", 1)
    name = room.to_act()  # the button, first to act heads-up: the big blind acts next
    assert name is not None
    seat = room.core.seats.of_player(room.player(name))
    action = free(room.request(name))
    first = room.send(name, type="act", action_id="once", action=action)
    assert first == {"type": "ack", "table": "t", "action_id": "once"}
    assert room.to_act() not in (None, name)
    again = room.send(name, type="act", action_id="once", action=action)
    assert again == {**first, "duplicate": True}
    hand = room.core.table.hand
    assert hand is not None
    mine = [e for e in hand.log if isinstance(e, ActionTaken) and e.seat == seat]
    assert len(mine) == 1
    refused = room.refused(name, type="act", action_id="twice", action=action)
    assert refused.code == "not_your_turn"


def test_only_the_seated_connection_acts_for_the_seat() -> None:
    """The same player on another connection (see the race end to end below) may not act
    for the seat: ``not_seated``, and nothing happens; the seated connection acts."""
    room = Room(TableConfig(small_blind=1, big_blind=2, seats=2))
    room.sit("carol", 0)
    room.sit("dave", 1)
    request = play_until(room, "carol")
    other = Caller(Inbox(), room.player("carol"))
    act = protocol.Act(type="act", table="t", action_id="b", action=free(request))
    with pytest.raises(Refusal) as refused:
        room.submit(act, other)
    assert refused.value.code == "not_seated"
    assert room.to_act() == "carol"
    assert clock_events(room, "dave", 0) == []
    ack = room.send("carol", type="act", action_id="a", action=free(request))
    assert ack == {"type": "ack", "table": "t", "action_id": "a"}
    assert clock_events(room, "dave", 0) == [f"action_taken:{free(request)}"]


def test_timeouts_check_or_fold_and_then_sit_the_player_out() -> None:
    """A decision nobody answers times out after the decision time and the time bank
    (check if free, else fold), and the bank is spent; the next has the decision time
    alone. After two timeouts in a row the player is sat out."""
    room = Room(TableConfig(small_blind=1, big_blind=2, seats=3),
                decision_seconds=2.0, time_bank_seconds=3.0)  # fmt: skip
    room.sit("bob", 0)
    room.sit("erin", 1)
    first = play_until(room, "erin")
    assert (first["decision_seconds"], first["time_bank_seconds"]) == (2.0, 3.0)
    room.wait(4.0)
    assert room.to_act() == "erin" and clock_events(room, "bob", 1) == []
    room.wait(1.0)  # 2 s and the 3 s bank
    assert clock_events(room, "bob", 1) in (["action_taken:check"], ["action_taken:fold"])
    erin = room.core.seats.occupants[1]
    assert erin.time_bank == 0.0  # the bank went on the first timeout
    assert erin.timeouts == 1 and not room.core.table.is_sitting_out(1)

    second = play_until(room, "erin")
    assert second["seq"] > first["seq"]
    assert (second["decision_seconds"], second["time_bank_seconds"]) == (2.0, 0.0)
    room.wait(1.0)
    assert room.to_act() == "erin" and len(clock_events(room, "bob", 1)) == 1
    room.wait(1.0)
    kinds = clock_events(room, "bob", 1)
    assert kinds[-1] == "player_sat_out"
    acted = kinds[:-1]
    assert len(acted) == 2 and all(k in ("action_taken:check", "action_taken:fold") for k in acted)
    assert erin.timeouts == 2 and erin.time_bank == 0.0
    assert room.core.table.is_sitting_out(1)


def test_an_answer_to_a_decision_the_clock_settled_is_stale() -> None:
    """Unanswered, a decision is checked or folded by the clock and the player's turn
    comes again: an answer to the old request (its seq) is ``stale`` and does nothing;
    one to the new request acts."""
    room = Room(TableConfig(small_blind=1, big_blind=2, seats=2),
                decision_seconds=3.0, time_bank_seconds=0.0)  # fmt: skip
    room.sit("bob", 0)
    room.sit("late", 1)
    missed = play_until(room, "late")
    room.wait(3.0)
    assert len(clock_events(room, "bob", 1)) == 1  # the clock acted
    later = play_until(room, "late")
    assert later["seq"] > missed["seq"]
    refused = room.refused("late", type="act", action_id="late-1", action="fold",
                           seq=missed["seq"])  # fmt: skip
    assert refused.code == "stale"
    assert room.to_act() == "late" and len(clock_events(room, "bob", 1)) == 1
    ack = room.send("late", type="act", action_id="late-2", action=free(later), seq=later["seq"])
    assert ack == {"type": "ack", "table": "t", "action_id": "late-2"}
    assert clock_events(room, "bob", 1)[1:] == [f"action_taken:{free(later)}"]


def test_a_disconnected_player_is_folded_on_their_clock_then_sat_out() -> None:
    """A seat whose connection dropped while it faced a decision is checked or folded when
    its clock runs out, and is sat out: the next hands are dealt without it, and nobody
    waits for it again. It keeps the seat for the grace period."""
    room = Room(TableConfig(small_blind=1, big_blind=2, seats=3),
                decision_seconds=3.0, time_bank_seconds=0.0)  # fmt: skip
    room.sit("a", 0)
    room.sit("gone", 2)
    room.sit("b", 1)
    play_until(room, "gone")
    hand = room.core.table.hand_number
    assert room.submit(Disconnect(), room.caller("gone")) == {}
    room.wait(2.0)
    assert room.to_act() == "gone"  # the clock runs on
    room.wait(1.0)
    assert clock_events(room, "a", 2)[:2] in (
        ["action_taken:check", "player_sat_out"],
        ["action_taken:fold", "player_sat_out"],
    )
    assert room.core.table.is_sitting_out(2)
    for _ in range(100):  # three more hands, by a and b
        if room.stored and room.stored[-1] >= hand + 3:
            break
        assert room.to_act() != "gone"  # nobody waits for them again
        room.check_or_call()
    else:
        raise AssertionError("three hands were not played")
    later = [e for e in room.person("a").events("hand_started") if e["hand_number"] > hand]
    assert len(later) >= 3 and all(2 not in e["seats"] for e in later)
    # Whenever the action reached it again: checked (or folded) at once, no clock.
    rest = clock_events(room, "a", 2)[2:]
    assert all(k in ("action_taken:check", "action_taken:fold") for k in rest)
    assert room.core.seats.occupants[2].timeouts == 1  # one clock ran out, and only one
    assert room.core.table.is_sitting_out(2)
    assert room.core.seats.occupants[2].player == room.player("gone")  # the grace period


def test_a_decision_spends_only_what_it_takes_past_the_decision_time() -> None:
    """15 s on a 10 s decision takes 5 s off the bank; a decision within the decision
    time takes nothing."""
    room = Room(TableConfig(small_blind=1, big_blind=2, seats=2),
                decision_seconds=10.0, time_bank_seconds=30.0)  # fmt: skip
    room.sit("p0", 0)
    room.sit("p1", 1)
    name = room.to_act()
    assert name is not None
    seat = room.core.seats.of_player(room.player(name))
    assert seat is not None
    request = room.request(name)
    assert request["time_bank_seconds"] == 30.0
    room.wait(15.0)
    assert room.to_act() == name  # 40 s on the clock
    room.act(name, free(request))
    assert room.core.seats.occupants[seat].time_bank == 25.0
    request = play_until(room, name)
    assert request["time_bank_seconds"] == 25.0
    room.wait(10.0)
    room.act(name, free(request))
    assert room.core.seats.occupants[seat].time_bank == 25.0


# -- end to end -------------------------------------------------------------------------


async def test_two_clients_racing_for_one_seat_act_at_most_once(
    app: tuple[PokerServer, str],
) -> None:
    _, address = app
    ws = await seated(address, "carol", 5)
    other = await connect(f"ws://{address}/ws")
    try:
        # The same player on a second connection, proving it with the session token.
        await send(other, type="hello", session=SESSIONS["carol"])
        await until(other, "welcome")
        request = await until(ws, "action_request", timeout=30)
        action: Literal["check", "call"] = "check" if request["menu"]["can_check"] else "call"
        await asyncio.gather(
            send(ws, type="act", table="demo", action_id="a", action=action),
            send(other, type="act", table="demo", action_id="b", action=action),
        )
        assert (await until(ws, "ack"))["action_id"] == "a"
        refused = await until(other, "error")
        assert refused["code"] == "not_seated"  # only the seated connection acts for the seat
    finally:
        await ws.close()
        await other.close()
