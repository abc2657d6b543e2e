"""The bot SDK client's middle layer: keeping a seat at one table, over a connection that
:class:`server.bots.connection.ReconnectingClient` keeps open.

:class:`SeatKeeping` says hello (again as the same session after a reconnection),
finds a table (the one asked for, else the first with a free seat) and sits with a buy-in,
or joins the waiting list. From the table's snapshot and the events after it, a
:class:`server.bots.mirror.TableMirror` keeps the seat's picture of the table; after a
reconnection or a gap in the events it resumes from the last event seen. It counts the
hands played, sits in again when sat out, re-buys when busted (``rebuy``), and leaves after
``hands`` hands or when stopped. What to answer an ``action_request`` with is the layer
above's business (:class:`server.bots.client.BotClient`). :class:`TableConversation` adds
what to do when the server refuses something (a hello, a sit, a resume, a rate limit).
"""

from __future__ import annotations

import asyncio
import logging
from abc import abstractmethod
from collections.abc import Mapping
from typing import Any

from server.bots.connection import ReconnectingClient
from server.bots.errors import BotClientError
from server.bots.mirror import TableMirror
from server.bots.wire import config_from_summary

__all__ = ["SeatKeeping", "TableConversation", "choose_table"]

log = logging.getLogger("pokerroom.bot")


class SeatKeeping(ReconnectingClient):
    """Keeps a seat at ``table`` (else the one :func:`choose_table` picks) on the server at
    ``url``, as the guest ``name`` or the account ``token``, until it has played ``hands``
    hands; the options are :class:`server.bots.client.BotClient`'s. :attr:`errors` holds
    every error message the server sent."""

    def __init__(
        self,
        url: str,
        *,
        name: str | None,
        token: str | None,
        table: str | None,
        buy_in: int | None,
        hands: int | None,
        rebuy: bool,
        wait_for_big_blind: bool,
        max_retries: int | None,
        backoff: tuple[float, float],
        invite: str | None = None,
    ) -> None:
        self.name = name
        self.invite = invite
        """A private table's invite (its link's): ask its host for a seat instead of sitting."""
        self.token = token
        self.buy_in = buy_in
        self.hands = hands
        self.rebuy = rebuy
        self.wait_for_big_blind = wait_for_big_blind
        # What the run has done, for callers and tests.
        self.table: str | None = table
        self.mirror: TableMirror | None = None
        self.hands_played = 0
        self.rebuys = 0
        self.errors: list[dict[str, Any]] = []
        self.seats_taken: list[int] = []
        """Every seat the client was given (a seat kept across a reconnection counts once)."""
        self._fixed_table = table is not None
        self._summary: dict[str, Any] | None = None  # the table's lobby line
        self._session: str | None = None  # from the welcome: says hello again as us
        self._counter = 0
        self._last_seq = 0
        self._counted_through = 0  # events up to this seq are counted in hands_played
        self._last_seat: int | None = None  # the seat we held last, to count missed events
        self._last_stack: int | None = None
        self._busted = False
        self._joined = False  # seated or on the waiting list at some point: resume, not sit
        self._lobby_failures = 0
        super().__init__(url, player=name, max_retries=max_retries, backoff=backoff)

    def _reset_connection(self) -> None:
        super()._reset_connection()
        self._recovering = False
        self._welcomed = False
        self._resuming = False
        self._sit_pending = False
        self._waiting_list = False
        self._leave_sent = False
        self._sit_in_pending = False

    @property
    def seat(self) -> int | None:
        """The seat held now, if any."""
        return None if self.mirror is None else self.mirror.viewer

    # -- what the layer above does ----------------------------------------------------------

    @abstractmethod
    async def _on_action_request(self, m: dict[str, Any]) -> None:
        """Answer an ``action_request`` (or not, when it is too late)."""

    @abstractmethod
    def _on_ack(self, action_id: str) -> None:
        """The server accepted the act ``action_id``."""

    @abstractmethod
    async def _on_error(self, m: dict[str, Any]) -> None:
        """The server refused something of ours (:class:`TableConversation`'s)."""

    @abstractmethod
    async def _on_act_error(self, action_id: str, code: object) -> bool:
        """Whether ``action_id`` names an act of ours still awaiting its answer; if so, the
        server refused it with ``code``, and this has dealt with that."""

    @abstractmethod
    def _settle_decision(self) -> None:
        """Our decision at the table, if one is open, is settled (or will be asked again)."""

    @abstractmethod
    async def _resend_open_act(self) -> None:
        """Send again the act of the decision still open, if any (it may not have been read)."""

    # -- saying who we are, and sending again ------------------------------------------------

    async def _hello(self) -> None:
        """Who we are: the session an earlier welcome gave us (a guest's name is theirs alone
        once used), else the account token or the guest name."""
        hello: dict[str, Any] = {"type": "hello", "id": "hello", "bot": True}  # marked as one
        if self._session is not None:
            hello["session"] = self._session
        elif self.token is not None:
            hello["token"] = self.token
        else:
            hello["name"] = self.name
        await self._send(hello)

    async def _recover(self) -> None:
        """After ``rate_limited``: send again whatever may have been the message not read.
        An act goes again only while its decision is open, with its id (it acts at most
        once); a repeated sit, sit_in or leave gets an error that changes nothing."""
        await asyncio.sleep(1.0)
        self._recovering = False
        await self._resend_open_act()  # only while its decision is open
        self._sit_pending = self._sit_in_pending = self._leave_sent = False
        if self._resuming:
            await self._send_resume()
        if self._welcomed and self._summary is None:  # the lobby was asked for, unread
            await self._list_tables()
        await self._reconcile()

    async def _send_resume(self) -> None:
        """Ask for the table again: a snapshot and every event after the last we saw."""
        await self._send(
            {"type": "resume", "table": self.table, "last_seq": self._last_seq,
             "id": self._next_id("resume")}
        )  # fmt: skip

    def _next_id(self, kind: str) -> str:
        self._counter += 1
        return f"{kind}-{self._counter}"

    # -- keeping the seat we want ----------------------------------------------------------

    async def _reconcile(self) -> None:
        """Send whatever moves us towards where we want to be: seated and playing, or (when
        finishing) gone from the table."""
        if self._ws is None or not self._welcomed or self._resuming or self.table is None:
            return
        if self._summary is None:
            return
        seated = self.mirror is not None
        if self._finish is not None:
            if (seated or self._waiting_list) and not self._leave_sent:
                self._leave_sent = True
                await self._send(
                    {"type": "leave", "table": self.table, "id": self._next_id("leave")}
                )
            elif not seated and not self._waiting_list and not self._sit_pending:
                self._done = True
            return
        if seated:
            assert self.mirror is not None and self.seat is not None
            me = self.mirror.seats.get(self.seat)
            if me is not None and me.sitting_out and not self._sit_in_pending:
                self._sit_in_pending = True
                log.info("%s: sitting in again at seat %d", self.player, self.seat)
                await self._send(
                    {"type": "sit_in", "table": self.table, "id": self._next_id("sit_in"),
                     "post": not self.wait_for_big_blind}
                )  # fmt: skip
            return
        if self._sit_pending or self._waiting_list:
            return
        if self._busted and not self.rebuy:
            self._end("busted")
            return
        if self._busted:
            self.rebuys += 1
            log.info("%s: busted; buying in again", self.player)
        self._busted = False
        buy_in = self.buy_in or int(self._summary["max_buy_in"])
        self._sit_pending = True
        if self.invite is not None:  # the host lets us in (seated, then our snapshot)
            await self._send(
                {"type": "request_seat", "table": self.table, "id": self._next_id("sit"),
                 "invite": self.invite, "buy_in": buy_in}
            )  # fmt: skip
            return
        await self._send(
            {"type": "sit", "table": self.table, "id": self._next_id("sit"), "buy_in": buy_in,
             "wait_for_big_blind": self.wait_for_big_blind}
        )  # fmt: skip

    # -- messages ---------------------------------------------------------------------------

    async def _on_message(self, m: dict[str, Any]) -> None:
        kind = m.get("type")
        if m.get("table") not in (None, self.table):
            return  # another table's news (we never watch one)
        match kind:
            case "welcome":
                self._on_welcome(m)
                await self._find_table()
            case "seat_requested":
                log.info("%s: asked the host of %s for a seat", self.player, self.table)
            case "seat_rejected":
                raise BotClientError(f"the host of {self.table!r} said no to our seat request")
            case "tables":
                self._lobby_failures = 0
                chosen = choose_table(m["tables"], self.table if self._fixed_table else None)
                self.table, self._summary = str(chosen["id"]), chosen
            case "snapshot":
                self._on_snapshot(m)
            case "resumed":
                self._on_resumed(m)
            case "seated":
                self._sit_pending = False
                log.info(
                    "%s: seated at %s seat %s with %s", self.player, self.table, m["seat"],
                    m["stack"],
                )  # fmt: skip
            case "waiting":
                self._sit_pending = False
                self._waiting_list = self._joined = True
                log.info("%s: the table is full; waiting list position %s", self.player,
                         m["position"])  # fmt: skip
            case "event":
                await self._on_event(m)
            case "action_request":
                await self._on_action_request(m)
            case "ack":
                self._on_ack(str(m.get("action_id")))
            case "error":
                await self._on_error(m)
            case "left":
                self.mirror = None
                self._waiting_list = False
                self._finish_when_done("stopped")
            case "sat_in":
                self._sit_in_pending = False
            case "game_changed":  # a mixed game's next game (docs/protocol.md)
                self._summary = m["summary"]
                if self.mirror is not None:
                    self.mirror.set_config(config_from_summary(m["summary"]))
            case "game_choice":  # dealer's choice: ours to pick
                game = self.choose_game([str(g) for g in m["games"]], str(m["current"]))
                await self._send(
                    {"type": "choose_game", "table": self.table, "game": game,
                     "id": self._next_id("choose")}
                )  # fmt: skip
            case _:
                pass  # leaving, sat_out, deck_commitment, pong: nothing to do

    def choose_game(self, games: list[str], current: str) -> str:
        """Dealer's choice: the game to deal next, one of ``games`` (keys); by default
        the game being played."""
        return current

    async def _find_table(self) -> None:
        """After the welcome: our table again, the invite's, or one from the lobby."""
        if self._joined and self.table is not None:
            self._resuming = True
            await self._send_resume()
        elif self.invite is not None:  # a private table is in no lobby: watch it
            await self._send({"type": "spectate", "table": self.table, "invite": self.invite,
                              "id": self._next_id("spectate")})  # fmt: skip
        else:
            await self._list_tables()

    async def _list_tables(self, delay: float = 0.0) -> None:
        if delay:
            await asyncio.sleep(delay)
        await self._send({"type": "list_tables", "id": self._next_id("tables")})

    def _on_welcome(self, m: dict[str, Any]) -> None:
        self._welcomed = True
        if isinstance(m.get("session"), str):
            self._session = m["session"]
        self._accepted()
        self.player = str(m["player"]["name"])
        log.info("%s: connected to %s", self.player, self.url)

    def _on_snapshot(self, m: dict[str, Any]) -> None:
        self._summary = m["summary"]
        if m["view"]["viewer"] is None:
            return  # not seated (a spectator's snapshot): nothing of ours
        self._take(TableMirror.from_snapshot(m), int(m["seq"]))
        self._sit_pending = self._waiting_list = False
        assert self.seat is not None
        self.seats_taken.append(self.seat)

    def _take(self, mirror: TableMirror, seq: int) -> None:
        self.mirror = mirror
        self._joined = True
        self._last_seq = seq
        self._counted_through = max(self._counted_through, seq)
        self._last_seat = mirror.viewer
        if mirror.viewer is not None:
            self._last_stack = mirror.stack(mirror.viewer)

    def _on_resumed(self, m: dict[str, Any]) -> None:
        self._resuming = False
        self._settle_decision()  # a decision still open is asked again, with the same id
        self._summary = m["summary"]
        for missed in m.get("missed", []):
            self._count(int(missed["seq"]), missed["event"], self._last_seat)
        self.mirror = None
        if m["view"]["viewer"] is not None:
            self._take(TableMirror.from_snapshot(m), int(m["seq"]))
            if not self.seats_taken or self.seats_taken[-1] != self.seat:
                assert self.seat is not None
                self.seats_taken.append(self.seat)
            log.info("%s: resumed at %s seat %s", self.player, self.table, self.seat)
        else:
            self._last_seq = int(m["seq"])
            self._counted_through = max(self._counted_through, self._last_seq)
            log.info("%s: resumed at %s without a seat", self.player, self.table)

    def _count(self, seq: int, event: Mapping[str, Any], seat: int | None) -> None:
        """Bookkeeping for one event seen by ``seat`` (hands played, busting, the limit);
        each seq is counted once, whether it came live or in a resume's missed list."""
        if seq <= self._counted_through or seat is None:
            return
        self._counted_through = seq
        kind = event.get("type")
        if kind == "hand_started" and seat in event["seats"]:
            if self.hands is not None and self.hands_played + 1 >= self.hands:
                self._finish_when_done("hands")  # leave when this hand ends
        elif kind == "hand_ended":
            stacks = dict(event["stacks"])
            if seat in stacks:
                self.hands_played += 1
                self._last_stack = int(stacks[seat])
                log.info(
                    "%s: hand %s over, stack %s (%d played)", self.player,
                    event["hand_number"], stacks[seat], self.hands_played,
                )  # fmt: skip
                if self.hands is not None and self.hands_played >= self.hands:
                    self._finish_when_done("hands")
        elif kind == "player_stood" and event["seat"] == seat:
            self._busted = event["reason"] == "busted"
            if self._busted:
                self._last_stack = 0

    async def _on_event(self, m: dict[str, Any]) -> None:
        seq, body = int(m["seq"]), m["event"]
        if self.mirror is None or seq <= self._last_seq:
            return  # before our snapshot (it includes this), or not seated
        if seq != self._last_seq + 1:
            # A gap: our picture may be wrong. Ask for a fresh one.
            log.warning("%s: missed events %d..%d; resyncing", self.player, self._last_seq + 1,
                        seq - 1)  # fmt: skip
            self._resuming = True
            self.mirror = None
            await self._send_resume()
            return
        seat = self.seat
        self._last_seq = seq
        self.mirror.apply(body, m.get("state"))
        kind = body.get("type")
        if kind in ("hand_started", "hand_ended") or (
            kind in ("action_taken", "player_stood", "player_sat_out") and body.get("seat") == seat
        ):
            self._settle_decision()
        self._count(seq, body, seat)
        if body.get("type") == "player_stood" and body.get("seat") == seat:
            self.mirror = None  # the server no longer sends us this table's events
            self._last_seat = None
            self._waiting_list = False
            if not self._busted:
                self._finish_when_done("stopped")


class TableConversation(SeatKeeping):
    """:class:`SeatKeeping`, and what it does when the server refuses it: a hello, a sit,
    a resume, a lobby that fails for a moment, a rate limit."""

    async def _on_sit_error(self, m: dict[str, Any]) -> None:
        code, text = m.get("code"), m.get("message")
        self._sit_pending = False
        if code == "elsewhere" and isinstance(m.get("address"), str):
            # Another server process hosts the table (docs/operations.md): sit there,
            # saying hello afresh (a session belongs to one process).
            log.info("%s: table %s is hosted at %s", self.player, self.table, m["address"])
            self._session, self._fixed_table = None, True
            await self._move_to(m["address"])
        elif code == "already_waiting":  # a sit sent twice: we are on the list
            self._waiting_list = self._joined = True
        elif code == "already_seated":  # our seat is still ours: pick it up
            self._resuming = True
            await self._send_resume()
        else:
            raise BotClientError(f"cannot sit at {self.table}: {code}: {text}")

    async def _on_hello_error(self, code: object, text: object) -> None:
        if code == "bad_session" and self._session is not None:
            self._session = None  # a server that forgot us (restarted): start afresh
            await self._hello()
            return
        if code == "name_taken":
            text = f"{text} (pick another --name, or play as an account with --token)"
        raise BotClientError(f"hello refused: {code}: {text}")

    async def _on_error(self, m: dict[str, Any]) -> None:
        self.errors.append(m)
        code, text, re_ = m.get("code"), m.get("message"), str(m.get("re") or "")
        log.warning("%s: the server says %s: %s", self.player, code, text)
        if code == "rate_limited":  # one of ours was not read, and we cannot tell which
            self._pacer.slow_down()  # this server is stricter: slow down
            if not self._recovering:
                self._recovering = True
                self._spawn(self._recover())
            return
        if await self._on_act_error(re_, code):
            return
        if re_ == "hello":
            await self._on_hello_error(code, text)
        elif re_.startswith("sit-"):
            await self._on_sit_error(m)
        elif re_.startswith("resume-"):
            self._resuming = False
            self.mirror = None
            if code == "no_table" and not self._fixed_table:
                self._joined = False  # the table is gone: find another
                self._summary = None
                await self._list_tables()
            elif code == "no_table":
                raise BotClientError(f"table {self.table!r} is gone: {text}")
        elif re_.startswith("sit_in-"):
            self._sit_in_pending = False
        elif re_.startswith("tables-"):
            # The lobby can fail for a moment (while a busted player's hand is being stored
            # the runner's summary names a seat the table has emptied): ask again.
            self._lobby_failures += 1
            if self._lobby_failures > 10:
                raise BotClientError(f"cannot list the tables: {code}: {text}")
            self._spawn(self._list_tables(delay=0.1 * self._lobby_failures))


def choose_table(tables: list[dict[str, Any]], wanted: str | None) -> dict[str, Any]:
    """From the lobby's list, the table ``wanted``, else the first with a free seat (else
    the first: its waiting list); :class:`BotClientError` when there is none."""
    if wanted is not None:
        by_id = {t["id"]: t for t in tables}
        if wanted not in by_id:
            raise BotClientError(f"no table {wanted!r} on the server")
        return by_id[wanted]
    free = [t for t in tables if len(t["players"]) < t["seats"]]
    if not free and not tables:
        raise BotClientError("the server has no tables")
    return (free or tables)[0]
