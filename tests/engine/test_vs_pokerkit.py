"""Differential tests: our engine against pokerkit 0.7.7, hand by hand, decision by decision.

The random test plays thousands of hands through both engines with the same cards and the
same actions and compares every menu and the final stacks. Where pokerkit breaks the rules
we play by (docs/rules.md), the difference is understood, recognised precisely in the
random run and pinned by its own test below, which asserts both engines' behaviour:

- W5: pokerkit reopens the betting after a short all-in, before the flop for a limper
  and after the flop for a player who checked before a short all-in bet (TDA Rule 47-A).
- F3: with a short big blind pokerkit makes the short amount the bet to call (Robert's
  Rules). Such hands are played by our engine alone in the random run.
- F2: with a big-blind ante pokerkit posts the ante before the blind (TDA RP-11). Not
  generated in the random run.
- S2: pokerkit gives all the odd chips of a pot to one winner and merges pots that are
  left with the same contenders once the losing hands are killed (Robert's Rules, "Ties").
- pokerkit gives the big blind an option when nobody is left to raise against; we skip
  that decision (it has one sensible answer, check).
"""

from __future__ import annotations

import random

import pytest

from engine.actions import BetOrRaiseTo, CheckOrCall, Fold
from engine.deck import Deck
from engine.hand import Hand, HandSetup
from engine.pots import Pot
from tests.engine.pokerkit_driver import (
    REOPENS_AFTER_SHORT_ALL_IN,
    Deal,
    Duo,
    Tally,
    menu_disagreement,
    play_ours_only,
    play_random,
    pokerkit_odd_chips,
    pokerkit_state,
    random_deal,
)


def duo(stacks: tuple[int, ...], cards: str = "", blinds: tuple[int, int] = (50, 100)) -> Duo:
    """Both engines at the first decision of a hand with these stacks (by position) and
    the deck starting with ``cards`` (hole cards of positions 0..n-1, second hole cards,
    then the board)."""
    return Duo.from_deal(Deal(stacks, blinds[0], blinds[1], 0, Deck.from_cards(cards)))


def play(d: Duo, *actions: Fold | CheckOrCall | BetOrRaiseTo) -> None:
    """Apply ``actions`` to both engines, checking that each is made in turn and that the
    two menus agree before it."""
    for action in actions:
        assert d.hand.to_act == action.seat
        assert menu_disagreement(d.hand, d.our_menu(), d.pk_menu()) is None
        d.apply(action)


def raise_menu(d: Duo) -> tuple[bool, int, int, int]:
    """Ours: (can_raise, call, min_raise_to, max_raise_to) for the player to act."""
    m = d.our_menu()
    return m.can_raise, m.call, m.min_raise_to, m.max_raise_to


def pk_raise_menu(d: Duo) -> tuple[bool, int, int, int]:
    """pokerkit's (can_raise, call, min_raise_to, max_raise_to) for the player to act."""
    m = d.pk_menu()
    return m.can_raise, m.call, m.min_raise_to, m.max_raise_to


def limp_to_flop(stacks: tuple[int, ...]) -> Duo:
    """Everybody calls the big blind of 100 and the big blind checks: the flop, with the
    first player left of the button to act."""
    d = duo(stacks)
    while d.hand.street == 0:
        play(d, CheckOrCall(d.hand.to_act))
    assert d.hand.to_act == 0 and d.hand.street == 1
    return d


# -- the random differential run ------------------------------------------------------------

RANDOM_RUNS = [
    pytest.param(2, 11, 600, id="heads-up"),
    pytest.param(3, 12, 800, id="3-handed"),
    pytest.param(6, 13, 900, id="6-max"),
    pytest.param(9, 14, 700, id="9-handed"),
]


@pytest.mark.parametrize(("players", "seed", "hands"), RANDOM_RUNS)
def test_random_hands_match_pokerkit_menus_and_final_stacks(
    players: int, seed: int, hands: int
) -> None:
    """Random stacks (less than a big blind to 300 big blinds), blinds and antes, random
    actions from our menu, half the hands wild (all-ins, min-raises), half cagey: at
    every decision both engines agree on who acts, the call, whether a raise is allowed
    and its bounds; at the end on every stack. Chips are conserved after every action.
    Only the understood disagreements are let through, each recognised precisely and
    counted; hands with a short big blind are played by our engine alone."""
    rng = random.Random(seed)
    tally = Tally()
    for _ in range(hands):
        deal = random_deal(rng, players)
        if deal.short_big_blind:
            play_ours_only(deal, rng, tally)
        else:
            play_random(deal, rng, tally)
    played = tally["hands"]
    assert played + tally["short_big_blind_hands_ours_only"] == hands
    assert 0 < tally["short_big_blind_hands_ours_only"] < hands // 10
    # The run covered what it is for (each bound is about half of what the seed gives).
    assert tally["decisions"] >= 3 * played
    assert tally["showdowns"] >= played // 3
    assert tally["won_uncontested"] >= played // 100
    assert tally["river_bets"] >= played // 40
    assert tally["hands_with_all_ins"] >= played // 4
    assert tally["short_all_in_raises"] + tally["short_all_in_bets"] >= played // 20
    assert tally["not_reopened_agreed"] >= played // 30
    assert tally["split_pots"] >= played // 100
    if players >= 3:
        assert tally["side_pots_from_different_all_ins"] >= played // 10
    # The understood disagreements stay rare.
    assert tally[REOPENS_AFTER_SHORT_ALL_IN] <= played // 10
    assert tally["pokerkit_odd_chips_differ"] <= played // 50


# -- where pokerkit breaks the rules -------------------------------------------------------


def test_limper_facing_only_a_short_all_in_may_only_call_or_fold() -> None:
    """TDA 2024 Rule 47-A and Illustration Addendum Rule 47 Example 3 (blinds 2000-4000):
    A limps for 4000, B folds, C goes all-in for 7500 (a raise of 3500, less than a full
    raise), the small blind folds and the big blind calls. Back to A: "A can only fold or
    call the 3500"; the short all-in did not reopen the betting for A.

    pokerkit reopens it: before the flop it counts any all-in over the big blind as a
    full raise."""
    d = duo((100_000, 100_000, 100_000, 100_000, 7500), blinds=(2000, 4000))
    a, b, c, sb, bb = 2, 3, 4, 0, 1
    play(d, CheckOrCall(a), Fold(b), BetOrRaiseTo(c, 7500), Fold(sb), CheckOrCall(bb))
    assert d.hand.to_act == a
    assert raise_menu(d) == (False, 3500, 0, 0)
    assert pk_raise_menu(d) == (True, 3500, 11_500, 100_000)
    assert menu_disagreement(d.hand, d.our_menu(), d.pk_menu()) == REOPENS_AFTER_SHORT_ALL_IN


def test_checker_facing_a_short_all_in_bet_below_the_minimum_may_only_call_or_fold() -> None:
    """TDA 2024 Rule 47-A: an all-in wager of less than a full bet does not reopen the
    betting to a player who has already acted. On the flop A checks, B bets all-in 60 (the
    minimum bet is 100), C calls. Back to A: call 60 or fold, no raise.

    C had not acted, so C may raise, to at least 160 (60 plus the minimum bet, TDA Rule
    43-A); both engines agree there. pokerkit also lets A raise."""
    d = limp_to_flop((10_000, 160, 10_000))
    a, b, c = 0, 1, 2
    play(d, CheckOrCall(a))
    assert raise_menu(d) == (True, 0, 60, 60)  # B: 60 left, a bet all-in for less
    play(d, BetOrRaiseTo(b, 60))
    assert raise_menu(d) == pk_raise_menu(d) == (True, 60, 160, 9900)
    play(d, CheckOrCall(c))
    assert d.hand.to_act == a
    assert raise_menu(d) == (False, 60, 0, 0)
    assert pk_raise_menu(d) == (True, 60, 160, 9900)
    assert menu_disagreement(d.hand, d.our_menu(), d.pk_menu()) == REOPENS_AFTER_SHORT_ALL_IN


def test_short_big_blind_callers_still_owe_the_full_big_blind() -> None:
    """Robert's Rules of Poker, "Button and Blind Use": the minimum bring-in and raise
    sizes "remain the same even when the player in the blind does not have enough chips to
    post the full amount". The big blind of 100 is all-in for 60: the button owes 100 to
    call and may raise to 200. The 40 the big blind cannot match goes to a side pot.

    pokerkit makes 60 the bet: call 60, minimum raise to 160."""
    d = duo((10_000, 60, 10_000))
    sb, btn = 0, 2
    assert d.hand.to_act == btn
    assert raise_menu(d) == (True, 100, 200, 10_000)
    assert pk_raise_menu(d) == (True, 60, 160, 10_000)
    d.hand.apply(CheckOrCall(btn))
    assert d.our_menu().call == 50
    d.hand.apply(CheckOrCall(sb))
    assert d.hand.street == 1
    assert d.hand.pots() == [Pot(180, (0, 1, 2)), Pot(80, (0, 2))]


def test_short_big_blind_posts_the_blind_before_the_big_blind_ante() -> None:
    """TDA 2024 RP-11, big blind ante with "big-blind-first calculation": a big blind of
    100 owing a big-blind ante of 100 with only 150 posts the blind (100) first and the
    rest (50) as ante. The button owes the full 100 to call.

    pokerkit posts the ante first (100), leaving a blind of 50, which it then makes the
    bet to call."""
    setup = HandSetup(
        hand_number=1,
        seats=(0, 1, 2),
        stacks=(10_000, 150, 10_000),
        small_blind=50,
        big_blind=100,
        blinds=(50, 100, 0),
        antes=(0, 100, 0),
        big_blind_ante=True,
    )
    state = pokerkit_state(setup.stacks, 50, 100, (0, 100, 0), ante_trimming=False)
    d = Duo(Hand(setup, Deck.from_cards("")), state)
    bb, btn = 1, 2
    assert (d.hand.bets[bb], d.hand.totals[bb], d.hand.dead[bb]) == (100, 150, 50)
    assert d.hand.stacks[bb] == 0
    assert d.hand.to_act == btn and d.our_menu().call == 100
    assert [type(op).__name__ for op in state.operations[:4]] == [
        "AntePosting",
        "BetCollection",
        "BlindOrStraddlePosting",
        "BlindOrStraddlePosting",
    ]
    assert (state.bets[bb], state.stacks[bb]) == (50, 0)
    assert d.pk_menu().call == 50


def test_nobody_gets_two_odd_chips_of_one_pot() -> None:
    """Robert's Rules of Poker, "Ties": "No player may receive more than one odd chip",
    and in a button game the first hand clockwise from the button gets the odd chip. The
    small blind folds (5 dead) and three players who called 10 play the board: 35 split
    three ways is 12, 12, 11 from the first seat left of the button.

    pokerkit gives both odd chips to the first winner: 13, 11, 11."""
    board = "As Kd Qh Jc Ts"
    d = duo((1000,) * 4, "2c 3c 4c 5d 7d 8d 9h 2d " + board, blinds=(5, 10))
    play(d, CheckOrCall(2), CheckOrCall(3), Fold(0), CheckOrCall(1))
    while not d.hand.is_over:
        play(d, CheckOrCall(d.hand.to_act))
    assert d.hand.stacks == [995, 1002, 1002, 1001]
    assert d.pk_stacks == [995, 1003, 1001, 1001] == pokerkit_odd_chips(d.hand)


def test_main_and_side_pots_are_split_separately() -> None:
    """Robert's Rules of Poker, "Ties": "All side pots and the main pot will be split as
    separate pots, not mixed together." A (big blind) and B tie; C, all-in for 20, loses;
    D folded on the turn; the small blind folded before the flop. The main pot (85) and
    the side pot (53) each leave an odd chip, and both go to A, first left of the button:
    A takes 43 + 27, B 42 + 26.

    pokerkit kills C's hand before pushing the chips, which leaves both pots with the same
    contenders (A, B); it merges them and splits 138 evenly, 69 each."""
    sb, a, c, b, btn = 0, 1, 2, 3, 4
    holes = {sb: "2c 3c", a: "Qc Jh", c: "9c 8d", b: "Qs Jd", btn: "6c 6d"}
    cards = " ".join(holes[p].split()[0] for p in range(5))
    cards += " " + " ".join(holes[p].split()[1] for p in range(5)) + " Ah Kh 7d 4c 2s"
    d = duo((1000, 1000, 20, 1000, 1000), cards, blinds=(5, 10))
    play(d, BetOrRaiseTo(c, 20), CheckOrCall(b), CheckOrCall(btn), Fold(sb), CheckOrCall(a))
    play(d, BetOrRaiseTo(a, 11), CheckOrCall(b), CheckOrCall(btn))  # flop
    play(d, BetOrRaiseTo(a, 10), CheckOrCall(b), Fold(btn))  # turn
    play(d, CheckOrCall(a), CheckOrCall(b))  # river
    assert d.hand.is_over
    assert d.hand.stacks == [995, 1029, 0, 1027, 969]
    assert d.pk_stacks == [995, 1028, 0, 1028, 969] == pokerkit_odd_chips(d.hand)


def test_big_blind_gets_no_option_when_nobody_can_raise_against_it() -> None:
    """The big blind's option (Robert's Rules: a blind may raise at its first turn) means
    nothing when everyone else has folded or is all-in for no more than the blind
    (docs/rules.md W7): the button calls all-in for 5, the small blind folds, and our
    engine deals the board and ends the hand. pokerkit still asks the big blind to act,
    with check as the only sensible choice; the outcome is the same."""
    stacks = (6573, 871, 5)
    hand = Hand(Deal(stacks, 10, 25, 0, Deck.from_cards("")).setup(), Deck.from_cards(""))
    hand.start()
    hand.apply(CheckOrCall(2))
    hand.apply(Fold(0))
    assert hand.is_over and len(hand.board) == 5
    state = pokerkit_state(stacks, 10, 25)
    for _ in stacks:
        state.deal_hole("????")
    state.check_or_call()
    state.fold()
    assert state.actor_index == 1
    assert state.checking_or_calling_amount == 0
    assert not state.can_complete_bet_or_raise_to()
    d = duo(stacks, blinds=(10, 25))  # the driver takes that check for pokerkit
    play(d, CheckOrCall(2), Fold(0))
    assert d.hand.is_over and d.pk_over and d.pk_idle_checks == 1
    assert d.hand.stacks == d.pk_stacks


def test_no_raise_is_offered_when_no_opponent_can_call_it() -> None:
    """docs/rules.md W7: with nobody to raise against, a player may call or fold but not
    raise. The button raises to 300, the small blind calls (100 behind), the big blind goes
    all-in for 2000. The button faces 1700 more, and the only other player with chips has
    100: no chip of a raise could ever be called, so the button may call or fold only.
    Both engines agree."""
    d = duo((400, 2000, 10_000))
    sb, bb, btn = 0, 1, 2
    play(d, BetOrRaiseTo(btn, 300), CheckOrCall(sb), BetOrRaiseTo(bb, 2000))
    assert raise_menu(d) == pk_raise_menu(d) == (False, 1700, 0, 0)


# -- agreements the rules spell out ----------------------------------------------------------


def addendum_47_example_1() -> Duo:
    """TDA 2024 Addendum Rule 47 Example 1, on the flop: A bets 100, B all-in 125, C
    calls 125, D all-in 200, E calls 200; back to A."""
    d = limp_to_flop((2000, 225, 2000, 300, 2000))
    a, b, c, dd, e = range(5)
    play(d, BetOrRaiseTo(a, 100), BetOrRaiseTo(b, 125), CheckOrCall(c))
    play(d, BetOrRaiseTo(dd, 200), CheckOrCall(e))
    return d


def test_two_short_all_ins_adding_up_to_a_full_raise_reopen_the_betting() -> None:
    """TDA 2024 Addendum Rule 47 Example 1: the two short all-ins (125, then 200) add up
    to a full raise over A's 100, so A may raise; the minimum stays the last full bet,
    100, so A may raise to 300 or more. If A just calls, C faces only 75 more than C
    called, less than a full raise: C may not raise (Example 1-A). If A raises to 300,
    C may re-raise (Example 1-B)."""
    d = addendum_47_example_1()
    assert d.hand.to_act == 0
    assert raise_menu(d) == pk_raise_menu(d) == (True, 100, 300, 1900)
    play(d, CheckOrCall(0))
    assert raise_menu(d) == pk_raise_menu(d) == (False, 75, 0, 0)

    d = addendum_47_example_1()
    play(d, BetOrRaiseTo(0, 300))
    assert raise_menu(d) == pk_raise_menu(d) == (True, 175, 400, 1900)


def test_short_all_ins_do_not_raise_the_minimum_raise() -> None:
    """TDA 2024 Addendum Rule 47 Example 2: A bets 300, B all-in 500, C all-in 650, D
    all-in 800, E calls 800. The all-ins raise by 200, 150 and 150, each less than a full
    raise, so the minimum raise is still A's 300: F may raise to 800 + 300 = 1100."""
    d = limp_to_flop((2000, 600, 750, 900, 2000, 2000))
    play(d, BetOrRaiseTo(0, 300), BetOrRaiseTo(1, 500), BetOrRaiseTo(2, 650))
    play(d, BetOrRaiseTo(3, 800), CheckOrCall(4))
    assert d.hand.to_act == 5
    assert raise_menu(d) == pk_raise_menu(d) == (True, 800, 1100, 1900)


def test_split_pot_odd_chip_goes_to_the_first_winner_left_of_the_button() -> None:
    """TDA 2024 Rule 20-A: the odd chip goes to the first seat left of the button. Three
    handed, blinds 25-50: the small blind folds (25 dead), the big blind and the button
    both play the board; the big blind (position 1) gets 63 of the 125, the button 62."""
    d = duo((1000, 1000, 1000), "2c 4h 6c 3d 5s 7d As Kd Qh Jc Ts", blinds=(25, 50))
    play(d, CheckOrCall(2), Fold(0), CheckOrCall(1))
    while not d.hand.is_over:
        play(d, CheckOrCall(d.hand.to_act))
    assert d.pk_over
    assert d.hand.stacks == d.pk_stacks == [975, 1013, 1012]
