"""Mixed games: the table's rotation through its games (HORSE, 8-game), and dealer's
choice, where the player about to deal picks the next game from the table's list.

The rotation is the engine's (:class:`engine.Rotation`); this layer moves it on after
each hand, asks whoever picks, and changes the table's game between hands, telling every
subscriber with a ``game_changed`` message (docs/protocol.md, "Mixed games")."""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from server import protocol
from server.errors import Code
from server.tables.base import Player, Subscriber, TableError
from server.tables.storing import Storing

log = logging.getLogger("pokerroom")


class Mixing(Storing):
    """Which game the next hand plays."""

    def _game_for_next_hand(self, ready: list[int]) -> bool:
        """Before a hand: move the rotation on past the hands played, have the next game
        picked if it is dealer's choice, and play that game. False while waiting for a
        pick (the runner waits for it, or for its deadline: :meth:`_choice_left`)."""
        rotation = self.rotation
        if rotation is None:
            return True
        if self.hands_played > self._rotated:
            rotation = rotation.after_hand(
                button=self.table.button if self.table.button is not None else ready[0],
                seats=ready, table_seats=self.table.config.seats,
            )  # fmt: skip
            self._rotated = self.hands_played
        if rotation.needs_choice:
            chooser = self._chooser(ready)
            self.rotation = rotation
            if chooser not in self.house:  # a person picks: wait for it
                if self._choice is None or self._choice[0] != chooser:
                    self._ask_for_game(chooser)
                elif self._choice_resend == chooser:  # back after a reconnection: ask again
                    self._send_choice(chooser)
                self._choice_resend = None
                return False
            rotation = rotation.choose(self._house_pick(chooser))
        self._choice = None
        self.rotation = rotation
        config = rotation.mix.config(
            rotation.game, self.settings.level, seats=self.table.config.seats
        )
        if config != self.table.config:
            self.table.set_config(config)
            self._announce_game()
        return True

    def _chooser(self, ready: list[int]) -> int:
        """Who picks: the player the button moves to next (the first ready seat after it)."""
        button = self.table.button
        if button is None:
            return ready[0]
        seats = self.table.config.seats
        return min(ready, key=lambda s: (s - button - 1) % seats)

    def _house_pick(self, seat: int) -> str:
        """A house bot's pick: its strategy's ``choose_game`` if it has one, else the game
        after the last one on the list, so a table of bots plays them all."""
        rotation = self.rotation
        assert rotation is not None
        games = [g.key for g in rotation.mix.games]
        choose = getattr(self.house[seat][1], "choose_game", None)
        if choose is not None:
            try:
                picked = choose(games)
                if picked in games:
                    return str(picked)
            except Exception:  # a bot's bug costs its pick, never the table
                log.exception(
                    "table %s: house bot at seat %d failed to pick", self.settings.table_id, seat
                )
        return games[(games.index(rotation.game.key) + 1) % len(games)]

    def _ask_for_game(self, seat: int) -> None:
        """Ask ``seat`` to pick the next game, within the decision time, and tell everyone
        else who is choosing."""
        self._choice = (seat, self.clock() + self.settings.decision_seconds)
        self.publish_summary()  # the lobby and the bus see who is choosing
        choosing = {"type": "game_choosing", "seat": seat,
                    "seconds": self.settings.decision_seconds}  # fmt: skip
        self._before_hand(self.table.hand_number + 1, choosing, but=self.seats[seat].session)
        self._send_choice(seat)

    def _send_choice(self, seat: int) -> None:
        """The chooser's ``game_choice``, with the seconds left to pick."""
        rotation, session, left = self.rotation, self.seats[seat].session, self._choice_left()
        if rotation is None or session is None or left is None:
            return
        request = protocol.dumps(
            {"type": "game_choice", "table": self.settings.table_id, "seat": seat,
             "games": [g.key for g in rotation.mix.games], "current": rotation.game.key,
             "seconds": round(left, 3)}
        )  # fmt: skip
        self._deliver(session, partial(session.send, request, urgent=True))

    def _cmd_resume(self, session: Subscriber, player: Player, last_seq: int) -> dict[str, Any]:
        reply = super()._cmd_resume(session, player, last_seq)
        seat = self._seat_of_player(player)
        if seat is not None and self._choice is not None and self._choice[0] == seat:
            self._choice_resend = seat  # asked again once the reply is out (the loop)
        return reply

    def _choice_left(self) -> float | None:
        """Seconds left for the pick the table waits for, or None if it waits for none."""
        if self._choice is None:
            return None
        return max(0.0, self._choice[1] - self.clock())

    def _choice_timed_out(self) -> None:
        """Nobody picked in time: the game goes on as it was."""
        rotation = self.rotation
        if rotation is not None and rotation.needs_choice:
            self.rotation = rotation.choose(rotation.game)
        self._choice = None

    def _cmd_choose_game(self, session: Subscriber, game: str) -> dict[str, Any]:
        rotation = self.rotation
        seat = self._require_seat(session)
        if rotation is None or not rotation.mix.dealers_choice:
            raise TableError(Code.ILLEGAL, "this table is not dealer's choice")
        if self._choice is None or self._choice[0] != seat:
            raise TableError(Code.ILLEGAL, f"seat {seat} has no game to pick now")
        games = [g.key for g in rotation.mix.games]
        if game not in games:
            raise TableError(
                Code.ILLEGAL, f"{game!r} is not on this table's list: {', '.join(games)}"
            )
        self.rotation = rotation.choose(game)
        self._choice = None
        return {"type": "game_chosen", "table": self.settings.table_id, "game": game}

    def _announce_game(self) -> None:
        """The game has changed: every subscriber gets the table's new summary."""
        self._before_hand(
            self.table.hand_number + 1, {"type": "game_changed", "summary": self.summary()}
        )
        self.publish_summary()
