"""A Slumbot-style bot in the standard library alone: plays N hands over the Slumbot HTTP
API and prints its winnings and its baseline-adjusted winnings in big blinds per 100.

It runs unchanged against slumbot.com and against pokerroom (docs/bots.md, "HTTP: the
Slumbot-style API"); only the base URL differs::

    python examples/slumbot_bot.py --base http://127.0.0.1:8766 --hands 200
    python examples/slumbot_bot.py --base https://slumbot.com --hands 200

The strategy is deliberately simple: raise good starting hands, call what a pair or
better can call, check or fold the rest.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import urllib.error
import urllib.request
from typing import Any

SMALL_BLIND, BIG_BLIND, STACK = 50, 100, 20_000
RANKS = "23456789TJQKA"


class ApiError(Exception):
    """The server's ``error_msg``."""


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        base.rstrip("/") + path, data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json"},
    )  # fmt: skip
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            answer = json.loads(response.read())
    except urllib.error.HTTPError as exc:  # an error's body is JSON too
        answer = json.loads(exc.read() or b"{}")
        answer.setdefault("error_msg", f"HTTP {exc.code}")
    if "error_msg" in answer:
        raise ApiError(answer["error_msg"])
    return answer  # type: ignore[no-any-return]


def street_state(action: str) -> tuple[int, int, int]:
    """What the player to act faces, from Slumbot's action string: (the bet to call on
    this street, the size of the last bet or raise, the street total of that bet and the
    chips already in before this street)."""
    streets = action.split("/")
    before = 0
    for number, done in enumerate(streets[:-1]):  # a closed street ends with both level
        before += _street_top(done, preflop=number == 0)
    current = streets[-1]
    preflop = len(streets) == 1
    top, last_size = (BIG_BLIND, BIG_BLIND - SMALL_BLIND) if preflop else (0, 0)
    for token in _tokens(current):
        if token.startswith("b"):
            to = int(token[1:])
            top, last_size = to, to - top
        elif token == "c":
            last_size = 0
    return top, last_size, before


def _street_top(street: str, *, preflop: bool) -> int:
    top = BIG_BLIND if preflop else 0
    for token in _tokens(street):
        if token.startswith("b"):
            top = int(token[1:])
    return top


def _tokens(street: str) -> list[str]:
    tokens, i = [], 0
    while i < len(street):
        j = i + 1
        if street[i] == "b":
            while j < len(street) and street[j].isdigit():
                j += 1
        tokens.append(street[i:j])
        i = j
    return tokens


def strength(hole: list[str], board: list[str]) -> int:
    """0 nothing, 1 a good start or a pair, 2 a strong start or two pair and better."""
    ranks = [RANKS.index(c[0]) for c in hole]
    if not board:
        if ranks[0] == ranks[1]:
            return 2 if ranks[0] >= RANKS.index("T") else 1
        return 2 if min(ranks) >= RANKS.index("Q") else 1 if max(ranks) >= RANKS.index("K") else 0
    seen = [RANKS.index(c[0]) for c in hole + board]
    pairs = sum(1 for r in set(seen) if seen.count(r) >= 2 and r in ranks)
    trips = any(seen.count(r) >= 3 for r in ranks)
    return 2 if trips or pairs >= 2 else 1 if pairs else 0


def decide(r: dict[str, Any], rng: random.Random) -> str:
    top, last_size, before = street_state(r["action"])
    mine = _mine_this_street(r["action"], r["client_pos"])
    to_call = top - mine
    room = STACK - before  # the most a street total may be
    power = strength(r["hole_cards"], r["board"])
    if power == 2 and top < room and rng.random() < 0.8:
        least = top + max(last_size, BIG_BLIND)
        pot = 2 * before + top + mine
        return f"b{min(room, max(least, top + pot // 2 + to_call))}"
    if to_call == 0:
        return "k"
    if power >= 1 and to_call <= 4 * BIG_BLIND + before // 2:
        return "c"
    return "f"


def _mine_this_street(action: str, me: int) -> int:
    """This street's chips from the client (position ``me``: 0 the big blind)."""
    streets = action.split("/")
    preflop = len(streets) == 1
    mine = (BIG_BLIND if me == 0 else SMALL_BLIND) if preflop else 0
    top = BIG_BLIND if preflop else 0
    pos = 1 if preflop else 0  # who acts first: the small blind preflop, else the big
    for token in _tokens(streets[-1]):
        if token.startswith("b"):
            top = int(token[1:])
            if pos == me:
                mine = top
        elif token == "c" and pos == me:
            mine = top
        pos = 1 - pos
    return mine


def play(base: str, hands: int, *, token: str | None, opponent: str | None, seed: int) -> int:
    rng = random.Random(seed)
    winnings: list[int] = []
    baselines: list[int] = []
    adjusted: list[float] = []  # pokerroom's extension: all-in adjusted winnings
    for _ in range(hands):
        body: dict[str, Any] = {} if token is None else {"token": token}
        if opponent:
            body["opponent"] = opponent  # pokerroom's extension: which house bot
        r = post(base, "/api/new_hand", body)
        token = r.get("token", token)
        while "winnings" not in r:
            r = post(base, "/api/act", {"token": token, "incr": decide(r, rng)})
        winnings.append(r["winnings"])
        if "baseline_winnings" in r:
            baselines.append(r["baseline_winnings"])
        if "adjusted_winnings" in r:
            adjusted.append(r["adjusted_winnings"])
    report(winnings, baselines, adjusted)
    return 0


def report(winnings: list[int], baselines: list[int], adjusted: list[float]) -> None:
    n = len(winnings)

    def per_100(xs: list[int] | list[float]) -> str:
        mean = sum(xs) / len(xs) / BIG_BLIND * 100
        sd = math.sqrt(sum((x - sum(xs) / len(xs)) ** 2 for x in xs) / len(xs)) / BIG_BLIND
        margin = 1.96 * sd * 100 / math.sqrt(len(xs))  # bb/100 is 100 x bb a hand
        return f"{mean:+.1f} bb/100 (+- {margin:.1f}, sd {sd:.1f} bb a hand)"

    print(f"hands: {n}")
    print(f"winnings: {sum(winnings)} chips, {per_100(winnings)}")
    if len(baselines) == n:
        diffs = [w - b for w, b in zip(winnings, baselines, strict=True)]
        print(f"baseline: {sum(baselines)} chips, {per_100(baselines)}")
        print(f"winnings - baseline: {sum(diffs)} chips, {per_100(diffs)}")
    if len(adjusted) == n:
        print(f"all-in adjusted: {sum(adjusted):.0f} chips, {per_100(adjusted)}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--base", default="https://slumbot.com", help="the API's base URL")
    p.add_argument("--hands", type=int, default=100)
    p.add_argument("--username", help="log in (else an anonymous session)")
    p.add_argument("--password")
    p.add_argument("--opponent", help="pokerroom only: the house bot to play")
    p.add_argument("--seed", type=int, default=1, help="the strategy's random seed")
    args = p.parse_args(argv)
    token = None
    try:
        if args.username:
            answer = post(args.base, "/api/login",
                          {"username": args.username, "password": args.password or ""})  # fmt: skip
            token = answer["token"]
        return play(args.base, args.hands, token=token, opponent=args.opponent, seed=args.seed)
    except (ApiError, OSError) as exc:
        print(f"slumbot_bot: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
