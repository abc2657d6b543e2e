"""The bot SDK's network client: play a bot at a pokerroom server over the websocket
protocol, as any outside player does.

A bot is anything with ``act(view, menu) -> Action`` (:class:`server.bots.Bot`). The client
says hello, finds a table (the one asked for, else the first with a free seat) and sits
with a buy-in. From the table's snapshot and the events after it, a
:class:`server.bots.mirror.TableMirror` keeps the seat's picture of the table, so each
``action_request`` becomes the same :class:`engine.TableView` and :class:`engine.ActionMenu`
a house bot gets, and the bot's answer goes back as an ``act`` message. When the connection
drops the client reconnects with backoff, says hello again and resumes from the last event
it saw; it re-buys when busted (``rebuy``), leaves after ``hands`` hands, and
:meth:`BotClient.stop` leaves at the end of the current hand.

:class:`BotClient` is the top of three layers: :mod:`server.bots.connection` (one websocket
at a time, reconnection with backoff, paced sending), :mod:`server.bots.conversation`
(keeping a seat at one table) and, here, the bot's decisions (:mod:`server.bots.decisions`
asks the bot).
"""

from __future__ import annotations

import logging
import re
import secrets
from dataclasses import dataclass, field
from typing import Any, Final

from engine import ActionMenu, TableView
from server.bots.conversation import TableConversation
from server.bots.decisions import BotCaller, Decision, safe_action
from server.bots.errors import BotClientError
from server.bots.loader import load_bot_spec
from server.bots.strategies import Bot
from server.bots.wire import act_message, menu_from_json

__all__ = [
    "BotClient",
    "BotClientError",
    "ClientSummary",
    "load_bot_spec",
    "run_bot",
]

log = logging.getLogger("pokerroom.bot")

_NAME: Final = re.compile(r"^[A-Za-z0-9_.-]{1,32}$")


@dataclass(frozen=True)
class ClientSummary:
    """How a run ended. ``reason`` is ``"hands"`` (played as many as asked), ``"stopped"``
    (:meth:`BotClient.stop`), ``"busted"`` (out of chips, no re-buy) or ``"closed"`` (the
    connection was closed by a second stop)."""

    player: str
    table: str | None
    reason: str
    hands_played: int
    stack: int | None
    reconnects: int
    rebuys: int
    actions: int
    errors: tuple[dict[str, Any], ...] = field(default=())


class BotClient(TableConversation):
    """Plays ``bot`` at the server at ``url`` (``ws://host:port/ws``) until it has played
    ``hands`` hands (``None``: until stopped or busted).

    Identity: a guest ``name`` or an account ``token`` (default: a guest name made from the
    bot's class). ``table``: a table id, else the first with a free seat (or the first
    table's waiting list). ``buy_in``: default the table's maximum. ``rebuy``: sit again
    when busted. ``wait_for_big_blind``: a newcomer waits for the big blind instead of
    posting one at once. ``think_in_thread`` (the default): call ``bot.act`` in a worker
    thread while the client goes on reading; an answer that comes after the table has moved
    on (the server's clock answered) is dropped, and a bot still thinking when its time,
    decision plus time bank, is nearly up is answered for (check or fold). Without it the
    bot is called on the event loop, which suits quick bots and tests. ``max_retries``: failed
    connections in a row before giving up (``None``: never); ``backoff``: the first and the
    longest wait between them, in seconds.

    Messages go out at most :attr:`SEND_RATE` a second (bursts of :attr:`SEND_BURST`),
    under the server's limit; if the server still finds that too fast (``rate_limited``),
    the rate halves and what may have gone unread is sent again.

    :attr:`errors` holds every error message the server sent; :attr:`actions` counts the
    decisions answered (one asked again after a reconnection is answered with the same
    action id, and counts once) and :attr:`acks` those the server acknowledged.
    """

    def __init__(
        self,
        bot: Bot,
        url: str,
        *,
        name: str | None = None,
        token: str | None = None,
        table: str | None = None,
        buy_in: int | None = None,
        hands: int | None = None,
        rebuy: bool = False,
        wait_for_big_blind: bool = False,
        think_in_thread: bool = True,
        max_retries: int | None = 10,
        backoff: tuple[float, float] = (0.5, 10.0),
        invite: str | None = None,
    ) -> None:
        if invite is not None and table is None:
            raise ValueError("an invite is a private table's: give its table too")
        if name is not None and token is not None:
            raise ValueError("give a guest name or an account token, not both")
        if name is None and token is None:
            base = re.sub(r"[^A-Za-z0-9_.-]", "", type(bot).__name__)[:23] or "bot"
            name = f"{base}-{secrets.token_hex(4)}"
        if name is not None and not _NAME.match(name):
            raise ValueError(f"a guest name is 1-32 letters, digits, '_', '.' or '-': {name!r}")
        if hands is not None and hands < 1:
            raise ValueError(f"hands must be at least 1, got {hands}")
        if buy_in is not None and buy_in <= 0:
            raise ValueError(f"a buy-in must be positive, got {buy_in}")
        super().__init__(
            url, name=name, token=token, table=table, buy_in=buy_in, hands=hands, rebuy=rebuy,
            wait_for_big_blind=wait_for_big_blind, max_retries=max_retries, backoff=backoff,
            invite=invite,
        )  # fmt: skip
        self.bot = bot
        self.think_in_thread = think_in_thread
        self.actions = 0
        self.acks = 0
        self._caller = BotCaller(bot)
        self._run_id = secrets.token_hex(3)
        self._pending: dict[str, tuple[dict[str, Any], ActionMenu]] = {}  # acts not yet acked
        self._thinking: Decision | None = None
        # The action id of our decision still open at the table: an act names no decision,
        # so one sent after its decision closed could be applied to the next (see _recover).
        self._open: str | None = None
        self._sent: set[str] = set()  # action ids (a decision asked again keeps its id)
        self._acked: set[str] = set()

    async def run(self) -> ClientSummary:
        """Play until done; :class:`BotClientError` if the server refuses us or stays
        unreachable for ``max_retries`` attempts in a row."""
        await self._keep_connected()
        return ClientSummary(
            player=self.player or "",
            table=self.table,
            reason=self._finish or "closed",
            hands_played=self.hands_played,
            stack=self._last_stack,
            reconnects=self.reconnects,
            rebuys=self.rebuys,
            actions=self.actions,
            errors=tuple(self.errors),
        )

    # -- decisions --------------------------------------------------------------------------

    async def _on_action_request(self, m: dict[str, Any]) -> None:
        seat = int(m["seat"])
        if self._leave_sent:  # leaving mid-hand: the server folds (or checks) for us
            return
        if self.mirror is None:
            log.warning("%s: an action request before any snapshot; ignored", self.player)
            return
        if seat != self.seat:
            log.warning("%s: asked to act for seat %d, but we sit in %s", self.player, seat,
                        self.seat)  # fmt: skip
        menu = menu_from_json(seat, m["menu"])
        view = self.mirror.view(legal=menu)
        limit = float(m.get("decision_seconds", 30.0)) + float(m.get("time_bank_seconds", 0.0))
        # The same decision asked again (after a resume) gets the same id: it acts once.
        action_id = f"{self._run_id}-{m['hand_number']}-{m['seq']}"
        decision = Decision(str(m["table"]), action_id, menu, int(m["seq"]))
        self._open = action_id
        if not self.think_in_thread:
            action = self._caller.now(view, menu, self.player)
            message = act_message(decision.table, action_id, action, menu, decision.seq)
            await self._act(message, menu)
            return
        # Think in a worker thread while this loop goes on reading: if the table moves on
        # (the clock answered, the hand ended), the answer is dropped instead of refused.
        self._supersede()
        self._thinking = decision
        self._spawn(self._think(decision, view, limit))

    def choose_game(self, games: list[str], current: str) -> str:
        """Dealer's choice: the bot's ``choose_game(games, current)`` if it has one (a
        pick not on the list keeps the game), else the game being played."""
        choose = getattr(self.bot, "choose_game", None)
        if choose is None:
            return current
        try:
            picked = choose(games, current)
        except Exception:  # a bot's bug costs its pick, never the connection
            log.exception("%s: choose_game failed", self.player)
            return current
        return picked if picked in games else current

    def _supersede(self) -> None:
        """The decision being thought about has been settled without us."""
        if self._thinking is not None:
            self._thinking.stale = True
            self._thinking = None

    async def _think(self, decision: Decision, view: TableView, limit: float) -> None:
        action = await self._caller.in_thread(view, decision.menu, limit, self.player)
        if decision.stale:
            log.warning("%s: the bot answered too late; the table has moved on", self.player)
            return
        if self._leave_sent:  # we left while it thought: the server folds (or checks) for us
            return
        if self._thinking is decision:
            self._thinking = None
        message = act_message(
            decision.table, decision.action_id, action, decision.menu, decision.seq
        )
        await self._act(message, decision.menu)

    async def _act(self, message: dict[str, Any], menu: ActionMenu) -> None:
        self._pending[message["action_id"]] = (message, menu)
        self._sent.add(message["action_id"])
        self.actions = len(self._sent)
        await self._send(message)

    def _on_ack(self, action_id: str) -> None:
        self._acked.add(action_id)
        self.acks = len(self._acked)
        self._pending.pop(action_id, None)

    def _settle_decision(self) -> None:
        self._supersede()
        self._open = None

    def _awaiting_replies(self) -> bool:
        return bool(self._pending)

    async def _resend_open_act(self) -> None:
        if self._open in self._pending:
            await self._send(self._pending[self._open][0])

    async def _on_act_error(self, action_id: str, code: object) -> bool:
        """A refused act of the decision still open is answered again, safely (check or
        fold), under a new id; a stale one, or a refused safe answer, is left be."""
        if action_id not in self._pending:
            return False
        sent, menu = self._pending.pop(action_id)
        if (
            action_id != self._open
            or action_id.endswith("-safe")
            or code in ("not_your_turn", "not_seated", "stale")
        ):
            return True  # stale (the hand has moved on), or the safe answer failed too
        self._open = action_id + "-safe"
        safe = act_message(str(self.table), self._open, safe_action(menu), menu, sent.get("seq"))
        await self._act(safe, menu)
        return True


async def run_bot(spec: str | Bot, url: str, **options: Any) -> ClientSummary:
    """Load ``spec`` (see :func:`load_bot_spec`) and play it: ``BotClient(bot, url,
    **options).run()``."""
    bot = load_bot_spec(spec) if isinstance(spec, str) else spec
    return await BotClient(bot, url, **options).run()
