"""The wire protocol: JSON messages over a websocket, version 1 (docs/protocol.md).

Client messages are validated here into typed models (unknown types and fields are
errors); server messages are built here from engine values. Every amount is an int and
its field name says what it is: ``increment``, ``street_total`` or ``hand_total``
(docs/engine.md).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import functools
import json
import re
import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any, Literal

import orjson
from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
)

from engine import (
    GAMES,
    MIXES,
    TABLE_OPTIONS,
    ActionMenu,
    Card,
    Event,
    Game,
    Mix,
    PublicState,
    SeatView,
    TableConfig,
    TableView,
    dealers_choice,
)
from server.errors import Code, Refusal
from server.export.formats import FORMATS
from server.settle import LedgerError, read_ledger, settle
from server.stats.service import MAX_HANDS

if TYPE_CHECKING:  # annotations only: the protocol needs no database
    from server.export.seat import SeenHand
    from server.store import HandSummary, StoredHand
    from server.store.ledger import Session as LedgerSession

VERSION = 1
NAME = Annotated[str, Field(pattern=r"^[A-Za-z0-9_.-]{1,32}$")]
TABLE_ID = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,40}$")]
CHIPS = Annotated[int, Field(ge=0, le=10**15)]
HAND_ID = Annotated[int, Field(ge=1, le=2**63 - 1)]  # the database's 64-bit ids
SEQ = Annotated[int, Field(ge=0, le=2**53 - 1)]  # the largest integer JSON carries exactly
INVITE = Annotated[str, Field(min_length=16, max_length=64)]
MOMENT = Annotated[AwareDatetime, Field(strict=False)]
"""A time as ISO 8601 text with its zone (``2026-11-26T20:00:00+00:00``)."""
GAME = Annotated[str, Field(min_length=1, max_length=40)] | dict[str, Any]


def _export_format(name: str) -> str:
    if name not in FORMATS:
        raise ValueError(f"must be one of {', '.join(map(repr, FORMATS))}, not {name!r}")
    return name


EXPORT_FORMAT = Annotated[
    str, AfterValidator(_export_format), Field(json_schema_extra={"enum": list(FORMATS)})
]
"""An export format's name (:data:`server.export.formats.FORMATS`)."""


def visible_text(text: str) -> str:
    """``text`` without control and format characters, its runs of space one space: what
    people may put where others read it (chat lines, table and tournament names). Format
    characters are invisible and some rearrange what follows them: a right-to-left
    override (U+202E) reverses the rest of the sentence a name is shown in, an isolate or
    a mark moves it; line breaks and tabs become spaces. The zero-width joiner stays: it
    joins the parts of an emoji (a family, a flag) and moves nothing."""
    kept = "".join(
        " " if c.isspace() else c
        for c in text
        if unicodedata.category(c)[0] != "C" or c.isspace() or c == "\u200d"
    )
    return " ".join(kept.split())


def _visible_name(name: str) -> str:
    shown = visible_text(name)
    if not shown:
        raise ValueError("a name needs a visible character")
    return shown


SHOWN_NAME = Annotated[str, Field(min_length=1, max_length=64), AfterValidator(_visible_name)]
"""A name people choose for others to read (a table's, a tournament's): :func:`visible_text`
of it (player and account names are :data:`NAME`, plain letters and digits)."""
"""A game: a preset's key or PHH code (``"plo8"``, ``"F7S"``), or a definition object
(``engine.Game.to_dict``); the engine checks it."""


class ProtocolError(Refusal):
    """A message that is not valid protocol; ``code`` goes to the client, with ``re``
    when the message's ``id`` could be read."""

    def __init__(self, code: Code, message: str, re_: str | None = None) -> None:
        super().__init__(code, message)
        self.re = re_


class ClientMessageBase(BaseModel):
    """What every client message has: an optional ``id`` its reply carries back."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)  # "100" is no int
    id: Annotated[str, Field(max_length=64)] | None = None
    """Any string; the reply carries it back as ``re``."""


class Hello(ClientMessageBase):
    """Who you are: a guest ``name``, an account ``token``, or, to reconnect, the
    ``session`` token an earlier ``welcome`` gave you or the ``seat_token`` of a seat you
    hold. Exactly one of the four."""

    type: Literal["hello"]
    version: int = VERSION
    name: NAME | None = None
    token: Annotated[str, Field(min_length=16, max_length=128)] | None = None
    session: Annotated[str, Field(min_length=16, max_length=128)] | None = None
    seat_token: Annotated[str, Field(min_length=16, max_length=128)] | None = None
    """The ``seat_token`` a ``seated`` gave you: you again, the player of that seat (to
    come back after a reload without logging in, then ``resume``)."""
    bot: bool = False
    """This connection is a program: wherever it sits, everyone sees it marked as a bot."""


class CreateAccount(ClientMessageBase):
    """Create an account; the reply holds its token, shown once."""

    type: Literal["create_account"]
    name: NAME


class ListTables(ClientMessageBase):
    type: Literal["list_tables"]


class CreateTable(ClientMessageBase):
    """A new table; amounts in chips, times in seconds."""

    type: Literal["create_table"]
    name: SHOWN_NAME
    game: GAME = "nlhe"
    small_blind: CHIPS = 0
    big_blind: Annotated[int, Field(ge=0, le=10**12)] = 0
    bring_in: CHIPS = 0
    small_bet: CHIPS = 0
    big_bet: CHIPS = 0
    cap: Annotated[int, Field(ge=1, le=255)] | None = None
    """Fixed limit: bets and raises a betting round allows (default: the game's)."""
    mix: Literal["horse", "8game", "choice"] | None = None
    """A mixed game instead of ``game``: HORSE, 8-game, or dealer's choice of ``games``;
    ``small_bet`` and ``big_bet`` are then its level, and each game plays at it."""
    games: Annotated[list[Annotated[str, Field(min_length=1, max_length=40)]],
                     Field(min_length=2, max_length=20)] | None = None  # fmt: skip
    """Dealer's choice: the games the button picks from."""
    every: Annotated[int, Field(ge=1, le=1000)] | Literal["orbit"] | None = None
    """A mixed game changes game every this many hands, or every ``"orbit"`` (default:
    the mix's own, 8 hands in HORSE, 6 in 8-game, each hand in dealer's choice)."""
    seats: Annotated[int, Field(ge=2, le=10)] = 6
    ante: CHIPS = 0
    ante_kind: Literal["none", "per_player", "big_blind"] = "none"
    min_buy_in: CHIPS = 0
    max_buy_in: CHIPS = 0
    button_rule: Literal["moving", "dead"] = "moving"
    decision_seconds: Annotated[float, Field(gt=0, le=3600)] = 30.0
    time_bank_seconds: Annotated[float, Field(ge=0, le=3600)] = 60.0
    private: bool = False
    """A home game: left out of the lobby, reached by its invite, run by its creator (the
    host): seats by the host's approval (docs/home-games.md)."""
    button_straddle: bool = False
    """The button may straddle when the player under the gun does not (docs/rules.md O2).
    Players opt in to straddling with ``straddle``, in any game that has straddles."""
    bomb_pot: CHIPS = 0
    """Each player's ante in a bomb pot (O3); 0: no bomb pots. One is dealt every
    ``bomb_pot_every`` hands, when most players vote for one (``bomb_pot``), or when
    the host calls one."""
    bomb_pot_every: Annotated[int, Field(ge=0, le=1000)] = 0
    bomb_pot_boards: Literal[1, 2] = 1
    """2: double-board bomb pots, half the pot each board (O4)."""
    run_it_twice: bool = False
    """All in before the river, the players may agree to run the board twice (O5)."""
    seven_deuce: CHIPS = 0
    """The 7-2 bounty each player dealt in pays whoever wins a hand with 7-2 and shows
    it (O6); 0: none."""
    show_seconds: Annotated[float, Field(ge=0, le=30)] | None = None
    """How long the table waits after each hand, for players to show their cards and
    anyone to ask for the rabbit (``show``, ``rabbit``). Default: 4 at a private table,
    0 at a public one."""


class Sit(ClientMessageBase):
    """Take ``seat`` (or any free seat) with ``buy_in`` chips; if the table is full, join
    its waiting list."""

    type: Literal["sit"]
    table: TABLE_ID
    seat: Annotated[int, Field(ge=0, le=9)] | None = None
    buy_in: CHIPS
    wait_for_big_blind: bool = True


class Spectate(ClientMessageBase):
    """Watch a table, optionally behind by ``delay_hands`` hands or ``delay_seconds``."""

    type: Literal["spectate"]
    table: TABLE_ID
    delay_hands: Annotated[int, Field(ge=0, le=100)] = 0
    delay_seconds: Annotated[float, Field(ge=0, le=3600)] = 0.0
    invite: INVITE | None = None
    """A private table's invite (anyone else but its host and players is refused)."""


class RequestSeat(ClientMessageBase):
    """A private table: ask its host for ``seat`` (or any free one) with ``buy_in``."""

    type: Literal["request_seat"]
    table: TABLE_ID
    invite: INVITE
    buy_in: CHIPS
    seat: Annotated[int, Field(ge=0, le=9)] | None = None


class Host(ClientMessageBase):
    """A private table's host's control: ``action`` and the fields it takes (``player``
    for approve, reject, chips, away, remove, transfer; ``amount`` for chips; the blinds
    for blinds; ``seat`` and ``strategy`` for house_bot, ``seat`` for remove_bot)."""

    type: Literal["host"]
    table: TABLE_ID
    action: Literal[
        "approve", "reject", "chips", "pause", "resume", "blinds", "away", "remove",
        "transfer", "close", "house_bot", "remove_bot", "mute", "unmute",
        "spectator_chat", "bomb_pot",
    ]  # fmt: skip
    player: NAME | None = None
    amount: Annotated[int, Field(ge=-(10**15), le=10**15)] | None = None
    """chips: added to the player's stack (taken away if below 0) before the next hand."""
    small_blind: CHIPS | None = None
    big_blind: Annotated[int, Field(ge=0, le=10**12)] | None = None
    ante: CHIPS | None = None
    seat: Annotated[int, Field(ge=0, le=9)] | None = None
    strategy: Annotated[str, Field(min_length=1, max_length=40)] | None = None
    on: bool | None = None
    """spectator_chat: whether spectators may chat."""
    boards: Literal[1, 2] | None = None
    """bomb_pot: its boards (default: the table's)."""


class Straddle(ClientMessageBase):
    """Straddle (``on``) or stop straddling, from the next hand: whenever you are under
    the gun (or on the button, where the table allows it) you post twice the big blind
    and act last before the flop (docs/rules.md O1, O2)."""

    type: Literal["straddle"]
    table: TABLE_ID
    on: bool = True


class BombPot(ClientMessageBase):
    """Vote for a bomb pot next hand (``on``), or take the vote back: when more than
    half of the players seated vote, the next hand is one (docs/rules.md O3)."""

    type: Literal["bomb_pot"]
    table: TABLE_ID
    on: bool = True


class Show(ClientMessageBase):
    """After a hand, before the next: show some or all of your hole cards (O8)."""

    type: Literal["show"]
    table: TABLE_ID
    cards: Annotated[list[Annotated[str, Field(max_length=4)]], Field(min_length=1, max_length=7)]


class Rabbit(ClientMessageBase):
    """After a hand that ended before the river: the board that would have come (O7)."""

    type: Literal["rabbit"]
    table: TABLE_ID


CHAT_LENGTH = 200
REACTIONS = ("👍", "👏", "😂", "😮", "😢", "😡", "🔥", "🤝")


class Chat(ClientMessageBase):
    """Say something to everyone at the table (at most 200 characters)."""

    type: Literal["chat"]
    table: TABLE_ID
    text: Annotated[str, Field(min_length=1, max_length=CHAT_LENGTH)]


class React(ClientMessageBase):
    """An emoji reaction, seen by everyone at the table: one of :data:`REACTIONS`."""

    type: Literal["react"]
    table: TABLE_ID
    emoji: Literal["👍", "👏", "😂", "😮", "😢", "😡", "🔥", "🤝"]


class Ledger(ClientMessageBase):
    """A table's ledger (each player's sessions, in PokerNow's columns) and who pays whom
    to settle up (docs/ledger.md)."""

    type: Literal["ledger"]
    table: TABLE_ID


class Export(ClientMessageBase):
    """The hands you played (or, at a table you watch, saw) at ``table`` since
    ``since`` (default: the last 24 hours) as one text file: PokerStars text, PHH or OHH."""

    type: Literal["export"]
    table: TABLE_ID
    format: EXPORT_FORMAT
    since: MOMENT | None = None


class Leave(ClientMessageBase):
    """Stand up (at the end of your hand) or stop watching."""

    type: Literal["leave"]
    table: TABLE_ID


class SitOut(ClientMessageBase):
    type: Literal["sit_out"]
    table: TABLE_ID


class SitIn(ClientMessageBase):
    """Come back; ``post`` pays missed blinds now instead of waiting for the big blind."""

    type: Literal["sit_in"]
    table: TABLE_ID
    post: bool = False


class Act(ClientMessageBase):
    """Your action. ``action_id`` is yours to choose: the same id again never acts twice.
    ``amount`` is the **street total** to bet or raise to (bet and raise only)."""

    type: Literal["act"]
    table: TABLE_ID
    action_id: Annotated[str, Field(min_length=1, max_length=64)]
    action: Literal[
        "fold", "check", "call", "bet", "raise", "complete", "bring_in", "draw", "run_it_twice"
    ]
    amount: CHIPS | None = None
    discard: Annotated[list[Annotated[str, Field(max_length=4)]], Field(max_length=10)] | None = (
        None
    )
    """``draw`` only: the cards (or dice faces) to throw away; ``[]`` stands pat."""
    agree: bool | None = None
    """``run_it_twice`` only: whether you agree to run the rest of the board twice."""
    seq: SEQ | None = None
    """The ``seq`` of the action request answered: an act for a decision that is over
    (the clock answered it, and it is your turn again) is refused with ``stale``."""


class ChooseGame(ClientMessageBase):
    """Dealer's choice: the next game, when the table's ``game_choice`` asks you."""

    type: Literal["choose_game"]
    table: TABLE_ID
    game: Annotated[str, Field(min_length=1, max_length=40)]


class Resume(ClientMessageBase):
    """After reconnecting: a fresh snapshot and every event after ``last_seq``."""

    type: Literal["resume"]
    table: TABLE_ID
    last_seq: SEQ
    invite: INVITE | None = None
    """A private table's invite, for a page that watched it through its link."""


class Hands(ClientMessageBase):
    """Your latest hands, newest first: ``limit`` of them, with ids below ``before`` (the
    last id of the page before) to page back."""

    type: Literal["hands"]
    limit: Annotated[int, Field(ge=1, le=100)] = 20
    before: HAND_ID | None = None


class Hand(ClientMessageBase):
    """One of your hands, to replay or download: ``hand_id`` as ``hands`` lists it."""

    type: Literal["hand"]
    hand_id: HAND_ID


class Stats(ClientMessageBase):
    """Player statistics (docs/statistics.md) over the newest ``last`` hands played here,
    of ``table`` and of ``game`` if given, in which one of ``players`` played (none named:
    anyone); the figures of ``players``, or of everyone in those hands."""

    type: Literal["stats"]
    players: Annotated[list[NAME], Field(max_length=10)] = []
    table: TABLE_ID | None = None
    game: Annotated[str, Field(min_length=1, max_length=40)] | None = None
    """A preset's key or PHH code (``nlhe``, ``plo8``, ``F7S``)."""
    last: Annotated[int, Field(ge=1, le=MAX_HANDS)] = 1_000
    since: MOMENT | None = None
    """Only hands begun at or after this time (with a time zone): "tonight"."""


class CreateTournament(ClientMessageBase):
    """A tournament between bots on this server (docs/tournaments.md): it starts when
    ``field`` players have registered, or ``start_seconds`` after it was created with two
    or more. Without a ``seed`` the server draws one (and shows it with the results)."""

    type: Literal["create_tournament"]
    name: SHOWN_NAME
    format: Literal["sng", "mtt", "round-robin", "ring"] = "sng"
    field: Annotated[int, Field(ge=2, le=1000)]
    start_seconds: Annotated[float, Field(gt=0, le=86400)] | None = None
    seed: Annotated[str, Field(min_length=1, max_length=64)] | None = None
    blinds: Literal["standard", "turbo", "hyper", "standard-timed", "turbo-timed"] = "turbo"
    payouts: Literal["winner-takes-all", "top-2", "top-3", "top-4", "top-6", "top-9"] = "top-3"
    stack: Annotated[int, Field(ge=1, le=10**12)] | None = None
    buy_in: Annotated[int, Field(ge=0, le=10**12)] = 100
    seats: Annotated[int, Field(ge=2, le=10)] = 9
    hands: Annotated[int, Field(ge=1, le=100_000)] = 1_000
    duplicate: bool = False
    game: Annotated[str, Field(min_length=1, max_length=32)] = "nlhe"
    """The game every hand plays: a preset's key (``stud``, ``plo8``)."""
    mix: Literal["horse", "8game"] | None = None
    """A mixed game instead of ``game``: each table rotates through its games."""
    decision_seconds: Annotated[float, Field(gt=0, le=600)] = 10.0


class ListTournaments(ClientMessageBase):
    type: Literal["list_tournaments"]


class Register(ClientMessageBase):
    """Enter a tournament (again, after reconnecting: its messages come here)."""

    type: Literal["register"]
    tournament: HAND_ID


class Unregister(ClientMessageBase):
    type: Literal["unregister"]
    tournament: HAND_ID


class Ping(ClientMessageBase):
    type: Literal["ping"]


ClientMessage = Annotated[
    Hello | CreateAccount | ListTables | CreateTable | Sit | Spectate | RequestSeat | Host
    | Straddle | BombPot | Show | Rabbit | Chat | React | Ledger | Export
    | Leave | SitOut | SitIn | Act | ChooseGame | Resume | Hands | Hand | Stats
    | CreateTournament | ListTournaments | Register | Unregister | Ping,
    Field(discriminator="type"),
]  # fmt: skip
_CLIENT = TypeAdapter(ClientMessage)


def parse(raw: str | bytes) -> Any:
    """A client message as its model; :class:`ProtocolError` naming the problem if not."""
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError(Code.BAD_JSON, "a message must be one JSON object") from None
    except RecursionError:
        raise ProtocolError(Code.BAD_JSON, "a message must not nest this deeply") from None
    if not isinstance(data, dict):
        raise ProtocolError(Code.BAD_MESSAGE, "a message must be a JSON object")
    ident = data.get("id")
    re_ = ident if isinstance(ident, str) and len(ident) <= 64 else None
    if "type" not in data:
        raise ProtocolError(Code.BAD_MESSAGE, "a message needs a 'type'", re_)
    try:
        return _CLIENT.validate_python(data)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(p) for p in error["loc"] if p != data.get("type"))
        if error["type"] == "union_tag_invalid":
            message = f"unknown message type {data['type']!r}"
            raise ProtocolError(Code.UNKNOWN_TYPE, message, re_) from None
        said = error["msg"].removeprefix("Value error, ")  # a validator of ours: its words
        message = f"{data.get('type')}: {where}: {said}"
        raise ProtocolError(Code.BAD_MESSAGE, message, re_) from None


def client_schema() -> dict[str, Any]:
    """JSON Schema of every client message (docs/protocol.schema.json)."""
    return _CLIENT.json_schema()


# -- server messages -------------------------------------------------------------------------

_SNAKE = re.compile(r"(?<!^)(?=[A-Z])")


def _wire(value: Any) -> Any:
    if value is None or type(value) in _PLAIN:
        return value
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.name.lower() if isinstance(value, enum.IntEnum) else value.value
    if isinstance(value, tuple | list):
        return [_wire(v) for v in value]
    return value


_PLAIN = frozenset({int, str, bool, float})


_SHAPES: dict[type, tuple[str, tuple[str, ...]]] = {}
"""By event class: its wire name and its field names (worked out once per class)."""


def event_message(
    table: str, seq: int, hand_number: int, event: Event, state: dict[str, Any] | None = None
) -> str:
    """An ``event`` message; the last of a batch carries ``state``, the table's public
    state after it (:func:`state_body`)."""
    message = {"type": "event", "table": table, "seq": seq, "hand_number": hand_number,
               "event": event_body(event)}  # fmt: skip
    if state is not None:
        message["state"] = state
    return dumps(message)


def state_body(state: PublicState) -> dict[str, Any]:
    """What a table is after a batch of events, as everyone may know it
    (:class:`engine.PublicState`), so that no client re-derives the rules: whose turn it
    is (a bet or a draw), the pots (main then side pots, of the streets before this one,
    as the engine builds them: chips bet this street are each seat's ``street_total``)
    and the bet to match this street."""
    return {
        "hand_in_progress": state.hand_in_progress,
        "street": _wire(state.street) if state.street is not None else None,
        "to_act": state.to_act,
        "pots": list(state.pots),
        "current_bet": state.current_bet,
    }


def event_body(event: Event) -> dict[str, Any]:
    """An engine event as JSON: ``{"type": "action_taken", ...its fields}``."""
    kind = type(event)
    if kind not in _SHAPES:
        fields = tuple(f.name for f in dataclasses.fields(event))
        _SHAPES[kind] = (_SNAKE.sub("_", kind.__name__).lower(), fields)
    name, fields = _SHAPES[kind]
    body: dict[str, Any] = {"type": name}
    for field_name in fields:
        body[field_name] = _wire(getattr(event, field_name))
    return body


def menu_body(menu: ActionMenu) -> dict[str, Any]:
    """The legal menu: ``call`` and ``bring_in`` are increments; raise bounds are street
    totals; ``max_discard`` is -1 unless a draw is due."""
    return {
        "can_fold": menu.can_fold,
        "can_check": menu.can_check,
        "can_call": menu.can_call,
        "call": menu.call,
        "call_is_all_in": menu.call_is_all_in,
        "can_raise": menu.can_raise,
        "raise_kind": "complete" if menu.completes else "bet" if menu.is_bet else "raise",
        "min_raise_to": menu.min_raise_to,
        "max_raise_to": menu.max_raise_to,
        "raise_is_all_in_only": menu.raise_is_all_in_only,
        "can_bring_in": menu.can_bring_in,
        "bring_in": menu.bring_in,
        "can_draw": menu.can_draw,
        "max_discard": menu.max_discard,
        "run_it_twice": menu.run_it_twice,
    }


def config_body(config: TableConfig) -> dict[str, Any]:
    """What a table's summary says of its rules: :meth:`TableConfig.to_dict`'s fields,
    the options under ``options`` (with ``straddle``: whether the game has straddles), and
    the betting and unit they imply. The bot SDK reads it back
    (:func:`server.bots.wire.config_from_summary`)."""
    wire = config.to_dict()
    return {
        **{k: v for k, v in wire.items() if k not in TABLE_OPTIONS},
        **_betting(config),
        "options": {"straddle": config.game.straddles, **{k: wire[k] for k in TABLE_OPTIONS}},
    }


def mix_body(mix: Mix) -> dict[str, Any]:
    """A mix as clients are told it: its key, name and games (keys), when the game
    changes (``change``: ``hands``, every ``hands`` hands, or ``orbit``) and whether the
    button picks the next game (dealer's choice)."""
    return {
        "key": mix.key, "name": mix.name, "games": [g.key for g in mix.games],
        "change": mix.change.value, "hands": mix.hands, "dealers_choice": mix.dealers_choice,
    }  # fmt: skip


def table_options(game: Game) -> list[str]:
    """The table options (docs/rules.md O1-O8) the engine lets a table of ``game`` have:
    ``straddle``, ``bomb_pot``, ``run_it_twice``, ``seven_deuce``."""
    rules = (("straddle", game.straddles), ("bomb_pot", game.bomb_pots),
             ("run_it_twice", game.runs_twice), ("seven_deuce", game.seven_deuce))  # fmt: skip
    return [name for name, allowed in rules if allowed]


@functools.cache
def catalogue_body() -> dict[str, Any]:
    """What ``welcome`` (and the page's ``/catalogue.json``) says a table may play and a
    player may download, so that no client keeps its own list: every preset game
    (:meth:`engine.Game.to_dict`, with its ``short_name``), every mix ``create_table``
    takes (dealer's choice with every game, of which a table picks its own) and every
    export format. Built once (callers only read it)."""
    choice = dealers_choice(GAMES)
    return {
        "games": [{**g.to_dict(), "short_name": g.short_name} for g in GAMES.values()],
        "mixes": [mix_body(m) for m in (*MIXES.values(), choice)],
        "table_options": {g.key: table_options(g) for g in GAMES.values()},
        "export_formats": [
            {"name": f.name, "label": f.label, "suffix": f.suffix, "media_type": f.media_type}
            for f in FORMATS.values()
        ],
    }


def game_body(config: TableConfig) -> dict[str, Any]:
    """What a table's summary says of its game: the definition and the stakes."""
    return {
        "game": config.game.to_dict(),
        "bring_in": config.bring_in,
        "small_bet": config.small_bet,
        "big_bet": config.big_bet,
        **_betting(config),
    }


def _betting(config: TableConfig) -> dict[str, Any]:
    """The betting a summary names, and its unit (what amounts are shown in)."""
    return {"betting": config.game.betting.value, "unit": config.unit}


def _seat_body(seat: SeatView, names: dict[int, str], bots: frozenset[int]) -> dict[str, Any]:
    return {
        "seat": seat.seat,
        "name": names.get(seat.seat, ""),
        "bot": seat.seat in bots,
        "stack": seat.stack,
        "in_hand": seat.in_hand,
        "folded": seat.folded,
        "all_in": seat.all_in,
        "street_total": seat.street_total,
        "hand_total": seat.hand_total,
        "sitting_out": seat.sitting_out,
        "waiting_for_big_blind": seat.waiting_for_big_blind,
        "has_cards": seat.has_cards,
        "cards": _wire(seat.cards) if seat.cards is not None else None,
        "up_cards": _wire(seat.up_cards),
        "straddle": seat.straddle,
        "shown_cards": _wire(seat.shown_cards),
    }


def view_body(
    view: TableView, names: dict[int, str], bots: frozenset[int] = frozenset()
) -> dict[str, Any]:
    """What one viewer may see of a table (built by the engine: no hidden card); the
    seats in ``bots`` are programs (house bots, and clients that said so)."""
    return {
        "hand_number": view.hand_number,
        "hand_in_progress": view.hand_in_progress,
        "street": _wire(view.street) if view.street is not None else None,
        "board": _wire(view.board),
        "pots": list(view.pots),
        "button": view.button,
        "to_act": view.to_act,
        "boards": [_wire(board) for board in view.boards],
        "seats": [_seat_body(s, names, bots) for s in view.seats],
        "viewer": view.viewer,
        "menu": menu_body(view.legal) if view.legal is not None else None,
    }


def _players_body(names: Sequence[str], seats: Sequence[int]) -> list[dict[str, Any]]:
    return [{"seat": seat, "name": name} for name, seat in zip(names, seats, strict=True)]


def _utc(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).isoformat()


def summary_body(hand: HandSummary) -> dict[str, Any]:
    """What every JSON summary of a stored hand begins with: an item of the reply to
    ``hands``, and one of ``pokerroom hands list --json`` (each adds its own board and
    players)."""
    return {
        "id": hand.id,
        "table": hand.table,
        "hand_number": hand.hand_number,
        "game": hand.game,
        "started_at": _utc(hand.started_at),
        "pot": hand.pot,
    }


def hands_body(hands: Sequence[HandSummary], player: str) -> dict[str, Any]:
    """The reply to ``hands``: each hand ``player`` played, with their seat and result
    (chips won or lost) in it; players in order from the first left of the button."""
    listed = []
    for hand in hands:
        names = [name for name, _ in hand.players]
        position = names.index(player)
        listed.append(
            {
                **summary_body(hand),
                "board": [hand.board[i : i + 2] for i in range(0, len(hand.board), 2)],
                "seat": hand.engine_seats[position],
                "net": hand.players[position][1],
                "players": _players_body(names, hand.engine_seats),
            }
        )
    return {"type": "hands", "hands": listed}


def hand_body(stored: StoredHand, seat: int, seen: SeenHand) -> dict[str, Any]:
    """The reply to ``hand``: the hand as the player at ``seat`` saw it (``seen``)."""
    info = stored.info
    return {
        "type": "hand",
        "hand_id": info.hand_id,
        "table": info.table_name,
        "hand_number": stored.hand_number,
        "started_at": _utc(info.started_at),
        "seat": seat,
        "players": _players_body(info.players, info.engine_seats),
        "game": info.history.game.to_dict(),
        "bring_in": info.history.bring_in,
        "small_bet": info.history.small_bet,
        "big_bet": info.history.big_bet,
        "small_blind": info.small_blind,
        "big_blind": stored.big_blind,
        "ante": stored.ante,
        "events": [event_body(event) for event in seen.events],
        "states": [None if s is None else state_body(s) for s in seen.states],
        "phh": seen.phh,
        "pokerstars": seen.pokerstars,
    }


def ledger_body(table: str, sessions: Sequence[LedgerSession]) -> dict[str, Any]:
    """The reply to ``ledger``: each session in PokerNow's columns, the same as a CSV
    file, each player's net and who pays whom (none, with an ``error``, for a ledger that
    does not balance)."""
    from server.store.ledger import CSV_COLUMNS, csv_text  # noqa: PLC0415

    text = csv_text(sessions)
    owed = read_ledger(text) if sessions else {}  # the CSV's rule: one name, one net
    body: dict[str, Any] = {
        "type": "ledger",
        "table": table,
        "sessions": [dict(zip(CSV_COLUMNS, s.csv_row(), strict=True)) for s in sessions],
        "csv": text,
        "nets": owed,
    }
    try:
        body["transfers"] = [t.to_json() for t in settle(owed)]
    except LedgerError as exc:
        body["transfers"], body["error"] = [], str(exc)
    return body


def dumps(message: dict[str, Any]) -> str:
    """A server message as compact JSON text (UTF-8 as is, not escaped)."""
    try:
        return orjson.dumps(message).decode()
    except orjson.JSONEncodeError:  # a lone surrogate a client sent: JSON has it, UTF-8 not
        return json.dumps(message, separators=(",", ":"))


def error(code: Code, message: str, re_: str | None = None, **extra: Any) -> str:
    """An error reply to one client."""
    body: dict[str, Any] = {"type": "error", "code": code, "message": message, **extra}
    if re_ is not None:
        body["re"] = re_
    return dumps(body)
