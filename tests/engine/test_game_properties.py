"""Properties of every game's hands, on random tables, stacks, decks and legal actions:
chips are conserved after every action, one player at a time acts, and the menu is
exactly what the hand accepts (a rejected action changes nothing)."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Action, ActionMenu, BetOrRaiseTo, BringIn, CheckOrCall, Draw, Fold
from engine.cards import Card
from engine.deck import Deck
from engine.errors import IllegalActionError
from engine.games import GAMES, Game, game
from engine.hand import Hand, HandSetup

KEYS = [*GAMES, "5cd-bug", "nlhe-wild", "5cd-wild2"]
STACKS = st.one_of(st.integers(1, 150), st.integers(150, 1500), st.integers(1500, 30000))


def setup_for(g: Game, n: int, stacks: tuple[int, ...], ante: int) -> HandSetup:
    """Blinds 50/100 (small and big bet 100/200) in a blind game; an ante of at least 10,
    a bring-in of 30 and bets of 100/200 otherwise."""
    if g.blinds:
        blinds = (100, 50) if n == 2 else (50, 100) + (0,) * (n - 2)
        return HandSetup(
            1, tuple(range(n)), stacks, 50, 100, blinds=blinds, antes=(ante,) * n, game=g
        )
    return HandSetup(
        1,
        tuple(range(n)),
        stacks,
        0,
        0,
        antes=(ante or 10,) * n,
        game=g,
        bring_in=30 if g.bring_in else 0,
        small_bet=100,
        big_bet=200,
    )


@st.composite
def hands(draw: st.DrawFn, key: str) -> Hand:
    g = game(key)
    n = draw(st.integers(2, min(g.max_players, 8)))
    stacks = tuple(draw(st.lists(STACKS, min_size=n, max_size=n)))
    ante = draw(st.sampled_from([0, 0, 10]))
    if g.deck.dice:
        faces = draw(st.lists(st.integers(1, 6), min_size=160, max_size=160))
        deck = Deck(tuple(Card.die(f) for f in faces))
    else:
        deck = Deck(tuple(draw(st.permutations(g.deck.cards))))
    hand = Hand(setup_for(g, n, stacks, ante), deck)
    hand.start()
    return hand


def menu_actions(hand: Hand, menu: ActionMenu) -> list[Action]:
    """Every kind of action the menu offers: raises at both ends and between, draws of
    none, one and as many cards as allowed."""
    seat = menu.seat
    if menu.can_draw:
        hole = hand.holes[hand.position[seat]]
        return [Draw(seat, hole[:k]) for k in {0, 1, menu.max_discard}]
    actions: list[Action] = []
    if menu.can_call:
        actions.append(CheckOrCall(seat))
    if menu.can_fold:
        actions.append(Fold(seat))
    if menu.can_bring_in:
        actions.append(BringIn(seat))
    if menu.can_raise:
        middle = (menu.min_raise_to + menu.max_raise_to) // 2
        actions += [BetOrRaiseTo(seat, a) for a in {menu.min_raise_to, middle, menu.max_raise_to}]
    return actions


def just_outside(hand: Hand, menu: ActionMenu) -> list[Action]:
    """Actions the menu does not offer: the wrong seat, the wrong kind, the wrong size."""
    seat, other = menu.seat, hand.seats[(hand.position[menu.seat] + 1) % hand.n]
    outside: list[Action] = [CheckOrCall(other), Fold(other), Draw(other)]
    if not menu.can_fold:
        outside.append(Fold(seat))
    if not menu.can_call:
        outside.append(CheckOrCall(seat))
    if not menu.can_bring_in:
        outside.append(BringIn(seat))
    if not menu.can_draw:
        outside.append(Draw(seat))
    else:
        hole = hand.holes[hand.position[seat]]
        every = [Card.die(f) for f in range(1, 7)] if hand.game.deck.dice else hand.deck.cards
        stranger = next(c for c in every if c not in hole)  # five dice miss a face
        outside.append(Draw(seat, (stranger,)))
    if menu.can_raise:
        if menu.min_raise_to > 1:
            outside.append(BetOrRaiseTo(seat, menu.min_raise_to - 1))
        outside.append(BetOrRaiseTo(seat, menu.max_raise_to + 1))
    else:
        outside.append(BetOrRaiseTo(seat, menu.call + 100))
    return outside


def state(hand: Hand) -> tuple[object, ...]:
    return (
        list(hand.stacks), list(hand.bets), list(hand.totals), list(hand.folded),
        list(hand.all_in), list(hand.acted), hand.to_act, hand.current_bet, hand.last_raise,
        hand.full_level, hand.raises, hand.street_index, list(hand.board), list(hand.holes),
        hand.drawing, hand.bring_in_due, len(hand.log), hand.is_over,
    )  # fmt: skip


def conserved(hand: Hand) -> bool:
    start = sum(hand.setup.stacks)
    if hand.is_over:
        return sum(hand.stacks) == start
    return sum(hand.stacks) + sum(hand.totals) == start


@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_chips_are_conserved_after_every_action(key: str, data: st.DataObject) -> None:
    hand = data.draw(hands(key))
    assert conserved(hand)
    while not hand.is_over:
        menu = hand.legal_actions(hand.to_act)
        assert menu is not None
        hand.apply(data.draw(st.sampled_from(menu_actions(hand, menu))))
        assert conserved(hand)
        assert all(s >= 0 for s in hand.stacks)


@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_one_player_at_a_time_acts_until_the_hand_is_over(key: str, data: st.DataObject) -> None:
    hand = data.draw(hands(key))
    while True:
        offered = [p for p in range(hand.n) if hand.legal_actions(p) is not None]
        if hand.is_over:
            assert offered == [] and hand.seat_to_act is None
            return
        assert offered == [hand.to_act]
        p = hand.to_act
        assert not hand.folded[p]
        assert hand.drawing or not hand.all_in[p]  # players all in still draw
        menu = hand.legal_actions(p)
        assert menu is not None
        hand.apply(data.draw(st.sampled_from(menu_actions(hand, menu))))


@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_the_menu_is_exactly_what_apply_accepts(key: str, data: st.DataObject) -> None:
    hand = data.draw(hands(key))
    while not hand.is_over:
        menu = hand.legal_actions(hand.to_act)
        assert menu is not None
        for action in menu_actions(hand, menu):
            assert menu.allows(action)
            copy.deepcopy(hand).apply(action)  # accepted: no exception
        before = state(hand)
        for action in just_outside(hand, menu):
            try:
                hand.apply(action)
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"{action!r} outside the menu was accepted")
            assert state(hand) == before, f"a rejected {action!r} changed the hand"
        hand.apply(data.draw(st.sampled_from(menu_actions(hand, menu))))
