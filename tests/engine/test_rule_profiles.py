"""The two rule profiles side by side (docs/rules.md, "Two rule profiles"): after a short
all-in raise, the TDA's rules keep the last full raise as the minimum and keep the betting
closed to whoever has acted; the ACPC dealer's rules set the minimum from the short raise
and let everyone raise again (project_acpc_server/game.c)."""

from __future__ import annotations

import random

import pytest

from engine import (
    BetOrRaiseTo,
    CheckOrCall,
    Deck,
    RuleProfile,
    Table,
    TableConfig,
    game,
)


def short_all_in(profile: RuleProfile, limit: bool) -> Table:
    """Three players, the button (seat 0) first: seat 0 raises, seat 1 goes all in for a
    short raise, seat 2 calls; it is seat 0's turn again."""
    stakes = {"game": game("flhe"), "small_bet": 100} if limit else {}
    config = TableConfig(small_blind=50, big_blind=100, seats=3, min_buy_in=100,
                         rule_profile=profile, **stakes)  # type: ignore[arg-type]  # fmt: skip
    table = Table(config)
    short = 240 if limit else 400
    for seat, stack in enumerate((10_000, short, 10_000)):
        table.sit_down(seat, stack)
    table.start_hand(Deck.shuffled(random.Random(1)))
    assert (table.button, table.to_act) == (0, 0)
    table.apply(BetOrRaiseTo(0, 200 if limit else 300))
    table.apply(BetOrRaiseTo(1, short))  # all in, short of a full raise
    table.apply(CheckOrCall(2))
    assert table.to_act == 0
    return table


def test_no_limit_tda_keeps_the_betting_closed_after_a_short_all_in() -> None:
    menu = short_all_in(RuleProfile.TDA, limit=False).legal_actions(0)
    assert menu is not None and (menu.call, menu.can_raise) == (100, False)


def test_no_limit_acpc_reopens_and_the_short_raise_sets_the_minimum() -> None:
    menu = short_all_in(RuleProfile.ACPC, limit=False).legal_actions(0)
    assert menu is not None and (menu.call, menu.can_raise) == (100, True)
    # ACPC: minNoLimitRaiseTo = max(300 + 200, 2 * 400 - 300) = 500 (hand totals).
    assert menu.min_raise_to == 500


def test_no_limit_acpc_after_a_full_raise_is_as_the_tda() -> None:
    for profile in RuleProfile:
        config = TableConfig(small_blind=50, big_blind=100, seats=2, rule_profile=profile)
        table = Table(config)
        for seat in range(2):
            table.sit_down(seat, 10_000)
        table.start_hand(Deck.shuffled(random.Random(2)))
        first = table.to_act
        assert first is not None
        table.apply(BetOrRaiseTo(first, 350))
        menu = table.legal_actions(1 - first)
        assert menu is not None and menu.min_raise_to == 600, profile


@pytest.mark.parametrize(
    ("profile", "can_raise"), [(RuleProfile.TDA, False), (RuleProfile.ACPC, True)]
)
def test_fixed_limit_short_all_in(profile: RuleProfile, can_raise: bool) -> None:
    table = short_all_in(profile, limit=True)
    menu = table.legal_actions(0)
    assert menu is not None and (menu.call, menu.can_raise) == (40, can_raise)
    if can_raise:  # ACPC: a raise is a full bet over the all-in
        assert menu.min_raise_to == menu.max_raise_to == 340
    hand = table.hand
    assert hand is not None and hand.raises == (2 if can_raise else 1)


def test_the_acpc_gamedefs_play_by_the_acpc_profile() -> None:
    from pathlib import Path

    from engine import acpc

    data = Path(__file__).resolve().parents[3] / "shared" / "data" / "acpc"
    for path in sorted(data.glob("*.game")):
        assert acpc.parse(path.read_text()).table_config().rule_profile is RuleProfile.ACPC
