"""A stored hand as PokerStars hand-history text, the format every hand tracker reads.

:func:`render` replays the hand's PHH history through the engine and writes the events
the way the PokerStars client writes its hand histories (see the real ones under
``shared/data/pokerstars``): header, seats, forced bets, ``*** HOLE CARDS ***``, the
actions street by street, ``*** SHOW DOWN ***`` and ``*** SUMMARY ***``. A few choices:

- Every known hole card is dealt face up ("Dealt to <name> [Ah Kd]" for each player, in
  dealing order); PokerStars shows only the hero's, but a stored hand knows them all and
  full-information exports are what trackers and pokerkit's parser take. Hole cards a
  history records as unknown (``????``) get no "Dealt to" line. ``render(info, hero=p)``
  writes one player's own history instead, as PokerStars does.
- "raises X to Y": ``Y`` is the player's total this street and ``X`` what it adds to the
  bet faced (the full big blind preflop, even when the big blind is all in for less).
- Hands tabled when players are all in are shown after the run-out, in the
  ``*** SHOW DOWN ***`` section, with PokerStars' hand names ("a pair of Jacks"); pots are
  settled from the last side pot down to the main pot, each pot's players shown first.
- The time is UTC, followed like PokerStars by Eastern Time in brackets.
- Money hands (``HandInfo.currency``) print amounts as PokerStars does: ``$0.10``, ``$2``.
- The stakes and "Seat #N is the button" are the table's (``HandInfo.small_blind`` and
  ``button``): a hand may have no small blind posted, and a dead button's seat no player.

A player coming back after missing the blinds "posts small & big blinds" (a live big
blind and a dead small blind); see :meth:`_Renderer.forced_bets` for how that is told
apart from an ante after a PHH round trip.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from enum import IntEnum
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from engine.cards import Card
from engine.evaluator import HandCategory, HandValue, evaluate
from engine.events import (
    ActionTaken,
    BoardDealt,
    CardsMucked,
    CardsShown,
    Event,
    ForcedBetPosted,
    HandStarted,
    PotAwarded,
    Street,
    UncalledBetReturned,
)
from server.export import HandInfo

__all__ = ["hand_name", "render", "render_all"]

_CURRENCY_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£"}
# Keyed by IntEnum: events carry each game's own street enum; only hold'em's is exported.
_STREET_NAMES: dict[IntEnum, str] = {
    Street.FLOP: "Flop",
    Street.TURN: "Turn",
    Street.RIVER: "River",
}
_CENT = Decimal("0.01")


def render(info: HandInfo, *, hero: int | None = None) -> str:
    """One hand as PokerStars hand-history text, ending in a newline.

    With ``hero`` (a position in PHH order: 0 is ``p1``) the text is that player's own
    history, as the PokerStars client writes it: "Dealt to" the hero alone, and the others'
    hole cards only where shown at showdown. The hand is still replayed from the full
    history, so the result is exact where a history with those cards unknown (``????``)
    could not be: the replay gives unknown cards stand-ins, which would play at showdown.

    Raises :class:`engine.errors.HistoryError` if the history does not replay, and
    :class:`ValueError` if ``players`` and ``seats`` do not name every player in it.
    """
    result = info.replay()
    n = len(result.hand.setup.seats)
    if len(info.players) != n or len(info.seats) != n:
        raise ValueError(
            f"the hand has {n} players; got {len(info.players)} names and {len(info.seats)} seats"
        )
    if hero is not None and not 0 <= hero < n:
        raise ValueError(f"hero {hero!r} is not a position of the hand's {n} players")
    holes = [tuple(h) if result.known[p] else None for p, h in enumerate(result.hand.holes)]
    face_up = list(result.face_up)
    if hero is not None:
        shown = {e.seat for e in result.events if isinstance(e, CardsShown)}
        holes = [h if p == hero or p in shown else None for p, h in enumerate(holes)]
        face_up = [p == hero for p in range(n)]
    return _Renderer(
        info, result.events, result.hand.setup.blinds, result.scale, face_up, holes
    ).run()


def render_all(infos: Sequence[HandInfo]) -> str:
    """Several hands, separated by blank lines as in a PokerStars hand-history file."""
    return "\n\n".join(render(info) for info in infos)


# -- hand names ------------------------------------------------------------------------


def _low_to_high(value: HandValue) -> str:
    high = value.ranks[0]
    low = value.best_five[-1].rank  # the wheel's ace plays last
    assert low is not None, "hold'em's cards are standard: no joker has a None rank"
    return f"{low.noun} to {high.noun}"


def hand_name(value: HandValue) -> str:
    """The hand as PokerStars names it, e.g. ``'a full house, Threes full of Jacks'``."""
    r = value.ranks
    match value.category:
        case HandCategory.ROYAL_FLUSH:
            return "a Royal Flush"
        case HandCategory.STRAIGHT_FLUSH:
            return f"a straight flush, {_low_to_high(value)}"
        case HandCategory.FOUR_OF_A_KIND:
            return f"four of a kind, {r[0].plural}"
        case HandCategory.FULL_HOUSE:
            return f"a full house, {r[0].plural} full of {r[1].plural}"
        case HandCategory.FLUSH:
            return f"a flush, {r[0].noun} high"
        case HandCategory.STRAIGHT:
            return f"a straight, {_low_to_high(value)}"
        case HandCategory.THREE_OF_A_KIND:
            return f"three of a kind, {r[0].plural}"
        case HandCategory.TWO_PAIR:
            return f"two pair, {r[0].plural} and {r[1].plural}"
        case HandCategory.ONE_PAIR:
            return f"a pair of {r[0].plural}"
        case _:
            return f"high card {r[0].noun}"


# How many of HandValue.ranks a PokerStars hand name mentions; the rest are kickers.
_NAMED_RANKS = {
    HandCategory.HIGH_CARD: 1,
    HandCategory.ONE_PAIR: 1,
    HandCategory.TWO_PAIR: 2,
    HandCategory.THREE_OF_A_KIND: 1,
    HandCategory.FOUR_OF_A_KIND: 1,
}


def _kicker_note(value: HandValue, earlier: Sequence[HandValue]) -> str:
    """What PokerStars adds when a hand beats one of the same name shown before it: its
    kickers down to the one that decides, "a pair of Eights - Ace+King kicker"."""
    named = _NAMED_RANKS.get(value.category)
    if named is None:
        return ""
    beaten = [
        o
        for o in earlier
        if o.category is value.category and o.ranks[:named] == value.ranks[:named] and o < value
    ]
    if not beaten:
        return ""
    closest = max(beaten).ranks[named:]
    kickers = value.ranks[named:]
    decides = next(i for i, (a, b) in enumerate(zip(kickers, closest, strict=True)) if a != b)
    return " - " + "+".join(r.noun for r in kickers[: decides + 1]) + " kicker"


# -- amounts and time --------------------------------------------------------------------


def _format_time(started_at: datetime) -> str:
    utc = (
        started_at.replace(tzinfo=UTC) if started_at.tzinfo is None else started_at.astimezone(UTC)
    )
    text = _stamp(utc) + " UTC"
    try:
        eastern = utc.astimezone(ZoneInfo("America/New_York"))
    except ZoneInfoNotFoundError:  # no time-zone database: the UTC time alone is exact
        return text
    return f"{text} [{_stamp(eastern)} ET]"


def _stamp(moment: datetime) -> str:
    # PokerStars pads the date but not the hour: "2016/03/01 1:29:41".
    return f"{moment:%Y/%m/%d} {moment.hour}:{moment:%M:%S}"


def _cards(cards: Sequence[Card]) -> str:
    return "[" + " ".join(str(c) for c in cards) + "]"


# -- the renderer ----------------------------------------------------------------------


@dataclass
class _Player:
    name: str
    seat: int
    stack: int = 0
    posted: int = 0  # forced bets so far, to mark the one that puts the player all in
    small_blind: bool = False
    big_blind: bool = False
    put_money_in: bool = False  # a blind, call, bet or raise: not "(didn't bet)"
    folded_on: IntEnum | None = None
    shown: bool = False
    won: int = 0


@dataclass
class _Renderer:
    info: HandInfo
    events: list[Event]
    blinds: tuple[int, ...]
    scale: int
    dealt_face_up: list[bool]
    """By position: the history deals these hole cards face up ("Dealt to" lines)."""
    holes: list[tuple[Card, ...] | None]
    """By position: the hole cards where the history knows them (dealt or shown)."""
    lines: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.symbol = ""
        self.code = ""
        if self.info.currency:
            self.code = self.info.currency
            self.symbol = _CURRENCY_SYMBOLS.get(self.code, "")
        self.players = [
            _Player(name, seat)
            for name, seat in zip(self.info.players, self.info.seats, strict=True)
        ]
        # Under the dead-button rule the button's seat may be nobody's.
        seat = self.info.button_seat
        self.button = self.info.seats.index(seat) if seat in self.info.seats else None

    def money(self, chips: int) -> str:
        """An amount as PokerStars writes it: ``100``, or ``$0.10`` and ``$2`` for money."""
        if self.scale == 1 and not self.symbol:
            return str(chips)
        value = Decimal(chips) / self.scale
        if value == value.to_integral_value():
            text = str(int(value))
        elif value == value.quantize(_CENT):
            text = str(value.quantize(_CENT))
        else:
            text = format(value.normalize(), "f")
        return self.symbol + text

    def name(self, seat: int) -> str:
        # A replay numbers the seats 0..n-1 in PHH order: an event's seat is the
        # player's position, the index into HandInfo.players and .seats.
        return self.players[seat].name

    def run(self) -> str:
        started = next(e for e in self.events if isinstance(e, HandStarted))
        for player, stack in zip(self.players, started.stacks, strict=True):
            player.stack = stack
        self.header(started)
        forced = [e for e in self.events if isinstance(e, ForcedBetPosted)]
        self.forced_bets(forced, started.small_blind)
        self.lines.append("*** HOLE CARDS ***")
        for p, player in enumerate(self.players):
            cards = self.holes[p]
            if self.dealt_face_up[p] and cards is not None:
                self.lines.append(f"Dealt to {player.name} {_cards(cards)}")
        # Preflop the bet to match is the full big blind even if its poster is short.
        bet_to_match = max(
            [b for b in self.blinds if 0 < b <= started.big_blind]
            + [e.street_total for e in forced],
            default=0,
        )
        board: tuple[Card, ...] = ()
        showdown: list[CardsShown | CardsMucked] = []
        awards: list[PotAwarded] = []
        for event in self.events:
            if isinstance(event, ActionTaken):
                bet_to_match = self.action(event, bet_to_match)
            elif isinstance(event, BoardDealt):
                board = event.board
                bet_to_match = 0
                self.lines.append(self.street_line(event))
            elif isinstance(event, UncalledBetReturned):
                amount = self.money(event.amount)
                self.lines.append(f"Uncalled bet ({amount}) returned to {self.name(event.seat)}")
            elif isinstance(event, CardsShown | CardsMucked):
                showdown.append(event)
            elif isinstance(event, PotAwarded):
                awards.append(event)
                for seat, share in event.shares:
                    self.players[seat].won += share
        if showdown:
            self.show_down(showdown, awards, board)
        else:
            for award in awards:
                for seat, share in award.shares:
                    self.lines.append(f"{self.name(seat)} collected {self.money(share)} from pot")
        self.summary(awards, board)
        return "\n".join(self.lines) + "\n"

    def header(self, started: HandStarted) -> None:
        info = self.info
        stakes = f"{self.money(started.small_blind)}/{self.money(started.big_blind)}"
        if self.code:
            stakes += f" {self.code}"
        self.lines.append(
            f"PokerStars Hand #{info.hand_id}:  Hold'em No Limit ({stakes}) - "
            f"{_format_time(info.started_at)}"
        )
        self.lines.append(
            f"Table '{info.table_name}' {info.max_seats}-max Seat #{info.button_seat} is the button"
        )
        for player in sorted(self.players, key=lambda p: p.seat):
            self.lines.append(
                f"Seat {player.seat}: {player.name} ({self.money(player.stack)} in chips)"
            )

    def forced_bets(self, forced: list[ForcedBetPosted], small_blind: int) -> None:
        """Antes first in seat order, then the blinds as posted.

        A player coming back who posts a big blind out of turn and a dead small blind
        "posts small & big blinds". PHH has no dead blinds (``from_hand`` keeps them as
        antes), so after a replay that player's ante holds the dead small blind: a big
        blind posted by anyone but the first big blind, together with an ante, is read
        that way.
        """
        antes = {e.seat: e.increment for e in forced if e.kind == "ante"}
        dead = {e.seat: e.increment for e in forced if e.kind == "dead_blind"}
        bigs = [e.seat for e in forced if e.kind == "big_blind"]
        for seat in bigs[1:]:
            if seat in antes and seat not in dead:
                dead[seat] = min(antes[seat], small_blind)
                antes[seat] -= dead[seat]
        for seat in sorted(antes, key=lambda s: self.players[s].seat):
            if antes[seat]:
                self.post(seat, "posts the ante", antes[seat])
        for event in forced:
            seat, amount = event.seat, event.increment
            player = self.players[seat]
            if event.kind in ("ante", "dead_blind"):
                continue
            player.put_money_in = True
            if event.kind in ("small_blind", "blind"):  # "blind": an odd amount below the big
                if not any(p.small_blind for p in self.players):
                    player.small_blind = True
                self.post(seat, "posts small blind", amount)
            elif event.kind == "big_blind":
                if not any(p.big_blind for p in self.players):
                    player.big_blind = True
                if seat in dead:
                    self.post(seat, "posts small & big blinds", amount + dead.pop(seat))
                else:
                    self.post(seat, "posts big blind", amount)
            else:
                self.post(seat, "posts straddle", amount)
        for seat, amount in dead.items():  # a dead blind without a big blind: none in PHH
            self.players[seat].put_money_in = True
            self.post(seat, "posts small blind", amount)

    def post(self, seat: int, what: str, amount: int) -> None:
        player = self.players[seat]
        player.posted += amount
        all_in = " and is all-in" if player.posted == player.stack else ""
        self.lines.append(f"{player.name}: {what} {self.money(amount)}{all_in}")

    def action(self, event: ActionTaken, bet_to_match: int) -> int:
        player = self.players[event.seat]
        all_in = " and is all-in" if event.all_in else ""
        match event.kind:
            case "fold":
                player.folded_on = event.street
                text = "folds"
            case "check":
                text = "checks"
            case "call":
                text = f"calls {self.money(event.increment)}"
            case "bet":
                text = f"bets {self.money(event.street_total)}"
                bet_to_match = event.street_total
            case _:
                raised = self.money(event.street_total - bet_to_match)
                text = f"raises {raised} to {self.money(event.street_total)}"
                bet_to_match = event.street_total
        if event.kind not in ("fold", "check"):
            player.put_money_in = True
        self.lines.append(f"{player.name}: {text}{all_in}")
        return bet_to_match

    @staticmethod
    def street_line(event: BoardDealt) -> str:
        before = event.board[: len(event.board) - len(event.cards)]
        label = _STREET_NAMES[event.street].upper()
        if not before:
            return f"*** {label} *** {_cards(event.cards)}"
        return f"*** {label} *** {_cards(before)} {_cards(event.cards)}"

    def value(self, seat: int, board: tuple[Card, ...]) -> HandValue | None:
        cards = self.holes[seat]
        if cards is None or len(board) + len(cards) < 5:
            return None
        return evaluate((*cards, *board))

    def show_down(
        self,
        showdown: list[CardsShown | CardsMucked],
        awards: list[PotAwarded],
        board: tuple[Card, ...],
    ) -> None:
        """PokerStars settles the last side pot first: the hands contesting it are shown,
        it is collected, then the next pot down to the main pot."""
        self.lines.append("*** SHOW DOWN ***")
        shown: list[HandValue] = []
        done: set[int] = set()
        for index, award in reversed(list(enumerate(awards))):
            for event in showdown:
                if event.seat in award.eligible and event.seat not in done:
                    done.add(event.seat)
                    self.show_line(event, shown, board)
            for seat, share in award.shares:
                if share:
                    pot = self.pot_name(index, len(awards))
                    self.lines.append(f"{self.name(seat)} collected {self.money(share)} from {pot}")
        for event in showdown:
            if event.seat not in done:
                self.show_line(event, shown, board)

    def show_line(
        self,
        event: CardsShown | CardsMucked,
        shown: list[HandValue],
        board: tuple[Card, ...],
    ) -> None:
        """A show or muck line; ``shown`` are the hands shown so far, for kicker notes."""
        player = self.players[event.seat]
        cards = self.holes[event.seat]
        value = self.value(event.seat, board)
        if isinstance(event, CardsMucked) or cards is None or value is None:
            # A hand the history never saw stays face down: mucked, as far as the text
            # can tell.
            self.lines.append(f"{player.name}: mucks hand")
            return
        player.shown = True
        name = hand_name(value) + _kicker_note(value, shown)
        shown.append(value)
        self.lines.append(f"{player.name}: shows {_cards(cards)} ({name})")

    @staticmethod
    def pot_name(index: int, count: int) -> str:
        if count == 1:
            return "pot"
        if index == 0:
            return "main pot"
        return "side pot" if count == 2 else f"side pot-{index}"

    def summary(self, awards: list[PotAwarded], board: tuple[Card, ...]) -> None:
        self.lines.append("*** SUMMARY ***")
        total = sum(a.amount for a in awards)
        pots = ""
        if len(awards) > 1:
            pots = "".join(
                f" {self.pot_name(i, len(awards)).capitalize()} {self.money(a.amount)}."
                for i, a in enumerate(awards)
            )
        self.lines.append(f"Total pot {self.money(total)}{pots} | Rake {self.money(0)}")
        if board:
            self.lines.append(f"Board {_cards(board)}")
        for p, player in sorted(enumerate(self.players), key=lambda item: item[1].seat):
            roles = " (button)" if p == self.button else ""
            roles += " (small blind)" if player.small_blind else ""
            roles += " (big blind)" if player.big_blind else ""
            self.lines.append(f"Seat {player.seat}: {player.name}{roles} {self.outcome(p, board)}")

    def outcome(self, p: int, board: tuple[Card, ...]) -> str:
        player = self.players[p]
        if player.folded_on is not None:
            if player.folded_on is Street.PREFLOP:
                return "folded before Flop" + ("" if player.put_money_in else " (didn't bet)")
            return f"folded on the {_STREET_NAMES[player.folded_on]}"
        cards = self.holes[p]
        if player.shown and cards is not None:
            value = self.value(p, board)
            name = hand_name(value) if value is not None else ""
            if player.won:
                return f"showed {_cards(cards)} and won ({self.money(player.won)}) with {name}"
            return f"showed {_cards(cards)} and lost with {name}"
        if player.won:
            return f"collected ({self.money(player.won)})"
        if cards is not None:
            return f"mucked {_cards(cards)}"
        return "mucked"
