"""One Slumbot-style hand under the engine: the deal, the house bot's turns, the baseline.

Heads-up no-limit hold'em, blinds 50/100, 20,000 chips each, reset every hand. Slumbot's
``client_pos`` is the client's position in the engine's order (``Hand.seats``: the big
blind first, the button last): 0 is the big blind, 1 the small blind and button. A fresh
engine table deals each hand, its button on seat 0, so the button's player sits there.

Every hand's deck comes from its own secret seed (:class:`server.fairness.Shuffle`, as
at our tables); the house bots' seeds follow from it (:func:`bot_for`), so the stored
hand, seed included, says everything that happened and why, and the baseline replays
the same deal with the same bot seeds.

:func:`settle` (a finished hand's outcome, baseline and history) is the slow part, up to a few
hundred milliseconds for an all-in's exact equity: the API runs it in a worker process
(:mod:`server.compute`), never in the event loop.
"""

from __future__ import annotations

import functools
import inspect
import logging
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine import (
    ActionTaken,
    EngineError,
    Hand,
    PotAwarded,
    Table,
    TableConfig,
    game,
    history,
    stakes_for_blinds,
)
from server.bots import STRATEGIES, Bot
from server.fairness import Shuffle
from server.stats import facts_of_hand
from server.tables import default_action
from server.tournaments.director import bot_seed
from server.tournaments.stats import ADJUST_BUDGET

__all__ = [
    "BIG_BLIND",
    "SMALL_BLIND",
    "STACK",
    "Outcome",
    "Settled",
    "baseline_winnings",
    "bot_for",
    "deal",
    "outcome",
    "play_bots",
    "seats",
    "settle",
]

log = logging.getLogger("pokerroom")

SMALL_BLIND, BIG_BLIND, STACK = 50, 100, 20_000
_NLHE = game("nlhe")
CONFIG = TableConfig(
    game=_NLHE, seats=2, min_buy_in=1, max_buy_in=STACK,
    **stakes_for_blinds(_NLHE, SMALL_BLIND, BIG_BLIND, 0),
)  # fmt: skip

OPPONENT, BASELINE = "opponent", "baseline"
"""The roles a hand's bots are seeded for: the client's opponent (in the hand and in its
baseline) and the house bot playing the client's cards in the baseline."""


def seats(client_pos: int) -> tuple[int, int]:
    """The engine seats of the client and of the bot: the button (``client_pos`` 1) has
    seat 0, where a fresh table puts the button."""
    return (0, 1) if client_pos == 1 else (1, 0)


def deal(shuffle: Shuffle, client_pos: int) -> Table:
    """A fresh table dealing hand ``shuffle.identity.hand_number`` from ``shuffle``'s deck,
    the client at ``client_pos``; its blinds posted, nobody has acted."""
    table = Table(CONFIG)
    for seat in (0, 1):
        table.sit_down(seat, STACK, wait_for_big_blind=False)
    table.hand_number = shuffle.identity.hand_number - 1  # start_hand numbers the next
    table.start_hand(shuffle.deck())
    hand = table.hand
    assert hand is not None and hand.setup.seats[client_pos] == seats(client_pos)[0]
    return table


def bot_for(name: str, shuffle: Shuffle, role: str) -> Bot:
    """House bot ``name`` for one hand, seeded (when it takes a seed) from the hand's seed
    and its role (:data:`OPPONENT` or :data:`BASELINE`): the same hand, the same bot
    (:func:`server.tournaments.director.make_bot`'s, without its signature lookup, a
    sixth of a millisecond a hand)."""
    cls: Any = STRATEGIES[name]
    return cls(seed=bot_seed(shuffle.seed.hex(), role)) if _takes_seed(cls) else cls()  # type: ignore[no-any-return]


@functools.cache
def _takes_seed(cls: type) -> bool:
    try:
        return "seed" in inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return False


def play_bots(table: Table, bots: dict[int, Bot], until: int | None = None) -> None:
    """The bots' turns, until seat ``until`` is to act or the hand is over. A bot that
    raises or answers wrong plays the default (check, else fold), as at our tables."""
    hand = table.hand
    assert hand is not None
    while not hand.is_over and table.to_act != until:
        seat = table.to_act
        assert seat is not None
        menu = table.legal_actions(seat)
        assert menu is not None
        try:
            table.apply(bots[seat].act(table.view(seat), menu))
        except Exception as exc:  # a bot's bug costs it this decision, nothing else
            log.warning("api house bot: %s; it plays the default", exc or type(exc).__name__)
            table.apply(default_action(menu))


def baseline_winnings(shuffle: Shuffle, client_pos: int, bot: str) -> int:
    """What house bot ``bot`` wins in the client's seat with the client's cards, against
    itself seeded as the client's opponent was: the same deck, positions and seeds."""
    table = deal(shuffle, client_pos)
    client, opponent = seats(client_pos)
    play_bots(table, {client: bot_for(bot, shuffle, BASELINE),
                      opponent: bot_for(bot, shuffle, OPPONENT)})  # fmt: skip
    hand = table.hand
    assert hand is not None
    return hand.stacks[client_pos] - hand.setup.stacks[client_pos]


@dataclass(frozen=True)
class Outcome:
    """A finished hand, from the client's side."""

    winnings: int
    won_pot: int
    """The chips the pots awarded the client (its own share back included; 0 when it
    won nothing)."""
    bot_hole_cards: tuple[str, ...] | None
    """The bot's cards when the hand went to a showdown, else None."""
    adjusted: Fraction
    """The client's all-in adjusted winnings, exact (docs/statistics.md)."""


def outcome(hand: Hand, client_pos: int, names: tuple[str, ...]) -> Outcome:
    """The client's result in the finished ``hand`` (``names`` in position order)."""
    client = hand.setup.seats[client_pos]
    winnings = hand.stacks[client_pos] - hand.setup.stacks[client_pos]
    won = sum(
        amount
        for e in hand.log
        if isinstance(e, PotAwarded)
        for seat, amount in e.shares
        if seat == client
    )
    # At a showdown the bot's cards are the client's to see, as Slumbot shows its own:
    # the bot never mucks, even where our tables let a losing hand go unseen.
    folded = any(isinstance(e, ActionTaken) and e.kind == "fold" for e in hand.log)
    shown = None if folded else hand.holes[1 - client_pos]
    try:
        adjusted = facts_of_hand(hand, names, budget=ADJUST_BUDGET).players[client_pos].adjusted
    except EngineError:  # never for hold'em; the actual result is the honest fallback
        adjusted = Fraction(winnings)
    cards = None if shown is None else tuple(str(c) for c in shown)
    return Outcome(winnings, won, cards, adjusted)


@dataclass(frozen=True)
class Settled:
    """A finished hand's slow part: what :func:`settle` computes in the worker."""

    outcome: Outcome
    baseline: int
    history_text: str
    """The hand as stored (PHH), its seed and commitment in it: ``pokerroom verify``."""


def settle(
    hand: Hand, client_pos: int, *, names: tuple[str, ...], shuffle: Shuffle, bot: str,
    table: str,
) -> Settled:  # fmt: skip
    """The finished ``hand``'s :func:`outcome`, :func:`baseline_winnings` and history
    (``names`` in position order, stored at ``table``): the slow part of a hand, all
    pure, run in the worker process."""
    written = history.from_hand(hand, players=list(names))
    written.fields["table"] = table
    written.fields.update(shuffle.phh_fields())  # seed and commitment: pokerroom verify
    return Settled(
        outcome(hand, client_pos, names),
        baseline_winnings(shuffle, client_pos, bot),
        history.dump(written),
    )
