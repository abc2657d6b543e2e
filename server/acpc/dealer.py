"""The ACPC dealer's match over TCP: protocol 2.0.0, as project_acpc_server's dealer.c
plays it, with our :mod:`server.acpc.state` for the rules.

One listening port per seat; the first stdout line names them. Each seat connects once
and sends ``VERSION:2.0.0`` (LF or CRLF). Every hand, every seat is sent its
``MATCHSTATE`` after every action and when the hand ends; only the seat to act answers,
with the state it was sent, ``:`` and its action. The positions rotate by one seat each
hand (``-f`` fixes them), stacks reset, and ``MATCHNAME.log`` gets one ``STATE:`` line per
hand and the ``SCORE:`` line, which also ends stdout.

With ``duplicate``, the match is played again with the same seed once for each further
rotation of the positions (for two players: the seats swapped), so each player holds
each position's cards; the replays' hands are numbered on (HANDS, HANDS + 1, ...), each
pass ends with a ``# duplicate rotation R SCORE:...`` comment line, and ``SCORE`` sums
all passes.

Bad input is handled as the dealer handles it: a reply for another state is ignored, an
action that does not parse or is not allowed becomes a call, and a no-limit raise out of
range is clamped (a size of any number of digits: :func:`server.acpc.state.parse_action`).
Lines are read with a bound (:mod:`server.acpc.lines`): a reply longer than
:data:`~server.acpc.lines.MAX_LINE` bytes is not read, and is a call if it begins with the
state to answer (ignored otherwise). With ``strict``, each of those instead ends the
match: the seat is sent a ``#`` comment line saying why and is disconnected. A timeout, a
disconnect (a line never ended included) or a bad version line ends the match too
(:class:`MatchError`), without a ``SCORE`` line, as the dealer exits; so does a seat that
does not read what it is sent for ``t_response``. Every connection is closed when the
match ends, however it ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Final

from engine.acpc import GameDef
from server.acpc.dealing import MT19937, deal
from server.acpc.lines import MAX_LINE, Line, read_line, shown
from server.acpc.state import Action, HandState, format_value, parse_action

__all__ = ["MatchConfig", "MatchError", "run_match"]

VERSION: Final = (2, 0, 0)
# dealer.c's defaults, in milliseconds.
DEFAULT_T_RESPONSE: Final = 600_000
DEFAULT_T_HAND: Final = 600_000
DEFAULT_T_PER_HAND: Final = 7_000
_VERSION_LINE = re.compile(r"VERSION:(\d+)\.(\d+)\.(\d+)")


class MatchError(Exception):
    """The match cannot go on: a seat timed out, disconnected, or (strict) misbehaved."""


@dataclass
class MatchConfig:
    """``dealer MATCHNAME GAMEDEF HANDS SEED NAME1 NAME2 ... [options]``."""

    name: str
    game_path: str  # as given: the log's first line names it
    game: GameDef
    hands: int
    seed: int
    names: list[str]
    ports: list[int] = field(default_factory=list)  # 0 or missing: any free port
    host: str = "0.0.0.0"
    fixed_seats: bool = False
    log: bool = True
    append: bool = False
    quiet: bool = False
    strict: bool = False
    duplicate: bool = False
    t_response: int = DEFAULT_T_RESPONSE
    t_hand: int = DEFAULT_T_HAND
    t_per_hand: int = DEFAULT_T_PER_HAND
    start_timeout: int | None = None  # None (the dealer's <0): wait for ever


@dataclass
class _Seat:
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    used_hand: float = 0.0
    used_match: float = 0.0


class _Match:
    def __init__(self, config: MatchConfig, out: IO[str], err: IO[str]) -> None:
        self.config, self.out, self.err = config, out, err
        self.game = config.game
        self.n = config.game.num_players
        self.seats: list[_Seat] = []
        self.log: IO[str] | None = None
        # Duplicate: the match again with the same seed once per further rotation.
        self.rounds = self.n if config.duplicate else 1

    def note(self, text: str) -> None:
        print(text, file=self.err, flush=True)

    def write_log(self, text: str) -> None:
        if self.log is not None:
            self.log.write(text + "\n")
            self.log.flush()

    async def listen(self) -> list[tuple[asyncio.Server, asyncio.Future[_Seat]]]:
        loop = asyncio.get_running_loop()
        listeners = []
        for i in range(self.n):
            future: asyncio.Future[_Seat] = loop.create_future()

            def accept(
                reader: asyncio.StreamReader,
                writer: asyncio.StreamWriter,
                future: asyncio.Future[_Seat] = future,
            ) -> None:
                if future.done():  # the seat is taken: the dealer accepts one connection
                    writer.close()
                else:
                    future.set_result(_Seat(reader, writer))

            port = self.config.ports[i] if i < len(self.config.ports) else 0
            server = await asyncio.start_server(accept, self.config.host, port)
            listeners.append((server, future))
        return listeners

    async def connect(self, listeners: list[tuple[asyncio.Server, asyncio.Future[_Seat]]]) -> None:
        start = time.monotonic()
        for i, (server, future) in enumerate(listeners):
            timeout = self.config.start_timeout
            left = (
                None if timeout is None else max(0.0, timeout / 1000 - (time.monotonic() - start))
            )
            try:
                seat = await asyncio.wait_for(future, left)
            except TimeoutError:
                raise MatchError(f"timed out waiting for seat {i + 1} to connect") from None
            server.close()
            self.seats.append(seat)
        for i in range(len(self.seats)):
            line = await self.readline(i, None)
            if line is None:
                raise MatchError(f"could not read version string from seat {i + 1}")
            match = None if line.cut else _VERSION_LINE.match(line.text)
            if match is None:
                raise MatchError(f"invalid version string {shown(line.text)} from seat {i + 1}")
            major, minor, _ = map(int, match.groups())
            if major != VERSION[0] or minor > VERSION[1]:
                self.note("ERROR: this server is currently using version 2.0.0")

    async def readline(self, seat: int, timeout: float | None) -> Line | None:
        """A line from ``seat`` (at most :data:`MAX_LINE` bytes of it), or None on a
        disconnect; raises :class:`TimeoutError`."""
        return await asyncio.wait_for(read_line(self.seats[seat].reader), timeout)

    async def send(self, seat: int, line: str) -> float:
        writer = self.seats[seat].writer
        try:
            writer.write(line.encode() + b"\r\n")
            # A seat that does not read fills its socket, and then drain waits: not for ever.
            await asyncio.wait_for(writer.drain(), self.config.t_response / 1000)
        except TimeoutError:
            raise MatchError(f"could not send state to seat {seat + 1}: it does not read") from None
        except ConnectionError:
            raise MatchError(f"could not send state to seat {seat + 1}") from None
        sent = time.time()
        if not self.config.quiet:
            self.note(f"TO {seat + 1} at {sent:.6f} {line}")
        return sent

    async def refuse(self, seat: int, reason: str) -> None:
        """Strict mode: tell ``seat`` why (a comment line, which clients skip) and end."""
        writer = self.seats[seat].writer
        try:
            writer.write(f"# disconnected: {reason}\r\n".encode())
            await asyncio.wait_for(writer.drain(), 1.0)
        except (ConnectionError, TimeoutError):
            pass
        raise MatchError(f"seat {seat + 1}: {reason}")

    async def response(self, seat: int, sent_line: str, hand: HandState) -> Action | None:
        """The action ``seat`` answers ``sent_line`` with, fixed as the dealer fixes it;
        None is a call."""
        config, s = self.config, self.seats[seat]
        sent_at = time.monotonic()
        while True:
            try:
                line = await self.readline(seat, config.t_response / 1000)
            except TimeoutError:
                raise MatchError(f"could not get action from seat {seat + 1}: timed out") from None
            if line is None:
                raise MatchError(f"could not get action from seat {seat + 1}: disconnected")
            if not config.quiet:
                said = line.text if line.text.isprintable() and not line.cut else shown(line.text)
                self.note(f"FROM {seat + 1} at {time.time():.6f} {said}")
            if line.text.startswith(("#", ";")):
                continue
            used = time.monotonic() - sent_at
            s.used_hand += used
            s.used_match += used
            if (
                used * 1000 > config.t_response
                or s.used_hand * 1000 > config.t_hand
                or s.used_match * 1000 > config.t_per_hand * config.hands * self.rounds
            ):
                raise MatchError(f"seat {seat + 1} ran out of time")
            sent_at = time.monotonic()
            # The state answered is the line sent, whole: what follows its ':' is the
            # action, whatever it holds (a ':' of its own included).
            if line.text != sent_line and not line.text.startswith(sent_line + ":"):
                if config.strict:
                    await self.refuse(seat, f"reply to a state other than {sent_line!r}")
                self.note("WARNING: ignoring un-requested response")
                continue
            text = line.text[len(sent_line) + 1 :]
            if line.cut:
                if config.strict:
                    await self.refuse(seat, f"a line longer than {MAX_LINE} bytes")
                self.note(f"WARNING: a line longer than {MAX_LINE} bytes, changed to call")
                return None
            action = parse_action(text, self.game)
            if action is None:
                if config.strict:
                    await self.refuse(seat, f"cannot read action {shown(text)}")
                self.note("WARNING: bad action format in response, changed to call")
                return None
            fixed = hand.fix(action)
            if fixed is None:
                if config.strict:
                    await self.refuse(seat, f"action {shown(text)} is not allowed now")
                self.note("WARNING: invalid action, changed to call")
                return None
            if fixed != action:
                if config.strict:
                    low, high = hand.raise_range() or (0, 0)
                    await self.refuse(seat, f"raise to {action.size} is outside {low}..{high}")
                word = "increased" if fixed.size > action.size else "decreased"
                self.note(f"WARNING: raise of {action.size} {word} to {fixed.size}")
            return fixed

    async def play(self, rotation: int = 0) -> list[float]:
        """The match's hands, their positions moved ``rotation`` seats on (a duplicate
        replay: the same seed deals the same cards, numbered on from the last hand)."""
        config, n = self.config, self.n
        rng = MT19937(config.seed)
        totals = [0.0] * n
        player0_seat = rotation % n
        for index in range(config.hands):
            hand_id = rotation * config.hands + index
            if index and not config.fixed_seats:
                player0_seat = (player0_seat + 1) % n
            for s in self.seats:
                s.used_hand = 0.0
            holes, board = deal(self.game, rng)
            hand = HandState(self.game, hand_id, holes, board)
            while not hand.finished:
                actor = hand.current_player()
                sent_line = ""
                for seat in range(n):
                    line = hand.match_state((seat + n - player0_seat) % n)
                    await self.send(seat, line)
                    if (seat + n - player0_seat) % n == actor:
                        sent_line = line
                hand.apply(await self.response((actor + player0_seat) % n, sent_line, hand))
            values = [hand.value(p) for p in range(n)]
            for p in range(n):
                totals[(p + player0_seat) % n] += values[p]
            self.write_log(hand.log_line([config.names[(p + player0_seat) % n] for p in range(n)]))
            for seat in range(n):
                await self.send(seat, hand.match_state((seat + n - player0_seat) % n))
        return totals

    async def close(self) -> None:
        for s in self.seats:
            s.writer.close()
        for s in self.seats:
            # What a seat that does not read left unsent is not waited for: dropped.
            try:
                await asyncio.wait_for(s.writer.wait_closed(), 1.0)
            except TimeoutError:
                s.writer.transport.abort()
            except ConnectionError:
                pass


async def run_match(
    config: MatchConfig,
    out: IO[str] = sys.stdout,
    err: IO[str] = sys.stderr,
    on_ports: Callable[[list[int]], None] | None = None,
) -> list[float]:
    """Play the match; returns each seat's total, in seat order, after printing the
    ``SCORE`` line. ``on_ports`` hears the listening ports as they are printed."""
    match = _Match(config, out, err)
    if len(config.names) < match.n:
        raise MatchError(f"{match.n} players need {match.n} names, got {len(config.names)}")
    listeners = await match.listen()
    ports = [server.sockets[0].getsockname()[1] for server, _ in listeners]
    print(" ".join(map(str, ports)), file=out, flush=True)
    if on_ports is not None:
        on_ports(ports)
    with contextlib.ExitStack() as files:
        if config.log:
            match.log = files.enter_context(
                Path(f"{config.name}.log").open("a" if config.append else "w")
            )
        return await _play(match, config, listeners)


async def _play(
    match: _Match,
    config: MatchConfig,
    listeners: list[tuple[asyncio.Server, asyncio.Future[_Seat]]],
) -> list[float]:
    header = (
        f"# name/game/hands/seed {config.name} {config.game_path} {config.hands} {config.seed}\n"
        f"#--t_response {config.t_response}\n#--t_hand {config.t_hand}\n"
        f"#--t_per_hand {config.t_per_hand}"
    )
    match.note(header)
    match.write_log(header)
    try:
        await match.connect(listeners)
        names = "|".join(config.names[: match.n])
        totals = [0.0] * match.n
        for rotation in range(match.rounds):
            part = await match.play(rotation)
            totals = [t + v for t, v in zip(totals, part, strict=True)]
            if config.duplicate:
                values = "|".join(format_value(v) for v in part)
                line = f"# duplicate rotation {rotation} SCORE:{values}:{names}"
                print(line, file=match.out, flush=True)
                match.note(line)
                match.write_log(line)
        values = "|".join(format_value(v) for v in totals)
        score = f"SCORE:{values}:{names}"
        print(score, file=match.out, flush=True)
        match.note(score)
        match.write_log(score)
        return totals
    except MatchError as exc:
        match.note(f"ERROR: {exc}")
        raise
    finally:
        for server, future in listeners:
            server.close()
            # A seat that connected while an earlier one was still awaited, the match
            # ending first: closed with the others.
            if future.done() and future.result() not in match.seats:
                match.seats.append(future.result())
        await match.close()
