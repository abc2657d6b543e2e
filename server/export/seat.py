"""A stored hand as one of its players saw it (the protocol's ``hand`` message).

The hand is told three ways, each hiding exactly what the live table hid from that
player: the events as the table sent them to the seat (the history replayed at the
table's own seats, each event redacted by :func:`engine.redact`, as the table does); the
PHH history with the other players' unshown hole cards unknown (``????``); and the
player's own PokerStars history. Neither text carries the deck's secret seed, which
would show every card (docs/fairness.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine import Event, history, redact
from server.export import HandInfo, pokerstars
from server.fairness import SEED_FIELD

__all__ = ["SeenHand", "seen_from"]


@dataclass(frozen=True)
class SeenHand:
    events: list[Event]
    """The hand's events as the player's seat received them."""
    phh: str
    pokerstars: str


def seen_from(
    info: HandInfo, position: int, *, seats: Sequence[int], button: int, small_blind: int
) -> SeenHand:
    """``info``'s hand as the player at ``position`` (PHH order: 0 is ``p1``) saw it.
    ``seats`` (table seats in PHH order), ``button`` and ``small_blind`` are the table's,
    which PHH does not record; with them the replay's events are the table's own.

    Raises :class:`engine.HistoryError` if the history does not replay."""
    played = history.replay(info.history, seats=seats, button=button, small_blind=small_blind)
    seat = seats[position]
    seen = history.redact(info.history, position)
    seen.fields.pop(SEED_FIELD, None)
    return SeenHand(
        events=[redact(event, seat) for event in played.events],
        phh=history.dump(seen),
        # The text's button and small blind are the events' (PHH records neither).
        pokerstars=pokerstars.render(
            replace(info, button=button + 1, small_blind=small_blind), hero=position
        ),
    )
