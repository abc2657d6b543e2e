"""A seat of our table seen as an ACPC position: the ``MATCHSTATE`` lines its events make,
and our action for the bot's reply. The gateway's translation (:mod:`server.acpc.gateway`),
without I/O: events in, lines out; a reply and a menu in, an action out.

Each hand the seat is dealt into is numbered from 0 by the gateway's own count. Positions
run from the first player left of the button (``hand_started``'s ``seats``), which is
the ACPC gamedefs' numbering: heads-up, 0 is the big blind and 1 the button; three or
more, 0 is the small blind. The hand replays on :class:`server.acpc.state.HandState`
(game.c's rules) with a gamedef of that hand: its players, the blinds they posted, the
stacks they started with (antes and dead blinds left out: ACPC has none; a game without
blinds writes its antes as blinds). That gives the betting string, raise-to amounts over
the whole hand, and who is to act.

A line is due at the start of the hand (once the seat's hole cards are dealt), after
every action (once the next round's board cards are dealt, if the action closed a round)
and at the end of the hand, with the cards shown at showdown; never for a hand the seat
is not sent (:attr:`SeatTranslator.any_players`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import IO, Any

from engine import Action as EngineAction
from engine import ActionMenu, BetOrRaiseTo, CheckOrCall, Fold, Game
from engine.acpc import GameDef
from server.acpc.dealing import card_text
from server.acpc.gamedefs import acpc_card
from server.acpc.lines import MAX_LINE, shown
from server.acpc.state import Action, HandState, parse_action
from server.bots.wire import card_from_json

__all__ = ["Answer", "SeatTranslator", "StrictRefusal"]

_BLINDS = ("small_blind", "big_blind", "blind", "straddle")


class StrictRefusal(Exception):
    """Strict mode: the bot's reply needed fixing; the message says why."""


@dataclass(frozen=True)
class Answer:
    """Our action for the bot's reply, and what had to be fixed on the way (None: nothing)."""

    action: EngineAction
    warning: str | None = None


class _Hand:
    """One hand the seat is dealt into, followed event by event."""

    def __init__(
        self, hand_id: int, started: Mapping[str, Any], seat: int, base: GameDef, game: Game
    ) -> None:
        seats = [int(s) for s in started["seats"]]
        self.hand_id, self.base, self.game = hand_id, base, game
        self.n = len(seats)
        self.position = {s: p for p, s in enumerate(seats)}
        self.me = self.position[seat]
        self.stacks = [int(s) for s in started["stacks"]]
        # Who opens the betting: left of the big blind (with no blinds, of the button).
        big = started.get("big_blind_seat")
        self.opener = self.position.get(big, self.n - 1) if isinstance(big, int) else self.n - 1
        self.opener = (self.opener + 1) % self.n
        self.blinds = [0] * self.n
        self.dead = [0] * self.n
        self.state: HandState | None = None
        self.holes: list[tuple[int, ...]] = [()] * self.n
        self.board: tuple[int, ...] = ()
        self.round_start = [0] * self.n  # what each had spent when this round began
        self.due = True  # a line is due once its cards are known
        self.ended = False
        self.problem: str | None = None  # why this hand is no longer followed

    def _cards(self, values: list[str] | None) -> tuple[int, ...]:
        return tuple(acpc_card(card_from_json(v), self.game.deck) for v in values or ())

    def _start(self) -> None:
        """The forced bets are in: the hand's own gamedef, and its state on game.c's rules
        (the cards in it are stand-ins: it is never asked who won)."""
        rounds = self.base.num_rounds
        game = replace(
            self.base,
            num_players=self.n,
            blind=tuple(self.blinds),
            stack=tuple(
                max(s - d, b) for s, d, b in zip(self.stacks, self.dead, self.blinds, strict=True)
            ),
            first_player=(self.opener + 1,) + (1,) * (rounds - 1),
        )
        holes = ((0,) * game.num_hole_cards,) * self.n
        self.state = HandState(game, self.hand_id, holes, (0,) * sum(game.num_board_cards))

    def apply(self, event: Mapping[str, Any]) -> str | None:
        """Follow one event; the line then due, if any."""
        kind = event.get("type")
        seat = event.get("seat")
        p = self.position.get(seat, -1) if isinstance(seat, int) else -1
        if kind == "forced_bet_posted" and p >= 0:
            live = event["kind"] in _BLINDS or (event["kind"] == "ante" and not self.game.blinds)
            (self.blinds if live else self.dead)[p] += int(event["increment"])
        elif kind == "hole_cards_dealt" and p >= 0:
            if self.state is None:
                self._start()
            if event.get("cards") is not None:
                self.holes[p] = self._cards(event["cards"])
        elif kind == "action_taken" and p >= 0:
            self._action(p, event)
        elif kind == "board_dealt":
            self.board = self._cards(event["board"])
        elif kind == "cards_shown" and p >= 0:
            self.holes[p] = self._cards(event["cards"])
        elif kind == "hand_ended":
            self.board = self._cards(event["board"])
            self.ended = self.due = True
            self._ended_all_in()
        return self._line_if_due()

    def _ended_all_in(self) -> None:
        """Our table ended the hand: when at most one player could still bet (all in by
        the blinds, short of the big blind, which the dealer never deals), it is written
        as game.c writes an all-in hand, every round shown; otherwise the two part."""
        state = self.state
        if state is None or state.finished or self.problem is not None:
            return
        n = state.game.num_players
        if sum(1 for p in range(n) if not state.folded[p] and state.spent[p] < state.stack[p]) > 1:
            self.problem = "the hand ended before game.c's rules would end it"
            return
        state.finished = True
        state.round = state.game.num_rounds - 1

    def _action(self, p: int, event: Mapping[str, Any]) -> None:
        state = self.state
        if state is None or self.problem is not None:
            return
        if state.finished or state.current_player() != p:
            self.problem = f"position {p} acted where game.c's rules have another to act"
            return
        kind = event["kind"]
        if kind == "fold":
            action = Action("f")
        elif kind in ("check", "call"):
            action = Action("c")
        elif kind in ("bet", "raise"):
            size = self.round_start[p] + int(event["street_total"])
            action = Action("r", size if state.game.betting == "nolimit" else 0)
        else:
            self.problem = f"an action ACPC cannot write: {kind!r}"
            return
        r = state.round
        state.apply(action)
        if state.round != r:
            self.round_start = list(state.spent)
        self.due = True

    def _line_if_due(self) -> str | None:
        state = self.state
        if not self.due or state is None or self.problem is not None or not self.holes[self.me]:
            return None
        if state.finished and not self.ended:
            return None  # the final line comes with the hand's end: the cards shown, the board
        if len(self.board) < sum(state.game.num_board_cards[: state.round + 1]):
            return None  # the round's cards come next
        self.due = False
        return self.line()

    def line(self) -> str:
        assert self.state is not None
        state = self.state
        holes = "|".join("".join(map(card_text, h)) for h in self.holes)
        board, start = "", 0
        for r in range(state.round + 1):
            count = state.game.num_board_cards[r]
            part = "".join(map(card_text, self.board[start : start + count]))
            board += f"/{part}" if r else part
            start += count
        return f"MATCHSTATE:{self.me}:{self.hand_id}:{state.betting()}:{holes}{board}"

    def to_act(self) -> bool:
        state = self.state
        return (
            state is not None
            and self.problem is None
            and not state.finished
            and state.current_player() == self.me
        )


class SeatTranslator:
    """One seat, hand after hand. ``base`` is the gamedef the bot plays (its rounds, cards,
    limit raise sizes and caps); ``game`` the table's game. A hand dealt to another number of
    players than ``base`` has is not sent unless ``any_players``: the gateway then plays it
    safe (check, else fold) at once, and the bot sees a gap in the hand numbers."""

    def __init__(self, base: GameDef, game: Game, *, any_players: bool = False) -> None:
        self.base, self.game, self.any_players = base, game, any_players
        self.hands = 0  # hands dealt to the seat: the next one's number
        self.skipped = 0
        self.lines = 0
        self.line: str | None = None  # the last line sent
        self._hand: _Hand | None = None

    def apply(self, event: Mapping[str, Any], seat: int, err: IO[str]) -> str | None:
        """Follow one event of the table, seen from ``seat``; the line to send, if any."""
        if event.get("type") == "hand_started":
            self._hand = None
            if seat not in event["seats"]:
                return None
            self.hands += 1
            if len(event["seats"]) != self.base.num_players and not self.any_players:
                self.skipped += 1
                print(
                    f"WARNING: hand {self.hands - 1} is dealt to {len(event['seats'])} players,"
                    f" the gamedef to {self.base.num_players}: not sent to the bot;"
                    " the gateway checks or folds for it",
                    file=err,
                    flush=True,
                )
                return None
            self._hand = _Hand(self.hands - 1, event, seat, self.base, self.game)
            return None
        hand = self._hand
        if hand is None:
            return None
        problem = hand.problem
        line = hand.apply(event)
        if hand.problem is not None and problem is None:
            print(
                f"WARNING: hand {hand.hand_id}: {hand.problem}; no more lines this hand",
                file=err,
                flush=True,
            )
        if event.get("type") == "hand_ended":
            self._hand = None
        if line is not None:
            self.line = line
            self.lines += 1
        return line

    def forget_hand(self) -> None:
        """The table's events were lost (or the seat moved): the hand is not followed."""
        self._hand = None

    def bot_to_act(self) -> bool:
        """Whether the last line sent is the bot's to answer."""
        hand = self._hand
        return hand is not None and hand.to_act() and hand.line() == self.line

    def answer(self, text: str, menu: ActionMenu, *, strict: bool, cut: bool = False) -> Answer:
        """Our action for the bot's reply ``text`` (what follows the state) to the current
        line, fixed as the ACPC dealer fixes it: an action that does not parse or is not
        allowed is a call, a no-limit raise out of range is clamped, and so is a size of
        any number of digits. A reply whose line was ``cut`` (longer than 4,096 bytes) is
        not read: a call. ``strict`` raises :class:`StrictRefusal` instead of fixing. Our
        table's menu has the last word."""
        hand = self._hand
        assert hand is not None and hand.state is not None
        state = hand.state
        action = None if cut else parse_action(text, state.game)
        fixed = state.fix(action)
        problem = None
        if cut:
            problem = f"a line longer than {MAX_LINE} bytes"
        elif action is None:
            problem = f"cannot read action {shown(text)}"
        elif fixed is None:
            problem = f"action {shown(text)} is not allowed now"
        elif fixed != action:
            low, high = state.raise_range() or (0, 0)
            problem = f"raise to {action.size} is outside {low}..{high}"
        if problem is not None and strict:
            raise StrictRefusal(problem)
        warning = None
        if problem is not None:
            warning = (
                f"{problem}: {'clamped to ' + str(fixed.size) if fixed else 'changed to call'}"
            )
        return _ours(fixed or Action("c"), menu, hand.round_start[hand.me], state, warning)


def _ours(
    action: Action, menu: ActionMenu, prior: int, state: HandState, warning: str | None
) -> Answer:
    """Our table's action for the dealer's ``action``: a raise-to over the hand less what
    the seat put in before this round (``prior``), within our menu (our rules part from
    game.c's after a short all-in); what our menu does not allow is a call."""
    seat = menu.seat
    if action.kind == "f" and menu.can_fold:
        return Answer(Fold(seat), warning)
    if action.kind == "r" and menu.can_raise:
        wanted = action.size - prior if state.game.betting == "nolimit" else menu.min_raise_to
        amount = min(max(wanted, menu.min_raise_to), menu.max_raise_to)
        if amount != wanted:
            note = f"our table's raise range is {menu.min_raise_to}..{menu.max_raise_to} this round"
            warning = f"{warning}; {note}" if warning else f"raise to {wanted} this round: {note}"
        return Answer(BetOrRaiseTo(seat, amount), warning)
    if action.kind != "c":
        note = "our table does not allow it now: a call"
        warning = f"{warning}; {note}" if warning else f"{action.text(state.game)}: {note}"
    return Answer(CheckOrCall(seat), warning)
