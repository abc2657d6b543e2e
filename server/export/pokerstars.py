"""A stored hand as PokerStars hand-history text, the format every hand tracker reads.

:func:`render` replays the hand's PHH history through the engine and writes the events
the way the PokerStars client writes its hand histories (see the real ones under
``shared/data/pokerstars``): header, seats, forced bets, ``*** HOLE CARDS ***``, the
actions street by street, ``*** SHOW DOWN ***`` and ``*** SUMMARY ***``. A few choices:

- Every known hole card is dealt face up ("Dealt to <name> [Ah Kd]" for each player, in
  dealing order); PokerStars shows only the hero's, but a stored hand knows them all and
  full-information exports are what trackers and pokerkit's parser take. Hole cards a
  history records as unknown (``????``) get no "Dealt to" line. ``render(info, hero=p)``
  writes one player's own history instead, as PokerStars does ("Dealt to" the hero
  alone, the others' cards where shown), and ``render(info, public=True)`` what a
  watcher saw.
- The hand number ("PokerStars Hand #42") is ``HandInfo.hand_id``: the store gives the
  hand's id in its ``hands`` table (``pokerroom hands list``'s first column), one
  sequence for the whole database, shared by every table and every process writing to
  it and by imported hands (whose own PHH ``hand`` numbers, which repeat from session to
  session, stay in their history). A stored hand has the same number in every export
  and no two stored hands share one; only hands from two different databases can.
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

Table options (docs/rules.md O1-O8), in the words of real PokerStars files where it has
them (docs/hands.md names the files):

- A straddle is "posts straddle 200" after the blinds, and the first raise is counted
  from it ("raises 200 to 400").
- A hand run twice (O5) deals each run's streets in turn, the streets both runs share
  unmarked: "*** FLOP ***", "*** FIRST TURN ***", "*** FIRST RIVER ***", "*** SECOND
  TURN ***", "*** SECOND RIVER ***"; then "*** FIRST SHOW DOWN ***" and "*** SECOND
  SHOW DOWN ***", each with its own shows and collections; the summary says "Hand was
  run twice" and gives "FIRST Board [...]" and "SECOND Board [...]" for "Board [...]",
  and a seat that showed "won (50) with ..., and lost with ..." on each.
- Two boards (O4's double-board bomb pot) are what PokerStars dealt as Split Hold'em:
  the header says "Split Hold'em No Limit", each street is dealt on the first board and
  then the second ("*** FIRST FLOP ***", "*** SECOND FLOP ***") before its betting,
  and the show downs and boards are as in a hand run twice, without "Hand was run
  twice". "Split" before Omaha's words is ours: no real file shows it.
- A bomb pot (O3) is its antes, no blinds, and no action between "*** HOLE CARDS ***"
  and the flop: PokerStars has no bomb pots, and this is the hand as it was played.
- A fixed-limit bet completed after a short all-in bet is "raises 150 to 200" in a
  board or draw game (hold'em's parsers read raises; "completes it to" is stud's word,
  for the bring-in).

The games PokerStars deals are written in its own words (each preset's
:attr:`engine.Game.pokerstars`; checked
against real PokerStars files, see docs/hands.md): the header names the game and its
betting ("Omaha Hi/Lo Limit", "7 Card Stud Hi/Lo Limit", "Triple Draw 2-7 Lowball
Limit"), and the stakes are the blinds in a big-bet game, the small and big bet in a
limit game. Stud has no button; its streets are "*** 3rd STREET ***" to "*** 6th
STREET ***" and "*** RIVER ***", each dealing "Dealt to <name> [cards so far] [new
cards]", the bring-in "brings in for" and a completion "completes it to". Draw games
deal under "*** DEALING HANDS ***"; triple draws mark each draw ("*** FIRST DRAW ***")
where single draws (5 Card Draw, Single Draw 2-7) mark none; a draw is "stands pat" or
"discards 2 cards [Jd 7d]" followed by "Dealt to <name> [kept] [drawn]" (the cards only
where they are known). Hands are named as PokerStars names them: "(HI: a pair of
Sevens; LO: 8,7,5,4,2)" in a hi-lo game (with "No low hand qualified" when none did),
"(Lo: 9,8,7,6,3)" or "(Lo: a pair of Fives)" in razz and deuce-to-seven, "(Badugi:
8,6,3,2)". Each half of a split pot is its own "collected ... from pot" line.

Other games (short deck, which PokerStars deals only as 6+ Hold'em with a button blind,
Kuhn, Leduc, dice, decks with jokers, games defined on the fly) raise
:class:`server.export.UnsupportedGameError`: PokerStars has no words for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from enum import IntEnum
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from engine import ranking
from engine.cards import Card
from engine.errors import EngineError
from engine.evaluator import HandCategory, HandValue, evaluate
from engine.events import (
    ActionTaken,
    BoardDealt,
    BountyPaid,
    CardsDrawn,
    CardsMucked,
    CardsRevealed,
    CardsShown,
    Event,
    ForcedBetPosted,
    HandEnded,
    HandStarted,
    HoleCardsDealt,
    PotAwarded,
    Street,
    UncalledBetReturned,
    UpCardsDealt,
    board_index,
    boards_of,
)
from engine.games import Betting, Game
from engine.hand import HandSetup
from engine.rating import rate
from server.export import HandInfo, UnsupportedGameError

__all__ = ["game_words", "hand_name", "render", "render_all"]

FORMAT = "PokerStars text"
_BETTING_WORDS = {
    Betting.NO_LIMIT: "No Limit",
    Betting.POT_LIMIT: "Pot Limit",
    Betting.FIXED_LIMIT: "Limit",
}
_STUD_STREETS = ("3rd STREET", "4th STREET", "5th STREET", "6th STREET", "RIVER")
_STUD_SUMMARY = ("3rd Street", "4th Street", "5th Street", "6th Street", "River")
_DRAW_STREETS = ("", "FIRST DRAW", "SECOND DRAW", "THIRD DRAW")
_DRAW_ORDINALS = ("", "1st ", "2nd ", "3rd ")


def game_words(g: Game) -> str:
    """The game as a PokerStars header names it, e.g. ``"Omaha Hi/Lo Limit"``; raises
    :class:`UnsupportedGameError` for a game PokerStars does not deal."""
    if g.pokerstars is None:
        raise UnsupportedGameError(g.key, g.name, FORMAT)
    return f"{g.pokerstars} {_BETTING_WORDS[g.betting]}"


_CURRENCY_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£"}
# Keyed by IntEnum: events carry each game's own street enum; only hold'em's is exported.
_STREET_NAMES: dict[IntEnum, str] = {
    Street.FLOP: "Flop",
    Street.TURN: "Turn",
    Street.RIVER: "River",
}
_CENT = Decimal("0.01")


def render(info: HandInfo, *, hero: int | None = None, public: bool = False) -> str:
    """One hand as PokerStars hand-history text, ending in a newline.

    With ``hero`` (a position in PHH order: 0 is ``p1``) the text is that player's own
    history, as the PokerStars client writes it: "Dealt to" the hero alone (and everyone's
    stud up cards), the others' draws as counts, and their hole cards only where shown at
    showdown. The hand is still replayed from the full history, so the result is exact
    where a history with those cards unknown (``????``) could not be: the replay gives
    unknown cards stand-ins, which would play at showdown. With ``public`` and no hero the
    text is what anyone watching saw: nobody's hole cards but those shown (for someone
    who did not play the hand). Without either it is the full-information record, every
    known hole card dealt face up: the operator's export.

    Raises :class:`server.export.UnsupportedGameError` for a game PokerStars does not
    deal (no :attr:`engine.Game.pokerstars`), :class:`engine.errors.HistoryError` if the
    history does not replay, and :class:`ValueError` if ``players`` and ``seats`` do not
    name every player in it.
    """
    words = game_words(info.history.game)
    result = info.replay()
    n = len(result.hand.setup.seats)
    if len(info.players) != n or len(info.seats) != n:
        raise ValueError(
            f"the hand has {n} players; got {len(info.players)} names and {len(info.seats)} seats"
        )
    if hero is not None and not 0 <= hero < n:
        raise ValueError(f"hero {hero!r} is not a position of the hand's {n} players")
    holes = [tuple(h) if result.known[p] else None for p, h in enumerate(result.hand.holes)]
    # Who the text deals cards to face up: every player whose cards the history knows,
    # or the hero alone (nobody, for a watcher).
    sees = [result.known[p] and result.face_up[p] for p in range(n)]
    if hero is not None or public:
        shown = {e.seat for e in result.events if isinstance(e, CardsShown)}
        holes = [h if p == hero or p in shown else None for p, h in enumerate(holes)]
        sees = [p == hero for p in range(n)]
    setup = result.hand.setup
    if setup.boards > 1:  # two boards: PokerStars' Split Hold'em (see the module's notes)
        words = f"Split {words}"
    return _Renderer(info, words, setup.game, result.events, setup, result.scale, sees, holes).run()


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


# -- naming the hands of every game -------------------------------------------------------

_HIGH = (ranking.HIGH,), (ranking.OMAHA_HIGH,)
_LOW = (ranking.A5_LOW,), (ranking.DEUCE_SEVEN,)


def _ranks(cards: Sequence[Card]) -> str:
    """A low hand as PokerStars lists it, high card first: ``"8,7,5,4,2"``, ``"6,4,3,2,A"``."""
    return ",".join(str(c)[:-1] for c in cards)


@dataclass(frozen=True)
class _Named:
    text: str
    """The hand in PokerStars' words: ``"a pair of Jacks"``, ``"HI: ...; LO: 8,7,5,4,2"``."""
    value: HandValue | None
    """The high hand, in games won by the high hand alone (for kicker notes)."""


def _name_hand(g: Game, hole: Sequence[Card], board: Sequence[Card]) -> _Named | None:
    """The hand ``hole`` (with ``board``) makes in ``g``, or None if it is not a whole
    hand yet (too few cards)."""
    if g.hands == (ranking.HIGH,) and board:  # hold'em: the best five of all seven
        if len(hole) + len(board) < 5:
            return None
        value = evaluate((*hole, *board))
        return _Named(hand_name(value), value)
    try:
        rating = rate(hole, board, game=g)
    except EngineError:
        return None
    best = rating.best[0]
    if g.hands in _HIGH:
        value = evaluate(best)
        return _Named(hand_name(value), value)
    if g.split:
        text = f"HI: {hand_name(evaluate(best))}"
        if rating.values[1]:
            text += f"; LO: {_ranks(rating.best[1])}"
        return _Named(text, None)
    if g.hands in _LOW:
        # A low with no pair (nor, in deuce-to-seven, a straight or flush) is its cards;
        # anything else is named as a high hand: "Lo: a pair of Fives".
        if "," not in rating.names[0]:
            return _Named(f"Lo: {_ranks(best)}", None)
        return _Named(f"Lo: {hand_name(evaluate(best))}", None)
    label = "Badugi" if len(best) == 4 else f"{len(best)}-card"  # badugi
    return _Named(f"{label}: {_ranks(best)}", None)


# -- the renderer ----------------------------------------------------------------------

_ORDINALS = ("FIRST", "SECOND")
"""PokerStars' words for the boards of a hand run twice: ``*** FIRST FLOP ***``, ``***
SECOND SHOW DOWN ***``, ``FIRST Board [...]``."""


def _street_line(event: BoardDealt, twice: bool) -> str:
    """``*** TURN *** [flop] [turn]``; a street dealt on two boards (or run twice) says
    which: ``*** SECOND TURN ***``."""
    before = event.board[: len(event.board) - len(event.cards)]
    label = _STREET_NAMES[event.street].upper()
    if twice:
        label = f"{_ORDINALS[board_index(event)]} {label}"
    if not before:
        return f"*** {label} *** {_cards(event.cards)}"
    return f"*** {label} *** {_cards(before)} {_cards(event.cards)}"


def _forced_bets(r: _Renderer, forced: list[ForcedBetPosted], small_blind: int) -> None:
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
    for seat in sorted(antes, key=lambda s: r.players[s].seat):
        if antes[seat]:
            r.post(seat, "posts the ante", antes[seat])
    for event in forced:
        seat, amount = event.seat, event.increment
        player = r.players[seat]
        if event.kind in ("ante", "dead_blind"):
            continue
        player.put_money_in = True
        if event.kind in ("small_blind", "blind"):  # "blind": an odd amount below the big
            if not any(p.small_blind for p in r.players):
                player.small_blind = True
            r.post(seat, "posts small blind", amount)
        elif event.kind == "big_blind":
            if not any(p.big_blind for p in r.players):
                player.big_blind = True
            if seat in dead:
                r.post(seat, "posts small & big blinds", amount + dead.pop(seat))
            else:
                r.post(seat, "posts big blind", amount)
        else:
            r.post(seat, "posts straddle", amount)
    for seat, amount in dead.items():  # a dead blind without a big blind: none in PHH
        r.players[seat].put_money_in = True
        r.post(seat, "posts small blind", amount)


def _after_line(r: _Renderer, event: CardsRevealed | BountyPaid) -> str:
    """Cards shown after the hand, as PokerStars writes a winner's show ("Ann: shows [7h
    2c]"), or, in the summary, the 7-2 bounty (ours: PokerStars has none)."""
    if isinstance(event, CardsRevealed):
        return f"{r.name(event.seat)}: shows {_cards(event.cards)}"
    paid = ", ".join(f"{r.name(seat)} {r.money(amount)}" for seat, amount in event.payers)
    return f"7-2 bounty: {r.name(event.seat)} collected {r.money(event.amount)} ({paid})"


def _board_outcome(renderer: _Renderer, p: int, board: int, awards: list[PotAwarded]) -> str:
    """What a hand shown did on one of two boards, as a summary says it: "won (50) with
    a pair of Aces" or "lost with high card King"."""
    named = renderer.named(p, renderer.boards[board])
    name = named.text if named is not None else ""
    won = sum(
        share for a in awards if board_index(a) == board for seat, share in a.shares if seat == p
    )
    return f"won ({renderer.money(won)}) with {name}" if won else f"lost with {name}"


@dataclass
class _Player:
    name: str
    seat: int
    stack: int = 0
    posted: int = 0  # forced bets so far, to mark the one that puts the player all in
    small_blind: bool = False
    big_blind: bool = False
    put_money_in: bool = False  # a blind, bring-in, call, bet or raise: not "(didn't bet)"
    folded_on: int | None = None  # the street's index
    shown: bool = False
    won: int = 0
    dealt: list[Card] = field(default_factory=list)
    """The cards in the player's hand as the text has dealt them (stud: so far; a draw:
    after the last draw)."""


def _pot_name(index: int, count: int) -> str:
    if count == 1:
        return "pot"
    if index == 0:
        return "main pot"
    return "side pot" if count == 2 else f"side pot-{index}"


def _folded(player: _Player, g: Game) -> str:
    """Where the player folded, as the summary says it."""
    street = player.folded_on
    assert street is not None
    didnt = "" if player.put_money_in else " (didn't bet)"
    if g.up_cards:
        return f"folded on the {_STUD_SUMMARY[min(street, 4)]}" + (didnt if street == 0 else "")
    if g.draws:
        if street == 0:
            return "folded before the Draw" + didnt
        ordinal = _DRAW_ORDINALS[min(street, 3)] if len(g.streets) > 2 else ""
        return f"folded after the {ordinal}Draw"
    if street == 0:
        return "folded before Flop" + didnt
    return f"folded on the {_STREET_NAMES[Street(street)]}"


@dataclass
class _Renderer:
    info: HandInfo
    words: str
    game: Game
    events: list[Event]
    setup: HandSetup
    scale: int
    sees: list[bool]
    """By position: the text deals this player's face-down cards face up ("Dealt to")."""
    holes: list[tuple[Card, ...] | None]
    """By position: the final hole cards where the history knows them (dealt or shown)."""
    lines: list[str] = field(default_factory=list)
    up_cards: set[Card] = field(default_factory=set)
    """Stud: the cards dealt face up, which everyone sees."""

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
        self.stud = self.game.up_cards
        self.draw = self.game.draws
        self.triple = self.draw and len(self.game.streets) > 2
        # Under the dead-button rule the button's seat may be nobody's; stud has none.
        seat = self.info.button_seat
        self.button = (
            self.info.seats.index(seat) if seat in self.info.seats and not self.stud else None
        )
        self.stud_street = 0
        self.pending: dict[int, list[Card]] = {}  # stud: cards dealt this street, by seat
        self.pending_up: set[int] = set()  # stud: the seats dealt an up card this street
        self.draw_street = 0
        # Two boards (O4), or a hand run twice (O5): the streets dealt on each.
        ended = next((e for e in self.events if isinstance(e, HandEnded)), None)
        runs = len(boards_of(ended)) if ended is not None else 1
        self.boards: list[tuple[Card, ...]] = [()] * max(self.setup.boards, runs)
        self.run_twice = runs > self.setup.boards
        self.twice = {e.street for e in self.events if isinstance(e, BoardDealt) and board_index(e)}
        self.after: list[CardsRevealed | BountyPaid] = []  # after the hand (O6, O8)

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
        _forced_bets(self, forced, started.small_blind)
        self.deal_hands()
        # Preflop the bet to match is the full big blind (or straddle) even if its poster
        # is short.
        bet_to_match = max(
            [b for b in self.setup.blinds if 0 < b <= started.big_blind]
            + [self.setup.straddle]  # a table's straddle too (docs/rules.md O1)
            + [e.street_total for e in forced],
            default=0,
        )
        street = self.game.streets_played[0]
        showdown: list[CardsShown | CardsMucked] = []
        awards: list[PotAwarded] = []
        for event in self.events:
            if self.pending and not isinstance(event, HoleCardsDealt | UpCardsDealt):
                self.deal_stud_street()
            if isinstance(event, ActionTaken):
                if event.street != street:  # a new betting round: nothing to match yet
                    street, bet_to_match = event.street, 0
                bet_to_match = self.action(event, bet_to_match)
            elif isinstance(event, HoleCardsDealt | UpCardsDealt) and self.stud:
                self.stud_cards(event)
            elif isinstance(event, CardsDrawn):
                self.drawn(event)
            elif isinstance(event, BoardDealt):
                bet_to_match = 0
                self.board_dealt(event)
            elif isinstance(event, UncalledBetReturned):
                amount = self.money(event.amount)
                self.lines.append(f"Uncalled bet ({amount}) returned to {self.name(event.seat)}")
            elif isinstance(event, CardsShown | CardsMucked):
                showdown.append(event)
            elif isinstance(event, PotAwarded):
                awards.append(event)
                for seat, share in event.shares:
                    self.players[seat].won += share
            elif isinstance(event, CardsRevealed | BountyPaid):
                self.after.append(event)
        if showdown:
            for i, board in enumerate(self.boards):  # a show down for each board (O4)
                label = f"{_ORDINALS[i]} " if len(self.boards) > 1 else ""
                on = [a for a in awards if board_index(a) == i]
                self.show_down(showdown, on, board, label)
        else:
            for award in awards:
                for seat, share in award.shares:
                    self.lines.append(f"{self.name(seat)} collected {self.money(share)} from pot")
        self.lines += [_after_line(self, e) for e in self.after if isinstance(e, CardsRevealed)]
        self.summary(awards)
        return "\n".join(self.lines) + "\n"

    def board_dealt(self, event: BoardDealt) -> None:
        """A street's line: ``*** FLOP ***``, or with two boards ``*** FIRST FLOP ***`` and
        ``*** SECOND FLOP ***``, as PokerStars writes a hand run twice."""
        self.boards[board_index(event)] = event.board
        if self.stud:  # the common card, when the deck cannot give everyone one
            self.lines.append(f"*** {_STUD_STREETS[-1]} *** {_cards(event.cards)}")
            self.stud_street += 1
        else:
            self.lines.append(_street_line(event, event.street in self.twice))

    def deal_hands(self) -> None:
        """The first deal: "*** HOLE CARDS ***" in a board game, "*** DEALING HANDS ***"
        in a draw game, each with a "Dealt to" line per player the text sees; stud deals
        street by street (:meth:`deal_stud_street`)."""
        if self.draw:
            self.lines.append("*** DEALING HANDS ***")
            for event in self.events:
                if isinstance(event, HoleCardsDealt) and event.cards is not None:
                    self.players[event.seat].dealt = list(event.cards)
                    if self.sees[event.seat]:
                        self.lines.append(f"Dealt to {self.name(event.seat)} {_cards(event.cards)}")
        elif not self.stud:
            self.lines.append("*** HOLE CARDS ***")
            for p, player in enumerate(self.players):
                cards = self.holes[p]
                if self.sees[p] and cards is not None:
                    self.lines.append(f"Dealt to {player.name} {_cards(cards)}")

    def header(self, started: HandStarted) -> None:
        info = self.info
        if self.game.fixed_limit:  # PokerStars' limit stakes are the small and big bet
            low, high = self.setup.small_bet, self.setup.big_bet
        else:
            low, high = started.small_blind, started.big_blind
        stakes = f"{self.money(low)}/{self.money(high)}"
        if self.code:
            stakes += f" {self.code}"
        self.lines.append(
            f"PokerStars Hand #{info.hand_id}:  {self.words} ({stakes}) - "
            f"{_format_time(info.started_at)}"
        )
        table = f"Table '{info.table_name}' {info.max_seats}-max"
        if not self.stud:
            table += f" Seat #{info.button_seat} is the button"
        self.lines.append(table)
        for player in sorted(self.players, key=lambda p: p.seat):
            self.lines.append(
                f"Seat {player.seat}: {player.name} ({self.money(player.stack)} in chips)"
            )

    def stud_cards(self, event: HoleCardsDealt | UpCardsDealt) -> None:
        """Stud's cards, kept until the street is dealt: a street's deal ends where a
        player gets cards again (face down after an up card, or another up card), as
        when players all in see the last streets dealt one after the other."""
        again = event.seat in self.pending and (
            isinstance(event, HoleCardsDealt) or event.seat in self.pending_up
        )
        if again:
            self.deal_stud_street()
        self.pending.setdefault(event.seat, []).extend(event.cards or ())
        if isinstance(event, UpCardsDealt):
            self.up_cards.update(event.cards)
            self.pending_up.add(event.seat)

    def deal_stud_street(self) -> None:
        """A stud street's cards, a line per player in seat order: everything the text
        sees so far, then the new cards ("Dealt to Ann [7c 3s 5h] [Qc]")."""
        self.lines.append(f"*** {_STUD_STREETS[min(self.stud_street, 4)]} ***")
        self.stud_street += 1
        for seat in sorted(self.pending, key=lambda s: self.players[s].seat):
            player = self.players[seat]
            new = [c for c in self.pending[seat] if self.sees[seat] or c in self.up_cards]
            if not new:
                continue
            before = f"{_cards(player.dealt)} " if player.dealt else ""
            self.lines.append(f"Dealt to {player.name} {before}{_cards(new)}")
            player.dealt.extend(new)
        self.pending = {}
        self.pending_up = set()

    def drawn(self, event: CardsDrawn) -> None:
        """A draw: "stands pat", or "discards 2 cards", with the cards and a "Dealt to"
        line where the text sees them. Triple draws mark each draw's start."""
        index = self.game.streets_played.index(event.street)
        if self.triple and index != self.draw_street:
            self.draw_street = index
            self.lines.append(f"*** {_DRAW_STREETS[min(index, 3)]} ***")
        player = self.players[event.seat]
        if event.count == 0:
            self.lines.append(f"{player.name}: stands pat")
            return
        cards = "card" if event.count == 1 else "cards"
        seen = event.discarded is not None and event.drawn is not None
        if not (self.sees[event.seat] and seen):
            self.lines.append(f"{player.name}: discards {event.count} {cards}")
            return
        assert event.discarded is not None and event.drawn is not None
        kept = [c for c in player.dealt if c not in event.discarded]
        self.lines.append(
            f"{player.name}: discards {event.count} {cards} {_cards(event.discarded)}"
        )
        before = f"{_cards(kept)} " if kept else ""
        self.lines.append(f"Dealt to {player.name} {before}{_cards(event.drawn)}")
        player.dealt = [*kept, *event.drawn]

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
                player.folded_on = int(event.street)
                text = "folds"
            case "check":
                text = "checks"
            case "call":
                text = f"calls {self.money(event.increment)}"
            case "bring_in":
                text = f"brings in for {self.money(event.increment)}"
                bet_to_match = event.street_total
            case "complete" if self.stud:  # a board or draw game's is a raise, below
                text = f"completes it to {self.money(event.street_total)}"
                bet_to_match = event.street_total
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

    def named(self, seat: int, board: tuple[Card, ...]) -> _Named | None:
        cards = self.holes[seat]
        if cards is None:
            return None
        return _name_hand(self.game, cards, board)

    def show_down(
        self,
        showdown: list[CardsShown | CardsMucked],
        awards: list[PotAwarded],
        board: tuple[Card, ...],
        label: str = "",
    ) -> None:
        """PokerStars settles the last side pot first: the hands contesting it are shown,
        it is collected (each half of a split pot apart), then the next pot down to the
        main pot. With two boards, each board's show down in turn (``label``)."""
        self.lines.append(f"*** {label}SHOW DOWN ***")
        shown: list[HandValue] = []
        done: set[int] = set()
        pots = sorted({a.pot for a in awards})
        for pot in reversed(pots):
            halves = [a for a in awards if a.pot == pot]
            for event in showdown:
                if event.seat in halves[0].eligible and event.seat not in done:
                    done.add(event.seat)
                    self.show_line(event, shown, board)
            for award in halves:
                for seat, share in award.shares:
                    if share:
                        name = _pot_name(pots.index(pot), len(pots))
                        self.lines.append(
                            f"{self.name(seat)} collected {self.money(share)} from {name}"
                        )
            if self.game.split and not any(a.half == "low" for a in halves):
                self.lines.append("No low hand qualified")
        for event in showdown:
            if event.seat not in done:
                self.show_line(event, shown, board)

    def show_line(
        self,
        event: CardsShown | CardsMucked,
        shown: list[HandValue],
        board: tuple[Card, ...],
    ) -> None:
        """A show or muck line; ``shown`` are the high hands shown so far, for kicker
        notes."""
        player = self.players[event.seat]
        cards = self.holes[event.seat]
        named = self.named(event.seat, board)
        if isinstance(event, CardsMucked) or cards is None or named is None:
            # A hand the history never saw stays face down: mucked, as far as the text
            # can tell.
            self.lines.append(f"{player.name}: mucks hand")
            return
        player.shown = True
        text = named.text
        if named.value is not None:
            text += _kicker_note(named.value, shown)
            shown.append(named.value)
        self.lines.append(f"{player.name}: shows {_cards(cards)} ({text})")

    def summary(self, awards: list[PotAwarded]) -> None:
        self.lines.append("*** SUMMARY ***")
        total = sum(a.amount for a in awards)
        pots = sorted({a.pot for a in awards})
        text = ""
        if len(pots) > 1:
            text = "".join(
                f" {_pot_name(i, len(pots)).capitalize()} "
                f"{self.money(sum(a.amount for a in awards if a.pot == pot))}."
                for i, pot in enumerate(pots)
            )
        self.lines.append(f"Total pot {self.money(total)}{text} | Rake {self.money(0)}")
        board = self.boards[0]
        self.lines += [_after_line(self, e) for e in self.after if isinstance(e, BountyPaid)]
        if len(self.boards) > 1:
            self.lines += ["Hand was run twice"] if self.run_twice else []
            self.lines += [f"{_ORDINALS[i]} Board {_cards(b)}" for i, b in enumerate(self.boards)]
        elif board and not self.stud:
            self.lines.append(f"Board {_cards(board)}")
        for p, player in sorted(enumerate(self.players), key=lambda item: item[1].seat):
            roles = " (button)" if p == self.button else ""
            roles += " (small blind)" if player.small_blind else ""
            roles += " (big blind)" if player.big_blind else ""
            self.lines.append(f"Seat {player.seat}: {player.name}{roles} {self.outcome(p, awards)}")

    def outcome(self, p: int, awards: list[PotAwarded]) -> str:
        player = self.players[p]
        if player.folded_on is not None:
            return _folded(player, self.game)
        cards = self.holes[p]
        if player.shown and cards is not None and len(self.boards) > 1:
            return f"showed {_cards(cards)} and " + ", and ".join(
                _board_outcome(self, p, i, awards) for i in range(len(self.boards))
            )
        if player.shown and cards is not None:
            named = self.named(p, self.boards[0])
            name = named.text if named is not None else ""
            if player.won:
                return f"showed {_cards(cards)} and won ({self.money(player.won)}) with {name}"
            return f"showed {_cards(cards)} and lost with {name}"
        if player.won:
            return f"collected ({self.money(player.won)})"
        if cards is not None:
            return f"mucked {_cards(cards)}"
        return "mucked"
