"""Replaying a PHH hand history through our engine, for any game it plays.

:func:`replay` turns a :class:`engine.phh.HandHistory` into a :class:`engine.hand.Hand`:
int chips, explicit positions, and a deck in our dealing order, rebuilt from the cards
the history deals (hole cards a street at a time, one round after another; the board;
each draw's new cards in drawing order). :func:`check` compares the result with the
recorded ``finishing_stacks``. :mod:`engine.history` is the public face of both.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal

from engine.actions import Action, BetOrRaiseTo, BringIn, CheckOrCall, Draw, Fold, RunItTwice
from engine.cards import Card, parse_cards, parse_dice
from engine.deck import Deck
from engine.errors import EngineError, HistoryError, UnsupportedHistoryError
from engine.events import CardsMucked, CardsShown, Event, PotAwarded
from engine.games import Game, Opener
from engine.hand import Hand, HandSetup, PublicState
from engine.phh import (
    AFTER_FIELD,
    BOARDS_FIELD,
    BOMB_POT_FIELD,
    RUN_IT_TWICE_FIELD,
    SEVEN_DEUCE_FIELD,
    STRADDLE_FIELD,
    HandHistory,
    Number,
    Status,
    split_action,
)

__all__ = ["Replay", "ReplayResult", "check", "replay"]


@dataclass
class _Game:
    """A PHH hand turned into our engine's terms: int chips and explicit positions."""

    scale: int
    setup: HandSetup
    deck: Deck
    actions: list[tuple[int, str, str]]  # (line number, actor, rest), dealing kept
    face_up: tuple[bool, ...]
    known: tuple[bool, ...]
    stand_ins: bool  # some cards are unknown: unused cards stand in for them


def _scale_of(values: Iterable[Number]) -> int:
    """The power of ten that turns every amount into an int chip count."""
    places = 0
    for v in values:
        if isinstance(v, Decimal):
            exponent = v.normalize().as_tuple().exponent
            places = max(places, -exponent if isinstance(exponent, int) else 0)
    return int(10**places)


def _to_chips(value: Number, scale: int) -> int:
    chips = Decimal(value) * scale
    if chips != chips.to_integral_value():
        raise HistoryError(f"amount {value} is finer than the hand's smallest unit")
    return int(chips)


def _prepare(history: HandHistory) -> _Game:
    game = history.game
    n = len(history.starting_stacks)
    if not 2 <= n <= game.max_players:
        raise HistoryError(f"{n} players; a hand of {game.name} has 2 to {game.max_players}")
    if not history.blinds_or_straddles and not game.blinds:
        history = replace(history, blinds_or_straddles=[0] * n)
    for name in ("antes", "blinds_or_straddles"):
        if len(getattr(history, name)) != n:
            raise HistoryError(f"{name} has {len(getattr(history, name))} entries for {n} players")
    parsed = [(i, split_action(a)) for i, a in enumerate(history.actions, start=1)]
    parsed = [(i, words) for i, words in parsed if words]
    stakes = [history.min_bet, history.bring_in, history.small_bet, history.big_bet]
    amounts: list[Number] = [*history.antes, *history.blinds_or_straddles, *stakes]
    amounts += history.starting_stacks
    amounts += [Decimal(w[2]) for _, w in parsed if len(w) == 3 and w[1] == "cbr"]
    scale = _scale_of(amounts)
    antes = [_to_chips(a, scale) for a in history.antes]
    blinds = [_to_chips(b, scale) for b in history.blinds_or_straddles]
    dead = [_to_chips(d, scale) for d in history.fields.get("_dead_blinds", [0] * n)]
    if len(dead) != n:
        raise HistoryError(f"_dead_blinds has {len(dead)} entries for {n} players")
    antes = [a - d for a, d in zip(antes, dead, strict=True)]  # our own field: see from_hand
    if n == 2 and game.blinds:  # heads-up: p1 is the big blind; PHH lists the small blind first
        antes.reverse()
        blinds.reverse()
        dead.reverse()
    nonzero_antes = {a for a in antes if a}
    big_blind_ante = bool(nonzero_antes) and any(a == 0 for a in antes) and game.blinds
    live = sorted(b for b in blinds if b)
    small_bet = _to_chips(history.small_bet, scale)
    min_bet = _to_chips(history.min_bet, scale) or (live[-1] if live else small_bet or 1)
    straddle = _to_chips(history.fields.get(STRADDLE_FIELD, 0), scale)
    deal = _Dealing(game, n)
    actions = deal.read(parsed)
    deal.rabbit(_after(history))
    order, known, face_up = deal.finish()
    stand_ins = bool(deal.stand_in)
    setup = HandSetup(
        hand_number=int(history.fields.get("hand", 1) or 1),
        seats=tuple(range(n)),
        stacks=tuple(_to_chips(s, scale) for s in history.starting_stacks),
        small_blind=live[0] if live else 0,
        big_blind=min_bet if game.blinds else 0,
        blinds=tuple(blinds),
        antes=tuple(antes),
        dead_blinds=tuple(dead),
        big_blind_ante=big_blind_ante,
        min_bet=min_bet,
        big_blind_position=_big_blind_position(history, blinds, straddle),
        straddle=straddle,
        bomb_pot=history.fields.get(BOMB_POT_FIELD) is True,
        boards=_boards(history.fields.get(BOARDS_FIELD, 1)),
        run_it_twice=RUN_IT_TWICE_FIELD in history.fields,
        seven_deuce=_to_chips(history.fields.get(SEVEN_DEUCE_FIELD, 0), scale),
        game=game,
        bring_in=_to_chips(history.bring_in, scale),
        small_bet=small_bet,
        big_bet=_to_chips(history.big_bet, scale),
    )
    return _Game(scale, setup, Deck(tuple(order)), actions, face_up, known, stand_ins)


def _boards(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise HistoryError(f"{BOARDS_FIELD} must be an int, got {value!r}")
    return value


def _big_blind_position(history: HandHistory, blinds: list[int], straddle: int) -> int | None:
    """Whose blind opens the betting, where the history says so: our ``_big_blind_player``,
    or a table's straddle (the largest blind, the later on a tie, as PHH reads it)."""
    n = len(blinds)
    if "_big_blind_player" in history.fields:
        return _player_index(f"p{history.fields['_big_blind_player']}", n, 0)
    if straddle:
        return max(range(n), key=lambda p: (blinds[p], p))
    return None


@dataclass
class _Block:
    """The dealing between two player actions: hole cards by player, board cards, and
    draws (player, cards thrown away) in order."""

    holes: dict[int, list[int]] = field(default_factory=dict)  # player -> slots in order
    board: list[int] = field(default_factory=list)
    draws: list[tuple[int, list[Card | None]]] = field(default_factory=list)


class _Dealing:
    """The cards a history deals, gathered into our engine's dealing order. ``slots`` hold
    the cards in the order dealt (``None`` unknown); each player's cards are slots too,
    so cards shown at the end fill in those dealt unknown."""

    def __init__(self, game: Game, n: int) -> None:
        self.game = game
        self.n = n
        self.dealt: list[Card | None] = []  # by slot, in the history's order
        self.order: list[int] = []  # slots in our dealing order
        self.player_slots: list[list[int]] = [[] for _ in range(n)]
        # Each player's cards now, as slots in hand order: a draw replaces some in place.
        self.current: list[list[int]] = [[] for _ in range(n)]
        self.block: _Block | None = None
        self.drew = False
        self.revealed: set[int] = set()  # slots dealt unknown, then shown
        self.stand_in: dict[int, Card] = {}  # slots never known: unused cards in their place

    def read(self, parsed: list[tuple[int, list[str]]]) -> list[tuple[int, str, str]]:
        actions: list[tuple[int, str, str]] = []
        for line, words in parsed:
            if words[0] == "d" and len(words) >= 3 and words[1] == "dh":
                player = _player_index(words[2], self.n, line)
                text = words[3] if len(words) > 3 else ""
                cards = self._cards(text, line) if text else [None] * self._hole_count(player)
                block = self._open()
                slots = block.holes.setdefault(player, [])
                for card in cards:
                    slots.append(self._slot(card))
                    self.player_slots[player].append(slots[-1])
                if player not in (d for d, _ in block.draws):
                    self.current[player] += slots[-len(cards) :] if cards else []
            elif words[0] == "d" and len(words) == 3 and words[1] == "db":
                cards = self._cards(words[2], line)
                if any(c is None for c in cards):
                    raise HistoryError(f"action {line}: unknown board cards")
                block = self._open()
                block.board += [self._slot(c) for c in cards]
            elif len(words) >= 2 and words[1] == "sd" and words[0].startswith("p"):
                player = _player_index(words[0], self.n, line)
                block = self._open()
                if player in (d for d, _ in block.draws) or block.holes:  # a new draw round
                    self._close()
                    block = self._open()
                block.draws.append((player, self._cards(words[2], line) if len(words) > 2 else []))
                self.drew = True
            elif len(words) == 3 and words[1] == "sm" and words[0].startswith("p"):
                self._close()
                self._shown(_player_index(words[0], self.n, line), words[2], line, words[0])
            else:
                self._close()
            actions.append((line, words[0], " ".join(words[1:])))
        self._close()
        return actions

    def finish(self) -> tuple[list[Card], tuple[bool, ...], tuple[bool, ...]]:
        """The deck in our dealing order (unknown cards replaced by unused stand-ins, the
        rest of the deck after), and by player whether their cards are all known and
        whether the deal itself showed them."""
        cards = [self.dealt[s] for s in self.order]
        known_cards = [c for c in cards if c is not None]
        repeats = self.drew or self.game.deck.dice  # a die shows any face again
        if len(set(known_cards)) != len(known_cards) and not repeats:
            raise HistoryError("a card is dealt twice")
        for card in known_cards:
            if card not in self.game.deck:
                raise HistoryError(f"card {str(card)!r} is not in the {self.game.deck.name} deck")
        if self.game.deck.dice:
            spare: Iterator[Card] = iter(Card.die(1 + i % 6) for i in range(len(cards)))
        else:
            used = set(known_cards)
            # In a draw game a player's view may hold more unknown cards than the deck has
            # unused: stand-ins then repeat (the dealer is told: Dealer.lenient).
            spare = itertools.cycle(
                self._stand_ins([c for c in self.game.deck.cards if c not in used])
            )
        # Cards never known ("????", never shown) get unused stand-ins; the hand is told
        # which (Hand's unknown), so they never show or win, and Replay.known says which.
        # Player by player, each player's unknown cards in the order dealt.
        for slots in self.player_slots:
            for slot in slots:
                if self.dealt[slot] is None:
                    self.stand_in[slot] = next(spare)
        filled = [
            c if c is not None else self.stand_in[s] for s, c in zip(self.order, cards, strict=True)
        ]
        used = set(filled)
        if not self.game.deck.dice and len(used) == len(filled):
            filled += [c for c in self.game.deck.cards if c not in used]
        # Known: the cards a player ends with (in a draw game, not those thrown away).
        ends = self.current if self.drew else self.player_slots
        known = tuple(all(self.dealt[s] is not None for s in slots) for slots in ends)
        face_up = tuple(
            all(self.dealt[s] is not None and s not in self.revealed for s in slots)
            for slots in self.player_slots
        )
        return filled, known, face_up

    def _stand_ins(self, unused: list[Card]) -> list[Card]:
        """Unused cards in the order stand-ins take them. In stud an unknown up card must
        not bring in, so stand-ins come from the other end of the deck from the bring-in:
        aces first, or in razz (where the highest card brings in) the lowest cards."""
        opener = self.game.streets[0].opener
        if opener is Opener.LOW_CARD:
            return sorted(unused, reverse=True)
        if opener is Opener.HIGH_CARD:
            return sorted(unused, key=lambda c: (((c.code >> 2) + 1) % 13, c.code & 3))
        return unused

    # -- gathering ---------------------------------------------------------------------

    def rabbit(self, after: list[list[str]]) -> None:
        """The rabbit's cards (O7) come next in the deck, after everything dealt."""
        for words in after:
            if words[:2] == ["d", "rabbit"] and len(words) == 3:
                for card in self._cards(words[2], 0):
                    if card is None:
                        raise HistoryError(f"{AFTER_FIELD}: unknown rabbit cards")
                    self.order.append(self._slot(card))

    def _open(self) -> _Block:
        if self.block is None:
            self.block = _Block()
        return self.block

    def _close(self) -> None:
        """Put the block's cards in our dealing order: draws player by player in drawing
        order; hole cards one round at a time, by position; then the board."""
        block = self.block
        if block is None:
            return
        self.block = None
        for player, discards in block.draws:
            new = block.holes.pop(player, [])
            self.order += new
            self._replace(player, discards, new)
        rounds = max((len(s) for s in block.holes.values()), default=0)
        for k in range(rounds):
            self.order += [
                block.holes[p][k] for p in sorted(block.holes) if k < len(block.holes[p])
            ]
        self.order += block.board

    def _replace(self, player: int, discards: list[Card | None], new: list[int]) -> None:
        """A draw: the discarded cards' slots give way, in place, to the new ones. Unknown
        discards are the first cards of the hand that are not the known ones, as the
        replay throws them away (``_discards``)."""
        hand = self.current[player]
        gone: list[int] = []
        for card in discards:  # one slot for each card named (dice repeat)
            if card is not None:
                gone += [next((s for s in hand if self.dealt[s] == card and s not in gone), -1)]
        others = iter(s for s in hand if s not in gone)
        gone += [next(others, -1) for c in discards if c is None]
        fresh = iter(new)
        self.current[player] = [next(fresh, s) if s in gone else s for s in hand]

    def _slot(self, card: Card | None) -> int:
        self.dealt.append(card)
        return len(self.dealt) - 1

    def _hole_count(self, player: int) -> int:
        return len(self.game.streets[0].hole) if not self.player_slots[player] else 1

    def _cards(self, text: str, line: int) -> list[Card | None]:
        if self.game.deck.dice:
            try:
                return [None if ch == "?" else parse_dice(ch)[0] for ch in text]
            except EngineError as exc:
                raise HistoryError(f"action {line}: {exc}") from None
        return _parse_dealt(text, line)

    def _shown(self, player: int, text: str, line: int, who: str) -> None:
        """Cards dealt unknown ("????") may be shown at the end: fill them in. In a draw
        game the cards shown are the hand held at the end, after the draws."""
        shown = self._cards(text, line)
        if None in shown:
            return
        slots = self.current[player] if self.drew else self.player_slots[player]
        dealt = [self.dealt[s] for s in slots]
        if any(c is not None and c not in shown for c in dealt) or len(shown) != len(dealt):
            raise HistoryError(f"action {line}: {who} shows cards not dealt to them")
        hidden = iter(c for c in shown if c not in dealt)
        for s in slots:
            if self.dealt[s] is None:
                self.dealt[s] = next(hidden)
                self.revealed.add(s)


def _player_index(word: str, n: int, line: int) -> int:
    if not (word.startswith("p") and word[1:].isdigit() and 1 <= int(word[1:]) <= n):
        raise HistoryError(f"action {line}: {word!r} is not a player p1..p{n}")
    return int(word[1:]) - 1


def _parse_dealt(text: str, line: int) -> list[Card | None]:
    cards: list[Card | None] = []
    for i in range(0, len(text), 2):
        token = text[i : i + 2]
        if token == "??":
            cards.append(None)
        else:
            try:
                cards.append(parse_cards(token)[0])
            except EngineError as exc:
                raise HistoryError(f"action {line}: {exc}") from None
    return cards


def _to_action(actor: str, rest: str, line: int, hand: Hand, scale: int) -> Action | None:
    """Our action for a PHH player action, or None for show/muck (our showdown is
    automatic; what was shown is checked against the hand instead)."""
    p = _player_index(actor, len(hand.seats), line)
    seat = hand.seats[p]
    words = rest.split()
    match words:
        case ["f"]:
            return Fold(seat)
        case ["cc"]:
            return CheckOrCall(seat)
        case ["cbr", amount]:
            try:
                return BetOrRaiseTo(seat, _to_chips(Decimal(amount), scale))
            except ArithmeticError:
                raise HistoryError(f"action {line}: bad amount {amount!r}") from None
        case ["pb"]:
            return BringIn(seat)
        case ["sd", *cards]:
            return Draw(seat, _discards(hand, p, cards[0] if cards else "", line))
        case ["sm", *_]:
            return None
        case _:
            raise UnsupportedHistoryError(
                f"action {line}: {actor} {rest!r} is not an action we know"
            )


def _discards(hand: Hand, p: int, text: str, line: int) -> tuple[Card, ...]:
    """The cards thrown away; unknown ones ("??") are the player's stand-ins."""
    if hand.game.deck.dice:
        try:
            return parse_dice(text) if text else ()
        except EngineError as exc:
            raise HistoryError(f"action {line}: {exc}") from None
    named = _parse_dealt(text, line)
    known = [c for c in named if c is not None]
    others = iter(c for c in hand.holes[p] if c not in known)
    return tuple(c if c is not None else next(others) for c in named)


@dataclass
class Replay:
    """A hand history played through our engine."""

    hand: Hand
    events: list[Event]
    scale: int
    repairs: list[str]
    """Actions the file left out and the replay supplied (see :func:`replay`)."""
    face_up: tuple[bool, ...]
    """By position: the history deals this player's hole cards face up."""
    known: tuple[bool, ...]
    """By position: the history knows these hole cards (dealt face up, or shown later).
    Where it does not, ``hand.holes`` holds stand-ins that must never be shown: the hand
    neither shows them nor lets them win (:class:`engine.hand.Hand`, ``unknown``)."""
    states: list[tuple[int, PublicState]] = field(default_factory=list)
    """With ``replay(..., states=True)``: the hand as everyone knew it after each step (the
    deal, each action, the end), ``(events so far, state)``, as a live table says it
    after each batch of events."""
    notes: list[str] = field(default_factory=list)
    """What the replay decided where the history's cards could not: players whose hole
    cards are unknown mucked at showdown, and a pot that only they contest split as a tie
    (see :func:`replay`); checks asked of a player nobody could bet against, skipped."""

    @property
    def final_stacks(self) -> list[Number]:
        """Final stacks in the file's units and player order."""
        return [_from_chips(s, self.scale) for s in self.hand.stacks]


def _from_chips(chips: int, scale: int) -> Number:
    return chips if scale == 1 else Decimal(chips) / scale


def replay(
    history: HandHistory,
    *,
    seats: Sequence[int] | None = None,
    button: int | None = None,
    small_blind: int | None = None,
    states: bool = False,
) -> Replay:
    """Play the hand through :class:`engine.hand.Hand`, checking each dealt board card;
    with ``states``, keep the hand's :class:`PublicState` after each step (``states``).

    Players sit in seats 0 to n-1 in PHH order, the last one on the button, and the small
    blind is the smallest blind posted. A table's hand replays exactly as the table played
    it, events and all, given what PHH does not record: its ``seats`` (in PHH order, like
    ``HandSetup.seats``), its ``button`` seat (which may be dead) and its ``small_blind``
    (which nobody may have posted).

    Hole cards the history does not know (``????``, never shown) are dealt as unused
    cards, stand-ins that never play: at showdown those players muck, as a hand the
    history does not show was mucked (a hand must be tabled to win, TDA Rule 13), and the
    others show or muck as they did (:class:`engine.hand.Hand`). A pot that only they
    contest is split among them, since no card decides it. ``notes`` says which.

    pokerkit sometimes asks a player nobody can bet against to check after everyone else
    is all in (our engine skips that turn, docs/rules.md W7): such a check is skipped, and
    ``notes`` says so.

    Raises :class:`HistoryError` when the history breaks our rules or does not finish.

    >>> from engine.phh import load
    >>> hh = load('''
    ... variant = "NT"
    ... blinds_or_straddles = [10, 0, 0]
    ... starting_stacks = [100, 100, 100]
    ... actions = ["d dh p1 AcAd", "d dh p2 KcKd", "d dh p3 2c7d", "p2 f", "p3 f"]
    ... ''')
    >>> replay(hh).events[0].small_blind  # the smallest blind posted
    10
    >>> started = replay(hh, seats=[4, 5, 0], button=1, small_blind=5).events[0]
    >>> started.seats, started.button, started.small_blind  # a dead button, no small blind
    ((4, 5, 0), 1, 5)
    """
    game, hand = _set_up(history, seats, button, small_blind)
    try:
        events = hand.start()
    except EngineError as exc:
        raise HistoryError(f"cannot deal the hand: {exc}") from None
    board_seen = 0
    repairs: list[str] = []
    notes: list[str] = []
    kept: list[tuple[int, PublicState]] = []

    def step() -> None:  # a batch of events is over: the state after it
        if states and len(events) > (kept[-1][0] if kept else 0):
            kept.append((len(events), hand.public_state()))

    step()
    answers = _Answers(history, hand)
    for line, actor, rest in game.actions:
        events += answers.give(line)
        step()
        if actor == "d":
            if rest.startswith("db"):
                # Our engine deals a street as soon as betting ends: by the time the file
                # deals it, we must have too, or the betting ended somewhere else.
                parts = rest.split()
                if len(parts) != 2:
                    raise HistoryError(f"action {line}: 'd db' needs the cards it deals")
                board_seen += len(parts[1]) // 2
                if _board_cards(hand) < board_seen:
                    raise HistoryError(f"action {line}: board dealt while betting is open")
            continue
        action = _to_action(actor, rest, line, hand, game.scale)
        if action is None:
            continue
        if isinstance(action, CheckOrCall) and _nobody_to_bet_against(hand, action.seat):
            notes.append(f"{actor} cc: nobody could bet against {actor}; skipped")
            continue
        if hand.is_over:
            raise HistoryError(f"action {line}: {actor} {rest!r} comes after the hand ended")
        if isinstance(action, Draw) and hand.dealer is not None:
            hand.dealer.later = _thrown_later(game.actions, line, hand)
        try:
            events += _repair(hand, action.seat, repairs)
            action = _short_of_the_limit(hand, action, notes, f"{actor} {rest}")
            events += hand.apply(action)
        except EngineError as exc:
            raise HistoryError(f"action {line}: {actor} {rest!r}: {exc}") from None
        step()
    events += answers.give(len(game.actions) + 1)
    if not hand.is_over:
        raise HistoryError("the actions end before the hand does")
    step()
    for batch in _after_the_hand(history, hand):
        events += batch
        step()
    notes = _unknown_at_showdown(hand, events) + notes
    return Replay(hand, events, game.scale, repairs, game.face_up, game.known, kept, notes)


def _set_up(
    history: HandHistory,
    seats: Sequence[int] | None,
    button: int | None,
    small_blind: int | None,
) -> tuple[_Game, Hand]:
    """The history in our terms and its hand, set up to start; a :class:`HistoryError`
    if it cannot be."""
    try:
        game = _prepare(history)
        setup = game.setup
        game.setup = replace(
            setup,
            seats=setup.seats if seats is None else tuple(seats),
            button=button,  # None: the last seat, as HandSetup has it
            small_blind=setup.small_blind if small_blind is None else small_blind,
        )
        hand = Hand(game.setup, game.deck, unknown=[p for p, k in enumerate(game.known) if not k])
        if hand.dealer is not None:
            hand.dealer.lenient = game.stand_ins
    except HistoryError:
        raise
    except EngineError as exc:  # e.g. a negative stack: the hand cannot be set up
        raise HistoryError(f"cannot set up the hand: {exc}") from None
    except (ArithmeticError, ValueError, TypeError, IndexError) as exc:
        raise HistoryError(f"malformed hand: {exc}") from None
    return game, hand


class _Answers:
    """The answers to running it twice a history records (``_run_it_twice``, docs/rules.md
    O5: ``["p2 y", "p3 n"]``), given to the hand when it asks."""

    def __init__(self, history: HandHistory, hand: Hand) -> None:
        self.hand = hand
        recorded = history.fields.get(RUN_IT_TWICE_FIELD, [])
        if not isinstance(recorded, list) or not all(isinstance(a, str) for a in recorded):
            raise HistoryError(f"{RUN_IT_TWICE_FIELD} must be a list of answers, got {recorded!r}")
        self.pending = [a.split() for a in recorded]

    def give(self, line: int) -> list[Event]:
        """The answers due before action ``line``: while the hand asks, the next one."""
        hand, events = self.hand, []
        while hand.choosing is not None:
            if not self.pending:
                raise HistoryError(
                    f"action {line}: the history does not say whether to run it twice"
                )
            words = self.pending.pop(0)
            if len(words) != 2 or words[1] not in ("y", "n"):
                raise HistoryError(
                    f"{RUN_IT_TWICE_FIELD}: {' '.join(words)!r} is not 'pN y' or 'pN n'"
                )
            seat = hand.seats[_player_index(words[0], hand.n, line)]
            try:
                events += hand.apply(RunItTwice(seat, words[1] == "y"))
            except EngineError as exc:
                raise HistoryError(f"{RUN_IT_TWICE_FIELD}: {' '.join(words)!r}: {exc}") from None
        return events


def _after(history: HandHistory) -> list[list[str]]:
    """The words of each thing done after the hand (``_after_the_hand``: O7, O8)."""
    after = history.fields.get(AFTER_FIELD, [])
    if not isinstance(after, list) or not all(isinstance(a, str) for a in after):
        raise HistoryError(f"{AFTER_FIELD} must be a list of strings, got {after!r}")
    return [a.split() for a in after]


def _after_the_hand(history: HandHistory, hand: Hand) -> list[list[Event]]:
    """Cards shown after the hand (and the 7-2 bounty they collect) and the rabbit, as
    the history records them: each one's events, as a table sends them, one batch each."""
    batches: list[list[Event]] = []
    for words in _after(history):
        try:
            if words[:2] == ["d", "rabbit"]:
                batches.append(hand.hunt_rabbit())
            elif len(words) == 3 and words[1] == "sm":
                seat = hand.seats[_player_index(words[0], hand.n, 0)]
                read = parse_dice if hand.game.deck.dice else parse_cards  # "62621": dice
                batches.append(hand.show(seat, read(words[2])))
            else:
                raise HistoryError(f"{' '.join(words)!r} is not 'pN sm CARDS' or 'd rabbit CARDS'")
        except EngineError as exc:
            raise HistoryError(f"{AFTER_FIELD}: {' '.join(words)!r}: {exc}") from None
    return batches


def _board_cards(hand: Hand) -> int:
    """The board cards dealt so far, on every board (docs/rules.md O4)."""
    return len(hand.board) if hand.boards is None else sum(map(len, hand.boards))


def _short_of_the_limit(hand: Hand, action: Action, notes: list[str], text: str) -> Action:
    """A fixed-limit raise recorded as what the others could call: a history annotated by
    hand may write a raise against a player all in for less as the amount that player put
    in. The raise is the full size, the rest comes back uncalled; the note says so."""
    if not (isinstance(action, BetOrRaiseTo) and hand.game.fixed_limit):
        return action
    p = hand.position.get(action.seat, -1)
    menu = hand.legal_actions(p) if p >= 0 else None
    if menu is None or not menu.can_raise or action.amount >= menu.min_raise_to:
        return action
    most = max(
        hand.bets[q] + hand.stacks[q] for q in range(hand.n) if q != p and not hand.folded[q]
    )
    if action.amount != most or action.amount <= hand.current_bet:
        return action
    notes.append(f"{text}: a raise to {menu.min_raise_to}, called only to {most}")
    return BetOrRaiseTo(action.seat, menu.min_raise_to)


def _thrown_later(actions: list[tuple[int, str, str]], line: int, hand: Hand) -> set[Card]:
    """The cards the rest of this draw round throws away (the discards after ``line``
    before the next player action that is not a draw)."""
    later: set[Card] = set()
    for other, actor, rest in actions:
        if other <= line or actor == "d":
            continue
        words = rest.split()
        if words[:1] != ["sd"]:
            break
        if len(words) > 1 and not hand.game.deck.dice:
            later.update(c for c in _parse_dealt(words[1], other) if c is not None)
    return later


def _nobody_to_bet_against(hand: Hand, seat: int) -> bool:
    """Whether ``seat`` is being asked to check though everyone else in the hand is all
    in or gone, a turn our engine skips (pokerkit asks it)."""
    if seat not in hand.position:
        return False
    p = hand.position[seat]
    if hand.folded[p] or (not hand.is_over and not hand.drawing and hand.seat_to_act == seat):
        return False  # a turn of its own: the check is real
    others = [q for q in range(hand.n) if q != p and not hand.folded[q]]
    owes = not hand.drawing and hand.bets[p] < hand.current_bet
    return bool(others) and all(hand.all_in[q] for q in others) and not owes


def _unknown_at_showdown(hand: Hand, events: Sequence[Event]) -> list[str]:
    """What the hand decided without cards: who mucked because their hole cards are
    unknown, and which pots only such players contested."""
    notes: list[str] = []
    shown = {e.seat for e in events if isinstance(e, CardsShown)}
    for event in events:
        if isinstance(event, CardsMucked) and hand.position[event.seat] in hand.unknown:
            player = f"p{hand.position[event.seat] + 1}"
            notes.append(f"{player}'s hole cards are unknown: mucked at showdown")
        elif (
            isinstance(event, PotAwarded)
            and len(event.eligible) > 1
            and not shown.intersection(event.eligible)
        ):
            players = ", ".join(f"p{hand.position[s] + 1}" for s in event.eligible)
            notes.append(f"no hand shown for pot {event.pot}: split between {players}")
    return notes


def _repair(hand: Hand, seat: int, repairs: list[str]) -> list[Event]:
    """Hand-annotated histories (the WSOP ones) leave out players who did nothing visible.

    As pokerkit does, a player skipped over checks if that is free and folds otherwise
    (and in a draw, stands pat).
    """
    events: list[Event] = []
    while (actor := hand.seat_to_act) is not None and actor != seat and seat in hand.position:
        menu = hand.legal_actions(hand.position[actor])
        assert menu is not None
        filler: Action
        if menu.can_draw:
            filler, word = Draw(actor), "sd"
        elif menu.can_check:
            filler, word = CheckOrCall(actor), "cc"
        else:
            filler, word = Fold(actor), "f"
        repairs.append(f"p{hand.position[actor] + 1} {word}")
        events += hand.apply(filler)
    return events


@dataclass(frozen=True)
class ReplayResult:
    """How a replay compared with the recorded ``finishing_stacks``."""

    status: Status
    ours: list[Number] | None
    recorded: list[Number] | None
    message: str


def check(history: HandHistory) -> ReplayResult:
    """Replay ``history`` and compare our final stacks with its ``finishing_stacks``. The
    message says what the replay supplied or decided itself (:attr:`Replay.repairs` and
    :attr:`Replay.notes`).

    A recorded split of an odd chip as ``x.5`` each matches when our odd-chip rule gave
    the chip to the first of those winners left of the button (docs/rules.md).
    """
    recorded = history.finishing_stacks
    try:
        result = replay(history)
    except UnsupportedHistoryError as exc:
        return ReplayResult("unsupported", None, recorded, str(exc))
    except HistoryError as exc:
        return ReplayResult("error", None, recorded, str(exc))
    ours = result.final_stacks
    repaired = f"supplied missing actions: {', '.join(result.repairs)}" if result.repairs else ""
    note = "; ".join(filter(None, [repaired, *result.notes]))
    if recorded is None:
        message = "; ".join(filter(None, ["no finishing_stacks recorded", note]))
        return ReplayResult("unsupported", ours, None, message)
    if len(recorded) != len(ours):
        return ReplayResult("error", ours, recorded, "finishing_stacks has the wrong length")
    if all(Decimal(a) == Decimal(b) for a, b in zip(ours, recorded, strict=True)):
        return ReplayResult("match", ours, recorded, note)
    if _odd_chip_split(ours, recorded):
        odd = "odd chip to the first winner left of the button"
        return ReplayResult("match", ours, recorded, "; ".join(filter(None, [odd, note])))
    return ReplayResult(
        "differ", ours, recorded, "; ".join(filter(None, ["final stacks differ", note]))
    )


def _odd_chip_split(ours: Sequence[Number], recorded: Sequence[Number]) -> bool:
    """Whether ``recorded`` splits odd chips in halves that ours gives, one chip each, to
    the earliest of those players (p1 is first left of the button)."""
    halves = [i for i, r in enumerate(recorded) if Decimal(r) % 1 == Decimal("0.5")]
    if not halves or sum(map(Decimal, ours)) != sum(map(Decimal, recorded)):
        return False
    for i, (a, r) in enumerate(zip(ours, recorded, strict=True)):
        if i not in halves and Decimal(a) != Decimal(r):
            return False
    up = [i for i in halves if Decimal(ours[i]) == Decimal(recorded[i]) + Decimal("0.5")]
    down = [i for i in halves if Decimal(ours[i]) == Decimal(recorded[i]) - Decimal("0.5")]
    return len(up) + len(down) == len(halves) and len(up) == len(down) and max(up) < min(down)
