"""Game-neutral table options (docs/rules.md, "Table options"): straddles, bomb pots, the
double board, running it twice, the 7-2 bounty, the rabbit hunt and showing cards after
the hand.

Each option is played through :class:`engine.Table`, recorded in the hand's events and
PHH, and replays from its PHH to the same events; chips are conserved with it on in
every game that can have it (a Hypothesis property over games, stacks and decks), and
pokerkit plays the same hands where it can.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Sequence
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import Automation, Mode, NoLimitTexasHoldem, PotLimitOmahaHoldem, State

from engine import (
    AnteKind,
    BetOrRaiseTo,
    BoardDealt,
    BombPotStarted,
    BountyPaid,
    BringIn,
    CardsRevealed,
    CheckOrCall,
    Deck,
    Draw,
    Fold,
    ForcedBetPosted,
    Hand,
    HandEnded,
    HandEndedOnBoards,
    HandSetup,
    IllegalActionError,
    InvalidActionError,
    InvalidConfigError,
    PlayerStood,
    PotAwarded,
    RabbitHunted,
    RunItTwice,
    RunItTwiceAnswered,
    Street,
    Table,
    TableConfig,
    game,
    history,
    parse_cards,
)
from engine.events import board_index
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


OPTION_GAMES = sorted(set(STRADDLE_GAMES) | {k for k, g in GAMES.items() if g.bomb_pots})


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_chips_are_conserved_with_the_options_on(data: st.DataObject) -> None:
    """Every game that has an option, with random stacks, straddlers, bomb pots (one or
    two boards, every hand to every third), running it twice (random answers), the 7-2
    bounty and actions, every hand shown after it and its rabbit hunted: chips are
    conserved after every action and across hands (S3)."""
    g = game(data.draw(st.sampled_from(OPTION_GAMES)))
    players = data.draw(st.integers(2, min(6, g.max_players)))
    bombs = g.bomb_pots and data.draw(st.booleans())
    config = TableConfig(
        game=g,
        small_blind=50,
        big_blind=100,
        seats=6 if g.max_players >= 6 else g.max_players,
        min_buy_in=1,
        button_straddle=g.straddles and data.draw(st.booleans()),
        bomb_pot=data.draw(st.integers(1, 500)) if bombs else 0,
        bomb_pot_every=data.draw(st.integers(1, 3)) if bombs else 0,
        bomb_pot_boards=data.draw(st.integers(1, 2)) if bombs else 1,
        run_it_twice=g.runs_twice and data.draw(st.booleans()),
        seven_deuce=data.draw(st.integers(1, 500)) if g.seven_deuce else 0,
    )
    table = Table(config)
    for seat in range(players):
        table.sit_down(seat, data.draw(st.integers(1, config.max_buy_in)))
        if g.straddles and data.draw(st.booleans()):
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
        table.rabbit_hunt()
        for seat in hand.seats:  # the players still seated show their hands
            if seat in table.occupied() and hand.position[seat] not in hand.shown:
                table.show_cards(seat, hand.holes[hand.position[seat]])
        assert sum(table.stack(s) for s in table.occupied()) == total


def play_one(table: Table, rng: random.Random) -> None:
    seat = table.to_act
    assert seat is not None
    menu = table.legal_actions(seat)
    assert menu is not None
    if menu.run_it_twice:
        table.apply(RunItTwice(seat, rng.random() < 0.7))
    elif menu.can_draw:
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


# -- O3: the bomb pot ----------------------------------------------------------------------

BOMB_GAMES = [k for k, g in GAMES.items() if g.bomb_pots]


def test_o3_a_bomb_pot_antes_the_bomb_and_deals_the_flop_at_once() -> None:
    table = table_of(bomb_pot=300)
    table.call_bomb_pot()
    events = table.start_hand(deck())
    started = events[0]
    assert isinstance(started, BombPotStarted) and started.boards == 1
    assert forced(events) == [(s, "ante", 300) for s in (1, 2, 3, 0)]
    assert [e.street for e in events if isinstance(e, BoardDealt)] == [Street.FLOP]
    hand = table.hand
    assert hand is not None and hand.street == Street.FLOP
    assert table.to_act == 1  # the first player left of the button
    menu = table.legal_actions(1)
    assert menu is not None and menu.can_check and menu.min_raise_to == 100
    while table.hand_in_progress:
        seat = table.to_act
        assert seat is not None
        table.apply(CheckOrCall(seat))
    # The next hand is an ordinary one, the button one seat on.
    events = table.start_hand(deck(2))
    assert not isinstance(events[0], BombPotStarted)
    assert forced(events) == [(2, "small_blind", 50), (3, "big_blind", 100)]


def test_o3_a_bomb_pot_comes_every_n_hands() -> None:
    table = table_of(bomb_pot=200, bomb_pot_every=3)
    rng = random.Random(4)
    bombs = []
    for _ in range(7):
        events = table.start_hand(deck(rng.randrange(1000)))
        bombs.append(isinstance(events[0], BombPotStarted))
        play_out(table, rng, raise_share=0, fold_share=0.5)
    assert bombs == [False, False, True, False, False, True, False]


def test_o3_a_player_short_of_the_bomb_is_all_in_for_it() -> None:
    hand = Hand(
        HandSetup(1, (0, 1, 2), (150, 5000, 5000), 50, 100, antes=(300,) * 3, bomb_pot=True),
        deck(),
    )
    events = hand.start()
    assert forced(events)[0] == (0, "ante", 150)
    assert hand.all_in[0] and hand.street == Street.FLOP
    while not hand.is_over:
        hand.apply(CheckOrCall(hand.seats[hand.to_act]))
    assert sum(hand.stacks) == 10_150
    assert [p.amount for p in hand.pots()] == [450, 300]


def test_o3_everyone_all_in_on_the_bomb_runs_the_board_out_at_once() -> None:
    hand = Hand(HandSetup(1, (0, 1), (100, 300), 50, 100, antes=(300, 300), bomb_pot=True), deck())
    events = hand.start()
    assert hand.is_over and len(hand.board) == 5
    assert any(isinstance(e, PotAwarded) for e in events)
    assert sum(hand.stacks) == 400


def test_o3_a_bomb_pot_is_called_between_hands_and_only_where_the_table_has_one() -> None:
    with pytest.raises(IllegalActionError, match="no bomb pot"):
        table_of().call_bomb_pot()
    table = table_of(bomb_pot=300)
    with pytest.raises(IllegalActionError, match="1 or 2 boards"):
        table.call_bomb_pot(boards=3)
    table.start_hand(deck())
    with pytest.raises(IllegalActionError, match="between hands"):
        table.call_bomb_pot()


@pytest.mark.parametrize("key", ["stud", "razz", "27td", "5cd", "badugi", "dice", "leduc"])
def test_o3_a_game_without_a_board_after_the_first_round_refuses_bomb_pots(key: str) -> None:
    g = game(key)
    with pytest.raises(InvalidConfigError, match="no bomb pot"):
        TableConfig(
            game=g, small_blind=50 if g.blinds else 0, big_blind=100 if g.blinds else 0,
            small_bet=100, seats=2, bomb_pot=300,
        )  # fmt: skip
    with pytest.raises(InvalidConfigError, match="no bomb pot"):
        HandSetup(1, (0, 1), (1000, 1000), 0, 0, antes=(10, 10), game=g, small_bet=100,
                  bring_in=30 if g.bring_in else 0, bomb_pot=True)  # fmt: skip


def test_o3_nobody_posts_a_blind_or_straddles_in_a_bomb_pot() -> None:
    with pytest.raises(InvalidConfigError, match="nobody posts a blind"):
        HandSetup(1, (0, 1, 2), (900,) * 3, 50, 100, blinds=(50, 100, 0), bomb_pot=True)
    table = table_of(bomb_pot=300)
    table.set_straddle(3)
    table.call_bomb_pot()
    assert {k for _, k, _ in forced(table.start_hand(deck()))} == {"ante"}


# -- O4: the double-board bomb pot -----------------------------------------------------------


def test_o4_two_boards_deal_street_by_street_first_board_first() -> None:
    table = table_of(bomb_pot=300, bomb_pot_boards=2)
    table.call_bomb_pot()
    shuffled = deck(3)
    events = table.start_hand(shuffled)
    flops = [e for e in events if isinstance(e, BoardDealt)]
    n = 4
    assert [(board_index(e), e.cards) for e in flops] == [
        (0, shuffled.cards[2 * n : 2 * n + 3]),
        (1, shuffled.cards[2 * n + 3 : 2 * n + 6]),
    ]
    view = table.view(None)
    assert view.boards == (flops[0].board, flops[1].board) and view.board == flops[0].board
    while table.hand_in_progress:
        seat = table.to_act
        assert seat is not None
        table.apply(CheckOrCall(seat))
    hand = table.hand
    assert hand is not None and hand.boards is not None
    first = shuffled.cards[2 * n : 2 * n + 3]
    assert hand.boards[0] == [*first, shuffled.cards[2 * n + 6], shuffled.cards[2 * n + 8]]
    ended = hand.log[-1]
    assert isinstance(ended, HandEndedOnBoards) and ended.boards == tuple(map(tuple, hand.boards))


def odd_double_board(cards: str, key: str = "nlhe") -> Hand:
    """Three players, a bomb of 101 (a pot of 303), two boards, checked down."""
    setup = HandSetup(
        1, (0, 1, 2), (1000,) * 3, 50, 100, antes=(101,) * 3, bomb_pot=True, boards=2,
        game=game(key),
    )  # fmt: skip
    hand = Hand(setup, Deck.from_cards(cards, game(key).deck))
    hand.start()
    while not hand.is_over:
        hand.apply(CheckOrCall(hand.seats[hand.to_act]))
    return hand


def test_o4_each_board_wins_half_the_pot_and_the_first_board_the_odd_chip() -> None:
    # p0 AA wins the first board (Ks 7d 2c 9h 4s); p1 QQ the second (Qh Qd 3c 8s 5d).
    hand = odd_double_board("Ac Qs 2d Ad Qc 3d Ks 7d 2c Qh Qd 3c 9h 8s 4s 5d")
    awards = [(board_index(e), e.amount, e.shares) for e in hand.log if isinstance(e, PotAwarded)]
    assert awards == [(0, 152, ((0, 152),)), (1, 151, ((1, 151),))]
    assert hand.stacks == [899 + 152, 899 + 151, 899]


def test_o4_hi_lo_splits_each_boards_half_high_and_low() -> None:
    # PLO8, a pot of 303: board 0 gets 152 (76 high, 76 low), board 1 151 (76 and 75).
    hand = odd_double_board(
        "As Ks 9c 2c Ad Kd 9d 3c 2s Qs Td 4c 3h Qh Th 4d 7c 8d Jh 7s 8c Jd 6h 6s 5h 5s",
        "plo8",
    )
    halves = [(board_index(e), e.half, e.amount) for e in hand.log if isinstance(e, PotAwarded)]
    by_board = {b: sum(a for i, _, a in halves if i == b) for b in (0, 1)}
    assert by_board == {0: 152, 1: 151}
    assert sum(hand.stacks) == 3000
    for b in (0, 1):
        parts = [(h, a) for i, h, a in halves if i == b]
        if len(parts) == 2:  # a low qualified: the odd chip of the board's share goes high
            assert parts[0][0] == "high" and parts[0][1] - parts[1][1] in (0, 1)


def test_o4_too_many_hands_for_two_boards_deal_one() -> None:
    with pytest.raises(InvalidConfigError, match="need 55 cards"):
        HandSetup(
            1, tuple(range(9)), (1000,) * 9, 50, 100, antes=(10,) * 9, bomb_pot=True,
            boards=2, game=game("plo5"),
        )  # fmt: skip
    table = table_of("plo5", players=6, bomb_pot=100, bomb_pot_boards=2)
    config = replace(table.config, seats=9)
    table = Table(config)
    for seat in range(9):
        table.sit_down(seat, 10_000)
    table.call_bomb_pot()
    events = table.start_hand(deck(1, "plo5"))
    assert isinstance(events[0], BombPotStarted) and events[0].boards == 1


@pytest.mark.parametrize("key", BOMB_GAMES)
@pytest.mark.parametrize("boards", [1, 2])
def test_o3_o4_bomb_pots_replay_from_their_phh_to_the_same_events(key: str, boards: int) -> None:
    table = table_of(key, players=5, bomb_pot=150, bomb_pot_every=1, bomb_pot_boards=boards)
    rng = random.Random(f"{key}{boards}")
    for _ in range(4):
        for seat in range(5):
            if seat not in table.occupied():
                table.sit_down(seat, 10_000)
        table.start_hand(deck(rng.randrange(10_000), key))
        play_out(table, rng)
        hand = table.hand
        assert hand is not None and hand.setup.bomb_pot and hand.setup.boards == boards
        hh = history.from_hand(hand)
        assert hh.fields[history.BOMB_POT_FIELD] is True
        assert hh.fields.get(history.BOARDS_FIELD, 1) == boards
        again = history.load(history.dump(hh))
        played = history.replay(
            again, seats=hand.seats, button=hand.setup.button, small_blind=50
        )  # PHH records no small blind, and nobody posted one
        assert list(played.events) == [e for e in hand.log if not isinstance(e, PlayerStood)]
        assert history.check(again).status == "match"


# -- pokerkit plays double boards through starting_board_count -------------------------------


def pokerkit_board(hand: Hand, state: State, dealt: list[int]) -> None:
    """Deal pokerkit the boards our hand dealt, in our order (first board first)."""
    assert hand.boards is not None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        while state.can_deal_board():
            i = 0 if state.board_dealing_counts[0] else 1
            count = state.board_dealing_counts[i]
            cards = hand.boards[i][dealt[i] : dealt[i] + count]
            state.deal_board("".join(map(str, cards)))
            dealt[i] += count


@pytest.mark.parametrize("key", ["nlhe", "plo"])
def test_double_board_bomb_pots_match_pokerkit(key: str) -> None:
    """pokerkit's ``starting_board_count=2`` splits each pot between the boards, the odd
    chip to the first, as O4 does; its preflop round, which a bomb pot has not, is
    everyone checking. Menus agree at every decision and so do the final stacks, but
    for pokerkit's odd chips between tied hands (all to the first winner, S2). The hands
    have one pot (equal stacks, or heads-up), since pokerkit shares side pots out again
    without the hands that win nothing (S1)."""
    rng = random.Random(key)
    kind = NoLimitTexasHoldem if key == "nlhe" else PotLimitOmahaHoldem
    tally = Tally()
    for _ in range(80):
        n = rng.randint(2, 6)
        # One pot: pokerkit kills the hands that win nothing and shares the side pots out
        # again without them (S1), which with two boards moves chips between them.
        deep = rng.choice([300, 2_000, 20_000])
        stacks = tuple(rng.randint(50, 20_000) for _ in range(n)) if n == 2 else (deep,) * n
        setup = HandSetup(1, tuple(range(n)), stacks, 50, 100, antes=(200,) * n,
                          bomb_pot=True, boards=2, game=game(key))  # fmt: skip
        hand = Hand(setup, Deck.shuffled(rng))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            state = kind.create_state(
                AUTOMATIONS, False, 200, (0, 0), 100, stacks, n,
                mode=Mode.CASH_GAME, starting_board_count=2,
            )  # fmt: skip
        hand.start()
        for p in range(n):
            state.deal_hole("".join(map(str, hand.holes[p])))
        while state.actor_index is not None and state.street_index == 0:
            state.check_or_call()  # pokerkit's preflop round: nobody bets in a bomb pot
        dealt = [0, 0]
        duo = Duo.__new__(Duo)
        duo.hand, duo.state = hand, state
        while not hand.is_over:
            pokerkit_board(hand, state, dealt)
            ours = duo.our_menu()
            if (found := menu_disagreement(hand, ours, duo.pk_menu())) is not None:
                tally.add(found)
            action = random_action(rng, hand.to_act, ours)
            hand.apply(action)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)
                if isinstance(action, Fold):
                    state.fold()
                elif isinstance(action, CheckOrCall):
                    state.check_or_call()
                else:
                    assert isinstance(action, BetOrRaiseTo)
                    state.complete_bet_or_raise_to(action.amount)
        pokerkit_board(hand, state, dealt)
        assert not state.status
        ties = any(isinstance(e, PotAwarded) and len(e.shares) > 1 for e in hand.log)
        theirs = [int(x) for x in state.stacks]
        if theirs != hand.stacks:
            assert ties and sum(theirs) == sum(hand.stacks), (hand.stacks, theirs)
            tally.add("odd chips between tied hands")
        tally.add("hands")
    assert tally["odd chips between tied hands"] <= 8


# -- O5: running it twice --------------------------------------------------------------------


def all_in_preflop(table: Table) -> None:
    """Everyone raises as much as they may, or calls, until all are all in (in pot limit
    it takes a few raises)."""
    while (menu := table.legal_actions(table.to_act or 0)) is not None and not menu.run_it_twice:
        if menu.can_raise:
            table.apply(BetOrRaiseTo(menu.seat, menu.max_raise_to))
        else:
            table.apply(CheckOrCall(menu.seat))


def test_o5_everyone_all_in_is_asked_in_turn_and_two_runs_split_each_pot() -> None:
    table = table_of(players=3, run_it_twice=True)
    shuffled = deck(5)
    table.start_hand(shuffled)
    all_in_preflop(table)
    asked = []
    while table.hand_in_progress:
        seat = table.to_act
        assert seat is not None
        menu = table.legal_actions(seat)
        assert menu is not None and menu.run_it_twice and not menu.can_call
        with pytest.raises(IllegalActionError, match="run it twice"):
            table.apply(CheckOrCall(seat))
        asked.append(seat)
        table.apply(RunItTwice(seat, True))
    assert asked == [1, 2, 0]  # from the first left of the button
    hand = table.hand
    assert hand is not None and hand.boards is not None
    n = 3
    assert hand.boards == [
        list(shuffled.cards[2 * n : 2 * n + 5]),
        list(shuffled.cards[2 * n + 5 : 2 * n + 10]),
    ]
    runs = [(board_index(e), e.street) for e in hand.log if isinstance(e, BoardDealt)]
    assert runs == [(r, s) for r in (0, 1) for s in (Street.FLOP, Street.TURN, Street.RIVER)]
    awards = [e for e in hand.log if isinstance(e, PotAwarded)]
    assert sum(a.amount for a in awards if board_index(a) == 0) == 15_000
    assert sum(a.amount for a in awards if board_index(a) == 1) == 15_000


def test_o5_one_no_and_the_board_is_dealt_once() -> None:
    table = table_of(players=3, run_it_twice=True)
    table.start_hand(deck(5))
    all_in_preflop(table)
    table.apply(RunItTwice(1, True))
    events = table.apply(RunItTwice(2, False))  # seat 0 is not asked
    assert not table.hand_in_progress
    assert [type(e).__name__ for e in events][:2] == ["RunItTwiceAnswered", "CardsShown"]
    hand = table.hand
    assert hand is not None and hand.boards is None and len(hand.board) == 5
    assert all(board_index(e) == 0 for e in hand.log if isinstance(e, BoardDealt))


def test_o5_after_the_flop_the_runs_share_it() -> None:
    table = table_of(players=2, run_it_twice=True)
    table.start_hand(deck(8))
    while table.hand is not None and table.hand.street == Street.PREFLOP:
        table.apply(CheckOrCall(table.to_act or 0))
    all_in_preflop(table)  # on the flop
    while table.hand_in_progress:
        table.apply(RunItTwice(table.to_act or 0, True))
    hand = table.hand
    assert hand is not None and hand.boards is not None
    assert hand.boards[0][:3] == hand.boards[1][:3] and hand.boards[0][3:] != hand.boards[1][3:]


def test_o5_the_first_run_gets_the_odd_chip() -> None:
    # Heads-up, 201 each in: p0 (Ac Ad) wins the first run, p1 (Kc Kd) the second.
    setup = HandSetup(
        1, (0, 1), (201, 201), 50, 100, blinds=(100, 50), run_it_twice=True
    )  # heads-up: the big blind first, the button (small blind) second
    hand = Hand(
        setup,
        Deck.from_cards("Ac Kc Ad Kd 2s 7h 9c Jd 3s  Ks 8h 4c 5d 6h"),
    )
    hand.start()
    hand.apply(BetOrRaiseTo(1, 201))
    hand.apply(CheckOrCall(0))
    hand.apply(RunItTwice(0, True))
    hand.apply(RunItTwice(1, True))
    awards = [(board_index(e), e.amount, e.shares) for e in hand.log if isinstance(e, PotAwarded)]
    assert awards == [(0, 201, ((0, 201),)), (1, 201, ((1, 201),))]
    assert hand.stacks == [201, 201]


def test_o5_plo8_runs_split_high_and_low_on_each() -> None:
    table = table_of("plo8", players=3, run_it_twice=True)
    rng = random.Random(9)
    table.start_hand(deck(9, "plo8"))
    all_in_preflop(table)
    while table.hand_in_progress:
        table.apply(RunItTwice(table.to_act or 0, True))
    hand = table.hand
    assert hand is not None and sum(hand.stacks) == 30_000
    halves = {(board_index(e), e.half) for e in hand.log if isinstance(e, PotAwarded)}
    assert {b for b, _ in halves} == {0, 1} and {h for _, h in halves} <= {"high", "low"}
    del rng


def test_o5_nobody_is_asked_without_the_option_or_with_nothing_left_to_deal() -> None:
    table = table_of(players=2)
    table.start_hand(deck(5))
    all_in_preflop(table)
    assert not table.hand_in_progress
    table = table_of(players=2, run_it_twice=True)
    table.start_hand(deck(5))
    while table.hand is not None and table.hand.street != Street.RIVER:
        table.apply(CheckOrCall(table.to_act or 0))
    all_in_preflop(table)  # all in on the river: nothing left to run
    assert not table.hand_in_progress


def test_o5_an_answer_nobody_asked_for_is_refused() -> None:
    table = table_of(players=2, run_it_twice=True)
    table.start_hand(deck(5))
    with pytest.raises(IllegalActionError, match="not asked"):
        table.apply(RunItTwice(table.to_act or 0, True))
    with pytest.raises(InvalidActionError, match="agree must be a bool"):
        RunItTwice(0, 1)  # type: ignore[arg-type]


@pytest.mark.parametrize("key", ["stud", "razz", "27td", "5cd", "badugi", "dice", "kuhn"])
def test_o5_a_game_dealing_more_than_board_cards_cannot_be_run_twice(key: str) -> None:
    g = game(key)
    with pytest.raises(InvalidConfigError, match="cannot be run twice"):
        TableConfig(
            game=g, small_blind=50 if g.blinds else 0, big_blind=100 if g.blinds else 0,
            small_bet=100, seats=2, run_it_twice=True,
        )  # fmt: skip


@pytest.mark.parametrize(
    "key", [k for k, g in GAMES.items() if g.runs_twice and g.blinds and not g.fixed_limit]
)
def test_o5_hands_run_twice_or_not_replay_from_their_phh(key: str) -> None:
    table = table_of(key, players=3, run_it_twice=True)
    rng = random.Random(key)
    twice = 0
    for _ in range(6):
        for seat in range(3):
            if seat not in table.occupied():
                table.sit_down(seat, 10_000)
        table.start_hand(deck(rng.randrange(10_000), key))
        all_in_preflop(table)
        while table.hand_in_progress:
            table.apply(RunItTwice(table.to_act or 0, rng.random() < 0.8))
        hand = table.hand
        assert hand is not None
        twice += hand.boards is not None
        hh = history.from_hand(hand)
        answers = [e for e in hand.log if isinstance(e, RunItTwiceAnswered)]
        assert len(hh.fields[history.RUN_IT_TWICE_FIELD]) == len(answers)
        again = history.load(history.dump(hh))
        played = history.replay(again, seats=hand.seats, button=hand.setup.button)
        assert list(played.events) == [e for e in hand.log if not isinstance(e, PlayerStood)]
    assert twice >= 2


# -- pokerkit runs it twice through its runout count ------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_hands_run_twice_match_pokerkit(players: int) -> None:
    """pokerkit asks every player still in for a runout count once nobody can bet; with
    all choosing two it deals the rest of the board for the first run and then for the
    second, each pot split between the runs, the odd chip to the first: as O5. Equal
    stacks (one pot: see the double-board test) and random all-ins."""
    rng = random.Random(players)
    automations = tuple(a for a in AUTOMATIONS if a is not Automation.RUNOUT_COUNT_SELECTION)
    tally = Tally()
    for _ in range(60):
        stack = rng.choice([500, 5_000, 20_000])
        setup = HandSetup(1, tuple(range(players)), (stack,) * players, 50, 100,
                          blinds=(50, 100) + (0,) * (players - 2) if players > 2 else (100, 50),
                          run_it_twice=True)  # fmt: skip
        hand = Hand(setup, Deck.shuffled(rng))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            state = NoLimitTexasHoldem.create_state(
                automations, False, 0, (50, 100), 100, (stack,) * players, players,
                mode=Mode.CASH_GAME,
            )  # fmt: skip
            hand.start()
            for p in range(players):
                state.deal_hole("".join(map(str, hand.holes[p])))
            twice = True
            while not hand.is_over:
                deal_runs(hand, state)
                if hand.choosing is not None:
                    agree = rng.random() < 0.8
                    twice = twice and agree
                    hand.apply(RunItTwice(hand.seats[hand.to_act], agree))
                    continue
                menu = hand.legal_actions(hand.to_act)
                assert menu is not None
                action = random_action(rng, hand.to_act, menu)
                hand.apply(action)
                if isinstance(action, Fold):
                    state.fold()
                elif isinstance(action, CheckOrCall):
                    state.check_or_call()
                else:
                    assert isinstance(action, BetOrRaiseTo)
                    state.complete_bet_or_raise_to(action.amount)
            while any(state.runout_count_selector_statuses):
                state.select_runout_count(2 if twice and hand.runs == 2 else 1)
            deal_runs(hand, state)
        assert not state.status
        tally.add("run twice" if hand.boards is not None else "once")
        ties = any(isinstance(e, PotAwarded) and len(e.shares) > 1 for e in hand.log)
        theirs = [int(x) for x in state.stacks]
        assert theirs == hand.stacks or (ties and sum(theirs) == sum(hand.stacks))
    assert tally["run twice"] >= 5


def deal_runs(hand: Hand, state: State) -> None:
    """Deal pokerkit the runs our hand dealt: the shared board, the first run, the second."""
    dealt = [c for board in (hand.boards or [hand.board]) for c in board]
    if hand.boards is not None:
        shared = sum(a == b for a, b in zip(*hand.boards, strict=True))
        dealt = hand.boards[0] + hand.boards[1][shared:]
    while state.can_deal_board():
        done = sum(len(cards) for cards in state.board_cards)
        count = state.board_dealing_counts[0]
        state.deal_board("".join(map(str, dealt[done : done + count])))


# -- O6: the 7-2 bounty ------------------------------------------------------------------------

# Three players, button seat 0: seat 1 (first left of the button) is dealt 7h 2c, seat 2
# Kc Kd, seat 0 Qd Qs; the board 3s 4s 5s 8d 9h.
SEVEN_DEUCE = "7h Kc Qd 2c Kd Qs 3s 4s 5s 8d 9h"


def seven_deuce_table(bounty: int = 100, stacks: tuple[int, ...] = (10_000,) * 3) -> Table:
    table = table_of(players=0, seven_deuce=bounty, min_buy_in=100)
    for seat, stack in enumerate(stacks):
        table.sit_down(seat, stack)
    table.start_hand(Deck.from_cards(SEVEN_DEUCE))
    return table


def test_o6_winning_uncontested_with_7_2_and_showing_it_collects_the_bounty() -> None:
    table = seven_deuce_table()
    table.apply(Fold(0))
    table.apply(BetOrRaiseTo(1, 300))
    table.apply(Fold(2))
    assert [table.stack(s) for s in (0, 1, 2)] == [10_000, 10_100, 9_900]
    events = table.show_cards(1, parse_cards("7h 2c"))
    assert events == [
        CardsRevealed(1, parse_cards("7h 2c")),
        BountyPaid(1, 100, ((2, 100), (0, 100)), 200, 10_300),
    ]
    assert [table.stack(s) for s in (0, 1, 2)] == [9_900, 10_300, 9_800]
    view = table.view(None)
    assert view.seats[1].shown_cards == parse_cards("7h 2c") and view.seats[1].cards is None
    with pytest.raises(IllegalActionError, match="has shown '7h' already"):
        table.show_cards(1, parse_cards("7h"))


def test_o6_both_cards_must_be_shown_one_then_the_other_will_do() -> None:
    table = seven_deuce_table()
    table.apply(Fold(0))
    table.apply(BetOrRaiseTo(1, 300))
    table.apply(Fold(2))
    assert table.show_cards(1, parse_cards("2c")) == [CardsRevealed(1, parse_cards("2c"))]
    events = table.show_cards(1, parse_cards("7h"))
    assert isinstance(events[-1], BountyPaid) and events[-1].amount == 200


def test_o6_winning_at_showdown_pays_the_bounty_with_the_hand() -> None:
    # The board 7s 2s 2d 9h 4h: seat 1's 7h 2c is a full house, deuces full of sevens.
    table = table_of(players=3, seven_deuce=100)
    table.start_hand(Deck.from_cards("7h Kc Qd 2c Kd Qs 7s 2s 2d 9h 4h"))
    while table.hand_in_progress:
        table.apply(CheckOrCall(table.to_act or 0))
    hand = table.hand
    assert hand is not None
    paid = [e for e in hand.log if isinstance(e, BountyPaid)]
    assert paid == [BountyPaid(1, 100, ((2, 100), (0, 100)), 200, 10_400)]
    ended = [e for e in hand.log if isinstance(e, HandEnded)]
    assert hand.log.index(paid[0]) + 1 == hand.log.index(ended[0])  # before the end
    assert dict(ended[0].stacks) == {1: 10_400, 2: 9_800, 0: 9_800}
    assert history.check(history.from_hand(hand)).status == "match"


def test_o6_a_7_2_that_does_not_win_the_whole_hand_collects_nothing() -> None:
    table = seven_deuce_table()
    table.apply(Fold(0))
    table.apply(CheckOrCall(1))
    table.apply(BetOrRaiseTo(2, 300))
    table.apply(Fold(1))  # the 7-2 folds: seat 2 wins
    events = table.show_cards(1, parse_cards("7h 2c"))
    assert events == [CardsRevealed(1, parse_cards("7h 2c"))]


def test_o6_a_player_short_pays_what_they_have_and_busts() -> None:
    table = seven_deuce_table(bounty=500, stacks=(10_000, 10_000, 450))
    table.apply(Fold(0))
    table.apply(BetOrRaiseTo(1, 300))
    table.apply(Fold(2))  # seat 2 keeps 350 after the big blind
    events = table.show_cards(1, parse_cards("7h 2c"))
    paid = next(e for e in events if isinstance(e, BountyPaid))
    assert paid.payers == ((2, 350), (0, 500)) and paid.amount == 850
    assert PlayerStood(2, 0, "busted") in events and 2 not in table.occupied()


def test_o6_hands_with_the_bounty_replay_from_their_phh() -> None:
    table = seven_deuce_table()
    table.apply(Fold(0))
    table.apply(BetOrRaiseTo(1, 300))
    table.apply(Fold(2))
    table.show_cards(1, parse_cards("7h 2c"))
    hand = table.hand
    assert hand is not None
    hh = history.from_hand(hand)
    assert hh.fields[history.SEVEN_DEUCE_FIELD] == 100
    assert hh.fields[history.AFTER_FIELD] == ["p1 sm 7h2c"]
    assert hh.fields["finishing_stacks"] == [10_300, 9_800, 9_900]
    again = history.load(history.dump(hh))
    assert history.check(again).status == "match"
    played = history.replay(again, seats=hand.seats, button=hand.setup.button)
    assert list(played.events) == hand.log


@pytest.mark.parametrize("key", ["plo", "shortdeck", "stud", "27sd", "kuhn"])
def test_o6_only_games_of_two_hole_cards_with_sevens_and_deuces_have_the_bounty(key: str) -> None:
    g = game(key)
    with pytest.raises(InvalidConfigError, match="no 7-2 bounty"):
        TableConfig(
            game=g, small_blind=50 if g.blinds else 0, big_blind=100 if g.blinds else 0,
            small_bet=100, seats=2, seven_deuce=100,
        )  # fmt: skip


# -- O7: the rabbit hunt -----------------------------------------------------------------------


def test_o7_the_rabbit_is_the_rest_of_the_board_from_the_same_deck() -> None:
    table = seven_deuce_table()
    with pytest.raises(IllegalActionError, match="after a hand"):
        table.rabbit_hunt()
    table.apply(Fold(0))
    table.apply(CheckOrCall(1))
    table.apply(CheckOrCall(2))  # the flop: 3s 4s 5s
    table.apply(BetOrRaiseTo(1, 100))
    table.apply(Fold(2))
    hand = table.hand
    assert hand is not None and hand.rabbit_cards() == parse_cards("8d 9h")
    stacks = list(hand.stacks)
    events = table.rabbit_hunt()
    assert events == [RabbitHunted(parse_cards("8d 9h"), parse_cards("3s 4s 5s 8d 9h"))]
    assert hand.stacks == stacks and table.rabbit_hunt() == []  # once; nothing changes
    assert history.from_hand(hand).fields[history.AFTER_FIELD] == ["d rabbit 8d9h"]


def test_o7_no_rabbit_after_the_river_or_in_a_game_without_a_board() -> None:
    table = seven_deuce_table()
    while table.hand_in_progress:
        table.apply(CheckOrCall(table.to_act or 0))
    assert table.rabbit_hunt() == []
    stud = TableConfig(game=game("stud"), ante=10, ante_kind=AnteKind.PER_PLAYER, bring_in=30,
                       small_bet=100, seats=2)  # fmt: skip
    table = Table(stud)
    table.sit_down(0, 10_000)
    table.sit_down(1, 10_000)
    table.start_hand(deck(1, "stud"))
    menu = table.legal_actions(table.to_act or 0)
    assert menu is not None
    table.apply(BringIn(menu.seat))
    table.apply(Fold(table.to_act or 0))
    assert table.rabbit_hunt() == []


# -- O8: showing cards after the hand ---------------------------------------------------------


def test_o8_any_player_dealt_in_may_show_after_the_hand_not_before() -> None:
    table = seven_deuce_table(bounty=100)
    with pytest.raises(IllegalActionError, match="after a hand"):
        table.show_cards(0, parse_cards("Qd"))
    table.apply(Fold(0))
    table.apply(BetOrRaiseTo(1, 300))
    table.apply(Fold(2))
    assert table.show_cards(0, parse_cards("Qs")) == [CardsRevealed(0, parse_cards("Qs"))]
    with pytest.raises(IllegalActionError, match="does not hold"):
        table.show_cards(2, parse_cards("Qd"))
    with pytest.raises(IllegalActionError, match="cannot show"):
        table.show_cards(2, ())
    table.sit_down(3, 10_000)
    with pytest.raises(IllegalActionError, match="not dealt into"):
        table.show_cards(3, parse_cards("Qd"))
    assert [s.shown_cards for s in table.view(2).seats][:3] == [parse_cards("Qs"), (), ()]


def test_o8_a_new_hand_ends_the_showing() -> None:
    table = seven_deuce_table()
    table.apply(Fold(0))
    table.apply(BetOrRaiseTo(1, 300))
    table.apply(Fold(2))
    table.start_hand(deck(2))
    with pytest.raises(IllegalActionError, match="during one"):
        table.show_cards(1, parse_cards("7h 2c"))
