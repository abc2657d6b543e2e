"""One test per rule of the games beyond no-limit hold'em in docs/rules.md; the rule's id
starts each test's name (no-limit hold'em's own rules are in test_rules.py)."""

from __future__ import annotations

import pytest

from engine.actions import Action, BetOrRaiseTo, BringIn, CheckOrCall, Draw, Fold
from engine.cards import Card, parse_cards, parse_dice
from engine.deck import Deck
from engine.errors import IllegalActionError, InvalidConfigError
from engine.events import (
    ActionTaken,
    BoardDealt,
    CardsDrawn,
    CardsShown,
    Event,
    HoleCardsDealt,
    PotAwarded,
    UpCardsDealt,
    redact,
)
from engine.games import GAMES, Betting, Game, Opener, StreetSpec, game
from engine.hand import Hand, HandSetup
from engine.ranking import HIGH
from engine.rules import AnteKind, TableConfig
from engine.table import Table


def blind_hand(
    key: str, stacks: tuple[int, ...], cards: str = "", **setup: object
) -> tuple[Hand, list[Event]]:
    """A hand of a blind game at positions 0..n-1: blinds 1/2, bets 2/4."""
    n = len(stacks)
    g = game(key)
    blinds = setup.pop("blinds", (2, 1) if n == 2 else (1, 2) + (0,) * (n - 2))
    h = Hand(
        HandSetup(1, tuple(range(n)), stacks, 1, 2, blinds=blinds, game=g, **setup),  # type: ignore[arg-type]
        Deck.from_cards(cards, g.deck),
    )
    return h, h.start()


def stud_order(holes: list[str], streets: tuple[int, ...] = (3, 1, 1, 1, 1)) -> list[Card]:
    """The dealing order that gives each player these cards (in street order): a round at
    a time, every player still in (nobody folds)."""
    cards = [parse_cards(h) for h in holes]
    order: list[Card] = []
    dealt = 0
    for count in streets:
        for k in range(dealt, dealt + count):
            order += [c[k] for c in cards if k < len(c)]
        dealt += count
    return order


def stud_hand(
    key: str, holes: list[str], stacks: int = 1000, *, bring_in: int = 1, ante: int = 1
) -> tuple[Hand, list[Event]]:
    """Stud with an ante of 1, a bring-in of 1 and bets of 2/4."""
    n = len(holes)
    g = game(key)
    setup = HandSetup(
        1, tuple(range(n)), (stacks,) * n, 0, 0, antes=(ante,) * n, game=g,
        bring_in=bring_in, small_bet=2, big_bet=4,
    )  # fmt: skip
    h = Hand(setup, Deck.from_cards(stud_order(holes), g.deck))
    return h, h.start()


def act(h: Hand, *moves: str) -> list[Event]:
    """Moves like "2 f", "0 c", "1 r8" (raise to 8), "3 b" (bring in), "1 d Kd9c" (draw)."""
    events: list[Event] = []
    for move in moves:
        seat_text, what, *rest = move.split()
        seat = int(seat_text)
        assert h.seat_to_act == seat, f"{move}: expected seat {seat} to act, not {h.seat_to_act}"
        action: Action
        if what == "f":
            action = Fold(seat)
        elif what == "c":
            action = CheckOrCall(seat)
        elif what == "b":
            action = BringIn(seat)
        elif what == "d":
            action = Draw(seat, parse_cards(rest[0]) if rest else ())
        else:
            action = BetOrRaiseTo(seat, int(what[1:]))
        events += h.apply(action)
    return events


def taken(events: list[Event]) -> list[tuple[int, str, int]]:
    return [(e.seat, e.kind, e.street_total) for e in events if isinstance(e, ActionTaken)]


def awards(events: list[Event]) -> list[tuple[str | None, tuple[tuple[int, int], ...]]]:
    return [(e.half, e.shares) for e in events if isinstance(e, PotAwarded)]


# -- fixed limit --------------------------------------------------------------------------


def test_l1_fixed_limit_bets_the_small_bet_early_and_the_big_bet_late() -> None:
    h, _ = blind_hand("flhe", (100, 100, 100))
    menu = h.legal_actions(2)
    assert menu is not None and (menu.min_raise_to, menu.max_raise_to) == (4, 4)
    act(h, "2 c", "0 c", "1 c")  # flop: small bets
    menu = h.legal_actions(0)
    assert menu is not None and (menu.min_raise_to, menu.max_raise_to, menu.is_bet) == (2, 2, True)
    act(h, "0 c", "1 c", "2 c")  # turn: big bets
    menu = h.legal_actions(0)
    assert menu is not None and (menu.min_raise_to, menu.max_raise_to) == (4, 4)


def test_l2_a_bet_and_three_raises_with_the_big_blind_the_first_bet() -> None:
    h, _ = blind_hand("flhe", (100, 100, 100))
    act(h, "2 r4", "0 r6", "1 r8")
    menu = h.legal_actions(2)
    assert menu is not None and not menu.can_raise and menu.call == 4  # capped at four bets
    act(h, "2 c", "0 c")
    act(h, "0 r2", "1 r4", "2 r6", "0 r8")  # the flop: a bet and three raises
    menu = h.legal_actions(1)
    assert menu is not None and not menu.can_raise


def test_l2_a_game_of_two_betting_rounds_allows_a_bet_and_four_raises() -> None:
    single = game("27sd")
    fixed = Game(
        "27sd-fixed", "2-7 single draw, fixed limit", "F2L1D", single.deck,
        tuple(
            StreetSpec(s.name, s.hole, s.board, s.draw, s.opener, s.big_bet, 4 if i == 0 else 5)
            for i, s in enumerate(single.streets)
        ),
        Betting.FIXED_LIMIT, single.hands,
    )  # fmt: skip
    assert [s.max_raises for s in GAMES["27td"].streets] == [3, 4, 4, 4]
    h = Hand(
        HandSetup(1, (0, 1, 2), (100,) * 3, 1, 2, blinds=(1, 2, 0), game=fixed),
        Deck.shuffled(__import__("random").Random(1)),
    )
    h.start()
    act(h, "2 r4", "0 r6", "1 r8", "2 r10")
    menu = h.legal_actions(0)
    assert menu is not None and not menu.can_raise


def test_l3_heads_up_the_cap_is_lifted_when_the_table_says_so() -> None:
    capped, _ = blind_hand("flhe", (100, 100))
    act(capped, "1 r4", "0 r6", "1 r8")
    menu = capped.legal_actions(0)
    assert menu is not None and not menu.can_raise  # TDA Rule 48: the cap holds heads-up
    free, _ = blind_hand("flhe", (100, 100), uncapped_heads_up=True)
    act(free, "1 r4", "0 r6", "1 r8", "0 r10", "1 r12")
    menu = free.legal_actions(0)
    assert menu is not None and menu.can_raise and menu.min_raise_to == 14  # Robert's Rules


def test_l4_an_all_in_for_half_a_bet_or_more_reopens_the_betting_and_counts() -> None:
    # Small bet 2: UTG all in for 3 (one more than the big blind, half a bet).
    h, _ = blind_hand("flhe", (100, 100, 3, 100), blinds=(1, 2, 0, 0))
    act(h, "2 r3", "3 c")
    menu = h.legal_actions(0)
    assert menu is not None and menu.min_raise_to == 5  # a full raise over the all-in (RR 6)
    act(h, "0 r5")
    assert h.raises == 2  # the all-in counted as a raise


def test_l4_a_player_facing_a_short_all_in_bet_may_complete_it() -> None:
    # The flop, small bet 2: seat 0 is all in for 1 (less than half a bet... a quarter of 4
    # is not possible with 2, so the turn's big bet of 4 is used): all in for 1 of 4.
    h, _ = blind_hand("flhe", (100, 3, 100), blinds=(1, 2, 0))
    act(h, "2 c", "0 c", "1 c", "0 c", "1 c", "2 c")  # to the turn; seat 1 has 1 behind
    act(h, "0 c", "1 r1")  # a bet of 1, all in: a quarter of the big bet of 4
    menu = h.legal_actions(2)
    assert menu is not None and (menu.call, menu.min_raise_to) == (1, 4)  # call or complete
    events = act(h, "2 r4")
    assert taken(events) == [(2, "complete", 4)]
    menu = h.legal_actions(0)  # seat 0 checked before the short bet: the completion reopened
    assert menu is not None and menu.can_raise and menu.min_raise_to == 8


def test_l4_a_player_who_acted_may_only_call_a_short_all_in_raise() -> None:
    h, _ = blind_hand("flhe", (100, 100, 7), blinds=(1, 2, 0))
    act(h, "2 c", "0 c", "1 c", "0 c", "1 c", "2 c")  # to the turn: seat 2 has 5 behind
    act(h, "0 r4", "1 c", "2 r5")  # all in for one more than the bet of 4: under half
    menu = h.legal_actions(0)
    assert menu is not None and menu.call == 1 and not menu.can_raise  # TDA 47-B


# -- pot limit ---------------------------------------------------------------------------


def test_l5_the_pot_limit_is_the_pot_after_calling() -> None:
    h, _ = blind_hand("plo", (1000,) * 4)
    menu = h.legal_actions(2)
    assert menu is not None and (menu.min_raise_to, menu.max_raise_to) == (4, 7)
    act(h, "2 c")
    menu = h.legal_actions(3)
    assert menu is not None and menu.max_raise_to == 9
    act(h, "3 r9")
    menu = h.legal_actions(0)
    assert menu is not None and menu.max_raise_to == 31


def test_l6_a_short_big_blind_counts_in_full_for_the_pot_limit() -> None:
    # TDA Rule 54-B, example 2: PLO 100-200, the big blind posts 100 all in: the first
    # player's pot-limit bet is 700.
    g = game("plo")
    h = Hand(
        HandSetup(
            1, (0, 1, 2, 3), (5000, 100, 5000, 5000), 100, 200, blinds=(100, 200, 0, 0), game=g
        ),
        Deck.shuffled(__import__("random").Random(3), g.deck),
    )
    h.start()
    menu = h.legal_actions(2)
    assert menu is not None and (menu.call, menu.max_raise_to) == (200, 700)


# -- stud -------------------------------------------------------------------------------

FIVE = [
    "As Kd 5c 9h 2h Qs 3c",
    "Ks 7c 2c 8d 4s 3h Jd",
    "Ah Qd 2d Jc 7s 6s Td",
    "Th Tc Js 5s 9s 4d 8c",
]


def test_t1_stud_deals_two_down_and_one_up_then_three_up_and_one_down() -> None:
    h, events = stud_hand("stud", FIVE)
    assert [e.cards for e in events if isinstance(e, HoleCardsDealt) and e.seat == 0] == [
        parse_cards("As Kd")
    ]
    assert [e.cards for e in events if isinstance(e, UpCardsDealt)] == [
        parse_cards(c) for c in ("5c", "2c", "2d", "Js")
    ]
    assert [str(c) for c in h.visible(1)] == ["2c"]


def test_t2_the_lowest_up_card_brings_in_clubs_lowest() -> None:
    h, _ = stud_hand("stud", FIVE)  # up cards 5c, 2c, 2d, Js: the deuce of clubs
    assert h.seat_to_act == 1 and h.bring_in_due


def test_t2_in_razz_the_highest_up_card_brings_in_aces_low_spades_highest() -> None:
    holes = ["2s 3s Kh 4d 5d 6d 7d", "2h 3h Ks 4c 5c 6c 7c", "2d 3d Ac 4h 5h 6h 7h"]
    h, _ = stud_hand("razz", holes)
    assert h.seat_to_act == 1  # the king of spades; the ace is the lowest card in razz


def test_t3_the_bring_in_may_bring_in_or_complete_but_not_fold() -> None:
    h, _ = stud_hand("stud", FIVE)
    menu = h.legal_actions(1)
    assert menu is not None
    assert (menu.can_bring_in, menu.bring_in, menu.can_fold, menu.can_call) == (
        True,
        1,
        False,
        False,
    )
    assert (menu.can_raise, menu.min_raise_to, menu.max_raise_to) == (True, 2, 2)
    with pytest.raises(IllegalActionError, match="must bring in or complete"):
        h.apply(Fold(1))
    events = act(h, "1 b")
    assert taken(events) == [(1, "bring_in", 1)]
    menu = h.legal_actions(2)
    assert menu is not None and (menu.call, menu.min_raise_to, menu.can_fold) == (1, 2, True)
    assert taken(act(h, "2 r2")) == [(2, "complete", 2)]


def test_t3_the_completion_is_the_bet_and_three_raises_follow() -> None:
    h, _ = stud_hand("stud", FIVE)
    act(h, "1 b", "2 r2", "3 r4", "0 r6", "1 r8")
    menu = h.legal_actions(2)
    assert menu is not None and not menu.can_raise and menu.call == 6


def test_t3_when_the_low_card_is_all_in_for_the_ante_the_next_player_opens_or_folds() -> None:
    h, _ = stud_hand("stud", FIVE, stacks=1)  # everyone is all in for the ante
    assert h.is_over  # nobody left to bet: the cards run out
    holes = FIVE
    g = game("stud")
    setup = HandSetup(
        1,
        (0, 1, 2, 3),
        (50, 1, 50, 50),
        0,
        0,
        antes=(1,) * 4,
        game=g,
        bring_in=1,
        small_bet=2,
        big_bet=4,
    )
    h = Hand(setup, Deck.from_cards(stud_order(holes), g.deck))
    h.start()
    assert h.seat_to_act == 2  # seat 1 (the deuce of clubs) is all in for the ante
    menu = h.legal_actions(2)
    assert menu is not None and menu.can_fold and menu.can_bring_in and not menu.can_call


def test_t4_the_best_hand_showing_acts_first_from_fourth_street() -> None:
    h, _ = stud_hand("stud", FIVE)
    act(h, "1 b", "2 c", "3 c", "0 c")  # fourth street: 5c 9h, 2c 8d, 2d Jc, Js 5s
    assert h.seat_to_act == 3  # jack high beats the rest (2d Jc has a lower second card)


def test_t4_a_pair_showing_beats_high_cards() -> None:
    holes = ["As Kd 5c 5h 2h Qs 3c", "Ks 7c 2c 8d 4s 3h Jd", "Ah Qd Kc Ac 7s 6s Td"]
    h, _ = stud_hand("stud", holes)
    act(h, "1 b", "2 c", "0 c")
    assert h.seat_to_act == 0  # a pair of fives showing beats ace-king


def test_t4_tied_hands_showing_the_highest_card_by_suit_acts_first() -> None:
    holes = ["2s 3s 9c 5c 4h 6h 7h", "2h 3h 9s 5s 4d 6d 7d", "2d 3d 4c 2c Kc 8c 8d"]
    h, _ = stud_hand("stud", holes)
    act(h, "2 b", "0 c", "1 c")  # fourth street: 9c 5c and 9s 5s tie, 4c 2c is behind
    assert h.seat_to_act == 1  # the nine of spades (TDA RP-10-D; pokerkit: seat order)


def test_t4_in_razz_the_lowest_hand_showing_acts_first() -> None:
    holes = ["Ks Qs 8c 7h 2h 3s 3c", "Kh Qh 9c Ah 4s 3h Jd", "Kd Qd Tc 6c 7s 6s Td"]
    h, _ = stud_hand("razz", holes)
    act(h, "2 b", "0 c", "1 c")  # fourth street: 8c 7h, 9c Ah, Tc 6c
    assert h.seat_to_act == 0  # eight-seven is the lowest: the highest card decides first


def test_t5_eight_players_to_seventh_street_share_a_common_card() -> None:
    g = game("stud")
    n = 8
    setup = HandSetup(
        1,
        tuple(range(n)),
        (1000,) * n,
        0,
        0,
        antes=(1,) * n,
        game=g,
        bring_in=1,
        small_bet=2,
        big_bet=4,
    )
    h = Hand(setup, Deck.shuffled(__import__("random").Random(5), g.deck))
    events = h.start()
    while not h.is_over:
        seat = h.seat_to_act
        assert seat is not None
        menu = h.legal_actions(h.position[seat])
        assert menu is not None
        events += h.apply(BringIn(seat) if menu.can_bring_in else CheckOrCall(seat))
    boards = [e for e in events if isinstance(e, BoardDealt)]
    assert len(boards) == 1 and len(boards[0].cards) == 1  # 8 x 6 = 48 dealt, 4 left
    assert all(len(hole) == 6 for hole in h.holes)


def test_t6_the_last_bettor_shows_first_else_whoever_acted_first_on_the_last_street() -> None:
    h, _ = stud_hand("stud", FIVE[:3])
    act(h, "1 b", "2 c", "0 c")
    while not h.is_over:
        seat = h.seat_to_act
        assert seat is not None
        act(h, f"{seat} c")
    shown = [e.seat for e in h.log if isinstance(e, CardsShown)]
    assert shown[0] == h.opener  # nobody bet on seventh street


# -- draws -------------------------------------------------------------------------------


def test_x1_players_draw_in_turn_from_left_of_the_button_before_the_betting() -> None:
    h, _ = blind_hand("27td", (100, 100, 100))
    act(h, "2 c", "0 c", "1 c")
    assert h.drawing and h.seat_to_act == 0
    menu = h.legal_actions(0)
    assert menu is not None and (menu.can_draw, menu.max_discard, menu.can_call) == (True, 5, False)
    with pytest.raises(IllegalActionError, match="must draw"):
        h.apply(CheckOrCall(0))
    hole = h.holes[0]
    events = h.apply(Draw(0, hole[:2]))
    drawn = next(e for e in events if isinstance(e, CardsDrawn))
    assert (drawn.count, drawn.discarded) == (2, hole[:2])
    assert h.holes[0][2:] == hole[2:] and len(set(h.holes[0]) & set(hole[:2])) == 0
    seen = redact(drawn, 1)
    assert isinstance(seen, CardsDrawn)
    assert seen.discarded is None and seen.count == 2  # count is public


def test_x1_a_player_all_in_still_draws() -> None:
    h, _ = blind_hand("27td", (100, 100, 4))
    act(h, "2 r4", "0 c", "1 c")
    assert h.all_in[2]
    act(h, "0 d", "1 d")
    assert h.seat_to_act == 2 and h.drawing


def test_x2_a_discard_must_be_the_players_own_cards() -> None:
    h, _ = blind_hand("27td", (100, 100, 100))
    act(h, "2 c", "0 c", "1 c")
    stranger = next(c for c in h.deck.cards if c not in h.holes[0])
    with pytest.raises(IllegalActionError, match="not in the hand"):
        h.apply(Draw(0, (stranger,)))
    with pytest.raises(IllegalActionError, match="twice"):
        h.apply(Draw(0, (h.holes[0][0], h.holes[0][0])))


def test_x3_when_the_deck_runs_out_the_discards_are_reshuffled_not_the_drawers_own() -> None:
    g = game("27td")
    n = 6
    stacks = (1000,) * n
    runs = []
    for _ in range(2):
        h = Hand(
            HandSetup(1, tuple(range(n)), stacks, 1, 2, blinds=(1, 2, 0, 0, 0, 0), game=g),
            Deck.shuffled(__import__("random").Random(9), g.deck),
        )
        h.start()
        log = []
        while not h.is_over:
            seat = h.seat_to_act
            assert seat is not None
            p = h.position[seat]
            if h.drawing:
                mine = h.holes[p]
                before = set(mine)
                log += h.apply(Draw(seat, mine))  # everyone draws five, every time
                assert not before & set(h.holes[p])  # never one's own discards back
            else:
                log += h.apply(CheckOrCall(seat))
        runs.append(log)
        assert (
            h.dealer is not None and h.dealer.reshuffles >= 1
        )  # 30 dealt, then 90 drawn from 22 left and discards
    assert runs[0] == runs[1]  # the reshuffle is fixed by the deck: replays are exact


# -- hi-lo --------------------------------------------------------------------------------


def test_s4_hi_lo_splits_each_pot_the_odd_chip_to_the_high_half() -> None:
    # Omaha hi-lo: seat 0 (Ad 2d 8c 8d) the low, seven-six-five-two-ace; seat 1 (four
    # kings) the high, a pair of kings; a pot of 5: the odd chip to the high half.
    g = game("plo8")
    cards = "Ad Ks 2d Kh 8c Kd 8d Kc 5h 6s Jd 7c Qc"
    h = Hand(
        HandSetup(1, (0, 1), (10, 10), 1, 2, blinds=(2, 1), dead_blinds=(0, 1), game=g),
        Deck.from_cards(cards, g.deck),
    )
    h.start()
    while not h.is_over:
        seat = h.seat_to_act
        assert seat is not None
        h.apply(CheckOrCall(seat))
    got = awards(h.log)
    assert got == [("high", ((1, 3),)), ("low", ((0, 2),))]


def test_s4_with_no_qualifying_low_the_high_hand_scoops() -> None:
    g = game("flo8")
    cards = "As Kd Ks Qh Js Jc Th 9h 9c 9d Kc Qc"  # board 9c 9d Kc Qc ... no three low cards
    h = Hand(
        HandSetup(1, (0, 1), (50, 50), 1, 2, blinds=(2, 1), game=g), Deck.from_cards(cards, g.deck)
    )
    h.start()
    while not h.is_over:
        seat = h.seat_to_act
        assert seat is not None
        h.apply(CheckOrCall(seat))
    ((half, shares),) = awards(h.log)
    assert half == "high" and sum(s for _, s in shares) == 4


def test_s4_a_low_tie_with_a_high_winner_is_quartered() -> None:
    # Stud hi-lo, three players in for 40 each (120): seat 0 has the high and ties seat 1
    # for low; seat 0 takes 60 + 30, seat 1 30.
    holes = ["As 2s 3s 4s 6s Kd Qc", "Ah 2d 3c 4h 6d Jc Td", "9c 9d Qh Th Kc 8h 7c"]
    g = game("stud8")
    setup = HandSetup(
        1, (0, 1, 2), (40, 40, 40), 0, 0, antes=(4,) * 3, game=g, bring_in=2, small_bet=4, big_bet=8
    )
    h = Hand(setup, Deck.from_cards(stud_order(holes), g.deck))
    h.start()
    while not h.is_over:
        seat = h.seat_to_act
        assert seat is not None
        menu = h.legal_actions(h.position[seat])
        assert menu is not None
        h.apply(
            BetOrRaiseTo(seat, menu.max_raise_to)
            if menu.can_raise
            else BringIn(seat)
            if menu.can_bring_in
            else CheckOrCall(seat)
        )
    assert sorted(h.stacks) == sorted([0, 30, 90]) and h.stacks[0] == 90


def test_s5_in_stud_the_odd_chip_goes_to_the_highest_card_by_suit() -> None:
    # Two six-high straights split a pot of 5: three antes, the bring-in and a call.
    holes = ["2c 3c 4d 5d 6h Kc Qc", "2s 3s 4h 5h 6s Kd Qd", "9s 9h As"]
    g = game("stud")
    setup = HandSetup(
        1, (0, 1, 2), (10,) * 3, 0, 0, antes=(1,) * 3, game=g, bring_in=1, small_bet=2, big_bet=4
    )
    h = Hand(setup, Deck.from_cards(stud_order(holes), g.deck))
    h.start()
    act(h, "0 b", "1 c", "2 f")
    while not h.is_over:
        seat = h.seat_to_act
        assert seat is not None
        menu = h.legal_actions(h.position[seat])
        assert menu is not None
        h.apply(BringIn(seat) if menu.can_bring_in else CheckOrCall(seat))
    ((_, shares),) = awards(h.log)
    assert dict(shares) == {1: 3, 0: 2}  # six-high straights: 6s beats 6h (TDA Rule 20-B)


# -- configuration and bad input ----------------------------------------------------------


def test_g1_a_bad_game_definition_names_what_is_wrong() -> None:
    with pytest.raises(InvalidConfigError, match="deals no hole cards on its first street"):
        Game(
            "x",
            "X",
            "X",
            game("nlhe").deck,
            (StreetSpec("flop", board=3),),
            Betting.NO_LIMIT,
            (HIGH,),
        )
    with pytest.raises(InvalidConfigError, match="opens on up cards but none are dealt"):
        Game(
            "x",
            "X",
            "X",
            game("nlhe").deck,
            (StreetSpec("a", (False,) * 2, opener=Opener.HIGH_HAND),),
            Betting.NO_LIMIT,
            (HIGH,),
        )
    with pytest.raises(InvalidConfigError, match="splits the pot 3 ways"):
        Game(
            "x",
            "X",
            "X",
            game("nlhe").deck,
            game("nlhe").streets,
            Betting.NO_LIMIT,
            (HIGH, HIGH, HIGH),
        )
    with pytest.raises(InvalidConfigError, match="unknown game 'holdem'"):
        game("holdem")


def test_g2_a_table_of_a_game_needs_that_games_stakes() -> None:
    with pytest.raises(InvalidConfigError, match="has no blinds"):
        TableConfig(small_blind=1, big_blind=2, game=game("stud"))
    with pytest.raises(InvalidConfigError, match="bring-in 5 is more than the small bet 2"):
        TableConfig(game=game("stud"), small_bet=2, bring_in=5)
    with pytest.raises(InvalidConfigError, match="2 to 8 seats"):
        TableConfig(game=game("stud"), small_bet=2, seats=9)
    config = TableConfig(
        game=game("razz"), ante=1, ante_kind=AnteKind.PER_PLAYER, bring_in=1, small_bet=2
    )
    assert (config.big_bet, config.unit) == (4, 2)


def test_g3_an_action_the_game_does_not_have_is_refused_and_changes_nothing() -> None:
    h, _ = blind_hand("nlhe", (100, 100))
    before = (list(h.stacks), h.to_act, len(h.log))
    with pytest.raises(IllegalActionError, match="no draw this street"):
        h.apply(Draw(1))
    with pytest.raises(IllegalActionError, match="no bring-in"):
        h.apply(BringIn(1))
    assert (list(h.stacks), h.to_act, len(h.log)) == before


def test_g4_a_table_plays_a_game_without_blinds_hand_after_hand() -> None:
    config = TableConfig(
        game=game("razz"),
        ante=1,
        ante_kind=AnteKind.PER_PLAYER,
        bring_in=1,
        small_bet=2,
        min_buy_in=10,
    )
    table = Table(config)
    for seat in (0, 2, 4):
        table.sit_down(seat, 100)
    buttons = []
    for i in range(4):
        table.start_hand(Deck.shuffled(__import__("random").Random(i), config.game.deck))
        assert table.hand is not None
        buttons.append(table.hand.setup.button)
        while table.hand_in_progress:
            actor = table.to_act
            assert actor is not None
            menu = table.legal_actions(actor)
            assert menu is not None
            table.apply(BringIn(actor) if menu.can_bring_in else CheckOrCall(actor))
    assert buttons == [0, 2, 4, 0]
    assert sum(table.stack(s) for s in (0, 2, 4)) == 300


# -- dice ----------------------------------------------------------------------------------


def test_p1_poker_dice_are_rolled_in_the_open_and_rerolled_twice() -> None:
    g = game("dice")
    # Seat 0 rolls 6 6 6 1 2 and seat 1 5 5 4 3 2, a die at a time; then seat 0 re-rolls
    # its 1 and 2 and gets 6 6.
    deck = Deck(parse_dice("65 65 64 13 22 66") + parse_dice("1") * 150)
    h = Hand(HandSetup(1, (0, 1), (100, 100), 1, 2, blinds=(2, 1), game=g), deck)
    events = h.start()
    ups = [e for e in events if isinstance(e, UpCardsDealt)]
    assert [e.cards for e in ups] == [parse_dice("66612"), parse_dice("55432")]
    act(h, "1 c", "0 c")
    assert h.drawing and h.seat_to_act == 0
    h.apply(Draw(0, parse_dice("12")))
    drawn = [e for e in h.log if isinstance(e, CardsDrawn)][-1]
    seen = redact(drawn, 1)
    assert isinstance(seen, CardsDrawn)
    assert drawn.face_up and seen.drawn == parse_dice("66")  # everyone sees dice
    assert [c.face for c in h.holes[0]] == [6, 6, 6, 6, 6]


def test_t4_in_razz_a_pair_showing_beats_two_pair() -> None:
    # Sixth street: 7d Jd Jh 4c (a pair of jacks) against 5d 5h 4h 4d (two pair): the
    # pair is the better low and acts first, though its cards are higher.
    holes = ["3d 7c 7d Jd Jh 4c Th", "8s 7h 5d 5h 4h 4d Jc"]
    h, _ = stud_hand("razz", holes)
    act(h, "0 b", "1 c", "0 c", "1 c")  # fourth street: J-7 beats 5-5
    act(h, "1 c", "0 c")  # fifth: 5-5-4 beats J-J-7
    assert h.seat_to_act == 0  # sixth: one pair beats two pair
