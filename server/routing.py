"""Message routing: what each client message does, in one table (:data:`ROUTES`).

Adding a client message touches its type in :mod:`server.protocol`, one handler here and
docs/protocol.md; tests/server/test_routing.py checks the three agree. A handler gets the
server, the connection and the parsed message, and returns the reply body (None: the
reply is sent another way, or there is none).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from websockets.exceptions import ConnectionClosed

import engine
from engine import EngineError
from server import protocol
from server.connections import Session
from server.errors import Code, Refusal, engine_code
from server.export.formats import FORMATS
from server.export.seat import ExportRequest, export_stored, seen_from
from server.players import Players
from server.stats.service import Query
from server.store import UNAVAILABLE, UnknownHandError
from server.tables import AddHouseBot, Caller, Disconnect, TableError

if TYPE_CHECKING:  # the handlers are called with the server, which imports this module
    from server.app import PokerServer

log = logging.getLogger("pokerroom")

Reply = dict[str, Any] | None
Handler = Callable[["PokerServer", Session, Any], Awaitable[Reply]]


async def answer(app: PokerServer, session: Session, raw: str | bytes) -> str | None:
    """The reply to one message; never raises, whatever the client sent."""
    re_: str | None = None
    try:
        message = protocol.parse(raw)
        re_ = message.id
        body = await ROUTES[type(message)](app, session, message)
    except protocol.ProtocolError as exc:
        return protocol.error(exc.code, str(exc), re_ if re_ is not None else exc.re)
    except Refusal as exc:
        return protocol.error(exc.code, str(exc), re_, **exc.details)
    except EngineError as exc:
        return protocol.error(engine_code(exc), str(exc), re_)
    except UNAVAILABLE as exc:  # the database is away: say so, and to try again
        log.warning("a message was not answered: the database is unavailable (%s)",
                    str(exc).splitlines()[0] if str(exc) else type(exc).__name__)  # fmt: skip
        return protocol.error(
            Code.UNAVAILABLE, "the database is unavailable: try again shortly", re_
        )
    except ConnectionClosed:  # gone while its read waited (Session.while_connected)
        return None
    except Exception:  # a bug must cost this one reply, not the connection or a table
        log.exception("error answering a message")
        return protocol.error(Code.INTERNAL, "the server failed to answer this message", re_)
    if body is None:
        return None
    if re_ is not None:
        body = {**body, "re": re_}  # a copy: the table may keep the reply (action ids)
    return protocol.dumps(body)


async def left(app: PokerServer, session: Session) -> None:
    """A connection has closed: it leaves what it watched, and its seats wait for it."""
    for table_id in session.tables:
        runner = app.hosting.tables.get(table_id)
        if runner is not None:
            with contextlib.suppress(TableError):
                await runner.submit(Disconnect(), _caller(session))
        else:
            app.lobby.unwatch(session, table_id)
    app.tournaments.disconnected(session)
    player = session.player
    seated = player is not None and any(  # or asking for a seat: the answer waits for them
        r.core.seats.of_player(player) is not None or player.id in r.core.host.requests
        for r in app.hosting.tables.values()
    )
    app.players.forget(session, seated=seated, sessions=app.sessions)


# -- who you are -----------------------------------------------------------------------------


async def _ping(app: PokerServer, session: Session, m: protocol.Ping) -> Reply:
    return {"type": "pong"}


async def _hello(app: PokerServer, session: Session, m: protocol.Hello) -> Reply:
    seated = None if m.seat_token is None else app.hosting.player_of_seat_token(m.seat_token)
    return await app.players.hello(session, m, seated)


async def _create_account(app: PokerServer, session: Session, m: protocol.CreateAccount) -> Reply:
    return await app.players.create_account(session, m.name)


# -- tables ----------------------------------------------------------------------------------


async def _list_tables(app: PokerServer, session: Session, m: protocol.ListTables) -> Reply:
    return {"type": "tables", "tables": app.lobby.lines()}


async def _create_table(app: PokerServer, session: Session, m: protocol.CreateTable) -> Reply:
    runner = await app.hosting.create_for(Players.of(session), session.address, m)
    invite = runner.core.host.invite
    if invite is None:
        return {"type": "table_created", "table": runner.summary()}
    # A private table: only its creator, the host, learns the invite.
    return {"type": "table_created", "table": runner.summary(), "invite": invite}


def _caller(session: Session) -> Caller:
    return Caller(session, session.player, session.address)


async def _table(app: PokerServer, session: Session, m: Any) -> Reply:
    """A message for one table: carried out there (server/tables/core.py routes it by
    its type), and answered with the table's reply."""
    return await app.hosting.runner(m.table).submit(m, _caller(session))


async def _said_hello(app: PokerServer, session: Session, m: Any) -> Reply:
    """A table's message from a player who must have said hello (chat, a vote): refused
    ``hello_first`` before the table is looked for."""
    Players.of(session)
    return await _table(app, session, m)


async def _sit(app: PokerServer, session: Session, m: protocol.Sit) -> Reply:
    Players.of(session)
    runner = app.hosting.runner(m.table)
    session.tables.add(m.table)
    return await runner.submit(m, _caller(session))


async def _spectate(app: PokerServer, session: Session, m: protocol.Spectate) -> Reply:
    return await app.lobby.spectate(session, m)


async def _request_seat(app: PokerServer, session: Session, m: protocol.RequestSeat) -> Reply:
    Players.of(session)
    reply = await _table(app, session, m)
    session.tables.add(m.table)  # watching while the host answers
    return reply


async def _host(app: PokerServer, session: Session, m: protocol.Host) -> Reply:
    """A private table's host's control (docs/home-games.md)."""
    player = Players.of(session)
    runner = app.hosting.runner(m.table)
    message: protocol.Host | AddHouseBot = m
    if m.action == "house_bot":
        runner.core.host.require_host(player)  # nobody else gets a player made for them
        if m.seat is None or m.strategy is None:
            raise TableError(Code.BAD_MESSAGE, "host: house_bot needs a seat and a strategy")
        bot_player, strategy = await app.hosting.house_bot(m.seat, m.strategy)
        message = AddHouseBot(m, bot_player, strategy)
    session.tables.add(m.table)
    return await runner.submit(message, _caller(session))


async def _ledger(app: PokerServer, session: Session, m: protocol.Ledger) -> Reply:
    """The table's ledger and who pays whom (docs/ledger.md)."""
    app.hosting.runner(m.table).core.host.require_watcher(session, Players.of(session))
    return protocol.ledger_body(m.table, await app.store.ledger_sessions(m.table))


EXPORT_HANDS = 500
"""The most hands one ``export`` writes: a night's, not a database's."""


async def _export(app: PokerServer, session: Session, m: protocol.Export) -> Reply:
    """The table's hands since ``since`` as one file, as the asker saw them: read and
    rendered in the records worker (:mod:`server.stats.worker`), a few at a time."""
    player = Players.of(session)
    app.hosting.runner(m.table).core.host.require_watcher(session, player)
    since = m.since or dt.datetime.now(dt.UTC) - dt.timedelta(days=1)
    app.exports.start(session.address)  # too_many_exports when over a limit
    try:
        request = ExportRequest(m.table, since, EXPORT_HANDS, player.name, m.format, session.since)
        text, count = await session.while_connected(app.records.run(export_stored, request))
    finally:
        app.exports.done(session.address)
    suffix = FORMATS[m.format].suffix
    return {"type": "export", "table": m.table, "format": m.format, "hands": count,
            "filename": f"{m.table}-{since:%Y%m%d}.{suffix}", "text": text}  # fmt: skip


async def _leave(app: PokerServer, session: Session, m: protocol.Leave) -> Reply:
    if m.table in app.lobby.followed:
        app.lobby.unwatch(session, m.table)
        session.stop_delay(m.table)
        session.tables.discard(m.table)
        return {"type": "left", "table": m.table}
    reply = await app.hosting.runner(m.table).submit(m, _caller(session))
    session.stop_delay(m.table)
    if reply["type"] == "left":
        session.tables.discard(m.table)
    return reply


async def _act(app: PokerServer, session: Session, m: protocol.Act) -> Reply:
    if m.table not in app.hosting.tables:
        tournament = app.tournaments.table_of(m.table)
        if tournament is not None:
            return tournament.act(Players.of(session), m)
    return await _table(app, session, m)


async def _resume(app: PokerServer, session: Session, m: protocol.Resume) -> Reply:
    session.tables.add(m.table)
    runner = app.hosting.runner(m.table)
    Players.of(session)
    return await runner.submit(m, _caller(session))


# -- hand histories --------------------------------------------------------------------------


async def _hands(app: PokerServer, session: Session, m: protocol.Hands) -> Reply:
    player = Players.of(session)
    hands = await app.store.list_hands(
        player=player.name, since=session.since, before=m.before, imported=False,
        limit=m.limit,
    )  # fmt: skip
    return protocol.hands_body(hands, player.name)


async def _hand(app: PokerServer, session: Session, m: protocol.Hand) -> Reply:
    """One of the player's hands as their seat saw it. A hand they did not play, one
    imported, and one that does not exist get the same answer: nobody learns anything
    of other people's hands by asking."""
    player = Players.of(session)
    try:
        stored = await app.store.stored_hand(
            m.hand_id, player=player.name, since=session.since, imported=False
        )
    except UnknownHandError:
        raise TableError(Code.NO_HAND, f"no hand {m.hand_id} that you played") from None
    position = stored.info.players.index(player.name)
    # About a millisecond of replaying and rendering: less than a hop to a thread.
    seen = seen_from(stored.info, position)
    return protocol.hand_body(stored, stored.info.engine_seats[position], seen)


async def _stats(app: PokerServer, session: Session, m: protocol.Stats) -> Reply:
    """Anyone's figures, even before hello: they are over what the tables showed
    (:mod:`server.stats.service` replays each hand as a spectator saw it), at public
    tables; a private table's only for those who may see it (docs/home-games.md)."""
    game = None if m.game is None else engine.game(m.game).key
    query = Query(tuple(dict.fromkeys(m.players)), m.table, game, m.last, m.since)
    allowed = m.table is not None and _may_see(app, session, m.table)
    return await session.while_connected(app.stats.stats(query, session.address, allowed=allowed))


def _may_see(app: PokerServer, session: Session, table_id: str) -> bool:
    """Whether ``session`` may see the records of table ``table_id`` if it is private:
    at a table open here, whoever watches it (its invite), sits or asks to, or hosts it
    (:class:`TableError` ``bad_invite`` for anyone else); a table closed, or hosted by
    another process, is nobody's to ask about here (False)."""
    runner = app.hosting.tables.get(table_id)
    if runner is None:
        return False
    if runner.core.host.private and session not in runner.core.fanout.subscribers:
        if session.player is None:
            raise TableError(
                Code.BAD_INVITE, f"table {table_id!r} is private: its invite lets you watch it"
            )
        runner.core.host.require_watcher(session, session.player)
    return True


# -- tournaments -----------------------------------------------------------------------------


async def _create_tournament(
    app: PokerServer, session: Session, m: protocol.CreateTournament
) -> Reply:
    host = await app.tournaments.create(Players.of(session), m)
    return {"type": "tournament_created", "tournament": host.summary()}


async def _list_tournaments(
    app: PokerServer, session: Session, m: protocol.ListTournaments
) -> Reply:
    return {"type": "tournaments", "tournaments": app.tournaments.summaries()}


async def _register(app: PokerServer, session: Session, m: protocol.Register) -> Reply:
    player = Players.of(session)
    return app.tournaments.get(m.tournament).register(player, session)


async def _unregister(app: PokerServer, session: Session, m: protocol.Unregister) -> Reply:
    player = Players.of(session)
    return app.tournaments.get(m.tournament).unregister(player)


ROUTES: dict[type[protocol.ClientMessageBase], Handler] = {
    protocol.Ping: _ping,
    protocol.Hello: _hello,
    protocol.CreateAccount: _create_account,
    protocol.ListTables: _list_tables,
    protocol.CreateTable: _create_table,
    protocol.ChooseGame: _table,
    protocol.Sit: _sit,
    protocol.Spectate: _spectate,
    protocol.RequestSeat: _request_seat,
    protocol.Host: _host,
    protocol.Straddle: _table,
    protocol.BombPot: _said_hello,
    protocol.Show: _table,
    protocol.Rabbit: _table,
    protocol.Chat: _said_hello,
    protocol.React: _said_hello,
    protocol.Ledger: _ledger,
    protocol.Export: _export,
    protocol.Leave: _leave,
    protocol.SitOut: _table,
    protocol.SitIn: _table,
    protocol.Act: _act,
    protocol.Resume: _resume,
    protocol.Hands: _hands,
    protocol.Hand: _hand,
    protocol.Stats: _stats,
    protocol.CreateTournament: _create_tournament,
    protocol.ListTournaments: _list_tournaments,
    protocol.Register: _register,
    protocol.Unregister: _unregister,
}
"""Each client message type and its handler: one row per message in docs/protocol.md."""
