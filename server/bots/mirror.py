"""One seat's picture of a table, kept from the server's messages: the bot SDK's mirror.

A client gets a table's ``snapshot`` (or ``resumed``) and then every ``event`` after it;
:class:`TableMirror` applies them in order and gives, at each decision, the same
:class:`engine.TableView` the engine would give that seat, so a bot playing over the
network sees exactly what a house bot sees: in every game, with stud's up cards, the
seat's own cards after each draw, and everyone's dice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import IntEnum
from typing import Any

from engine import ActionMenu, AnteKind, Card, SeatView, TableConfig, TableView
from server.bots.wire import cards_from_json, config_from_summary, street_from_json

__all__ = ["TableMirror"]


@dataclass(slots=True)
class _SeatState:
    stack: int
    name: str = ""
    in_hand: bool = False
    folded: bool = False
    all_in: bool = False
    street_total: int = 0
    hand_total: int = 0
    sitting_out: bool = False
    waiting_for_big_blind: bool = False
    cards: tuple[Card, ...] | None = None
    up_cards: tuple[Card, ...] = ()


def _replace_drawn(
    hand: tuple[Card, ...], discarded: tuple[Card, ...], drawn: tuple[Card, ...]
) -> tuple[Card, ...]:
    """A hand after a draw: each card thrown away replaced, in its place, by the next card
    drawn (as the engine does; a repeated die's first places first)."""
    taken = list(discarded)
    replacement = iter(drawn)
    cards = list(hand)
    for i, card in enumerate(cards):
        if card in taken:
            taken.remove(card)
            cards[i] = next(replacement)
    return tuple(cards)


class TableMirror:
    """One seat's picture of a table: built from a ``snapshot`` (or ``resumed``) message and
    kept current by applying each ``event`` body in order.

    :meth:`view` gives the :class:`TableView` the engine would give that seat. Whose turn
    it is and the pots are the server's, as the last event of each batch says them
    (``state``): the mirror does not work them out.
    """

    def __init__(self, table: str, config: TableConfig, viewer: int | None) -> None:
        self.table = table
        self.config = config
        self.viewer = viewer
        self.hand_number = 0
        self.hand_in_progress = False
        self.street: IntEnum | None = None
        self.board: tuple[Card, ...] = ()
        self.button: int | None = None
        self.seats: dict[int, _SeatState] = {}
        self.to_act: int | None = None
        """Whose turn it is, as the server last said."""
        self._pots: tuple[int, ...] = ()
        # A draw street's betting starts once every seat still in has drawn (the engine
        # keeps the last round's street totals until then); after a snapshot taken during
        # the draw, at the first action or betting menu. None: not known since a snapshot.
        self._drawn: set[int] = set()
        self._betting: bool | None = True

    def set_config(self, config: TableConfig) -> None:
        """A mixed game's next game: like the engine's ``Table.set_config``, between
        hands, forgetting the last hand's street, board and cards."""
        self.config = config
        self.street, self.board = None, ()
        for seat in self.seats.values():
            seat.cards, seat.up_cards = None, ()
            seat.in_hand = seat.folded = seat.all_in = False
            seat.street_total = seat.hand_total = 0

    @classmethod
    def from_snapshot(
        cls, message: Mapping[str, Any], config: TableConfig | None = None
    ) -> TableMirror:
        """From a ``snapshot`` or ``resumed`` message (``config`` defaults to what its
        ``summary`` says)."""
        view = message["view"]
        if config is None:
            config = config_from_summary(message["summary"])
        mirror = cls(str(message["table"]), config, view["viewer"])
        mirror.hand_number = int(view["hand_number"])
        mirror.hand_in_progress = bool(view["hand_in_progress"])
        mirror.street = street_from_json(view["street"], config.game)
        mirror.board = cards_from_json(view["board"]) or ()
        mirror.button = view["button"]
        for s in view["seats"]:
            mirror.seats[int(s["seat"])] = _SeatState(
                stack=int(s["stack"]),
                name=str(s.get("name", "")),
                in_hand=bool(s["in_hand"]),
                folded=bool(s["folded"]),
                all_in=bool(s["all_in"]),
                street_total=int(s["street_total"]),
                hand_total=int(s["hand_total"]),
                sitting_out=bool(s["sitting_out"]),
                waiting_for_big_blind=bool(s["waiting_for_big_blind"]),
                cards=cards_from_json(s["cards"]),
                up_cards=cards_from_json(s.get("up_cards")) or (),
            )
        mirror._pots = tuple(int(p) for p in view["pots"])
        mirror.to_act = view["to_act"]
        street = mirror.street
        if street is not None and config.game.streets[street].draw:
            mirror._betting = None  # the draw, or the betting after it: the next event says
        return mirror

    @property
    def names(self) -> dict[int, str]:
        """Who sits where, as far as the snapshot said (events do not carry names)."""
        return {seat: s.name for seat, s in self.seats.items()}

    def stack(self, seat: int) -> int | None:
        state = self.seats.get(seat)
        return None if state is None else state.stack

    def apply(self, event: Mapping[str, Any], after: Mapping[str, Any] | None = None) -> None:
        """Apply one event body (``message["event"]``) and, on the last event of a batch,
        the table's state after it (``message["state"]``); unknown types change nothing."""
        if after is not None:
            self._told(after)
        kind = event.get("type")
        seat = event.get("seat")
        state = self.seats.get(seat) if isinstance(seat, int) else None
        match kind:
            case "hand_started":
                self._hand_started(event)
            case "forced_bet_posted" | "action_taken" if state is not None:
                self._chips_in(state, event)
            case "hole_cards_dealt" if state is not None:
                street = self.street
                if street is not None and all(self.config.game.streets[street].hole):
                    # Stud's last card, down: its street is named by no event.
                    self._new_street(self.config.game.street(street + 1))
                if event.get("cards") is not None:
                    state.cards = (state.cards or ()) + (cards_from_json(event["cards"]) or ())
            case "up_cards_dealt" if state is not None:
                self._dealt_up(seat, state, event)
            case "cards_drawn" if state is not None and isinstance(seat, int):
                self._drew(seat, state, event)
            case "board_dealt":
                self._street_named(event["street"])
                self.board = cards_from_json(event["board"]) or ()
            case "uncalled_bet_returned" if state is not None:
                amount = int(event["amount"])
                state.street_total -= amount
                state.hand_total -= amount
                state.stack = int(event["stack"])
                state.all_in = state.stack == 0
            case "cards_shown" if state is not None:
                state.cards = cards_from_json(event["cards"])
                if self.config.game.up_cards:  # a tabled hand is face up
                    state.up_cards = state.cards or ()
            case "hand_ended":
                self.hand_in_progress = False
                self.board = cards_from_json(event["board"]) or ()
                for s, stack in event["stacks"]:
                    if s in self.seats:
                        self.seats[s].stack = int(stack)
            case "player_sat":
                self.seats[int(event["seat"])] = _SeatState(
                    stack=int(event["stack"]),
                    waiting_for_big_blind=bool(event["waiting_for_big_blind"]),
                )
            case "player_stood":
                self.seats.pop(int(event["seat"]), None)
            case "player_sat_out" if state is not None:
                state.sitting_out = True
            case "player_sat_in" if state is not None:
                state.sitting_out = False
                state.waiting_for_big_blind = bool(event["waiting_for_big_blind"])
            case _:
                pass  # cards_mucked, pot_awarded: stacks arrive with hand_ended

    def _told(self, state: Mapping[str, Any]) -> None:
        """The server's word on whose turn it is and the pots."""
        self._pots = tuple(int(p) for p in state["pots"])
        self.to_act = state["to_act"]

    def _dealt_up(self, seat: object, state: _SeatState, event: Mapping[str, Any]) -> None:
        """Cards (or dice) dealt face up: public, and part of the seat's own cards."""
        self._street_named(event["street"])
        cards = cards_from_json(event["cards"]) or ()
        state.up_cards += cards
        if seat == self.viewer or state.cards is not None:  # theirs too once tabled
            state.cards = (state.cards or ()) + cards

    def _new_street(self, street: IntEnum) -> None:
        if self._betting is not True:
            # The last street's draw ended before we saw all of it (after a snapshot); its
            # betting round opened, with nobody able to bet, before this street began.
            self._betting_starts()
        self.street = street
        self._drawn.clear()
        self._betting = False
        if not self.config.game.streets[street].draw:
            self._betting_starts()

    def _betting_starts(self) -> None:
        self._betting = True
        for s in self.seats.values():
            s.street_total = 0

    def _street_named(self, name: str) -> None:
        """An event names its street: a new one starts when it is not the current one."""
        street = street_from_json(name, self.config.game)
        if street is not None and street != self.street:
            self._new_street(street)

    def _drew(self, seat: int, state: _SeatState, event: Mapping[str, Any]) -> None:
        """A draw: the seat's own cards (or face-up dice) change in place; the street's
        betting starts once every seat still in has drawn."""
        self._street_named(event["street"])
        self._betting = False  # (already, unless a snapshot came mid-draw)
        self._drawn.add(seat)
        discarded = cards_from_json(event.get("discarded"))
        drawn = cards_from_json(event.get("drawn"))
        if discarded is not None and drawn is not None:
            if state.cards is not None:
                state.cards = _replace_drawn(state.cards, discarded, drawn)
            if event.get("face_up"):
                state.up_cards = _replace_drawn(state.up_cards, discarded, drawn)
        still_in = {q for q, s in self.seats.items() if s.in_hand and not s.folded}
        if still_in <= self._drawn:
            self._betting_starts()

    def _learn_from_menu(self, legal: ActionMenu) -> None:
        """A menu can say what no event has yet: the draw is over (a betting menu), or a
        draw has begun with this seat the first to draw."""
        street = self.street
        if not legal.can_draw:
            if self._betting is False:
                self._betting_starts()
        elif street is not None and (
            not self.config.game.streets[street].draw
            or self._betting is True
            or self._viewer_drew()
        ):
            self._new_street(self.config.game.street(street + 1))

    def _viewer_drew(self) -> bool:
        """Whether the viewer has drawn this street: seen, or (after a snapshot taken during
        the draw) someone after them in the drawing order, from left of the button, has."""
        if self.viewer in self._drawn:
            return True
        if self.viewer is None or self.button is None:
            return False
        seats, button = self.config.seats, self.button

        def order(seat: int) -> int:
            return (seat - button - 1) % seats

        return any(order(seat) > order(self.viewer) for seat in self._drawn)

    def _chips_in(self, state: _SeatState, event: Mapping[str, Any]) -> None:
        """A forced bet or an action: the event has the seat's new amounts."""
        if event.get("type") == "action_taken":
            self._street_named(event["street"])
            if self._betting is False:
                self._betting_starts()
            self._betting = True
        state.street_total = int(event["street_total"])
        state.hand_total = int(event["hand_total"])
        state.stack = int(event["stack"])
        state.all_in = bool(event["all_in"])
        if event.get("kind") == "fold":
            state.folded = True

    def _hand_started(self, event: Mapping[str, Any]) -> None:
        # The hand's stakes, as a tournament's level sets them: the event says them all.
        self.config = replace(
            self.config, small_blind=int(event["small_blind"]), big_blind=int(event["big_blind"]),
            ante=int(event["ante"]),
            ante_kind=AnteKind(event.get("ante_kind", self.config.ante_kind.value)),
        )  # fmt: skip
        self.hand_number = int(event["hand_number"])
        self.hand_in_progress = True
        self.street = self.config.game.street(0)
        self.board = ()
        self._drawn.clear()
        self._betting = True
        self.button = event["button"]
        dealt = dict(zip(event["seats"], event["stacks"], strict=True))
        for seat in dealt:
            self.seats.setdefault(seat, _SeatState(stack=0))
        for seat, s in self.seats.items():
            s.in_hand = seat in dealt
            s.folded = s.all_in = False
            s.street_total = s.hand_total = 0
            s.cards = None
            s.up_cards = ()
            if s.in_hand:
                s.stack = int(dealt[seat])
                s.waiting_for_big_blind = False  # dealt in: done waiting

    def pots(self) -> tuple[int, ...]:
        """Main pot then side pots from the streets already played (this street's chips are
        each seat's ``street_total``), as the server last said; empty between hands."""
        return self._pots if self.hand_in_progress else ()

    def view(self, *, legal: ActionMenu | None = None) -> TableView:
        """The viewer's :class:`TableView`, with ``legal`` as given (the menu of an
        action request)."""
        if legal is not None:
            self.to_act = legal.seat  # a menu is that seat's turn, whatever was said before
            self._learn_from_menu(legal)
        live = self.hand_in_progress
        seats = tuple(
            SeatView(
                seat=seat,
                stack=s.stack,
                in_hand=s.in_hand,
                folded=s.in_hand and s.folded,
                all_in=s.in_hand and s.all_in,
                street_total=s.street_total if s.in_hand and live else 0,
                hand_total=s.hand_total if s.in_hand else 0,
                sitting_out=s.sitting_out,
                waiting_for_big_blind=s.waiting_for_big_blind,
                has_cards=s.in_hand and not s.folded,
                cards=s.cards if s.in_hand else None,
                up_cards=s.up_cards if s.in_hand else (),
            )
            for seat, s in sorted(self.seats.items())
        )
        return TableView(
            viewer=self.viewer,
            config=self.config,
            hand_number=self.hand_number,
            hand_in_progress=live,
            street=self.street,
            board=self.board,
            pots=self.pots(),
            button=self.button,
            to_act=self.to_act if live else None,
            seats=seats,
            legal=legal,
        )
