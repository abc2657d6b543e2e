"""A table's configuration in its wire form (TableConfig.to_dict / from_dict): every
field goes out and comes back, through JSON, for games of every kind."""

from __future__ import annotations

import dataclasses
import json

import pytest

from engine import GAMES, InvalidConfigError, TableConfig, game, stakes_for_blinds
from engine.rules import TABLE_OPTIONS, AnteKind, ButtonRule, RuleProfile

RICH = [
    TableConfig(
        small_blind=5, big_blind=10, seats=9, ante=10, ante_kind=AnteKind.BIG_BLIND,
        min_buy_in=300, max_buy_in=900, button_rule=ButtonRule.DEAD, button_straddle=True,
        bomb_pot=20, bomb_pot_every=8, bomb_pot_boards=2, run_it_twice=True, seven_deuce=15,
        rule_profile=RuleProfile.ACPC, fold_when_check_is_free=True,
    ),
    TableConfig(game=game("stud"), ante=5, ante_kind=AnteKind.PER_PLAYER, bring_in=10,
                small_bet=40, big_bet=80, seats=8),
    TableConfig(game=game("flhe").with_cap(3), small_blind=1, big_blind=2, small_bet=2,
                big_bet=4, uncapped_heads_up=True),
]  # fmt: skip


def test_every_field_is_set_away_from_its_default_by_some_config_here() -> None:
    """So the round trip below carries each field, not just its default."""
    plain = TableConfig(small_blind=1, big_blind=2)
    for f in dataclasses.fields(TableConfig):
        assert any(getattr(c, f.name) != getattr(plain, f.name) for c in RICH), f.name


@pytest.mark.parametrize("config", RICH, ids=lambda c: c.game.key)
def test_a_config_round_trips_through_json(config: TableConfig) -> None:
    wire = json.loads(json.dumps(config.to_dict()))
    assert set(wire) == {f.name for f in dataclasses.fields(TableConfig)}
    assert TableConfig.from_dict(wire) == config
    assert set(TABLE_OPTIONS) <= set(wire)


def test_every_game_round_trips_at_its_usual_stakes() -> None:
    for g in GAMES.values():
        config = TableConfig(game=g, seats=2, **stakes_for_blinds(g, 50, 100))
        assert TableConfig.from_dict(json.loads(json.dumps(config.to_dict()))) == config


def test_from_dict_takes_a_preset_by_key_and_leaves_other_keys_alone() -> None:
    config = TableConfig.from_dict({"game": "plo", "small_blind": 1, "big_blind": 2,
                                    "name": "Friday", "decision_seconds": 30})  # fmt: skip
    assert config.game is game("plo") and config.max_buy_in == 400


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"ante_kind": "sometimes"}, "ante_kind must be one of 'none', 'per_player', 'big_blind'"),
        ({"button_rule": 3}, "button_rule must be one of"),
        ({"run_it_twice": "yes"}, "run_it_twice must be true or false, got 'yes'"),
        ({"seats": -1}, "seats must be a non-negative int"),
        ({"ante": 5}, "does not fit ante_kind"),
    ],
)
def test_from_dict_names_what_does_not_fit(fields: dict[str, object], words: str) -> None:
    with pytest.raises(InvalidConfigError, match=words):
        TableConfig.from_dict({"small_blind": 1, "big_blind": 2, **fields})


def test_an_unknown_game_is_refused_by_name() -> None:
    with pytest.raises(InvalidConfigError, match="no-such-game"):
        TableConfig.from_dict({"game": "no-such-game"})
