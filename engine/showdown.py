"""The showdown: which hands are tabled, and who wins each pot, or each half of it.

Functions over an :class:`engine.hand.Hand` whose betting is over. Hands are ranked by
the game's rankings (:attr:`engine.games.Game.hands`): one takes the whole pot; a
high-low game splits each pot, the odd chip to the high half, and the high hand takes
all of it when no low qualifies (docs/rules.md S4). Ties split a pot or half equally,
odd chips one each from the first winner left of the button, or in stud from the highest
card by suit (TDA Rule 20).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.evaluator import rank7
from engine.events import CardsMucked, CardsShown, Event, PotAwarded, PotAwardedOnBoard
from engine.pots import Pot, split
from engine.ranking import HIGH

_HIGH = (HIGH,)

if TYPE_CHECKING:
    from engine.hand import Hand

__all__ = ["on_boards", "settle", "table", "values"]


def values(hand: Hand, p: int) -> tuple[int, ...]:
    """Position ``p``'s hand under each of the game's rankings (0: no qualifying low),
    worked out once a hand."""
    found = hand.values.get(p)
    if found is None:
        found = hand.values[p] = _values(hand, p)
    return found


def _values(hand: Hand, p: int) -> tuple[int, ...]:
    hole = hand.holes[p]
    board = hand.board
    if len(hole) == 2 and len(board) == 5 and hand.game.hands == _HIGH:  # hold'em, fast
        h1, h2 = hole
        b1, b2, b3, b4, b5 = board
        return (rank7(h1.code, h2.code, b1.code, b2.code, b3.code, b4.code, b5.code),)
    codes, board_codes = [c.code for c in hole], [c.code for c in board]
    return tuple(r.rank(codes, board_codes) for r in hand.game.hands)


def on_boards(hand: Hand, p: int) -> tuple[int, ...]:
    """Position ``p``'s hand under each ranking on each board, board by board: with two
    boards (docs/rules.md O4) a hand is ranked on each."""
    assert hand.boards is not None
    codes = [c.code for c in hand.holes[p]]
    return tuple(
        r.rank(codes, [c.code for c in board]) for board in hand.boards for r in hand.game.hands
    )


def table(hand: Hand, events: list[Event], live: Sequence[int], first: int) -> None:
    """Show hands in order from ``first``. With anyone all in every hand is shown (TDA
    Rule 16); otherwise a hand that cannot at least tie the best shown so far, high or
    low, is mucked unseen (TDA Rules 13, 14, 17-B). Hands whose cards are unknown are
    mucked in their turn, and are no hand to beat for those after them (see
    :class:`engine.hand.Hand`)."""
    hand.tabled = True
    order = sorted(live, key=lambda p: (p - first) % hand.n)
    unknown = hand.unknown
    if any(hand.all_in[p] for p in live):
        shown = [p for p in order if p not in unknown]
    elif not hand.game.split and hand.boards is None:
        top, shown = 0, []
        for p in order:
            if p not in unknown and (value := values(hand, p)[0]) >= top:
                top = value
                shown.append(p)
    else:
        best: list[int] = []
        shown = []
        for p in order:
            if p in unknown:
                continue
            # With two boards a hand shows if it is at least as good as the best shown so
            # far on either board, high or low.
            mine = values(hand, p) if hand.boards is None else on_boards(hand, p)
            best = best or [0] * len(mine)
            if any(v and v >= b for v, b in zip(mine, best, strict=True)):
                best = [max(v, b) for v, b in zip(mine, best, strict=True)]
                shown.append(p)
    for p in order:
        if p in shown:
            hand.shown.add(p)
            events.append(CardsShown(seat=hand.seats[p], cards=hand.holes[p]))
        else:
            events.append(CardsMucked(seat=hand.seats[p]))


def settle(hand: Hand, events: list[Event], live: Sequence[int]) -> None:
    """Table the hands if that has not happened yet, then award every pot and end the
    hand."""
    if not hand.tabled:
        table(hand, events, live, hand.first_to_show(live))
    if hand.boards is not None:
        _settle_boards(hand, events)
        return
    ranked = {p: values(hand, p) for p in hand.shown}
    for index, pot in enumerate(hand.pots()):
        _award(hand, events, index, pot, ranked)
    hand.end(events)


def _settle_boards(hand: Hand, events: list[Event]) -> None:
    """Two boards (docs/rules.md O4): each pot is split between the boards, the odd chip
    to the first, and each board's share goes to the best hand on that board (high and
    low apart in a split game)."""
    assert hand.boards is not None
    k, width = len(hand.boards), len(hand.game.hands)
    everything = {p: on_boards(hand, p) for p in hand.shown}
    ranked = [{p: v[i * width : (i + 1) * width] for p, v in everything.items()} for i in range(k)]
    for index, pot in enumerate(hand.pots()):
        for i, part in split(pot.amount, range(k)):
            if part:
                _award(hand, events, index, Pot(part, pot.eligible), ranked[i], board=i)
    hand.end(events)


def _award(
    hand: Hand, events: list[Event], index: int, pot: Pot, ranked: Ranked, *, board: int = 0
) -> None:
    # pot.eligible runs from the first seat left of the button, as odd chips do.
    award = _Award(hand, events, index, pot, board)
    contenders = [p for p in pot.eligible if p in ranked]
    if not contenders:  # only hands whose cards are unknown contest it: a tie
        award.pay(list(pot.eligible), pot.amount, 0, None, 0)
        return
    if not hand.game.split:
        award.best(contenders, ranked, 0, pot.amount, None)
        return
    lows = [p for p in contenders if ranked[p][1] > 0]
    low_half = pot.amount // 2 if lows else 0  # the odd chip goes high (TDA Rule 20-C)
    award.best(contenders, ranked, 0, pot.amount - low_half, "high")
    if low_half:  # no qualifying low (or a pot of one chip): the high hand takes it all
        award.best(lows, ranked, 1, low_half, "low")


Ranked = dict[int, tuple[int, ...]]


class _Award:
    """One pot's awards: its events and its winners' stacks."""

    def __init__(
        self, hand: Hand, events: list[Event], index: int, pot: Pot, board: int = 0
    ) -> None:
        self.hand, self.events, self.index, self.pot = hand, events, index, pot
        self.board = board

    def best(
        self, contenders: list[int], ranked: Ranked, which: int, amount: int, half: str | None
    ) -> None:
        """Pay ``amount`` to the best of ``contenders`` under the game's ranking ``which``."""
        top = max(ranked[p][which] for p in contenders)
        winners = [p for p in contenders if ranked[p][which] == top]
        game = self.hand.game
        if len(winners) > 1 and game.up_cards and not game.deck.dice:
            winners.sort(key=lambda p: _high_card(self.hand, p, which), reverse=True)
        self.pay(winners, amount, top, half, which)

    def pay(self, winners: list[int], amount: int, top: int, half: str | None, which: int) -> None:
        hand = self.hand
        shares = split(amount, winners)
        for p, share in shares:
            hand.stacks[p] += share
        description = hand.game.hands[which].describe(top) if top else ""
        # PotAwarded's fields in order: pot, amount, eligible, shares, rank, description,
        # half; with two boards or runs, which one (O4, O5).
        award = (
            self.index, amount, tuple(hand.seats[p] for p in self.pot.eligible),
            tuple((hand.seats[p], share) for p, share in shares), top, description, half,
        )  # fmt: skip
        if hand.boards is None:
            self.events.append(PotAwarded(*award))
        else:
            self.events.append(PotAwardedOnBoard(*award, board_index=self.board))


def _high_card(hand: Hand, p: int, which: int) -> tuple[int, int]:
    """Stud's odd chip: the highest card by suit of the five that make the hand (TDA Rule
    20-B); in a low hand the ace is the lowest card."""
    ranking = hand.game.hands[which]
    hole = [c.code for c in hand.holes[p]]
    board = [c.code for c in hand.board]
    five = ranking.best(hole, board)
    if ranking.low:
        return max((((c >> 2) + 1) % 13, c & 3) for c in five)
    return max((c >> 2, c & 3) for c in five)
