"""A tiny ACPC player: protocol 2.0.0 over TCP, the standard library only.

    python examples/acpc_bot.py HOST PORT

It takes exactly the two arguments an ACPC match script gives a player, so it plays at
``pokerroom acpc dealer`` (or the real ACPC dealer) and, through ``pokerroom acpc
gateway``, at an ordinary pokerroom table or in a tournament (docs/bots.md).

It sends ``VERSION:2.0.0``, then reads ``MATCHSTATE:<position>:<hand>:<betting>:<cards>``
lines; when a line is its to answer it replies with the line, ``:`` and an action. Its
rule: bet or raise with a pair or an ace in the hole when nobody has raised this round
(once it has seen a raise, which tells it whether the game is limit, ``r``, or no-limit,
``r<N>`` with N the raise-to over the whole hand); fold anything else to a no-limit raise
above 1,000; otherwise call.

It reads no gamedef, so it cannot know the stacks: it follows hold'em's order of play, as
the ACPC's hold'em gamedefs have it (heads-up the button acts first before the flop,
three or more the player after the big blind; after the flop position 0), as if nobody
were all in. When a player is, it may think it is not to act when it is: so when no new
line comes for a second after one it is still in, it answers that line anyway. A line it
answers that was not its to answer is ignored by the dealer, with a warning.
"""

from __future__ import annotations

import re
import socket
import sys
from collections.abc import Iterator

ACTION = re.compile(r"[fc]|r\d*")


def rounds_of(betting: str) -> list[list[str]]:
    return [ACTION.findall(part) for part in betting.split("/")]


def to_act(position: int, players: int, rounds: list[list[str]]) -> bool | None:
    """Whether ``position`` acts next: each round goes round the table from its first
    player, skipping who has folded; a round is over when everyone still in has called
    the last raise (or checked). None when the hand is over for ``position``."""
    folded: set[int] = set()
    actor = -1
    for r, actions in enumerate(rounds):
        first = (1 if players == 2 else 2 % players) if r == 0 else 0
        actor = first
        while actor in folded:
            actor = (actor + 1) % players
        calls, raised = 0, False
        for action in actions:
            if action == "f":
                folded.add(actor)
            elif action == "c":
                calls += 1
            else:
                calls, raised = 0, True
            actor = (actor + 1) % players
            while actor in folded and len(folded) < players:
                actor = (actor + 1) % players
        live = players - len(folded)
        if live <= 1 or position in folded:
            return None  # everyone else folded, or we did
        last = r == len(rounds) - 1
        if last and calls >= (live - 1 if raised else live):
            return None  # the round (and, with no '/', the hand) is over
    return actor == position


def decide(hole: str, rounds: list[list[str]], nolimit: bool | None) -> str:
    """Raise with a pair or an ace (once a round, once the betting is known); fold other
    hands to a no-limit raise above 1,000 (ten big blinds at 50/100); else call."""
    strong = len(hole) >= 4 and (hole[0] == hole[2] or "A" in hole[::2])
    sizes = [int(a[1:]) for part in rounds for a in part if a[1:].isdigit()]
    facing = any(a.startswith("r") for a in rounds[-1])
    if strong and nolimit is not None and not facing:
        return f"r{max([300, *sizes]) * 2}" if nolimit else "r"  # out of range: clamped
    if not strong and nolimit and facing and max(sizes) > 1000:
        return "f"
    return "c"


def lines(sock: socket.socket) -> Iterator[str | None]:
    """The lines the dealer sends, without their ends; None after a second of silence."""
    sock.settimeout(1.0)
    buffer = b""
    while True:
        try:
            data = sock.recv(65536)
        except TimeoutError:
            yield None
            continue
        if not data:
            return
        buffer += data
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            yield line.decode().rstrip("\r")


def main() -> int:
    if len(sys.argv) != 3:
        print("usage: acpc_bot.py HOST PORT", file=sys.stderr)
        return 2
    host, port = sys.argv[1], int(sys.argv[2])
    nolimit: bool | None = None  # unknown until a raise shows it
    hands = 0
    waiting: str | None = None  # a line we are still in, not (yet) ours to answer
    with socket.create_connection((host, port)) as sock:

        def answer(line: str) -> None:
            _, position, _, betting, cards = line.split(":")
            hole = cards.split("/")[0].split("|")[int(position)]
            action = decide(hole, rounds_of(betting), nolimit)
            sock.sendall(f"{line}:{action}\r\n".encode())

        sock.sendall(b"VERSION:2.0.0\n")
        for line in lines(sock):
            if line is None:  # silence: the line we are in must be ours after all
                if waiting is not None:
                    answer(waiting)
                    waiting = None
                continue
            if not line.startswith("MATCHSTATE:"):
                continue  # comments ('#', ';')
            _, position, hand, betting, cards = line.split(":")
            hands = int(hand) + 1
            for raise_text in re.findall(r"r\d*", betting):
                nolimit = len(raise_text) > 1
            holes = cards.split("/")[0].split("|")
            mine = to_act(int(position), len(holes), rounds_of(betting))
            if sum(1 for h in holes if h) > 1:
                mine = None  # the showdown: the hand is over
            waiting = line if mine is False else None
            if mine:
                answer(line)
    print(f"hands seen: {hands}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
