"""Every game pokerkit plays: its random hands, written by pokerkit, replay in our engine to
pokerkit's finishing stacks; and where pokerkit breaks a rule docs/rules.md cites, the
case, pinned with our answer."""

from __future__ import annotations

import os
import random

import pytest

from engine import history
from tests.engine.pokerkit_games import BY_KEY, SPECS, new_hand, phh_text

HANDS = int(os.environ.get("POKERROOM_PK_HANDS", "150"))


@pytest.mark.parametrize("key", [s.key for s in SPECS])
def test_pokerkit_hands_replay_to_pokerkits_stacks(key: str) -> None:
    rng = random.Random(f"pokerkit {key}")
    spec = BY_KEY[key]
    ties = skipped_checks = 0
    for i in range(HANDS):
        dealt = new_hand(spec, rng)
        text = phh_text(dealt)
        result = history.check(history.load(text))
        if dealt.showing_tie and result.status != "match":
            ties += 1  # pokerkit breaks the tie by seat (pinned below)
            continue
        assert result.status == "match", f"{key} hand {i}: {result.message}\n{text}"
        skipped_checks += "nobody could bet against" in result.message
    # Ties of hands showing are rare: most stud hands must have counted.
    assert ties <= HANDS // 10, f"{ties} stud hands tied for the first action"


# -- where pokerkit breaks a rule: the case, and our answer -------------------------------

import pokerkit as pk  # noqa: E402

from engine.actions import BetOrRaiseTo, CheckOrCall  # noqa: E402
from engine.deck import Deck  # noqa: E402
from engine.games import game  # noqa: E402
from engine.hand import Hand, HandSetup  # noqa: E402
from tests.engine.pokerkit_games import AUTOMATIONS, UNIT  # noqa: E402

# Cards dealt by hand, and no burns: pokerkit burns from its own shuffled deck, which
# could hold a card dealt by hand (it warns, and warnings fail the tests).
MANUAL = tuple(
    a
    for a in AUTOMATIONS
    if a
    not in (pk.Automation.HOLE_DEALING, pk.Automation.BOARD_DEALING, pk.Automation.CARD_BURNING)
)


def test_a_check_pokerkit_asks_of_a_player_nobody_can_bet_against_is_skipped() -> None:
    # UTG calls all in for half the big blind and the small blind folds: pokerkit asks the
    # big blind to check; our engine has nothing to ask (docs/rules.md W7).
    u = UNIT
    state = pk.NoLimitTexasHoldem(AUTOMATIONS, True, 0, (u, 2 * u), 2 * u)([100 * u, 100 * u, u], 3)
    state.check_or_call()  # p3, all in
    state.fold()  # p1
    assert state.actor_index == 1 and state.can_check_or_call()
    state.check_or_call()  # p2: the check we skip
    hh = pk.HandHistory.from_game_state(
        pk.NoLimitTexasHoldem(AUTOMATIONS, True, 0, (u, 2 * u), 2 * u), state
    )
    hh.finishing_stacks = list(state.stacks)
    result = history.check(history.load(hh.dumps()))
    assert result.status == "match"
    assert "p2 cc: nobody could bet against p2; skipped" in result.message


def test_pokerkit_allows_a_fourth_raise_before_the_flop_in_fixed_limit_we_do_not() -> None:
    state = pk.FixedLimitTexasHoldem(AUTOMATIONS, True, 0, (1, 2), 2, 4)([100] * 3, 3)
    for amount in (4, 6, 8):
        state.complete_bet_or_raise_to(amount)
    assert state.can_complete_bet_or_raise_to(10)  # pokerkit: a fifth bet
    ours = Hand(
        HandSetup(1, (0, 1, 2), (100,) * 3, 1, 2, blinds=(1, 2, 0), game=game("flhe")),
        Deck.shuffled(random.Random(1)),
    )
    ours.start()
    for seat, amount in ((2, 4), (0, 6), (1, 8)):
        ours.apply(BetOrRaiseTo(seat, amount))
    menu = ours.legal_actions(2)
    assert menu is not None and not menu.can_raise  # a bet and three raises (Robert's Rules)


def test_pokerkit_does_not_reopen_for_an_all_in_of_half_a_bet_in_fixed_limit_we_do() -> None:
    # Bets of 4 on the turn: seat 0 bets, seat 1 calls, seat 2 is all in for 7 (three
    # quarters of a bet more): TDA 47-B reopens the betting for seat 0.
    state = pk.FixedLimitTexasHoldem(AUTOMATIONS, True, 0, (1, 2), 2, 4)([100, 100, 9], 3)
    for _ in range(3):
        state.check_or_call()
    while state.street_index != 2:  # check to the turn
        state.check_or_call()
    state.complete_bet_or_raise_to(4)
    state.check_or_call()
    state.complete_bet_or_raise_to(state.max_completion_betting_or_raising_to_amount)  # 7
    assert state.actor_index == 0 and not state.can_complete_bet_or_raise_to()
    ours = Hand(
        HandSetup(1, (0, 1, 2), (100, 100, 9), 1, 2, blinds=(1, 2, 0), game=game("flhe")),
        Deck.shuffled(random.Random(1)),
    )
    ours.start()
    for seat in (2, 0, 1, 0, 1, 2, 0, 1, 2):
        ours.apply(CheckOrCall(seat))
    ours.apply(BetOrRaiseTo(0, 4))
    ours.apply(CheckOrCall(1))
    ours.apply(BetOrRaiseTo(2, 7))
    menu = ours.legal_actions(0)
    assert menu is not None and menu.can_raise and menu.min_raise_to == 11


def test_pokerkit_counts_a_short_big_blind_as_posted_for_the_pot_limit_we_count_it_in_full() -> (
    None
):
    state = pk.PotLimitOmahaHoldem(AUTOMATIONS, True, 0, (1, 2), 2)([100, 1, 100, 100], 4)
    assert (
        state.checking_or_calling_amount,
        state.max_completion_betting_or_raising_to_amount,
    ) == (1, 4)
    ours = Hand(
        HandSetup(1, (0, 1, 2, 3), (100, 1, 100, 100), 1, 2, blinds=(1, 2, 0, 0), game=game("plo")),
        Deck.shuffled(random.Random(1), game("plo").deck),
    )
    ours.start()
    menu = ours.legal_actions(2)
    assert menu is not None and (menu.call, menu.max_raise_to) == (2, 7)  # TDA 54-B


def test_pokerkits_fixed_limit_omaha_hi_lo_is_pot_limit_ours_is_fixed_limit() -> None:
    state = pk.FixedLimitOmahaHoldemHighLowSplitEightOrBetter(AUTOMATIONS, True, 0, (1, 2), 2, 4)(
        [100] * 3, 3
    )
    assert state.max_completion_betting_or_raising_to_amount == 7  # a pot-sized raise
    ours = Hand(
        HandSetup(1, (0, 1, 2), (100,) * 3, 1, 2, blinds=(1, 2, 0), game=game("flo8")),
        Deck.shuffled(random.Random(1), game("flo8").deck),
    )
    ours.start()
    menu = ours.legal_actions(2)
    assert menu is not None and (menu.min_raise_to, menu.max_raise_to) == (4, 4)


def test_pokerkit_breaks_a_tie_of_hands_showing_by_seat_we_by_the_highest_card_by_suit() -> None:
    state = pk.FixedLimitSevenCardStud(MANUAL, True, 1, 1, 2, 4)([100] * 3, 3)
    for cards in ("2s3s9c", "2h3h9s", "2d3d4c"):
        state.deal_hole(cards)
    state.post_bring_in()  # the four of clubs
    state.check_or_call()
    state.check_or_call()
    state.burn_card("??")
    for cards in ("5c", "5s", "2c"):
        state.deal_hole(cards)
    assert state.actor_index == 0  # pokerkit: 9c 5c and 9s 5s tie, the first seat opens
    # Ours (test_game_rules.py T4): the nine of spades opens, TDA RP-10-D.
