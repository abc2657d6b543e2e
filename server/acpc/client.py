"""Our bots at any ACPC dealer: an ACPC protocol 2.0.0 player (``pokerroom acpc play``).

The player connects to its seat's port, sends ``VERSION:2.0.0`` and reads
``MATCHSTATE:<position>:<hand>:<betting>:<cards>`` lines until the dealer closes the
connection. When the state says it is to act, it answers with that line, ``:`` and its
action (``f``, ``c``, ``r`` in limit, ``r<N>`` in no-limit with N the raise-to over the
whole hand), ending the line with ``\\r\\n``.

The bot is asked as at our own tables, with an :class:`engine.TableView` and an
:class:`engine.ActionMenu`. Both come from an :class:`engine.Table` of the gamedef
(:meth:`engine.acpc.GameDef.table_config`) dealt the state's cards, with unused cards
standing in for those the state hides (the view never shows them), that replays the
state's betting. The dealer's rules decide, though, not ours: the same betting replays on
:class:`server.acpc.state.HandState` (game.c's rules), which must agree on who acts, and
the menu's fold, call and raise sizes are the dealer's (they part from ours after a short
all-in). Our menus count a raise as the street total; the dealer's ``r<N>`` counts the
whole hand, so N is the bot's raise-to plus what the player put in on earlier streets.

Each hand's result is the dealer's ``valueOfState`` of the final state the player is sent
(what it won or lost, fractions of split pots and all); :class:`MatchSummary` adds them up.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sys
from dataclasses import dataclass, replace
from typing import IO, Final

from engine import Action as EngineAction
from engine import (
    ActionMenu,
    BetOrRaiseTo,
    Card,
    CheckOrCall,
    Deck,
    EngineError,
    Fold,
    Table,
    TableConfig,
    TableView,
)
from engine.acpc import GameDef, parse
from server.acpc.dealing import RANKS, SUITS
from server.acpc.lines import MAX_LINE, read_line
from server.acpc.state import Action, HandState, parse_action
from server.bots.strategies import Bot

__all__ = [
    "HUNL_TEXT",
    "AcpcPlayer",
    "ClientError",
    "MatchState",
    "MatchSummary",
    "load_gamedef",
    "parse_match_state",
    "play_match",
]

VERSION_LINE: Final = "VERSION:2.0.0"
# The ACPC's heads-up no-limit hold'em (holdem.nolimit.2p.reverse_blinds.game): the game
# a player plays when it is given no gamedef.
HUNL_TEXT: Final = """GAMEDEF
nolimit
numPlayers = 2
numRounds = 4
stack = 20000 20000
blind = 100 50
firstPlayer = 2 1 1 1
numSuits = 4
numRanks = 13
numHoleCards = 2
numBoardCards = 0 3 1 1
END GAMEDEF
"""
_MOVE = re.compile(r"[fckrbFCKRB]\d*")
_CARD = re.compile(r"[2-9TJQKA][cdhs]")


class ClientError(Exception):
    """The player cannot go on: no connection, or a gamedef our tables cannot play."""


@dataclass(frozen=True)
class MatchState:
    """One ``MATCHSTATE`` line, read. Cards are the dealer's ``rank * 4 + suit``; a hole
    the viewer may not see is None; ``board`` is every board card shown so far."""

    line: str
    position: int
    hand_id: int
    moves: tuple[Action, ...]
    holes: tuple[tuple[int, ...] | None, ...]
    board: tuple[int, ...]


def _cards(text: str) -> tuple[int, ...]:
    if _CARD.sub("", text):
        raise ValueError(f"cannot read cards {text!r}")
    return tuple(
        RANKS.index(text[i]) * 4 + SUITS.index(text[i + 1]) for i in range(0, len(text), 2)
    )


def parse_match_state(line: str, game: GameDef) -> MatchState:
    """Read a ``MATCHSTATE`` line of ``game``; raises :class:`ValueError` saying what is
    wrong.

    >>> from engine.acpc import KUHN_TEXT, parse
    >>> state = parse_match_state("MATCHSTATE:1:0:r:|As", parse(KUHN_TEXT))
    >>> state.position, state.moves, state.holes
    (1, (Action(kind='r', size=0),), (None, (51,)))
    """
    parts = line.split(":")
    if len(parts) != 5 or parts[0] != "MATCHSTATE":
        raise ValueError(f"not a MATCHSTATE line: {line!r}")
    try:
        position, hand_id = int(parts[1]), int(parts[2])
    except ValueError:
        raise ValueError(f"bad position or hand number in {line!r}") from None
    if not 0 <= position < game.num_players:
        raise ValueError(f"position {position} in {line!r}: the game has {game.num_players}")
    moves = []
    for text in _MOVE.findall(parts[3]):
        action = parse_action(text, game)
        if action is None:
            raise ValueError(f"cannot read action {text!r} in {line!r}")
        moves.append(action)
    if _MOVE.sub("", parts[3]).replace("/", ""):
        raise ValueError(f"cannot read the betting of {line!r}")
    hole_text, *board_text = parts[4].split("/")
    holes = [_cards(h) or None for h in hole_text.split("|")]
    if len(holes) != game.num_players or holes[position] is None:
        raise ValueError(f"the cards of {line!r} do not fit the game")
    return MatchState(
        line, position, hand_id, tuple(moves), tuple(holes), _cards("".join(board_text))
    )


def _dealer_hand(state: MatchState, game: GameDef) -> HandState:
    """The dealer's hand of ``state``, its betting replayed; unused cards stand in for
    those hidden (they are never ranked: a hand is only valued once its cards show)."""
    known = {c for h in state.holes if h for c in h} | set(state.board)
    spare = iter(
        c
        for c in (r * 4 + s for s in range(4 - game.num_suits, 4) for r in range(13))
        if c not in known
    )
    holes = tuple(h or tuple(next(spare) for _ in range(game.num_hole_cards)) for h in state.holes)
    rest = sum(game.num_board_cards) - len(state.board)
    hand = HandState(
        game, state.hand_id, holes, state.board + tuple(next(spare) for _ in range(rest))
    )
    for action in state.moves:
        if hand.finished or not hand.is_valid(action):
            raise ValueError(f"the betting of {state.line!r} breaks the game's rules")
        hand.apply(action)
    return hand


def _known_value(state: MatchState, hand: HandState) -> float | None:
    """What the viewer won in a finished hand, if the state shows the cards that decide
    it: none after everyone else folded; at a showdown, every remaining hand and the board."""
    game, n = hand.game, hand.game.num_players
    if sum(hand.folded) + 1 == n:
        return hand.value(state.position)
    shown = sum(game.num_board_cards[: hand.round + 1])
    if len(state.board) < shown:
        return None
    if any(state.holes[p] is None for p in range(n) if not hand.folded[p]):
        return None
    return hand.value(state.position)


@dataclass
class MatchSummary:
    """A match as one player saw it. ``won`` adds up the hands whose final state showed
    what decided them; ``unvalued`` counts the others. ``corrected`` counts the bot's
    answers that the dealer's menu did not allow, sent as calls instead, and
    ``complete`` says the dealer closed the connection between hands."""

    hands: int = 0
    won: float = 0.0
    unvalued: int = 0
    decisions: int = 0
    corrected: int = 0
    complete: bool = True


class AcpcPlayer:
    """A bot seen through the ACPC protocol, without I/O: a state line in, the reply to
    send (or None) out."""

    def __init__(self, game: GameDef, bot: Bot, err: IO[str] = sys.stderr) -> None:
        self.game, self.bot, self.err = game, bot, err
        try:
            self.config: TableConfig = game.table_config()
        except EngineError as exc:
            raise ClientError(f"our tables cannot play this gamedef: {exc}") from exc
        self.summary = MatchSummary()
        self._last_hand = -1  # the last hand whose final state was counted
        self._open_hand = False  # a hand has been seen and not its end

    def respond(self, line: str) -> str | None:
        """The reply to ``line`` (its end of line left off), or None when none is due."""
        if line.startswith(("#", ";")) or not line:
            if line.startswith("#"):
                print(f"dealer says: {line}", file=self.err, flush=True)
            return None
        try:
            state = parse_match_state(line, self.game)
            hand = _dealer_hand(state, self.game)
        except ValueError as exc:
            print(f"WARNING: {exc}; ignored", file=self.err, flush=True)
            return None
        if hand.finished:
            self._finish(state, hand)
            return None
        self._open_hand = True
        if hand.current_player() != state.position:
            return None
        self.summary.decisions += 1
        return f"{line}:{self._decide(state, hand).text(self.game)}"

    def _finish(self, state: MatchState, hand: HandState) -> None:
        self._open_hand = False
        if state.hand_id == self._last_hand:
            return
        self._last_hand = state.hand_id
        self.summary.hands += 1
        value = _known_value(state, hand)
        if value is None:
            self.summary.unvalued += 1
        else:
            self.summary.won += value

    def connection_closed(self) -> MatchSummary:
        """The dealer hung up: the match is over, completely unless a hand was open."""
        self.summary.complete = not self._open_hand
        return self.summary

    def _decide(self, state: MatchState, hand: HandState) -> Action:
        """Ask the bot; an answer the dealer would not take becomes a call, said on err."""
        try:
            view, menu, prior = self._ask(state, hand)
        except EngineError as exc:
            print(
                f"WARNING: hand {state.hand_id}: our table cannot replay {state.line!r}"
                f" ({exc}); calling",
                file=self.err,
                flush=True,
            )
            self.summary.corrected += 1
            return Action("c")
        answer = self.bot.act(view, menu)
        action = _to_acpc(answer, menu, prior, self.game)
        if action is None or not hand.is_valid(action):
            print(
                f"WARNING: hand {state.hand_id}: the bot's {answer!r} is not on the menu; calling",
                file=self.err,
                flush=True,
            )
            self.summary.corrected += 1
            return Action("c")
        return action

    def _ask(self, state: MatchState, hand: HandState) -> tuple[TableView, ActionMenu, int]:
        """The view and menu of the player to act, and what it put in before this round."""
        table, seat = _replay_table(state, self.game, self.config)
        view = table.view(seat)
        menu = view.legal
        if menu is None:
            raise EngineError(f"seat {seat} is not to act on our table")
        me = next(s for s in view.seats if s.seat == seat)
        prior = hand.spent[state.position] - me.street_total
        menu = _dealer_menu(menu, hand, prior)
        return replace(view, legal=menu, hand_number=state.hand_id + 1), menu, prior


def _engine_card(card: int, game: GameDef) -> Card:
    """Our card for the dealer's ``rank * 4 + suit`` (its deck: the top ranks and suits)."""
    rank, suit = card // 4 - (13 - game.num_ranks), card % 4 - (4 - game.num_suits)
    if not (0 <= rank < game.num_ranks and 0 <= suit < game.num_suits):
        raise EngineError(f"card {RANKS[card // 4] + SUITS[card % 4]!r} is not in this deck")
    return game.card(rank * game.num_suits + suit)


def _replay_table(state: MatchState, game: GameDef, config: TableConfig) -> tuple[Table, int]:
    """Our table dealt the state's cards (stand-ins for hidden ones) after its betting,
    and the viewer's seat. Raises :class:`EngineError` where ours and the dealer's part."""
    n = game.num_players
    holes = [None if h is None else [_engine_card(c, game) for c in h] for h in state.holes]
    board = [_engine_card(c, game) for c in state.board]
    known = {c for h in holes if h for c in h} | set(board)
    spare = iter(c for c in config.game.deck.cards if c not in known)
    filled = [h or [next(spare) for _ in range(game.num_hole_cards)] for h in holes]
    table = Table(config)
    for seat in range(n):
        table.sit_down(seat, config.min_buy_in)
    # Our dealing order: a round of hole cards at a time by position, then the board.
    order = [filled[p][k] for k in range(game.num_hole_cards) for p in range(n)] + board
    table.start_hand(Deck.from_cards(order, config.game.deck))
    if table.hand is None:
        raise EngineError("our table dealt no hand")
    seat_of = {p: s for s, p in table.hand.position.items()}
    dealer = HandState(game, state.hand_id, ((0,),) * n, (0,) * sum(game.num_board_cards))
    for action in state.moves:
        actor = table.to_act
        if actor is None or actor != seat_of[dealer.current_player()]:
            raise EngineError(f"ours and the dealer's disagree on who acts before {action!r}")
        if action.kind == "f":
            table.apply(Fold(actor))
        elif action.kind == "c":
            table.apply(CheckOrCall(actor))
        else:
            table.apply(BetOrRaiseTo(actor, _street_raise_to(table, actor, dealer, action)))
        dealer.apply(action)
    if table.to_act != seat_of[state.position]:
        raise EngineError("ours and the dealer's disagree on who acts now")
    return table, seat_of[state.position]


def _street_raise_to(table: Table, seat: int, dealer: HandState, action: Action) -> int:
    """Our street total for the dealer's raise ``action`` by the player at ``seat``."""
    if dealer.game.betting == "limit":
        menu = table.legal_actions(seat)
        return 0 if menu is None else menu.min_raise_to
    me = next(s for s in table.view(seat).seats if s.seat == seat)
    return action.size - (dealer.spent[dealer.current_player()] - me.street_total)


def _dealer_menu(menu: ActionMenu, hand: HandState, prior: int) -> ActionMenu:
    """``menu`` with the dealer's fold, call and raise sizes (game.c ``isValidAction``),
    raises as street totals: the hand total less ``prior``."""
    p = hand.current_player()
    stack, spent = hand.stack[p], hand.spent[p]
    call = min(hand.max_spent, stack) - spent
    sizes = hand.raise_range()
    if sizes is not None and hand.game.betting == "limit":
        top = min(hand.max_spent + hand.game.raise_size[hand.round], stack)
        sizes = (top, top)
    low, high = sizes or (0, 0)
    return replace(
        menu,
        can_fold=hand.can_fold(),
        can_check=call == 0,
        call=call,
        call_is_all_in=call > 0 and spent + call == stack,
        can_raise=sizes is not None,
        min_raise_to=low - prior if sizes else 0,
        max_raise_to=high - prior if sizes else 0,
        raise_is_all_in_only=sizes is not None and low == high == stack,
    )


def _to_acpc(answer: EngineAction, menu: ActionMenu, prior: int, game: GameDef) -> Action | None:
    """The dealer's action for the bot's ``answer``, or None if it is none of fold, check
    or call, and bet or raise."""
    if getattr(answer, "seat", menu.seat) != menu.seat:
        return None
    if isinstance(answer, Fold):
        return Action("f")
    if isinstance(answer, CheckOrCall):
        return Action("c")
    if isinstance(answer, BetOrRaiseTo):
        return Action("r", answer.amount + prior if game.betting == "nolimit" else 0)
    return None


async def play_match(
    host: str, port: int, game: GameDef, bot: Bot, err: IO[str] = sys.stderr
) -> MatchSummary:
    """Play ``bot`` at the ACPC dealer's seat at ``host:port`` until the dealer closes the
    connection. Raises :class:`ClientError` if it cannot connect."""
    player = AcpcPlayer(game, bot, err)
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError as exc:
        raise ClientError(f"cannot connect to {host}:{port}: {exc}") from exc
    try:
        writer.write(f"{VERSION_LINE}\r\n".encode())
        await writer.drain()
        while (line := await read_line(reader)) is not None:
            if line.cut:  # no state of any game is that long
                print(f"WARNING: a line longer than {MAX_LINE} bytes; ignored", file=err,
                      flush=True)  # fmt: skip
                continue
            reply = player.respond(line.text)
            if reply is not None:
                writer.write(f"{reply}\r\n".encode())
                await writer.drain()
    except ConnectionError as exc:
        print(f"connection lost: {exc}", file=err, flush=True)
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()
    return player.connection_closed()


def load_gamedef(text: str | None) -> GameDef:
    """A gamedef from its text, or the ACPC's heads-up no-limit hold'em."""
    return parse(HUNL_TEXT if text is None else text)
