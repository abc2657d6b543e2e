"""What one server process runs with: every limit and address, checked when made.

The command line, the environment and the config file (server/cli/serve.py) all end here.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

import engine

_MAY_BE_0 = {"house_think_seconds", "reconnect_grace_seconds"}
DEFAULT_API_BOT = "tight-aggressive"


@dataclass(frozen=True)
class ServerSettings:
    host: str = "127.0.0.1"
    port: int = 8765
    max_message_bytes: int = 16 * 1024
    messages_per_second: float = 20.0
    burst: int = 60
    errors_before_close: int = 100
    """Malformed or refused messages a connection may send in a minute before it is
    closed."""
    outbox_bytes: int = 1 << 20
    """Bytes waiting for a client that does not read (beyond what the kernel's socket
    buffers hold) past which its next message closes its connection instead."""
    reconnect_grace_seconds: float = 60.0
    house_think_seconds: float = 0.2
    tables_per_player: int = 10
    """Tables (and tournaments) one player may have open: a client cannot fill the server
    with tables."""
    tables_per_address: int = 20
    """Tables the players connecting from one IP address may have open between them:
    guests are free to make, so the cap per player alone is not enough."""
    max_tables: int = 1_000
    """Tables players may have open in all."""
    idle_table_seconds: float = 300.0
    """A table a player created closes after this long with nobody seated or waiting."""
    unused_table_seconds: float = 60.0
    """A table a player created closes after this long if nobody has sat at it yet."""
    forget_after_seconds: float = 86_400.0
    """Guests who never played, unseen this long, and tables where nothing happened,
    opened this long ago, are deleted from the database (server/store/pruning.py)."""
    housekeeping_seconds: float = 3_600.0
    """How often the server marks the guests it holds as seen and deletes what
    ``forget_after_seconds`` says."""
    accounts_per_address: int = 10
    """Accounts one IP address may create an hour."""
    lease_seconds: float = 15.0
    """How long a table's lease lasts unless renewed (a third of it apart): how soon
    another process takes over the tables of one that died."""
    advertise: str | None = None
    """The websocket URL clients reach this process at, which the lobby gives players of
    its tables (default ``ws://host:port/ws``)."""
    demo: bool = False
    """Host the demo tables (or take them back after a restart):
    :meth:`server.hosting.Hosting.host_demos`."""
    demo_games: str = "nlhe,plo"
    """The demo tables' games, comma-separated (preset keys): table ``demo`` plays the
    first, ``demo-<key>`` each other."""
    api: bool = True
    """Serve the Slumbot-style HTTP API (server/slumbot, docs/bots.md) beside the
    websocket, in the same process and store."""
    api_port: int | None = None
    """The API's port: by default the websocket's port + 1 (a free port when that is 0);
    0 picks a free port."""
    api_bot: str = DEFAULT_API_BOT
    """The house bot API clients play unless ``new_hand`` names another."""
    api_sessions: int = 1_000
    """API sessions (tokens) alive at once: a new one past this is refused."""
    api_sessions_per_address: int = 20
    """API sessions the clients at one IP address may have alive at once (a session
    plays any number of hands: a client needs one per bot it runs at once)."""
    api_idle_seconds: float = 3_600.0
    """An API session unused this long ends (its unfinished hand is played out, checking
    or folding, and stored)."""
    api_body_bytes: int = 4_096
    """The largest request body the API reads."""
    api_unused_seconds: float = 60.0
    """An API session whose token its client never used ends after this (its hand is
    dropped: nothing of it was stored)."""
    api_requests_per_second: float = 10.0
    """API requests one IP address may send a second on average (one over waits its
    turn, up to a second, else is refused with 429)."""
    api_burst: int = 20
    """API requests one IP address may send at once."""
    api_requests_per_second_in_all: float = 25.0
    """API requests every address together may send a second (bursts of as many): the
    API's share of the event loop, whoever floods it."""
    api_session_requests_per_second: float = 10.0
    """API requests one session (token) may send a second on average."""
    api_session_burst: int = 20
    """API requests one session may send at once."""
    api_connections: int = 256
    """API connections open at once (at most a quarter of the process's open files
    limit, ``ulimit -n``, whatever this says): one more is answered 503 and closed."""
    api_connections_per_address: int = 32
    """API connections one IP address may have open at once: one more is answered 429
    and closed."""
    api_request_seconds: float = 5.0
    """An API request's line, headers and body must arrive within this of its first
    byte, or it is answered 408 and its connection closed."""
    api_keepalive_seconds: float = 30.0
    """An API connection with no request under way closes after this."""
    api_worker_share: float = 0.3
    """The share of its time the worker process may spend on finished API hands (their
    all-in equity and baseline), one at a time: heavy arithmetic on one core slows the
    event loop on another, so the rest is the tables'. 1: all of it."""
    forwarded_allow_ips: str = ""
    """Reverse proxies (IP addresses, comma-separated) whose ``X-Forwarded-For`` header
    says where their clients connect from: behind a proxy, the caps per address count
    the clients, not the proxy."""

    @property
    def api_listen_port(self) -> int:
        """The port the API listens on: ``api_port``, else the websocket's + 1 (0 with 0)."""
        if self.api_port is not None:
            return self.api_port
        return self.port + 1 if 0 < self.port < 65535 else 0

    def __post_init__(self) -> None:
        """:class:`ValueError` naming a setting no server can run with."""
        if not 0 <= self.port <= 65535:
            raise ValueError(f"port {self.port}: give 0 to 65535")
        if self.api_port is not None and not 0 <= self.api_port <= 65535:
            raise ValueError(f"api-port {self.api_port}: give 0 to 65535")
        for f in dataclasses.fields(self):
            value, name = getattr(self, f.name), f.name.replace("_", "-")
            if f.type == "int" and f.name != "port" and value < 1:
                raise ValueError(f"{name} {value}: give at least 1")
            if f.type == "float" and not (value > 0 or (value == 0 and f.name in _MAY_BE_0)):
                raise ValueError(f"{name} {value:g}: give a positive number")
        keys = self.demo_games.split(",")
        if len(set(keys)) != len(keys) or not all(
            re.fullmatch(r"[a-z0-9-]{1,20}", k) for k in keys
        ):
            raise ValueError(f"demo-games {self.demo_games!r}: give game keys, comma-separated")
        for key in keys:
            try:
                engine.game(key)
            except engine.EngineError as exc:
                raise ValueError(f"demo-games: {exc}") from None
        from server.bots import STRATEGIES  # noqa: PLC0415  (the bots load on first use)

        if self.api_bot not in STRATEGIES:
            raise ValueError(f"api-bot {self.api_bot!r}: give one of {', '.join(STRATEGIES)}")
        url = self.advertise
        if url is not None and not re.fullmatch(r"wss?://[^\s/]+(/\S*)?", url):
            raise ValueError(f"advertise {url!r}: give a ws:// or wss:// URL")
