"""Rows for one finished hand, built from the engine's hand and its events.

Building rows is plain Python on values the engine already has; the store only inserts
them, so a written hand costs little more than the inserts themselves.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engine import ActionTaken, ForcedBetPosted, Hand, history

__all__ = ["HandRows", "hand_rows"]


@dataclass(frozen=True)
class HandRows:
    """Everything the store writes for one hand, in one transaction. ``hand_id`` is
    filled in by the database."""

    hand: dict[str, Any]
    players: list[dict[str, Any]]
    actions: list[dict[str, Any]]
    ledger: list[dict[str, Any]]


def hand_rows(
    hand: Hand,
    *,
    table_id: int,
    player_ids: Sequence[int],
    names: Sequence[str],
    started_at: datetime,
    ended_at: datetime,
    history_text: str | None = None,
    scale: int = 1,
    currency: str | None = None,
    deck_commitment: str | None = None,
    seed: str | None = None,
    hidden: Sequence[int] = (),
) -> HandRows:
    """The rows for a finished ``hand``. ``player_ids`` and ``names`` run in position
    order; ``hidden`` positions had unknown hole cards in an imported history."""
    if not hand.is_over:
        raise ValueError("only a finished hand can be stored")
    text = history_text or history.dump(history.from_hand(hand, players=names))
    hand_row = {
        **_stakes(hand),
        "table_id": table_id,
        "scale": scale,
        "currency": currency,
        "started_at": started_at,
        "ended_at": ended_at,
        "deck_commitment": deck_commitment,
        "seed": seed,
        "history": text,
        # Unique: what says whether a hand is stored already, for an import (the same
        # history twice) and for the writer retrying a commit whose reply was lost (a
        # live hand's history carries its seed, so no two hands share it).
        "digest": hashlib.sha256(text.encode()).hexdigest(),
    }
    players = _player_rows(hand, player_ids, hidden)
    ledger = [
        {
            "player_id": player_ids[p],
            "table_id": table_id,
            "amount": row["net"],
            "reason": "hand",
            "created_at": ended_at,
            "write_id": None,  # written with its hand: the hand's digest says it is stored
        }
        for p, row in enumerate(players)
        if row["net"]
    ]
    return HandRows(hand_row, players, _action_rows(hand), ledger)


def _stakes(hand: Hand) -> dict[str, Any]:
    """What the ``hands`` row says of the hand itself: its number, stakes, board, pot."""
    setup = hand.setup
    return {
        "hand_number": setup.hand_number,
        "variant": setup.game.code,
        "game": setup.game.key,
        "small_blind": setup.small_blind,
        "big_blind": setup.big_blind,
        "ante": max(setup.antes),
        "button_seat": setup.button,
        "board": "".join(str(c) for c in hand.board),
        "pot": sum(hand.totals),
    }


def _player_rows(
    hand: Hand, player_ids: Sequence[int], hidden: Sequence[int]
) -> list[dict[str, Any]]:
    setup = hand.setup
    return [
        {
            "position": p,
            "seat": setup.seats[p],
            "player_id": player_ids[p],
            "starting_stack": setup.stacks[p],
            "final_stack": hand.stacks[p],
            "hole_cards": None if p in hidden else "".join(map(str, hand.holes[p])),
            "net": hand.stacks[p] - setup.stacks[p],
        }
        for p in range(len(setup.seats))
    ]


def _action_rows(hand: Hand) -> list[dict[str, Any]]:
    actions: list[dict[str, Any]] = []
    for event in hand.log:
        if isinstance(event, ActionTaken | ForcedBetPosted):
            actions.append(
                {
                    "seq": len(actions),
                    "street": event.street if isinstance(event, ActionTaken) else 0,
                    "seat": event.seat,
                    "kind": event.kind,
                    "increment": event.increment,
                    "street_total": event.street_total,
                    "hand_total": event.hand_total,
                }
            )
    return actions
