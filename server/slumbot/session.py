"""A session: one client's hands against a house bot, one at a time, under the engine.

A session is what a Slumbot token names. It serves one request at a time: a request for
it while another is under way is refused (409, :meth:`ApiSession.serving`), never queued,
so a client that sends the same request twice at once plays it once. A request that
fails leaves the hand as it was, so the client may try again; an ``act`` that names the
action string it answers (``old_action``) and was played already gets its first answer
again, so a retry after a lost answer is safe. Other sessions and the server's tables go
on whatever a session's client sends.

A finished hand's slow part (its all-in equity and its baseline, :func:`play.settle`)
runs in the worker process (:mod:`server.compute`), one hand at a time, the addresses
waiting taking turns.

Nothing of a session is stored until its client first uses its token: its first hand
puts the client on the button, first to act, so that hand cannot end before the client
acts; a session that ends before its token is used drops its hand, and its guest is
never stored.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from engine import EngineError, Table
from server import compute
from server.bots import STRATEGIES, Bot
from server.fairness import Shuffle
from server.slumbot import play
from server.slumbot.actions import action_string, engine_action, parse_incr
from server.slumbot.errors import ApiError
from server.slumbot.recording import Recorder
from server.tables import Player, default_action

__all__ = ["ApiSession"]

BUSY = "a request for this session is in progress: wait for its answer, then send the next"
UNKNOWN = (
    "unknown token: it expired or was never given; log in again or call new_hand without a token"
)


@dataclass
class _Deal:
    """The hand in progress."""

    shuffle: Shuffle
    client_pos: int
    table: Table
    opponent: str
    bot: Bot
    """The opponent, seeded for this hand (one instance a hand: its draws go on)."""
    started: dt.datetime
    seen: str = ""
    """The action string the client's last response showed: the next ``old_action``."""

    @property
    def client_seat(self) -> int:
        return play.seats(self.client_pos)[0]


@dataclass(frozen=True)
class _Answered:
    """The last ``act`` played, for a retry of it: what it answered and its answer."""

    old_action: str
    incr: str
    body: dict[str, Any]


@dataclass
class ApiSession:
    """One token's hands, its totals, and the hand in progress."""

    token: str
    table: str
    """Where its hands are stored: ``api-<id>``, the id not the token (which is secret)."""
    player: Player | None
    """Who plays: the account it logged in as, or its guest once stored (None before)."""
    opponent: str
    """The house bot it plays: the server's ``api_bot``, or the last one ``new_hand``
    named."""
    recorder: Recorder
    settling: compute.Slots
    """The worker's slots, shared by every session (one hand at a time, and a share of
    the worker's time: :class:`server.compute.Slots`)."""
    address: str = ""
    """Where its client connected from (the caps per address count it)."""
    busy: bool = False
    """A request is being served (:meth:`serving`)."""
    ended: bool = False
    """The session ended (expired, or replaced): its token is unknown from then on."""
    used: float = field(default_factory=time.monotonic)
    """When a request for it last began or ended (monotonic)."""
    token_used: bool = False
    """Its client has sent a request with its token: its hands are stored from then on."""
    hands: int = 0
    """Hands dealt: the next is numbered ``hands + 1``."""
    finished: int = 0
    total: int = 0
    baseline_total: int = 0
    deal: _Deal | None = None
    answered: _Answered | None = None

    @contextlib.contextmanager
    def serving(self) -> Iterator[None]:
        """Serve one request for the block; :class:`ApiError` 409 if one is under way, or
        as an unknown token if the session has ended."""
        if self.ended:
            raise ApiError(UNKNOWN)
        with self._claimed():
            yield

    @contextlib.contextmanager
    def _claimed(self) -> Iterator[None]:
        if self.busy:
            raise ApiError(BUSY, status=409)
        self.busy, self.used = True, time.monotonic()
        try:
            yield
        finally:
            self.busy, self.used = False, time.monotonic()

    async def new_hand(self, opponent: str | None) -> dict[str, Any]:
        """Deal the next hand and play the bot's turns until the client's (or the end). A
        hand the client left unfinished is played out first, as if the client's clock ran
        out each time (check, else fold), and stored like any other. Under
        :meth:`serving`."""
        if opponent is not None and opponent not in STRATEGIES:
            names = ", ".join(STRATEGIES)
            raise ApiError(f"unknown opponent {opponent!r}: give one of {names}")
        if self.deal is not None:
            await self._forfeit()
        self.answered = None
        self.hands += 1
        client_pos = 1 if self.hands % 2 else 0  # the first hand on the button: first to act
        shuffle = Shuffle.new(self.table, self.hands)
        if opponent is not None:  # it stays the session's until another is named
            self.opponent = opponent
        name = self.opponent
        bot = play.bot_for(name, shuffle, play.OPPONENT)
        table = play.deal(shuffle, client_pos)
        deal = _Deal(shuffle, client_pos, table, name, bot, dt.datetime.now(dt.UTC))
        self.deal = deal
        return await self._advance(deal, "")

    async def act(self, incr: object, old_action: object = None) -> dict[str, Any]:
        """Play the client's ``incr``, then the bot's turns until the client's again (or the
        end). An illegal ``incr`` is refused and changes nothing. With ``old_action`` (the
        action string the client acts on), an ``act`` already played with it is answered
        as it was, and one on a string the hand has left is refused (409). Under
        :meth:`serving`."""
        if old_action is not None and not isinstance(old_action, str):
            raise ApiError(f"old_action must be the action string you act on, got {old_action!r}")
        last = self.answered
        if last is not None and old_action == last.old_action and incr == last.incr:
            return last.body  # a retry of the act just played: its answer again
        deal = self.deal
        if deal is None:
            raise ApiError("no hand in progress: call new_hand")
        if old_action is not None and old_action != deal.seen:
            raise ApiError(
                f"old_action {old_action[:60]!r} is not where the hand is: it is at "
                f"{deal.seen!r}; act on that", status=409,
            )  # fmt: skip
        move = parse_incr(incr)
        menu = deal.table.legal_actions(deal.client_seat)
        assert menu is not None, "the client is to act whenever a hand is in progress"
        try:
            deal.table.apply(engine_action(move, menu))
        except EngineError as exc:  # checked above as Slumbot checks; the engine agrees
            raise ApiError(f"illegal incr {incr!r}: {exc}") from None
        seen = deal.seen
        body = await self._advance(deal, seen)
        assert isinstance(incr, str)
        self.answered = _Answered(seen, incr, body)
        return body

    async def _advance(self, deal: _Deal, old_action: str) -> dict[str, Any]:
        """The bot's turns, then the response; a finished hand is settled and stored."""
        play.play_bots(deal.table, {1 - deal.client_seat: deal.bot}, until=deal.client_seat)
        hand = deal.table.hand
        assert hand is not None
        deal.seen = action_string(hand)
        body: dict[str, Any] = {
            "old_action": old_action,
            "action": deal.seen,
            "client_pos": deal.client_pos,
            "hole_cards": [str(c) for c in hand.holes[deal.client_pos]],
            "board": [str(c) for c in hand.board],
            "token": self.token,
            "opponent": deal.opponent,
            "deck_commitment": deal.shuffle.commitment,
        }
        if hand.is_over:
            body.update(await self._settle(deal))
        return body

    async def _settle(self, deal: _Deal) -> dict[str, Any]:
        """Store the finished hand and count it: the fields of a hand that is over."""
        self.deal = None
        hand = deal.table.hand
        assert hand is not None
        bot = await self.recorder.bot(deal.opponent)
        if self.player is None:
            self.player = await self.recorder.guest()
        players = (self.player, bot) if deal.client_pos == 0 else (bot, self.player)
        names = tuple(p.name for p in players)
        async with self.settling.slot(self.address):  # the slow part: in the worker
            settled = await compute.run(
                play.settle, hand, deal.client_pos, names=names, shuffle=deal.shuffle,
                bot=deal.opponent, table=self.table,
            )  # fmt: skip
        result, baseline = settled.outcome, settled.baseline
        hand_id = await self.recorder.write(
            self.table, hand, players, deal.shuffle, deal.started,
            history_text=settled.history_text,
        )  # fmt: skip
        self.finished += 1
        self.total += result.winnings
        self.baseline_total += baseline
        body: dict[str, Any] = {
            "winnings": result.winnings,
            "won_pot": result.won_pot,
            "session_num_hands": self.finished,
            "baseline_winnings": baseline,
            "session_total": self.total,
            "session_baseline_total": self.baseline_total,
            "adjusted_winnings": float(result.adjusted),
            "hand_id": hand_id,
        }
        if result.bot_hole_cards is not None:
            body["bot_hole_cards"] = list(result.bot_hole_cards)
        return body

    async def _forfeit(self) -> None:
        """Play the unfinished hand out for an absent client (check, else fold); store it."""
        deal = self.deal
        assert deal is not None
        table = deal.table
        hand = table.hand
        assert hand is not None
        while not hand.is_over:
            menu = table.legal_actions(deal.client_seat)
            assert menu is not None
            table.apply(default_action(menu))
            await self._advance(deal, deal.seen)  # the bot's turns; settles at the end

    async def close(self) -> None:
        """The session ends: an unfinished hand is played out and stored, or dropped if
        the client never used the token (nothing of the session is stored then)."""
        self.ended = True
        with self._claimed():
            if self.deal is not None and not self.token_used:
                self.deal = None
            elif self.deal is not None:
                await self._forfeit()
