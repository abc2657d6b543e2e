"""Slumbot's action strings: the hand so far as one string, and the client's ``incr``.

The grammar (Slumbot's, and its reference client's parser)::

    action := street ("/" street)*        at most four streets
    street := act*
    act    := "k" | "c" | "f" | "b" N     check, call, fold, bet or raise

``N`` is the bettor's total on this street, the blinds included preflop: the small
blind raising to 200 is ``b200``, limping is ``c``. A ``/`` follows each street that
closes; when a bet is called all in before the river the string ends with a ``/`` for
each street left to deal (``b20000c///``), as Slumbot's does.

>>> parse_incr("b300")
Incr(kind='b', amount=300)
>>> parse_incr("c/")
Incr(kind='c', amount=None)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from engine import (
    Action,
    ActionMenu,
    ActionTaken,
    BetOrRaiseTo,
    BoardDealt,
    CheckOrCall,
    Fold,
    Hand,
)
from server.slumbot.errors import ApiError

__all__ = ["Incr", "action_string", "engine_action", "parse_incr"]

_LETTERS = {"fold": "f", "check": "k", "call": "c"}
_BET = re.compile(r"b([0-9]{1,9})")


def action_string(hand: Hand) -> str:
    """The hand's actions as Slumbot writes them: one letter (or ``b`` and the street
    total) an action, a ``/`` for each board card dealing that closed a street."""
    parts: list[str] = []
    for event in hand.log:
        if isinstance(event, ActionTaken):
            letter = _LETTERS.get(event.kind)
            parts.append(letter if letter is not None else f"b{event.street_total}")
        elif isinstance(event, BoardDealt):
            parts.append("/")
    return "".join(parts)


@dataclass(frozen=True)
class Incr:
    """One action a client sends: ``k``, ``c``, ``f``, or ``b`` with a street total."""

    kind: Literal["k", "c", "f", "b"]
    amount: int | None = None


def parse_incr(text: object) -> Incr:
    """The action ``text`` names (one trailing ``/`` is allowed, as Slumbot allows it);
    :class:`ApiError` naming what is wrong otherwise."""
    if not isinstance(text, str):
        raise ApiError(f"incr must be a string such as 'c' or 'b300', got {text!r}")
    body = text[:-1] if text.endswith("/") else text
    if body == "k":
        return Incr("k")
    if body == "c":
        return Incr("c")
    if body == "f":
        return Incr("f")
    found = _BET.fullmatch(body)
    if found is not None:
        return Incr("b", int(found.group(1)))
    if body == "b":
        raise ApiError("Missing bet size: give b and your street total, such as b300")
    if not body:
        raise ApiError("Missing incr: give one action, k, c, f or b<N>")
    shown = text if len(text) <= 40 else text[:40] + "..."
    raise ApiError(
        f"Unexpected incr {shown!r}: give one action, k (check), c (call), f (fold) or b<N> "
        "(bet or raise to N on this street)"
    )


def engine_action(incr: Incr, menu: ActionMenu) -> Action:
    """The engine action ``incr`` is for ``menu.seat``, refused as Slumbot refuses it: no
    check or fold with nothing to call... (:class:`ApiError`, the hand unchanged)."""
    seat = menu.seat
    if incr.kind == "k":
        if menu.call > 0:
            raise ApiError(f"Illegal check: {menu.call} to call; give c, f or a raise")
        return CheckOrCall(seat)
    if incr.kind == "c":
        if menu.call == 0:
            raise ApiError("Illegal call: nothing to call; give k or a bet")
        return CheckOrCall(seat)
    if incr.kind == "f":
        if menu.call == 0:
            raise ApiError("Illegal fold: nothing to call; give k")
        return Fold(seat)
    assert incr.amount is not None
    if not menu.can_raise:
        raise ApiError("Illegal bet: the bot is all in; give c or f")
    if incr.amount < menu.min_raise_to:
        raise ApiError(f"Bet too small: the minimum is b{menu.min_raise_to}")
    if incr.amount > menu.max_raise_to:
        raise ApiError(f"Bet too big: the maximum is b{menu.max_raise_to} (all in)")
    return BetOrRaiseTo(seat, incr.amount)
