"""The bot SDK's wire values (server.bots.wire): menus read from the server's requests and
the act messages sent back."""

from __future__ import annotations

import dataclasses
import json
import random

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
    Fold,
    RuleProfile,
    Street,
    Table,
    TableConfig,
    game,
)
from server import protocol
from server.bots.wire import (
    act_message,
    cards_from_json,
    config_from_summary,
    menu_from_json,
    street_from_json,
)
from tests.server.test_strategies import EVERY_GAME, game_config


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


@pytest.mark.parametrize("key", EVERY_GAME)
def test_every_games_menus_round_trip_and_its_actions_are_valid_acts(key: str) -> None:
    """Bring-ins, completions, fixed bets and draws (cards, or dice by their faces) too:
    each menu read back is the engine's, and each act is one the server parses."""
    rng = random.Random(key)
    table = Table(game_config(key, 3))
    for chair in range(table.config.seats):
        table.sit_down(chair, table.config.max_buy_in)
    seen: set[str] = set()
    for _ in range(20):
        table.start_hand(Deck.shuffled(rng, table.config.game.deck))
        while table.hand_in_progress:
            seat = table.to_act
            assert seat is not None
            menu = table.legal_actions(seat)
            assert menu is not None
            assert menu_from_json(seat, protocol.menu_body(menu)) == menu
            hand = next(s.cards for s in table.view(seat).seats if s.seat == seat) or ()
            action = _any_action(menu, hand, rng)
            wire = act_message("t", "x", action, menu)
            parsed = protocol.parse(json.dumps(wire))
            assert parsed.action == wire["action"]
            if isinstance(action, Draw):
                assert cards_from_json(parsed.discard) == action.discard
            seen.add(wire["action"])
            table.apply(action)
        for chair in range(table.config.seats):  # fresh stacks: nobody busts
            table.stand_up(chair)
            table.sit_down(chair, table.config.max_buy_in)
    g = table.config.game
    assert ("draw" in seen) == g.draws
    assert ("bring_in" in seen) == g.bring_in
    assert ("complete" in seen) == g.bring_in


def _any_action(menu: ActionMenu, hand: tuple[Card, ...], rng: random.Random) -> Action:
    seat = menu.seat
    if menu.can_draw:
        return Draw(seat, tuple(rng.sample(hand, rng.randint(0, menu.max_discard))))
    choices: list[Action] = []
    if menu.can_bring_in:
        choices.append(BringIn(seat))
    if menu.can_call:
        choices.append(CheckOrCall(seat))
    if menu.can_fold and (menu.call or menu.can_bring_in):
        choices.append(Fold(seat))
    if menu.can_raise:
        choices += [BetOrRaiseTo(seat, menu.min_raise_to)] * 2
    return rng.choice(choices)


def test_a_summary_gives_the_tables_game_and_stakes() -> None:
    for key in EVERY_GAME:
        config = game_config(key, 2)
        summary = {"id": "t", "players": [], **protocol.config_body(config)}
        assert config_from_summary(json.loads(json.dumps(summary))) == config
    # Every rule and option, the ante's kind among them (the SDK guessed it before).
    rich = TableConfig(
        small_blind=5, big_blind=10, seats=9, ante=10, ante_kind=AnteKind.BIG_BLIND,
        button_rule=ButtonRule.DEAD, button_straddle=True, bomb_pot=20, bomb_pot_every=8,
        bomb_pot_boards=2, run_it_twice=True, seven_deuce=15, rule_profile=RuleProfile.ACPC,
        fold_when_check_is_free=True,
    )  # fmt: skip
    assert config_from_summary({"players": [], **protocol.config_body(rich)}) == rich
    # A server from before other games: no-limit hold'em.
    old = {"seats": 6, "small_blind": 50, "big_blind": 100}
    assert config_from_summary(old).game is game("nlhe")
    assert config_from_summary({**old, "game": "plo"}).game is game("plo")


def test_streets_and_dice_read_as_the_game_names_them() -> None:
    assert street_from_json("flop") is Street.FLOP
    assert str(street_from_json("third_street", game("stud"))) == "third street"
    assert str(street_from_json("second_roll", game("dice"))) == "second roll"
    assert cards_from_json(["6", "1", "X1", "Td"]) == (
        Card.die(6), Card.die(1), Card.parse("X1"), Card.parse("Td"),
    )  # fmt: skip
    assert cards_from_json(None) is None


def test_create_table_takes_every_field_a_table_creator_sets() -> None:
    """``create_table`` carries TableConfig's fields by their names (the hosting code reads
    them with TableConfig.from_dict); the fields it leaves out are the ACPC dealer's own."""
    acpc_only = {"rule_profile", "fold_when_check_is_free", "uncapped_heads_up"}
    config_fields = {f.name for f in dataclasses.fields(TableConfig)}
    assert config_fields - set(protocol.CreateTable.model_fields) == acpc_only
