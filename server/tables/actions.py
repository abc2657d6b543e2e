"""Actions as the wire names them, and the action a player nobody answers for makes."""

from __future__ import annotations

from engine import (
    Action,
    ActionMenu,
    BetOrRaiseTo,
    BringIn,
    CheckOrCall,
    Draw,
    EngineError,
    Fold,
    RunItTwice,
    parse_cards,
    parse_dice,
)
from server.errors import Code
from server.tables.base import TableError

__all__ = ["action_from_wire", "default_action"]


def default_action(menu: ActionMenu) -> Action:
    """What a player nobody answers for does: stand pat in a draw (nobody's cards are
    thrown away for them), bring in when the low card must (TDA RP-10-E), else check if
    that is free, or fold."""
    seat = menu.seat
    if menu.run_it_twice:  # silence is no (docs/rules.md O5)
        return RunItTwice(seat, False)
    if menu.can_draw:
        return Draw(seat)
    if menu.can_bring_in and not menu.can_fold:
        return BringIn(seat)
    return CheckOrCall(seat) if menu.can_check else Fold(seat)


def action_from_wire(
    menu: ActionMenu,
    action: str,
    amount: int | None,
    discard: list[str] | None = None,
    agree: bool | None = None,
) -> Action:
    """The engine action an ``act`` message names for ``menu.seat``, or
    :class:`TableError` (``bad_action``, ``illegal``) for one the menu rules out by its
    kind; a bet's amount and a draw's cards are the engine's to check."""
    seat = menu.seat
    if discard is not None and action != "draw":
        raise TableError(Code.BAD_ACTION, f"{action} takes no discard (only draw does)")
    if (agree is not None) != (action == "run_it_twice"):
        raise TableError(Code.BAD_ACTION, "only run_it_twice takes agree (true or false)")
    if menu.run_it_twice:
        if action != "run_it_twice":
            raise TableError(Code.ILLEGAL, f"seat {seat} is asked to run it twice: agree or not")
        return RunItTwice(seat, bool(agree))
    if action == "run_it_twice":
        raise TableError(Code.ILLEGAL, f"seat {seat} is not asked to run it twice")
    if action in ("bet", "raise", "complete"):
        if amount is None:
            raise TableError(Code.BAD_ACTION, f"{action} needs an amount (the street total)")
        return BetOrRaiseTo(seat, amount)
    if amount is not None:
        raise TableError(Code.BAD_ACTION, f"{action} takes no amount")
    if action == "draw":
        if discard is None:
            raise TableError(
                Code.BAD_ACTION, "draw needs a discard: the cards to throw away, [] to stand pat"
            )
        if not menu.can_draw:
            raise TableError(Code.ILLEGAL, f"seat {seat} cannot draw now")
        try:
            cards = (
                parse_dice(" ".join(discard))
                if discard and discard[0].isdigit()
                else (parse_cards(" ".join(discard)))
            )
        except EngineError as exc:
            raise TableError(Code.BAD_ACTION, f"draw: {exc}") from None
        return Draw(seat, cards)
    if menu.can_draw:
        raise TableError(Code.ILLEGAL, f"seat {seat} must draw (a discard, or [] to stand pat)")
    if action == "bring_in":
        if not menu.can_bring_in:
            raise TableError(Code.ILLEGAL, f"seat {seat} has no bring-in to make")
        return BringIn(seat)
    if action == "fold":
        return Fold(seat)
    if menu.can_bring_in:
        raise TableError(
            Code.ILLEGAL, f"seat {seat} opens the betting: bring in for {menu.bring_in} or complete"
        )
    if action == "check" and not menu.can_check:
        raise TableError(Code.ILLEGAL, f"seat {seat} cannot check: calling costs {menu.call}")
    if action == "call" and menu.can_check:
        raise TableError(Code.ILLEGAL, f"seat {seat} cannot call: there is nothing to call")
    return CheckOrCall(seat)
