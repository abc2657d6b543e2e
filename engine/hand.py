"""One hand of no-limit hold'em, from forced bets to the last chip pushed.

:class:`Hand` is the betting state machine under :class:`engine.table.Table`; it knows
nothing of seating, buttons across hands or missed blinds. A :class:`HandSetup` says who
is dealt in, in order from the seat left of the button, with their stacks and forced bets,
which is also exactly what a PHH hand history records, so replays drive it directly.

Positions are indices into ``HandSetup.seats``; events speak of seats. The rules and their
sources are in docs/rules.md.

>>> from engine.deck import Deck
>>> setup = HandSetup(hand_number=1, seats=(1, 2, 0), stacks=(1000, 1000, 1000),
...                   blinds=(50, 100, 0), small_blind=50, big_blind=100)
>>> hand = Hand(setup, Deck.from_cards("As Kd Qh Ac Kc Qd 2s 7h 9c Td 3c"))
>>> _ = hand.start()
>>> hand.seat_to_act, hand.legal_actions(2).call  # the button acts first, three-handed
(0, 100)

A replay of a hand history may not know every player's hole cards: it deals stand-ins
and names those players' positions in ``unknown``, and they muck at showdown whatever
the stand-ins are (see :class:`Hand`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from engine.actions import Action, ActionMenu, BetOrRaiseTo, CheckOrCall, Fold
from engine.cards import Card
from engine.deck import Deck
from engine.errors import IllegalActionError, InvalidActionError, InvalidConfigError
from engine.evaluator import describe_rank, rank7
from engine.events import (
    ActionTaken,
    BoardDealt,
    CardsMucked,
    CardsShown,
    Event,
    ForcedBetPosted,
    HandEnded,
    HandStarted,
    HoleCardsDealt,
    PotAwarded,
    Street,
    UncalledBetReturned,
)
from engine.pots import Pot, build_pots, split

__all__ = ["Hand", "HandSetup"]

_BOARD_SIZES = {Street.FLOP: 3, Street.TURN: 1, Street.RIVER: 1}
_ACTIONS = frozenset((Fold, CheckOrCall, BetOrRaiseTo))
# Event kind of a live blind by (is the big blind amount, is the small blind amount).
_BLIND_KINDS = {(True, False): "big_blind", (True, True): "big_blind", (False, True): "small_blind"}


@dataclass(frozen=True, slots=True)
class HandSetup:
    """Who is dealt in and what they must post, position by position.

    ``seats`` run from the first seat left of the button to the button itself (heads-up:
    the big blind, then the button, who posts the small blind). ``antes`` and
    ``dead_blinds`` are dead money; ``blinds`` are live and count as the player's bet on
    the first street (straddles too). Preflop, the first to act is the player after the
    largest blind. With ``big_blind_ante`` the antes are one player's payment for the
    table: posted after the blind, so a short big blind pays the blind first, and dead
    money for the main pot like dead blinds (TDA Rule 34). Otherwise antes count towards
    each player's share of the pots, as in PHH and pokerkit.
    """

    hand_number: int
    seats: tuple[int, ...]
    stacks: tuple[int, ...]
    small_blind: int
    big_blind: int
    blinds: tuple[int, ...] = ()
    antes: tuple[int, ...] = ()
    dead_blinds: tuple[int, ...] = ()
    button: int | None = None
    """The button's seat (it may hold nobody under the dead-button rule); by default the
    last of ``seats``."""
    big_blind_ante: bool = False
    fold_when_check_is_free: bool = False
    min_bet: int = field(default=0)
    """The smallest bet; the big blind unless set."""
    big_blind_position: int | None = None
    """Whose blind opens the betting: preflop, the first to act is the next player. By
    default the largest blind's (the later one on a tie, as PHH and pokerkit read
    straddles); a table names its big blind, since a newcomer posting a big blind
    elsewhere does not move the action (docs/rules.md P1)."""

    def __post_init__(self) -> None:
        n = len(self.seats)
        if not 2 <= n <= 10 or len(set(self.seats)) != n:
            raise InvalidConfigError(f"a hand needs 2 to 10 distinct seats, got {self.seats!r}")
        for name in ("blinds", "antes", "dead_blinds"):
            if not getattr(self, name):
                object.__setattr__(self, name, (0,) * n)
        for name in ("stacks", "blinds", "antes", "dead_blinds"):
            values = getattr(self, name)
            if len(values) != n or set(map(type, values)) != {int} or min(values) < 0:
                raise InvalidConfigError(f"{name} must be {n} non-negative ints, got {values!r}")
        if 0 in self.stacks:
            raise InvalidConfigError(f"every player dealt in needs chips, got {self.stacks!r}")
        if self.min_bet == 0:
            object.__setattr__(self, "min_bet", self.big_blind)
        if self.button is None:
            object.__setattr__(self, "button", self.seats[-1])


class Hand:
    """The state of one hand. Call :meth:`start` once, then :meth:`apply` until
    :attr:`is_over`. Every method either raises and changes nothing, or succeeds.

    ``unknown`` is for replays of hand histories that do not know some players' hole
    cards: their positions, whose cards in ``deck`` are stand-ins. Stand-ins never play:
    at showdown those players muck in their turn, unseen, and win nothing that a shown
    hand contests. A hand must be tabled to win (TDA Rule 13) and a history shows the
    hands tabled, so one it does not show was mucked (PHH ``pN sm`` without cards).
    Mucked, it sets no bar for the players after it (docs/rules.md H3), so everyone else
    shows or mucks exactly as in the hand recorded. A pot that only such players contest,
    which no card can decide, is split among them as a tie. Tables never pass ``unknown``.

    >>> setup = HandSetup(hand_number=1, seats=(0, 1), stacks=(100, 100), blinds=(10, 5),
    ...                   small_blind=5, big_blind=10)
    >>> hand = Hand(setup, Deck.from_cards("2c 9h 2d Kd 2h 2s 5c Js 7d"), unknown=[0])
    >>> _ = hand.start()
    >>> while not hand.is_over:
    ...     _ = hand.apply(CheckOrCall(hand.seat_to_act))
    >>> hand.stacks  # 2c 2d would make quads with the board; unknown, they muck
    [90, 110]
    """

    def __init__(self, setup: HandSetup, deck: Deck, *, unknown: Collection[int] = ()) -> None:
        n = len(setup.seats)
        self.unknown = frozenset(unknown)  # positions dealt stand-ins: they muck at showdown
        if not self.unknown <= set(range(n)):
            raise InvalidConfigError(f"unknown must be positions 0..{n - 1}, got {unknown!r}")
        self.setup = setup
        self.deck = deck
        self.n = n
        self.seats = setup.seats
        self.position = {seat: i for i, seat in enumerate(setup.seats)}
        self.stacks = list(setup.stacks)
        self.bets = [0] * n  # street totals
        self.totals = [0] * n  # hand totals, antes and dead blinds included
        self.dead = [0] * n  # the part of totals that is dead money for the main pot
        self.folded = [False] * n
        self.live = n  # players who have not folded
        self.all_in = [False] * n
        # The bet level each player last acted at this street (-1: not yet). A player may
        # raise again only if the bet has grown by a full raise since (TDA Rule 41).
        self.acted = [-1] * n
        self.holes: list[tuple[Card, ...]] = [(deck.cards[i], deck.cards[n + i]) for i in range(n)]
        self.board: list[Card] = []
        self.street = Street.PREFLOP
        self.current_bet = 0
        self.last_raise = setup.min_bet
        self.aggressor = -1
        self.to_act = -1
        self.is_over = False
        self.started = False
        self.tabled = False  # the hands are on the table (shown or mucked)
        self.shown: set[int] = set()
        self.log: list[Event] = []
        self._actions_applied = 0
        self._options_cache: tuple[tuple[int, int], tuple[int, int, bool, int, int, bool]] = (
            (-1, -1),
            (0, 0, False, 0, 0, False),
        )

    # -- queries ---------------------------------------------------------------------

    @property
    def seat_to_act(self) -> int | None:
        """The seat whose turn it is, or ``None`` once the hand is over."""
        return self.seats[self.to_act] if self.to_act >= 0 else None

    def legal_actions(self, position: int) -> ActionMenu | None:
        """The menu for the player at ``position``, or ``None`` if it is not their turn."""
        if position != self.to_act:
            return None
        owed, call, can_raise, min_to, max_to, all_in_only = self._options(position)
        # Positional for speed (a menu per decision), in ActionMenu's field order: seat,
        # can_fold, can_check, call, call_is_all_in, can_raise, min_raise_to,
        # max_raise_to, raise_is_all_in_only, is_bet.
        return ActionMenu(
            self.seats[position],
            owed > 0 or self.setup.fold_when_check_is_free,
            owed <= 0,
            call,
            call > 0 and call == self.stacks[position],
            can_raise,
            min_to if can_raise else 0,
            max_to if can_raise else 0,
            can_raise and all_in_only,
            self.current_bet == 0,
        )

    def _options(self, p: int) -> tuple[int, int, bool, int, int, bool]:
        """(owed, call, can_raise, min_to, max_to, all_in_only) for position ``p``: the one
        computation behind both :meth:`legal_actions` and :meth:`apply`. Cached until the
        next action, since a player usually asks for the menu and then acts on it."""
        if self._options_cache[0] == (self._actions_applied, p):
            return self._options_cache[1]
        current, bets, stacks, folded = self.current_bet, self.bets, self.stacks, self.folded
        stack = stacks[p]
        owed = current - bets[p]
        max_to = bets[p] + stack
        min_to = current + self.last_raise if current else self.setup.min_bet
        # Reopened: not acted yet, or the bet grew by a full raise since (TDA 47-A).
        can_raise = stack > owed and (
            self.acted[p] < 0 or current - self.acted[p] >= self.last_raise
        )
        if can_raise:
            # Someone must be able to call more than the current bet; otherwise a raise
            # would only come back as uncalled (docs/rules.md W7).
            can_raise = False
            for q in range(self.n):
                if q != p and not folded[q] and bets[q] + stacks[q] > current:
                    can_raise = True
                    break
        all_in_only = max_to <= min_to
        options = (
            owed,
            min(owed, stack),
            can_raise,
            max_to if all_in_only else min_to,
            max_to,
            all_in_only,
        )
        self._options_cache = ((self._actions_applied, p), options)
        return options

    # -- the flow ----------------------------------------------------------------------

    def start(self) -> list[Event]:
        """Post the forced bets, deal the hole cards and find the first player to act."""
        if self.started:
            raise IllegalActionError("the hand has already started")
        self.started = True
        s = self.setup
        blind_order = sorted([(a, p) for p, a in enumerate(s.blinds) if a])
        if s.big_blind_position is not None:
            opener = s.big_blind_position
        else:
            opener = blind_order[-1][1] if blind_order else self.n - 1
        events: list[Event] = [
            HandStarted(
                hand_number=s.hand_number,
                button=s.button if s.button is not None else s.seats[-1],
                seats=s.seats,
                stacks=s.stacks,
                small_blind=s.small_blind,
                big_blind=s.big_blind,
                ante=max(s.antes),
                big_blind_seat=s.seats[opener],
            )
        ]
        if not s.big_blind_ante and any(s.antes):
            self._post_antes(events)
        # Callers owe the full big blind even when the big blind is all in for less
        # (docs/rules.md F3); a short straddle counts for what was posted.
        owed = 0
        for amount, p in blind_order:
            if amount <= s.big_blind:
                owed = amount
            if self.all_in[p]:
                continue
            self._post(
                events,
                p,
                amount,
                _BLIND_KINDS.get(
                    (amount == s.big_blind, amount == s.small_blind),
                    "straddle" if amount > s.big_blind else "blind",
                ),
                live=True,
            )
        if s.big_blind_ante:
            self._post_antes(events)
        if any(s.dead_blinds):
            for p, amount in enumerate(s.dead_blinds):
                if amount and not self.all_in[p]:
                    self._post(events, p, amount, "dead_blind", live=False, dead=True)
        self.current_bet = max(owed, *self.bets)
        for p in range(self.n):
            events.append(HoleCardsDealt(self.seats[p], self.holes[p]))
        self._continue(events, self._next_to_act(opener))
        self.log.extend(events)
        return events

    def _post_antes(self, events: list[Event]) -> None:
        for p, amount in enumerate(self.setup.antes):
            if amount and not self.all_in[p]:
                self._post(events, p, amount, "ante", live=False, dead=self.setup.big_blind_ante)

    def _post(
        self, events: list[Event], p: int, amount: int, kind: str, *, live: bool, dead: bool = False
    ) -> None:
        paid = min(amount, self.stacks[p])
        self.stacks[p] -= paid
        self.totals[p] += paid
        if dead:
            self.dead[p] += paid
        if live:
            self.bets[p] += paid
        self.all_in[p] = self.stacks[p] == 0
        # ForcedBetPosted's fields in order: seat, kind, increment, street_total,
        # hand_total, stack, all_in.
        events.append(
            ForcedBetPosted(
                self.seats[p],
                kind,
                paid,
                self.bets[p],
                self.totals[p],
                self.stacks[p],
                self.all_in[p],
            )
        )

    def apply(self, action: Action) -> list[Event]:
        """Apply one player action; raise and change nothing if the menu does not allow it."""
        if type(action) not in _ACTIONS:
            raise InvalidActionError(f"not an action: {action!r}")
        if self.is_over or not self.started:
            raise IllegalActionError("no hand is in progress")
        p = self.position.get(action.seat, -1)
        if p < 0:
            raise IllegalActionError(f"seat {action.seat} is not in this hand")
        if p != self.to_act:
            raise IllegalActionError(
                f"it is seat {self.seats[self.to_act]}'s turn, not seat {action.seat}'s"
            )
        owed, call, can_raise, min_to, max_to, _ = self._options(p)
        events: list[Event] = []
        kind = type(action)
        if kind is Fold:
            if owed <= 0 and not self.setup.fold_when_check_is_free:
                raise IllegalActionError(f"seat {action.seat} cannot fold: checking is free")
            self.folded[p] = True
            self.live -= 1
            self.acted[p] = self.current_bet
            self._record(events, p, "fold", 0)
        elif kind is CheckOrCall:
            self._pay(p, call)
            self.acted[p] = self.current_bet
            self._record(events, p, "call" if call else "check", call)
        else:
            assert isinstance(action, BetOrRaiseTo)
            if not can_raise:
                raise IllegalActionError(f"seat {action.seat} cannot bet or raise now")
            if not min_to <= action.amount <= max_to:
                what = "raise" if self.current_bet else "bet"
                raise IllegalActionError(f"{what} to {action.amount} is outside {min_to}..{max_to}")
            kind_name = "raise" if self.current_bet else "bet"
            # Only a full bet or raise sets the new minimum and reopens the betting.
            self.last_raise = max(action.amount - self.current_bet, self.last_raise)
            self.current_bet = action.amount
            increment = action.amount - self.bets[p]
            self._pay(p, increment)
            self.acted[p] = self.current_bet
            self.aggressor = p
            self._record(events, p, kind_name, increment)
        self._actions_applied += 1  # the cached menu is stale from here
        self._continue(events, self._next_to_act(p))
        self.log.extend(events)
        return events

    def _pay(self, p: int, amount: int) -> None:
        self.stacks[p] -= amount
        self.bets[p] += amount
        self.totals[p] += amount
        if self.stacks[p] == 0:
            self.all_in[p] = True

    def _record(self, events: list[Event], p: int, kind: str, increment: int) -> None:
        # Positional for speed, in ActionTaken's field order: seat, street, kind,
        # increment, street_total, hand_total, stack, all_in.
        events.append(
            ActionTaken(
                self.seats[p],
                self.street,
                kind,
                increment,
                self.bets[p],
                self.totals[p],
                self.stacks[p],
                self.all_in[p] and kind != "fold",
            )
        )

    def _next_to_act(self, after: int) -> int:
        """The next position after ``after`` (clockwise, ``after`` itself last) that must
        act, or -1 when the betting round is complete."""
        n, current = self.n, self.current_bet
        folded, all_in, acted, bets = self.folded, self.all_in, self.acted, self.bets
        able, first = 0, -1
        for step in range(1, n + 1):
            q = (after + step) % n
            if folded[q] or all_in[q]:
                continue
            able += 1
            if first < 0 and (acted[q] < 0 or bets[q] < current):
                first = q
        if able <= 1 and (first < 0 or bets[first] >= current):
            return -1  # nobody is left to bet against
        return first

    def _continue(self, events: list[Event], nxt: int) -> None:
        """Move on after forced bets or an action: next player, next street, or the end."""
        if self.live == 1:
            self.to_act = -1
            self._return_uncalled(events)
            self._award_uncontested(events, self.folded.index(False))
            return
        if nxt >= 0:
            self.to_act = nxt
            return
        live = [q for q in range(self.n) if not self.folded[q]]
        self._return_uncalled(events)
        while self.street < Street.RIVER:
            if not self.tabled and sum(not self.all_in[p] for p in live) <= 1:
                # All in and the betting is over: every hand is tabled before the board is
                # run out (TDA Rule 16).
                self._table(events, live, self._first_to_show(live))
            self._deal_street(events)
            nxt = self._next_to_act(self.n - 1)
            if nxt >= 0:
                self.to_act = nxt
                return
        self.to_act = -1
        self._showdown(events, live)

    def _deal_street(self, events: list[Event]) -> None:
        self.street = Street(self.street + 1)
        start = 2 * self.n + len(self.board)
        new = self.deck.cards[start : start + _BOARD_SIZES[self.street]]
        self.board.extend(new)
        self.bets = [0] * self.n
        self.acted = [-1] * self.n
        self.current_bet = 0
        self.last_raise = self.setup.min_bet
        self.aggressor = -1
        events.append(BoardDealt(street=self.street, cards=tuple(new), board=tuple(self.board)))

    def _return_uncalled(self, events: list[Event]) -> None:
        top, high, second = 0, -1, 0
        for q, bet in enumerate(self.bets):
            if bet > high:
                top, high, second = q, bet, max(second, high)
            elif bet > second:
                second = bet
        excess = high - second
        if excess > 0:
            self.bets[top] -= excess
            self.totals[top] -= excess
            self.stacks[top] += excess
            self.all_in[top] = self.stacks[top] == 0
            events.append(
                UncalledBetReturned(seat=self.seats[top], amount=excess, stack=self.stacks[top])
            )

    def _award_uncontested(self, events: list[Event], winner: int) -> None:
        amount = sum(self.totals)
        self.stacks[winner] += amount
        events.append(
            PotAwarded(
                pot=0,
                amount=amount,
                eligible=(self.seats[winner],),
                shares=((self.seats[winner], amount),),
                rank=0,
                description="",
            )
        )
        self._end(events)

    def _first_to_show(self, live: Sequence[int]) -> int:
        """The last player to bet or raise on the final betting round, else the first
        player left of the button (TDA Rule 17-A)."""
        return self.aggressor if self.aggressor >= 0 else live[0]

    def _table(self, events: list[Event], live: Sequence[int], first: int) -> None:
        """Show hands in order from ``first``. With anyone all in every hand is shown (TDA
        Rule 16); otherwise a hand that cannot at least tie the best shown so far is mucked
        unseen (TDA Rules 13, 14, 17-B). Hands whose cards are unknown are mucked in their
        turn, and are no hand to beat for those after them (see :class:`Hand`)."""
        self.tabled = True
        order = sorted(live, key=lambda p: (p - first) % self.n)
        unknown = self.unknown
        if any(self.all_in[p] for p in live):
            shown = [p for p in order if p not in unknown]
        else:
            codes = [c.code for c in self.board]
            best, shown = 0, []
            for p in order:
                if p in unknown:
                    continue
                rank = rank7(self.holes[p][0].code, self.holes[p][1].code, *codes)
                if rank >= best:
                    best = rank
                    shown.append(p)
        for p in order:
            if p in shown:
                self.shown.add(p)
                events.append(CardsShown(seat=self.seats[p], cards=self.holes[p]))
            else:
                events.append(CardsMucked(seat=self.seats[p]))

    def _showdown(self, events: list[Event], live: Sequence[int]) -> None:
        """Table the hands if that has not happened yet, then split each pot among the
        best hands shown (a pot no shown hand contests: among its unknown hands, see
        :class:`Hand`)."""
        if not self.tabled:
            self._table(events, live, self._first_to_show(live))
        codes = [c.code for c in self.board]
        ranks = {p: rank7(self.holes[p][0].code, self.holes[p][1].code, *codes) for p in self.shown}
        for index, pot in enumerate(self.pots()):
            # pot.eligible runs from the first seat left of the button, as odd chips do.
            contenders = [p for p in pot.eligible if p in ranks]
            if contenders:
                top = max(ranks[p] for p in contenders)
                winners = [p for p in contenders if ranks[p] == top]
            else:  # only hands whose cards are unknown contest it: a tie
                top, winners = 0, list(pot.eligible)
            shares = split(pot.amount, winners)
            for p, share in shares:
                self.stacks[p] += share
            events.append(
                PotAwarded(
                    pot=index,
                    amount=pot.amount,
                    eligible=tuple(self.seats[p] for p in pot.eligible),
                    shares=tuple((self.seats[p], share) for p, share in shares),
                    rank=top,
                    description=describe_rank(top) if top else "",
                )
            )
        self._end(events)

    def pots(self, *, this_street: bool = True) -> list[Pot]:
        """The main pot and side pots as they stand.

        With ``this_street=False`` the chips bet on the current street are left out, as
        they are still in front of the players; that is what a table shows mid-street.
        Dead money (a big-blind ante, dead blinds) goes to the main pot.
        """
        live = [
            self.totals[p] - self.dead[p] - (0 if this_street else self.bets[p])
            for p in range(self.n)
        ]
        in_hand = [not f for f in self.folded]
        pots = build_pots(live, in_hand)
        dead = sum(self.dead)
        if dead:
            if pots:
                pots[0] = Pot(pots[0].amount + dead, pots[0].eligible)
            else:
                pots = [Pot(dead, tuple(p for p in range(self.n) if in_hand[p]))]
        return pots

    def _end(self, events: list[Event]) -> None:
        self.is_over = True
        self.to_act = -1
        events.append(
            HandEnded(
                hand_number=self.setup.hand_number,
                stacks=tuple(zip(self.seats, self.stacks, strict=True)),
                board=tuple(self.board),
            )
        )
