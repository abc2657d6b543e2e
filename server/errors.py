"""The server's refusals: every error a client can be sent, under one root.

:class:`Refusal` is an answer to one message that changes nothing; its :class:`Code` is
for programs, its message for people. Whatever refuses (the protocol's parser, a table,
the lobby, a tournament, the stats service, the store) raises a :class:`Refusal` or a
subclass of it, and :func:`server.routing.answer` alone turns it into the wire's
``error`` (docs/protocol.md, "Errors"; ``tests/server/test_protocol_doc.py`` checks
:class:`Code` against that table).

The engine's errors are the engine's own (it knows no wire): ``routing.answer`` sends
an :class:`engine.InvalidConfigError` (settings that do not fit) and a
:class:`engine.HistoryError` (a stored hand that does not replay) as ``refused``, and any
other :class:`engine.EngineError` as ``illegal`` (the rules say no).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from engine import EngineError, HistoryError, InvalidConfigError

__all__ = ["Code", "Refusal", "engine_code"]


class Code(StrEnum):
    """Every ``code`` an ``error`` message may carry, as docs/protocol.md lists them."""

    BAD_JSON = "bad_json"
    BAD_MESSAGE = "bad_message"
    UNKNOWN_TYPE = "unknown_type"
    BAD_VERSION = "bad_version"
    HELLO_FIRST = "hello_first"
    BAD_TOKEN = "bad_token"
    BAD_SESSION = "bad_session"
    NAME_TAKEN = "name_taken"
    REFUSED = "refused"
    NO_TABLE = "no_table"
    NO_TOURNAMENT = "no_tournament"
    CLOSED = "closed"
    FULL = "full"
    NOT_REGISTERED = "not_registered"
    ELSEWHERE = "elsewhere"
    UNREACHABLE = "unreachable"
    UNAVAILABLE = "unavailable"
    ALREADY_SEATED = "already_seated"
    ALREADY_WAITING = "already_waiting"
    SEAT_TAKEN = "seat_taken"
    BAD_BUY_IN = "bad_buy_in"
    NOT_SEATED = "not_seated"
    NOT_YOUR_TURN = "not_your_turn"
    STALE = "stale"
    BAD_ACTION = "bad_action"
    ILLEGAL = "illegal"
    RATE_LIMITED = "rate_limited"
    INTERNAL = "internal"
    TOO_MANY_TABLES = "too_many_tables"
    TOO_MANY_ACCOUNTS = "too_many_accounts"
    TABLE_CLOSED = "table_closed"
    NOT_HOST = "not_host"
    BAD_INVITE = "bad_invite"
    PRIVATE = "private"
    NO_REQUEST = "no_request"
    NO_PLAYER = "no_player"
    BAD_STRATEGY = "bad_strategy"
    BAD_SEAT_TOKEN = "bad_seat_token"
    NOT_HERE = "not_here"
    NOT_WATCHING = "not_watching"
    NO_CHAT = "no_chat"
    MUTED = "muted"
    TOO_FAST = "too_fast"
    BAD_CHAT = "bad_chat"
    BAD_CARDS = "bad_cards"
    NO_HAND = "no_hand"
    TOO_MANY_STATS = "too_many_stats"
    TOO_MANY_EXPORTS = "too_many_exports"


class Refusal(Exception):
    """A request refused: ``code`` and the message go to the one client who sent it,
    with ``details`` as more fields of the error (``address`` for a table elsewhere)."""

    def __init__(self, code: Code, message: str, **details: Any) -> None:
        super().__init__(message)
        self.code = code
        self.details = details

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from its message and attributes, whatever a subclass's own arguments: a
        # refusal raised in the records worker process comes back to the server pickled.
        return _rebuilt, (type(self), str(self)), self.__dict__.copy()


def _rebuilt(kind: type[Refusal], message: str) -> Refusal:
    refusal = Exception.__new__(kind)
    refusal.args = (message,)
    return refusal


def engine_code(exc: EngineError) -> Code:
    """The code the engine's refusal ``exc`` goes to a client with: settings that do not
    fit, and a stored history that does not replay, are ``refused``; everything else the
    rules do not allow, ``illegal``."""
    return Code.REFUSED if isinstance(exc, InvalidConfigError | HistoryError) else Code.ILLEGAL
