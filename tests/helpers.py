"""Helpers the test suites share."""

from __future__ import annotations

import contextlib
import json
import random
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import BetOrRaiseTo, BringIn, CheckOrCall, Draw, Event, Fold, RunItTwice, Table


def play_out(
    table: Table,
    rng: random.Random,
    *,
    raise_share: float = 0.25,
    fold_share: float = 0.2,
    agree_share: float = 0.9,
) -> list[Event]:
    """Play the hand in progress to its end with random legal actions: a raise (to the
    minimum or all in) with ``raise_share``, a fold with ``fold_share``, else check/call;
    in any game: a random discard in a draw, a bring-in or a completion in stud; asked to
    run it twice, yes with ``agree_share``."""
    events: list[Event] = []
    while table.hand_in_progress:
        seat = table.to_act
        assert seat is not None
        menu = table.legal_actions(seat)
        assert menu is not None
        r = rng.random()
        if menu.run_it_twice:
            events += table.apply(RunItTwice(seat, r < agree_share))
        elif menu.can_draw:  # throw away a random few of one's cards (or dice)
            held = table.view(seat).seats
            cards = next(s.cards for s in held if s.seat == seat) or ()
            k = rng.randint(0, min(menu.max_discard, len(cards)))
            events += table.apply(Draw(seat, tuple(rng.sample(cards, k))))
        elif menu.can_bring_in and not (menu.can_raise and r < raise_share):
            events += table.apply(BringIn(seat))
        elif menu.can_raise and r < raise_share:
            amount = rng.choice([menu.min_raise_to, menu.max_raise_to])
            events += table.apply(BetOrRaiseTo(seat, amount))
        elif menu.can_fold and r < raise_share + fold_share:
            events += table.apply(Fold(seat))
        else:
            events += table.apply(CheckOrCall(seat))
    return events


async def ask(ws: Any, message: dict[str, Any]) -> dict[str, Any]:
    """Send ``message`` over a websocket with an id, and return the server's reply to it
    (whatever else comes meanwhile is skipped)."""
    await ws.send(json.dumps({**message, "id": "q"}))
    while True:
        reply = json.loads(await ws.recv())
        if reply.get("re") == "q":
            return dict(reply)


@dataclass
class ServedApi:
    """A ``pokerroom serve`` process: what it printed until its API served, and (once it
    has stopped) what it wrote to stderr."""

    process: subprocess.Popen[str]
    lines: list[str]
    stderr: str = field(default="")

    @property
    def base(self) -> str:
        """The API's address, from its line ``Slumbot-style API: http://...``."""
        return self.lines[-1].split()[2]


@contextlib.contextmanager
def serve_api(args: list[str], **popen: Any) -> Iterator[ServedApi]:
    """``pokerroom serve ARGS`` in a process of its own (``popen``: more of
    :class:`subprocess.Popen`'s arguments), once it has printed the API's address;
    stopped with SIGTERM at the end."""
    command = [sys.executable, "-m", "server.cli", "serve", *args]
    root = Path(__file__).resolve().parents[1]
    with subprocess.Popen(
        command, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **popen
    ) as process:
        served = ServedApi(process, [])
        try:
            assert process.stdout is not None
            while not served.lines or not served.lines[-1].startswith("Slumbot-style API: "):
                line = process.stdout.readline()
                assert line, process.stderr.read() if process.stderr else ""
                served.lines.append(line)
            yield served
        finally:
            process.send_signal(signal.SIGTERM)
            served.stderr = process.communicate(timeout=30)[1]
