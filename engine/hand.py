"""One hand of any poker game, from forced bets to the last chip pushed.

:class:`Hand` is the state machine under :class:`engine.table.Table`; it knows nothing
of seating, buttons across hands or missed blinds. A :class:`HandSetup` says which game
is played, who is dealt in, in order from the seat left of the button, with their stacks
and forced bets, which is also exactly what a PHH hand history records, so replays drive
it directly. The game (:class:`engine.games.Game`) says what each street deals, who bets
first and how much, and how the pot is won; this one class plays them all.

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
from enum import IntEnum

from engine import showdown
from engine.actions import (
    Action,
    ActionMenu,
    BetOrRaiseTo,
    BringIn,
    CheckOrCall,
    Draw,
    Fold,
    RunItTwice,
)
from engine.cards import Card, Rank
from engine.dealing import Dealer
from engine.deck import Deck
from engine.errors import IllegalActionError, InvalidActionError, InvalidConfigError
from engine.events import (
    ActionTaken,
    BoardDealt,
    BoardDealtOnBoard,
    BombPotStarted,
    BountyPaid,
    CardsDrawn,
    CardsRevealed,
    Event,
    ForcedBetPosted,
    HandEnded,
    HandEndedOnBoards,
    HandStarted,
    HoleCardsDealt,
    PotAwarded,
    RabbitHunted,
    RunItTwiceAnswered,
    UncalledBetReturned,
    UpCardsDealt,
)
from engine.games import NLHE, Game, Opener, StreetSpec
from engine.pots import Pot, build_pots
from engine.ranking import showing_high, showing_low

__all__ = ["Hand", "HandSetup", "PublicState"]


def _text(cards: Sequence[Card]) -> str:
    return " ".join(map(str, cards))


_ACTIONS = frozenset((Fold, CheckOrCall, BetOrRaiseTo, BringIn, Draw, RunItTwice))
# Bound once: looking an enum's member up on its class costs a call each time.
_HIGH_HAND, _LOW_HAND = Opener.HIGH_HAND, Opener.LOW_HAND
# Event kind of a live blind by (is the big blind amount, is the small blind amount).
_BLIND_KINDS = {(True, False): "big_blind", (True, True): "big_blind", (False, True): "small_blind"}


@dataclass(frozen=True, slots=True)
class PublicState:
    """What everyone may know of a hand at a moment, so that no client works out the rules
    itself: whose turn it is (a seat, to bet or to draw), the main pot then the side pots
    of the streets before this one (this street's chips are each player's street total)
    and the bet to match on this street. Between hands: nobody's turn, no pots."""

    hand_in_progress: bool
    street: IntEnum | None
    to_act: int | None
    pots: tuple[int, ...]
    current_bet: int


@dataclass(frozen=True, slots=True)
class HandSetup:
    """The game, who is dealt in and what they must post, position by position.

    ``seats`` run from the first seat left of the button to the button itself (heads-up:
    the big blind, then the button, who posts the small blind). ``antes`` and
    ``dead_blinds`` are dead money; ``blinds`` are live and count as the player's bet on
    the first street (straddles too). Preflop, the first to act is the player after the
    largest blind. With ``big_blind_ante`` the antes are one player's payment for the
    table: posted after the blind, so a short big blind pays the blind first, and dead
    money for the main pot like dead blinds (TDA Rule 34). Otherwise antes count towards
    each player's share of the pots, as in PHH and pokerkit.

    Fixed-limit games bet ``small_bet`` and ``big_bet`` (by default the big blind and
    twice the small bet); stud games open with a ``bring_in``. With ``uncapped_heads_up``
    a fixed-limit betting round has no cap while only two players can bet (Robert's
    Rules, for cash games; TDA Rule 48 keeps the cap in tournaments).
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
    """The smallest bet in no-limit and pot-limit; the big blind (else the small bet)
    unless set."""
    big_blind_position: int | None = None
    """Whose blind opens the betting: preflop, the first to act is the next player. By
    default the largest blind's (the later one on a tie, as PHH and pokerkit read
    straddles); a table names its big blind, since a newcomer posting a big blind
    elsewhere does not move the action (docs/rules.md P1)."""
    game: Game = NLHE
    bring_in: int = 0
    small_bet: int = 0
    big_bet: int = 0
    uncapped_heads_up: bool = False
    acpc_rules: bool = False
    """A short all-in raise plays as the ACPC dealer plays it, not as the TDA's rules say
    (:class:`engine.rules.RuleProfile`)."""
    straddle: int = 0
    """A table's straddle (docs/rules.md O1, O2): the blind at ``big_blind_position`` is a
    straddle of this many chips. Callers owe all of it even when its poster is short, and
    a raise is by at least this much (to twice the straddle). 0: no straddle, or a
    straddle as PHH and pokerkit read one (the raise is by the big blind)."""
    bomb_pot: bool = False
    """A bomb pot (docs/rules.md O3): the antes are the bomb, nobody posts a blind, and
    the first betting round is skipped: the flop comes at once."""
    boards: int = 1
    """Boards dealt (2: a double board, O4); each pot is split between them."""
    run_it_twice: bool = False
    """Offer to run it twice (docs/rules.md O5): when the players still in are all in
    before the river, each is asked (a :class:`engine.actions.RunItTwice`)."""
    seven_deuce: int = 0
    """The 7-2 bounty (docs/rules.md O6): whoever wins the whole hand holding a 7 and a 2
    and shows them gets this much from every other player dealt in."""

    def __post_init__(self) -> None:
        n = len(self.seats)
        game = self.game
        if not 2 <= n <= game.max_players or len(set(self.seats)) != n:
            raise InvalidConfigError(
                f"a hand of {game.name} needs 2 to {game.max_players} distinct seats, "
                f"got {self.seats!r}"
            )
        if not self.blinds:
            object.__setattr__(self, "blinds", (0,) * n)
        if not self.antes:
            object.__setattr__(self, "antes", (0,) * n)
        if not self.dead_blinds:
            object.__setattr__(self, "dead_blinds", (0,) * n)
        per_player = (self.stacks, self.blinds, self.antes, self.dead_blinds)
        stakes: tuple[int, ...] = (self.small_blind, self.big_blind, self.min_bet)
        stakes += (self.bring_in, self.small_bet, self.big_bet, self.straddle, self.seven_deuce)
        every = (*self.stacks, *self.blinds, *self.antes, *self.dead_blinds, *stakes)
        # One check of every amount: a hand is set up for every hand a table deals.
        lengths = {len(self.stacks), len(self.blinds), len(self.antes), len(self.dead_blinds)}
        if lengths != {n} or set(map(type, every)) != {int} or min(every) < 0:
            self._say_which_amount_is_wrong(n, per_player, stakes)
        if 0 in self.stacks:
            raise InvalidConfigError(f"every player dealt in needs chips, got {self.stacks!r}")
        if not game.blinds and (any(self.blinds) or any(self.dead_blinds)):
            raise InvalidConfigError(f"{game.name} has no blinds, got {self.blinds!r}")
        if self.bring_in and not game.bring_in:
            raise InvalidConfigError(f"{game.name} has no bring-in")
        if self.small_bet == 0:
            object.__setattr__(self, "small_bet", self.big_blind or self.min_bet)
        if self.big_bet == 0:
            object.__setattr__(self, "big_bet", 2 * self.small_bet)
        if self.min_bet == 0:
            object.__setattr__(self, "min_bet", self.big_blind or self.small_bet)
        if self.min_bet == 0 and not game.fixed_limit:
            raise InvalidConfigError(f"{game.name} needs a big blind or a minimum bet")
        if game.fixed_limit and not 0 < self.small_bet <= self.big_bet:
            raise InvalidConfigError(
                f"fixed limit needs 0 < small_bet <= big_bet, "
                f"got {self.small_bet!r}/{self.big_bet!r}"
            )
        if game.bring_in and self.bring_in > self.small_bet:
            raise InvalidConfigError(
                f"the bring-in {self.bring_in!r} is more than the small bet {self.small_bet!r}"
            )
        if self.button is None:
            object.__setattr__(self, "button", self.seats[-1])
        # The table options: one test when none is on (a hand is set up for every hand).
        on = self.straddle or self.bomb_pot or self.run_it_twice or self.seven_deuce
        if on or self.boards != 1:
            self._check_options()

    def _check_bomb_pot(self) -> None:
        game, n = self.game, len(self.seats)
        game.check_options(bomb_pot=self.bomb_pot, run_it_twice=False, seven_deuce=False)
        if self.bomb_pot and (any(self.blinds) or any(self.dead_blinds) or self.straddle):
            raise InvalidConfigError("nobody posts a blind or a straddle in a bomb pot")
        if self.boards not in (1, 2):
            raise InvalidConfigError(f"a hand has 1 or 2 boards, got {self.boards!r}")
        if self.boards == 2:
            if not self.bomb_pot:
                raise InvalidConfigError("two boards are dealt in a bomb pot (bomb_pot=True)")
            needed = n * game.hole_cards + 2 * game.board_cards
            if needed > len(game.deck.cards):
                raise InvalidConfigError(
                    f"two boards and {n} hands of {game.name} need {needed} cards; "
                    f"the deck has {len(game.deck.cards)}"
                )

    def _check_options(self) -> None:
        """The table options (docs/rules.md, "Table options") fit the game and each other."""
        if self.straddle:
            self._check_straddle()
        if self.bomb_pot or self.boards != 1:
            self._check_bomb_pot()
        self.game.check_options(
            bomb_pot=False,  # checked in _check_bomb_pot
            run_it_twice=self.run_it_twice,
            seven_deuce=bool(self.seven_deuce),
        )

    def _check_straddle(self) -> None:
        game = self.game
        if not game.straddles:
            raise InvalidConfigError(
                f"{game.name} has no straddle: straddles are played in no-limit and "
                f"pot-limit games with blinds"
            )
        p = self.big_blind_position
        if p is None or self.blinds[p] != self.straddle or self.straddle <= self.big_blind:
            raise InvalidConfigError(
                f"a straddle of {self.straddle!r} must be the blind at big_blind_position "
                f"and more than the big blind {self.big_blind!r}"
            )

    @staticmethod
    def _say_which_amount_is_wrong(
        n: int, per_player: tuple[tuple[int, ...], ...], stakes: tuple[int, ...]
    ) -> None:
        for name, values in zip(
            ("stacks", "blinds", "antes", "dead_blinds"), per_player, strict=True
        ):
            if len(values) != n or set(map(type, values)) != {int} or min(values) < 0:
                raise InvalidConfigError(f"{name} must be {n} non-negative ints, got {values!r}")
        names = (
            "small_blind, big_blind, min_bet, bring_in, small_bet, big_bet, straddle, seven_deuce"
        )
        raise InvalidConfigError(f"{names} must be non-negative ints, got {stakes!r}")


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

    # Slots: fifty attributes in an instance dict would cost every access (a hand is hot).
    __slots__ = (
        "_acpc",
        "_actions_applied",
        "_cards",
        "_common",
        "_fixed",
        "_keeps_discards",
        "_next",
        "_options_cache",
        "_phantom",
        "_pot_limit",
        "_spec",
        "acted",
        "aggressor",
        "all_in",
        "bets",
        "board",
        "boards",
        "bounty_paid",
        "bring_in_due",
        "capped",
        "choosing",
        "current_bet",
        "dead",
        "dealer",
        "deck",
        "drawing",
        "drawn",
        "folded",
        "full_level",
        "game",
        "holes",
        "is_over",
        "last_raise",
        "live",
        "log",
        "n",
        "opener",
        "position",
        "raises",
        "revealed",
        "runs",
        "seats",
        "setup",
        "shown",
        "stacks",
        "started",
        "street",
        "street_index",
        "tabled",
        "to_act",
        "totals",
        "unknown",
        "up",
        "values",
    )

    def __init__(self, setup: HandSetup, deck: Deck, *, unknown: Collection[int] = ()) -> None:
        n = len(setup.seats)
        self.unknown = frozenset(unknown)  # positions dealt stand-ins: they muck at showdown
        if not self.unknown <= set(range(n)):
            raise InvalidConfigError(f"unknown must be positions 0..{n - 1}, got {unknown!r}")
        game = self.game = setup.game
        # A deck shuffled for the game is valid by construction; others are checked.
        first_pass = len(deck.cards) if deck.spec is game.deck else deck.check(game.deck)
        self.setup = setup
        self.deck = deck
        # A game without draws deals the deck from the top, no more; a draw game may run out
        # and reshuffle, which its Dealer handles.
        self.dealer: Dealer | None = Dealer(deck, first_pass, game.deck) if game.draws else None
        self._cards = deck.cards
        self._next = 0  # the next card to deal, in a game without draws
        self.n = n
        self.seats = setup.seats
        self.position = {seat: i for i, seat in enumerate(setup.seats)}
        self.stacks = list(setup.stacks)
        self.totals = [0] * n  # hand totals, antes and dead blinds included
        self.dead = [0] * n  # the part of totals that is dead money for the main pot
        self.folded = [False] * n
        self.live = n  # players who have not folded
        self.all_in = [False] * n
        self.holes: list[tuple[Card, ...]] = [()] * n
        # Which hole cards lie face up, by position (stud; open dice); None: none ever do.
        self.up: list[tuple[bool, ...]] | None = [()] * n if game.up_cards else None
        self.board: list[Card] = []
        self._init_options(setup)
        self.street_index = 0
        self.street: IntEnum = game.streets_played[0]  # a member of the game's street enum
        self.drawing = False  # the street's draw is under way: only Draw is legal
        self.drawn = [False] * n
        self.bring_in_due = False  # stud: the first wager must be at least the bring-in
        self._new_betting_round()
        self.opener = -1  # who was first to act this street (stud's order, showdowns)
        self.to_act = -1
        self.is_over = False
        self.started = False
        self.tabled = False  # the hands are on the table (shown or mucked)
        self.shown: set[int] = set()
        self.values: dict[int, tuple[int, ...]] = {}  # showdown: each hand under each ranking
        self.log: list[Event] = []
        self._actions_applied = 0
        self._options_cache: tuple[tuple[int, int], tuple[int, int, bool, int, int, bool]] = (
            (-1, -1),
            (0, 0, False, 0, 0, False),
        )
        self._fixed = game.fixed_limit
        self._acpc = setup.acpc_rules
        self._pot_limit = game.pot_limit
        self._spec: StreetSpec = game.streets[0]
        self._common = False  # stud: a common card replaced the last round of hole cards
        self._keeps_discards = game.draws and not game.deck.dice  # a reshuffle may need them

    def _init_options(self, setup: HandSetup) -> None:
        """The state of the table options (docs/rules.md, "Table options")."""
        # Running it twice (O5): the positions yet to answer while the table asks (None
        # otherwise), and the runs decided (0: not asked).
        self.choosing: list[int] | None = None
        self.runs = 0
        self.bounty_paid = False  # the 7-2 bounty (O6)
        self.revealed: dict[int, tuple[Card, ...]] = {}  # cards shown after the hand (O8)
        # Every board where there are more than one (O4), the first being ``board``.
        self.boards: list[list[Card]] | None = None
        if setup.boards > 1:
            self.boards = [self.board, *([] for _ in range(setup.boards - 1))]

    def _new_betting_round(self) -> None:
        n = self.n
        self.bets = [0] * n  # street totals
        # The bet level each player last acted at this street (-1: not yet). A player may
        # raise again only if the bet has grown by a full raise since (TDA Rule 47).
        self.acted = [-1] * n
        self.current_bet = 0
        self.last_raise = self.setup.min_bet
        # Fixed limit: the last level a full bet or raise reached; a raise goes one bet
        # above it, and only moving it reopens the betting (TDA 47-B).
        self.full_level = 0
        self.raises = 0  # bets, raises and completions this street (the cap counts these)
        self.capped = False
        self.aggressor = -1
        self._phantom = 0  # pot-limit preflop: blinds not (fully) posted count anyway

    # -- queries ---------------------------------------------------------------------

    @property
    def seat_to_act(self) -> int | None:
        """The seat whose turn it is, or ``None`` once the hand is over."""
        return self.seats[self.to_act] if self.to_act >= 0 else None

    def public_state(self) -> PublicState:
        """The hand as everyone may know it now (:class:`PublicState`)."""
        if self.is_over:
            return PublicState(False, self.street, None, (), 0)
        pots = tuple(p.amount for p in self.pots(this_street=False))
        return PublicState(True, self.street, self.seat_to_act, pots, self.current_bet)

    def visible(self, position: int) -> tuple[Card, ...]:
        """The cards of ``position`` that everyone sees: up cards (stud), or the whole
        hand once shown."""
        if position in self.shown:
            return self.holes[position]
        if self.up is None:
            return ()
        return tuple(c for c, up in zip(self.holes[position], self.up[position], strict=True) if up)

    def legal_actions(self, position: int) -> ActionMenu | None:
        """The menu for the player at ``position``, or ``None`` if it is not their turn."""
        if position != self.to_act:
            return None
        seat = self.seats[position]
        if self.choosing is not None:
            return ActionMenu(
                seat, False, False, 0, False, False, 0, 0, False, False, run_it_twice=True
            )  # fmt: skip
        if self.drawing:
            return ActionMenu(
                seat, False, False, 0, False, False, 0, 0, False, False,
                max_discard=len(self.holes[position]),
            )  # fmt: skip
        owed, call, can_raise, min_to, max_to, all_in_only = self._options(position)
        if self.bring_in_due:
            bring_in = min(self.setup.bring_in, self.stacks[position])
            return ActionMenu(
                seat,
                position != self.opener,  # the low card must bring in (TDA RP-10-E)
                False,
                0,
                False,
                can_raise,
                min_to if can_raise else 0,
                max_to if can_raise else 0,
                can_raise and all_in_only,
                False,
                bring_in=bring_in,
                completes=can_raise,
            )
        if can_raise and self.setup.bring_in and self.current_bet and not self.full_level:
            # Stud after a bring-in: a raise completes the bet to the small bet.
            return ActionMenu(
                seat, owed > 0 or self.setup.fold_when_check_is_free, owed <= 0, call,
                call > 0 and call == self.stacks[position], True, min_to, max_to, all_in_only,
                False, completes=True,
            )  # fmt: skip
        # Positional for speed (a menu per decision), in ActionMenu's field order: seat,
        # can_fold, can_check, call, call_is_all_in, can_raise, min_raise_to,
        # max_raise_to, raise_is_all_in_only, is_bet.
        return ActionMenu(
            seat,
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
        if self._fixed:
            # One bet above the last full level; a short all-in leaves that level alone
            # (the bring-in too), so the next wager completes it (TDA 47-B).
            min_to = max_to = min(self.full_level + self._bet_size(), max_to)
            reopened = self._acpc or self.acted[p] < 0 or self.full_level > self.acted[p]
            can_raise = stack > owed and reopened and not self.capped
        else:
            min_to = current + self.last_raise if current else self.setup.min_bet
            # Reopened: not acted yet, or the bet grew by a full raise since (TDA 47-A).
            can_raise = stack > owed and (
                self._acpc or self.acted[p] < 0 or current - self.acted[p] >= self.last_raise
            )
            if self._pot_limit:
                # Call, then raise by the pot after the call (Robert's Rules; TDA 54).
                max_to = min(max_to, current + sum(self.totals) + self._phantom + owed)
                min_to = min(min_to, max_to)
        if can_raise:
            # Someone must be able to call more than the current bet; otherwise a raise
            # would only come back as uncalled (docs/rules.md W7).
            can_raise = False
            for q in range(self.n):
                if q != p and not folded[q] and bets[q] + stacks[q] > current:
                    can_raise = True
                    break
        all_in_only = bets[p] + stack <= min_to
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

    def _bet_size(self) -> int:
        return self.setup.big_bet if self._spec.big_bet else self.setup.small_bet

    # -- the flow ----------------------------------------------------------------------

    def start(self) -> list[Event]:
        """Post the forced bets, deal the first street and find the first player to act."""
        if self.started:
            raise IllegalActionError("the hand has already started")
        self.started = True
        s = self.setup
        blind_order = sorted([(a, p) for p, a in enumerate(s.blinds) if a])
        if s.big_blind_position is not None:
            opener = s.big_blind_position
        else:
            opener = blind_order[-1][1] if blind_order else self.n - 1
        # HandStarted's fields in order: hand_number, button, seats, stacks, small_blind,
        # big_blind, ante, ante_kind, big_blind_seat; a bomb pot says so (O3), with its
        # boards.
        ante_kind = (
            "none" if not any(s.antes) else "big_blind" if s.big_blind_ante else "per_player"
        )
        started = (
            s.hand_number, s.button if s.button is not None else s.seats[-1], s.seats,
            s.stacks, s.small_blind, s.big_blind, max(s.antes), ante_kind, s.seats[opener],
        )  # fmt: skip
        events: list[Event] = [
            BombPotStarted(*started, boards=s.boards) if s.bomb_pot else HandStarted(*started)
        ]
        if not s.big_blind_ante and any(s.antes):
            self._post_antes(events)
        # Callers owe the full big blind even when the big blind is all in for less
        # (docs/rules.md F3); a short straddle counts for what was posted.
        owed = 0
        for amount, p in blind_order:
            if amount <= s.big_blind:
                owed = amount
            if self._pot_limit:  # a blind not (fully) posted counts in full (TDA 54-B)
                self._phantom += amount if self.all_in[p] else max(amount - self.stacks[p], 0)
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
        if self._pot_limit and blind_order and s.small_blind and blind_order[0][0] > s.small_blind:
            self._phantom += s.small_blind  # a dead small blind counts too (TDA 54-B)
        if s.big_blind_ante:
            self._post_antes(events)
        if any(s.dead_blinds):
            for p, amount in enumerate(s.dead_blinds):
                if amount and not self.all_in[p]:
                    self._post(events, p, amount, "dead_blind", live=False, dead=True)
        if s.straddle:
            # A table's straddle is the first street's bet and its size: callers owe it
            # all even from a short straddler (F3), and a raise is by at least it (O1).
            owed = self.last_raise = s.straddle
        self.current_bet = max(owed, *self.bets)
        self.full_level = self.current_bet  # the big blind is the first street's bet
        self._deal_cards(events)
        if s.bomb_pot:
            self._continue(events, -1)  # no betting before the flop (O3)
        elif self.game.bring_in:
            self._continue(events, self._open_on_cards())
        else:
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
        kind = type(action)
        if kind not in _ACTIONS:
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
        if self.choosing is not None or kind is RunItTwice:
            return self._answer(p, action)
        if self.drawing or kind is Draw:
            return self._apply_draw(p, action)
        owed, call, can_raise, min_to, max_to, _ = self._options(p)
        events: list[Event] = []
        if kind is Fold:
            if self.bring_in_due or (owed <= 0 and not self.setup.fold_when_check_is_free):
                self._refuse_fold(p, owed)
            self.folded[p] = True
            self.live -= 1
            self.acted[p] = self.current_bet
            if self._keeps_discards:
                assert self.dealer is not None  # a game with draws has one
                self.dealer.throw_away(self.holes[p])
            self._record(events, p, "fold", 0)
        elif kind is CheckOrCall:
            if self.bring_in_due:
                raise IllegalActionError(f"seat {action.seat} must bring in, complete or fold")
            self._pay(p, call)
            self.acted[p] = self.current_bet
            self._record(events, p, "call" if call else "check", call)
        elif kind is BringIn:
            self._bring_in(events, p)
        else:
            assert isinstance(action, BetOrRaiseTo)
            if not can_raise:
                raise IllegalActionError(f"seat {action.seat} cannot bet or raise now")
            if not min_to <= action.amount <= max_to:
                what = "raise" if self.current_bet else "bet"
                if min_to == max_to:
                    raise IllegalActionError(
                        f"{what} to {action.amount}: the only {what} is to {min_to}"
                    )
                raise IllegalActionError(f"{what} to {action.amount} is outside {min_to}..{max_to}")
            if self._fixed:
                self._raise_limit(events, p, action.amount)
            else:
                self._raise_big(events, p, action.amount)
        self._actions_applied += 1  # the cached menu is stale from here
        self._continue(events, self._next_to_act(p))
        self.log.extend(events)
        return events

    def _answer(self, p: int, action: Action) -> list[Event]:
        """A player's answer to running it twice (O5): everyone must agree, in turn; one
        no and the board is dealt once."""
        seat = self.seats[p]
        if self.choosing is None:
            raise IllegalActionError(f"seat {seat} is not asked whether to run it twice")
        if not isinstance(action, RunItTwice):
            raise IllegalActionError(f"seat {seat} must say whether to run it twice")
        events: list[Event] = [RunItTwiceAnswered(seat, action.agree)]
        self._actions_applied += 1
        rest = self.choosing[1:]
        if action.agree and rest:
            self.choosing = rest
            self.to_act = rest[0]
        else:
            self.choosing = None
            self.runs = 2 if action.agree else 1
            self._continue(events, -1)
        self.log.extend(events)
        return events

    def _asks_to_run_twice(self, live: list[int]) -> bool:
        """Whether to ask now: the table offers it, nobody can bet any more, board cards
        are still to come, and nobody has been asked yet (O5)."""
        if not self.setup.run_it_twice or self.runs or self.boards is not None:
            return False
        if sum(not self.all_in[p] for p in live) > 1:
            return False
        return any(s.board for s in self.game.streets[self.street_index + 1 :])

    def _run_out_twice(self, events: list[Event], live: list[int]) -> None:
        """Everyone agreed (O5): the hands are tabled, then the rest of the board is dealt
        for the first run, then again for the second, from the same deck."""
        if not self.tabled:
            showdown.table(self, events, live, self.first_to_show(live))
        self._new_betting_round()
        streets, start = self.game.streets, self.street_index
        self.boards = [self.board, list(self.board)]
        for run, board in enumerate(self.boards):
            for index in range(start + 1, len(streets)):
                self.street_index = index
                self.street = self.game.streets_played[index]
                self._spec = streets[index]
                cards = self._take(self._spec.board)
                board.extend(cards)
                events.append(BoardDealtOnBoard(self.street, cards, tuple(board), run))
        self.to_act = -1
        showdown.settle(self, events, live)

    def _refuse_fold(self, p: int, owed: int) -> None:
        """Raise if folding is not allowed: the low card must bring in, and checking is
        free (unless the table allows folding then). A player facing the bring-in may fold."""
        seat = self.seats[p]
        if self.bring_in_due and p == self.opener:
            raise IllegalActionError(f"seat {seat} must bring in or complete")
        if owed <= 0 and not self.bring_in_due and not self.setup.fold_when_check_is_free:
            raise IllegalActionError(f"seat {seat} cannot fold: checking is free")

    def _bring_in(self, events: list[Event], p: int) -> None:
        if not self.bring_in_due:
            raise IllegalActionError(f"seat {self.seats[p]} has no bring-in to post")
        amount = min(self.setup.bring_in, self.stacks[p])
        self.bring_in_due = False
        self.current_bet = amount
        self._pay(p, amount)
        self.acted[p] = self.current_bet
        self._record(events, p, "bring_in", amount)

    def _raise_big(self, events: list[Event], p: int, amount: int) -> None:
        """A no-limit or pot-limit bet or raise."""
        previous = self.current_bet
        if self._acpc:
            # The next raise-to is the larger of the last minimum and this raise again.
            self.last_raise = max(self.last_raise - (amount - previous), amount - previous)
        else:
            # Only a full bet or raise sets the new minimum and reopens the betting.
            self.last_raise = max(amount - previous, self.last_raise)
        self.current_bet = amount
        increment = amount - self.bets[p]
        self._pay(p, increment)
        self.acted[p] = amount
        self.aggressor = p
        self._record(events, p, "raise" if previous else "bet", increment)

    def _raise_limit(self, events: list[Event], p: int, amount: int) -> None:
        """A fixed-limit bet, raise or completion (no-limit's are in :meth:`apply`)."""
        previous = self.current_bet
        size = self._bet_size()
        if self.bring_in_due or (self.full_level == 0 and previous):
            kind = "complete"  # a bring-in, or a short all-in bet, made a full bet
        else:
            kind = "raise" if previous else "bet"
        # An all-in for at least half a bet more counts as a full raise (TDA 47-B); in
        # the ACPC dealer's rules, any raise does.
        if self._acpc or 2 * (amount - self.full_level) >= size:
            self.full_level = amount
            self.raises += 1
            cap = self._spec.max_raises
            if cap is not None and self.raises >= cap and not self._heads_up():
                self.capped = True
        self.bring_in_due = False
        self.current_bet = amount
        increment = amount - self.bets[p]
        self._pay(p, increment)
        self.acted[p] = amount
        self.aggressor = p
        self._record(events, p, kind, increment)

    def _heads_up(self) -> bool:
        """Whether the cap is lifted: only two players can still bet (Robert's Rules)."""
        if not self.setup.uncapped_heads_up:
            return False
        able = sum(not f and not a for f, a in zip(self.folded, self.all_in, strict=True))
        return able <= 2

    def _apply_draw(self, p: int, action: Action) -> list[Event]:
        seat = self.seats[p]
        if not self.drawing:
            raise IllegalActionError(f"seat {seat} cannot draw now: there is no draw this street")
        if not isinstance(action, Draw):
            raise IllegalActionError(f"seat {seat} must draw (or stand pat) first")
        hole = list(self.holes[p])
        discard = action.discard
        if not self.game.deck.dice and len(set(discard)) != len(discard):
            raise IllegalActionError(f"seat {seat} discards a card twice")
        remaining = list(hole)
        for card in discard:
            if card not in remaining:
                raise IllegalActionError(
                    f"seat {seat} cannot discard {str(card)!r}: not in the hand"
                )
            remaining.remove(card)
        assert self.dealer is not None  # a game with draws has one
        if self._keeps_discards:
            self.dealer.throw_away(discard)
        new = self.dealer.take(len(discard), keep_out=discard)
        taken = list(discard)
        replacement = iter(new)
        for i, card in enumerate(hole):
            if card in taken:
                taken.remove(card)
                hole[i] = next(replacement)
        self.holes[p] = tuple(hole)
        self.drawn[p] = True
        face_up = self.up is not None and all(self.up[p])
        events: list[Event] = [
            CardsDrawn(seat, self.street, len(discard), tuple(discard), tuple(new), face_up)
        ]
        self._actions_applied += 1
        nxt = self._next_drawer()
        if nxt >= 0:
            self.to_act = nxt
        else:
            self.drawing = False
            self._continue(events, self._open_betting())
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
        if self.setup.run_it_twice:
            if self._asks_to_run_twice(live):
                self.choosing = live  # from the first left of the button
                self.to_act = live[0]
                return
            if self.runs == 2:
                self._run_out_twice(events, live)
                return
        streets = self.game.streets
        while self.street_index < len(streets) - 1:
            if (
                not self.tabled
                and sum(not self.all_in[p] for p in live) <= 1
                and not self.game.draws_after[self.street_index]
            ):
                # All in and the betting is over: every hand is tabled before the rest is
                # dealt (TDA Rule 16); in a draw game, only once the draws are done.
                showdown.table(self, events, live, self.first_to_show(live))
            self.street_index += 1
            self.street = self.game.streets_played[self.street_index]
            self._spec = streets[self.street_index]
            if self._spec.draw:
                self.drawing = True
                self.drawn = [False] * self.n
                nxt = self._next_drawer()
                if nxt >= 0:
                    self.to_act = nxt
                    return
                self.drawing = False
            else:
                self._deal_cards(events)
            nxt = self._open_betting()
            if nxt >= 0:
                self.to_act = nxt
                return
        self.to_act = -1
        showdown.settle(self, events, live)

    # -- streets -------------------------------------------------------------------------

    def _deal_cards(self, events: list[Event]) -> None:
        """Deal the street's hole cards, one round at a time from left of the button, and
        its board cards."""
        spec = self._spec
        if spec.hole:
            folded = self.folded
            receivers = [p for p in range(self.n) if not folded[p]]
            m, count = len(receivers), len(spec.hole)
            if self.up is not None and len(self._cards) - self._next < count * m:
                self._common = True
                self._deal_board(events, 1)  # stud's common card (TDA RP-10-H)
            elif self.up is None:  # all face down: the hot path of hold'em and Omaha
                dealt = self._take(m * count)
                seats, holes = self.seats, self.holes
                for i, p in enumerate(receivers):
                    cards = dealt[i::m]  # one card to each receiver, round after round
                    holes[p] += cards
                    events.append(HoleCardsDealt(seats[p], cards))
            else:
                self._deal_up(events, receivers, spec.hole)
        if spec.board:
            self._deal_board(events, spec.board)

    def _deal_up(self, events: list[Event], receivers: list[int], faces: tuple[bool, ...]) -> None:
        """Stud and dice: cards down and up, a round at a time; a tabled hand's face up."""
        assert self.up is not None
        m, count = len(receivers), len(faces)
        dealt = self._take(m * count)
        street = self.street
        for i, p in enumerate(receivers):
            cards = dealt[i::m]
            self.holes[p] += cards
            up = (True,) * count if p in self.shown else faces
            self.up[p] += up
            down = tuple(c for c, u in zip(cards, up, strict=True) if not u)
            shown = tuple(c for c, u in zip(cards, up, strict=True) if u)
            if down:
                events.append(HoleCardsDealt(self.seats[p], down))
            if shown:
                events.append(UpCardsDealt(self.seats[p], street, shown))

    def _take(self, count: int) -> tuple[Card, ...]:
        if self.dealer is not None:
            return tuple(self.dealer.take(count))
        start = self._next
        if start + count > len(self._cards):
            raise IllegalActionError(f"the deck is used up: no {count} cards to deal")
        self._next = start + count
        return self._cards[start : start + count]

    def _deal_board(self, events: list[Event], count: int) -> None:
        if self.boards is not None:
            for i, board in enumerate(self.boards):  # the first board's cards, then the next
                cards = self._take(count)
                board.extend(cards)
                events.append(BoardDealtOnBoard(self.street, cards, tuple(board), i))
            return
        new = self._take(count)
        self.board += new
        events.append(BoardDealt(street=self.street, cards=new, board=tuple(self.board)))

    def _next_drawer(self) -> int:
        """The next player still in the hand who has not drawn, from left of the button
        (players all in draw too)."""
        for p in range(self.n):
            if not self.folded[p] and not self.drawn[p]:
                return p
        return -1

    def _open_betting(self) -> int:
        """Start the street's betting round: the first player to act, or -1 when fewer than
        two can bet."""
        self._new_betting_round()
        self._actions_applied += 1
        opener = self._spec.opener
        if opener is _HIGH_HAND or opener is _LOW_HAND:
            return self._open_on_cards()
        self.opener = -1
        return self._next_to_act(self.n - 1)

    def _open_on_cards(self) -> int:
        """Stud: the bring-in (the lowest or highest up card) or the best hand showing acts
        first, ties broken by the highest card by suit (docs/rules.md T2, T4)."""
        opener = self._spec.opener
        live = [p for p in range(self.n) if not self.folded[p]]
        if self._common and self.opener >= 0:
            # The common card: who acted first on sixth street acts first (TDA RP-10-H).
            first = self.opener
        elif opener in (Opener.LOW_CARD, Opener.HIGH_CARD):
            first = self._bring_in_card(live, low=opener is Opener.LOW_CARD)
        else:
            low = opener is Opener.LOW_HAND
            rank = showing_low if low else showing_high

            def key(p: int) -> tuple[int, tuple[int, int]]:
                codes = [c.code for c in self.visible(p)]
                # Ties: the highest card by suit (TDA RP-10-D), aces low in razz.
                top = max(((((c >> 2) + 1) % 13 if low else c >> 2), c & 3) for c in codes)
                return rank(codes), top

            first = max(live, key=key)
        self.opener = first
        nxt = self._next_to_act(first - 1)
        if nxt >= 0 and opener in (Opener.LOW_CARD, Opener.HIGH_CARD) and self.setup.bring_in:
            self.bring_in_due = True
        return nxt

    def _bring_in_card(self, live: list[int], *, low: bool) -> int:
        """The player whose last up card brings in: the lowest card with aces high and
        clubs lowest, or in razz the highest with aces low and spades highest."""

        def card(p: int) -> int:
            up = [c for c, face in zip(self.holes[p], self.up[p], strict=True) if face]  # type: ignore[index]
            return up[-1].code

        if low:
            return min(live, key=card)
        return max(live, key=lambda p: (((card(p) >> 2) + 1) % 13, card(p) & 3))

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
        self.end(events)

    # -- after the hand: cards shown, the 7-2 bounty, the rabbit ------------------------

    def show(self, seat: int, cards: Sequence[Card], *, away: Collection[int] = ()) -> list[Event]:
        """After the hand, ``seat`` shows some or all of their hole cards (docs/rules.md
        O8): a public :class:`CardsRevealed`. If that shows the 7-2 that won the whole
        hand, the bounty is paid (O6), by everyone dealt in but the seats in ``away``
        (players who have left the table since).

        Raises :class:`IllegalActionError`, changing nothing, before the hand is over, for
        a seat not dealt in, or cards not the player's or already shown.
        """
        p = self.position.get(seat, -1)
        if not self.is_over:
            raise IllegalActionError("cards are shown after the hand, not during it")
        if p < 0:
            raise IllegalActionError(f"seat {seat} was not dealt in")
        hole, before = self.holes[p], self.revealed.get(p, ())
        shown = tuple(cards)
        if p in self.unknown or not shown:
            raise IllegalActionError(f"seat {seat} cannot show {_text(shown)!r}")
        left = [] if p in self.shown else list(hole)  # dice may repeat: count them
        for card in before:
            left.remove(card)
        for card in shown:
            if card not in hole:
                raise IllegalActionError(f"seat {seat} does not hold {str(card)!r}")
            if card not in left:
                raise IllegalActionError(f"seat {seat} has shown {str(card)!r} already")
            left.remove(card)
        self.revealed[p] = before + shown
        events: list[Event] = [CardsRevealed(seat, shown)]
        if self._won_with_seven_deuce(p, self.revealed[p], self.log):
            self._pay_bounty(events, p, away)
        self.log.extend(events)
        return events

    def _won_with_seven_deuce(self, p: int, shown: Sequence[Card], awards: Sequence[Event]) -> bool:
        """O6: the bounty is on, not yet paid, ``p`` won every chip awarded (``awards``:
        the hand's events), and the cards ``p`` showed are a 7 and a 2."""
        if not self.setup.seven_deuce or self.bounty_paid:
            return False
        ranks = {c.rank for c in shown}
        if Rank.SEVEN not in ranks or Rank.TWO not in ranks:
            return False
        seat = self.seats[p]
        shares = [s for e in awards if isinstance(e, PotAwarded) for s in e.shares if s[1]]
        return bool(shares) and all(winner == seat for winner, _ in shares)

    def _pay_bounty(self, events: list[Event], p: int, away: Collection[int]) -> None:
        bounty = self.setup.seven_deuce
        payers = []
        for q in range(self.n):
            if q != p and self.seats[q] not in away:
                paid = min(bounty, self.stacks[q])
                self.stacks[q] -= paid
                payers.append((self.seats[q], paid))
        total = sum(paid for _, paid in payers)
        self.stacks[p] += total
        self.bounty_paid = True
        events.append(BountyPaid(self.seats[p], bounty, tuple(payers), total, self.stacks[p]))

    def rabbit_cards(self) -> tuple[Card, ...]:
        """The board cards that would have come had the hand gone on (docs/rules.md O7):
        the next cards of the same deck, as the engine deals them (no burn cards). Empty
        during the hand, once the board is complete, with two boards, and in games
        whose later streets deal more than board cards. The result stands."""
        if not self.is_over or self.boards is not None or not self.game.runs_twice:
            return ()
        missing = self.game.board_cards - len(self.board)
        return self._cards[self._next : self._next + missing] if missing > 0 else ()

    def hunt_rabbit(self) -> list[Event]:
        """Record :meth:`rabbit_cards` in the hand, as a public :class:`RabbitHunted`
        (nothing if there are none); the hand's result is unchanged."""
        cards = self.rabbit_cards()
        if not cards:
            return []
        events: list[Event] = [RabbitHunted(cards, (*self.board, *cards))]
        self.log.extend(events)
        return events

    def first_to_show(self, live: Sequence[int]) -> int:
        """The last player to bet or raise on the final betting round, else the player who
        would have acted first on it (TDA Rule 17-A)."""
        if self.aggressor >= 0:
            return self.aggressor
        if self.opener >= 0 and not self.folded[self.opener]:
            return self.opener
        return live[0]

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

    def end(self, events: list[Event]) -> None:
        """The hand is over: pay the 7-2 bounty if it was won at showdown (O6), and record
        the final stacks."""
        if self.setup.seven_deuce:  # shown at showdown: the awards are in ``events``
            for p in self.shown:
                if self._won_with_seven_deuce(p, self.holes[p], events):
                    self._pay_bounty(events, p, ())
        self.is_over = True
        self.to_act = -1
        number, stacks = self.setup.hand_number, tuple(zip(self.seats, self.stacks, strict=True))
        if self.boards is None:
            events.append(HandEnded(number, stacks, tuple(self.board)))
        else:
            boards = tuple(map(tuple, self.boards))
            events.append(HandEndedOnBoards(number, stacks, boards[0], boards))
