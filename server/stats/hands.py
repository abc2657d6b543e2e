"""One hand, replayed, reduced to what the statistics count: each player's result, actual
and all-in adjusted, and what they did on each betting round.

The all-in adjustment (docs/statistics.md): when the betting is over before the last card
is dealt (everyone left is all in, or all but one), the cards still to come decide the
pots but no decision of the players does. So each player is credited with their equity
share of each pot, over every way the rest of the board can come (exact enumeration with
:func:`engine.equity`), instead of what the cards that came gave them. A pot is shared
among the players eligible for it; in a game split high and low, each half of it is
shared on its own (the engine's equity does so board by board), and the whole pot goes
high when no low qualifies. The deck the board comes from excludes every hole card the
server dealt, the folded players' too: the server knows them, so they cannot come.

Amounts are exact: chips are ints and the adjusted results are :class:`Fraction` chips,
so the adjusted results of a hand sum to 0 exactly (an odd chip is not rounded: a third
of a pot is a third).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from enum import Enum
from fractions import Fraction
from typing import TYPE_CHECKING

from engine import EngineError, equity
from engine.events import (
    ActionTaken,
    BoardDealt,
    CardsDrawn,
    ForcedBetPosted,
    HandStarted,
    HoleCardsDealt,
    PotAwarded,
    UncalledBetReturned,
    UpCardsDealt,
)

if TYPE_CHECKING:
    from engine.cards import Card
    from engine.games import Game
    from engine.hand import Hand
    from engine.history import HandHistory, Replay
    from server.export import HandInfo

__all__ = [
    "Adjustment",
    "HandFacts",
    "PlayerFacts",
    "facts",
    "facts_of_hand",
    "facts_of_history",
    "facts_of_info",
]

AGGRESSIVE = frozenset({"bet", "raise", "complete"})
"""Action kinds that bet or raise: a stud completion raises the bring-in."""
VOLUNTARY = AGGRESSIVE | {"call"}
"""Action kinds that put money in by choice (blinds, antes and the bring-in are forced)."""


class Adjustment(Enum):
    """How a hand's adjusted result was found."""

    ACTUAL = "actual"
    """The betting went on until the last card: the adjusted result is the actual one."""
    ALL_IN = "all-in"
    """Betting closed before the last card: each player's equity share of each pot."""
    UNSUPPORTED = "unsupported"
    """Betting closed before the last card, but the game has no exact equity here (stud,
    draw: cards are not shared, or some hole cards are unknown): the actual result."""
    SKIPPED = "skipped"
    """Betting closed before the last card, but enumerating the run-outs would cost more
    than the caller's ``budget`` (an Omaha hi-lo preflop all-in): the actual result."""


@dataclass
class PlayerFacts:
    """What one player did and got in one hand."""

    name: str
    net: int
    """Chips won minus chips put in."""
    adjusted: Fraction
    """All-in adjusted net (equals ``net`` unless the hand was adjusted)."""
    vpip: bool = False
    pfr: bool = False
    three_bet_chance: bool = False
    three_bet: bool = False
    bets: int = 0
    """Bets, raises and completions after the first betting round."""
    calls: int = 0
    """Calls after the first betting round."""
    saw_second_round: bool = False
    showdown: bool = False
    won_at_showdown: bool = False


@dataclass
class HandFacts:
    """One hand: its game, its units and each player's facts, in position order."""

    game: Game
    big_blind: int
    """The unit of bb/100: the big blind, or in games without blinds the small bet
    (fixed limit) or else the largest ante (docs/statistics.md)."""
    big_bet: int
    """Fixed limit's big bet (0 in other games)."""
    adjustment: Adjustment
    players: list[PlayerFacts] = field(default_factory=list)


def facts_of_info(info: HandInfo) -> HandFacts:
    """The facts of a stored hand (``Store.hand_info``)."""
    return facts(info.players, info.history, info.replay())


def facts_of_hand(hand: Hand, players: Sequence[str], *, budget: int | None = None) -> HandFacts:
    """The facts of a hand our engine played (every card known), named by ``players`` in
    position order. It is replayed from its PHH record, whose events number the players
    by position as the statistics do (the table's events number its seats).
    ``budget`` as for :func:`facts`."""
    from engine import history  # noqa: PLC0415  (loads the table: not at import)

    hh = history.from_hand(hand, list(players))
    return facts(players, hh, history.replay(hh), budget=budget)


def facts_of_history(hh: HandHistory, players: Sequence[str] | None = None) -> HandFacts:
    """The facts of a PHH hand; players are named by ``players``, else by the history's
    ``players`` field, else ``p1`` ... ``pN``."""
    from engine import history  # noqa: PLC0415  (loads the table: not at import)

    names = (
        players
        or hh.fields.get("players")
        or [f"p{i}" for i in range(1, len(hh.starting_stacks) + 1)]
    )
    return facts(tuple(str(n) for n in names), hh, history.replay(hh))


def facts(
    players: Sequence[str], hh: HandHistory, played: Replay, *, budget: int | None = None
) -> HandFacts:
    """The facts of a hand from its history and its replay (seats are positions).

    ``budget`` caps the hand evaluations an all-in adjustment may make one by one (the
    games without a batch path: short deck, Omaha hi-lo...): a pot that would take more
    keeps the actual result (:attr:`Adjustment.SKIPPED`). Hold'em and Omaha high
    enumerate in batches, a preflop all-in in a fraction of a second: never skipped."""
    game = hh.game
    events = played.events
    started = next(e for e in events if isinstance(e, HandStarted))
    n = len(started.stacks)
    put_in = [0] * n
    won = [0] * n
    for e in events:
        if isinstance(e, ForcedBetPosted | ActionTaken):
            put_in[e.seat] += e.increment
        elif isinstance(e, UncalledBetReturned):
            put_in[e.seat] -= e.amount
        elif isinstance(e, PotAwarded):
            for seat, amount in e.shares:
                won[seat] += amount
    net = [w - p for w, p in zip(won, put_in, strict=True)]
    kind, adjusted = _adjusted(game, played, put_in, net, budget)
    big_bet = _chips(hh.big_bet, played.scale) if game.fixed_limit else 0
    unit = started.big_blind or _chips(hh.small_bet, played.scale) or max(hh.antes or [0])
    out = HandFacts(game, int(unit) or 1, big_bet, kind)
    out.players = [PlayerFacts(str(name), net[p], adjusted[p]) for p, name in enumerate(players)]
    _count_actions(out, played, n)
    return out


def _chips(value: object, scale: int) -> int:
    return int(Decimal(str(value)) * scale) if value else 0


def _adjusted(
    game: Game, played: Replay, put_in: list[int], net: list[int], budget: int | None
) -> tuple[Adjustment, list[Fraction]]:
    events = played.events
    last_action = max(
        (i for i, e in enumerate(events) if isinstance(e, ActionTaken | ForcedBetPosted)),
        default=-1,
    )
    dealt = BoardDealt | UpCardsDealt | HoleCardsDealt | CardsDrawn
    dealt_after = any(isinstance(e, dealt) for e in events[last_action + 1 :])
    pots: dict[int, tuple[int, tuple[int, ...]]] = {}
    for e in events:
        if isinstance(e, PotAwarded):
            amount, _ = pots.get(e.pot, (0, e.eligible))
            pots[e.pot] = (amount + e.amount, e.eligible)
    contested = any(len(eligible) > 1 for _, eligible in pots.values())
    actual = [Fraction(x) for x in net]
    if not (dealt_after and contested):
        return Adjustment.ACTUAL, actual
    if game.draws or game.up_cards or not game.board_cards:
        return Adjustment.UNSUPPORTED, actual
    board: tuple[Card, ...] = ()
    for e in events[:last_action]:
        if isinstance(e, BoardDealt):
            board = e.board
    # Unknown hole cards (an imported history that never shows them) are stand-ins: a
    # pot they play for cannot be enumerated, and they are not known to be out of the deck.
    holes = {
        e.seat: e.cards
        for e in events
        if isinstance(e, HoleCardsDealt) and e.cards is not None and played.known[e.seat]
    }
    if any(seat not in holes for _, eligible in pots.values() for seat in eligible):
        return Adjustment.UNSUPPORTED, actual
    if budget is not None and not ranks_in_batches(game):
        unknown = len(game.deck.cards) - len(board) - sum(len(c) for c in holes.values())
        boards = math.comb(unknown, game.board_cards - len(board))
        if any(boards * len(e) > budget for _, e in pots.values() if len(e) > 1):
            return Adjustment.SKIPPED, actual
    result = [Fraction(-x) for x in put_in]
    for amount, eligible in pots.values():
        if len(eligible) == 1:
            result[eligible[0]] += amount
            continue
        dead = frozenset(c for seat, cards in holes.items() if seat not in eligible for c in cards)
        try:
            shares = exact_shares(game, tuple(holes[s] for s in eligible), board, dead)
        except EngineError:  # a board game the equity cannot rank (dice, jokers...)
            return Adjustment.UNSUPPORTED, actual
        for seat, share in zip(eligible, shares, strict=True):
            result[seat] += amount * share
    return Adjustment.ALL_IN, result


def ranks_in_batches(game: Game) -> bool:
    """Whether :func:`engine.equity` ranks this game's boards in batches (numpy): hold'em
    and Omaha high, as the engine dispatches them (``engine.equity``)."""
    from engine import games  # noqa: PLC0415

    holdem, omaha = games.GAMES["nlhe"], games.GAMES["plo"]
    return (game.hands == holdem.hands and game.deck is holdem.deck and game.hole_cards == 2) or (
        game.hands == omaha.hands
    )


# A duplicate match deals each deck once per seat rotation: the same all-in comes again.
@functools.lru_cache(maxsize=4096)
def exact_shares(
    game: Game,
    hands: tuple[tuple[Card, ...], ...],
    board: tuple[Card, ...],
    dead: frozenset[Card],
) -> tuple[Fraction, ...]:
    """Each hand's exact share of a pot over every remaining board.

    :func:`engine.equity` gives the share as a float over ``boards`` boards; on each board
    a hand gets 1/k of the pot (1/2k of a half, in a split game) for a k-way tie, so the
    share times ``boards * 2 * lcm(1..n)`` is an integer: rounding that recovers it
    exactly, since the float's error is many orders of magnitude below one.
    """
    results = equity(hands, board, sorted(dead), game=game, exact=True)
    boards = results[0].boards
    scale = boards * 2 * math.lcm(*range(1, len(hands) + 1))
    numerators = [round(r.equity * scale) for r in results]
    if sum(numerators) != scale:  # cannot happen unless the float drifted by half a unit
        raise AssertionError(f"equity shares {numerators} do not sum to {scale}")
    return tuple(Fraction(k, scale) for k in numerators)


def _count_actions(out: HandFacts, played: Replay, n: int) -> None:
    """VPIP, PFR, 3-bet, aggression, saw the second round, showdown (docs/statistics.md)."""
    events = played.events
    folded = [False] * n
    raises = 0  # bets, raises and completions so far on the first betting round
    raiser = -1
    reached_second = False
    for e in events:
        street = getattr(e, "street", None)
        if street is not None and int(street) >= 1 and not reached_second:
            reached_second = True
            for p in range(n):
                out.players[p].saw_second_round = not folded[p]
        if not isinstance(e, ActionTaken):
            continue
        me = out.players[e.seat]
        if int(e.street) == 0:
            if raises == 1 and raiser != e.seat and not me.three_bet_chance:
                me.three_bet_chance = True
                me.three_bet = e.kind in AGGRESSIVE
            me.vpip |= e.kind in VOLUNTARY
            me.pfr |= e.kind in AGGRESSIVE
            if e.kind in AGGRESSIVE:
                raises += 1
                raiser = e.seat
        elif e.kind in AGGRESSIVE:
            me.bets += 1
        elif e.kind == "call":
            me.calls += 1
        folded[e.seat] |= e.kind == "fold"
    contested = [p for p in events if isinstance(p, PotAwarded) and len(p.eligible) > 1]
    at_showdown = {seat for p in contested for seat in p.eligible}
    winners = {seat for p in contested for seat, amount in p.shares if amount > 0}
    for p in at_showdown:
        me = out.players[p]
        me.showdown = me.saw_second_round
        me.won_at_showdown = me.showdown and p in winners
