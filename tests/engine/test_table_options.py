"""Game-neutral table options (docs/rules.md, "Table options"): straddles.

Each option is played through :class:`engine.Table`, recorded in the hand's events and
PHH, and replays from its PHH to the same events; chips are conserved with it on in
every game that can have it (a Hypothesis property over games, stacks and decks), and
pokerkit plays the same hands where it can.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import Mode, NoLimitTexasHoldem

from engine import (
    AnteKind,
    BetOrRaiseTo,
    CheckOrCall,
    Deck,
    Draw,
    Fold,
    ForcedBetPosted,
    Hand,
    HandSetup,
    IllegalActionError,
    InvalidConfigError,
    Table,
    TableConfig,
    game,
    history,
)
from engine.games import GAMES
from tests.engine.pokerkit_driver import (
    AUTOMATIONS,
    REOPENS_AFTER_SHORT_ALL_IN,
    Duo,
    Tally,
    menu_disagreement,
    pokerkit_odd_chips,
    random_action,
)
from tests.helpers import play_out

STRADDLE_GAMES = [k for k, g in GAMES.items() if g.straddles]


def table_of(key: str = "nlhe", players: int = 4, stack: int = 10_000, **options: object) -> Table:
    g = game(key)
    config = TableConfig(game=g, small_blind=50, big_blind=100, seats=6, **options)  # type: ignore[arg-type]
    table = Table(config)
    for seat in range(players):
        table.sit_down(seat, stack)
    return table


def forced(events: Sequence[object]) -> list[tuple[int, str, int]]:
    return [(e.seat, e.kind, e.increment) for e in events if isinstance(e, ForcedBetPosted)]


def deck(seed: int = 1, key: str = "nlhe") -> Deck:
    return Deck.shuffled(random.Random(seed), game(key).deck)


# -- O1: the straddle under the gun ------------------------------------------------------


def test_o1_under_the_gun_straddles_twice_the_big_blind_and_acts_last() -> None:
    table = table_of()
    table.set_straddle(3)
    events = table.start_hand(deck())
    assert forced(events) == [(1, "small_blind", 50), (2, "big_blind", 100), (3, "straddle", 200)]
    order = []
    while table.to_act != 3:
        seat = table.to_act
        assert seat is not None
        menu = table.legal_actions(seat)
        assert menu is not None and menu.call == 200 - {1: 50, 2: 100}.get(seat, 0)
        order.append(seat)
        table.apply(CheckOrCall(seat))
    assert order == [0, 1, 2]
    # Everyone called: the straddle's option, as the big blind's (B6).
    menu = table.legal_actions(3)
    assert menu is not None and menu.can_check and menu.can_raise


def test_o1_the_minimum_raise_over_a_straddle_is_to_twice_the_straddle() -> None:
    table = table_of()
    table.set_straddle(3)
    table.start_hand(deck())
    menu = table.legal_actions(0)
    assert menu is not None and (menu.call, menu.min_raise_to) == (200, 400)
    with pytest.raises(IllegalActionError, match="outside 400"):
        table.apply(BetOrRaiseTo(0, 399))
    table.apply(BetOrRaiseTo(0, 700))  # a raise of 500: the next is to 1200
    menu = table.legal_actions(1)
    assert menu is not None and menu.min_raise_to == 1200


def test_o1_after_the_flop_a_straddle_hand_bets_as_any_other() -> None:
    table = table_of()
    table.set_straddle(3)
    table.start_hand(deck())
    while table.hand is not None and int(table.hand.street) == 0:
        seat = table.to_act
        assert seat is not None
        table.apply(CheckOrCall(seat))
    seat = table.to_act
    assert seat == 1  # the first player left of the button
    menu = table.legal_actions(seat)
    assert menu is not None and menu.min_raise_to == 100


def test_o1_the_choice_stands_until_changed_and_moves_with_nobody() -> None:
    table = table_of()
    table.set_straddle(0)
    kinds = []
    rng = random.Random(2)
    for _ in range(4):
        events = table.start_hand(deck(rng.randrange(1000)))
        kinds.append(forced(events))
        play_out(table, rng, fold_share=0.9, raise_share=0)
    # Four players: seat 0 is under the gun in the second hand (button 1, blinds 2 and 3).
    straddles = [[s for s, k, _ in hand if k == "straddle"] for hand in kinds]
    assert straddles == [[], [0], [], []]
    table.set_straddle(0, False)
    assert all(not v.straddle for v in table.view(None).seats)


def test_o1_a_short_straddle_posts_what_it_has_and_callers_owe_the_whole_straddle() -> None:
    """F3 for a straddle: the poster is all in for less, callers still owe 200 and the
    minimum raise stays to 400 (Robert's Rules, "Button and Blind Use" 1)."""
    table = table_of(players=3)
    table.sit_down(3, 4_000)
    table.set_straddle(3)
    table.set_stakes(50, 100)
    # Bring seat 3's stack down: a hand where 3 is not under the gun and folds nothing...
    hand = Hand(
        HandSetup(
            1, (1, 2, 3, 0), (10_000, 10_000, 150, 10_000), 50, 100,
            blinds=(50, 100, 200, 0), big_blind_position=2, straddle=200,
        ),
        deck(),
    )  # fmt: skip
    events = hand.start()
    assert forced(events)[-1] == (3, "straddle", 150)
    menu = hand.legal_actions(3)
    assert menu is not None and (menu.call, menu.min_raise_to) == (200, 400)
    hand.apply(CheckOrCall(0))
    hand.apply(Fold(1))
    hand.apply(Fold(2))
    # The 50 nobody matched goes back; seat 0 and the straddle play for the rest.
    assert hand.is_over and sum(hand.stacks) == 30_150


def test_o1_heads_up_there_is_no_straddle() -> None:
    table = table_of(players=2)
    table.set_straddle(0)
    table.set_straddle(1)
    assert all(k != "straddle" for _, k, _ in forced(table.start_hand(deck())))


def test_o1_a_player_posting_to_come_in_does_not_straddle() -> None:
    table = table_of(players=3)
    rng = random.Random(3)
    table.start_hand(deck())
    play_out(table, rng, fold_share=0.9, raise_share=0)
    table.sit_down(3, 10_000, wait_for_big_blind=False)  # under the gun next hand, posting
    table.set_straddle(3)
    events = table.start_hand(deck(2))
    assert (3, "big_blind", 100) in forced(events)
    assert all(k != "straddle" for _, k, _ in forced(events))


@pytest.mark.parametrize("key", ["stud", "razz", "flhe", "flo8", "27td", "kuhn", "leduc"])
def test_o1_a_game_without_straddles_refuses_them(key: str) -> None:
    g = game(key)
    with pytest.raises(InvalidConfigError, match="no straddle"):
        TableConfig(game=g, small_blind=50 if g.blinds else 0, big_blind=100 if g.blinds else 0,
                    small_bet=100, seats=2, button_straddle=True)  # fmt: skip
    config = TableConfig(
        game=g, small_blind=50 if g.blinds else 0, big_blind=100 if g.blinds else 0,
        small_bet=100, seats=2, ante=10 if not g.blinds else 0,
        ante_kind=AnteKind.NONE if g.blinds else AnteKind.PER_PLAYER,
        bring_in=30 if g.bring_in else 0,
    )  # fmt: skip
    table = Table(config)
    table.sit_down(0, 10_000)
    with pytest.raises(IllegalActionError, match="has no straddle"):
        table.set_straddle(0)
    table.set_straddle(0, False)  # opting out is always fine


def test_o1_a_hand_setup_checks_its_straddle() -> None:
    with pytest.raises(InvalidConfigError, match="no straddle"):
        HandSetup(1, (0, 1, 2), (100, 100, 100), 0, 0, antes=(1, 1, 1), small_bet=2,
                  big_blind_position=0, straddle=4, game=game("stud"), bring_in=1)  # fmt: skip
    with pytest.raises(InvalidConfigError, match="big_blind_position"):
        HandSetup(1, (0, 1, 2), (100, 100, 100), 1, 2, blinds=(1, 2, 4), straddle=4)


# -- O2: the button straddle -------------------------------------------------------------


def test_o2_the_button_straddles_only_where_the_table_allows_it() -> None:
    table = table_of()
    table.set_straddle(0)  # the button in the first hand
    assert all(k != "straddle" for _, k, _ in forced(table.start_hand(deck())))
    table = table_of(button_straddle=True)
    table.set_straddle(0)
    events = table.start_hand(deck())
    assert forced(events)[-1] == (0, "straddle", 200)
    # The small blind acts first preflop, the button last.
    order = []
    while table.to_act != 0:
        seat = table.to_act
        assert seat is not None
        order.append(seat)
        table.apply(CheckOrCall(seat))
    assert order == [1, 2, 3]
    menu = table.legal_actions(0)
    assert menu is not None and menu.can_check


def test_o2_under_the_gun_straddles_first() -> None:
    table = table_of(button_straddle=True)
    table.set_straddle(0)
    table.set_straddle(3)
    events = table.start_hand(deck())
    assert [s for s, k, _ in forced(events) if k == "straddle"] == [3]
    assert table.to_act == 0


# -- PLO and the other big-bet games -----------------------------------------------------


def test_o1_pot_limit_counts_the_straddle_in_the_pot() -> None:
    table = table_of("plo")
    table.set_straddle(3)
    table.start_hand(deck(1, "plo"))
    menu = table.legal_actions(0)
    # Call 200, then raise the pot: 50 + 100 + 200 + 200 = 550, to 750.
    assert menu is not None and (menu.call, menu.min_raise_to, menu.max_raise_to) == (200, 400, 750)


@pytest.mark.parametrize("key", STRADDLE_GAMES)
def test_o1_straddle_hands_replay_from_their_phh_to_the_same_events(key: str) -> None:
    table = table_of(key, players=5, button_straddle=True)
    rng = random.Random(key)
    straddled = 0
    for _ in range(6):
        for seat in range(5):
            if seat not in table.occupied():
                table.sit_down(seat, 10_000, wait_for_big_blind=False)
            table.set_straddle(seat)
        table.start_hand(deck(rng.randrange(10_000), key))
        play_out(table, rng)
        hand = table.hand
        assert hand is not None
        straddled += hand.setup.straddle > 0
        hh = history.from_hand(hand)
        assert hh.fields.get(history.STRADDLE_FIELD) == (hand.setup.straddle or None)
        again = history.load(history.dump(hh))
        played = history.replay(again, seats=hand.seats, button=hand.setup.button)
        assert list(played.events) == [e for e in hand.log if type(e).__name__ != "PlayerStood"]
        assert history.check(again).status == "match"
    assert straddled >= 3  # a player posting to come back does not straddle


# -- chips are conserved with the options on ---------------------------------------------


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_chips_are_conserved_with_straddles_on(data: st.DataObject) -> None:
    g = game(data.draw(st.sampled_from(STRADDLE_GAMES)))
    players = data.draw(st.integers(2, 6))
    config = TableConfig(
        game=g,
        small_blind=50,
        big_blind=100,
        seats=6,
        min_buy_in=1,
        button_straddle=data.draw(st.booleans()),
    )
    table = Table(config)
    for seat in range(players):
        table.sit_down(seat, data.draw(st.integers(1, config.max_buy_in)))
        if data.draw(st.booleans()):
            table.set_straddle(seat)
    total = sum(table.stack(s) for s in table.occupied())
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    for _ in range(data.draw(st.integers(1, 4))):
        if len(table.occupied()) < 2:
            break
        table.start_hand(Deck.shuffled(rng, g.deck))
        hand = table.hand
        assert hand is not None
        while table.hand_in_progress:
            assert sum(hand.stacks) + sum(hand.totals) == total
            play_one(table, rng)
        assert sum(table.stack(s) for s in table.occupied()) == total


def play_one(table: Table, rng: random.Random) -> None:
    seat = table.to_act
    assert seat is not None
    menu = table.legal_actions(seat)
    assert menu is not None
    if menu.can_draw:
        table.apply(Draw(seat, ()))
    elif menu.can_raise and rng.random() < 0.3:
        table.apply(BetOrRaiseTo(seat, rng.choice([menu.min_raise_to, menu.max_raise_to])))
    elif menu.can_fold and rng.random() < 0.2:
        table.apply(Fold(seat))
    else:
        table.apply(CheckOrCall(seat))


# -- pokerkit plays straddles through blinds_or_straddles --------------------------------


def straddle_duo(rng: random.Random, n: int, button: bool) -> Duo:
    sb, bb = 50, 100
    stacks = [rng.choice([rng.randint(bb + 1, 8 * bb), rng.randint(8 * bb, 200 * bb)])
              for _ in range(n)]  # fmt: skip
    p = n - 1 if button else 2
    stacks[p] = max(stacks[p], 2 * bb + 1)  # pokerkit plays a short straddle otherwise (F3)
    blinds = [sb, bb] + [0] * (n - 2)
    blinds[p] = 2 * bb
    setup = HandSetup(1, tuple(range(n)), tuple(stacks), sb, bb, blinds=tuple(blinds),
                      big_blind_position=p, straddle=2 * bb)  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        state = NoLimitTexasHoldem.create_state(
            AUTOMATIONS, True, 0, tuple(blinds), bb, tuple(stacks), n, mode=Mode.CASH_GAME
        )
    return Duo(Hand(setup, Deck.shuffled(rng)), state)


@pytest.mark.parametrize(("players", "button"), [(3, False), (6, False), (9, False), (5, True)])
def test_straddle_hands_match_pokerkit_but_for_the_minimum_raise(
    players: int, button: bool
) -> None:
    """pokerkit reads a straddle in ``blinds_or_straddles`` as we do (posted, live, its
    poster last to act preflop; on the button, the small blind first) except for the
    minimum raise: pokerkit's is by the big blind (to 300 over a 200 straddle), ours by
    the straddle (to 400, O1). Our menu is compared with pokerkit's raised to ours, and
    every action taken is one both allow; the final stacks agree."""
    rng = random.Random(players * 10 + button)
    tally = Tally()
    for _ in range(100):
        duo = straddle_duo(rng, players, button)
        hand = duo.hand
        while not hand.is_over:
            ours, theirs = duo.our_menu(), duo.pk_menu()
            if int(hand.street) == 0 and theirs.can_raise:
                floor = hand.current_bet + max(hand.last_raise, hand.setup.straddle)
                if theirs.min_raise_to < floor:
                    tally.add("pokerkit_raises_by_the_big_blind")
                lifted = min(max(theirs.min_raise_to, floor), theirs.max_raise_to)
                theirs = type(theirs)(theirs.actor, theirs.can_fold, theirs.call,
                                      theirs.can_raise, lifted, theirs.max_raise_to)  # fmt: skip
            found = menu_disagreement(hand, ours, theirs)
            if found is not None:
                tally.add(found)
            duo.apply(random_action(rng, hand.to_act, ours))
        assert duo.pk_over
        assert duo.pk_stacks == pokerkit_odd_chips(hand)
        tally.add("hands")
    assert tally["pokerkit_raises_by_the_big_blind"] >= 80
    # A raise short of our straddle-sized minimum but not of pokerkit's reopens there.
    assert tally[REOPENS_AFTER_SHORT_ALL_IN] <= 30
