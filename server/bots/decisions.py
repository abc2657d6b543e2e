"""Asking a bot for its decisions, for the bot SDK's client: the bot's answer when it gives a
legal one in time, else the answer the server's clock would give (stand pat in a draw,
bring in when the low card must, else check when free, otherwise fold).

>>> from engine import ActionMenu
>>> menu = ActionMenu(seat=2, can_fold=True, can_check=False, call=100, call_is_all_in=False,
...     can_raise=False, min_raise_to=0, max_raise_to=0, raise_is_all_in_only=False,
...     is_bet=False)
>>> safe_action(menu)
Fold(seat=2)
>>> class Raiser:
...     def act(self, view, menu): return BetOrRaiseTo(menu.seat, 10**6)
>>> BotCaller(Raiser()).now(None, menu, "demo")  # not on the menu: answered for
Fold(seat=2)
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from dataclasses import dataclass

from engine import (
    Action,
    ActionMenu,
    BetOrRaiseTo,
    BringIn,
    CheckOrCall,
    Draw,
    Fold,
    RunItTwice,
    TableView,
)
from server.bots.strategies import Bot

__all__ = ["BotCaller", "Decision", "safe_action"]

log = logging.getLogger("pokerroom.bot")


@dataclass
class Decision:
    """One action request being answered; ``stale`` once the table has moved on without
    the answer (the clock answered, the hand ended)."""

    table: str
    action_id: str
    menu: ActionMenu
    seq: int
    stale: bool = False


def safe_action(menu: ActionMenu) -> Action:
    """What the server's clock would do: stand pat in a draw, bring in when the low card
    must, else check when that is free, otherwise fold; asked to run it twice, no."""
    if menu.run_it_twice:
        return RunItTwice(menu.seat, False)
    if menu.can_draw:
        return Draw(menu.seat)
    if menu.can_bring_in and not menu.can_fold:
        return BringIn(menu.seat)
    if menu.can_check or not menu.can_fold:
        return CheckOrCall(menu.seat)
    return Fold(menu.seat)


def _holds(view: TableView | None, action: Draw) -> bool:
    """Whether the seat holds every card (or die) a draw throws away."""
    if view is None:
        return not action.discard
    me = next((s for s in view.seats if s.seat == action.seat), None)
    if me is None or me.cards is None:
        return not action.discard
    held = Counter(me.cards)
    held.subtract(action.discard)
    return min(held.values(), default=0) >= 0


class BotCaller:
    """Calls ``bot.act``, one call at a time, and answers for the bot (:func:`safe_action`)
    when it fails, chooses what the menu does not allow, or (in a worker thread) takes too
    long. ``who`` names the player in the log."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self._lock = asyncio.Lock()  # one call of bot.act at a time

    def now(self, view: TableView, menu: ActionMenu, who: str | None) -> Action:
        """The bot's answer, called on the event loop."""
        try:
            action = self.bot.act(view, menu)
        except Exception:
            log.exception("%s: the bot failed; checking or folding", who)
            return safe_action(menu)
        return self._checked(action, menu, who, view)

    async def in_thread(
        self, view: TableView, menu: ActionMenu, limit: float, who: str | None
    ) -> Action:
        """The bot's answer from a worker thread; check or fold if it is not back before
        its time (``limit``: decision plus time bank) is nearly up."""
        async with self._lock:
            try:
                action = await asyncio.wait_for(
                    asyncio.to_thread(self.bot.act, view, menu), max(0.5, limit - 1.0)
                )
            except TimeoutError:
                log.warning("%s: the bot took too long; checking or folding", who)
                return safe_action(menu)
            except Exception:
                log.exception("%s: the bot failed; checking or folding", who)
                return safe_action(menu)
        return self._checked(action, menu, who, view)

    def _checked(
        self, action: object, menu: ActionMenu, who: str | None, view: TableView | None
    ) -> Action:
        kinds = Fold | CheckOrCall | BetOrRaiseTo | BringIn | Draw
        if (
            not isinstance(action, kinds)
            or not menu.allows(action)
            or (isinstance(action, Draw) and not _holds(view, action))
        ):
            log.warning("%s: the bot chose %r, which the menu does not allow; checking or "
                        "folding", who, action)  # fmt: skip
            return safe_action(menu)
        return action
