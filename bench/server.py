"""The websocket server under load: hands per second, server CPU per hand, and the time
from an action to the next action request, with the server in one process and the bots in
others, all on 127.0.0.1.

    python -m bench.server [--seconds S] [--tables N] [--quick] [--only WORKLOAD]
                           [--db sqlite|pg] [--bot-procs N] [--profile]

WORKLOAD is single, throughput, plo, stud or latency (all of them by default).

Workloads (each a fresh server process and a fresh database):

- throughput: 160 tables of 6 bots that answer every action request at once, with the
  database on. In the same run, the floor: ``bench/relay_floor.py``, a plain websockets
  server that relays the same message pattern (the action requests, acks and events per
  hand, of the same sizes, measured in our run just before) with no engine and no
  database. Goal: at least half the floor's hands per second, at most twice its CPU per
  hand. Measured with the default asyncio loop and with uvloop.
- throughput plo, throughput stud: the same, at as many tables of pot-limit Omaha and of
  seven-card stud (the house's stakes, ``server.hosting.house_config``), each followed by
  its own floor relaying that game's message pattern, as measured just before. Same
  goals; measured on the best loop only (uvloop where installed), to keep the run short.
- latency: 50 tables of 6 bots that think 50 ms before each action; p50 and p99 of the
  time from a bot sending its action to the next action request arriving at that table
  (the next seat, or the first of the next hand, which includes storing the hand). Goal:
  p99 under 25 ms. Run twice: with every table dealing its first hand at the same moment
  (all 50 then play in lockstep: every hand has the same 24 decisions, so all tables end
  their hands within the same ~100 ms and those transitions queue behind each other), and
  "staggered", the tables' first actions spread over one hand's time, as tables that
  fill up at different times are; the bots still think exactly 50 ms.
- one table of 6 bots answering at once, and its floor, for reference.
- no-db, a diagnostic: the throughput workload with hand writes switched off, to show
  what storing hands costs the server.

Bots check or call (at stud, bring in when the bring-in is theirs), so every hand goes to
a showdown: in hold'em about 24 actions and 320 messages from the server a hand. They are
minimal websocket clients (``Bot``: asyncio protocols that parse the frames themselves and
never decode a message they do not answer), so that they leave as much of the machine as
they can to the server; several hundred of them run in each bot process, on uvloop when it
is installed. CPU is read from /proc for the server process (all its threads) over a fixed
window after a warm-up; the hands counted are the ``hand_ended`` events seat 0 of each
table receives.

The server runs as the bench's own ``--serve`` process, as ``pokerroom serve`` runs it
but with the per-connection rate limit off (bots act faster than people). Every process
the bench starts is on 127.0.0.1 and stops by itself; a whole run takes about 6
minutes (``--quick``: about 2). ``--profile`` runs only the throughput workload (or
those ``--only`` names: plo, stud, latency), with cProfile on in the server during the
measured window, and prints where its event loop's time went.

``--against PATH`` compares our server with another checkout of it (say, the commit
before a change, from ``git worktree add PATH COMMIT``): the throughput and latency rows
run alternately with the server from here and from PATH, twice each, with the same bots,
and the table of medians ends with the ratios here/there.

Modes used internally: ``--serve`` (our server), ``--floor`` (the relay floor) and
``--bots`` (a bot process); each stops by itself after ``--lifetime`` seconds. ``--serve
--game KEY`` deals that game (hold'em by default) and says the buy-in its tables take,
which the bench passes on to the bots (``--buy-in``).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import cProfile
import importlib
import importlib.util
import json
import math
import os
import pstats
import signal
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

# Run as a script, bench/ comes first on sys.path and bench/engine.py would hide the
# engine package: drop it (python -m bench.server needs no help).
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

if TYPE_CHECKING:
    from engine import TableConfig

ROOT = Path(__file__).resolve().parent.parent
PG_ADMIN = os.environ.get("POKERROOM_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
BUY_IN_UNITS = 500_000
"""The buy-in in big blinds (or small bets, without blinds): a calling station never busts
in a bench run."""
BUY_IN = BUY_IN_UNITS * 2
"""Hold'em's buy-in, at blinds of 1/2; what a server that does not say its buy-in (a
checkout from before ``--game``, under ``--against``) takes."""
GAMES = ("plo", "stud")
"""The games of the throughput rows beside hold'em's, as ``--only`` names them."""
SEATS = 6
HAND_SECONDS = 1.2
"""About one hand at 50 ms a decision (24 decisions): the staggered latency row starts its
tables this far apart in all, one after another, as tables that fill up at different
times do."""
JOINING = 16
"""Bots of one bot process that connect and say hello at the same time."""


def player_name(table: int, seat: int) -> str:
    return f"t{table}s{seat}"


def has_uvloop() -> bool:
    return importlib.util.find_spec("uvloop") is not None


def run_loop(main: Coroutine[Any, Any, int], uvloop: bool) -> int:
    """Run ``main`` on uvloop's event loop, or on asyncio's."""
    if uvloop:
        result: int = importlib.import_module("uvloop").run(main)
        return result
    return asyncio.run(main)


def stop_on_signal_or_eof(stop: asyncio.Future[None]) -> None:
    """Set ``stop`` on SIGTERM or SIGINT, or when standard input closes (the bench that
    started this process is gone)."""
    loop = asyncio.get_running_loop()

    def done() -> None:
        if not stop.done():
            stop.set_result(None)

    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, done)

    def watch() -> None:
        with contextlib.suppress(Exception):
            while sys.stdin.readline():
                pass
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(done)

    threading.Thread(target=watch, daemon=True).start()


# -- our server (--serve) ---------------------------------------------------------------------


def profile_on_signals(path: str) -> None:
    """cProfile this process from SIGUSR1 to SIGUSR2, then write the stats to ``path``."""
    profiler = cProfile.Profile()
    loop = asyncio.get_running_loop()

    def dump() -> None:
        profiler.disable()
        profiler.dump_stats(path)

    loop.add_signal_handler(signal.SIGUSR1, profiler.enable)
    loop.add_signal_handler(signal.SIGUSR2, dump)


def bench_config(key: str) -> TableConfig:
    """The ``TableConfig`` of the bench's tables of game ``key``: 6 seats, and a buy-in of
    ``BUY_IN_UNITS`` in the game's unit. Hold'em keeps the bench's blinds of 1/2 (so its
    rows stay comparable with earlier runs and with ``--against``); the other games are at
    the house's stakes, ``server.hosting.house_config``."""
    import dataclasses

    import engine
    from server.hosting import house_config

    if key == "nlhe":
        return engine.TableConfig(small_blind=1, big_blind=2, seats=SEATS, max_buy_in=BUY_IN)
    config = house_config(engine.game(key), SEATS)
    return dataclasses.replace(config, max_buy_in=BUY_IN_UNITS * config.unit)


async def serve_ours(args: argparse.Namespace) -> int:
    from server import hosting as server_hosting
    from server.app import PokerServer, ServerSettings
    from server.store import Store

    if args.no_hand_writes:  # a diagnostic: what storing hands costs the server
        server_hosting.store_with = lambda *_: no_write  # type: ignore[assignment]

    # Bots answering at once act several times a second on each connection: the default
    # rate limit (20 a second, for people) would throttle them.
    settings = ServerSettings(host="127.0.0.1", port=0, messages_per_second=1e6, burst=10**6)
    stop = asyncio.get_running_loop().create_future()
    stop_on_signal_or_eof(stop)
    if args.profile_to:
        profile_on_signals(args.profile_to)
    async with Store.open(args.db_url, upgrade=True) as store:  # as the server opens it
        app = PokerServer(store, settings)
        async with app.running() as server:
            config = bench_config(args.game)
            for i in range(args.tables):
                await app.hosting.create_table(
                    f"b{i}", config, decision_seconds=args.decision_seconds, time_bank_seconds=0.0
                )
            for task in asyncio.all_tasks():
                if task.get_name().startswith("table "):
                    task.add_done_callback(report_table_end)
            port = next(iter(server.sockets)).getsockname()[1]
            print(json.dumps({"port": port, "buy_in": config.max_buy_in}), flush=True)
            try:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop, args.lifetime)
            finally:
                # A server whose tables have died never finishes closing (its connections
                # wait for the tables to answer "disconnect"): give it 15 s.
                exit_later(15)
    return 0


async def no_write(*_: Any) -> None:
    return None


def report_table_end(task: asyncio.Task[Any]) -> None:
    """Say at once why a table's task ended (the server only says it when it exits)."""
    if task.cancelled():
        return
    error = task.exception()
    if error is not None:
        print(f"{task.get_name()} died: {type(error).__name__}: {error}", file=sys.stderr)
        sys.stderr.flush()


def exit_later(seconds: float) -> None:
    def leave() -> None:
        print(f"still closing after {seconds:g} s: exiting", file=sys.stderr, flush=True)
        os._exit(3)

    timer = threading.Timer(seconds, leave)
    timer.daemon = True
    timer.start()


async def serve_floor(args: argparse.Namespace) -> int:
    from bench.relay_floor import Floor, Pattern

    stop = asyncio.get_running_loop().create_future()
    stop_on_signal_or_eof(stop)
    if args.profile_to:
        profile_on_signals(args.profile_to)
    server = await Floor(args.tables, Pattern.from_json(args.pattern)).start("127.0.0.1", 0)
    print(json.dumps({"port": next(iter(server.sockets)).getsockname()[1]}), flush=True)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop, args.lifetime)
    server.close()
    await server.wait_closed()
    return 0


# -- bots (--bots) ----------------------------------------------------------------------------


@dataclass
class Stats:
    """What one bot process saw since the last mark (hands and counts keep adding up)."""

    hands: int = 0
    requests: int = 0
    request_bytes: int = 0
    acks: int = 0
    ack_bytes: int = 0
    fanouts: int = 0
    """Events and deck messages: what the server sends every seat at a table."""
    fanout_bytes: int = 0
    errors: int = 0
    error_sample: list[str] = field(default_factory=list)
    lost: int = 0
    latency: list[float] = field(default_factory=list)
    """Seconds from a bot's act to the next action request at its table, within a hand."""
    latency_next_hand: list[float] = field(default_factory=list)
    """The same, from a hand's last act to the first request of the next hand."""


@dataclass
class TableClock:
    sent: float = 0.0
    """When the last act at this table was sent (``time.perf_counter``), 0 once answered."""
    start_delay: float = 0.0
    """Seconds the table's first action waits: tables that start at different times."""


class Bot(asyncio.Protocol):
    """One seat's player: a websocket client small enough that hundreds fit in a process.

    It does the opening handshake, then reads frames straight from the socket and answers
    pings and closes. Its frames carry a zero masking key (legal, and any server accepts
    it: masking protects proxies, of which loopback has none), so that sending costs no
    XOR. It looks at the start of each message and decodes none: an action request gets
    a check (or a bring-in, if one is due, else a call, if checking is not on its menu).
    """

    def __init__(self, stats: Stats, clock: TableClock, table: str, seat: int, think: float):
        self.stats, self.clock, self.seat, self.think = stats, clock, seat, think
        self.table = table
        self.transport: asyncio.Transport | None = None
        self.buffer = b""
        self.open = False
        loop = asyncio.get_running_loop()
        self.ready: asyncio.Future[None] = loop.create_future()
        self.welcome: asyncio.Future[None] = loop.create_future()
        self.seated: asyncio.Future[None] = loop.create_future()
        self.saw_hand_end = False
        self.acts = 0
        self.act_start = b'{"type":"act","table":"%s","action_id":"a' % table.encode()
        self.closing = False

    # -- the socket --------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass
        key = base64.b64encode(os.urandom(16))
        self.transport.write(
            b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Key: " + key + b"\r\n"
            b"Sec-WebSocket-Version: 13\r\n\r\n"
        )

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closing:
            self.stats.lost += 1
        for future in (self.ready, self.welcome, self.seated):
            if not future.done():
                future.set_exception(ConnectionError(f"connection lost ({exc})"))
                future.exception()  # raised to whoever awaits it; no "never retrieved" noise

    def data_received(self, data: bytes) -> None:
        buffer = self.buffer + data if self.buffer else data
        if not self.open:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                self.buffer = buffer
                return
            if not buffer.startswith(b"HTTP/1.1 101"):
                self.ready.set_exception(ConnectionError(buffer[:end].decode(errors="replace")))
                return
            self.open = True
            self.ready.set_result(None)
            buffer = buffer[end + 4 :]
        pos, size = 0, len(buffer)
        while size - pos >= 2:
            length = buffer[pos + 1] & 0x7F
            start = pos + 2
            if length == 126:
                if size - pos < 4:
                    break
                length, start = int.from_bytes(buffer[pos + 2 : pos + 4], "big"), pos + 4
            elif length == 127:
                if size - pos < 10:
                    break
                length, start = int.from_bytes(buffer[pos + 2 : pos + 10], "big"), pos + 10
            end = start + length
            if end > size:
                break
            opcode = buffer[pos] & 0x0F
            if opcode == 1:
                self.message(buffer[start:end])
            elif opcode == 9:  # ping: pong with the same data
                self.frame(0x8A, buffer[start:end])
            elif opcode == 8:  # close: answer it, and hang up
                self.closing = True
                self.stats.lost += 1
                if len(self.stats.error_sample) < 3:
                    reason = buffer[start + 2 : end].decode(errors="replace")
                    code = int.from_bytes(buffer[start : start + 2], "big")
                    self.stats.error_sample.append(f"closed by the server: {code} {reason}")
                self.frame(0x88, buffer[start : start + 2])
                assert self.transport is not None
                self.transport.close()
            pos = end
        self.buffer = buffer[pos:]

    def frame(self, first: int, payload: bytes) -> None:
        size = len(payload)
        if size < 126:
            header = bytes((first, 0x80 | size))
        else:
            header = bytes((first, 0xFE)) + size.to_bytes(2, "big")
        assert self.transport is not None
        self.transport.write(header + b"\0\0\0\0" + payload)

    def send(self, message: dict[str, Any]) -> None:
        self.frame(0x81, json.dumps(message, separators=(",", ":")).encode())

    def close(self) -> None:
        self.closing = True
        if self.transport is not None and not self.transport.is_closing():
            self.frame(0x88, (1000).to_bytes(2, "big"))
            self.transport.close()

    # -- the player --------------------------------------------------------------------

    def message(self, text: bytes) -> None:
        stats = self.stats
        if text.startswith(b'{"type":"event"'):
            stats.fanouts += 1
            stats.fanout_bytes += len(text)
            if b'"type":"hand_ended"' in text:
                self.saw_hand_end = True
                stats.hands += self.seat == 0
        elif text.startswith(b'{"type":"action_request"'):
            now = time.perf_counter()
            stats.requests += 1
            stats.request_bytes += len(text)
            if self.clock.sent:
                waited = now - self.clock.sent
                (stats.latency_next_hand if self.saw_hand_end else stats.latency).append(waited)
                self.clock.sent = 0.0
            self.saw_hand_end = False
            self.acts += 1
            if b'"can_check":true' in text:
                action = b"check"
            elif b'"can_bring_in":true' in text:  # stud: bring-in, complete or fold only
                action = b"bring_in"
            else:
                action = b"call"
            act = self.act_start + b'%d","action":"%s"}' % (self.acts, action)
            if self.think:
                # uvloop reads its clock once per turn of the loop: a timer set late in a
                # busy turn would fire early, and bots answering in one turn would act in
                # step, tables in lockstep. Think from now.
                loop = asyncio.get_running_loop()
                late = time.monotonic() - loop.time()
                wait, self.clock.start_delay = self.think + self.clock.start_delay, 0.0
                loop.call_later(wait + max(0.0, late), self.act, act)
            else:
                self.act(act)
        elif text.startswith(b'{"type":"ack"'):
            stats.acks += 1
            stats.ack_bytes += len(text)
        elif text.startswith(b'{"type":"deck_'):
            stats.fanouts += 1
            stats.fanout_bytes += len(text)
        elif text.startswith(b'{"type":"seated"'):
            if not self.seated.done():
                self.seated.set_result(None)
        elif text.startswith(b'{"type":"welcome"'):
            if not self.welcome.done():
                self.welcome.set_result(None)
        elif text.startswith(b'{"type":"error"'):
            stats.errors += 1
            if len(stats.error_sample) < 3:
                stats.error_sample.append(text[:200].decode(errors="replace"))

    def act(self, act: bytes) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        self.clock.sent = time.perf_counter()
        self.frame(0x81, act)


async def bots_main(args: argparse.Namespace) -> int:
    loop = asyncio.get_running_loop()
    stats = Stats()
    bots: list[Bot] = []
    gate = asyncio.Semaphore(JOINING)

    async def join(table: int, seat: int) -> None:
        clock = clocks[table]
        async with gate:
            _, bot = await loop.create_connection(
                lambda: Bot(stats, clock, f"b{table}", seat, args.think),
                "127.0.0.1",
                args.port,
            )
            bots.append(bot)
            await asyncio.wait_for(bot.ready, 30)
            bot.send({"type": "hello", "name": player_name(table, seat)})
            await asyncio.wait_for(bot.welcome, 60)

    def sit(bot: Bot) -> asyncio.Future[None]:
        sit = {"type": "sit", "table": bot.table, "seat": bot.seat, "buy_in": args.buy_in}
        bot.send({**sit, "wait_for_big_blind": False})
        return bot.seated

    commands: asyncio.Queue[str] = asyncio.Queue()

    def read_commands() -> None:
        with contextlib.suppress(Exception):
            for line in sys.stdin:
                loop.call_soon_threadsafe(commands.put_nowait, line.strip())
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(commands.put_nowait, "stop")

    def say(message: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()

    tables = range(args.first, args.first + args.count)
    clocks = {t: TableClock(start_delay=t * args.stagger) for t in tables}
    threading.Thread(target=read_commands, daemon=True).start()
    try:
        async with asyncio.timeout(args.lifetime):
            # Everyone says hello first, then, when the bench says so, all sit at once: a
            # table deals as soon as two sit, and a busy server would keep the rest waiting.
            try:
                await asyncio.gather(*(join(t, s) for t in tables for s in range(SEATS)))
                say({"welcomed": len(bots)})
                if await commands.get() != "sit":
                    return 1
                seated = [sit(bot) for bot in bots]
                await asyncio.wait(seated, timeout=120)
                if not all(f.done() and f.exception() is None for f in seated):
                    raise TimeoutError(f"{sum(f.done() for f in seated)} bots seated in 120 s")
            except (OSError, TimeoutError) as exc:
                say({"failed": f"{type(exc).__name__}: {exc}", "errors": stats.error_sample})
                return 1
            say({"ready": len(bots)})
            while await commands.get() != "stop":
                say(
                    {
                        "time": time.monotonic(),
                        "cpu": time.process_time(),
                        "hands": stats.hands,
                        "requests": stats.requests,
                        "request_bytes": stats.request_bytes,
                        "acks": stats.acks,
                        "ack_bytes": stats.ack_bytes,
                        "fanouts": stats.fanouts,
                        "fanout_bytes": stats.fanout_bytes,
                        "errors": stats.errors,
                        "error_sample": stats.error_sample,
                        "lost": stats.lost,
                        "latency": [round(x * 1e6) for x in stats.latency],
                        "latency_next_hand": [round(x * 1e6) for x in stats.latency_next_hand],
                    }
                )
                stats.latency, stats.latency_next_hand = [], []
    except TimeoutError:
        pass
    finally:
        for bot in bots:
            bot.close()
        await asyncio.sleep(0.2)
    return 0


# -- the bench --------------------------------------------------------------------------------


def process_cpu(pid: int, thread: int | None = None) -> float:
    """Seconds of CPU (user + system) a process has used: all its threads, or one."""
    path = f"/proc/{pid}/stat" if thread is None else f"/proc/{pid}/task/{thread}/stat"
    fields = Path(path).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_busy() -> tuple[int, int]:
    """(busy, total) jiffies of all cores, from /proc/stat."""
    numbers = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = numbers[3] + numbers[4]
    return sum(numbers) - idle, sum(numbers)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Result:
    workload: str
    server: str  # "ours", "no-db" (ours, hands not stored) or "floor"
    loop: str
    tables: int
    seconds: float = 0.0
    hands: int = 0
    server_cpu: float = 0.0
    server_threads_cpu: float = 0.0
    """The part of ``server_cpu`` outside the event loop's thread (the store's, say)."""
    bots_cpu: float = 0.0
    busy: float = 0.0
    """Share of the whole machine (both cores) in use during the window."""
    counts: dict[str, int] = field(default_factory=dict)
    latency: list[float] = field(default_factory=list)
    latency_next_hand: list[float] = field(default_factory=list)
    errors: int = 0
    error_sample: list[str] = field(default_factory=list)
    lost: int = 0
    failed: str = ""

    @property
    def rate(self) -> float:
        return self.hands / self.seconds if self.seconds else 0.0

    @property
    def cpu_ms(self) -> float:
        return self.server_cpu * 1000 / self.hands if self.hands else float("nan")

    @property
    def threads_ms(self) -> float:
        return self.server_threads_cpu * 1000 / self.hands if self.hands else float("nan")

    @property
    def bots_ms(self) -> float:
        return self.bots_cpu * 1000 / self.hands if self.hands else float("nan")

    @property
    def others(self) -> float:
        """Cores that processes outside the bench used during the window."""
        ours = (self.server_cpu + self.bots_cpu) / self.seconds if self.seconds else 0.0
        return max(0.0, self.busy * (os.cpu_count() or 1) - ours)

    @property
    def all_latency(self) -> list[float]:
        return self.latency + self.latency_next_hand

    def pattern(self) -> Any:
        """The message pattern of a hand, for the floor to relay."""
        from bench.relay_floor import Pattern

        c, hands = self.counts, max(1, self.hands)
        return Pattern(
            actions=c["requests"] / hands,
            fanouts=c["fanouts"] / hands / SEATS,
            request_bytes=c["request_bytes"] // max(1, c["requests"]),
            ack_bytes=c["ack_bytes"] // max(1, c["acks"]),
            event_bytes=c["fanout_bytes"] // max(1, c["fanouts"]),
        )


class Child:
    """A process of this bench, talking JSON lines over its standard input and output."""

    def __init__(self, proc: asyncio.subprocess.Process, name: str) -> None:
        self.proc, self.name = proc, name

    @classmethod
    async def start(cls, name: str, *args: str, log: Path, root: Path = ROOT) -> Child:
        path = [str(root), *filter(None, [os.environ.get("PYTHONPATH")])]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
        with log.open("ab") as err:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bench.server", *args,
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=err,
                cwd=root, env=env, limit=2**26,
            )  # fmt: skip
        return cls(proc, name)

    async def read(self, timeout: float) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), timeout)
        if not line:
            raise RuntimeError(f"{self.name} exited (status {await self.proc.wait()})")
        message: dict[str, Any] = json.loads(line)
        return message

    async def tell(self, command: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(command.encode() + b"\n")
        await self.proc.stdin.drain()

    async def ask(self, command: str, timeout: float = 30.0) -> dict[str, Any]:
        await self.tell(command)
        return await self.read(timeout)

    async def stop(self, timeout: float = 20.0) -> None:
        """Close its input (it stops when it sees that), then SIGTERM, then SIGKILL."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.proc.wait(), 2)
        if self.proc.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            self.proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
            await self.proc.wait()


@dataclass(frozen=True)
class Options:
    seconds: float
    warmup: float
    bot_procs: int
    db: str  # "sqlite" or "pg"
    folder: Path
    profile: bool = False
    against: Path | None = None
    """Another checkout whose server the ``before`` rows run."""


@contextlib.asynccontextmanager
async def database(options: Options) -> AsyncIterator[str]:
    """A fresh database for one run: an SQLite file, or a scratch PostgreSQL database."""
    if options.db == "sqlite":
        yield f"sqlite+aiosqlite:///{options.folder / uuid.uuid4().hex[:8]}.db"
        return
    import asyncpg

    name = f"pokerroom_bench_{uuid.uuid4().hex[:8]}"
    admin = await asyncpg.connect(PG_ADMIN)
    await admin.execute(f'CREATE DATABASE "{name}"')
    try:
        base = PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://")
        yield f"{base}/{name}"
    finally:
        await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        await admin.close()


async def run_workload(
    options: Options,
    workload: str,
    server: str,
    tables: int,
    *,
    uvloop: bool,
    think: float = 0.0,
    stagger: float = 0.0,
    pattern: Any = None,
    bot_procs: int | None = None,
    game: str = "nlhe",
) -> Result:
    """One run: start the server (ours or the floor), the bots, warm up, measure, stop.
    Our server deals ``game``; the floor relays ``pattern``, whatever game it is from."""
    loop_name = "uvloop" if uvloop else "asyncio"
    result = Result(workload, server, loop_name, tables)
    log = options.folder / f"{workload}-{server}-{loop_name}.log".replace(" ", "-")
    lifetime = str(options.warmup + options.seconds + 240)
    profile = str(options.folder / f"{server}-{loop_name}.prof") if options.profile else ""
    children: list[Child] = []
    async with database(options) as url:
        try:
            args = ["--tables", str(tables), "--lifetime", lifetime, "--profile-to", profile]
            args += ["--uvloop"] if uvloop else []
            root = ROOT
            if server in ("ours", "no-db", "before"):
                args += ["--serve", "--db-url", url, "--decision-seconds", "30"]
                args += ["--no-hand-writes"] if server == "no-db" else []
                args += ["--game", game] if game != "nlhe" else []  # as older checkouts
                if server == "before":
                    assert options.against is not None
                    root = options.against
            else:
                args += ["--floor", "--pattern", pattern.to_json()]
            main = await Child.start(server, *args, log=log, root=root)
            children.append(main)
            said = await main.read(120)
            port, buy_in = str(said["port"]), str(said.get("buy_in", BUY_IN))
            procs = min(bot_procs or options.bot_procs, tables)
            for i in range(procs):
                first, last = tables * i // procs, tables * (i + 1) // procs
                bot_args = ["--bots", "--port", port, "--first", str(first)]
                bot_args += ["--count", str(last - first), "--think", str(think)]
                bot_args += ["--stagger", str(stagger / tables)]
                bot_args += ["--lifetime", lifetime, "--uvloop", "--buy-in", buy_in]
                children.append(await Child.start(f"bots {i}", *bot_args, log=log))
            bots = children[1:]
            for step in ("welcomed", "ready"):
                for bot in bots:
                    said = await bot.read(180)
                    if step not in said:
                        raise RuntimeError(f"{bot.name}: {said.get('failed')} {said['errors']}")
                if step == "welcomed":
                    for bot in bots:
                        await bot.tell("sit")
            await measure(options, main, bots, result, profile)
        except (RuntimeError, TimeoutError, OSError, KeyError, ValueError) as exc:
            result.failed = f"{type(exc).__name__}: {exc}"
        finally:
            for child in reversed(children):
                await child.stop()
    if result.failed:
        with contextlib.suppress(OSError):
            lines = log.read_text(errors="replace").splitlines()[-20:]
            print("\n".join(["its processes' last lines:", *lines]), file=sys.stderr)
    if profile and Path(profile).exists():
        print_profile(profile, result)
    return result


async def measure(
    options: Options, main: Child, bots: list[Child], result: Result, profile: str
) -> None:
    """Warm up, then count what the bots saw and the server's CPU over the window."""
    await asyncio.sleep(options.warmup)
    before = await asyncio.gather(*(bot.ask("mark") for bot in bots))
    pid = main.proc.pid
    cpu0, loop0 = process_cpu(pid), process_cpu(pid, pid)
    busy0, t0 = machine_busy(), time.monotonic()
    if profile:
        main.proc.send_signal(signal.SIGUSR1)
    await asyncio.sleep(options.seconds)
    if profile:
        main.proc.send_signal(signal.SIGUSR2)
    after = await asyncio.gather(*(bot.ask("mark") for bot in bots))
    cpu1, loop1 = process_cpu(pid), process_cpu(pid, pid)
    busy1, t1 = machine_busy(), time.monotonic()
    result.seconds = t1 - t0
    result.server_cpu = cpu1 - cpu0
    result.server_threads_cpu = max(0.0, (cpu1 - cpu0) - (loop1 - loop0))
    result.busy = (busy1[0] - busy0[0]) / max(1, busy1[1] - busy0[1])
    for b, a in zip(before, after, strict=True):
        result.hands += a["hands"] - b["hands"]
        result.bots_cpu += a["cpu"] - b["cpu"]
        for key in ("requests", "request_bytes", "acks", "ack_bytes", "fanouts", "fanout_bytes"):
            result.counts[key] = result.counts.get(key, 0) + a[key] - b[key]
        result.latency += [x / 1000 for x in a["latency"]]
        result.latency_next_hand += [x / 1000 for x in a["latency_next_hand"]]
        result.errors += a["errors"] - b["errors"]
        result.error_sample += a["error_sample"]
        result.lost += a["lost"] - b["lost"]


def print_profile(path: str, result: Result) -> None:
    print(
        f"\n-- cProfile of the {result.server} server's event loop thread ({result.loop}), "
        f"{result.hands} hands (the profiler slows it two to three times) --"
    )
    stats = pstats.Stats(path)
    stats.sort_stats("tottime").print_stats(30)
    stats.sort_stats("cumulative").print_stats(40)


# -- output -----------------------------------------------------------------------------------


def fmt(value: float, digits: int = 0) -> str:
    return "-" if math.isnan(value) else f"{value:,.{digits}f}"  # NaN: nothing measured


def print_results(results: list[Result]) -> None:
    w = max([len("workload"), *(len(r.workload) for r in results)])
    header = (
        f"{'workload':<{w}} {'server':<6} {'loop':<7} {'hands/s':>7} {'CPU ms/hand':>11} "
        f"{'(threads)':>9} {'CPU':>4} {'bots ms/hand':>12} {'others':>6} {'p50 ms':>7} "
        f"{'p99 ms':>7}"
    )
    print()
    print(header)
    print("-" * len(header))
    for r in results:
        if r.failed:
            print(f"{r.workload:<{w}} {r.server:<6} {r.loop:<7} FAILED: {r.failed}")
            continue
        lat = r.all_latency
        print(
            f"{r.workload:<{w}} {r.server:<6} {r.loop:<7} {fmt(r.rate):>7} {fmt(r.cpu_ms, 2):>11} "
            f"{fmt(r.threads_ms, 2):>9} {fmt(100 * r.server_cpu / r.seconds):>3}% "
            f"{fmt(r.bots_ms, 2):>12} {fmt(r.others, 2):>6} {fmt(percentile(lat, 0.5), 2):>7} "
            f"{fmt(percentile(lat, 0.99), 2):>7}"
        )
        if r.errors or r.lost:
            print(f"    errors {r.errors}, connections lost {r.lost}: {r.error_sample[:2]}")


def print_patterns(results: list[Result], games: dict[str, str]) -> None:
    """The message pattern of a hand of each game's throughput row (``games``: the row's
    workload, the game's name), as its floor relays it."""
    for workload, game in games.items():
        measured = [r for r in results if r.workload == workload and r.server == "ours"]
        if measured and measured[0].hands:
            p = measured[0].pattern()
            print(
                f"a hand of {game}: {p.actions:.1f} action requests and acks, {p.fanouts:.1f} "
                f"events to each of 6 seats ({p.event_bytes} bytes on average): "
                f"{2 * p.actions + SEATS * p.fanouts:.0f} messages from the server; its floor "
                "relays the same"
            )


def compare(results: list[Result], workload: str, loop: str) -> tuple[Result, Result] | None:
    pair = [r for r in results if r.workload == workload and r.loop == loop and not r.failed]
    ours = [r for r in pair if r.server == "ours"]
    floor = [r for r in pair if r.server == "floor"]
    return (ours[0], floor[0]) if ours and floor and ours[0].hands and floor[0].hands else None


def print_goals(results: list[Result], throughputs: list[str], latency: tuple[str, ...]) -> bool:
    print()
    ok = True
    for throughput in throughputs:
        for loop in ("asyncio", "uvloop"):
            pair = compare(results, throughput, loop)
            if pair is None:
                continue
            ours, floor = pair
            rate, cpu = ours.rate / floor.rate, ours.cpu_ms / floor.cpu_ms
            met = rate >= 0.5 and cpu <= 2.0
            ok &= met
            print(
                f"{throughput} ({loop}): ours/floor hands/s {rate:.2f} (goal >= 0.5), "
                f"CPU/hand {cpu:.2f}x the floor's (goal <= 2): {'yes' if met else 'NO'}"
            )
    for r in results:
        if r.workload in latency and not r.failed and r.all_latency:
            p99 = percentile(r.all_latency, 0.99)
            within = percentile(r.latency, 0.99)
            between = percentile(r.latency_next_hand, 0.99)
            ok &= p99 < 25
            print(
                f"{r.workload} ({r.loop}): p99 {p99:.2f} ms (goal < 25 ms): "
                f"{'yes' if p99 < 25 else 'NO'}; p99 within a hand {within:.2f} ms, "
                f"from a hand's last act to the next hand's first request {between:.2f} ms"
            )
    return ok


async def pg_room() -> int:
    """Connections PostgreSQL can still open (``max_connections`` less those in use and
    those kept for superusers)."""
    import asyncpg

    admin = await asyncpg.connect(PG_ADMIN)
    try:
        most = int(await admin.fetchval("SHOW max_connections"))
        kept = int(await admin.fetchval("SHOW superuser_reserved_connections"))
        used = int(await admin.fetchval("SELECT count(*) FROM pg_stat_activity"))
    finally:
        await admin.close()
    return most - kept - used


async def fit_pg(args: argparse.Namespace) -> list[str]:
    """Cut the tables to what PostgreSQL has connections for; say so."""
    notes = []
    room = await pg_room() - 10  # each table keeps a connection; hellos and buy-ins share 5
    for name in ("tables", "latency_tables"):
        if getattr(args, name) > room:
            notes.append(
                f"PostgreSQL has room for {room} more tables' connections: "
                f"{getattr(args, name)} {name.replace('_', ' ')} cut to {room}"
            )
            setattr(args, name, room)
    return notes


async def bench(args: argparse.Namespace) -> int:
    uvloop = has_uvloop()
    notes = await fit_pg(args) if args.db == "pg" else []
    loops = [True] if args.quick and uvloop else [False, True] if uvloop else [False]
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="pokerroom-bench-") as folder:
        options = Options(
            seconds=args.seconds, warmup=args.warmup, bot_procs=args.bot_procs,
            db=args.db, folder=Path(folder),
            profile=args.profile, against=args.against,
        )  # fmt: skip
        single = "1 table x 6"
        throughput = f"throughput {args.tables}x6"
        game_throughput = {key: f"throughput {key} {args.tables}x6" for key in GAMES}
        latency = f"latency {args.latency_tables}x6, 50 ms"
        staggered = f"{latency}, staggered"
        start = time.monotonic()

        async def step(label: str, work: Awaitable[Result]) -> Result:
            print(f"[{time.monotonic() - start:5.0f} s] {label} ...", file=sys.stderr, flush=True)
            result = await work
            results.append(result)
            return result

        best = loops[-1]
        # --against runs its own rows, and none of the others
        everything = ["single", "throughput", *GAMES, "latency"]
        only = set(args.only or everything) if not args.against else set()
        if options.against is not None:
            await against(
                options, args, step=step, throughput=throughput, latency=latency, uvloop=best
            )
        if args.profile:  # our server alone, in the throughput workload unless --only says
            only = set(args.only or ["throughput"]) & {"throughput", *GAMES, "latency"}
            loops = [best]
        if "single" in only:
            ours = await step(
                "one table", run_workload(options, single, "ours", 1, uvloop=best, bot_procs=1)
            )
            if ours.hands:
                await step(
                    "one table, floor",
                    run_workload(
                        options, single, "floor", 1, uvloop=best, pattern=ours.pattern(),
                        bot_procs=1,
                    ),
                )  # fmt: skip
        for use in reversed(loops) if "throughput" in only else []:
            name = "uvloop" if use else "asyncio"
            ours = await step(
                f"throughput, {name}",
                run_workload(options, throughput, "ours", args.tables, uvloop=use),
            )
            if ours.hands and not args.profile:
                await step(
                    f"throughput floor, {name}",
                    run_workload(
                        options, throughput, "floor", args.tables, uvloop=use,
                        pattern=ours.pattern(),
                    ),
                )  # fmt: skip
        if "throughput" in only and not args.profile:
            await step(
                "throughput, hands not stored",
                run_workload(options, throughput, "no-db", args.tables, uvloop=best),
            )
        for key in [key for key in GAMES if key in only]:
            await game_rows(options, args, key, game_throughput[key], step=step, uvloop=best)
        for use in reversed(loops) if "latency" in only else []:
            name = "uvloop" if use else "asyncio"
            await step(
                f"latency, {name}",
                run_workload(options, latency, "ours", args.latency_tables, uvloop=use, think=0.05),
            )
            if not args.profile:
                await step(
                    f"latency, tables started one after another, {name}",
                    run_workload(
                        options, staggered, "ours", args.latency_tables, uvloop=use,
                        think=0.05, stagger=HAND_SECONDS,
                    ),
                )  # fmt: skip
        took = time.monotonic() - start

    print(
        f"\npokerroom server bench: python {sys.version.split()[0]}, websockets "
        f"{version('websockets')}, uvloop {version('uvloop') if uvloop else 'not installed'}; "
        f"{'an SQLite file' if args.db == 'sqlite' else 'PostgreSQL'}; {os.cpu_count()} cores; "
        f"{args.warmup:g} s warm-up and {args.seconds:g} s measured per row; {took:.0f} s in all"
    )
    games = {throughput: "hold'em", **{game_throughput[key]: key for key in GAMES}}
    print_patterns(results, games)
    notes += [
        f"bots: {args.bot_procs} processes (1 for the single table) of minimal websocket "
        f"clients on uvloop, checking or calling (bringing in at stud); they share the "
        f"{os.cpu_count()} cores with the server, so hands/s is bounded by both (1 process "
        "gave the same numbers)",
        "our server as the bench runs it: the store as the server opens it, the rate limit "
        "off (bots act faster than 20 messages a second)",
        "no-db: our server with hand writes switched off, to show what storing hands costs",
        "columns: CPU ms/hand is the server process's, all threads (PostgreSQL's processes not "
        "counted); (threads) the part outside the event loop's thread; CPU is of one "
        "core; bots ms/hand all bot processes'; others: cores used meanwhile by processes "
        "outside the bench (above 0.1, the row is noisy); p50/p99: from an act to the next "
        "action request at that table, within a hand or across hands",
    ]
    for note in notes:
        print(f"- {note}")
    print_results(results)
    if args.against is None:
        ok = print_goals(results, list(games), (latency, staggered))
    else:  # a comparison: no goals
        ok = print_against(results, args.against)
    return 0 if ok else 1


async def game_rows(
    options: Options,
    args: argparse.Namespace,
    game: str,
    workload: str,
    *,
    step: Callable[[str, Awaitable[Result]], Awaitable[Result]],
    uvloop: bool,
) -> None:
    """The throughput rows of a game besides hold'em: ours, then a floor relaying the
    message pattern of that game's hands; on one loop, the best there is."""
    name = "uvloop" if uvloop else "asyncio"
    ours = await step(
        f"throughput {game}, {name}",
        run_workload(options, workload, "ours", args.tables, uvloop=uvloop, game=game),
    )
    if ours.hands and not args.profile:
        await step(
            f"throughput {game} floor, {name}",
            run_workload(
                options, workload, "floor", args.tables, uvloop=uvloop, pattern=ours.pattern()
            ),
        )


async def against(
    options: Options,
    args: argparse.Namespace,
    *,
    step: Callable[[str, Awaitable[Result]], Awaitable[Result]],
    throughput: str,
    latency: str,
    uvloop: bool,
) -> None:
    """The rows of ``--against``: ours and the other checkout's, alternately."""
    for _ in range(2):
        for server in ("ours", "before"):
            await step(
                f"throughput, {server}",
                run_workload(options, throughput, server, args.tables, uvloop=uvloop),
            )
    for _ in range(2):
        for server in ("ours", "before"):
            await step(
                f"latency, {server}",
                run_workload(
                    options, latency, server, args.latency_tables, uvloop=uvloop, think=0.05
                ),
            )


def print_against(results: list[Result], path: Path) -> bool:
    """Medians of the rows of each server, and their ratios (here / there)."""
    print(f"\nours: {ROOT}; before: {path}")
    print(f"{'workload':<30} {'measure':<12} {'ours':>9} {'before':>9} {'ratio':>6}")
    for workload in dict.fromkeys(r.workload for r in results):
        rows = {
            server: [r for r in results if r.workload == workload and r.server == server
                     and not r.failed and r.hands]
            for server in ("ours", "before")
        }  # fmt: skip
        measures: dict[str, Callable[[Result], float]] = {
            "hands/s": lambda r: r.rate,
            "CPU ms/hand": lambda r: r.cpu_ms,
            "p50 ms": lambda r: percentile(r.all_latency, 0.5),
            "p99 ms": lambda r: percentile(r.all_latency, 0.99),
        }
        for name, measure in measures.items():
            ours = statistics.median(measure(r) for r in rows["ours"]) if rows["ours"] else 0.0
            before = (
                statistics.median(measure(r) for r in rows["before"]) if rows["before"] else 0.0
            )
            ratio = ours / before if before else float("nan")
            print(
                f"{workload:<30} {name:<12} {fmt(ours, 2):>9} {fmt(before, 2):>9} "
                f"{fmt(ratio, 2):>6}"
            )
    return all(not r.failed for r in results)


def main() -> int:
    parser = argparse.ArgumentParser(description="the websocket server under load")
    parser.add_argument("--tables", type=int, default=160, help="throughput tables (160)")
    parser.add_argument("--latency-tables", type=int, default=50, help="latency tables (50)")
    parser.add_argument("--seconds", type=float, default=15.0, help="measured per row (15)")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring")
    parser.add_argument("--quick", action="store_true", help="5 s rows, uvloop only")
    parser.add_argument(
        "--only", action="append", choices=["single", "throughput", *GAMES, "latency"],
        help="run only this workload (may be repeated)",
    )  # fmt: skip
    parser.add_argument("--bot-procs", type=int, default=2, help="bot processes (2)")
    parser.add_argument("--db", choices=["sqlite", "pg"], default="sqlite")
    parser.add_argument(
        "--against",
        type=Path,
        metavar="PATH",
        help="compare with the server of another checkout (say, the commit before a change)",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="cProfile our server in the throughput (or --only latency) row only",
    )
    # the processes the bench starts
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--floor", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--bots", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--uvloop", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--db-url", help=argparse.SUPPRESS)
    parser.add_argument("--no-hand-writes", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--profile-to", default="", help=argparse.SUPPRESS)
    parser.add_argument("--pattern", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--think", type=float, default=0.0, help=argparse.SUPPRESS)
    parser.add_argument("--stagger", type=float, default=0.0, help=argparse.SUPPRESS)
    parser.add_argument("--lifetime", type=float, default=600.0, help=argparse.SUPPRESS)
    parser.add_argument("--decision-seconds", type=float, default=30.0, help=argparse.SUPPRESS)
    parser.add_argument("--game", default="nlhe", help=argparse.SUPPRESS)
    parser.add_argument("--buy-in", type=int, default=BUY_IN, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        return run_loop(serve_ours(args), args.uvloop and has_uvloop())
    if args.floor:
        return run_loop(serve_floor(args), args.uvloop and has_uvloop())
    if args.bots:
        return run_loop(bots_main(args), args.uvloop and has_uvloop())
    if args.quick:
        args.seconds, args.warmup = min(args.seconds, 5.0), min(args.warmup, 2.0)
    return run_loop(bench(args), False)


if __name__ == "__main__":
    sys.exit(main())
