"""AIVAT's chance terms: each player's result with the luck of every card dealt taken out.

AIVAT (Burch, Schmid, Moravčík, Morrill, Bowling, "AIVAT: A New Variance Reduction
Technique for Agent Evaluation in Imperfect Information Games", AAAI 2018) adds to a
player's result, at each chance event and each decision, the value expected there minus
the value of what happened, against a value function. This module builds its **chance
terms** alone (docs/statistics.md, "AIVAT's chance terms"): the action terms need each
player's action probabilities, which our house bots do not expose.

The value function is the check-down value: with every live player's hole cards known
(the server knows them), ``V_i = Σ over pots (pot × eq_i) − invested_i``, ``eq_i`` being
player i's share of that pot if the hand were checked down from here, ties split, each
pot shared among its own eligible players, every card dealt (folded hands too) out of the
deck. The pot does not change at a deal, so the correction for a board deal ``k`` is::

    c_i,k = Σ over pots (pot × (eq_i before deal k − eq_i after deal k))

whose expectation over the cards dealt is 0 whatever the betting (the equity before is
the mean of the equities after). The hole cards' deal is corrected by symmetry: before
it, every one of the ``n`` players dealt in has the same share of the forced bets,
``1/n``, so ``c_i,0 = forced bets × (1/n − eq_i after the deal)``. The value is
``net_i + Σ_k c_i,k``.

Equities are exact (:func:`engine.equity` enumerating every board) where that is cheap
(from the flop on) and wherever the betting is over (an all-in: the same enumeration as
the all-in adjustment, so the terms after it telescope to that figure exactly); else a
Monte Carlo estimate over boards drawn from a seeded generator. Its seed comes from the
caller's ``seed`` (a hand's id: independent of the cards), so the estimate is unbiased
for the equity whatever the deal, and the terms stay unbiased. Shares are exact
:class:`Fraction`\\ s summing to 1 in each pot, so a hand's values sum to its nets' sum.

Games whose cards are not shared (stud, razz, draw) or whose hole cards are not all known
(an imported history) keep the all-in adjusted result (:attr:`LuckKind.FALLBACK`).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import TYPE_CHECKING, Final

from engine import EngineError, equity
from engine.events import (
    ActionTaken,
    BoardDealt,
    ForcedBetPosted,
    HandStarted,
    HoleCardsDealt,
    UncalledBetReturned,
)
from engine.pots import build_pots
from server.stats.hands import Adjustment, HandFacts, exact_shares, facts, ranks_in_batches

if TYPE_CHECKING:
    from engine.cards import Card
    from engine.games import Game
    from engine.hand import Hand
    from engine.history import HandHistory, Replay
    from server.export import HandInfo

__all__ = [
    "ChanceTerm",
    "Luck",
    "LuckKind",
    "luck",
    "luck_of_hand",
    "luck_of_history",
    "luck_of_info",
]

SAMPLES: Final = 10_000
"""Monte Carlo boards for an equity the batch evaluators (hold'em, Omaha high) would
enumerate too slowly (before the flop). Their noise on a share is about 0.005 (0.5 %)."""
SCALAR_SAMPLES: Final = 300
"""The same for games ranked board by board (short deck, Omaha hi-lo: about 0.15 ms an
evaluation in Python), noise about 3 %."""
EXACT_LIMIT: Final = 100_000
"""Enumerate exactly when it takes at most this many hand evaluations (hold'em from the
flop on: 990 boards heads-up)."""
SCALAR_EXACT_LIMIT: Final = 1_000
"""The same in games ranked board by board (the turn and river; short deck's flop
heads-up, 812 evaluations)."""

Pots = tuple[tuple[int, tuple[int, ...]], ...]
"""(amount, eligible positions), main pot first."""


class LuckKind(Enum):
    """How a hand's luck-adjusted values were found."""

    AIVAT = "aivat"
    """The chance terms of every deal."""
    FALLBACK = "fallback"
    """Not a board game with every hole card known: the all-in adjusted result."""


@dataclass(frozen=True)
class ChanceTerm:
    """One chance event's correction for each player (position order)."""

    chance: str
    """``"hole cards"``, or the street a board deal opens: ``"flop"``, ``"turn"``..."""
    event: int
    """Its index in the replay's events."""
    corrections: tuple[Fraction, ...]


@dataclass(frozen=True)
class Luck:
    """A hand's luck-adjusted values, each player's in position order, and their terms."""

    kind: LuckKind
    values: tuple[Fraction, ...]
    terms: tuple[ChanceTerm, ...] = ()


@dataclass(frozen=True)
class _Deal:
    """A chance event while two players or more are in the hand: the pots then, and the
    board before and after it (``before`` is None for the hole cards' deal)."""

    chance: str
    event: int
    pots: Pots
    before: tuple[Card, ...] | None
    after: tuple[Card, ...]


def luck_of_info(info: HandInfo, *, seed: int | None = None) -> tuple[HandFacts, Luck]:
    """A stored hand's facts and luck; the Monte Carlo seed is the hand's id unless
    ``seed`` is given."""
    played = info.replay()
    hand = facts(info.players, info.history, played)
    return hand, luck(info.history.game, played, hand, seed=info.hand_id if seed is None else seed)


def luck_of_history(
    hh: HandHistory, *, seed: int, players: Sequence[str] | None = None
) -> tuple[HandFacts, Luck]:
    """A PHH hand's facts (:func:`server.stats.hands.facts_of_history`) and luck."""
    from engine import history  # noqa: PLC0415  (loads the table: not at import)

    names = (
        players
        or hh.fields.get("players")
        or [f"p{i}" for i in range(1, len(hh.starting_stacks) + 1)]
    )
    played = history.replay(hh)
    hand = facts(tuple(str(n) for n in names), hh, played)
    return hand, luck(hh.game, played, hand, seed=seed)


def luck_of_hand(
    hand: Hand, players: Sequence[str], *, seed: int, budget: int | None = None
) -> tuple[HandFacts, Luck]:
    """A hand our engine played, named by ``players`` in position order (as
    :func:`server.stats.hands.facts_of_hand`, ``budget`` too), and its luck."""
    from engine import history  # noqa: PLC0415  (loads the table: not at import)

    hh = history.from_hand(hand, list(players))
    played = history.replay(hh)
    hand_facts = facts(players, hh, played, budget=budget)
    return hand_facts, luck(hh.game, played, hand_facts, seed=seed)


def luck(
    game: Game, played: Replay, hand: HandFacts, *, seed: int, samples: int | None = None
) -> Luck:
    """The luck-adjusted values of a replayed hand whose facts are ``hand``.

    ``seed`` seeds the Monte Carlo equities: give each hand its own, chosen without
    looking at its cards (its id, its number in a match). ``samples`` overrides
    :data:`SAMPLES` (or :data:`SCALAR_SAMPLES`)."""
    fallback = Luck(LuckKind.FALLBACK, tuple(p.adjusted for p in hand.players))
    found = _deals(game, played)
    if found is None:
        return fallback
    holes, deals = found
    # The equities of states after the last decision are exact: those the all-in
    # adjustment enumerated (cached), so the terms after an all-in telescope to it.
    last = max(
        (i for i, e in enumerate(played.events) if isinstance(e, ActionTaken | ForcedBetPosted)),
        default=-1,
    )
    exact = set()
    if hand.adjustment is Adjustment.ALL_IN:
        exact = {(e, d.before) for d in deals if d.event > last for _, e in d.pots}
    table = _Equities(game, holes, seed, exact, samples)
    try:
        terms = tuple(_term(d, table, len(hand.players)) for d in deals)
    except EngineError:  # a board game the equity cannot rank (dice, jokers...)
        return fallback
    values = tuple(
        Fraction(p.net) + sum((t.corrections[i] for t in terms), Fraction(0))
        for i, p in enumerate(hand.players)
    )
    return Luck(LuckKind.AIVAT, values, terms)


def _deals(game: Game, played: Replay) -> tuple[dict[int, tuple[Card, ...]], list[_Deal]] | None:
    """Every player's hole cards and the chance events to correct, or None when the hand
    is not of the hold'em family or some hole card is unknown."""
    if game.draws or game.up_cards or not game.board_cards:
        return None
    events = played.events
    n = len(next(e for e in events if isinstance(e, HandStarted)).stacks)
    put_in, live = [0] * n, [True] * n
    holes: dict[int, tuple[Card, ...]] = {}
    deals: list[_Deal] = []
    board: tuple[Card, ...] = ()
    acted = False
    for i, e in enumerate(events):
        if isinstance(e, ForcedBetPosted | ActionTaken):
            put_in[e.seat] += e.increment
            acted |= isinstance(e, ActionTaken)
            live[e.seat] &= not (isinstance(e, ActionTaken) and e.kind == "fold")
        elif isinstance(e, UncalledBetReturned):
            put_in[e.seat] -= e.amount
        elif isinstance(e, HoleCardsDealt):
            if e.cards is None or not played.known[e.seat] or acted or e.seat in holes:
                return None  # unknown, or dealt during the betting: not the hold'em family
            holes[e.seat] = e.cards
            if len(holes) == n:  # the forced bets are the pot, shared by all n
                deals.append(_Deal("hole cards", i, ((sum(put_in), tuple(range(n))),), None, ()))
        elif isinstance(e, BoardDealt):
            pots = tuple((p.amount, p.eligible) for p in build_pots(put_in, live))
            deals.append(_Deal(str(e.street), i, pots, board, e.board))
            board = e.board
    if len(holes) != n:
        return None
    return holes, deals


def _term(deal: _Deal, table: _Equities, n: int) -> ChanceTerm:
    corrections = [Fraction(0)] * n
    for pot, (amount, eligible) in enumerate(deal.pots):
        if len(eligible) < 2 or amount == 0:
            continue  # a pot only one player can win: their equity is 1 before and after
        after = table.shares(eligible, deal.after, f"{deal.chance}/{pot}")
        if deal.before is None:  # the hole cards: 1/k each by the deck's symmetry
            before = tuple(Fraction(1, len(eligible)) for _ in eligible)
        else:
            before = table.shares(eligible, deal.before, f"{deal.chance}/{pot}/before")
        for seat, b, a in zip(eligible, before, after, strict=True):
            corrections[seat] += amount * (b - a)
    return ChanceTerm(deal.chance, deal.event, tuple(corrections))


class _Equities:
    """A hand's pot shares by (eligible players, board), each found once: exact when
    cheap or when the betting is over, else by Monte Carlo."""

    def __init__(
        self,
        game: Game,
        holes: dict[int, tuple[Card, ...]],
        seed: int,
        exact: set[tuple[tuple[int, ...], tuple[Card, ...] | None]],
        samples: int | None,
    ) -> None:
        self.game, self.holes, self.seed, self.exact = game, holes, seed, exact
        batched = ranks_in_batches(game)
        self.samples = samples or (SAMPLES if batched else SCALAR_SAMPLES)
        self.limit = EXACT_LIMIT if batched else SCALAR_EXACT_LIMIT
        self.found: dict[tuple[tuple[int, ...], tuple[Card, ...]], tuple[Fraction, ...]] = {}

    def shares(
        self, eligible: tuple[int, ...], board: tuple[Card, ...], label: str
    ) -> tuple[Fraction, ...]:
        key = (eligible, board)
        if key not in self.found:
            self.found[key] = self._compute(eligible, board, label)
        return self.found[key]

    def _compute(
        self, eligible: tuple[int, ...], board: tuple[Card, ...], label: str
    ) -> tuple[Fraction, ...]:
        hands = tuple(self.holes[s] for s in eligible)
        dead = frozenset(c for s, cards in self.holes.items() if s not in eligible for c in cards)
        unknown = len(self.game.deck.cards) - len(board) - sum(map(len, self.holes.values()))
        boards = math.comb(unknown, self.game.board_cards - len(board))
        if boards * len(hands) <= self.limit or (eligible, board) in self.exact:
            return exact_shares(self.game, hands, board, dead)
        # The generator's seed: the caller's (chosen without the cards) and which equity
        # this is, so the boards drawn are independent of the cards dealt.
        digest = hashlib.sha256(f"{self.seed}/{label}".encode()).digest()
        results = equity(
            hands,
            board,
            sorted(dead),
            game=self.game,
            exact=False,
            samples=self.samples,
            seed=int.from_bytes(digest[:8], "big"),
        )
        # As in exact_shares: each board gives 1/k of the pot (1/2k of a half) on a k-way
        # tie, so the shares times boards * 2 * lcm(1..k) are integers.
        scale = results[0].boards * 2 * math.lcm(*range(1, len(hands) + 1))
        numerators = [round(r.equity * scale) for r in results]
        if sum(numerators) != scale:
            raise AssertionError(f"equity shares {numerators} do not sum to {scale}")
        return tuple(Fraction(k, scale) for k in numerators)
