"""The bot SDK's picture of a table (server.bots.mirror): fed the events the server sends,
it shows each decision exactly as the engine does."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from engine import (
    Action,
    ActionMenu,
    AnteKind,
    BetOrRaiseTo,
    BringIn,
    ButtonRule,
    Card,
    CheckOrCall,
    Deck,
    Draw,
    EngineError,
    Fold,
    Table,
    TableConfig,
    redact,
)
from server import protocol
from server.bots.mirror import TableMirror
from tests.server.test_strategies import EVERY_GAME, game_config


def _summary(config: TableConfig) -> dict[str, Any]:
    """What the lobby says of a table (TableRunner.summary): its rules and its game."""
    return {"id": "t", "players": [], **protocol.config_body(config)}


def _snapshot(table: Table, viewer: int) -> dict[str, Any]:
    view = protocol.view_body(table.view(viewer), {})
    return {
        "type": "snapshot",
        "table": "t",
        "seq": 0,
        "view": view,
        "summary": _summary(table.config),
    }


def _random_config(rng: random.Random) -> TableConfig:
    kind = rng.choice(list(AnteKind))
    return TableConfig(
        small_blind=50,
        big_blind=100,
        seats=rng.randint(2, 9),
        ante=0 if kind is AnteKind.NONE else rng.choice([10, 25, 100]),
        ante_kind=kind,
        button_rule=rng.choice(list(ButtonRule)),
        min_buy_in=100,  # short stacks: all-ins and side pots
    )


def _comings_and_goings(table: Table, rng: random.Random) -> list[Any]:
    """Between hands: people sit down, stand up, sit out and come back (posting or not)."""
    config, events = table.config, []
    for seat in range(1, config.seats):
        roll = rng.random()
        try:
            if seat not in table.occupied():
                if roll < 0.6:
                    stack = rng.choice([config.max_buy_in, 300, 150, 1_000])
                    events += table.sit_down(seat, stack, wait_for_big_blind=rng.random() < 0.5)
            elif table.is_sitting_out(seat):
                if roll < 0.5:
                    events += table.sit_in(seat, post=rng.random() < 0.7)
            elif roll < 0.1:
                events += table.sit_out(seat)
            elif roll < 0.15:
                events += table.stand_up(seat)
        except EngineError:
            pass
    return events


def _random_action(menu: ActionMenu, rng: random.Random, hand: tuple[Card, ...] = ()) -> Action:
    if menu.can_draw:
        return Draw(menu.seat, tuple(rng.sample(hand, rng.randint(0, menu.max_discard))))
    if menu.can_bring_in:
        r = rng.random()
        if menu.can_raise and r < 0.3:
            return BetOrRaiseTo(menu.seat, menu.min_raise_to)
        return Fold(menu.seat) if menu.can_fold and r < 0.4 else BringIn(menu.seat)
    r = rng.random()
    if menu.can_raise and r < 0.25:
        return BetOrRaiseTo(menu.seat, rng.choice([menu.min_raise_to, menu.max_raise_to]))
    if menu.can_fold and menu.call and r < 0.45:
        return Fold(menu.seat)
    return CheckOrCall(menu.seat)


class _Watcher:
    """Seat 0's mirror of a table, fed every event as the server would send it."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.rebuild()
        self.decisions = 0

    def rebuild(self) -> None:
        """A fresh picture from the server's snapshot, as after a (re)connection."""
        self.mirror = TableMirror.from_snapshot(_snapshot(self.table, 0))

    def feed(self, events: list[Any]) -> None:
        """A batch of events, the last with the table's state after it, as the server
        sends them (server/tables/views.py)."""
        state = protocol.state_body(self.table.public_state())
        for i, event in enumerate(events):
            after = state if i == len(events) - 1 else None
            self.mirror.apply(protocol.event_body(redact(event, 0)), after)

    def check(self, menu: ActionMenu | None) -> None:
        truth = self.table.view(0)
        mine = self.mirror.view(legal=menu)
        # The summary and each hand_started say every rule: the ante kind included.
        assert mine.config == truth.config
        mine = dataclasses.replace(mine, config=truth.config)
        assert mine == truth  # whose turn it is and the pots too, exactly: the server's
        self.decisions += menu is not None


@pytest.mark.parametrize("seed", range(12))
def test_the_mirror_shows_each_decision_exactly_as_the_engine_does(seed: int) -> None:
    """Random hands with antes of both kinds, dead blinds, side pots, players coming and
    going, and the picture rebuilt from a snapshot mid-hand now and then (a resume)."""
    rng = random.Random(seed)
    table = Table(_random_config(rng))
    table.sit_down(0, table.config.max_buy_in, wait_for_big_blind=False)
    watcher = _Watcher(table)
    for _ in range(40):
        watcher.feed(_comings_and_goings(table, rng))
        if 0 not in table.occupied():  # busted: buy in again, as a re-buying client does
            table.sit_down(0, table.config.max_buy_in, wait_for_big_blind=False)
            watcher.rebuild()
        try:
            events = table.start_hand(Deck.shuffled(rng))
        except EngineError:
            continue
        watcher.feed(events)
        while table.hand_in_progress:
            seat = table.to_act
            menu = table.legal_actions(seat) if seat is not None else None
            assert seat is not None and menu is not None
            if rng.random() < 0.05:
                watcher.rebuild()
            if seat == 0:
                watcher.check(menu)
            watcher.feed(table.apply(_random_action(menu, rng)))
        if 0 in table.occupied():  # between hands the picture matches too
            watcher.check(None)
    assert watcher.decisions > 10


@pytest.mark.parametrize("key", EVERY_GAME)
def test_the_mirror_shows_each_decision_of_every_game_as_the_engine_does(key: str) -> None:
    """Stud's up cards, bring-in and completion, the seat's own cards after each draw,
    everyone's dice; short stacks all in, and the picture rebuilt mid-hand now and then."""
    rng = random.Random(key)
    table = Table(game_config(key, 4, rng))
    table.sit_down(0, table.config.max_buy_in, wait_for_big_blind=False)
    watcher = _Watcher(table)
    for _ in range(30):
        watcher.feed(_comings_and_goings(table, rng))
        if 0 not in table.occupied():
            table.sit_down(0, table.config.max_buy_in, wait_for_big_blind=False)
            watcher.rebuild()
        try:
            events = table.start_hand(Deck.shuffled(rng, table.config.game.deck))
        except EngineError:
            continue
        watcher.feed(events)
        while table.hand_in_progress:
            seat = table.to_act
            menu = table.legal_actions(seat) if seat is not None else None
            assert seat is not None and menu is not None
            if rng.random() < 0.05:
                watcher.rebuild()
            if seat == 0:
                watcher.check(menu)
            hand = table.view(seat).seats
            cards = next(s.cards for s in hand if s.seat == seat) or ()
            watcher.feed(table.apply(_random_action(menu, rng, cards)))
        if 0 in table.occupied():
            watcher.check(None)
    assert watcher.decisions > 10


def test_a_mirror_ignores_events_it_does_not_know() -> None:
    table = Table(TableConfig(small_blind=50, big_blind=100, seats=3))
    table.sit_down(0, 10_000)
    mirror = TableMirror.from_snapshot(_snapshot(table, 0))
    before = mirror.view()
    mirror.apply({"type": "something_new", "seat": 0})
    assert mirror.view() == before
