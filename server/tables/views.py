"""What each subscriber may see: the events, numbered and redacted for each seat (the
engine hides the cards, :func:`engine.redact`); the snapshots a client starts from or
resumes with; the lobby's line for the table; and what goes to the bus."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from functools import partial
from typing import Any

from engine import Event, HandEnded, PlayerSat, PlayerSatIn, PlayerSatOut, PlayerStood, redact
from server import protocol
from server.fairness import Shuffle
from server.tables.base import Subscriber, TableState

log = logging.getLogger("pokerroom")

RECENT_SECONDS = 3600.0  # the lobby's statistics cover the last hour
STATE_SECONDS = 0.25  # the retained state on the bus lags the table by at most this
_LOBBY_EVENTS = (PlayerSat, PlayerStood, PlayerSatOut, PlayerSatIn)  # change the summary


class Views(TableState):
    """The table as its subscribers, the lobby and the bus see it."""

    # -- the lobby ---------------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """The lobby's line for this table."""
        cfg = self.table.config  # a mixed game's current game
        rules = protocol.config_body(cfg)
        return {
            "id": self.settings.table_id,
            "name": self.settings.name,
            **rules,
            "options": {**rules["options"], "show_seconds": self.settings.show_seconds},
            "decision_seconds": self.settings.decision_seconds,
            "time_bank_seconds": self.settings.time_bank_seconds,
            "players": [
                {"seat": s, "name": seat.player.name, "stack": self.table.stack(s)}
                for s, seat in sorted(self.seats.items())
                if s in self.table.occupied()  # not a player who just busted, until freed
            ],
            "waiting": [player.name for player, _, _ in self.waiting],
            "hands_played": self.hands_played,
            "mix": self.mix_body(),
            **self._recent_play(),
            **({"address": self.address} if self.address is not None else {}),
        }

    def mix_body(self) -> dict[str, Any] | None:
        """The summary's ``mix``: the games, when the game changes, and where it is."""
        rotation = self.rotation
        if rotation is None:
            return None
        return {
            **protocol.mix_body(rotation.mix),
            "level": list(self.settings.level),
            "game": rotation.game.key,
            "hands_left": rotation.hands_left,
            "choosing": None if self._choice is None else self._choice[0],
        }

    def _recent_play(self) -> dict[str, int]:
        """The lobby's statistics over the last hour: the average pot, and the hands an
        hour (for a table younger than that, at the rate it has played since it opened,
        counted over at least a minute so that one quick hand is not thousands an hour)."""
        now = self.clock()
        while self.recent and now - self.recent[0][0] > RECENT_SECONDS:
            self.recent.popleft()
        pots = [pot for _, pot in self.recent]
        span = min(RECENT_SECONDS, max(60.0, now - self.opened_at))
        return {
            "average_pot": sum(pots) // len(pots) if pots else 0,
            "hands_per_hour": round(len(pots) * 3600 / span),
        }

    # -- publishing ---------------------------------------------------------------------

    def _publish(self, events: list[Event]) -> None:
        """Number the events and send them: each subscriber gets them all at once, each
        event redacted for its seat, and each distinct text serialized once."""
        hand_number = self.table.hand_number
        table_id = self.settings.table_id
        batches: dict[Subscriber, list[str]] = {session: [] for session in self.subscribers}
        public = self.bus.topics.table_events(table_id) if self.bus.active else None
        last = len(events) - 1
        for i, event in enumerate(events):
            self.seq += 1
            self.log.append((self.seq, hand_number, event))
            texts: dict[bool, str] = {}  # as dealt, and redacted
            state = protocol.state_body(self.table.public_state()) if i == last else None
            for session, seat in self.subscribers.items():
                batches[session].append(self._event_text(texts, event, seat, hand_number, state))
            if public is not None:  # as a spectator sees it: no card that was not shown
                text = self._event_text(texts, event, None, hand_number, state)
                self.bus.publish(public, text.encode())
        if public is not None:
            if any(isinstance(event, _LOBBY_EVENTS) for event in events):
                self.publish_summary()
            self._state_soon()
        ended = any(isinstance(event, HandEnded) for event in events)
        for session, batch in batches.items():
            self._deliver(session, partial(session.send_table, table_id, hand_number, batch))
            if ended:
                self._deliver(session, partial(session.hand_ended, table_id, hand_number))
        if ended:
            while self.log and self.log[0][1] <= hand_number - self.settings.hands_kept:
                self.log.popleft()

    def _event_text(
        self,
        texts: dict[bool, str],
        event: Event,
        seat: int | None,
        hand_number: int,
        state: dict[str, Any] | None,
    ) -> str:
        """The event message as ``seat`` may see it, serialized once per redaction."""
        seen = redact(event, seat)
        text = texts.get(seen is event)
        if text is None:
            text = texts[seen is event] = protocol.event_message(
                self.settings.table_id, self.seq, hand_number, seen, state
            )
        return text

    def _tell_everyone(self, message: dict[str, Any]) -> None:
        """A message about the table (not an engine event) to everyone watching it, in
        order with its events."""
        text = protocol.dumps({"table": self.settings.table_id, **message})
        for subscriber in list(self.subscribers):
            send = partial(subscriber.send_table, self.settings.table_id,
                           self.table.hand_number, [text])  # fmt: skip
            self._deliver(subscriber, send)
        if self.invite is None and self.bus.active:  # spectators in other processes too
            self.bus.publish(self.bus.topics.table_events(self.settings.table_id), text.encode())

    def _joined(self, seat: int) -> None:
        """Who just sat in ``seat`` (engine events know seats, not people): their name,
        and whether they are a bot."""
        player = self.seats[seat].player
        self._tell_everyone(
            {"type": "player_joined", "seat": seat, "name": player.name, "bot": player.bot}
        )

    def _announce_commitment(self, number: int, shuffle: Shuffle) -> None:
        """Hand ``number``'s deck commitment, to everyone: it goes out before any card,
        so the deck cannot change afterwards."""
        self._before_hand(number, {"type": "deck_commitment", "commitment": shuffle.commitment})

    def _before_hand(
        self, number: int, message: dict[str, Any], but: Subscriber | None = None
    ) -> None:
        """A message about hand ``number``, before its first event, to every subscriber
        (``but`` one) and the bus: numbered with that hand (no seq), so a spectator with a
        delay gets it in its place, and one in another process through the bus
        (server/remote.py relays these)."""
        table_id = self.settings.table_id
        text = protocol.dumps(
            {"type": message["type"], "table": table_id, "hand_number": number, **message}
        )
        for session in list(self.subscribers):
            if session is not but:
                self._deliver(session, partial(session.send_table, table_id, number, [text]))
        if self.bus.active:
            self.bus.publish(self.bus.topics.table_events(table_id), text.encode())

    def publish_summary(self) -> None:
        """The lobby's view of the table, retained on the bus for whoever looks later
        (and the table's state)."""
        if self.bus.active:
            summary = protocol.dumps(self.summary()).encode()
            self.bus.publish(self.bus.topics.lobby(self.settings.table_id), summary, retain=True)
            self._state_soon()

    def _state_soon(self) -> None:
        """Publish the table's state (what a spectator in another process starts from,
        retained) within :data:`STATE_SECONDS`, once for whatever happened meanwhile: a
        snapshot per action would double what a busy table sends, and a broker coming
        back would never catch up. A spectator who starts from a state a few events old
        sees a gap and starts again from the next one (server/remote.py)."""
        if self._state_timer is None:
            loop = asyncio.get_running_loop()
            self._state_timer = loop.call_later(STATE_SECONDS, self._publish_state)

    def _publish_state(self) -> None:
        self._state_timer = None
        if not self._stopped:
            snapshot = protocol.dumps(self._snapshot(None)).encode()
            topic = self.bus.topics.table_state(self.settings.table_id)
            self.bus.publish(topic, snapshot, retain=True)

    def _deliver(self, session: Subscriber, send: Callable[[], None]) -> None:
        """Send to one subscriber; a failure drops that subscriber, never the table."""
        try:
            send()
        except Exception:
            log.exception("table %s: error sending to a client", self.settings.table_id)
            self.subscribers.pop(session, None)

    # -- snapshots ----------------------------------------------------------------------

    def _snapshot(self, seat: int | None) -> dict[str, Any]:
        """The table as ``seat`` sees it now (``None``: as a spectator)."""
        return {
            "type": "snapshot",
            "table": self.settings.table_id,
            "seq": self.seq,
            "view": protocol.view_body(self.table.view(seat), self._names(), self._bots()),
            "summary": self.summary(),
            "chat": list(self.chat_log),
            "show_seconds_left": self._pause_left(),
            "waiting_for": self.waiting_for,
        }

    def _pause_left(self) -> float | None:
        """Seconds left of the pause after a hand (None: not in one): a page reloaded
        during it still offers to show cards and hunt the rabbit."""
        if self.pause_ends is None:
            return None
        return round(max(0.0, self.pause_ends - asyncio.get_running_loop().time()), 3)

    def _names(self) -> dict[int, str]:
        return {s: seat.player.name for s, seat in self.seats.items()}

    def _bots(self) -> frozenset[int]:
        return frozenset(s for s, seat in self.seats.items() if seat.player.bot)

    def _cmd_spectate(self, session: Subscriber) -> dict[str, Any]:
        self.subscribers.setdefault(session, None)
        return self._snapshot(self.subscribers[session])

    def _resumed(self, session: Subscriber, seat: int | None, last_seq: int) -> dict[str, Any]:
        """Subscribe ``session`` for ``seat`` (``None``: a spectator), and answer its
        resume: a snapshot and the events it missed since ``last_seq``, as it may see them."""
        self.subscribers[session] = seat
        # Events from before this player sat are shown as a spectator saw them: the
        # seat's last occupant's cards are not the new occupant's to see.
        since = self.seats[seat].since_seq if seat is not None else self.seq
        missed = [
            {"seq": s, "hand_number": h,
             "event": protocol.event_body(redact(e, seat if s > since else None))}
            for s, h, e in self.log
            if s > last_seq
        ]  # fmt: skip
        # Complete when no event after last_seq has been dropped from the log. A seq
        # ahead of the table's is another life's (a table taken over numbers afresh).
        complete = last_seq <= self.seq and (not self.log or self.log[0][0] <= last_seq + 1)
        return {**self._snapshot(seat), "type": "resumed", "missed": missed, "complete": complete}
