"""Renderings of a stored hand in the formats poker tools read.

A hand is stored as its PHH history (the event log; see docs/engine.md) plus a little
context the history does not carry. Every exporter takes that as a :class:`HandInfo`
and replays the history through the engine to get the events it renders:

- PHH: the history itself (:func:`engine.history.dump` / ``dump_all``), with the
  fields pokerroom adds to it named in :mod:`server.export.phh`;
- PokerStars text: :mod:`server.export.pokerstars`;
- OHH (Open Hand History JSON): :mod:`server.export.ohh`;
- the hand as one of its players saw it, for the protocol's ``hand`` message (events,
  PHH and PokerStars text, each hiding what that player did not see):
  :mod:`server.export.seat`.

PHH writes every game the engine plays. PokerStars text and OHH have words for fewer
games; asked for another, they raise :class:`UnsupportedGameError` naming the game and
the format, and write nothing (docs/hands.md lists which game goes where).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from engine import history
from engine.history import HandHistory, Replay

__all__ = ["HandInfo", "UnsupportedGameError"]


class UnsupportedGameError(ValueError):
    """A format has no words for the hand's game (PokerStars text for Kuhn poker, say).

    ``game`` is the game's preset key and ``format`` the format's name; the message,
    lowercase as the engine's are, names both:
    ``"pokerstars text has no words for Kuhn poker ('kuhn')"``.
    """

    def __init__(self, game: str, name: str, format: str) -> None:
        super().__init__(f"{format} has no words for {name} ({game!r})")
        self.game = game
        self.format = format


@dataclass(frozen=True)
class HandInfo:
    """A stored hand and its context.

    ``players`` and ``seats`` run in PHH order (p1, the first seat left of the button, to
    pN, on the button unless it is dead): each player's name and their seat number at the
    table (1-based, as shown to people). Amounts in ``history`` are chips (ints), or
    Decimals for hands imported in money units; ``currency`` is then e.g. ``"USD"``.

    PHH records neither the button nor the small blind: ``button`` is the button's seat
    (from 1, like ``seats``), which holds nobody when the button is dead, and
    ``small_blind`` the table's, in the replay's chips, which nobody may have posted. The
    store gives both; without them the button is the last player's seat and the small
    blind the smallest blind posted.
    """

    hand_id: int
    table_name: str
    started_at: datetime
    players: tuple[str, ...]
    seats: tuple[int, ...]
    history: HandHistory
    currency: str | None = None
    max_seats: int = 6
    button: int | None = None
    small_blind: int | None = None

    @property
    def button_seat(self) -> int:
        """The button's seat at the table, from 1."""
        return self.seats[-1] if self.button is None else self.button

    @property
    def engine_seats(self) -> tuple[int, ...]:
        """``seats`` numbered as the engine and the protocol number them: from 0."""
        return tuple(seat - 1 for seat in self.seats)

    def replay(self) -> Replay:
        """The hand played through the engine, with the table's small blind. The seats are
        the players' positions (0 is ``p1``), so an event's seat indexes ``players``."""
        return history.replay(self.history, small_blind=self.small_blind)
