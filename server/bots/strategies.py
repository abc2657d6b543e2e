"""The built-in bots, and loading a bot by name or by ``module:Class``.

A bot is anything with ``act(view, menu) -> Action``: it gets what its seat may see (an
:class:`engine.TableView`, its own hole cards included) and the exact legal menu, and
must return an action that menu allows. Bots hold no reference to the table; the server
asks them and applies their answer like any player's.

>>> import random
>>> from engine import Deck, Table, TableConfig
>>> table = Table(TableConfig(small_blind=50, big_blind=100, seats=2))
>>> _ = table.sit_down(0, 10_000); _ = table.sit_down(1, 10_000)
>>> _ = table.start_hand(Deck.shuffled(random.Random(3)))
>>> seat = table.to_act
>>> action = load_bot("calling-station").act(table.view(seat), table.legal_actions(seat))
>>> action
CheckOrCall(seat=0)
"""

from __future__ import annotations

import importlib
import inspect
import math
import random
from collections.abc import Sequence
from typing import Final, Protocol, runtime_checkable

from engine import (
    Action,
    ActionMenu,
    BetOrRaiseTo,
    BringIn,
    Card,
    CheckOrCall,
    Draw,
    Fold,
    Game,
    SeatView,
    TableView,
    rank7,
    ranking,
)
from server.bots.strength import dice_equity, discards, draw_equity, showdown_equity

__all__ = [
    "STRATEGIES",
    "Bot",
    "CallingStation",
    "RandomBot",
    "TightAggressive",
    "chen_score",
    "load_bot",
]


@runtime_checkable
class Bot(Protocol):
    """A player the server can seat: one decision at a time, always a legal one."""

    def act(self, view: TableView, menu: ActionMenu) -> Action:
        """The action for ``menu.seat``, given what that seat may see; ``menu`` must allow it."""
        ...


def _own_cards(view: TableView, seat: int) -> tuple[Card, ...]:
    me = next((s for s in view.seats if s.seat == seat), None)
    return () if me is None or me.cards is None else me.cards


class RandomBot:
    """Picks uniformly among the kinds of action on the menu: fold (only when facing a bet),
    check or call (or bring in), and bet, raise or complete. A raise goes all in a quarter
    of the time, otherwise to an amount uniform between the minimum and the maximum. In a
    draw it throws away a random number of random cards (or re-rolls random dice). Seeded,
    it repeats itself."""

    ALL_IN_SHARE: Final = 0.25

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def act(self, view: TableView, menu: ActionMenu) -> Action:
        seat = menu.seat
        if menu.can_draw:
            hand = _own_cards(view, seat)
            count = self._rng.randint(0, min(menu.max_discard, len(hand)))
            return Draw(seat, tuple(self._rng.sample(hand, count)))
        choices: list[Action] = [BringIn(seat) if menu.can_bring_in else CheckOrCall(seat)]
        # Folding when a check is free (a rule option) is no decision a player would make.
        if menu.can_fold and (menu.call > 0 or menu.can_bring_in):
            choices.append(Fold(seat))
        if menu.can_raise:
            if self._rng.random() < self.ALL_IN_SHARE:
                amount = menu.max_raise_to
            else:
                amount = self._rng.randint(menu.min_raise_to, menu.max_raise_to)
            choices.append(BetOrRaiseTo(seat, amount))
        return self._rng.choice(choices)


class CallingStation:
    """Checks or calls, whatever happens; brings in for the least it may, and stands pat."""

    def act(self, view: TableView, menu: ActionMenu) -> Action:
        if menu.can_draw:
            return Draw(menu.seat)
        if menu.can_bring_in:
            return BringIn(menu.seat)
        return CheckOrCall(menu.seat)


def chen_score(first: Card, second: Card) -> int:
    """Bill Chen's preflop score of two hole cards: 20 for aces down to -1 for 7-2 offsuit.

    The high card scores 10 (ace), 8 (king), 7 (queen), 6 (jack) or half its pips; a pair
    doubles it (at least 5); suited adds 2; a gap between the ranks costs 1, 2, 4 or 5;
    connected or one-gapped cards below a queen add 1; halves round up.

    >>> from engine import parse_cards
    >>> [chen_score(*parse_cards(h)) for h in ("AsAd", "AsKs", "AdKc", "Jh Th", "7c2d")]
    [20, 12, 10, 9, -1]
    """
    high, low = sorted((first.code >> 2, second.code >> 2), reverse=True)
    top = _CHEN_TOP.get(high, (high + 2) / 2)
    if high == low:
        return max(5, math.ceil(top * 2))
    score = top + (2 if first.suit is second.suit else 0)
    gap = high - low - 1
    score -= (0, 1, 2, 4)[gap] if gap < 4 else 5
    if gap <= 1 and high < 10:  # both below a queen
        score += 1
    return math.ceil(score)


_CHEN_TOP: Final = {12: 10.0, 11: 8.0, 10: 7.0, 9: 6.0}


def _is_holdem(game: Game) -> bool:
    """Two hole cards, five on the board, the 52 ranked high: Chen's score applies."""
    return (
        game.hole_cards == 2
        and game.board_cards == 5
        and game.hands == (ranking.HIGH,)
        and game.deck.name == "standard"
    )


class TightAggressive:
    """A tight-aggressive player, in every game.

    In hold'em, preflop it plays by :func:`chen_score`: it opens the top fifth of hands
    at a full table (about a quarter three to five handed and over 40 % heads-up) with a
    raise to three big blinds plus one per limper, checks its big blind otherwise, and
    facing a raise re-raises the best hands (pairs of jacks and up, ace-king suited) and
    calls the next tier only while the price is a small part of the stacks.

    After the flop, and on every street of the other games, it estimates its equity
    (Monte Carlo over ``samples`` deals with its own seeded generator): against each
    opponent still in the hand holding random unseen cards, ranked by the game's own
    rankings, with every up card in view (Omaha, short deck, jokers, stud and razz, Kuhn
    and Leduc, hi-lo halves apart); in draw games by playing its draws out and ranking
    the result in the game's table of final hands; with dice by rolling everyone's
    re-rolls. It bets or raises about two thirds of the pot when that equity is well
    above its fair share, calls when it beats the pot odds, and otherwise checks or
    folds. Stud's bring-in it completes with a strong hand. Its discards are
    :func:`server.bots.strength.discards`: low cards in 2-7, pairs and made hands in
    five-card draw, the best badugi, the most repeated dice.
    """

    # Preflop: how many chips (in big blinds, this street's total) each tier will put in
    # facing a raise. Re-raising hands go to any amount.
    RERAISE_SCORE: Final = 12
    CALL_LIMITS: Final = ((10, 30), (9, 12), (8, 6))
    # Postflop: above fair share + this part of the rest, bet; above the second, raise.
    BET_EDGE: Final = 0.3
    RAISE_EDGE: Final = 0.5
    CALL_MARGIN: Final = 0.03
    BET_POT_SHARE: Final = 2 / 3
    # A bet that would leave less than this part of the stack behind goes all in instead.
    COMMIT_SHARE: Final = 0.7

    def __init__(self, seed: int | None = None, samples: int = 400) -> None:
        if samples < 1:
            raise ValueError(f"samples must be positive, got {samples!r}")
        self._rng = random.Random(seed)
        self.samples = samples

    def act(self, view: TableView, menu: ActionMenu) -> Action:
        seat, game = menu.seat, view.config.game
        me = next((s for s in view.seats if s.seat == seat), None)
        if me is None or not me.cards:  # nothing to judge by: never fold what is free
            if menu.can_draw:
                return Draw(seat)
            return BringIn(seat) if menu.can_bring_in else CheckOrCall(seat)
        if menu.can_draw:
            throw = discards(game, me.cards, self._draws_left(view, drawing=True))
            return Draw(seat, throw[: menu.max_discard])
        opponents = [s for s in view.seats if s.has_cards and s.seat != me.seat]
        if _is_holdem(game) and len(me.cards) == 2:
            if view.street == 0:
                return self._preflop(view, menu, me, me.cards)
            share = self.estimate_equity(me.cards, view.board, len(opponents))
        else:
            share = self.game_equity(view, me, opponents)
        fair = 1 / (len(opponents) + 1)
        if menu.can_bring_in:  # stud's first bet: complete a strong hand, else bring in
            if menu.can_raise and share >= fair + (1 - fair) * self.BET_EDGE:
                return BetOrRaiseTo(seat, menu.min_raise_to)
            return BringIn(seat)
        return self._postflop(view, menu, me, share, len(opponents))

    def game_equity(self, view: TableView, me: SeatView, opponents: Sequence[SeatView]) -> float:
        """This hand's expected share of the pot in any game (see the class's notes)."""
        game, hand = view.config.game, me.cards or ()
        if not opponents:
            return 1.0
        # Fewer deals for many hands of costly rankings (six-card Omaha, jokers).
        samples = max(40, min(self.samples, 2400 // (len(opponents) + 1)))
        draws_left = self._draws_left(view, drawing=False)
        if game.deck.dice:
            others = [s.up_cards for s in opponents]
            return dice_equity(game, hand, others, draws_left, rng=self._rng, samples=samples // 2)
        if game.draws:
            return draw_equity(
                game, hand, draws_left, len(opponents), rng=self._rng, samples=samples // 4
            )
        dead = [c for s in view.seats if not s.has_cards for c in s.up_cards]
        others = [s.up_cards for s in opponents]
        return showdown_equity(game, hand, view.board, others, dead, rng=self._rng, samples=samples)

    @staticmethod
    def _draws_left(view: TableView, *, drawing: bool) -> int:
        """The draws still to come: after this street's (when betting), or from this one."""
        street = int(view.street or 0)
        streets = view.config.game.streets
        return sum(s.draw for s in streets[street + (0 if drawing else 1) :])

    # -- preflop -----------------------------------------------------------------------

    def _preflop(
        self, view: TableView, menu: ActionMenu, me: SeatView, hole: tuple[Card, ...]
    ) -> Action:
        seat, big_blind = menu.seat, view.config.big_blind
        score = chen_score(hole[0], hole[1])
        current_bet = max(s.street_total for s in view.seats)
        dealt = sum(1 for s in view.seats if s.in_hand)
        if current_bet <= big_blind:  # nobody has raised yet
            open_score = 5 if dealt == 2 else 6 if dealt <= 5 else 7
            if score < open_score:
                return self._check_or_fold(menu)
            # The big blind and each limper: raise to three big blinds plus one per limper.
            in_for_blind = sum(1 for s in view.seats if s.has_cards and s.street_total >= big_blind)
            target = 3 * big_blind + big_blind * max(0, in_for_blind - 1)
            return self._raise_to(menu, me, target)
        if score >= self.RERAISE_SCORE:
            if menu.can_raise:
                return self._raise_to(menu, me, 3 * current_bet)
            return CheckOrCall(seat)
        committed = me.street_total + menu.call
        for floor, limit in self.CALL_LIMITS:
            if score >= floor and committed <= limit * big_blind:
                return CheckOrCall(seat)
        return self._check_or_fold(menu)

    # -- postflop ----------------------------------------------------------------------

    def _postflop(
        self, view: TableView, menu: ActionMenu, me: SeatView, share: float, opponents: int
    ) -> Action:
        if opponents == 0:
            return CheckOrCall(menu.seat)
        pot = sum(view.pots) + sum(s.street_total for s in view.seats)
        current_bet = max(s.street_total for s in view.seats)
        fair = 1 / (opponents + 1)
        if menu.call == 0:
            if share >= fair + (1 - fair) * self.BET_EDGE and menu.can_raise:
                target = current_bet + round(pot * self.BET_POT_SHARE)
                return self._raise_to(menu, me, target)
            return CheckOrCall(menu.seat)
        if share >= fair + (1 - fair) * self.RAISE_EDGE and menu.can_raise:
            target = current_bet + round((pot + menu.call) * self.BET_POT_SHARE)
            return self._raise_to(menu, me, target)
        price = menu.call / (pot + menu.call)
        if share >= price + self.CALL_MARGIN:
            return CheckOrCall(menu.seat)
        return self._check_or_fold(menu)

    def estimate_equity(
        self, hole: Sequence[Card], board: Sequence[Card], opponents: int, samples: int = 0
    ) -> float:
        """This hand's expected share of the pot against ``opponents`` hands of two random
        unseen cards, over ``samples`` (default: the bot's) random deals of them and the
        rest of the board. Draws from the bot's own generator."""
        samples = samples or self.samples
        h1, h2 = hole[0].code, hole[1].code
        fixed = [c.code for c in board]
        known = {h1, h2, *fixed}
        deck = [c for c in range(52) if c not in known]
        missing = 5 - len(fixed)
        draw = missing + 2 * opponents
        if draw > len(deck):
            raise ValueError(f"not enough unseen cards to deal {opponents} opponents")
        sample = self._rng.sample
        won = 0.0
        for _ in range(samples):
            cards = sample(deck, draw)
            b1, b2, b3, b4, b5 = fixed + cards[:missing]
            mine = rank7(h1, h2, b1, b2, b3, b4, b5)
            sharing = 1
            for i in range(missing, draw, 2):
                theirs = rank7(cards[i], cards[i + 1], b1, b2, b3, b4, b5)
                if theirs > mine:
                    break
                if theirs == mine:
                    sharing += 1
            else:
                won += 1 / sharing
        return won / samples

    # -- sizing ------------------------------------------------------------------------

    def _raise_to(self, menu: ActionMenu, me: SeatView, target: int) -> Action:
        """Bet or raise to about ``target`` (a street total) within the menu's bounds; all in
        when that would leave little behind."""
        if not menu.can_raise:
            return CheckOrCall(menu.seat)
        amount = min(max(target, menu.min_raise_to), menu.max_raise_to)
        if amount - me.street_total >= self.COMMIT_SHARE * (menu.max_raise_to - me.street_total):
            amount = menu.max_raise_to
        return BetOrRaiseTo(menu.seat, amount)

    @staticmethod
    def _check_or_fold(menu: ActionMenu) -> Action:
        if menu.call == 0 or not menu.can_fold:
            return CheckOrCall(menu.seat)
        return Fold(menu.seat)


STRATEGIES: Final[dict[str, type[Bot]]] = {
    "random": RandomBot,
    "calling-station": CallingStation,
    "tight-aggressive": TightAggressive,
}


def load_bot(spec: str) -> Bot:
    """A bot from a built-in name (see :data:`STRATEGIES`) or ``"module:Class"``: the module
    is imported and the class called with no arguments. Raises :class:`ValueError` saying
    what is wrong when the name, module or class cannot be found or is not a bot.

    >>> type(load_bot("tight-aggressive")).__name__
    'TightAggressive'
    >>> load_bot("server.bots.strategies:RandomBot").act is not None
    True
    """
    if spec in STRATEGIES:
        return STRATEGIES[spec]()
    if ":" not in spec:
        names = ", ".join(repr(n) for n in STRATEGIES)
        raise ValueError(f"unknown bot {spec!r}: use one of {names} or 'module:Class'")
    module_name, _, class_name = spec.partition(":")
    if not module_name or not class_name:
        raise ValueError(f"bot {spec!r} must look like 'module:Class'")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name is not None and (module_name + ".").startswith(e.name + "."):
            raise ValueError(f"bot module {module_name!r} not found") from e
        raise ValueError(f"bot module {module_name!r} cannot be imported: {e}") from e
    except ImportError as e:
        raise ValueError(f"bot module {module_name!r} cannot be imported: {e}") from e
    found: object = module
    for part in class_name.split("."):
        found = getattr(found, part, None)
        if found is None:
            raise ValueError(f"module {module_name!r} has no class {class_name!r}")
    if not isinstance(found, type):
        raise ValueError(f"{spec!r} is not a class but {type(found).__name__!r}")
    if not callable(getattr(found, "act", None)):
        raise ValueError(f"{spec!r} is not a bot: it has no act(view, menu) method")
    try:
        inspect.signature(found).bind()
    except TypeError as e:
        raise ValueError(f"bot class {spec!r} cannot be created with no arguments: {e}") from e
    except ValueError:
        pass  # no signature to inspect (a builtin): let the call below decide
    bot = found()
    if not isinstance(bot, Bot):
        raise ValueError(f"{spec!r} is not a bot: it has no act(view, menu) method")
    return bot
