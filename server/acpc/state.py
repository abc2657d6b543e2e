"""One hand as the ACPC dealer plays it: its rules, its text and its values.

A port of the dealer's game.c (project_acpc_server): ``initState``, ``currentPlayer``,
``raiseIsValid``, ``isValidAction``, ``doAction``, ``valueOfState``, and the printing of
``STATE:`` and ``MATCHSTATE:`` lines. It is kept apart from ``engine.Table`` on purpose:
the dealer's rules part from ours after a short all-in (the minimum raise still moves,
and betting is never closed to players who already acted; docs/rules.md, "ACPC games"),
and its pots split into fractions of a chip. A drop-in dealer must play its rules.

Positions are the dealer's: 0 is the first blind of the gamedef's ``blind`` line.

>>> from engine.acpc import KUHN_TEXT, parse
>>> hand = HandState(parse(KUHN_TEXT), 0, ((47,), (51,)), ())
>>> hand.apply(hand.fix(parse_action("r", hand.game)))
>>> hand.apply(hand.fix(parse_action("c", hand.game)))
>>> hand.state_line(), hand.value(0), hand.value(1)
('STATE:0:rc:Ks|As', -2.0, 2.0)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from engine.acpc import GameDef
from server.acpc.dealing import card_text

__all__ = ["MAX_SIZE", "Action", "HandState", "format_value", "parse_action"]

MAX_NUM_ACTIONS: Final = 64
# A raise size of more digits than this reads as MAX_SIZE (or -MAX_SIZE): more than any
# stack, so clamped as any raise out of range is, and never an int() of unbounded text
# (Python refuses one of over 4,300 digits: a ValueError, not a raise).
MAX_DIGITS: Final = 18
MAX_SIZE: Final = 10**MAX_DIGITS
# game.c charToAction: f/F fold, c/C and k/K call, r/R and b/B raise.
_KINDS: Final = {"f": "f", "c": "c", "k": "c", "r": "r", "b": "r"}
# sscanf's "%d": C white space, a sign, ASCII digits (not every Unicode digit, as \d is).
_SIZE = re.compile(r"[ \t\n\v\f\r]*([+-]?)0*([0-9]+)", re.ASCII)


@dataclass(frozen=True)
class Action:
    """``kind`` is ``f``, ``c`` or ``r``; ``size`` is a no-limit raise-to, counted over the
    whole hand (0 otherwise)."""

    kind: str
    size: int = 0

    def text(self, game: GameDef) -> str:
        return f"r{self.size}" if self.kind == "r" and game.betting == "nolimit" else self.kind


def parse_action(text: str, game: GameDef) -> Action | None:
    """The action a client wrote, read as game.c ``readAction`` reads it, or None when it
    does not parse (the dealer then calls for the player). Anything after the action is
    ignored, as the dealer ignores it. A size of any length is read: one of more than
    :data:`MAX_DIGITS` digits is :data:`MAX_SIZE`, beyond every stack.

    >>> from engine.acpc import KUHN_TEXT, parse
    >>> parse_action("K", parse(KUHN_TEXT)), parse_action("x", parse(KUHN_TEXT))
    (Action(kind='c', size=0), None)
    """
    kind = _KINDS.get(text[:1].lower())
    if kind is None:
        return None
    if kind != "r" or game.betting != "nolimit":
        return Action(kind)
    match = _SIZE.match(text, 1)
    if match is None:
        return None
    sign, digits = match.groups()
    size = MAX_SIZE if len(digits) > MAX_DIGITS else int(digits)
    return Action("r", -size if sign == "-" else size)


def format_value(value: float) -> str:
    """A value as the dealer prints it: ``%.6f``, then trailing zeros and point dropped."""
    text = f"{value:.6f}".rstrip("0")
    return text[:-1] if text.endswith(".") else text


class HandState:
    """A hand of ``game`` with every card dealt up front (game.c ``State``)."""

    def __init__(
        self,
        game: GameDef,
        hand_id: int,
        holes: tuple[tuple[int, ...], ...],
        board: tuple[int, ...],
    ) -> None:
        self.game, self.hand_id, self.holes, self.board = game, hand_id, holes, board
        n = game.num_players
        self.stack = game.stack
        # A missing firstPlayer line means position 1, as readGame's default.
        self.first = tuple((f or 1) - 1 for f in game.first_player)
        self.spent = list(game.blind)
        self.max_spent = max(game.blind)
        if game.betting == "nolimit":
            self.min_raise_to = 2 * self.max_spent if self.max_spent else 1
        else:
            self.min_raise_to = 0
        self.folded = [False] * n
        self.actions: list[list[Action]] = [[] for _ in range(game.num_rounds)]
        self.actors: list[list[int]] = [[] for _ in range(game.num_rounds)]
        self.round = 0
        self.finished = False

    # -- who acts ---------------------------------------------------------------------------

    def _next(self, player: int) -> int:
        n = self.game.num_players
        p = (player + 1) % n
        while self.folded[p] or self.spent[p] >= self.stack[p]:
            p = (p + 1) % n
        return p

    def current_player(self) -> int:
        """The position to act (game.c ``currentPlayer``)."""
        if self.actors[self.round]:
            return self._next(self.actors[self.round][-1])
        return self._next(self.first[self.round] + self.game.num_players - 1)

    def _acting(self) -> int:
        return sum(
            1
            for p in range(self.game.num_players)
            if not self.folded[p] and self.spent[p] < self.stack[p]
        )

    def _called(self) -> int:
        count = 0
        for action, p in zip(
            reversed(self.actions[self.round]), reversed(self.actors[self.round]), strict=True
        ):
            if action.kind in "rc" and self.spent[p] < self.stack[p]:
                count += 1
            if action.kind == "r":
                break
        return count

    # -- what is allowed ----------------------------------------------------------------------

    def raise_range(self) -> tuple[int, int] | None:
        """The raise-to sizes allowed now, or None if no raise is (game.c ``raiseIsValid``);
        (0, 0) in a limit game."""
        r = self.round
        if sum(a.kind == "r" for a in self.actions[r]) >= self.game.max_raises[r]:
            return None
        if len(self.actions[r]) + self.game.num_players > MAX_NUM_ACTIONS:
            return None
        if self._acting() <= 1:
            return None
        if self.game.betting != "nolimit":
            return 0, 0
        stack = self.stack[self.current_player()]
        if self.min_raise_to > stack:
            return None if self.max_spent >= stack else (stack, stack)
        return self.min_raise_to, stack

    def can_fold(self) -> bool:
        p = self.current_player()
        return self.spent[p] != self.max_spent and self.spent[p] != self.stack[p]

    def fix(self, action: Action | None) -> Action | None:
        """``action`` made legal as the dealer makes it (``isValidAction`` with
        ``tryFixing``): a no-limit raise out of range clamped to the nearest legal size.
        None if it cannot be, or if ``action`` is None: the dealer then calls."""
        if self.finished or action is None:
            return None
        if action.kind == "r":
            sizes = self.raise_range()
            if sizes is None:
                return None
            if self.game.betting == "nolimit":
                return Action("r", min(max(action.size, sizes[0]), sizes[1]))
            return Action("r")
        if action.kind == "f" and not self.can_fold():
            return None
        return Action(action.kind)

    def is_valid(self, action: Action) -> bool:
        """Whether ``action`` is legal exactly as written."""
        return self.fix(action) == action

    # -- playing --------------------------------------------------------------------------------

    def apply(self, action: Action | None) -> None:
        """Play a valid ``action`` for the player to act (game.c ``doAction``); None, as from
        :meth:`fix`, is a call."""
        action = action or Action("c")
        game, r = self.game, self.round
        p = self.current_player()
        self.actions[r].append(action)
        self.actors[r].append(p)
        if action.kind == "f":
            self.folded[p] = True
        elif action.kind == "c":
            self.spent[p] = min(self.max_spent, self.stack[p])
        else:
            if game.betting == "nolimit":
                self.min_raise_to = max(self.min_raise_to, 2 * action.size - self.max_spent)
                self.max_spent = action.size
            else:
                self.max_spent = min(self.max_spent + game.raise_size[r], self.stack[p])
            self.spent[p] = self.max_spent
        n = game.num_players
        if sum(self.folded) + 1 >= n:
            self.finished = True
        elif self._called() >= self._acting():
            if self._acting() > 1:
                if r + 1 < game.num_rounds:
                    self.round += 1
                    self.min_raise_to = max(1, *game.blind) + self.max_spent
                else:
                    self.finished = True
            else:
                self.finished = True
                self.round = game.num_rounds - 1

    # -- values ---------------------------------------------------------------------------------

    def value(self, player: int) -> float:
        """What ``player`` won (negative: lost) in a finished hand (game.c ``valueOfState``):
        side pots by what each spent, split equally among the best hands, fractions and all."""
        n = self.game.num_players
        if self.folded[player]:
            return -float(self.spent[player])
        if sum(self.folded) + 1 == n:
            return float(sum(self.spent[p] for p in range(n) if p != player))
        ranks: list[int] = []
        spent: list[int] = []
        me = -1
        for p in range(n):
            if self.spent[p] == 0:
                continue
            if p == player:
                me = len(ranks)
            ranks.append(-1 if self.folded[p] else self._rank(p))
            spent.append(self.spent[p])
        value = 0.0
        while True:
            size = min(spent)
            best = max(0, *ranks)
            winners = sum(1 for rank in ranks if rank == best)
            if ranks[me] == best:
                value += float(size * (len(ranks) - winners)) / float(winners)
            else:
                value -= float(size)
            spent = [s - size for s in spent]
            if spent[me] == 0:
                return value
            me = sum(1 for s in spent[:me] if s)
            ranks = [rank for rank, s in zip(ranks, spent, strict=True) if s]
            spent = [s for s in spent if s]

    def _rank(self, p: int) -> int:
        shown = sum(self.game.num_board_cards[: self.round + 1])
        return hand_rank((*self.holes[p], *self.board[:shown]))

    # -- text -------------------------------------------------------------------------------------

    def betting(self) -> str:
        return "/".join(
            "".join(a.text(self.game) for a in self.actions[r]) for r in range(self.round + 1)
        )

    def _board(self) -> str:
        parts, start = [], 0
        for r in range(self.round + 1):
            count = self.game.num_board_cards[r]
            parts.append("".join(map(card_text, self.board[start : start + count])))
            start += count
        return "".join("/" + part if r else part for r, part in enumerate(parts))

    def state_line(self) -> str:
        """The log's ``STATE:<hand>:<betting>:<every card>`` (game.c ``printState``)."""
        holes = "|".join("".join(map(card_text, h)) for h in self.holes)
        return f"STATE:{self.hand_id}:{self.betting()}:{holes}{self._board()}"

    def match_state(self, viewer: int) -> str:
        """What position ``viewer`` is sent (game.c ``printMatchState``): its own hole
        cards, and the others' only at a showdown, for those who did not fold."""
        showdown = self.finished and sum(self.folded) + 1 != self.game.num_players
        holes = "|".join(
            "".join(map(card_text, h)) if p == viewer or (showdown and not self.folded[p]) else ""
            for p, h in enumerate(self.holes)
        )
        return f"MATCHSTATE:{viewer}:{self.hand_id}:{self.betting()}:{holes}{self._board()}"

    def log_line(self, names: list[str]) -> str:
        """The log's line for a finished hand: state, values and names, by position."""
        n = self.game.num_players
        values = "|".join(format_value(self.value(p)) for p in range(n))
        return f"{self.state_line()}:{values}:{'|'.join(names)}"


def hand_rank(cards: tuple[int, ...]) -> int:
    """The strength of the best five of ``cards`` (fewer if there are fewer), bigger is
    better, as the dealer's ``rankCardset`` orders hands: straight flush, quads, full
    house, flush, straight, trips, two pair, pair, high card, each then by its ranks."""
    ranks = sorted((c // 4 for c in cards), reverse=True)

    def straight(present: set[int]) -> int:
        for top in range(12, 3, -1):
            if all((top - i) in present for i in range(5)):
                return top
        return 3 if {12, 0, 1, 2, 3} <= present else -1

    def score(category: int, kickers: list[int]) -> int:
        value = category
        for k in (kickers + [-1] * 5)[:5]:
            value = value * 14 + k + 1
        return value

    best_flush = -1
    for suit in range(4):
        suited = sorted((c // 4 for c in cards if c % 4 == suit), reverse=True)
        if len(suited) >= 5:
            top = straight(set(suited))
            if top >= 0:
                return score(8, [top])
            best_flush = max(best_flush, score(5, suited[:5]))
    counts = {r: ranks.count(r) for r in set(ranks)}
    by_count = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    quads = [r for r in by_count if counts[r] >= 4]
    if quads:
        return score(7, [quads[0], *[r for r in ranks if r != quads[0]][:1]])
    trips = sorted((r for r in counts if counts[r] >= 3), reverse=True)
    if trips:
        pairs = sorted((r for r in counts if counts[r] >= 2 and r != trips[0]), reverse=True)
        if pairs:
            return score(6, [trips[0], pairs[0]])
    if best_flush >= 0:
        return best_flush
    top = straight(set(ranks))
    if top >= 0:
        return score(4, [top])
    if trips:
        return score(3, [trips[0], *[r for r in ranks if r != trips[0]][:2]])
    pairs = sorted((r for r in counts if counts[r] >= 2), reverse=True)
    if len(pairs) >= 2:
        rest = [r for r in ranks if r not in pairs[:2]]
        return score(2, [pairs[0], pairs[1], *rest[:1]])
    if pairs:
        return score(1, [pairs[0], *[r for r in ranks if r != pairs[0]][:3]])
    return score(0, ranks[:5])
