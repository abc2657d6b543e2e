"""A session: one client's hands against a house bot, one at a time, under the engine.

A session is what a Slumbot token names. Its requests are served one at a time (its
lock): two requests with the same token never touch its table at once, and a request
that fails leaves the hand as it was, so the client may try again. Other sessions and
the server's tables go on whatever a session's client sends.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from dataclasses import dataclass, field
from typing import Any

from engine import EngineError, Table
from server.bots import STRATEGIES, Bot
from server.fairness import Shuffle
from server.slumbot import play
from server.slumbot.actions import action_string, engine_action, parse_incr
from server.slumbot.errors import ApiError
from server.slumbot.recording import Recorder
from server.tables import Player, default_action

__all__ = ["ApiSession"]


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


@dataclass
class ApiSession:
    """One token's hands, its totals, and the hand in progress."""

    token: str
    table: str
    """Where its hands are stored: ``api-<id>``, the id not the token (which is secret)."""
    player: Player
    opponent: str
    """The house bot it plays: the server's ``api_bot``, or the last one ``new_hand``
    named."""
    recorder: Recorder
    address: str = ""
    """Where its client connected from (the caps per address count it)."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    used: float = field(default_factory=time.monotonic)
    hands: int = 0
    """Hands dealt: the next is numbered ``hands + 1``."""
    finished: int = 0
    total: int = 0
    baseline_total: int = 0
    deal: _Deal | None = None

    async def new_hand(self, opponent: str | None) -> dict[str, Any]:
        """Deal the next hand and play the bot's turns until the client's (or the end). A
        hand the client left unfinished is played out first, as if the client's clock ran
        out each time (check, else fold), and stored like any other."""
        if opponent is not None and opponent not in STRATEGIES:
            names = ", ".join(STRATEGIES)
            raise ApiError(f"unknown opponent {opponent!r}: give one of {names}")
        async with self.lock:
            self.used = time.monotonic()
            if self.deal is not None:
                await self._forfeit()
            self.hands += 1
            client_pos = 0 if self.hands % 2 else 1  # the first hand in the big blind
            shuffle = Shuffle.new(self.table, self.hands)
            if opponent is not None:  # it stays the session's until another is named
                self.opponent = opponent
            name = self.opponent
            bot = play.bot_for(name, shuffle, play.OPPONENT)
            table = play.deal(shuffle, client_pos)
            deal = _Deal(shuffle, client_pos, table, name, bot, dt.datetime.now(dt.UTC))
            self.deal = deal
            return await self._advance(deal, "")

    async def act(self, incr: object) -> dict[str, Any]:
        """Play the client's ``incr``, then the bot's turns until the client's again (or the
        end). An illegal ``incr`` is refused and changes nothing."""
        async with self.lock:
            self.used = time.monotonic()
            deal = self.deal
            if deal is None:
                raise ApiError("no hand in progress: call new_hand")
            move = parse_incr(incr)
            menu = deal.table.legal_actions(deal.client_seat)
            assert menu is not None, "the client is to act whenever a hand is in progress"
            try:
                deal.table.apply(engine_action(move, menu))
            except EngineError as exc:  # checked above as Slumbot checks; the engine agrees
                raise ApiError(f"illegal incr {incr!r}: {exc}") from None
            return await self._advance(deal, deal.seen)

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
        players = (self.player, bot) if deal.client_pos == 0 else (bot, self.player)
        names = tuple(p.name for p in players)
        result = play.outcome(hand, deal.client_pos, names)
        baseline = play.baseline_winnings(deal.shuffle, deal.client_pos, deal.opponent)
        hand_id = await self.recorder.write(self.table, hand, players, deal.shuffle, deal.started)
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
        """The session expires: an unfinished hand is played out and stored."""
        async with self.lock:
            if self.deal is not None:
                await self._forfeit()
