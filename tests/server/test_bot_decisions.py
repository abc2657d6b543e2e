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
    BringIn,
    CheckOrCall,
    Deck,
    Draw,
    Fold,
    Table,
    TableConfig,
    TableView,
    game,
    parse_cards,
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


def _draw_decision() -> tuple[TableView, ActionMenu]:
    """The first draw of 2-7 triple draw, heads-up: the first to draw."""
    table = Table(TableConfig(small_blind=50, big_blind=100, seats=2, game=game("27td")))
    table.sit_down(0, 10_000)
    table.sit_down(1, 10_000)
    table.start_hand(Deck.shuffled(random.Random(1)))
    for _ in range(2):
        seat = table.to_act
        assert seat is not None
        table.apply(CheckOrCall(seat))
    seat = table.to_act
    assert seat is not None
    menu = table.legal_actions(seat)
    assert menu is not None and menu.can_draw
    return table.view(seat), menu


def test_the_safe_action_stands_pat_in_a_draw_and_brings_in_when_it_must() -> None:
    _, menu = _draw_decision()
    assert safe_action(menu) == Draw(menu.seat)
    config = TableConfig(game=game("stud"), seats=2, small_bet=100, bring_in=25)
    table = Table(config)
    table.sit_down(0, 10_000)
    table.sit_down(1, 10_000)
    table.start_hand(Deck.shuffled(random.Random(1)))
    seat = table.to_act
    assert seat is not None
    bring_in = table.legal_actions(seat)
    assert bring_in is not None and bring_in.can_bring_in
    assert safe_action(bring_in) == BringIn(seat)


async def test_a_draw_is_the_bots_own_only_with_cards_it_holds() -> None:
    view, menu = _draw_decision()
    hand = next(s.cards for s in view.seats if s.seat == menu.seat)
    assert hand is not None
    keeps = Draw(menu.seat, hand[:2])
    assert BotCaller(_Bot(keeps)).now(view, menu, "t") == keeps
    assert await BotCaller(_Bot(keeps)).in_thread(view, menu, 5.0, "t") == keeps
    stranger = next(c for c in parse_cards("2c 3c 4c 5c 6c 7c") if c not in hand)
    twice = Draw(menu.seat, (hand[0], hand[0]))
    for wrong in (Draw(menu.seat, (stranger,)), twice, CheckOrCall(menu.seat)):
        assert BotCaller(_Bot(wrong)).now(view, menu, "t") == Draw(menu.seat)
