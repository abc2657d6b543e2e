"""Hand histories in PHH (the Poker Hand History format, phh.readthedocs.io), and replay.

A PHH file is TOML: the game (``variant``, ``antes``, ``blinds_or_straddles``,
``min_bet``, ``starting_stacks``) and ``actions`` such as ``"d dh p1 AcKd"`` (hole cards
dealt), ``"d db 7h8s9c"`` (board), ``"p3 cbr 300"`` (bet or raise to 300 on this street),
``"p2 cc"`` (check or call), ``"p1 f"`` (fold) and ``"p1 sm AcKd"`` / ``"p1 sm"`` (show or
muck). Players are ``p1`` (first left of the button, the small blind) to ``pN`` (the
button); heads-up, ``p1`` is the big blind and ``p2`` the button, whose blinds and antes
PHH lists in the order small, big, like pokerkit. A ``.phhs`` file holds several hands as
tables ``[1]``, ``[2]``, ...

>>> text = '''
... variant = "NT"
... antes = [0, 0, 0]
... blinds_or_straddles = [5, 10, 0]
... min_bet = 10
... starting_stacks = [100, 100, 100]
... actions = ["d dh p1 AcAd", "d dh p2 KcKd", "d dh p3 2c7d", "p3 f", "p1 cbr 30", "p2 f"]
... finishing_stacks = [110, 90, 100]
... '''
>>> check(load(text)).status
'match'
"""

from __future__ import annotations

import datetime as dt
import json
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any, Literal

from engine.actions import Action, BetOrRaiseTo, CheckOrCall, Fold
from engine.cards import Card, parse_cards
from engine.deck import Deck
from engine.errors import EngineError, HistoryError, UnsupportedHistoryError
from engine.events import (
    ActionTaken,
    BoardDealt,
    CardsMucked,
    CardsShown,
    Event,
    HoleCardsDealt,
    PotAwarded,
)
from engine.hand import Hand, HandSetup

__all__ = [
    "HandHistory",
    "ReplayResult",
    "check",
    "dump",
    "dump_all",
    "from_hand",
    "load",
    "load_all",
    "redact",
    "replay",
]

Number = int | Decimal
Status = Literal["match", "differ", "unsupported", "error"]

# Fields in the order PHH and pokerkit write them; anything else is kept as it came.
_KNOWN = (
    "variant",
    "ante_trimming_status",
    "antes",
    "blinds_or_straddles",
    "min_bet",
    "starting_stacks",
    "actions",
)


@dataclass
class HandHistory:
    """One hand as PHH records it. Amounts are ints, or Decimals where the file has
    fractions (e.g. dollars and cents); ``fields`` keeps every other field in order."""

    variant: str
    antes: list[Number]
    blinds_or_straddles: list[Number]
    min_bet: Number
    starting_stacks: list[Number]
    actions: list[str]
    ante_trimming_status: bool = False
    fields: dict[str, Any] = field(default_factory=dict)

    @property
    def finishing_stacks(self) -> list[Number] | None:
        """The recorded result, if the file has one."""
        value = self.fields.get("finishing_stacks")
        return list(value) if value is not None else None


def _from_table(table: dict[str, Any]) -> HandHistory:
    try:
        return HandHistory(
            variant=str(table["variant"]),
            antes=list(table.get("antes", [0] * len(table["starting_stacks"]))),
            blinds_or_straddles=list(table.get("blinds_or_straddles", [])),
            min_bet=table.get("min_bet", 0),
            starting_stacks=list(table["starting_stacks"]),
            actions=[str(a) for a in table["actions"]],
            ante_trimming_status=bool(table.get("ante_trimming_status", False)),
            fields={k: v for k, v in table.items() if k not in _KNOWN},
        )
    except KeyError as exc:
        raise HistoryError(f"missing field {exc.args[0]!r}") from None
    except TypeError as exc:
        raise HistoryError(f"malformed hand: {exc}") from None


def _parse_toml(text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise HistoryError(f"not valid PHH (TOML): {exc}") from None


def load(text: str) -> HandHistory:
    """Read one hand from the text of a ``.phh`` file."""
    return _from_table(_parse_toml(text))


def load_all(text: str) -> list[HandHistory]:
    """Read every hand of a ``.phhs`` file, in order."""
    tables = _parse_toml(text)
    hands = []
    for key, value in tables.items():
        if not isinstance(value, dict):
            raise HistoryError(f"a .phhs file holds tables [1], [2], ...; found {key!r}")
        try:
            hands.append(_from_table(value))
        except HistoryError as exc:
            raise HistoryError(f"hand [{key}]: {exc}") from None
    return hands


def _toml_value(value: Any) -> str:
    if isinstance(value, str):
        if value.isascii() and value.isprintable() and '"' not in value and "\\" not in value:
            return f'"{value}"'  # nothing to escape: the common case, and a hot path
        return json.dumps(value, ensure_ascii=False)  # a valid TOML basic string
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dt.date | dt.time):  # TOML has date and time values: keep them
        return value.isoformat()
    if isinstance(value, int | Decimal):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(map(_toml_value, value)) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    return json.dumps(str(value))


def _toml_key(key: str) -> str:
    return key if key.replace("_", "").replace("-", "").isalnum() else json.dumps(key)


def dump(history: HandHistory) -> str:
    """The hand as the text of a ``.phh`` file."""
    lines = [
        f"variant = {_toml_value(history.variant)}",
        f"ante_trimming_status = {_toml_value(history.ante_trimming_status)}",
        f"antes = {_toml_value(history.antes)}",
        f"blinds_or_straddles = {_toml_value(history.blinds_or_straddles)}",
        f"min_bet = {_toml_value(history.min_bet)}",
        f"starting_stacks = {_toml_value(history.starting_stacks)}",
        "actions = [",
        *(f"  {_toml_value(a)}," for a in history.actions),
        "]",
    ]
    lines += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in history.fields.items()]
    return "\n".join(lines) + "\n"


def dump_all(histories: Iterable[HandHistory]) -> str:
    """Several hands as the text of a ``.phhs`` file."""
    return "\n".join(f"[{i}]\n{dump(h)}" for i, h in enumerate(histories, start=1))


# -- replay ------------------------------------------------------------------------------


@dataclass
class _Game:
    """A PHH hand turned into our engine's terms: int chips and explicit positions."""

    scale: int
    setup: HandSetup
    deck: Deck
    actions: list[tuple[int, str, str]]  # (line number, actor, rest), dealing kept
    face_up: tuple[bool, ...]
    known: tuple[bool, ...]


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


def _split_action(action: str) -> list[str]:
    return action.split("#", 1)[0].split()


def _prepare(history: HandHistory) -> _Game:
    if history.variant != "NT":
        raise UnsupportedHistoryError(f"variant {history.variant!r} is not no-limit Texas hold'em")
    n = len(history.starting_stacks)
    if not 2 <= n <= 10:
        raise HistoryError(f"{n} players; a hand has 2 to 10")
    for name in ("antes", "blinds_or_straddles"):
        if len(getattr(history, name)) != n:
            raise HistoryError(f"{name} has {len(getattr(history, name))} entries for {n} players")
    parsed = [(i, _split_action(a)) for i, a in enumerate(history.actions, start=1)]
    parsed = [(i, words) for i, words in parsed if words]
    amounts: list[Number] = [
        *history.antes,
        *history.blinds_or_straddles,
        history.min_bet,
        *history.starting_stacks,
    ]
    amounts += [Decimal(w[2]) for _, w in parsed if len(w) == 3 and w[1] == "cbr"]
    scale = _scale_of(amounts)
    antes = [_to_chips(a, scale) for a in history.antes]
    blinds = [_to_chips(b, scale) for b in history.blinds_or_straddles]
    dead = [_to_chips(d, scale) for d in history.fields.get("_dead_blinds", [0] * n)]
    if len(dead) != n:
        raise HistoryError(f"_dead_blinds has {len(dead)} entries for {n} players")
    antes = [a - d for a, d in zip(antes, dead, strict=True)]  # our own field: see from_hand
    if n == 2:  # heads-up: p1 is the big blind; PHH lists the small blind first
        antes.reverse()
        blinds.reverse()
        dead.reverse()
    nonzero_antes = {a for a in antes if a}
    big_blind_ante = bool(nonzero_antes) and any(a == 0 for a in antes)
    live = sorted(b for b in blinds if b)
    min_bet = _to_chips(history.min_bet, scale) or (live[-1] if live else 1)

    holes, face_up, board, actions = _dealing(parsed, n)
    known = tuple(None not in hole for hole in holes)
    used = [c for hole in holes for c in hole if c is not None] + board
    if len(set(used)) != len(used):
        raise HistoryError("a card is dealt twice")
    spare = iter(c for c in Deck.from_cards(()).cards if c not in set(used))
    # Hole cards never known ("????", never shown) get unused stand-ins; the hand is told
    # which (Hand's unknown), so they never show or win, and Replay.known says which.
    filled = [[c if c is not None else next(spare) for c in hole] for hole in holes]
    order = [hole[0] for hole in filled] + [hole[1] for hole in filled] + board
    setup = HandSetup(
        hand_number=int(history.fields.get("hand", 1) or 1),
        seats=tuple(range(n)),
        stacks=tuple(_to_chips(s, scale) for s in history.starting_stacks),
        small_blind=live[0] if live else 0,
        big_blind=min_bet,
        blinds=tuple(blinds),
        antes=tuple(antes),
        dead_blinds=tuple(dead),
        big_blind_ante=big_blind_ante,
        min_bet=min_bet,
        big_blind_position=(
            _player_index(f"p{history.fields['_big_blind_player']}", n, 0)
            if "_big_blind_player" in history.fields
            else None
        ),
    )
    return _Game(scale, setup, Deck.from_cards(order), actions, tuple(face_up), known)


def _dealing(
    parsed: list[tuple[int, list[str]]], n: int
) -> tuple[list[list[Card | None]], list[bool], list[Card], list[tuple[int, str, str]]]:
    """Hole cards (None where unknown), whether each player's were dealt face up (known
    from the deal), the board, and the actions in order."""
    holes: list[list[Card | None]] = [[None, None] for _ in range(n)]
    face_up = [False] * n
    board: list[Card] = []
    actions: list[tuple[int, str, str]] = []
    for line, words in parsed:
        if words[0] == "d" and len(words) >= 3 and words[1] == "dh":
            player = _player_index(words[2], n, line)
            text = words[3] if len(words) > 3 else "????"
            cards = _parse_dealt(text, line)
            if len(cards) != 2:
                raise UnsupportedHistoryError(
                    f"action {line}: {len(cards)} hole cards; hold'em deals 2"
                )
            holes[player] = cards
            face_up[player] = None not in cards
        elif len(words) == 3 and words[1] == "sm" and words[0].startswith("p"):
            # Cards dealt unknown ("????") may be shown at the end: use the real ones.
            player = _player_index(words[0], n, line)
            shown = _parse_dealt(words[2], line)
            if len(shown) == 2 and None not in shown:
                if any(c is not None and c not in shown for c in holes[player]):
                    raise HistoryError(f"action {line}: {words[0]} shows cards not dealt to them")
                holes[player] = shown
        elif words[0] == "d" and len(words) == 3 and words[1] == "db":
            dealt = _parse_dealt(words[2], line)
            if any(c is None for c in dealt):
                raise HistoryError(f"action {line}: unknown board cards")
            board += [c for c in dealt if c is not None]
        actions.append((line, words[0], " ".join(words[1:])))
    return holes, face_up, board, actions


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


def _to_action(
    actor: str, rest: str, line: int, seats: tuple[int, ...], scale: int
) -> Action | None:
    """Our action for a PHH player action, or None for show/muck (our showdown is
    automatic; what was shown is checked against the hand instead)."""
    seat = seats[_player_index(actor, len(seats), line)]
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
        case ["sm", *_]:
            return None
        case _:
            raise UnsupportedHistoryError(
                f"action {line}: {actor} {rest!r} is not a hold'em action"
            )


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
    notes: list[str] = field(default_factory=list)
    """What the replay decided where the history's cards could not: players whose hole
    cards are unknown mucked at showdown, and a pot that only they contest split as a tie
    (see :func:`replay`)."""

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
) -> Replay:
    """Play the hand through :class:`engine.hand.Hand`, checking each dealt board card.

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

    Raises :class:`HistoryError` when the history breaks our rules or does not finish.

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
    try:
        game = _prepare(history)
        setup = game.setup
        game.setup = replace(
            setup,
            seats=setup.seats if seats is None else tuple(seats),
            button=button,  # None: the last seat, as HandSetup has it
            small_blind=setup.small_blind if small_blind is None else small_blind,
        )
    except HistoryError:
        raise
    except EngineError as exc:  # e.g. a negative stack: the hand cannot be set up
        raise HistoryError(f"cannot set up the hand: {exc}") from None
    except (ArithmeticError, ValueError, TypeError, IndexError) as exc:
        raise HistoryError(f"malformed hand: {exc}") from None
    hand = Hand(game.setup, game.deck, unknown=[p for p, k in enumerate(game.known) if not k])
    events = hand.start()
    board_seen = 0
    repairs: list[str] = []
    for line, actor, rest in game.actions:
        if actor == "d":
            if rest.startswith("db"):
                # Our engine deals a street as soon as betting ends: by the time the file
                # deals it, we must have too, or the betting ended somewhere else.
                parts = rest.split()
                if len(parts) != 2:
                    raise HistoryError(f"action {line}: 'd db' needs the cards it deals")
                board_seen += len(parts[1]) // 2
                if len(hand.board) < board_seen:
                    raise HistoryError(f"action {line}: board dealt while betting is open")
            continue
        action = _to_action(actor, rest, line, hand.seats, game.scale)
        if action is None:
            continue
        if hand.is_over:
            raise HistoryError(f"action {line}: {actor} {rest!r} comes after the hand ended")
        try:
            events += _repair(hand, action.seat, repairs)
            events += hand.apply(action)
        except EngineError as exc:
            raise HistoryError(f"action {line}: {actor} {rest!r}: {exc}") from None
    if not hand.is_over:
        raise HistoryError("the actions end before the hand does")
    notes = _unknown_at_showdown(hand, events)
    return Replay(hand, events, game.scale, repairs, game.face_up, game.known, notes)


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

    As pokerkit does, a player skipped over checks if that is free and folds otherwise.
    """
    events: list[Event] = []
    while (actor := hand.seat_to_act) is not None and actor != seat and seat in hand.position:
        menu = hand.legal_actions(hand.position[actor])
        assert menu is not None
        filler: Action = CheckOrCall(actor) if menu.can_check else Fold(actor)
        repairs.append(f"p{hand.position[actor] + 1} {'cc' if menu.can_check else 'f'}")
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


# -- writing our hands -----------------------------------------------------------------


def from_hand(hand: Hand, players: Sequence[str] | None = None) -> HandHistory:
    """The PHH record of a hand our engine played (finished or not)."""
    setup = hand.setup
    n = len(setup.seats)
    antes, blinds = list(setup.antes), list(setup.blinds)
    if n == 2:
        antes.reverse()
        blinds.reverse()
    dead = list(setup.dead_blinds)
    if n == 2:
        dead.reverse()
    if any(dead):
        # PHH has no dead blinds: other tools see them as antes; our own field says which
        # part was a dead blind, so our replay treats it as one.
        antes = [a + d for a, d in zip(antes, dead, strict=True)]
    player = {seat: f"p{i + 1}" for i, seat in enumerate(setup.seats)}
    actions: list[str] = []
    for event in hand.log:
        if isinstance(event, HoleCardsDealt):
            actions.append(
                f"d dh {player[event.seat]} {_cards(hand.holes[hand.position[event.seat]])}"
            )
        elif isinstance(event, ActionTaken):
            word = {"fold": "f", "check": "cc", "call": "cc"}.get(
                event.kind, f"cbr {event.street_total}"
            )
            actions.append(f"{player[event.seat]} {word}")
        elif isinstance(event, BoardDealt):
            actions.append(f"d db {_cards(event.cards)}")
        elif isinstance(event, CardsShown):
            actions.append(f"{player[event.seat]} sm {_cards(event.cards)}")
        elif isinstance(event, CardsMucked):
            actions.append(f"{player[event.seat]} sm")
    fields: dict[str, Any] = {"hand": setup.hand_number, "seats": [s + 1 for s in setup.seats]}
    if any(dead):
        fields["_dead_blinds"] = dead
    # PHH opens the betting after the largest blind (the later one on a tie); a newcomer
    # posting a big blind elsewhere does not move it, so say where it opens when it differs.
    if setup.big_blind_position is not None and setup.big_blind_position != _opener(setup.blinds):
        fields["_big_blind_player"] = setup.big_blind_position + 1
    if players is not None:
        fields["players"] = list(players)
    if hand.is_over:
        fields["finishing_stacks"] = list(hand.stacks)
    return HandHistory(
        variant="NT",
        # pokerkit's ante trimming is right for antes everyone pays, wrong for others.
        ante_trimming_status=len(set(antes)) == 1,
        antes=list(antes),
        blinds_or_straddles=list(blinds),
        min_bet=setup.min_bet,
        starting_stacks=list(setup.stacks),
        actions=actions,
        fields=fields,
    )


def _opener(blinds: Sequence[int]) -> int:
    """The position PHH reads the preflop action from: the largest blind, later on a tie."""
    return max(range(len(blinds)), key=lambda p: (blinds[p], p))


def _cards(cards: Iterable[Card]) -> str:
    return "".join(str(c) for c in cards)


# -- what one player saw ---------------------------------------------------------------


def redact(history: HandHistory, position: int | None) -> HandHistory:
    """The history as one player saw the hand: ``position`` is theirs in PHH order (0 for
    ``p1``; not a table seat), ``None`` a spectator. Everyone else's dealt hole cards are
    unknown (``????``), whatever follows them on the line, except where they were shown
    (``sm`` with cards, which stays). Every comment (``#`` to the end of an action) goes,
    the player's own too, since it may name any card; an action that is only a comment
    goes with it. Fields other than ``actions`` are kept as they are.

    >>> hh = load('''
    ... variant = "NT"
    ... blinds_or_straddles = [5, 10]
    ... starting_stacks = [100, 100]
    ... actions = ["d dh p1 AcAd", "d dh p2 KcKd # kings", "# p1 has aces", "p2 f"]
    ... ''')
    >>> redact(hh, 1).actions
    ['d dh p1 ????', 'd dh p2 KcKd', 'p2 f']
    """
    own = None if position is None else f"p{position + 1}"
    actions = []
    for action in history.actions:
        words = _split_action(action)
        if words[:2] == ["d", "dh"] and len(words) > 3 and words[2] != own:
            # Words after the cards mean nothing to a replay, but they may name cards too.
            words = [*words[:3], "?" * len(words[3])]
        if words:
            actions.append(" ".join(words))
    return replace(history, actions=actions, fields=dict(history.fields))
