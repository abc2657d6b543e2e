"""Asking a bot for its decisions (server.bots.decisions): the bot's own legal answer, else
check when that is free and fold otherwise, whether it fails, is late, or goes off the menu."""

from __future__ import annotations

import logging
import random
import threading

import pytest

from engine import (
    Action,
    ActionMenu,
    BetOrRaiseTo,
    CheckOrCall,
    Deck,
    Fold,
    Table,
    TableConfig,
    TableView,
)
from server.bots import load_bot
from server.bots.decisions import BotCaller, safe_action


def _decision(facing_a_bet: bool) -> tuple[TableView, ActionMenu]:
    """Seat 0's view and menu, to check (big blind, called round) or facing a raise."""
    table = Table(TableConfig(small_blind=50, big_blind=100, seats=2))
    table.sit_down(0, 10_000)
    table.sit_down(1, 10_000)
    table.start_hand(Deck.shuffled(random.Random(1)))
    seat = table.to_act
    assert seat is not None
    if facing_a_bet:
        table.apply(BetOrRaiseTo(seat, 300))
    else:
        table.apply(CheckOrCall(seat))
    seat = table.to_act
    assert seat is not None
    menu = table.legal_actions(seat)
    assert menu is not None
    return table.view(seat), menu


class _Bot:
    def __init__(self, answer: object = None, error: bool = False, wait: float = 0.0) -> None:
        self.answer, self.error, self.wait = answer, error, wait

    def act(self, view: TableView, menu: ActionMenu) -> Action:
        threading.Event().wait(self.wait)
        if self.error:
            raise RuntimeError("a bug in the bot")
        return self.answer  # type: ignore[return-value]


@pytest.mark.parametrize("facing_a_bet", [False, True])
def test_the_safe_action_checks_when_free_and_folds_otherwise(facing_a_bet: bool) -> None:
    _, menu = _decision(facing_a_bet)
    expected = Fold(menu.seat) if facing_a_bet else CheckOrCall(menu.seat)
    assert safe_action(menu) == expected


@pytest.mark.parametrize("facing_a_bet", [False, True])
async def test_a_legal_answer_is_the_bots_own(facing_a_bet: bool) -> None:
    view, menu = _decision(facing_a_bet)
    caller = BotCaller(load_bot("calling-station"))
    assert caller.now(view, menu, "me") == CheckOrCall(menu.seat)
    assert await caller.in_thread(view, menu, 30.0, "me") == CheckOrCall(menu.seat)


@pytest.mark.parametrize(
    ("bot", "logged"),
    [
        (_Bot(error=True), "the bot failed"),
        (_Bot(answer="fold"), "which the menu does not allow"),
        (_Bot(answer=BetOrRaiseTo(0, 10**9)), "which the menu does not allow"),
    ],
)
async def test_a_failing_or_illegal_bot_is_answered_for(
    bot: _Bot, logged: str, caplog: pytest.LogCaptureFixture
) -> None:
    view, menu = _decision(facing_a_bet=True)
    caller = BotCaller(bot)
    assert caller.now(view, menu, "me") == Fold(menu.seat)
    assert await caller.in_thread(view, menu, 30.0, "me") == Fold(menu.seat)
    assert logged in caplog.text and "me: " in caplog.text


async def test_a_bot_thinking_past_its_time_is_answered_for(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="pokerroom.bot")
    view, menu = _decision(facing_a_bet=False)
    slow = BotCaller(_Bot(answer=BetOrRaiseTo(menu.seat, menu.min_raise_to), wait=1.0))
    # Half a second at the least (a limit of 1 s leaves nothing after the second of margin).
    assert await slow.in_thread(view, menu, 1.0, "me") == CheckOrCall(menu.seat)
    assert "took too long" in caplog.text
