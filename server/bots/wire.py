"""The bot SDK's wire values: what a client reads from the server's messages (a menu, a
table's settings, cards and streets) and the ``act`` message it answers with.

>>> from engine import BetOrRaiseTo, CheckOrCall
>>> menu = menu_from_json(3, {"can_fold": True, "can_check": False, "call": 100,
...     "call_is_all_in": False, "can_raise": True, "raise_kind": "raise",
...     "min_raise_to": 200, "max_raise_to": 10000, "raise_is_all_in_only": False})
>>> act_message("demo", "a1", BetOrRaiseTo(3, 300), menu)
{'type': 'act', 'table': 'demo', 'action_id': 'a1', 'id': 'a1', 'action': 'raise', 'amount': 300}
>>> act_message("demo", "a2", CheckOrCall(3), menu)["action"]
'call'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine import (
    Action,
    ActionMenu,
    AnteKind,
    BetOrRaiseTo,
    Card,
    CheckOrCall,
    Fold,
    Street,
    TableConfig,
)

__all__ = [
    "act_message",
    "cards_from_json",
    "config_from_summary",
    "menu_from_json",
    "street_from_json",
]


def menu_from_json(seat: int, body: Mapping[str, Any]) -> ActionMenu:
    """The :class:`ActionMenu` a request's ``menu`` describes (the inverse of
    :func:`server.protocol.menu_body`)."""
    return ActionMenu(
        seat=seat,
        can_fold=bool(body["can_fold"]),
        can_check=bool(body["can_check"]),
        call=int(body["call"]),
        call_is_all_in=bool(body["call_is_all_in"]),
        can_raise=bool(body["can_raise"]),
        min_raise_to=int(body["min_raise_to"]),
        max_raise_to=int(body["max_raise_to"]),
        raise_is_all_in_only=bool(body["raise_is_all_in_only"]),
        is_bet=body["raise_kind"] == "bet",
    )


def act_message(
    table: str, action_id: str, action: Action, menu: ActionMenu, seq: int | None = None
) -> dict[str, Any]:
    """The ``act`` message for ``action``: check or call as the menu says, bet or raise with
    the street total; with the request's ``seq``, so that a late answer is refused rather
    than played in a later decision. The message ``id`` is the action id, so an error
    names it."""
    body: dict[str, Any] = {"type": "act", "table": table, "action_id": action_id, "id": action_id}
    if seq is not None:
        body["seq"] = seq
    match action:
        case Fold():
            body["action"] = "fold"
        case CheckOrCall():
            body["action"] = "check" if menu.can_check else "call"
        case BetOrRaiseTo(amount=amount):
            body["action"] = "bet" if menu.is_bet else "raise"
            body["amount"] = amount
    return body


def config_from_summary(summary: Mapping[str, Any]) -> TableConfig:
    """A table's :class:`TableConfig` from its lobby summary. The summary does not say how
    antes are paid: with an ante, :class:`server.bots.mirror.TableMirror` guesses per player
    until it sees a hand."""
    ante = int(summary.get("ante", 0))
    return TableConfig(
        small_blind=int(summary["small_blind"]),
        big_blind=int(summary["big_blind"]),
        seats=int(summary["seats"]),
        ante=ante,
        ante_kind=AnteKind.PER_PLAYER if ante else AnteKind.NONE,
        min_buy_in=int(summary.get("min_buy_in", 0)),
        max_buy_in=int(summary.get("max_buy_in", 0)),
    )


def cards_from_json(value: Iterable[str] | None) -> tuple[Card, ...] | None:
    """Cards as the server writes them (``["As", "Kd"]``); ``None`` (unseen) stays ``None``."""
    return None if value is None else tuple(Card.parse(c) for c in value)


def street_from_json(value: str | None) -> Street | None:
    """A street as the server writes it (``"flop"``); ``None`` between hands."""
    return None if value is None else Street[value.upper()]
