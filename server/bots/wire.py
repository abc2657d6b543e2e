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

A draw names the cards thrown away (dice by their faces); none stands pat:

>>> from engine import Draw, parse_cards
>>> draw = menu_from_json(3, {**DRAW_MENU, "max_discard": 5})
>>> act_message("demo", "a3", Draw(3, parse_cards("Kd 9c")), draw)["discard"]
['Kd', '9c']
>>> cards_from_json(["6", "6", "2"])
(Card('6'), Card('6'), Card('2'))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import IntEnum
from typing import Any, Final

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
    RunItTwice,
    TableConfig,
    game,
    game_from_dict,
)

__all__ = [
    "DRAW_MENU",
    "act_message",
    "card_from_json",
    "cards_from_json",
    "config_from_summary",
    "game_from_summary",
    "menu_from_json",
    "street_from_json",
]

DRAW_MENU: Final[Mapping[str, Any]] = {
    "can_fold": False, "can_check": False, "can_call": False, "call": 0,
    "call_is_all_in": False, "can_raise": False, "raise_kind": "bet", "min_raise_to": 0,
    "max_raise_to": 0, "raise_is_all_in_only": False, "can_bring_in": False, "bring_in": 0,
    "can_draw": True, "max_discard": 0,
}  # fmt: skip
"""The menu body of a draw, but for ``max_discard``: nothing else is allowed then."""


def menu_from_json(seat: int, body: Mapping[str, Any]) -> ActionMenu:
    """The :class:`ActionMenu` a request's ``menu`` describes (the inverse of
    :func:`server.protocol.menu_body`). A server from before every game was played sends
    no ``bring_in`` or ``max_discard``: none is due."""
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
        bring_in=int(body.get("bring_in", 0)),
        max_discard=int(body.get("max_discard", -1)),
        completes=body["raise_kind"] == "complete",
        run_it_twice=bool(body.get("run_it_twice", False)),
    )


def act_message(
    table: str, action_id: str, action: Action, menu: ActionMenu, seq: int | None = None
) -> dict[str, Any]:
    """The ``act`` message for ``action``: check or call as the menu says, bet, raise or
    complete with the street total, bring in, or draw naming the discards; with the
    request's ``seq``, so that a late answer is refused rather than played in a later
    decision. The message ``id`` is the action id, so an error names it."""
    body: dict[str, Any] = {"type": "act", "table": table, "action_id": action_id, "id": action_id}
    if seq is not None:
        body["seq"] = seq
    match action:
        case Fold():
            body["action"] = "fold"
        case CheckOrCall():
            body["action"] = "check" if menu.can_check else "call"
        case BetOrRaiseTo(amount=amount):
            body["action"] = "complete" if menu.completes else "bet" if menu.is_bet else "raise"
            body["amount"] = amount
        case BringIn():
            body["action"] = "bring_in"
        case Draw(discard=discard):
            body["action"] = "draw"
            body["discard"] = [str(c) for c in discard]
        case RunItTwice(agree=agree):
            body["action"] = "run_it_twice"
            body["agree"] = agree
    return body


def game_from_summary(summary: Mapping[str, Any]) -> Game:
    """The game a lobby summary names: a definition object, a preset's key or code, or
    no-limit hold'em when a server from before other games says nothing."""
    value = summary.get("game", "nlhe")
    return game_from_dict(value) if isinstance(value, Mapping) else game(str(value))


def config_from_summary(summary: Mapping[str, Any]) -> TableConfig:
    """A table's :class:`TableConfig` from its lobby summary, which carries
    :meth:`TableConfig.to_dict`'s fields: the rules at the top, the options under
    ``options`` (a field a server leaves out takes its default)."""
    options = summary.get("options") or {}
    return TableConfig.from_dict({**summary, **options, "game": game_from_summary(summary)})


def card_from_json(value: str) -> Card:
    """One card as the server writes it: ``"As"``, a joker ``"X1"``, or a die's face
    ``"6"``."""
    if len(value) == 1 and value in "123456":
        return Card.die(int(value))
    return Card.parse(value)


def cards_from_json(value: Iterable[str] | None) -> tuple[Card, ...] | None:
    """Cards as the server writes them (``["As", "Kd"]``, dice ``["6", "2"]``); ``None``
    (unseen) stays ``None``."""
    return None if value is None else tuple(card_from_json(c) for c in value)


def street_from_json(value: str | None, of: Game | None = None) -> IntEnum | None:
    """A street of game ``of`` (default no-limit hold'em) as the server writes it
    (``"flop"``, ``"third_street"``, ``"first_draw"``); ``None`` between hands."""
    if value is None:
        return None
    enum: type[IntEnum] = game("nlhe").street_enum if of is None else of.street_enum
    return enum[value.upper()]
