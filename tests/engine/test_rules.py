"""One test per rule in docs/rules.md; the rule's id starts each test's name."""

import random

import pytest

from engine.actions import BetOrRaiseTo, CheckOrCall, Fold
from engine.deck import Deck
from engine.errors import IllegalActionError, SeatingError
from engine.events import (
    ActionTaken,
    BoardDealt,
    CardsMucked,
    CardsShown,
    Event,
    ForcedBetPosted,
    HandStarted,
    PlayerStood,
    PotAwarded,
    UncalledBetReturned,
)
from engine.hand import Hand, HandSetup
from engine.rules import AnteKind, ButtonRule, TableConfig
from engine.table import Table


def make_table(seats: dict[int, int], **options: object) -> Table:
    config = TableConfig(small_blind=50, big_blind=100, seats=6, min_buy_in=10, **options)  # type: ignore[arg-type]
    table = Table(config)
    for seat, stack in seats.items():
        table.sit_down(seat, stack)
    return table


def started(events: list[Event]) -> HandStarted:
    return next(e for e in events if isinstance(e, HandStarted))


def posts(events: list[Event]) -> dict[int, list[tuple[str, int]]]:
    out: dict[int, list[tuple[str, int]]] = {}
    for e in events:
        if isinstance(e, ForcedBetPosted):
            out.setdefault(e.seat, []).append((e.kind, e.increment))
    return out


def fold_around(table: Table) -> None:
    """Everyone folds to the big blind (or the last player in)."""
    while table.hand_in_progress:
        seat = table.to_act
        assert seat is not None
        menu = table.legal_actions(seat)
        assert menu is not None
        table.apply(Fold(seat) if menu.can_fold else CheckOrCall(seat))


def hand(stacks: tuple[int, ...], cards: str = "", **setup: object) -> tuple[Hand, list[Event]]:
    """A hand at positions 0..n-1 (seat == position); blinds 50/100 unless given."""
    n = len(stacks)
    blinds = setup.pop("blinds", (100, 50) if n == 2 else (50, 100) + (0,) * (n - 2))
    h = Hand(
        HandSetup(
            hand_number=1,
            seats=tuple(range(n)),
            stacks=stacks,
            small_blind=50,
            big_blind=100,
            blinds=blinds,  # type: ignore[arg-type]
            **setup,  # type: ignore[arg-type]
        ),
        Deck.from_cards(cards),
    )
    return h, h.start()


def do(h: Hand, *moves: str) -> list[Event]:
    """Apply moves like "2 f", "0 c", "1 r300" (raise to 300) for the seat to act."""
    events: list[Event] = []
    for move in moves:
        seat_text, what = move.split()
        seat = int(seat_text)
        assert h.seat_to_act == seat, f"expected seat {seat} to act, not {h.seat_to_act}"
        if what == "f":
            events += h.apply(Fold(seat))
        elif what == "c":
            events += h.apply(CheckOrCall(seat))
        else:
            events += h.apply(BetOrRaiseTo(seat, int(what[1:])))
    return events


# -- dealing ----------------------------------------------------------------------------


def test_d1_the_same_deck_and_actions_reproduce_the_hand() -> None:
    runs = []
    for _ in range(2):
        table = make_table({0: 1000, 1: 1000, 2: 1000})
        events = table.start_hand(Deck.shuffled(random.Random(42)))
        events += table.apply(BetOrRaiseTo(0, 300)) + table.apply(CheckOrCall(1))
        events += table.apply(CheckOrCall(2))
        runs.append(events)
    assert runs[0] == runs[1]


def test_d2_hole_cards_one_at_a_time_from_left_of_the_button_then_the_board() -> None:
    h, events = hand((1000, 1000, 1000), "As Kd Qh Ac Kc Qd 2s 7h 9c Td 3c")
    assert [" ".join(map(str, hole)) for hole in h.holes] == ["As Ac", "Kd Kc", "Qh Qd"]
    events = do(h, "2 c", "0 c", "1 c", "0 c", "1 c", "2 c", "0 c", "1 c", "2 c")
    boards = [e.cards for e in events if isinstance(e, BoardDealt)]
    assert [" ".join(map(str, b)) for b in boards] == ["2s 7h 9c", "Td", "3c"]


# -- button and blinds ----------------------------------------------------------------


def test_b1_moving_button_moves_one_player_and_the_blinds_follow() -> None:
    table = make_table({0: 1000, 2: 1000, 3: 1000, 5: 1000})
    first = table.start_hand(Deck.shuffled(random.Random(1)))
    assert started(first).button == 0 and posts(first) == {
        2: [("small_blind", 50)],
        3: [("big_blind", 100)],
    }
    fold_around(table)
    second = table.start_hand(Deck.shuffled(random.Random(2)))
    assert started(second).button == 2
    assert posts(second) == {3: [("small_blind", 50)], 5: [("big_blind", 100)]}


def test_b2_dead_button_stays_on_an_empty_seat() -> None:
    table = make_table({0: 1000, 1: 1000, 2: 1000, 3: 1000}, button_rule=ButtonRule.DEAD)
    table.start_hand(Deck.shuffled(random.Random(1)))  # button 0, small blind 1, big blind 2
    fold_around(table)
    table.stand_up(1)  # the small blind leaves
    events = table.start_hand(Deck.shuffled(random.Random(2)))
    # The big blind moves on to seat 3, the small blind to last hand's big blind, and the
    # button to last hand's small blind seat, now empty.
    assert started(events).button == 1
    assert posts(events) == {2: [("small_blind", 50)], 3: [("big_blind", 100)]}


def test_b2_dead_button_no_small_blind_when_last_big_blind_left() -> None:
    table = make_table({0: 1000, 1: 1000, 2: 1000, 3: 1000}, button_rule=ButtonRule.DEAD)
    table.start_hand(Deck.shuffled(random.Random(1)))
    fold_around(table)
    table.stand_up(2)  # the big blind leaves
    events = table.start_hand(Deck.shuffled(random.Random(2)))
    assert started(events).button == 1
    assert posts(events) == {3: [("big_blind", 100)]}


def test_b3_heads_up_button_posts_small_blind_acts_first_preflop_last_after() -> None:
    table = make_table({1: 1000, 4: 1000})
    events = table.start_hand(Deck.shuffled(random.Random(3)))
    button = started(events).button
    other = 4 if button == 1 else 1
    assert posts(events) == {button: [("small_blind", 50)], other: [("big_blind", 100)]}
    assert table.to_act == button
    table.apply(CheckOrCall(button))
    table.apply(CheckOrCall(other))
    assert table.to_act == other  # first after the flop


def test_b4_going_heads_up_nobody_posts_the_big_blind_twice() -> None:
    table = make_table({0: 1000, 1: 1000, 2: 1000})
    table.start_hand(Deck.shuffled(random.Random(1)))  # big blind: seat 2
    fold_around(table)
    table.stand_up(0)
    events = table.start_hand(Deck.shuffled(random.Random(2)))
    assert posts(events) == {2: [("small_blind", 50)], 1: [("big_blind", 100)]}
    assert started(events).button == 2


def test_b5_first_hand_everyone_plays_and_the_button_is_the_lowest_seat() -> None:
    table = make_table({3: 1000, 1: 1000, 4: 1000})
    events = table.start_hand(Deck.shuffled(random.Random(1)))
    assert started(events).button == 1
    assert set(started(events).seats) == {1, 3, 4}


def test_b6_big_blind_has_the_option_to_raise_when_limped_to() -> None:
    h, _ = hand((1000, 1000, 1000))
    do(h, "2 c", "0 c")
    menu = h.legal_actions(1)
    assert menu is not None and menu.can_check and menu.can_raise and menu.min_raise_to == 200


# -- players coming and going ---------------------------------------------------------


def test_p1_newcomer_waits_for_the_big_blind() -> None:
    table = make_table({0: 1000, 1: 1000, 2: 1000})
    table.start_hand(Deck.shuffled(random.Random(1)))  # big blind seat 2
    fold_around(table)
    table.sit_down(4, 1000)
    second = table.start_hand(Deck.shuffled(random.Random(2)))  # big blind moves to 4
    assert 4 in started(second).seats and posts(second)[4] == [("big_blind", 100)]


def test_p1_newcomer_is_not_dealt_in_before_the_big_blind_reaches_them() -> None:
    table = make_table({0: 1000, 1: 1000, 2: 1000, 3: 1000})
    table.start_hand(Deck.shuffled(random.Random(1)))  # big blind seat 2
    fold_around(table)
    table.sit_down(5, 1000)
    second = table.start_hand(Deck.shuffled(random.Random(2)))  # big blind seat 3
    assert 5 not in started(second).seats


def test_p1_newcomer_who_posts_plays_next_hand_with_a_live_big_blind() -> None:
    table = make_table({0: 1000, 1: 1000, 2: 1000, 3: 1000})
    table.start_hand(Deck.shuffled(random.Random(1)))  # big blind seat 2
    fold_around(table)
    table.sit_down(5, 1000, wait_for_big_blind=False)
    events = table.start_hand(Deck.shuffled(random.Random(2)))  # big blind seat 3
    assert 5 in started(events).seats and posts(events)[5] == [("big_blind", 100)]
    while table.to_act != 5:
        table.apply(CheckOrCall(table.to_act))  # type: ignore[arg-type]
    menu = table.legal_actions(5)
    assert menu is not None and menu.can_check  # the posted blind is live


def test_p2_a_player_sitting_out_is_not_dealt_in() -> None:
    table = make_table({0: 1000, 1: 1000, 2: 1000})
    table.sit_out(1)
    events = table.start_hand(Deck.shuffled(random.Random(1)))
    assert set(started(events).seats) == {0, 2}


def test_p3_missed_blinds_are_posted_big_live_small_dead() -> None:
    table = make_table({0: 1000, 1: 1000, 2: 1000, 3: 1000})
    table.start_hand(Deck.shuffled(random.Random(1)))  # big blind seat 2
    fold_around(table)
    table.sit_out(3)
    table.start_hand(Deck.shuffled(random.Random(2)))  # the big blind passes seat 3
    fold_around(table)
    table.sit_in(3, post=True)
    events = table.start_hand(Deck.shuffled(random.Random(3)))
    assert posts(events)[3] == [("big_blind", 100), ("dead_blind", 50)]
    forced = [e for e in events if isinstance(e, ForcedBetPosted) and e.seat == 3]
    assert forced[-1].street_total == 100 and forced[-1].hand_total == 150


def test_p3_missed_blinds_or_wait_for_the_big_blind() -> None:
    table = make_table({0: 1000, 1: 1000, 2: 1000, 3: 1000})
    table.start_hand(Deck.shuffled(random.Random(1)))
    fold_around(table)
    table.sit_out(3)
    table.start_hand(Deck.shuffled(random.Random(2)))  # the big blind passes seat 3
    fold_around(table)
    table.sit_in(3)
    events = table.start_hand(Deck.shuffled(random.Random(3)))  # big blind seat 0
    assert 3 not in started(events).seats


def test_p4_a_busted_player_leaves_the_seat() -> None:
    h_table = make_table({0: 200, 1: 1000})
    events = h_table.start_hand(Deck.from_cards("As 7d Ah 2c 3h 8s 9s Kd Qc"))
    button = started(events).button
    # Seat 0 is the button (small blind) heads-up; it goes all in and loses to aces.
    assert button == 0
    events = h_table.apply(BetOrRaiseTo(0, 200)) + h_table.apply(CheckOrCall(1))
    assert PlayerStood(seat=0, stack=0, reason="busted") in events
    assert h_table.occupied() == [1]


def test_p5_no_standing_up_in_the_middle_of_your_hand() -> None:
    table = make_table({0: 1000, 1: 1000, 2: 1000})
    table.start_hand(Deck.shuffled(random.Random(1)))
    with pytest.raises(SeatingError, match="seat 0 is in a hand"):
        table.stand_up(0)
    table.sit_down(4, 1000)  # sitting down is fine at any time
    table.sit_out(1)  # so is sitting out: it takes effect next hand
    assert table.hand_in_progress


def test_a_stack_changes_between_hands_only_and_never_below_zero() -> None:
    table = make_table({0: 1000, 1: 1000, 2: 1000})
    assert table.adjust_stack(0, 500) == 500 and table.stack(0) == 1500
    assert table.adjust_stack(1, -5000) == -1000 and table.stack(1) == 0
    table.start_hand(Deck.shuffled(random.Random(1)))
    with pytest.raises(SeatingError, match="seat 0 is in a hand"):
        table.adjust_stack(0, 100)
    with pytest.raises(SeatingError, match="seat 5 is empty"):
        table.adjust_stack(5, 100)
    table.sit_down(4, 1000)
    assert table.adjust_stack(4, 250) == 250  # not dealt in: its stack may change


# -- forced bets ------------------------------------------------------------------------


def test_f1_every_player_posts_the_ante_before_the_blinds() -> None:
    table = make_table({0: 1000, 1: 1000, 2: 1000}, ante=10, ante_kind=AnteKind.PER_PLAYER)
    events = table.start_hand(Deck.shuffled(random.Random(1)))
    kinds = [(e.seat, e.kind) for e in events if isinstance(e, ForcedBetPosted)]
    assert kinds == [(1, "ante"), (2, "ante"), (0, "ante"), (1, "small_blind"), (2, "big_blind")]


def test_f2_short_big_blind_pays_the_blind_first_and_the_ante_is_dead() -> None:
    h, events = hand((1000, 150, 1000), antes=(0, 100, 0), big_blind_ante=True)
    assert posts(events)[1] == [("big_blind", 100), ("ante", 50)]
    # Everyone folds to the big blind, who takes the small blind and the whole ante.
    end = do(h, "2 f", "0 f")
    assert h.stacks == [950, 200, 1000]
    assert any(isinstance(e, PotAwarded) for e in end)


def test_f2_big_blind_ante_goes_to_the_main_pot() -> None:
    h, _ = hand((1000, 1000, 1000), antes=(0, 100, 0), big_blind_ante=True)
    do(h, "2 c", "0 c", "1 c")
    assert [(p.amount, p.eligible) for p in h.pots()] == [(400, (0, 1, 2))]


def test_f3_short_big_blind_callers_still_owe_the_full_big_blind() -> None:
    h, _ = hand((1000, 60, 1000))
    menu = h.legal_actions(2)
    assert menu is not None and menu.call == 100 and menu.min_raise_to == 200


def test_f4_a_dead_small_blind_is_dead_money_in_the_main_pot() -> None:
    h, _ = hand((1000, 1000, 1000), dead_blinds=(0, 0, 50), blinds=(50, 100, 100))
    assert h.totals == [50, 100, 150] and h.bets == [50, 100, 100]
    do(h, "0 c", "1 c")  # seat 2's live 100 is the bet to call; nobody owes the dead 50
    assert [(p.amount, p.eligible) for p in h.pots()] == [(350, (0, 1, 2))]


# -- betting ----------------------------------------------------------------------------


def test_w1_the_minimum_bet_is_the_big_blind() -> None:
    h, _ = hand((1000, 1000, 1000))
    do(h, "2 c", "0 c", "1 c")
    menu = h.legal_actions(0)
    assert menu is not None and menu.is_bet and menu.min_raise_to == 100
    with pytest.raises(IllegalActionError, match=r"bet to 99 is outside 100\.\.900"):
        h.apply(BetOrRaiseTo(0, 99))


def test_w2_minimum_raise_is_the_last_full_raise() -> None:
    h, _ = hand((10000,) * 4)  # TDA Addendum 43, Example 1 in 50/100 chips
    do(h, "2 r300", "3 r800")
    menu = h.legal_actions(0)
    assert menu is not None and menu.min_raise_to == 1300


def test_w2_a_short_all_in_does_not_change_the_minimum_raise() -> None:
    h, _ = hand((1000, 1000, 150, 1000))  # TDA Addendum 43, Example 2
    do(h, "2 r150")
    menu = h.legal_actions(3)
    assert menu is not None and menu.call == 150 and menu.min_raise_to == 250


def test_w3_action_events_carry_increment_street_total_and_hand_total() -> None:
    h, _ = hand((1000, 1000, 1000))
    events = do(h, "2 r300", "0 r900")
    raise_ = events[-1]
    assert isinstance(raise_, ActionTaken)
    assert (raise_.kind, raise_.increment, raise_.street_total, raise_.hand_total) == (
        "raise",
        850,
        900,
        900,
    )
    assert raise_.stack == 100


def test_w4_there_is_no_cap_on_raises() -> None:
    h, _ = hand((100000, 100000))
    for raise_to in (200 * 2**i for i in range(9)):  # nine min-raises in a row: 200 .. 51200
        do(h, f"{h.seat_to_act} r{raise_to}")
    assert h.current_bet == 51200 and h.legal_actions(h.to_act).can_raise  # type: ignore[union-attr]


def test_w5_a_short_all_in_does_not_reopen_the_betting() -> None:
    # TDA Addendum 47, Example 3-A, in 50/100 chips: a limper facing only a short all-in.
    h, _ = hand((1000, 1000, 1000, 150))
    do(h, "2 c", "3 r150", "0 c", "1 c")
    menu = h.legal_actions(2)
    assert menu is not None and menu.call == 50 and not menu.can_raise


def test_w5_short_all_ins_that_add_up_to_a_full_raise_reopen_it() -> None:
    # TDA Addendum 47, Example 1: A bets 100, B all in 125, C calls, D all in 200, E calls.
    h, _ = hand((1000, 225, 1000, 300, 1000))
    do(h, "2 c", "3 c", "4 c", "0 c", "1 c")  # everyone limps; 500 in the pot
    do(h, "0 r100", "1 r125", "2 c", "3 r200", "4 c")
    menu = h.legal_actions(0)
    assert menu is not None and menu.can_raise and menu.min_raise_to == 300
    do(h, "0 c")
    menu = h.legal_actions(2)  # C faces only 75 more since calling 125: no raise (1-A)
    assert menu is not None and menu.call == 75 and not menu.can_raise


def test_w6_no_folding_when_checking_is_free() -> None:
    h, _ = hand((1000, 1000, 1000))
    do(h, "2 c", "0 c")
    menu = h.legal_actions(1)
    assert menu is not None and not menu.can_fold
    with pytest.raises(IllegalActionError, match="seat 1 cannot fold: checking is free"):
        h.apply(Fold(1))


def test_w6_the_rule_option_allows_folding_when_checking_is_free() -> None:
    h, _ = hand((1000, 1000, 1000), fold_when_check_is_free=True)
    do(h, "2 c", "0 c", "1 f")
    assert h.folded[1]


def test_w7_no_raise_when_everyone_else_is_all_in() -> None:
    h, _ = hand((1000, 1000, 300))
    do(h, "2 r300", "0 f")
    menu = h.legal_actions(1)
    assert menu is not None and menu.call == 200 and not menu.can_raise


def test_w8_call_all_in_for_less_and_raise_all_in_when_short_of_a_full_raise() -> None:
    h, _ = hand((1000, 1000, 250))
    do(h, "2 r250", "0 r800")
    menu = h.legal_actions(1)
    assert menu is not None and menu.min_raise_to == 1000 and menu.raise_is_all_in_only
    h2, _ = hand((1000, 1000, 150))
    do(h2, "2 c", "0 r600", "1 f")
    menu = h2.legal_actions(2)
    assert menu is not None and menu.call == 50 and menu.call_is_all_in and not menu.can_raise


# -- pots --------------------------------------------------------------------------------


def test_u1_the_uncalled_part_of_a_bet_goes_back() -> None:
    h, _ = hand((1000, 1000, 300), "As Kd 2c Ac Kc 2d 3s 7h 9c Td 4c")
    events = do(h, "2 r300", "0 r1000", "1 f")
    returned = [e for e in events if isinstance(e, UncalledBetReturned)]
    assert returned == [UncalledBetReturned(seat=0, amount=700, stack=700)]


def test_s1_a_side_pot_for_each_all_in_level() -> None:
    h, _ = hand((1000, 500, 200), "2c 3c As 2d 3d Ah Kc 7h 9c Td 4d")
    events = do(h, "2 r200", "0 r1000", "1 c")
    pots = [(e.amount, e.eligible) for e in events if isinstance(e, PotAwarded)]
    assert pots == [(600, (0, 1, 2)), (600, (0, 1))]
    # Seat 2's aces win the main pot; seat 1's threes beat seat 0's twos for the side pot;
    # seat 0's uncalled 500 came back.
    assert h.stacks == [500, 600, 600]


def test_s2_odd_chip_goes_to_the_first_winner_left_of_the_button() -> None:
    # Seat 0 (small blind) folds its 25: 225 split between seats 1 and 2.
    h = Hand(
        HandSetup(
            hand_number=1,
            seats=(0, 1, 2),
            stacks=(1000, 1000, 1000),
            small_blind=25,
            big_blind=100,
            blinds=(25, 100, 0),
        ),
        Deck.from_cards("7c 2c 2d 8d 3c 3d As Ks Qs Js 9h"),
    )
    h.start()
    events = do(h, "2 c", "0 f", "1 c", "1 c", "2 c", "1 c", "2 c", "1 c", "2 c")
    award = next(e for e in events if isinstance(e, PotAwarded))
    assert award.amount == 225 and award.shares == ((1, 113), (2, 112))


def test_s3_chips_are_conserved_over_many_hands() -> None:
    rng = random.Random(9)
    table = make_table(dict.fromkeys(range(6), 500))
    start = 3000
    for _ in range(200):
        if len(table.occupied()) < 2:
            break
        table.start_hand(Deck.shuffled(rng))
        while table.hand_in_progress:
            seat = table.to_act
            assert seat is not None and table.hand is not None
            menu = table.legal_actions(seat)
            assert menu is not None
            if menu.can_raise and rng.random() < 0.3:
                table.apply(BetOrRaiseTo(seat, rng.randint(menu.min_raise_to, menu.max_raise_to)))
            elif menu.can_fold and rng.random() < 0.3:
                table.apply(Fold(seat))
            else:
                table.apply(CheckOrCall(seat))
            assert (
                sum(table.stack(s) for s in table.occupied())
                + sum(table.hand.totals) * (not table.hand.is_over)
                == start
            )
        assert sum(table.stack(s) for s in table.occupied()) == start


# -- showdown -------------------------------------------------------------------------


def test_h1_all_in_runs_out_the_board_and_everyone_shows() -> None:
    h, _ = hand((300, 1000, 1000), "As 7c 2d Ah 8c 3d Kc Kd Ks 5h 6h")
    events = do(h, "2 r1000", "0 c", "1 f")
    assert [len(e.cards) for e in events if isinstance(e, BoardDealt)] == [3, 1, 1]
    assert {e.seat for e in events if isinstance(e, CardsShown)} == {0, 2}
    assert h.is_over


def test_h2_the_last_aggressor_shows_first() -> None:
    h, _ = hand((1000, 1000, 1000), "As 7c 2d Ah 8c 3d Kc Kd Ks 5h 6h")
    events = do(
        h,
        "2 c",
        "0 c",
        "1 c",
        "0 c",
        "1 c",
        "2 c",
        "0 c",
        "1 c",
        "2 c",
        "0 c",
        "1 r100",
        "2 c",
        "0 c",
    )
    shown = [e.seat for e in events if isinstance(e, CardsShown | CardsMucked)]
    assert shown[0] == 1


def test_h2_with_no_bet_the_first_player_left_of_the_button_shows_first() -> None:
    h, _ = hand((1000, 1000, 1000), "As 7c 2d Ah 8c 3d Kc Kd Ks 5h 6h")
    events = do(h, "2 c", "0 c", "1 c", *(["0 c", "1 c", "2 c"] * 3))
    shown = [e.seat for e in events if isinstance(e, CardsShown | CardsMucked)]
    assert shown == [0, 1, 2]


def test_h3_a_hand_that_cannot_win_is_mucked_unseen() -> None:
    # Seat 0 shows aces; seat 1 (sevens-eights, no pair) mucks; seat 2's kings... set on board.
    h, _ = hand((1000, 1000, 1000), "As 7c 2d Ah 8c 3d Kc Qd Js 5h 4h")
    events = do(h, "2 c", "0 c", "1 c", *(["0 c", "1 c", "2 c"] * 3))
    assert CardsMucked(seat=1) in events and CardsMucked(seat=2) in events
    assert [e.seat for e in events if isinstance(e, CardsShown)] == [0]
    assert 1 not in h.shown and 2 not in h.shown


def test_h4_cards_speak_when_the_board_plays_the_pot_is_split() -> None:
    h, _ = hand((1000, 1000), "2c 3c 2d 3d As Ks Qs Js Ts")
    events = do(h, "1 c", "0 c", *(["0 c", "1 c"] * 3))
    award = next(e for e in events if isinstance(e, PotAwarded))
    assert award.shares == ((0, 100), (1, 100)) and award.description == "Royal Flush"


# -- the exact menu, views --------------------------------------------------------------


def test_an_illegal_action_leaves_the_table_untouched() -> None:
    table = make_table({0: 1000, 1: 1000, 2: 1000})
    table.start_hand(Deck.shuffled(random.Random(5)))
    before = table.view(0)
    for bad in (Fold(1), BetOrRaiseTo(0, 150), BetOrRaiseTo(0, 5000), CheckOrCall(2)):
        with pytest.raises(IllegalActionError):
            table.apply(bad)
    assert table.view(0) == before


def test_a_seat_sees_only_its_own_hole_cards_and_a_spectator_none() -> None:
    table = make_table({0: 1000, 1: 1000, 2: 1000})
    table.start_hand(Deck.shuffled(random.Random(5)))
    view = table.view(1)
    assert [s.cards is not None for s in view.seats] == [False, True, False]
    assert all(s.cards is None and s.has_cards for s in table.public_view().seats)
    assert view.legal is None and table.view(0).legal is not None


def test_shown_cards_become_public_and_mucked_cards_stay_hidden() -> None:
    table = make_table({0: 1000, 1: 1000, 2: 1000})
    table.start_hand(Deck.from_cards("As 7c 2d Ah 8c 3d Kc Qd Js 5h 4h"))
    for _ in range(3):
        table.apply(CheckOrCall(table.to_act))  # type: ignore[arg-type]
    for _ in range(9):
        table.apply(CheckOrCall(table.to_act))  # type: ignore[arg-type]
    public = {s.seat: s.cards for s in table.public_view().seats}
    assert public[1] is not None and str(public[1][0]) == "As"
    assert public[2] is None and public[0] is None


# -- regressions found in review ---------------------------------------------------------


def test_p1_a_posting_newcomer_does_not_move_where_preflop_action_starts() -> None:
    table = make_table(dict.fromkeys(range(5), 1000))
    table.start_hand(Deck.shuffled(random.Random(1)))  # button 0, small blind 1, big blind 2
    fold_around(table)
    table.sit_down(5, 1000, wait_for_big_blind=False)
    events = table.start_hand(Deck.shuffled(random.Random(2)))  # big blind seat 3
    assert posts(events)[5] == [("big_blind", 100)]
    assert table.to_act == 4  # left of the real big blind, not of the newcomer


def test_b3_heads_up_with_equal_blinds_the_button_still_acts_first() -> None:
    table = Table(TableConfig(small_blind=100, big_blind=100, seats=6, min_buy_in=10))
    table.sit_down(0, 1000)
    table.sit_down(1, 1000)
    table.start_hand(Deck.shuffled(random.Random(1)))
    assert table.button == 0 and table.to_act == 0


def test_p1_sitting_out_and_in_does_not_skip_waiting_for_the_big_blind() -> None:
    table = make_table(dict.fromkeys(range(4), 1000))
    table.start_hand(Deck.shuffled(random.Random(1)))  # big blind seat 2
    fold_around(table)
    table.sit_down(5, 1000)
    table.sit_out(5)
    table.sit_in(5)
    events = table.start_hand(Deck.shuffled(random.Random(2)))  # big blind seat 3
    assert 5 not in started(events).seats


def test_b5_a_table_of_waiting_newcomers_still_deals() -> None:
    table = make_table({0: 1000, 1: 1000, 2: 1000})
    table.start_hand(Deck.shuffled(random.Random(1)))  # big blind seat 2
    fold_around(table)
    table.stand_up(1)
    table.stand_up(2)
    table.sit_down(1, 1000)  # a newcomer who would wait for the big blind
    events = table.start_hand(Deck.shuffled(random.Random(2)))
    assert set(started(events).seats) == {0, 1}


def test_a_new_occupant_never_sees_the_previous_players_cards() -> None:
    table = make_table({0: 1000, 1: 1000, 2: 1000})
    table.start_hand(Deck.shuffled(random.Random(1)))
    table.apply(Fold(0))
    table.apply(Fold(1))  # nothing shown
    table.stand_up(0)
    table.sit_down(0, 1000)
    seat = table.view(0).seats[0]
    assert seat.cards is None and not seat.in_hand and seat.hand_total == 0


def test_b2_dead_button_out_of_heads_up_puts_the_button_before_the_blinds() -> None:
    table = make_table({0: 1000, 2: 1000}, button_rule=ButtonRule.DEAD)
    table.start_hand(Deck.shuffled(random.Random(1)))  # heads-up: button 0, big blind 2
    fold_around(table)
    table.sit_down(1, 1000, wait_for_big_blind=False)
    events = table.start_hand(Deck.shuffled(random.Random(2)))
    button = started(events).button
    blinds = posts(events)
    big = next(s for s, p in blinds.items() if ("big_blind", 100) in p and s != 1)
    assert button not in (big, next(s for s, p in blinds.items() if ("small_blind", 50) in p))
