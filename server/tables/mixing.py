"""Mixed games: the table's rotation through its games (HORSE, 8-game), and dealer's
choice, where the player about to deal picks the next game from the table's list.

The rotation is the engine's (:class:`engine.Rotation`); this part moves it on after
each hand, asks whoever picks, and changes the table's game between hands, telling every
subscriber with a ``game_changed`` message (docs/protocol.md, "Mixed games")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import Rotation
from server import protocol
from server.errors import Code
from server.tables.base import TableError
from server.tables.messages import Caller

if TYPE_CHECKING:
    from server.tables.core import TableCore


class Mixing:
    """Which game the next hand plays, and dealer's choice's pick."""

    def __init__(self, core: TableCore) -> None:
        self.core = core
        mix = core.settings.mix
        self.rotation = None if mix is None else Rotation(mix)
        self.rotated = 0  # hands_played when the rotation last moved on
        self.choice: tuple[int, float] | None = None  # dealer's choice: (seat, deadline)
        self.choice_resend: int | None = None  # the chooser is back: ask them again

    def body(self) -> dict[str, Any] | None:
        """The summary's ``mix``: the games, when the game changes, and where it is."""
        rotation = self.rotation
        if rotation is None:
            return None
        return {
            **protocol.mix_body(rotation.mix),
            "level": list(self.core.settings.level),
            "game": rotation.game.key,
            "hands_left": rotation.hands_left,
            "choosing": None if self.choice is None else self.choice[0],
        }

    def game_for_next_hand(self, ready: list[int]) -> bool:
        """Before a hand: move the rotation on past the hands played, have the next game
        picked if it is dealer's choice, and play that game. False while waiting for a
        pick (until :meth:`deadline`)."""
        core = self.core
        table = core.table
        rotation = self.rotation
        if rotation is None:
            return True
        if core.hands_played > self.rotated:
            rotation = rotation.after_hand(
                button=table.button if table.button is not None else ready[0],
                seats=ready, table_seats=table.config.seats,
            )  # fmt: skip
            self.rotated = core.hands_played
        if rotation.needs_choice:
            chooser = self._chooser(ready)
            self.rotation = rotation
            if chooser not in core.house.bots:  # a person picks: wait for it
                if self.choice is None or self.choice[0] != chooser:
                    self._ask_for_game(chooser)
                elif self.choice_resend == chooser:  # back after a reconnection: ask again
                    self._send_choice(chooser)
                self.choice_resend = None
                return False
            games = [g.key for g in rotation.mix.games]
            rotation = rotation.choose(core.house.pick_game(chooser, games, rotation.game.key))
        self.choice = None
        self.rotation = rotation
        config = rotation.mix.config(rotation.game, core.settings.level, seats=table.config.seats)
        if config != table.config:
            table.set_config(config)
            self._announce_game()
        return True

    def _chooser(self, ready: list[int]) -> int:
        """Who picks: the player the button moves to next (the first ready seat after it)."""
        button = self.core.table.button
        if button is None:
            return ready[0]
        seats = self.core.table.config.seats
        return min(ready, key=lambda s: (s - button - 1) % seats)

    def _ask_for_game(self, seat: int) -> None:
        """Ask ``seat`` to pick the next game, within the decision time, and tell everyone
        else who is choosing."""
        core = self.core
        seconds = core.settings.decision_seconds
        self.choice = (seat, core.now + seconds)
        core.views.publish_summary()  # the lobby and the bus see who is choosing
        choosing = {"type": "game_choosing", "seat": seat, "seconds": seconds}
        but = core.seats.occupants[seat].session
        core.fanout.before_hand(core.table.hand_number + 1, choosing, but=but)
        self._send_choice(seat)

    def _send_choice(self, seat: int) -> None:
        """The chooser's ``game_choice``, with the seconds left to pick."""
        core = self.core
        rotation, session = self.rotation, core.seats.occupants[seat].session
        if rotation is None or session is None or self.choice is None:
            return
        left = max(0.0, self.choice[1] - core.now)
        core.fanout.send(
            session,
            {"type": "game_choice", "table": core.table_id, "seat": seat,
             "games": [g.key for g in rotation.mix.games], "current": rotation.game.key,
             "seconds": round(left, 3)},
            urgent=True,
        )  # fmt: skip

    def resumed(self, seat: int | None) -> None:
        """The player in ``seat`` is back: if they are to pick, they are asked again."""
        if seat is not None and self.choice is not None and self.choice[0] == seat:
            self.choice_resend = seat

    def deadline(self) -> float | None:
        """When the pick the table waits for is due, or None if it waits for none."""
        return None if self.choice is None else self.choice[1]

    def time_out(self) -> None:
        """Nobody picked in time: the game goes on as it was."""
        rotation = self.rotation
        if rotation is not None and rotation.needs_choice:
            self.rotation = rotation.choose(rotation.game)
        self.choice = None

    def choose_game(self, m: protocol.ChooseGame, caller: Caller) -> dict[str, Any]:
        core = self.core
        rotation = self.rotation
        seat = core.seats.require(caller.session)
        if rotation is None or not rotation.mix.dealers_choice:
            raise TableError(Code.ILLEGAL, "this table is not dealer's choice")
        if self.choice is None or self.choice[0] != seat:
            raise TableError(Code.ILLEGAL, f"seat {seat} has no game to pick now")
        games = [g.key for g in rotation.mix.games]
        if m.game not in games:
            raise TableError(
                Code.ILLEGAL, f"{m.game!r} is not on this table's list: {', '.join(games)}"
            )
        self.rotation = rotation.choose(m.game)
        self.choice = None
        return {"type": "game_chosen", "table": core.table_id, "game": m.game}

    def _announce_game(self) -> None:
        """The game has changed: every subscriber gets the table's new summary."""
        core = self.core
        core.fanout.before_hand(
            core.table.hand_number + 1, {"type": "game_changed", "summary": core.views.summary()}
        )
        core.views.publish_summary()
