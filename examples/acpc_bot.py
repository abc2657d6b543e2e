"""A tiny ACPC player: protocol 2.0.0 over TCP, the standard library only.

    python examples/acpc_bot.py HOST PORT

It takes exactly the two arguments an ACPC match script gives a player, so it plays at
``pokerroom acpc dealer`` (or the real ACPC dealer) and, through ``pokerroom acpc
gateway``, at an ordinary pokerroom table or in a tournament (docs/bots.md).

It sends ``VERSION:2.0.0``, then reads ``MATCHSTATE:<position>:<hand>:<betting>:<cards>``
lines; when a line is its to answer it replies with the line, ``:`` and an action. Its
rule: raise with a pair or an ace in the hole (once a round, and only once it has seen a
raise, which tells it whether the game is limit, ``r``, or no-limit, ``r<N>`` with N the
raise-to over the whole hand), otherwise call. It reads no gamedef: it assumes hold'em's
order of play, as the ACPC's hold'em gamedefs have it (heads-up the button acts first
before the flop, three or more the player after the big blind; after the flop position
0), and that nobody is all in before the showdown. A line it answers wrongly is only
ignored by the dealer, with a warning.
"""

from __future__ import annotations

import re
import socket
import sys

ACTION = re.compile(r"[fc]|r\d*")


def rounds_of(betting: str) -> list[list[str]]:
    return [ACTION.findall(part) for part in betting.split("/")]


def to_act(position: int, players: int, rounds: list[list[str]]) -> bool:
    """Whether ``position`` acts next: each round goes round the table from its first
    player, skipping who has folded; a round is over when everyone still in has called
    the last raise (or checked)."""
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
        if live <= 1:
            return False  # everyone else folded: the hand is over
        last = r == len(rounds) - 1
        if last and calls >= (live - 1 if raised else live):
            return False  # the round (and, with no '/', the hand) is over
    return actor == position


def decide(hole: str, rounds: list[list[str]], nolimit: bool | None) -> str:
    """Call, or raise with a pair or an ace (once a round, once the betting is known)."""
    strong = len(hole) >= 4 and (hole[0] == hole[2] or "A" in hole[::2])
    mine_raised = any(a.startswith("r") for a in rounds[-1][-1:])
    if not strong or nolimit is None or mine_raised:
        return "c"
    if not nolimit:
        return "r"
    sizes = [int(a[1:]) for part in rounds for a in part if a.startswith("r")]
    return f"r{max([300, *sizes]) * 2}"  # the dealer clamps a raise out of range


def main() -> int:
    if len(sys.argv) != 3:
        print("usage: acpc_bot.py HOST PORT", file=sys.stderr)
        return 2
    host, port = sys.argv[1], int(sys.argv[2])
    nolimit: bool | None = None  # unknown until a raise shows it
    hands = 0
    with socket.create_connection((host, port)) as sock, sock.makefile("rwb") as conn:
        conn.write(b"VERSION:2.0.0\n")
        conn.flush()
        for raw in conn:
            line = raw.decode().rstrip("\r\n")
            if not line.startswith("MATCHSTATE:"):
                continue  # comments ('#', ';')
            _, position, hand, betting, cards = line.split(":")
            for raise_text in re.findall(r"r\d*", betting):
                nolimit = len(raise_text) > 1
            holes = cards.split("/")[0].split("|")
            rounds = rounds_of(betting)
            if sum(1 for h in holes if h) > 1:
                hands = int(hand) + 1
                continue  # the showdown: the hand is over
            if to_act(int(position), len(holes), rounds):
                action = decide(holes[int(position)], rounds, nolimit)
                conn.write(f"{line}:{action}\r\n".encode())
                conn.flush()
            hands = int(hand) + 1
    print(f"hands seen: {hands}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
