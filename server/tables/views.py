"""What each subscriber may see: :class:`Fanout` numbers the engine's events, keeps the
log a resuming client catches up from and redacts each event for each seat (the engine
hides the cards, :func:`engine.redact`); :class:`Views` builds the snapshots a client
starts from or resumes with, the lobby's line for the table, and what goes to the bus."""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from engine import Event, HandEnded, PlayerSat, PlayerSatIn, PlayerSatOut, PlayerStood, redact
from server import protocol
from server.fairness import Shuffle
from server.tables.base import Subscriber
from server.tables.messages import Caller, Send, SendTable, StopDelay

if TYPE_CHECKING:
    from server.tables.core import TableCore

RECENT_SECONDS = 3600.0  # the lobby's statistics cover the last hour
_LOBBY_EVENTS = (PlayerSat, PlayerStood, PlayerSatOut, PlayerSatIn)  # change the summary


class Fanout:
    """The table's subscribers, its sequence numbers and its log of recent events."""

    def __init__(self, core: TableCore) -> None:
        self.core = core
        self.subscribers: dict[Subscriber, int | None] = {}  # session -> its seat (None: watching)
        self.seq = 0
        self.log: deque[tuple[int, int, Event]] = deque()  # (seq, hand number, event)

    def publish(self, events: list[Event]) -> None:
        """Number the events and send them: each subscriber gets them all at once, each
        event redacted for its seat, and each distinct text serialized once."""
        core = self.core
        table = core.table
        hand_number = table.hand_number
        batches: dict[Subscriber, list[str]] = {session: [] for session in self.subscribers}
        public = core.bus.topics.table_events(core.table_id) if core.bus.active else None
        last = len(events) - 1
        for i, event in enumerate(events):
            self.seq += 1
            self.log.append((self.seq, hand_number, event))
            texts: dict[bool, str] = {}  # as dealt, and redacted
            state = protocol.state_body(table.public_state()) if i == last else None
            for session, seat in self.subscribers.items():
                batches[session].append(self._event_text(texts, event, seat, hand_number, state))
            if public is not None:  # as a spectator sees it: no card that was not shown
                text = self._event_text(texts, event, None, hand_number, state)
                core.out.publish.append((public, text.encode(), False))
        if public is not None:
            if any(isinstance(event, _LOBBY_EVENTS) for event in events):
                core.views.publish_summary()
            core.out.state_changed = True
        ended = any(isinstance(event, HandEnded) for event in events)
        for session, batch in batches.items():
            core.out.deliveries.append(SendTable(session, hand_number, tuple(batch), ended))
        if ended:
            while self.log and self.log[0][1] <= hand_number - core.settings.hands_kept:
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
                self.core.table_id, self.seq, hand_number, seen, state
            )
        return text

    def send(self, session: Subscriber, message: dict[str, Any], *, urgent: bool = False) -> None:
        """A message for one session alone (a reply, a request), in the outbox."""
        self.core.out.deliveries.append(Send(session, protocol.dumps(message), urgent))

    def send_table(
        self, session: Subscriber, texts: list[str], hand_number: int | None = None
    ) -> None:
        """Messages about the table for one session, in order with its events."""
        number = self.core.table.hand_number if hand_number is None else hand_number
        self.core.out.deliveries.append(SendTable(session, number, tuple(texts)))

    def stop_delay(self, session: Subscriber) -> None:
        self.core.out.deliveries.append(StopDelay(session))

    def tell_everyone(self, message: dict[str, Any]) -> None:
        """A message about the table (not an engine event) to everyone watching it, in
        order with its events."""
        core = self.core
        text = protocol.dumps({"table": core.table_id, **message})
        for subscriber in self.subscribers:
            self.send_table(subscriber, [text])
        if not core.host.private and core.bus.active:  # spectators in other processes too
            self.to_bus(text)

    def to_bus(self, text: str) -> None:
        """A table message for spectators in other processes."""
        core = self.core
        core.out.publish.append((core.bus.topics.table_events(core.table_id), text.encode(), False))

    def before_hand(
        self, number: int, message: dict[str, Any], but: Subscriber | None = None
    ) -> None:
        """A message about hand ``number``, before its first event, to every subscriber
        (``but`` one) and the bus: numbered with that hand (no seq), so a spectator with a
        delay gets it in its place, and one in another process through the bus
        (server/remote.py relays these)."""
        core = self.core
        text = protocol.dumps(
            {"type": message["type"], "table": core.table_id, "hand_number": number, **message}
        )
        for session in self.subscribers:
            if session is not but:
                self.send_table(session, [text], number)
        if core.bus.active:
            self.to_bus(text)


class Views:
    """The table as its subscribers, the lobby and the bus see it."""

    def __init__(self, core: TableCore) -> None:
        self.core = core
        self.recent: deque[tuple[float, int]] = deque()  # (when a hand ended, its pot)

    def summary(self) -> dict[str, Any]:
        """The lobby's line for this table."""
        core = self.core
        cfg = core.table.config  # a mixed game's current game
        rules = protocol.config_body(cfg)
        return {
            "id": core.table_id,
            "name": core.settings.name,
            **rules,
            "options": {**rules["options"], "show_seconds": core.settings.show_seconds},
            "decision_seconds": core.settings.decision_seconds,
            "time_bank_seconds": core.settings.time_bank_seconds,
            "players": [
                {"seat": s, "name": seat.player.name, "stack": core.table.stack(s)}
                for s, seat in sorted(core.seats.occupants.items())
                if s in core.table.occupied()  # not a player who just busted, until freed
            ],
            "waiting": [player.name for player, _, _ in core.seats.waiting],
            "hands_played": core.hands_played,
            "mix": core.rotation.body(),
            **self._recent_play(),
            **({"address": core.address} if core.address is not None else {}),
        }

    def _recent_play(self) -> dict[str, int]:
        """The lobby's statistics over the last hour: the average pot, and the hands an
        hour (for a table younger than that, at the rate it has played since it opened,
        counted over at least a minute so that one quick hand is not thousands an hour)."""
        now = self.core.now
        while self.recent and now - self.recent[0][0] > RECENT_SECONDS:
            self.recent.popleft()
        pots = [pot for _, pot in self.recent]
        span = min(RECENT_SECONDS, max(60.0, now - self.core.opened_at))
        return {
            "average_pot": sum(pots) // len(pots) if pots else 0,
            "hands_per_hour": round(len(pots) * 3600 / span),
        }

    def publish_summary(self) -> None:
        """The lobby's view of the table, retained on the bus for whoever looks later (and
        the table's state). A private table's lobby line never goes on the bus: no lobby
        lists it."""
        core = self.core
        if not core.bus.active:
            return
        if not core.host.private:
            summary = protocol.dumps(self.summary()).encode()
            core.out.publish.append((core.bus.topics.lobby(core.table_id), summary, True))
        core.out.state_changed = True

    def joined(self, seat: int) -> None:
        """Who just sat in ``seat`` (engine events know seats, not people): their name,
        and whether they are a bot."""
        player = self.core.seats.occupants[seat].player
        self.core.fanout.tell_everyone(
            {"type": "player_joined", "seat": seat, "name": player.name, "bot": player.bot}
        )

    def announce_commitment(self, number: int, shuffle: Shuffle) -> None:
        """Hand ``number``'s deck commitment, to everyone: it goes out before any card,
        so the deck cannot change afterwards."""
        self.core.fanout.before_hand(
            number, {"type": "deck_commitment", "commitment": shuffle.commitment}
        )

    # -- snapshots ----------------------------------------------------------------------

    def snapshot(self, seat: int | None) -> dict[str, Any]:
        """The table as ``seat`` sees it now (``None``: as a spectator)."""
        core = self.core
        occupants = core.seats.occupants
        names = {s: o.player.name for s, o in occupants.items()}
        bots = frozenset(s for s, o in occupants.items() if o.player.bot)
        return {
            "type": "snapshot",
            "table": core.table_id,
            "seq": core.fanout.seq,
            "view": protocol.view_body(core.table.view(seat), names, bots),
            "summary": self.summary(),
            "chat": list(core.chat.log),
            "show_seconds_left": core.options.pause_left(),
            "waiting_for": core.waiting_for,
        }

    def spectate(self, m: protocol.Spectate, caller: Caller) -> dict[str, Any]:
        session, core = caller.subscriber, self.core
        core.host.refuse_uninvited(m.invite, caller.player_or_none)
        subscribers = core.fanout.subscribers
        subscribers.setdefault(session, None)
        reply = self.snapshot(subscribers[session])
        core.host.came_back(session, caller.player_or_none)
        return reply

    def resumed(self, session: Subscriber, seat: int | None, last_seq: int) -> dict[str, Any]:
        """Subscribe ``session`` for ``seat`` (``None``: a spectator), and answer its
        resume: a snapshot and the events it missed since ``last_seq``, as it may see them."""
        fanout = self.core.fanout
        fanout.subscribers[session] = seat
        # Events from before this player sat are shown as a spectator saw them: the
        # seat's last occupant's cards are not the new occupant's to see.
        since = self.core.seats.occupants[seat].since_seq if seat is not None else fanout.seq
        missed = [
            {"seq": s, "hand_number": h,
             "event": protocol.event_body(redact(e, seat if s > since else None))}
            for s, h, e in fanout.log
            if s > last_seq
        ]  # fmt: skip
        # Complete when no event after last_seq has been dropped from the log. A seq
        # ahead of the table's is another life's (a table taken over numbers afresh).
        log = fanout.log
        complete = last_seq <= fanout.seq and (not log or log[0][0] <= last_seq + 1)
        return {**self.snapshot(seat), "type": "resumed", "missed": missed, "complete": complete}

    def state_text(self) -> bytes:
        """The table's retained state on the bus: a spectator's snapshot."""
        return protocol.dumps(self.snapshot(None)).encode()
