"""Hosting tables: taking each one's lease, running it in its own task, and letting go.

Hosting a table is one step per table id: claiming its id here (so that a second caller
in this process loses at once), then taking its lease in the database (so that a second
process loses), then running it. Every table this process runs went through
:meth:`Hosting.claim`, and leaves it only when its task has ended. Several processes
share the tables by their leases (docs/operations.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import re
import secrets
import time
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import engine
from engine import TABLE_OPTIONS, EngineError, TableConfig
from server import protocol
from server.bots import STRATEGIES, load_bot
from server.bus import EventBus, NoBus
from server.connections import Session
from server.errors import Code
from server.players import Players
from server.settings import ServerSettings
from server.store import HandWriter, Lease, Store
from server.tables import (
    Caller,
    HostRecord,
    HouseSit,
    Player,
    TableError,
    TableRunner,
    TableSettings,
    store_with,
)

log = logging.getLogger("pokerroom")

DEMO_BOTS = {  # seat -> strategy; the sixth seat is for a person
    0: "tight-aggressive",
    1: "calling-station",
    2: "tight-aggressive",
    3: "random",
    4: "tight-aggressive",
}


class Hosting:
    """The tables this process runs, their leases, and the caps on the tables players
    open."""

    def __init__(
        self, store: Store, settings: ServerSettings, bus: EventBus, players: Players,
        sessions: set[Session],
    ) -> None:  # fmt: skip
        self.store, self.settings, self.bus, self.players = store, settings, bus, players
        self.sessions = sessions  # every connection: a closed table is taken off theirs
        self.tables: dict[str, TableRunner] = {}
        self.db_tables: dict[str, int] = {}
        self.holder = secrets.token_hex(8)  # this process, in the table leases
        self.address = ""  # where clients reach it: set once the socket is bound
        # The tables other processes hold live leases on, and where (by the database, on
        # each renewal): the lobby lists only these, whatever stale lines the bus keeps.
        self.hosts: dict[str, str] = {}
        self.claimed: set[str] = set()  # tables this process hosts, or is taking
        # Tables players created (and tables taken over that players had created): who
        # created each (None: not known here), from which address, and since when nobody
        # has been at it. Creating tables is one at a time (the caps are counted).
        self.creators: dict[str, int | None] = {}
        self.origins: dict[str, str] = {}
        self.idle_since: dict[str, float] = {}
        self._creating = asyncio.Lock()
        # Set when the server stops: the lease task ends between two rounds, never in a
        # transaction (cancelled in one on SQLite, it could keep the database locked).
        self.stopping = asyncio.Event()
        self.group: asyncio.TaskGroup | None = None  # set while the server runs
        self.writer: HandWriter | None = None  # every table's hands, one connection

    def runner(self, table_id: str) -> TableRunner:
        runner = self.tables.get(table_id)
        if runner is None:
            if table_id in self.hosts:
                raise self.hosted_elsewhere(table_id)
            raise TableError(Code.NO_TABLE, f"no table {table_id!r}")
        return runner

    def hosted_elsewhere(self, table_id: str) -> TableError:
        """What a player asking to play at another process's table is told: its address."""
        address = self.hosts[table_id]
        return TableError(
            Code.ELSEWHERE,
            f"table {table_id!r} is hosted by another server: connect to {address} to play",
            address=address,
        )

    async def create_table(self, name: str, config: TableConfig, **clock: float) -> TableRunner:
        """A new table, running in its own task from now on. Its id comes from its name,
        and is one no table in this process or another (by the leases) has. ``clock``:
        its ``decision_seconds`` and ``time_bank_seconds``."""
        return await self._create(name, config, None, clock)

    async def _create(
        self,
        name: str,
        config: TableConfig,
        creator: int | None,
        clock: dict[str, float],
        mixed: tuple[engine.Mix, tuple[int, int]] | None = None,
        *,
        private: dict[str, Any] | None = None,
    ) -> TableRunner:
        """:meth:`create_table`, for ``creator`` (a player's id; None: the server's);
        ``mixed``: a mixed game and its level; ``private``: a private table's host and
        invite (kept with the table, for a process taking it over)."""  # fmt: skip
        base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:30] or "table"
        for n in itertools.count(1):
            table_id = base if n == 1 else f"{base}-{n}"
            if table_id in self.hosts:
                continue
            settings = TableSettings(
                table_id=table_id,
                name=name,
                config=config,
                reconnect_grace_seconds=self.settings.reconnect_grace_seconds,
                mix=None if mixed is None else mixed[0],
                level=(0, 0) if mixed is None else mixed[1],
                **clock,  # type: ignore[arg-type]
            )
            stored = {**table_json(settings), "kind": "player", "creator": creator}
            if private is not None:
                stored["private"] = private
            lease = await self.claim(table_id, stored)
            if lease is not None:
                return await self._host(lease)
        raise AssertionError("unreachable")

    def demo_ids(self) -> list[str]:
        """The demo tables' ids, in the order of ``settings.demo_games``."""
        keys = self.settings.demo_games.split(",")
        return ["demo" if n == 0 else f"demo-{key}" for n, key in enumerate(keys)]

    async def host_demos(self) -> None:
        """Host each demo table of ``settings.demo_games`` (:meth:`host_demo`)."""
        for key, table_id in zip(self.settings.demo_games.split(","), self.demo_ids(), strict=True):
            await self.host_demo(key, table_id)

    async def host_demo(self, game: str = "nlhe", table_id: str = "demo") -> TableRunner | None:
        """Host a demo table of ``game`` (five house bots and a free seat), or take it
        back after a restart. None when another live process hosts it: then this one takes
        it over if that one stops renewing its lease (docs/operations.md)."""
        config = house_config(engine.game(game))
        name = "Demo" if table_id == "demo" else f"Demo {config.game.name}"
        settings = TableSettings(
            table_id=table_id, name=name, config=config,
            reconnect_grace_seconds=self.settings.reconnect_grace_seconds,
        )  # fmt: skip
        seats = sorted(DEMO_BOTS)[: config.seats - 1]
        house = {str(seat): [f"house-{seat + 1}", DEMO_BOTS[seat]] for seat in seats}
        stack = 100 * config.unit
        stored = {**table_json(settings), "kind": "demo", "house": house, "house_stack": stack}
        lease = await self.claim(table_id, stored)
        return None if lease is None else await self._host(lease)

    async def claim(self, table_id: str, config: dict[str, Any] | None) -> Lease | None:
        """The lease of table ``table_id``, or None if this process hosts it or is taking
        it already, or another live process holds it. ``config`` replaces the table's
        stored configuration (a new table's; None when taking one over as it was)."""
        if table_id in self.claimed:
            return None
        self.claimed.add(table_id)  # before any await: a second caller here loses
        lease = None
        try:
            db_id = await self.store.ensure_table(table_id, config or {})
            lease = await self.store.take_table(
                db_id, self.holder, self.address, self.settings.lease_seconds, config
            )
        finally:
            if lease is None:
                self.claimed.discard(table_id)
        if lease is None:
            return None
        if lease.voided is not None:
            log.warning(
                "table %s: hand %d voided (its server stopped without settling it); %d "
                "players got their chips back", lease.name, lease.voided, len(lease.refunds),
            )  # fmt: skip
        return lease

    async def _host(self, lease: Lease) -> TableRunner:
        """Run a table this process has just taken the lease on, as its stored
        configuration says (house bots too). It numbers its hands on from the last stored
        (or voided) one: hand numbers are unique per table."""
        table_id = lease.name
        assert table_id in self.claimed and table_id not in self.tables, table_id
        private = lease.config.get("private")
        runner = TableRunner(
            table_settings(lease, self.settings),
            house_think_seconds=self.settings.house_think_seconds,
            # A private table publishes nothing: no event, state, lobby line or hand.
            bus=self.bus if private is None else NoBus(self.bus.topics),
            address=self.address,
        )
        runner.core.number_hands_after(lease.last_hand_number)
        if private is not None:
            runner.core.host.make_private(private["host"], private["invite"])
        self.tables[table_id] = runner
        self.db_tables[table_id] = lease.table_id
        creator = lease.config.get("creator")
        if lease.config.get("kind", "demo" if table_id == "demo" else "player") == "player":
            self._adopt(table_id, creator)
        assert self.group is not None
        self.group.create_task(self._run_table(runner, lease.table_id), name=f"table {table_id}")
        house = lease.config.get("house", {})
        if house:
            bots = {int(seat): (name, kind) for seat, (name, kind) in house.items()}
            await self.add_house_bots(runner, bots, stack=lease.config["house_stack"])
        return runner

    async def add_house_bots(
        self, runner: TableRunner, bots: dict[int, tuple[str, Any]], stack: int
    ) -> None:
        """Seat bots that play inside the server: ``{seat: (name, bot)}``, a bot being a
        strategy or the name :func:`server.bots.load_bot` knows it by. Named ones are
        stored with the table: a process taking the table over seats them again."""
        loaded = {
            seat: (name, load_bot(bot) if isinstance(bot, str) else bot)
            for seat, (name, bot) in bots.items()
        }
        ids = await self.store.ensure_players(name for name, _ in loaded.values())
        players = {
            seat: (Player(ids[name], name, bot=True), bot) for seat, (name, bot) in loaded.items()
        }
        for name, _ in loaded.values():
            self.players.reserve(name)
        named = {str(s): [name, b] for s, (name, b) in bots.items() if isinstance(b, str)}
        if named:
            db_id = self.db_tables[runner.settings.table_id]
            stored = await self.store.table_config(db_id)
            house = {**stored.get("house", {}), **named}
            await self.store.set_table_config(
                db_id, {**stored, "house": house, "house_stack": stack}
            )
        await runner.submit(HouseSit(players, stack), Caller(None))

    async def _run_table(self, runner: TableRunner, db_id: int) -> None:
        table_id = runner.settings.table_id
        try:
            await self._play_table(runner, db_id)
        except Exception:  # one table failing never takes the server down
            log.exception("table %s could not run", table_id)
            runner.halt()
        try:
            if not runner.abandoned:  # another process holds the lease if it is
                # Everyone is cashed out: the table is free for any process.
                await self.store.release_table(db_id, self.holder)
        except Exception as exc:  # it expires by itself, and the taker finds nothing owed
            log.warning("table %s: its lease was not released (%s)", table_id, exc)
        finally:
            if self.tables.get(table_id) is runner:
                self._drop_table(table_id, runner.core.close_reason)
            self.claimed.discard(table_id)

    async def _play_table(self, runner: TableRunner, db_id: int) -> None:
        assert self.writer is not None
        writer = self.writer
        runner.store_hand = store_with(writer, db_id, runner.settings.table_id, runner.bus)
        runner.publish_summary()  # in the lobby of whoever follows the bus

        async def record(player_id: int, amount: int, reason: str) -> None:
            await writer.record(player_id, db_id, amount, reason)

        async def record_host(record: HostRecord) -> None:
            host, action, player, details, at = record
            await self.store.record_host_action(db_id, host, action, player, details=details, at=at)
            if action in ("transfer", "blinds"):  # what a process taking it over runs
                stored = await self.store.table_config(db_id)
                await self.store.set_table_config(
                    db_id, host_change(stored, action, player, details)
                )

        runner.record_ledger = record
        runner.record_host = record_host
        await runner.run()

    async def create_for(
        self, creator: Player, address: str, m: protocol.CreateTable
    ) -> TableRunner:
        """A table a player asked for, within the caps on open tables per player, per
        address and in all (docs/operations.md): nobody can stop everyone else creating
        tables. One at a time, so that the caps hold however many ask at once."""
        settings = self.settings
        async with self._creating:
            check_caps(settings, self.creators, self.origins, creator.id, address)
            try:
                check_mix_fields(m)
                mixed = table_mix(m.model_dump())
                config = table_config(m.model_dump(), mixed)
            except EngineError as exc:
                raise TableError(Code.REFUSED, str(exc)) from None
            # A private table's invite: 192 random bits, in its link (docs/home-games.md).
            private = (
                {"host": creator.id, "invite": secrets.token_urlsafe(24)} if m.private else None
            )
            runner = await self._create(
                m.name,
                config,
                creator.id,
                {"decision_seconds": m.decision_seconds,
                 "time_bank_seconds": m.time_bank_seconds,
                 "show_seconds": (4.0 if m.private else 0.0)
                 if m.show_seconds is None else m.show_seconds},
                mixed,
                private=private,
            )  # fmt: skip
            self.origins[runner.settings.table_id] = address
            return runner

    async def house_bot(self, seat: int, strategy: str) -> tuple[Player, Any]:
        """A house bot a private table's host seats: a built-in strategy (never a module
        of the host's naming), under a name of its own, reserved like the demo's bots."""
        if strategy not in STRATEGIES:
            names = ", ".join(STRATEGIES)
            raise TableError(Code.BAD_STRATEGY, f"no house bot {strategy!r}: one of {names}")
        name = f"bot{seat + 1}-{strategy}"
        ids = await self.store.ensure_players([name])
        self.players.reserve(name)
        return Player(ids[name], name, bot=True), load_bot(strategy)

    def player_of_seat_token(self, token: str) -> Player | None:
        """Who holds the seat a seat token was given for, at any table here."""
        for runner in self.tables.values():
            player = runner.core.seats.player_of_token(token)
            if player is not None:
                return player
        return None

    def _adopt(self, table_id: str, creator: int | None) -> None:
        """Count a player's table (created here, or taken over): for the caps, and to
        close it once nobody uses it."""
        self.creators[table_id] = creator
        self.idle_since[table_id] = time.monotonic()

    # -- several processes ------------------------------------------------------------------

    async def keep_leases(self) -> None:
        """Renew this process's leases a third of a lease apart; stop a table whose lease
        another process has taken (this one was cut off from the database for longer than
        a lease); take over the tables whose host stopped renewing (it died)."""
        failing_since: float | None = None  # an outage is said once, and its end
        while not self.stopping.is_set():
            try:
                held = await self.store.renew_leases(self.holder, self.settings.lease_seconds)
                if failing_since is not None:
                    log.warning("renewing table leases works again, after %.1f s",
                                time.monotonic() - failing_since)  # fmt: skip
                    failing_since = None
                for table_id, db_id in list(self.db_tables.items()):
                    if db_id not in held and not self.tables[table_id].stopped:
                        log.error("table %s: another server has taken it over", table_id)
                        self._drop_table(table_id, "moved").abandon()
                for name in await self.store.expired_leases():
                    lease = await self.claim(name, None)
                    if lease is not None:
                        await self._take_over(lease)
                self.hosts = await self.store.hosts(other_than=self.holder)
            except Exception as exc:  # the database is away: try again next time
                if failing_since is None:
                    log.warning("renewing table leases failed (%s); the tables play on and "
                                "it is tried again every %.0f s", exc or type(exc).__name__,
                                self.settings.lease_seconds / 3)  # fmt: skip
                    failing_since = time.monotonic()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stopping.wait(), self.settings.lease_seconds / 3)

    async def _take_over(self, lease: Lease) -> None:
        """Host a table another process hosted, as it was configured."""
        try:
            table_settings(lease, self.settings)
        except (KeyError, TypeError, ValueError, EngineError) as exc:  # not ours to fix here
            log.error("table %s cannot be taken over: its stored configuration is bad (%s)",
                      lease.name, exc)  # fmt: skip
            await self.store.release_table(lease.table_id, self.holder)
            self.claimed.discard(lease.name)
            return
        await self._host(lease)
        log.warning("table %s: taken over from a server that stopped renewing it", lease.name)

    # -- idle tables ------------------------------------------------------------------------

    async def close_idle_tables(self) -> None:
        """Close, every so often, the tables players created that nobody uses: nobody has
        sat at it for ``unused_table_seconds`` since it opened, or nobody has been seated
        or waiting (house bots aside) for ``idle_table_seconds``. Each costs memory, a
        task and a lobby line, and counts against its creator's caps."""
        idle, unused = self.settings.idle_table_seconds, self.settings.unused_table_seconds
        while True:
            await asyncio.sleep(min(30.0, idle / 4, unused / 4))
            now = time.monotonic()
            for table_id in list(self.creators):
                runner = self.tables.get(table_id)
                if runner is None:
                    continue
                if runner.core.has_people:
                    self.idle_since.pop(table_id, None)
                    continue
                since = self.idle_since.setdefault(table_id, now)
                if now - since >= (idle if runner.core.seats.ever_seated else min(idle, unused)):
                    self.close_table(table_id, "idle")

    def close_table(self, table_id: str, reason: str) -> None:
        """Take a table out of the lobby and stop it; whoever watches it is told."""
        self._drop_table(table_id, reason).close()

    def _drop_table(self, table_id: str, reason: str) -> TableRunner:
        """Take a table out of the lobby and tell whoever watches it; the caller stops it."""
        runner = self.tables.pop(table_id)
        self.db_tables.pop(table_id, None)
        self.idle_since.pop(table_id, None)
        self.creators.pop(table_id, None)
        self.origins.pop(table_id, None)
        closed = protocol.dumps({"type": "table_closed", "table": table_id, "reason": reason})
        for session in list(runner.core.fanout.subscribers):
            session.stop_delay(table_id)  # what a delay held back first, then the news
            session.send(closed)
        for session in self.sessions:
            session.tables.discard(table_id)
        return runner


def check_caps(
    settings: ServerSettings, creators: Mapping[str, int | None], origins: Mapping[str, str],
    creator: int, address: str,
) -> None:  # fmt: skip
    """Refuse a new table past the caps on open tables per player, per address and in
    all (``creators`` and ``origins``: the open tables' creators and addresses)."""
    mine = sum(c == creator for c in creators.values())
    theirs = sum(a == address for a in origins.values())
    if mine >= settings.tables_per_player:
        raise TableError(
            Code.TOO_MANY_TABLES, f"a player may have {settings.tables_per_player} tables "
            "open: close one (leave it, and it closes once idle)",
        )  # fmt: skip
    if theirs >= settings.tables_per_address:
        raise TableError(
            Code.TOO_MANY_TABLES, f"players at one address may have "
            f"{settings.tables_per_address} tables open: join one",
        )  # fmt: skip
    if len(creators) >= settings.max_tables:
        raise TableError(
            Code.TOO_MANY_TABLES, f"players have opened the most tables this server "
            f"holds ({settings.max_tables}): join one",
        )  # fmt: skip


def host_change(
    stored: dict[str, Any], action: str, player: int | None, details: dict[str, Any]
) -> dict[str, Any]:
    """A private table's stored configuration with its new host, or its new blinds."""
    stored = dict(stored)
    if action == "transfer" and "private" in stored:
        stored["private"] = {**stored["private"], "host": player}
    elif action == "blinds":
        ante = details["ante"]
        kind = stored.get("ante_kind", "none")
        stored.update(
            small_blind=details["small_blind"], big_blind=details["big_blind"], ante=ante,
            ante_kind=("per_player" if kind == "none" else kind) if ante else "none",
        )  # fmt: skip
    return stored


_CLOCK = ("decision_seconds", "time_bank_seconds", "show_seconds")


def table_settings(lease: Lease, server: ServerSettings) -> TableSettings:
    """A table as :func:`table_json` stored it, for a process taking it over."""
    stored = lease.config
    mixed = table_mix(stored)
    return TableSettings(
        table_id=lease.name,
        name=stored["name"],
        config=table_config(stored, mixed),
        mix=None if mixed is None else mixed[0],
        level=(0, 0) if mixed is None else mixed[1],
        reconnect_grace_seconds=server.reconnect_grace_seconds,
        # Tables stored before the clock was: the defaults.
        **{k: stored[k] for k in _CLOCK if k in stored},
    )


def house_config(game: engine.Game, seats: int = 6) -> TableConfig:
    """A table of ``game`` at the house's stakes: blinds of 50/100 read by the game's own
    convention (:func:`engine.stakes_for_blinds`: big-bet games play the blinds; limit
    games bet 100 and 200, and stud antes and brings in by its convention)."""
    seats = min(seats, game.max_players)
    return TableConfig(game=game, seats=seats, **engine.stakes_for_blinds(game, 50, 100))


def table_mix(fields: Mapping[str, Any]) -> tuple[engine.Mix, tuple[int, int]] | None:
    """A mixed table's mix and level from its fields (``create_table``'s, or as
    :func:`table_json` stores them), None for a table of one game. Raises
    :class:`EngineError` naming what does not fit."""
    name = fields.get("mix")
    if name is None:
        return None
    every = fields.get("every")
    if name == "choice":
        if not fields.get("games"):
            raise engine.InvalidConfigError("dealer's choice needs its games")
        mix = engine.dealers_choice(fields["games"], hands=1 if every is None else None)
    else:
        if fields.get("games"):
            raise engine.InvalidConfigError(f"{name} has its own games")
        mix = engine.mix(name)
    if every is not None:
        mix = mix.every(None if every == "orbit" else every)
    small, big = fields.get("small_bet", 0), fields.get("big_bet", 0)
    if small <= 0:
        raise engine.InvalidConfigError(f"{mix.name} needs its level: a small bet above 0")
    return mix, (small, big or 2 * small)


def check_mix_fields(m: protocol.CreateTable) -> None:
    """A ``create_table`` names a mix's fields with a mix only, and a mix's stakes by its
    level only: a field that would not be used is refused, never ignored."""
    if m.mix is None:
        extra = [name for name in ("games", "every") if getattr(m, name) is not None]
        if extra:
            raise engine.InvalidConfigError(f"{extra[0]} is for a mixed game (mix) only")
        return
    if m.game != "nlhe" or m.cap is not None:
        raise engine.InvalidConfigError("a mixed game takes no game or cap of its own")
    defaults = protocol.CreateTable.model_fields
    options = [name for name in TABLE_OPTIONS if getattr(m, name) != defaults[name].default]
    if options:  # each game of a mix allows other options: none is played, so none is taken
        raise engine.InvalidConfigError(
            f"table options are for a table of one game: a mixed game takes no {options[0]}"
        )
    stakes = ("small_blind", "big_blind", "ante", "bring_in", "min_buy_in", "max_buy_in")
    extra = [name for name in stakes if getattr(m, name)]
    if extra or m.ante_kind != "none":
        raise engine.InvalidConfigError(
            f"a mixed game's stakes and buy-ins follow its level (small_bet, big_bet): "
            f"{extra[0] if extra else 'ante_kind'} is not one of its fields"
        )


def mix_json(mix: engine.Mix) -> dict[str, Any]:
    """A mix as :func:`table_json` stores it, and :func:`table_mix` reads it back."""
    return {
        "mix": "choice" if mix.dealers_choice else mix.key,
        "games": [g.key for g in mix.games] if mix.dealers_choice else None,
        "every": mix.hands if mix.change is engine.GameChange.HANDS else "orbit",
    }


def table_config(
    fields: Mapping[str, Any], mixed: tuple[engine.Mix, tuple[int, int]] | None = None
) -> TableConfig:
    """A table's configuration from its fields, as ``create_table`` sends them and
    :func:`table_json` stores them: the ``game`` (a preset's key or code, or a definition;
    tables stored before games were are no-limit hold'em) and its stakes; a mixed game's
    first game at its level. Raises :class:`EngineError` naming what does not fit."""
    if mixed is not None:
        mix, level = mixed
        return mix.config(mix.games[0], level, seats=fields["seats"])
    config = TableConfig.from_dict(fields)  # no game: no-limit hold'em, the field's default
    if fields.get("cap") is not None:
        config = replace(config, game=config.game.with_cap(fields["cap"]))
    return config


def table_json(settings: TableSettings) -> dict[str, Any]:
    """A table as stored (``tables.config``): what a process taking it over runs."""
    config = settings.config
    return {
        "name": settings.name,
        "decision_seconds": settings.decision_seconds,
        "time_bank_seconds": settings.time_bank_seconds,
        **config.to_dict(),
        **({} if settings.mix is None else mix_json(settings.mix)),
        "show_seconds": settings.show_seconds,
    }
