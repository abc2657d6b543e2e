"""Fair shuffles anyone can check: commit to a secret seed, deal from it, keep it.

Each hand's deck comes from a fresh 32-byte seed drawn with :mod:`secrets`. When the hand
starts, the server publishes a commitment: the SHA-256 of the hand's identity (table and
hand number) and the seed. When the hand ends, the seed is stored with the hand, never
sent to anyone (it shows every card, mucked ones too): in its PHH history (fields
``table``, ``hand``, ``_deck_commitment``, ``_seed``) and in the ``hands`` table's
``deck_commitment`` and ``seed`` columns. Whoever holds the history can then recompute the
deck from the seed and check the commitment and every dealt card, with
:func:`verify_history` or ``pokerroom verify HAND_ID_OR_FILE``. docs/fairness.md gives
every byte, so that a verifier can be written in any language.

>>> seed, identity = bytes(range(32)), HandIdentity("example", 1)
>>> commitment(seed, identity)
'a9ddf05322a4df0e4d9ede83c501dc1917adabc4dac1a8de0f0fc5d19ea608f2'
>>> " ".join(str(c) for c in deck_from_seed(seed, identity).cards[:9])
'Qc 2s Qs Jd 7d 6s 2c 6c 3d'

Errors: a history that lacks what verification needs, or holds it malformed, raises
:class:`UnverifiableError` (an :class:`engine.HistoryError`); a history that has it all
but does not match gets a :class:`VerifyResult` with ``ok=False``.
"""

from __future__ import annotations

import hashlib
import random
import re
import secrets
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, cast

from sqlalchemy import select

from engine import (
    Action,
    ActionTaken,
    BetOrRaiseTo,
    BoardDealt,
    BringIn,
    Card,
    CardsDrawn,
    CardsRevealed,
    CardsShown,
    CheckOrCall,
    Deck,
    DeckSpec,
    Draw,
    EngineError,
    Event,
    Fold,
    Hand,
    HistoryError,
    HoleCardsDealt,
    RabbitHunted,
    RunItTwice,
    RunItTwiceAnswered,
    UnsupportedHistoryError,
    UpCardsDealt,
    history,
    parse_cards,
)
from engine.history import HandHistory
from server.export.phh import COMMITMENT_FIELD, HAND_FIELD, SEED_FIELD, TABLE_FIELD
from server.store import Store
from server.store.models import Hand as HandRecord

__all__ = [
    "SEED_BYTES",
    "HandIdentity",
    "SeedStream",
    "Shuffle",
    "UnverifiableError",
    "VerifyResult",
    "commitment",
    "deck_from_seed",
    "new_seed",
    "verify_history",
    "verify_stored",
]

SEED_BYTES = 32
IDENTITY_PREFIX = "pokerroom/v1/"

_HEX64 = re.compile(r"[0-9a-fA-F]{64}")
_HOLD_EM_PLAYERS = range(2, 11)
_BOARD_CARDS = 5

Problem = Literal["commitment", "card", "record"]


class UnverifiableError(HistoryError):
    """A hand that cannot be checked: no seed or commitment, no table or hand number, a
    malformed field or dealing action, or a game other than no-limit hold'em."""


def new_seed() -> bytes:
    """A fresh secret seed for one hand: 32 bytes from the operating system's CSPRNG."""
    return secrets.token_bytes(SEED_BYTES)


def _check_seed(seed: bytes) -> None:
    if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
        raise ValueError(f"a seed is {SEED_BYTES} bytes, got {seed!r}")


@dataclass(frozen=True, slots=True)
class HandIdentity:
    """Which hand a seed belongs to: the table's name and the hand's number on it. Both go
    into the commitment and the deck, so a seed cannot be reused for another hand."""

    table: str
    hand_number: int

    def __post_init__(self) -> None:
        if not isinstance(self.table, str):
            raise ValueError(f"a table name is a str, got {self.table!r}")
        number = self.hand_number
        if not isinstance(number, int) or isinstance(number, bool) or number < 0:
            raise ValueError(f"a hand number is an int >= 0, got {number!r}")

    def to_bytes(self) -> bytes:
        """``pokerroom/v1/{table}/{hand_number}`` in UTF-8, the number in decimal."""
        return f"{IDENTITY_PREFIX}{self.table}/{self.hand_number}".encode()

    def __str__(self) -> str:
        return self.to_bytes().decode()


def commitment(seed: bytes, identity: HandIdentity) -> str:
    """The published commitment: lowercase hex SHA-256 of identity, ``\\n``, seed."""
    _check_seed(seed)
    return hashlib.sha256(identity.to_bytes() + b"\n" + seed).hexdigest()


class SeedStream:
    """The deterministic generator a hand's deck is shuffled with.

    Its bytes are SHA-256 in counter mode: block ``i`` (from 0) is
    ``SHA-256(seed || identity || i as 8 bytes big-endian)``, and the stream is block 0,
    block 1, ... ``getrandbits(k)`` takes the next ``ceil(k / 8)`` bytes as a big-endian
    integer and keeps its low ``k`` bits; ``getrandbits(0)`` is 0 and takes nothing.
    """

    __slots__ = ("_block", "_counter", "_prefix", "_used")

    def __init__(self, seed: bytes, identity: HandIdentity) -> None:
        _check_seed(seed)
        self._prefix = seed + identity.to_bytes()
        self._counter = 0
        self._block = b""
        self._used = 0

    def _next_block(self) -> None:
        data = self._prefix + self._counter.to_bytes(8, "big")
        self._block = hashlib.sha256(data).digest()
        self._counter += 1
        self._used = 0

    def read(self, n: int) -> bytes:
        """The next ``n`` bytes of the stream."""
        out = b""
        while len(out) < n:
            if self._used == len(self._block):
                self._next_block()
            take = self._block[self._used : self._used + n - len(out)]
            self._used += len(take)
            out += take
        return out

    def getrandbits(self, k: int) -> int:
        """An int of ``k`` random bits, as :meth:`random.Random.getrandbits` gives."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if 0 < k <= 8:  # the shuffle's only case (k is 1..6): one byte, kept fast
            if self._used == len(self._block):
                self._next_block()
            byte = self._block[self._used]
            self._used += 1
            return byte & ((1 << k) - 1)
        return int.from_bytes(self.read((k + 7) // 8), "big") & ((1 << k) - 1)


def deck_from_seed(seed: bytes, identity: HandIdentity, spec: DeckSpec | None = None) -> Deck:
    """The hand's deck: :meth:`engine.Deck.shuffled` driven by a :class:`SeedStream`, of
    the game's cards (``spec``: the 52 by default)."""
    # Deck.shuffled calls nothing but rng.getrandbits (engine/deck.py); tests pin the
    # deck to the algorithm docs/fairness.md spells out.
    rng = cast(random.Random, SeedStream(seed, identity))
    return Deck.shuffled(rng) if spec is None else Deck.shuffled(rng, spec)


@dataclass(frozen=True)
class Shuffle:
    """One hand's seed and what follows from it, from the moment the server draws the
    seed until the hand is stored. ``repr`` leaves the seed out: it is secret until the
    hand ends."""

    identity: HandIdentity
    seed: bytes = field(repr=False)

    def __post_init__(self) -> None:
        _check_seed(self.seed)

    @classmethod
    def new(cls, table: str, hand_number: int) -> Shuffle:
        """A fresh secret seed for hand ``hand_number`` of ``table``. For an
        :class:`engine.Table` about to start a hand, that is ``table.hand_number + 1``."""
        return cls(HandIdentity(table, hand_number), new_seed())

    @property
    def commitment(self) -> str:
        """What to publish when the hand starts."""
        return commitment(self.seed, self.identity)

    def deck(self, spec: DeckSpec | None = None) -> Deck:
        """The hand's deck, of the game's cards (``spec``: the 52 by default)."""
        return deck_from_seed(self.seed, self.identity, spec)

    def phh_fields(self) -> dict[str, str | int]:
        """The fields to add to the hand's PHH history when it ends (seed included)."""
        return {
            TABLE_FIELD: self.identity.table,
            HAND_FIELD: self.identity.hand_number,
            COMMITMENT_FIELD: self.commitment,
            SEED_FIELD: self.seed.hex(),
        }


# -- verifying -----------------------------------------------------------------------------


@dataclass(frozen=True)
class VerifyResult:
    """What checking one hand found: ``ok``, or the first problem and where it is."""

    ok: bool
    message: str
    identity: HandIdentity
    commitment: str
    """SHA-256 of the identity and the stored seed (lowercase hex)."""
    cards_checked: int
    """Dealt and shown cards compared with the deck (unknown ``??`` cards are skipped)."""
    problem: Problem | None = None
    """``commitment`` (the seed does not match it), ``card`` (a card is not the deck's)
    or ``record`` (the stored columns disagree with the history)."""
    action: int | None = None
    """The PHH action (numbered from 1) holding the first wrong card."""
    deck_position: int | None = None
    """Where in the deck (numbered from 0) that card should have come from."""
    expected: str | None = None
    """What the seed says: the commitment, or the deck's card(s)."""
    found: str | None = None
    """What the record says instead."""

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "message": self.message,
            "table": self.identity.table,
            "hand": self.identity.hand_number,
            "identity": str(self.identity),
            "commitment": self.commitment,
            "cards_checked": self.cards_checked,
            "problem": self.problem,
            "action": self.action,
            "deck_position": self.deck_position,
            "expected": self.expected,
            "found": self.found,
        }


def _hex_field(hh: HandHistory, name: str, what: str) -> str:
    if name not in hh.fields:
        raise UnverifiableError(f"no {name} field: the history does not record the {what}")
    value = hh.fields[name]
    if not isinstance(value, str) or not _HEX64.fullmatch(value):
        raise UnverifiableError(f"{name} must be 64 hex digits, got {value!r}")
    return value.lower()


def _identity(hh: HandHistory) -> HandIdentity:
    for name in (TABLE_FIELD, HAND_FIELD):
        if name not in hh.fields:
            raise UnverifiableError(
                f"no {name} field: the hand's identity is its table and hand number"
            )
    table, number = hh.fields[TABLE_FIELD], hh.fields[HAND_FIELD]
    if isinstance(table, bool) or not isinstance(table, str | int):
        raise UnverifiableError(f"{TABLE_FIELD} must be a name, got {table!r}")
    if isinstance(number, bool) or not isinstance(number, int) or number < 0:
        raise UnverifiableError(f"{HAND_FIELD} must be an int >= 0, got {number!r}")
    return HandIdentity(str(table), number)


def _dealt(text: str, line: int) -> list[Card | None]:
    """The cards of a dealing or showing action, None for each unknown ``??``."""
    if len(text) % 2:
        raise UnverifiableError(f"action {line}: {text!r} is not a run of two-letter cards")
    cards: list[Card | None] = []
    for i in range(0, len(text), 2):
        token = text[i : i + 2]
        try:
            cards.append(None if token == "??" else parse_cards(token)[0])
        except EngineError as exc:
            raise UnverifiableError(f"action {line}: {exc}") from None
    return cards


def _player(word: str, n: int, line: int) -> int:
    if not (word.startswith("p") and word[1:].isdigit() and 1 <= int(word[1:]) <= n):
        raise UnverifiableError(f"action {line}: {word!r} is not a player p1..p{n}")
    return int(word[1:]) - 1


def verify_history(hh: HandHistory) -> VerifyResult:
    """Check a finished hand's shuffle: the revealed seed (``_seed``) hashes, with the
    hand's identity (``table``, ``hand``), to its commitment (``_deck_commitment``), and
    every dealt or shown card is the card the seed's deck has there.

    In no-limit hold'em the deck deals one hole card to each of p1..pN, then a second,
    then the board, so pK's hole cards are ``deck[K-1]`` and ``deck[N+K-1]`` and board
    card B (from 1) is ``deck[2N+B-1]``. Every other game, and a hand of two boards or run
    twice (the second board's cards follow the first's, docs/rules.md O4, O5), is
    checked by dealing the seed's deck (of the game's cards) to the same actions through
    the engine: each card dealt, drawn or shown must be the one the history records
    (:func:`_replayed`).
    Raises :class:`UnverifiableError` if the hand cannot be checked.
    """
    try:
        game = hh.game
    except UnsupportedHistoryError as exc:
        raise UnverifiableError(str(exc)) from None
    n = len(hh.starting_stacks)
    if not 2 <= n <= game.max_players:
        raise UnverifiableError(f"{n} players; a hand of {game.name} has 2 to {game.max_players}")
    seed = bytes.fromhex(_hex_field(hh, SEED_FIELD, "revealed seed"))
    recorded = _hex_field(hh, COMMITMENT_FIELD, "deck commitment")
    identity = _identity(hh)
    computed = commitment(seed, identity)
    if computed != recorded:
        return VerifyResult(
            ok=False,
            message=(
                f"commitment mismatch: SHA-256 of {str(identity)!r}, a newline and the seed "
                f"is {computed}, but the hand's commitment is {recorded}"
            ),
            identity=identity,
            commitment=computed,
            cards_checked=0,
            problem="commitment",
            expected=computed,
            found=recorded,
        )
    if hh.variant != "NT" or _boards(hh) > 1:
        # Other games, and a hand of two boards: deal the seed's deck to the same actions.
        return _replayed(hh, identity, computed, deck_from_seed(seed, identity, game.deck))
    check = _DeckCheck(identity, computed, deck_from_seed(seed, identity).cards, n)
    for line, action in enumerate(hh.actions, start=1):
        wrong = check.action(line, action)
        if wrong is not None:
            return wrong
    return VerifyResult(
        ok=True,
        message=(
            f"verified: the seed matches commitment {computed} for {str(identity)!r}, "
            f"and all {check.checked} dealt and shown cards are its deck's"
        ),
        identity=identity,
        commitment=computed,
        cards_checked=check.checked,
    )


CardEvent = (
    HoleCardsDealt | UpCardsDealt | BoardDealt | CardsDrawn | CardsShown | CardsRevealed
    | RabbitHunted
)  # fmt: skip
_CARD_EVENTS = (
    HoleCardsDealt, UpCardsDealt, BoardDealt, CardsDrawn, CardsShown, CardsRevealed, RabbitHunted
)  # fmt: skip


def _cards_of(event: CardEvent) -> tuple[Card, ...] | None:
    return event.drawn if isinstance(event, CardsDrawn) else event.cards


def _what(event: CardEvent) -> str:
    """What a card event deals, by PHH's player numbers: ``p2's up cards``, ``the board``."""
    if isinstance(event, BoardDealt):
        return f"the board of the {event.street}"
    if isinstance(event, RabbitHunted):
        return "the rabbit's cards"
    words = {HoleCardsDealt: "down cards", UpCardsDealt: "up cards", CardsDrawn: "draw",
             CardsShown: "shown hand", CardsRevealed: "cards shown after the hand"}  # fmt: skip
    return f"p{event.seat + 1}'s {words[type(event)]}"


def _boards(hh: HandHistory) -> int:
    """2 for a hand of two boards (O4) or one that may have been run twice (O5); or with
    cards shown after it or the rabbit's (O7, O8): those are checked by dealing too."""
    fields = {history.BOARDS_FIELD, history.RUN_IT_TWICE_FIELD, history.AFTER_FIELD}
    return 2 if fields & hh.fields.keys() else 1


def _action_of(event: Event) -> Action | None:
    """The action that caused ``event``, for dealing the same hand again."""
    if isinstance(event, RunItTwiceAnswered):
        return RunItTwice(event.seat, event.agree)
    if isinstance(event, CardsDrawn):
        return Draw(event.seat, event.discarded or ())
    if not isinstance(event, ActionTaken):
        return None
    match event.kind:
        case "fold":
            return Fold(event.seat)
        case "check" | "call":
            return CheckOrCall(event.seat)
        case "bring_in":
            return BringIn(event.seat)
        case _:
            return BetOrRaiseTo(event.seat, event.street_total)


def _again(hand: Hand, event: Event) -> list[Event]:
    """What ``event``'s cause does to ``hand`` dealt from the seed: the same action, the
    same cards shown after the hand (O8), the rabbit hunted (O7)."""
    if isinstance(event, CardsRevealed):
        return hand.show(event.seat, event.cards)
    if isinstance(event, RabbitHunted):
        return hand.hunt_rabbit()
    action = _action_of(event)
    return hand.apply(action) if action is not None else []


def _replayed(hh: HandHistory, identity: HandIdentity, computed: str, deck: Deck) -> VerifyResult:
    """Deal ``deck`` to the hand's own actions through the engine, and compare every card
    dealt, drawn and shown with the history's, in order (players whose cards the history
    does not know are skipped)."""
    try:
        played = history.replay(hh)
    except EngineError as exc:
        raise UnverifiableError(f"the history does not replay: {exc}") from None
    again = Hand(played.hand.setup, deck)
    pending: deque[CardEvent] = deque(e for e in again.start() if isinstance(e, _CARD_EVENTS))
    checked = 0
    for event in played.events:
        try:  # first: a draw deals the cards its own event shows
            pending += (e for e in _again(again, event) if isinstance(e, _CARD_EVENTS))
        except EngineError as exc:
            raise UnverifiableError(f"the seed's deck cannot play the history: {exc}") from None
        if isinstance(event, _CARD_EVENTS):
            theirs = _cards_of(pending.popleft()) if pending else None
            ours = _cards_of(event)
            known = isinstance(event, BoardDealt | RabbitHunted) or played.known[event.seat]
            if ours is not None and known and ours != theirs:
                found, expected = " ".join(map(str, ours)), " ".join(map(str, theirs or ()))
                return VerifyResult(
                    ok=False,
                    message=f"{_what(event)}: the history has {found}, but the seed's deck "
                    f"deals {expected or 'nothing there'}",
                    identity=identity, commitment=computed, cards_checked=checked,
                    problem="card", expected=expected, found=found,
                )  # fmt: skip
            checked += len(ours or ()) if known else 0
    return VerifyResult(
        ok=True,
        message=(
            f"verified: the seed matches commitment {computed} for {str(identity)!r}, and "
            f"all {checked} dealt, drawn and shown cards are its deck's "
            f"({played.hand.game.name})"
        ),
        identity=identity,
        commitment=computed,
        cards_checked=checked,
    )


class _DeckCheck:
    """The dealing and showing actions of a hand, compared one by one with the seed's
    deck (:func:`verify_history`): the first wrong card found, and how many were right."""

    def __init__(self, identity: HandIdentity, computed: str, deck: Sequence[Card], n: int) -> None:
        self.identity = identity
        self.computed = computed
        self.deck = deck
        self.n = n
        self.checked = 0
        self.board = 0

    def action(self, line: int, action: str) -> VerifyResult | None:
        """Check PHH action ``line`` (from 1): the wrong card it holds, if any."""
        words = action.split("#", 1)[0].split()
        match words:
            case ["d", "dh", who, text]:
                return self._hole_cards(line, action, who, text)
            case ["d", "db", text]:
                return self._board(line, action, text)
            case [who, "sm", text] if who != "d":
                return self._shown(line, action, who, text)
            case _:
                return None

    def _hole_cards(self, line: int, action: str, who: str, text: str) -> VerifyResult | None:
        p = _player(who, self.n, line)
        hole = _dealt(text, line)
        if len(hole) != 2:
            raise UnverifiableError(f"action {line}: {len(hole)} hole cards, not 2")
        for k, card in enumerate(hole):
            position = k * self.n + p
            if card is None:
                continue
            if card != self.deck[position]:
                which = "first" if k == 0 else "second"
                return self._wrong(line, action, f"{who}'s {which} hole card", card, position)
            self.checked += 1
        return None

    def _board(self, line: int, action: str, text: str) -> VerifyResult | None:
        for card in _dealt(text, line):
            if card is None:
                raise UnverifiableError(f"action {line}: unknown board cards")
            self.board += 1
            position = 2 * self.n + self.board - 1
            if self.board > _BOARD_CARDS:
                raise UnverifiableError(f"action {line}: more than 5 board cards")
            if card != self.deck[position]:
                return self._wrong(line, action, f"board card {self.board}", card, position)
            self.checked += 1
        return None

    def _shown(self, line: int, action: str, who: str, text: str) -> VerifyResult | None:
        p, n = _player(who, self.n, line), self.n
        dealt = (self.deck[p], self.deck[n + p])
        for card in _dealt(text, line):
            if card is None:
                continue
            if card not in dealt:
                message = (
                    f"action {line} ({action!r}): {who} shows {card}, but the seed's deck "
                    f"dealt {who} {dealt[0]} {dealt[1]} (deck[{p}] and deck[{n + p}])"
                )
                return self._wrong_card(line, message, f"{dealt[0]}{dealt[1]}", card)
            self.checked += 1
        return None

    def _wrong(self, line: int, action: str, where: str, card: Card, position: int) -> VerifyResult:
        expected = self.deck[position]
        message = (
            f"action {line} ({action!r}): {where} is {card}, but the "
            f"seed's deck has {expected} there (deck[{position}])"
        )
        return self._wrong_card(line, message, str(expected), card, position)

    def _wrong_card(
        self, line: int, message: str, expected: str, card: Card, position: int | None = None
    ) -> VerifyResult:
        return VerifyResult(
            ok=False,
            message=message,
            identity=self.identity,
            commitment=self.computed,
            cards_checked=self.checked,
            problem="card",
            action=line,
            deck_position=position,
            expected=expected,
            found=str(card),
        )


async def verify_stored(store: Store, hand_id: int) -> VerifyResult:
    """Check a stored hand (:func:`verify_history` on its history).

    The history's own fields come first. A history without them (a hand stored before
    they were added) borrows the ``seed`` and ``deck_commitment`` columns, the table's
    name and the hand number; where both have a seed or commitment they must agree.
    Raises :class:`server.store.StoreError` for an unknown hand.
    """
    info = await store.hand_info(hand_id)
    async with store.engine.connect() as conn:
        row = (
            await conn.execute(
                select(HandRecord.seed, HandRecord.deck_commitment, HandRecord.hand_number)
                .where(HandRecord.id == hand_id)
            )
        ).one()  # fmt: skip
    fields = dict(info.history.fields)
    conflicts = []
    for name, column, value in (
        (SEED_FIELD, "seed", row.seed),
        (COMMITMENT_FIELD, "deck_commitment", row.deck_commitment),
    ):
        if value is None:
            continue
        if name not in fields:
            fields[name] = value
        elif str(fields[name]).lower() != value.lower():
            conflicts.append((name, column, str(fields[name]), value))
    fields.setdefault(TABLE_FIELD, info.table_name)
    fields.setdefault(HAND_FIELD, row.hand_number)
    try:
        result = verify_history(replace(info.history, fields=fields))
    except UnverifiableError as exc:
        raise UnverifiableError(f"hand {hand_id}: {exc}") from None
    if conflicts:
        name, column, in_history, in_column = conflicts[0]
        return replace(
            result,
            ok=False,
            message=(
                f"the stored record disagrees with itself: the history's {name} is "
                f"{in_history}, the {column} column {in_column}"
            ),
            problem="record",
            action=None,
            deck_position=None,
            expected=in_column,
            found=in_history,
        )
    return result


# -- pokerroom verify ----------------------------------------------------------------------
