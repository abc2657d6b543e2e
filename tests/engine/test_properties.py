"""Properties of any hand, checked on random tables, stacks, decks and legal actions."""

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Action, ActionMenu, BetOrRaiseTo, CheckOrCall, Fold
from engine.cards import Card
from engine.deck import Deck
from engine.errors import IllegalActionError
from engine.hand import Hand, HandSetup

STACKS = st.one_of(st.integers(1, 150), st.integers(150, 1500), st.integers(1500, 30000))


@st.composite
def hands(draw: st.DrawFn) -> Hand:
    n = draw(st.integers(2, 9))
    stacks = tuple(draw(st.lists(STACKS, min_size=n, max_size=n)))
    ante = draw(st.sampled_from([0, 0, 10]))
    blinds = (100, 50) if n == 2 else (50, 100) + (0,) * (n - 2)
    order = draw(st.permutations(range(52)))
    hand = Hand(
        HandSetup(
            hand_number=1,
            seats=tuple(range(n)),
            stacks=stacks,
            small_blind=50,
            big_blind=100,
            blinds=blinds,
            antes=(ante,) * n,
        ),
        Deck(tuple(Card.from_code(c) for c in order)),
    )
    hand.start()
    return hand


def menu_actions(menu: ActionMenu) -> list[Action]:
    """Every kind of action the menu offers, raises at both ends and between."""
    actions: list[Action] = [CheckOrCall(menu.seat)]
    if menu.can_fold:
        actions.append(Fold(menu.seat))
    if menu.can_raise:
        middle = (menu.min_raise_to + menu.max_raise_to) // 2
        actions += [
            BetOrRaiseTo(menu.seat, a) for a in {menu.min_raise_to, middle, menu.max_raise_to}
        ]
    return actions


def just_outside(menu: ActionMenu, n: int) -> list[Action]:
    outside: list[Action] = [CheckOrCall((menu.seat + 1) % n), Fold((menu.seat + 1) % n)]
    if not menu.can_fold:
        outside.append(Fold(menu.seat))
    if menu.can_raise:
        if menu.min_raise_to > 1:
            outside.append(BetOrRaiseTo(menu.seat, menu.min_raise_to - 1))
        outside.append(BetOrRaiseTo(menu.seat, menu.max_raise_to + 1))
    else:
        outside.append(BetOrRaiseTo(menu.seat, menu.call + 100))
    return outside


def state(hand: Hand) -> tuple[object, ...]:
    return (
        list(hand.stacks), list(hand.bets), list(hand.totals), list(hand.folded),
        list(hand.all_in), list(hand.acted), hand.to_act, hand.current_bet,
        hand.last_raise, hand.street, list(hand.board), len(hand.log), hand.is_over,
    )  # fmt: skip


def conserved(hand: Hand) -> bool:
    start = sum(hand.setup.stacks)
    if hand.is_over:
        return sum(hand.stacks) == start
    return sum(hand.stacks) + sum(hand.totals) == start


@settings(max_examples=300, deadline=None)
@given(hands(), st.data())
def test_chips_are_conserved_after_every_action(hand: Hand, data: st.DataObject) -> None:
    assert conserved(hand)
    while not hand.is_over:
        menu = hand.legal_actions(hand.to_act)
        assert menu is not None
        hand.apply(data.draw(st.sampled_from(menu_actions(menu))))
        assert conserved(hand)
        assert all(s >= 0 for s in hand.stacks)


@settings(max_examples=300, deadline=None)
@given(hands(), st.data())
def test_exactly_one_seat_is_to_act_until_the_hand_is_over(hand: Hand, data: st.DataObject) -> None:
    while True:
        menus = [hand.legal_actions(p) for p in range(hand.n)]
        offered = [p for p, m in enumerate(menus) if m is not None]
        if hand.is_over:
            assert offered == [] and hand.seat_to_act is None
            return
        assert offered == [hand.to_act]
        assert not hand.folded[hand.to_act] and not hand.all_in[hand.to_act]
        menu = menus[hand.to_act]
        assert menu is not None
        hand.apply(data.draw(st.sampled_from(menu_actions(menu))))


@settings(max_examples=150, deadline=None)
@given(hands(), st.data())
def test_the_menu_is_exactly_what_apply_accepts(hand: Hand, data: st.DataObject) -> None:
    while not hand.is_over:
        menu = hand.legal_actions(hand.to_act)
        assert menu is not None
        for action in menu_actions(menu):
            copy.deepcopy(hand).apply(action)  # accepted: no exception
        before = state(hand)
        for action in just_outside(menu, hand.n):
            try:
                hand.apply(action)
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"{action!r} outside the menu was accepted")
            assert state(hand) == before, f"a rejected {action!r} changed the hand"
        hand.apply(data.draw(st.sampled_from(menu_actions(menu))))
