"""The bot SDK's wire values (server.bots.wire): menus read from the server's requests and
the act messages sent back."""

from __future__ import annotations

import json
import random

from engine import Action, BetOrRaiseTo, CheckOrCall, Deck, Fold, Table, TableConfig
from server import protocol
from server.bots.wire import act_message, menu_from_json


def test_menus_round_trip_and_actions_become_the_words_the_server_expects() -> None:
    table = Table(TableConfig(small_blind=50, big_blind=100, seats=3))
    for chair in range(3):
        table.sit_down(chair, 10_000)
    table.start_hand(Deck.shuffled(random.Random(1)))
    rng = random.Random(2)
    seen: set[str] = set()
    while table.hand_in_progress:
        seat = table.to_act
        assert seat is not None
        menu = table.legal_actions(seat)
        assert menu is not None
        assert menu_from_json(seat, protocol.menu_body(menu)) == menu
        action: Action = rng.choice(
            [CheckOrCall(seat)]
            + ([Fold(seat)] if menu.call else [])
            + ([BetOrRaiseTo(seat, menu.min_raise_to)] if menu.can_raise else [])
        )
        wire = act_message("t", "x", action, menu)
        assert protocol.parse(json.dumps(wire)).action == wire["action"]  # valid protocol
        expected = {
            Fold: "fold",
            CheckOrCall: "check" if menu.can_check else "call",
            BetOrRaiseTo: "bet" if menu.is_bet else "raise",
        }[type(action)]
        assert wire["action"] == expected
        assert wire.get("amount") == (action.amount if isinstance(action, BetOrRaiseTo) else None)
        seen.add(expected)
        table.apply(action)
    assert len(seen) >= 2
