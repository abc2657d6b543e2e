"""A Slumbot API client written from the API's description (docs/bots.md) and the
behaviour of Slumbot's public sample client, not from our server: it imports nothing
from ``server``. It parses the action string by Slumbot's grammar itself.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from typing import Any

import aiohttp

NUM_STREETS = 4
SMALL_BLIND, BIG_BLIND, STACK_SIZE = 50, 100, 20_000
BOARD_CARDS = (0, 3, 4, 5)

# What every response of new_hand and act has, and what one that ends a hand adds.
ALWAYS = {"old_action", "action", "client_pos", "hole_cards", "board", "token"}
AT_END = {"winnings", "won_pot", "session_num_hands", "baseline_winnings", "session_total",
          "session_baseline_total"}  # fmt: skip


class ActionError(ValueError):
    """An action string that Slumbot's grammar refuses."""


@dataclass
class Parsed:
    """Where a hand stands after an action string, as Slumbot's sample parser keeps it."""

    street: int
    pos: int
    """Who acts next: 0 the big blind, 1 the small blind; -1 when the hand is over."""
    street_last_bet_to: int
    total_last_bet_to: int
    last_bet_size: int
    last_bettor: int
    folded: int | None = None
    """Who folded (their position), if anyone did."""
    contributed: tuple[int, int] = (BIG_BLIND, SMALL_BLIND)
    """Chips each position has put in the pot, by position."""


def parse_action(action: str) -> Parsed:  # noqa: PLR0915  (the reference parser: one loop)
    """Parse ``action`` as Slumbot's reference client does; :class:`ActionError` if the
    grammar refuses it."""
    st, street_last_bet_to, total_last_bet_to = 0, BIG_BLIND, BIG_BLIND
    last_bet_size, last_bettor, pos = BIG_BLIND - SMALL_BLIND, 0, 1
    # Chips in, by position: the hand total before this street, and this street's.
    before, street = 0, [BIG_BLIND, SMALL_BLIND]
    ends_street = False
    i, n = 0, len(action)

    def next_street() -> None:
        nonlocal st, pos, street_last_bet_to, ends_street, before, street
        before += max(street)
        street = [0, 0]
        if st == NUM_STREETS - 1:
            pos = -1
        else:
            pos, st = 0, st + 1
        street_last_bet_to, ends_street = 0, False

    def done(folded: int | None = None) -> Parsed:
        totals = (before + street[0], before + street[1])
        return Parsed(st, pos, street_last_bet_to, total_last_bet_to, last_bet_size,
                      last_bettor, folded, totals)  # fmt: skip

    while i < n:
        if st >= NUM_STREETS:
            raise ActionError("actions after the last street")
        c = action[i]
        i += 1
        if c in "kc":
            if c == "k" and last_bet_size > 0:
                raise ActionError("Illegal check")
            if c == "c" and last_bet_size == 0:
                raise ActionError("Illegal call")
            if c == "c":
                street[pos] = street[1 - pos]
                if total_last_bet_to == STACK_SIZE:  # an all-in called: slashes to the river
                    for _ in range(st, NUM_STREETS - 1):
                        if i == n or action[i] != "/":
                            raise ActionError("missing slash after an all-in call")
                        i += 1
                    if i != n:
                        raise ActionError("extra characters after an all-in call")
                    before, street = before + max(street), [0, 0]
                    st, pos, last_bet_size = NUM_STREETS - 1, -1, 0
                    return done()
            if ends_street:
                if st < NUM_STREETS - 1 and i < n:
                    if action[i] != "/":
                        raise ActionError("missing slash")
                    i += 1
                next_street()
            else:
                pos, ends_street = (pos + 1) % 2, True
            if c == "c":
                last_bet_size, last_bettor = 0, -1
        elif c == "f":
            if last_bet_size == 0:
                raise ActionError("Illegal fold")
            if i != n:
                raise ActionError("extra characters after a fold")
            folded, pos = pos, -1
            return done(folded)
        elif c == "b":
            j = i
            while i < n and action[i].isdigit():
                i += 1
            if i == j:
                raise ActionError("missing bet size")
            to = int(action[j:i])
            size = to - street_last_bet_to
            remaining = STACK_SIZE - total_last_bet_to
            least = max(last_bet_size, BIG_BLIND) if last_bet_size > 0 else BIG_BLIND
            least = min(least, remaining)
            if size < least:
                raise ActionError("Bet too small")
            if size > remaining:
                raise ActionError("Bet too big")
            street[pos] = to
            last_bet_size, street_last_bet_to = size, to
            total_last_bet_to += size
            last_bettor, pos, ends_street = pos, (pos + 1) % 2, True
        else:
            raise ActionError(f"unexpected character {c!r}")
    return done()


def legal_incrs(state: Parsed) -> tuple[list[str], int, int]:
    """The client's choices: the letters it may send, and the bounds (street totals) of a
    bet or raise (``0, 0`` when none is possible)."""
    letters = ["c", "f"] if state.last_bet_size > 0 else ["k"]
    remaining = STACK_SIZE - state.total_last_bet_to
    if remaining <= 0:
        return letters, 0, 0
    least = max(state.last_bet_size, BIG_BLIND)
    low = state.street_last_bet_to + min(least, remaining)
    return letters, low, state.street_last_bet_to + remaining


def random_incr(state: Parsed, rng: random.Random) -> str:
    """A random legal action: each kind alike, a bet all in a fifth of the time."""
    letters, low, high = legal_incrs(state)
    choices = list(letters)
    if high:
        amount = high if rng.random() < 0.2 else rng.randint(low, min(high, low + 2_000))
        choices.append(f"b{amount}")
    return rng.choice(choices)


class SlumbotClient:
    """The three endpoints over one aiohttp client session."""

    def __init__(self, http: aiohttp.ClientSession, base: str) -> None:
        self.http, self.base = http, base.rstrip("/")

    async def post(self, path: str, body: Any) -> tuple[int, dict[str, Any]]:
        """POST ``body`` (JSON, or raw bytes as they are) to ``path``: status and JSON."""
        data = body if isinstance(body, bytes) else None
        json_body = None if isinstance(body, bytes) else body
        async with self.http.post(self.base + path, data=data, json=json_body) as r:
            return r.status, await r.json(content_type=None)

    async def login(self, username: str, password: str) -> tuple[int, dict[str, Any]]:
        return await self.post("/api/login", {"username": username, "password": password})

    async def new_hand(self, token: str | None = None, **extra: Any) -> dict[str, Any]:
        body = {} if token is None else {"token": token}
        status, answer = await self.post("/api/new_hand", {**body, **extra})
        assert status == 200, answer
        return answer

    async def act(self, token: str, incr: str) -> dict[str, Any]:
        status, answer = await self.post("/api/act", {"token": token, "incr": incr})
        assert status == 200, answer
        return answer


def check_response(r: dict[str, Any]) -> Parsed:
    """Every field a response must have, and its action string parsed: the client is to
    act unless the hand is over."""
    assert r.keys() >= ALWAYS, r
    assert r["client_pos"] in (0, 1)
    assert len(r["hole_cards"]) == 2 and all(len(c) == 2 for c in r["hole_cards"])
    state = parse_action(r["action"])
    assert r["action"].startswith(r["old_action"]), r
    over = "winnings" in r
    if over:
        assert r.keys() >= AT_END, r
        assert state.pos == -1, r
    else:
        assert not (AT_END & r.keys()), r
        assert state.pos == r["client_pos"], r
        assert len(r["board"]) == BOARD_CARDS[state.street], r
    cards = r["hole_cards"] + r["board"] + r.get("bot_hole_cards", [])
    assert len(set(cards)) == len(cards), r
    return state


# -- many clients at once, as fast as they go, from a process of their own ------------------

HAMMERS = ("allin", "fold", "malformed", "unknown")
"""What :func:`hammer`'s clients send: all-in hands a calling station calls (the heaviest
a hand settles), hands folded or checked down (the cheapest that end), malformed JSON, and
acts with a token nobody was given."""


async def _hammering(
    client: SlumbotClient, mode: str, deadline: float, tally: dict[str, int]
) -> None:
    loop = asyncio.get_running_loop()
    token: str | None = None
    r: dict[str, Any] = {"winnings": 0}
    while loop.time() < deadline:
        if mode == "malformed":
            status, _ = await client.post("/api/act", b"{not json")
        elif mode == "unknown":
            status, _ = await client.post("/api/act", {"token": "nobody's", "incr": "c"})
        elif "winnings" in r:
            body = {"opponent": "calling-station"} if token is None else {"token": token}
            status, answer = await client.post("/api/new_hand", body)
            if status == 200:
                r, token = answer, answer["token"]
        else:
            state = parse_action(r["action"])
            letters, _, high = legal_incrs(state)
            if mode == "allin":
                incr = f"b{high}" if high else "c"
            else:
                incr = "f" if "f" in letters else "k"
            status, answer = await client.post(
                "/api/act", {"token": token, "incr": incr, "old_action": r["action"]}
            )
            r = answer if status == 200 else {"winnings": 0}  # refused: a new hand
        tally[str(status)] = tally.get(str(status), 0) + 1
        if "winnings" in r and mode == "allin" and status == 200 and "action" in r:
            tally["all_in_called"] = tally.get("all_in_called", 0) + ("c///" in r["action"])


async def hammer(
    base: str, mode: str, clients: int, seconds: float, spread: bool = False
) -> dict[str, Any]:
    """``clients`` clients sending ``mode`` requests (:data:`HAMMERS`) one after another,
    each on a connection of its own, for ``seconds``: how many got each status. With
    ``spread``, each client from an address of its own (127.0.0.2, 127.0.0.3, ...: all of
    127/8 is the loopback on Linux)."""
    tally: dict[str, int] = {}
    loop = asyncio.get_running_loop()
    started = loop.time()

    async def one(n: int) -> None:
        local = (f"127.0.0.{2 + n}", 0) if spread else None
        connector = aiohttp.TCPConnector(limit=1, local_addr=local)
        async with aiohttp.ClientSession(connector=connector) as http:
            try:
                await _hammering(SlumbotClient(http, base), mode, started + seconds, tally)
            except (TimeoutError, aiohttp.ClientError) as exc:
                key = type(exc).__name__
                tally[key] = tally.get(key, 0) + 1

    await asyncio.gather(*(one(n) for n in range(clients)))
    return {"mode": mode, "clients": clients, "spread": spread,
            "seconds": round(loop.time() - started, 2), **tally}  # fmt: skip


if __name__ == "__main__":
    # python -m tests.server.slumbot_client BASE MODE CLIENTS SECONDS [spread]: the tally
    import json
    import sys

    base, mode, clients, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    found = asyncio.run(hammer(base, mode, clients, seconds, spread=sys.argv[5:] == ["spread"]))
    print(json.dumps(found))
