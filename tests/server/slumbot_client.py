"""A Slumbot API client written from the API's description (docs/bots.md) and the
behaviour of Slumbot's public sample client, not from our server: it imports nothing
from ``server``. It parses the action string by Slumbot's grammar itself.
"""

from __future__ import annotations

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
