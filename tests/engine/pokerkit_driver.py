"""Play one hand through our engine and pokerkit side by side, with the same cards.

pokerkit (https://github.com/uoftcprg/pokerkit) is an independent implementation of the
same game. A :class:`Duo` keeps a :class:`engine.hand.Hand` and a pokerkit ``State`` in
step: both get the same hole cards and board, every action goes to both, and at every
decision the two menus (whose turn, fold, call amount, raise bounds) can be compared.

Positions agree between the two: index 0 is the first seat left of the button and the
last index the button; heads-up, index 0 is the big blind and index 1 the button, who
posts the small blind (pokerkit reverse-assigns the blinds heads-up).

pokerkit deviates from the rules in a few places (see test_vs_pokerkit.py); this module
only reports what each engine says and leaves judging to the tests.
"""

from __future__ import annotations

import random
import warnings
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from pokerkit import Automation, Mode, NoLimitTexasHoldem, State

from engine.actions import Action, ActionMenu, BetOrRaiseTo, CheckOrCall, Fold
from engine.deck import Deck
from engine.events import PotAwarded
from engine.hand import Hand, HandSetup

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
"""Everything automated except dealing: the cards are dealt by hand, ours."""


@dataclass(frozen=True, slots=True)
class Style:
    """How a random player acts: weights of fold (when facing a bet), check/call and
    bet/raise, and the share of raises that are all-in (40% are minimum raises, the rest
    anything in between)."""

    fold: float
    call: float
    raise_: float
    all_in: float


WILD = Style(fold=0.15, call=0.45, raise_=0.40, all_in=0.25)
"""All-ins and min-raises galore: side pots and short all-ins."""
CAGEY = Style(fold=0.35, call=0.50, raise_=0.15, all_in=0.03)
"""Fewer all-ins and more folds: hands won uncontested, deep betting on later streets."""


@dataclass(frozen=True, slots=True)
class Deal:
    """One hand's table: stacks by position, blinds, a uniform ante and the deck."""

    stacks: tuple[int, ...]
    small_blind: int
    big_blind: int
    ante: int
    deck: Deck
    style: Style | None = None
    """How the random players act, in random runs."""

    @property
    def n(self) -> int:
        return len(self.stacks)

    @property
    def big_blind_position(self) -> int:
        return 0 if self.n == 2 else 1

    @property
    def short_big_blind(self) -> bool:
        """Whether the big blind is all-in for less than a big blind (after the ante)."""
        return self.stacks[self.big_blind_position] - self.ante < self.big_blind

    def setup(self, hand_number: int = 1) -> HandSetup:
        n, sb, bb = self.n, self.small_blind, self.big_blind
        blinds = (bb, sb) if n == 2 else (sb, bb, *(0,) * (n - 2))
        return HandSetup(
            hand_number=hand_number,
            seats=tuple(range(n)),
            stacks=self.stacks,
            small_blind=sb,
            big_blind=bb,
            blinds=blinds,
            antes=(self.ante,) * n,
        )


@dataclass(frozen=True, slots=True)
class PkMenu:
    """pokerkit's menu, in the terms of :class:`ActionMenu`."""

    actor: int
    can_fold: bool
    call: int
    can_raise: bool
    min_raise_to: int
    max_raise_to: int


@lru_cache(maxsize=64)
def _game(small_blind: int, big_blind: int, ante: int) -> NoLimitTexasHoldem:
    return NoLimitTexasHoldem(
        AUTOMATIONS, True, ante, (small_blind, big_blind), big_blind, mode=Mode.CASH_GAME
    )


def pokerkit_state(
    stacks: tuple[int, ...],
    small_blind: int,
    big_blind: int,
    antes: int | tuple[int, ...] = 0,
    *,
    ante_trimming: bool = True,
) -> State:
    """A fresh pokerkit cash-game state, forced bets posted, no cards dealt yet."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        if isinstance(antes, int) and ante_trimming:
            return _game(small_blind, big_blind, antes)(stacks, len(stacks))
        return NoLimitTexasHoldem.create_state(
            AUTOMATIONS,
            ante_trimming,
            antes,
            (small_blind, big_blind),
            big_blind,
            stacks,
            len(stacks),
            mode=Mode.CASH_GAME,
        )


class Duo:
    """Our hand and pokerkit's state for the same hand, moved together."""

    def __init__(self, hand: Hand, state: State) -> None:
        self.hand = hand
        self.state = state
        self.board_dealt = 0
        self.pk_idle_checks = 0
        self.start_total = sum(hand.setup.stacks)
        hand.start()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            for p in range(hand.n):
                state.deal_hole("".join(str(c) for c in hand.holes[p]))
        self.sync()

    @classmethod
    def from_deal(cls, deal: Deal) -> Duo:
        return cls(
            Hand(deal.setup(), deal.deck),
            pokerkit_state(deal.stacks, deal.small_blind, deal.big_blind, deal.ante),
        )

    def sync(self) -> None:
        """Bring pokerkit to the next decision our engine is at (or to the end).

        pokerkit waits to be dealt the board cards our engine dealt by itself; deal them
        street by street. pokerkit also gives the big blind its option when everyone else
        has folded or is all-in for no more than the big blind, a decision with one
        sensible answer (check: there is nobody to raise against) that our engine skips;
        take that check for pokerkit, and count it in ``pk_idle_checks``.
        """
        hand, state = self.hand, self.state
        board = hand.deck.cards[2 * hand.n : 2 * hand.n + 5]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            while True:
                if state.can_deal_board():
                    size = 3 if self.board_dealt == 0 else 1
                    cards = board[self.board_dealt : self.board_dealt + size]
                    state.deal_board("".join(str(c) for c in cards))
                    self.board_dealt += size
                elif hand.to_act < 0 and state.actor_index is not None:
                    theirs = self.pk_menu()
                    assert theirs.call == 0 and not theirs.can_raise, (
                        f"our engine has nobody to act, pokerkit asks {theirs}"
                    )
                    state.check_or_call()
                    self.pk_idle_checks += 1
                else:
                    return

    def our_menu(self) -> ActionMenu:
        menu = self.hand.legal_actions(self.hand.to_act)
        assert menu is not None
        return menu

    def pk_menu(self) -> PkMenu:
        s = self.state
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            actor = s.actor_index
            assert actor is not None
            can_raise = s.can_complete_bet_or_raise_to()
            return PkMenu(
                actor=actor,
                can_fold=s.can_fold(),
                call=int(s.checking_or_calling_amount or 0),
                can_raise=can_raise,
                min_raise_to=int(s.min_completion_betting_or_raising_to_amount or 0),
                max_raise_to=int(s.max_completion_betting_or_raising_to_amount or 0),
            )

    def apply(self, action: Action) -> None:
        """Apply ``action`` (seat == position) to both engines."""
        self.hand.apply(action)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            if isinstance(action, Fold):
                self.state.fold()
            elif isinstance(action, CheckOrCall):
                self.state.check_or_call()
            else:
                # No-limit hold'em has no bring-in and no draw: our hand refused those above.
                assert isinstance(action, BetOrRaiseTo), action
                self.state.complete_bet_or_raise_to(action.amount)
        self.sync()
        self.check_conservation()

    def check_conservation(self) -> None:
        hand = self.hand
        if hand.is_over:
            assert sum(hand.stacks) == self.start_total
        else:
            assert sum(hand.stacks) + sum(hand.totals) == self.start_total

    @property
    def pk_over(self) -> bool:
        return not self.state.status

    @property
    def pk_stacks(self) -> list[int]:
        return [int(x) for x in self.state.stacks]


REOPENS_AFTER_SHORT_ALL_IN = "pokerkit_reopens_after_short_all_in"
"""The one menu disagreement pokerkit 0.7.7 has with our engine that the rules explain."""


def is_47a_not_reopened(hand: Hand) -> bool:
    """TDA 2024 Rule 47-A: the player to act already acted this street and the bet has
    grown since by less than a full raise, through short all-ins only, so the betting is
    not reopened for them."""
    p = hand.to_act
    return hand.acted[p] >= 0 and hand.current_bet - hand.acted[p] < hand.last_raise


def menu_disagreement(hand: Hand, ours: ActionMenu, theirs: PkMenu) -> str | None:
    """Compare the two menus at our engine's decision; return ``None`` when they agree,
    the name of an understood disagreement, or raise ``AssertionError``.

    Understood: pokerkit lets a player raise who already acted and faces only short
    all-ins since, which TDA Rule 47-A forbids.
    """
    where = f"street {hand.street} position {hand.to_act}\n ours {ours}\n pokerkit {theirs}"
    assert theirs.actor == hand.to_act, where
    assert ours.call == theirs.call, where
    if ours.call > 0:  # pokerkit's cash game also lets a player fold when checking is free
        assert ours.can_fold and theirs.can_fold, where
    if ours.can_raise and theirs.can_raise:
        assert ours.min_raise_to == theirs.min_raise_to, where
        assert ours.max_raise_to == theirs.max_raise_to, where
        return None
    if ours.can_raise == theirs.can_raise:
        return None
    assert theirs.can_raise and is_47a_not_reopened(hand), where
    return REOPENS_AFTER_SHORT_ALL_IN


def pokerkit_odd_chips(hand: Hand) -> list[int]:
    """Our final stacks as pokerkit would share out the same pots.

    pokerkit kills the hands that win nothing before pushing the chips, then merges
    neighbouring pots left with the same contenders, and gives all the odd chips of a
    pot to its first winner left of the button. By the rules each pot is split on its
    own and nobody gets more than one odd chip of a pot, as we do (Robert's Rules of
    Poker, "Ties": "No player may receive more than one odd chip" and "All side pots and
    the main pot will be split as separate pots, not mixed together").
    """
    awards = [e for e in hand.log if isinstance(e, PotAwarded)]
    stacks = list(hand.stacks)
    for award in awards:  # take back what we paid out
        for seat, share in award.shares:
            stacks[hand.position[seat]] -= share
    survivors = {hand.position[seat] for a in awards for seat, _ in a.shares}
    merged: list[tuple[tuple[int, ...], int, list[int]]] = []
    for award in awards:
        contenders = tuple(
            hand.position[s] for s in award.eligible if hand.position[s] in survivors
        )
        winners = [hand.position[seat] for seat, _ in award.shares]
        if merged and merged[-1][0] == contenders:
            assert merged[-1][2] == winners  # the same contenders, the same best hands
            merged[-1] = (contenders, merged[-1][1] + award.amount, winners)
        else:
            merged.append((contenders, award.amount, winners))
    for _, amount, winners in merged:
        share, odd = divmod(amount, len(winners))
        for w in winners:
            stacks[w] += share
        stacks[winners[0]] += odd
    return stacks


def random_action(rng: random.Random, p: int, menu: ActionMenu, style: Style = WILD) -> Action:
    """A random action from ``menu``."""
    choices: list[tuple[str, float]] = [("call", style.call)]
    if menu.can_fold:
        choices.append(("fold", style.fold))
    if menu.can_raise:
        choices.append(("raise", style.raise_))
    kind = rng.choices([c for c, _ in choices], [w for _, w in choices])[0]
    if kind == "fold":
        return Fold(p)
    if kind == "call":
        return CheckOrCall(p)
    lo, hi = menu.min_raise_to, menu.max_raise_to
    pick = rng.random()
    amount = lo if pick < 0.4 else hi if pick < 0.4 + style.all_in else rng.randint(lo, hi)
    return BetOrRaiseTo(p, amount)


_BLINDS = ((50, 100), (1, 2), (5, 10), (25, 50), (10, 25))


def random_deal(rng: random.Random, n: int) -> Deal:
    """Random blinds, sometimes an ante, and stacks from less than a big blind to deep."""
    sb, bb = rng.choice(_BLINDS)
    ante = 0 if rng.random() < 0.65 else rng.choice((1, bb // 10 or 1, bb // 4, bb // 2, bb))
    stacks = []
    for _ in range(n):
        r = rng.random()
        if r < 0.06:
            stack = rng.randint(1, bb + ante)  # a big blind or less: all-in on the forced bets
        elif r < 0.40:
            stack = rng.randint(bb + ante + 1, 8 * bb)
        elif r < 0.75:
            stack = rng.randint(8 * bb, 60 * bb)
        else:
            stack = rng.randint(60 * bb, 300 * bb)
        stacks.append(stack)
    if rng.random() < 0.3:  # equal stacks make ties between all-in amounts
        stacks[rng.randrange(n)] = stacks[rng.randrange(n)]
    style = WILD if rng.random() < 0.5 else CAGEY
    return Deal(tuple(stacks), sb, bb, ante, Deck.shuffled(rng), style)


@dataclass
class Tally:
    """What the random hands covered."""

    counts: Counter[str] = field(default_factory=Counter)

    def __getitem__(self, key: str) -> int:
        return self.counts[key]

    def add(self, key: str, k: int = 1) -> None:
        self.counts[key] += k


def play_ours_only(deal: Deal, rng: random.Random, tally: Tally) -> None:
    """A hand pokerkit plays by different rules (short big blind): ours alone, checking
    only that chips are conserved."""
    hand = Hand(deal.setup(), deal.deck)
    start = sum(deal.stacks)
    hand.start()
    while not hand.is_over:
        p = hand.to_act
        menu = hand.legal_actions(p)
        assert menu is not None
        hand.apply(random_action(rng, p, menu, deal.style or WILD))
        assert sum(hand.stacks) + (0 if hand.is_over else sum(hand.totals)) == start
    tally.add("short_big_blind_hands_ours_only")


def play_random(deal: Deal, rng: random.Random, tally: Tally) -> None:
    """Play one random hand through both engines, asserting they agree at every decision
    (but for the understood disagreements of :func:`menu_disagreement`) and on the final
    stacks (but for pokerkit's odd chips)."""
    duo = Duo.from_deal(deal)
    hand = duo.hand
    tally.add("hands")
    while not hand.is_over:
        assert not duo.pk_over, f"{deal!r}: pokerkit ended the hand before us"
        p = hand.to_act
        ours = duo.our_menu()
        try:
            disagreement = menu_disagreement(hand, ours, duo.pk_menu())
        except AssertionError as e:
            raise AssertionError(f"{deal!r}\n{e}") from None
        tally.add("decisions")
        if disagreement is not None:
            tally.add(disagreement)
        elif not ours.can_raise and hand.acted[p] >= 0 and ours.call < hand.stacks[p]:
            tally.add("not_reopened_agreed")
        action = random_action(rng, p, ours, deal.style or WILD)  # pokerkit allows it too
        if isinstance(action, BetOrRaiseTo) and action.amount == ours.max_raise_to:
            if hand.current_bet and action.amount - hand.current_bet < hand.last_raise:
                tally.add("short_all_in_raises")
            elif not hand.current_bet and action.amount < deal.big_blind:
                tally.add("short_all_in_bets")
        duo.apply(action)
    assert duo.pk_over, f"{deal!r}: we ended the hand before pokerkit"
    tally.add("pk_idle_big_blind_checks", duo.pk_idle_checks)
    # Equal stacks, but for the odd chips pokerkit shares out its own way.
    assert duo.pk_stacks == pokerkit_odd_chips(hand), (
        f"{deal!r}\n ours {hand.stacks}\n pokerkit {duo.pk_stacks}"
    )
    if hand.stacks != duo.pk_stacks:
        tally.add("pokerkit_odd_chips_differ")
    _tally_outcome(hand, tally)


def _tally_outcome(hand: Hand, tally: Tally) -> None:
    live = [q for q in range(hand.n) if not hand.folded[q]]
    tally.add("showdowns" if len(live) >= 2 else "won_uncontested")
    if hand.street == 3 and any(hand.bets):
        tally.add("river_bets")
    all_ins = [q for q in live if hand.all_in[q]]
    if all_ins:
        tally.add("hands_with_all_ins")
    if len(live) >= 3 and len(hand.pots()) >= 2 and len({hand.totals[q] for q in all_ins}) >= 2:
        tally.add("side_pots_from_different_all_ins")
    if any(isinstance(e, PotAwarded) and len(e.shares) >= 2 for e in hand.log):
        tally.add("split_pots")
