"""Random hands of every game pokerkit plays, written by pokerkit, for our replay to check.

pokerkit (https://github.com/uoftcprg/pokerkit) deals and plays each hand itself, with
every automation on, so the cards and the order they come in are its own; a random
player chooses among the actions pokerkit offers. :func:`phh_text` gives the hand as
pokerkit writes it (``HandHistory.from_game_state``), with pokerkit's finishing stacks.
For Kuhn poker and Leduc hold'em, which PHH has no variant code for, :func:`phh_text`
writes pokerkit's operations in PHH notation itself, with our ``_game`` field.

Where pokerkit breaks a rule we follow (docs/rules.md, "Where pokerkit differs"), the
random player keeps away from it, so that every hand is a fair test of what both should
agree on; test_games_vs_pokerkit.py pins each of those cases on its own:
- chips are multiples of 1,680, so any pot splits evenly among up to eight winners and
  into halves of those (no odd chip: TDA Rule 20 and pokerkit's remainder rule differ);
- fixed-limit stacks are too deep to go all in (pokerkit lacks the half-bet rule, TDA
  47-B), and the first street of a blind game stops at a bet and three raises (pokerkit
  allows a fourth);
- in no-limit and pot-limit, a bet or raise is a full one, all in or not (pokerkit
  reopens the betting differently after a short all-in, TDA 47-A), and nobody raises
  when nobody could call it (docs/rules.md W7); no blind is short (F3, TDA 54-B);
- pokerkit's "fixed-limit" Omaha hi-lo is pot-limit (a bug of 0.7.7): its player bets
  only the fixed-limit sizes;
- stud hands where two hands showing tie for the first action are marked (pokerkit
  breaks the tie by seat, TDA RP-10-D by the highest card by suit), as are hands that
  would need stud's common card (never, with seven players at most).
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pokerkit as pk

UNIT = 1680
"""Every amount is a multiple of this: pots split evenly among 1 to 8 winners, halved."""

AUTOMATIONS = (
    pk.Automation.ANTE_POSTING,
    pk.Automation.BET_COLLECTION,
    pk.Automation.BLIND_OR_STRADDLE_POSTING,
    pk.Automation.CARD_BURNING,
    pk.Automation.HOLE_DEALING,
    pk.Automation.BOARD_DEALING,
    pk.Automation.RUNOUT_COUNT_SELECTION,
    pk.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    pk.Automation.HAND_KILLING,
    pk.Automation.CHIPS_PUSHING,
    pk.Automation.CHIPS_PULLING,
)


@dataclass(frozen=True)
class Spec:
    """One pokerkit game and how to make a state of it."""

    key: str  # our preset
    kind: Callable[..., pk.Poker]  # each game's constructor takes its own arguments
    players: tuple[int, int]
    fixed: bool
    blinds: bool = True
    stud: bool = False
    low: bool = False  # razz: the low hand showing opens
    phh: bool = True


SPECS = (
    Spec("nlhe", pk.NoLimitTexasHoldem, (2, 9), fixed=False),
    Spec("flhe", pk.FixedLimitTexasHoldem, (2, 9), fixed=True),
    Spec("plo", pk.PotLimitOmahaHoldem, (2, 9), fixed=False),
    Spec("flo8", pk.FixedLimitOmahaHoldemHighLowSplitEightOrBetter, (2, 9), fixed=True),
    Spec("shortdeck", pk.NoLimitShortDeckHoldem, (2, 6), fixed=False),
    Spec("stud", pk.FixedLimitSevenCardStud, (2, 7), fixed=True, blinds=False, stud=True),
    Spec(
        "stud8",
        pk.FixedLimitSevenCardStudHighLowSplitEightOrBetter,
        (2, 7),
        fixed=True,
        blinds=False,
        stud=True,
    ),
    Spec("razz", pk.FixedLimitRazz, (2, 7), fixed=True, blinds=False, stud=True, low=True),
    Spec("27sd", pk.NoLimitDeuceToSevenLowballSingleDraw, (2, 6), fixed=False),
    Spec("27td", pk.FixedLimitDeuceToSevenLowballTripleDraw, (2, 6), fixed=True),
    Spec("badugi", pk.FixedLimitBadugi, (2, 6), fixed=True),
    Spec("kuhn", pk.KuhnPoker, (2, 2), fixed=True, blinds=False, phh=False),
    Spec("leduc", pk.LeducHoldem, (2, 2), fixed=True, blinds=False, phh=False),
)
BY_KEY = {s.key: s for s in SPECS}


@dataclass
class Dealt:
    """One random hand pokerkit played."""

    spec: Spec
    state: Any
    game: Any
    stacks: list[int]
    showing_tie: bool  # stud: two hands showing tied for the first action


def new_hand(spec: Spec, rng: random.Random) -> Dealt:
    """A random table of ``spec``'s game, played to the end by random players."""
    n = rng.randint(*spec.players)
    u = UNIT
    game: pk.Poker
    if spec.key == "kuhn":
        game = pk.KuhnPoker(AUTOMATIONS, True, u, u)
        stacks = [2 * u] * n
    elif spec.key == "leduc":
        game = pk.LeducHoldem(AUTOMATIONS, True, u, 2 * u, 4 * u)
        stacks = [13 * u] * n
    elif spec.stud:
        game = spec.kind(AUTOMATIONS, True, u, u, 2 * u, 4 * u)
        stacks = [rng.randint(200, 400) * u for _ in range(n)]
    elif spec.fixed:
        game = spec.kind(AUTOMATIONS, True, 0, (u, 2 * u), 2 * u, 4 * u)
        stacks = [rng.randint(200, 400) * u for _ in range(n)]
    else:
        antes = rng.choice((0, 0, u))
        game = spec.kind(AUTOMATIONS, True, antes, (u, 2 * u), 2 * u)
        # Short stacks after the blinds: an all-in call for no more than the big blind
        # leaves nobody to bet against (docs/rules.md W7); the blinds themselves are
        # never short (F3).
        stacks = [
            rng.randint(1, 3) * u + antes
            if p >= 2 and rng.random() < 0.15
            else rng.randint(4, 120) * u
            for p in range(n)
        ]
    # pokerkit shuffles with the random module's own generator: seed it from ours, so a
    # hand is the same every run, and put it back after.
    saved = random.getstate()
    random.seed(rng.getrandbits(64))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pokerkit warns when it reshuffles discards
            state = game(stacks, n)
            tie = _play(spec, state, rng)
    finally:
        random.setstate(saved)
    return Dealt(spec, state, game, stacks, tie)


def _play(spec: Spec, state: Any, rng: random.Random) -> bool:
    tie = False
    street = -1
    while state.status:
        if state.stand_patter_or_discarder_index is not None:
            p = state.stand_patter_or_discarder_index
            hole = list(state.hole_cards[p])
            state.stand_pat_or_discard(rng.sample(hole, rng.randint(0, len(hole))))
            continue
        if state.actor_index is None:
            raise AssertionError(f"pokerkit waits for nothing we do: {state}")
        if spec.stud and state.street_index != street:
            street = state.street_index
            tie = tie or (street > 0 and _showing_tie(state, low=spec.low))
        _act(spec, state, rng)
    return tie


def _act(spec: Spec, state: Any, rng: random.Random) -> None:
    choices: list[tuple[float, Any]] = []
    if state.can_fold():
        choices.append((0.2, state.fold))
    if state.can_check_or_call():
        choices.append((0.5, state.check_or_call))
    if state.can_post_bring_in():
        choices.append((0.5, state.post_bring_in))
    amount = _raise_to(spec, state, rng)
    if amount is not None:
        choices.append((0.35, lambda: state.complete_bet_or_raise_to(amount)))
    total = sum(w for w, _ in choices)
    pick = rng.random() * total
    for weight, action in choices:
        pick -= weight
        if pick <= 0:
            action()
            return
    choices[-1][1]()


def _raise_to(spec: Spec, state: Any, rng: random.Random) -> int | None:
    """A bet or raise both pokerkit and our rules allow, or None."""
    if not state.can_complete_bet_or_raise_to():
        return None
    low = state.min_completion_betting_or_raising_to_amount
    high = state.max_completion_betting_or_raising_to_amount
    p = state.actor_index
    if spec.fixed:
        first_blind_street = spec.blinds and state.street_index == 0
        cap = 3 if first_blind_street else 4  # the big blind is the first bet (Robert's Rules)
        if spec.key in ("kuhn", "leduc"):
            cap = 1 if spec.key == "kuhn" else 2
        if state.completion_betting_or_raising_count >= cap:
            return None
        return int(low)  # the fixed size (pokerkit's "fixed-limit" O8 is pot-limit)
    # No-limit and pot-limit: full raises only, all in or not, and only when someone
    # could call more.
    current = max(state.bets)
    full = current + max(
        state.completion_betting_or_raising_amount,
        state.street.min_completion_betting_or_raising_amount,
    )
    others = [
        q for q in range(len(state.stacks)) if q != p and state.statuses[q] and state.stacks[q] > 0
    ]
    if not any(state.bets[q] + state.stacks[q] > current for q in others):
        return None
    all_in = state.bets[p] + state.stacks[p]
    if all_in < full or low < full:
        return None
    top = min(high, all_in)
    steps = (top - low) // UNIT
    amount = low + UNIT * rng.choice((0, 0, steps, rng.randint(0, steps)))
    if amount % UNIT:
        return None
    return int(amount)


def _showing_tie(state: Any, *, low: bool) -> bool:
    """Whether the best hands showing at the start of a stud street tie."""
    from engine.cards import Card
    from engine.ranking import showing_high, showing_low

    rank = showing_low if low else showing_high
    values = []
    for p in range(len(state.stacks)):
        if not state.statuses[p]:
            continue
        up = [
            Card.parse(repr(c)).code
            for c, face_up in zip(state.hole_cards[p], state.hole_card_statuses[p], strict=True)
            if face_up
        ]
        values.append(rank(up))
    return values.count(max(values)) > 1


def phh_text(dealt: Dealt) -> str:
    """The hand in PHH as pokerkit writes it, with its finishing stacks."""
    state = dealt.state
    if dealt.spec.phh:
        hh = pk.HandHistory.from_game_state(dealt.game, state)
        hh.finishing_stacks = list(state.stacks)
        return str(hh.dumps())
    return _our_notation(dealt)


def _our_notation(dealt: Dealt) -> str:
    """Kuhn and Leduc: pokerkit's operations in PHH notation, by hand."""
    state = dealt.state
    actions: list[str] = []
    for op in state.operations:
        name = type(op).__name__
        if name == "HoleDealing":
            actions.append(f"d dh p{op.player_index + 1} {''.join(map(repr, op.cards))}")
        elif name == "BoardDealing":
            actions.append(f"d db {''.join(map(repr, op.cards))}")
        elif name == "Folding":
            actions.append(f"p{op.player_index + 1} f")
        elif name == "CheckingOrCalling":
            actions.append(f"p{op.player_index + 1} cc")
        elif name == "CompletionBettingOrRaisingTo":
            actions.append(f"p{op.player_index + 1} cbr {op.amount}")
    n = len(dealt.stacks)
    u = UNIT
    lines = [
        f'variant = "{dealt.spec.key.upper()}"',
        f'_game = "{dealt.spec.key}"',
        f"antes = {[u] * n}",
        f"small_bet = {u if dealt.spec.key == 'kuhn' else 2 * u}",
        f"big_bet = {u if dealt.spec.key == 'kuhn' else 4 * u}",
        f"starting_stacks = {dealt.stacks}",
        f"actions = {actions!r}".replace("'", '"'),
        f"finishing_stacks = {list(state.stacks)}",
    ]
    return "\n".join(lines) + "\n"
