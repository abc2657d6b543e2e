"""PHH, the Poker Hand History format (phh.readthedocs.io): reading, writing, redacting.

A PHH file is TOML: the game (``variant``, ``antes``, ``blinds_or_straddles``,
``min_bet``, or ``bring_in``, ``small_bet`` and ``big_bet``, ``starting_stacks``) and
``actions`` such as ``"d dh p1 AcKd"`` (hole cards dealt), ``"d db 7h8s9c"`` (board),
``"p3 cbr 300"`` (bet, raise or complete to 300 on this street), ``"p2 cc"`` (check or
call), ``"p1 f"`` (fold), ``"p5 pb"`` (post the bring-in), ``"p1 sd QdJc"`` (discard
those cards and draw, or stand pat with none) and ``"p1 sm AcKd"`` / ``"p1 sm"`` (show or
muck). Players are ``p1`` (first left of the button, the small blind) to ``pN`` (the
button); heads-up, ``p1`` is the big blind and ``p2`` the button, whose blinds and antes
PHH lists in the order small, big, like pokerkit. A ``.phhs`` file holds several hands as
tables ``[1]``, ``[2]``, ...

Every game of :mod:`engine.games` reads and writes: ``variant`` is the PHH code where
PHH has one (``FT``, ``PO``, ``F7S/8``, ``F2L3D``, ...); for the others, our own code in
the same style and the user-defined field ``_game`` naming the preset (``"plo8"``,
``"kuhn"``, ``"5cd-bug"``), which this reader understands.

>>> hh = load('''
... variant = "FT"
... antes = [0, 0]
... blinds_or_straddles = [1, 2]
... small_bet = 2
... big_bet = 4
... starting_stacks = [100, 100]
... actions = ["d dh p1 AcAd", "d dh p2 KcKd", "p2 f"]
... ''')
>>> hh.game.name, hh.small_bet
("Fixed-limit Texas hold'em", 2)
"""

from __future__ import annotations

import datetime as dt
import json
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Literal

from engine.cards import Card
from engine.errors import EngineError, HistoryError, UnsupportedHistoryError
from engine.events import (
    ActionTaken,
    BoardDealt,
    CardsDrawn,
    CardsMucked,
    CardsRevealed,
    CardsShown,
    Event,
    HoleCardsDealt,
    RabbitHunted,
    RunItTwiceAnswered,
    UpCardsDealt,
)
from engine.games import BY_CODE, Betting, Game, game, game_from_dict

if TYPE_CHECKING:
    from engine.hand import Hand

__all__ = [
    "AFTER_FIELD",
    "BOARDS_FIELD",
    "BOMB_POT_FIELD",
    "GAME_FIELD",
    "RUN_IT_TWICE_FIELD",
    "SEVEN_DEUCE_FIELD",
    "STRADDLE_FIELD",
    "HandHistory",
    "Number",
    "Status",
    "dump",
    "dump_all",
    "from_hand",
    "load",
    "load_all",
    "redact",
    "split_action",
]

Number = int | Decimal
Status = Literal["match", "differ", "unsupported", "error"]

# Fields in the order PHH and pokerkit write them; anything else is kept as it came.
_KNOWN = (
    "variant",
    "ante_trimming_status",
    "antes",
    "blinds_or_straddles",
    "bring_in",
    "min_bet",
    "small_bet",
    "big_bet",
    "starting_stacks",
    "actions",
)
GAME_FIELD = "_game"
"""Our user-defined field naming the game where PHH has no variant code for it."""
BOMB_POT_FIELD = "_bomb_pot"
"""Our user-defined field: the hand is a bomb pot, the antes its bomb, with no betting
before the flop (docs/rules.md O3). PHH has no word for one."""
BOARDS_FIELD = "_boards"
"""Our user-defined field: the number of boards (2: a double board, O4); each street
deals a ``d db`` line per board, the first board's first."""
RUN_IT_TWICE_FIELD = "_run_it_twice"
"""Our user-defined field: the answers to running it twice, in the order asked
(``["p1 y", "p3 y"]``; docs/rules.md O5). When all are yes the board's rest is dealt
twice: each run's ``d db`` lines, the first run's first."""
AFTER_FIELD = "_after_the_hand"
"""Our user-defined field: what happened after the hand, in order: cards a player chose
to show (``"p2 sm 7h"``, docs/rules.md O8; showing a winning 7-2 collects the bounty, O6)
and the rabbit's cards (``"d rabbit 9c2h"``, O7)."""
SEVEN_DEUCE_FIELD = "_seven_deuce"
"""Our user-defined field: the table's 7-2 bounty (docs/rules.md O6); the bounty paid is
in ``finishing_stacks``."""
STRADDLE_FIELD = "_straddle"
"""Our user-defined field: the hand's straddle (in ``blinds_or_straddles``) is a table's,
so a raise is by at least the straddle (docs/rules.md O1)."""


@dataclass
class HandHistory:
    """One hand as PHH records it. Amounts are ints, or Decimals where the file has
    fractions (e.g. dollars and cents); ``fields`` keeps every other field in order."""

    variant: str
    antes: list[Number]
    blinds_or_straddles: list[Number]
    min_bet: Number
    starting_stacks: list[Number]
    actions: list[str]
    ante_trimming_status: bool = False
    fields: dict[str, Any] = field(default_factory=dict)
    bring_in: Number = 0
    small_bet: Number = 0
    big_bet: Number = 0

    @property
    def game(self) -> Game:
        """The game this hand is of: ``_game`` if the file names one, else ``variant``.
        Raises :class:`UnsupportedHistoryError` for a game we do not play."""
        name = self.fields.get(GAME_FIELD)
        try:
            if isinstance(name, str):
                return game(name)
            if isinstance(name, dict):  # a game of one's own, by its definition
                return game_from_dict(name)
            return BY_CODE[self.variant]
        except (EngineError, KeyError):
            what = f"game {name!r}" if isinstance(name, str) else f"variant {self.variant!r}"
            raise UnsupportedHistoryError(f"{what} is not a game we play") from None

    @property
    def finishing_stacks(self) -> list[Number] | None:
        """The recorded result, if the file has one."""
        value = self.fields.get("finishing_stacks")
        return list(value) if value is not None else None


def _known(g: Game) -> bool:
    """Whether :func:`engine.games.game` finds ``g`` by its key (a preset or a variant)."""
    try:
        return game(g.key) == g
    except EngineError:
        return False


def _from_table(table: dict[str, Any]) -> HandHistory:
    try:
        return HandHistory(
            variant=str(table["variant"]),
            antes=list(table.get("antes", [0] * len(table["starting_stacks"]))),
            blinds_or_straddles=list(table.get("blinds_or_straddles", [])),
            min_bet=table.get("min_bet", 0),
            starting_stacks=list(table["starting_stacks"]),
            actions=[str(a) for a in table["actions"]],
            ante_trimming_status=bool(table.get("ante_trimming_status", False)),
            fields={k: v for k, v in table.items() if k not in _KNOWN},
            bring_in=table.get("bring_in", 0),
            small_bet=table.get("small_bet", 0),
            big_bet=table.get("big_bet", 0),
        )
    except KeyError as exc:
        raise HistoryError(f"missing field {exc.args[0]!r}") from None
    except TypeError as exc:
        raise HistoryError(f"malformed hand: {exc}") from None


def _parse_toml(text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise HistoryError(f"not valid PHH (TOML): {exc}") from None


def load(text: str) -> HandHistory:
    """Read one hand from the text of a ``.phh`` file."""
    return _from_table(_parse_toml(text))


def load_all(text: str) -> list[HandHistory]:
    """Read every hand of a ``.phhs`` file, in order."""
    tables = _parse_toml(text)
    hands = []
    for key, value in tables.items():
        if not isinstance(value, dict):
            raise HistoryError(f"a .phhs file holds tables [1], [2], ...; found {key!r}")
        try:
            hands.append(_from_table(value))
        except HistoryError as exc:
            raise HistoryError(f"hand [{key}]: {exc}") from None
    return hands


def _toml_value(value: Any) -> str:
    if isinstance(value, str):
        if value.isascii() and value.isprintable() and '"' not in value and "\\" not in value:
            return f'"{value}"'  # nothing to escape: the common case, and a hot path
        return json.dumps(value, ensure_ascii=False)  # a valid TOML basic string
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dt.date | dt.time):  # TOML has date and time values: keep them
        return value.isoformat()
    if isinstance(value, int | Decimal):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(map(_toml_value, value)) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    return json.dumps(str(value))


def _toml_key(key: str) -> str:
    return key if key.replace("_", "").replace("-", "").isalnum() else json.dumps(key)


def dump(history: HandHistory) -> str:
    """The hand as the text of a ``.phh`` file: the stakes fields its game uses (PHH's
    required fields for the variant), then the rest."""
    try:
        g: Game | None = history.game
    except UnsupportedHistoryError:
        g = None
    stakes: list[str] = []
    if g is None or g.blinds:
        stakes.append("blinds_or_straddles")
    if g is not None and g.bring_in:
        stakes.append("bring_in")
    if g is None or g.betting is not Betting.FIXED_LIMIT:
        stakes.append("min_bet")
    if g is None or g.betting is Betting.FIXED_LIMIT:
        stakes += ["small_bet", "big_bet"]
    lines = [
        f"variant = {_toml_value(history.variant)}",
        f"ante_trimming_status = {_toml_value(history.ante_trimming_status)}",
        f"antes = {_toml_value(history.antes)}",
        *(f"{name} = {_toml_value(getattr(history, name))}" for name in stakes),
        f"starting_stacks = {_toml_value(history.starting_stacks)}",
        "actions = [",
        *(f"  {_toml_value(a)}," for a in history.actions),
        "]",
    ]
    lines += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in history.fields.items()]
    return "\n".join(lines) + "\n"


def dump_all(histories: Iterable[HandHistory]) -> str:
    """Several hands as the text of a ``.phhs`` file."""
    return "\n".join(f"[{i}]\n{dump(h)}" for i, h in enumerate(histories, start=1))


def split_action(action: str) -> list[str]:
    """An action's words, without its comment (``#`` to the end)."""
    return action.split("#", 1)[0].split()


# -- writing our hands -----------------------------------------------------------------


def from_hand(hand: Hand, players: Sequence[str] | None = None) -> HandHistory:
    """The PHH record of a hand our engine played (finished or not), of any game."""
    setup = hand.setup
    game = setup.game
    n = len(setup.seats)
    antes, blinds, dead = list(setup.antes), list(setup.blinds), list(setup.dead_blinds)
    if n == 2 and game.blinds:
        antes.reverse()
        blinds.reverse()
        dead.reverse()
    if any(dead):
        # PHH has no dead blinds: other tools see them as antes; our own field says which
        # part was a dead blind, so our replay treats it as one.
        antes = [a + d for a, d in zip(antes, dead, strict=True)]
    player = {seat: f"p{i + 1}" for i, seat in enumerate(setup.seats)}
    fields: dict[str, Any] = {}
    if not game.phh:
        fields[GAME_FIELD] = game.key if _known(game) else game.to_dict()
    fields |= {"hand": setup.hand_number, "seats": [s + 1 for s in setup.seats]}
    if any(dead):
        fields["_dead_blinds"] = dead
    # PHH opens the betting after the largest blind (the later one on a tie); a newcomer
    # posting a big blind elsewhere does not move it, so say where it opens when it differs.
    if setup.big_blind_position is not None and setup.big_blind_position != _opener(setup.blinds):
        fields["_big_blind_player"] = setup.big_blind_position + 1
    if setup.straddle:
        # A table's straddle sets the size of a raise (docs/rules.md O1); PHH and pokerkit
        # read a straddle in blinds_or_straddles as one whose raise is by the big blind.
        fields[STRADDLE_FIELD] = setup.straddle
    if setup.bomb_pot:
        fields[BOMB_POT_FIELD] = True  # no betting before the flop (docs/rules.md O3)
    if setup.boards > 1:
        fields[BOARDS_FIELD] = setup.boards  # each street's "d db" lines, board by board
    answers = [e for e in hand.log if isinstance(e, RunItTwiceAnswered)]
    if answers:
        fields[RUN_IT_TWICE_FIELD] = [f"{player[e.seat]} {'yn'[not e.agree]}" for e in answers]
    if setup.seven_deuce:
        fields[SEVEN_DEUCE_FIELD] = setup.seven_deuce
    after = _after_the_hand(hand.log, player)
    if after:
        fields[AFTER_FIELD] = after
    if players is not None:
        fields["players"] = list(players)
    if hand.is_over:
        fields["finishing_stacks"] = list(hand.stacks)
    return HandHistory(
        variant=game.code,
        # pokerkit's ante trimming is right for antes everyone pays, wrong for others.
        ante_trimming_status=len(set(antes)) == 1,
        antes=list(antes),
        blinds_or_straddles=list(blinds) if game.blinds else [],
        min_bet=setup.min_bet,
        starting_stacks=list(setup.stacks),
        actions=_actions(hand.log, player),
        fields=fields,
        bring_in=setup.bring_in,
        small_bet=setup.small_bet,
        big_bet=setup.big_bet,
    )


def _actions(log: Sequence[Event], player: dict[int, str]) -> list[str]:
    """The PHH actions of a hand's events. A street's cards dealt to one player, down and
    up, make one line; a draw's new cards are dealt once everyone has drawn, as PHH and
    pokerkit have it."""
    actions: list[str] = []
    dealt: dict[int, list[Card]] = {}  # this street's cards, by seat, not yet written
    drawn: list[str] = []  # this draw's deals, not yet written

    def flush() -> None:
        actions.extend(f"d dh {player[seat]} {_cards(cards)}" for seat, cards in dealt.items())
        dealt.clear()
        actions.extend(drawn)
        drawn.clear()

    street = None  # the draw round whose new cards are waiting
    for event in log:
        if isinstance(event, HoleCardsDealt | UpCardsDealt):
            assert event.cards is not None
            dealt.setdefault(event.seat, []).extend(event.cards)
            continue
        if isinstance(event, CardsDrawn):
            assert event.discarded is not None and event.drawn is not None
            if event.street != street:  # a new round: the last one's deals come first
                flush()
                street = event.street
            actions.append(f"{player[event.seat]} sd {_cards(event.discarded)}".rstrip())
            if event.drawn:
                drawn.append(f"d dh {player[event.seat]} {_cards(event.drawn)}")
            continue
        flush()
        if isinstance(event, ActionTaken):
            word = {"fold": "f", "check": "cc", "call": "cc", "bring_in": "pb"}.get(
                event.kind, f"cbr {event.street_total}"
            )
            actions.append(f"{player[event.seat]} {word}")
        elif isinstance(event, BoardDealt):
            actions.append(f"d db {_cards(event.cards)}")
        elif isinstance(event, CardsShown):
            actions.append(f"{player[event.seat]} sm {_cards(event.cards)}")
        elif isinstance(event, CardsMucked):
            actions.append(f"{player[event.seat]} sm")
    flush()
    return actions


def _after_the_hand(log: Sequence[Event], player: dict[int, str]) -> list[str]:
    """What happened after the hand: cards shown (O8) and the rabbit (O7), in order."""
    after = []
    for event in log:
        if isinstance(event, CardsRevealed):
            after.append(f"{player[event.seat]} sm {_cards(event.cards)}")
        elif isinstance(event, RabbitHunted):
            after.append(f"d rabbit {_cards(event.cards)}")
    return after


def _opener(blinds: Sequence[int]) -> int:
    """The position PHH reads the preflop action from: the largest blind, later on a tie."""
    return max(range(len(blinds)), key=lambda p: (blinds[p], p))


def _cards(cards: Iterable[Card]) -> str:
    return "".join(str(c) for c in cards)


# -- what one player saw ---------------------------------------------------------------


def redact(history: HandHistory, position: int | None) -> HandHistory:
    """The history as one player saw the hand: ``position`` is theirs in PHH order (0 for
    ``p1``; not a table seat), ``None`` a spectator. Everyone else's cards dealt face down
    are unknown (``??`` each), whatever follows them on the line, and so are the cards
    they threw away in a draw (the count stays); cards dealt face up (stud) and cards
    shown (``sm`` with cards) stay. Every comment (``#`` to the end of an action) goes,
    the player's own too, since it may name any card; an action that is only a comment
    goes with it. Fields other than ``actions`` are kept as they are.

    >>> hh = load('''
    ... variant = "NT"
    ... blinds_or_straddles = [5, 10]
    ... starting_stacks = [100, 100]
    ... actions = ["d dh p1 AcAd", "d dh p2 KcKd # kings", "# p1 has aces", "p2 f"]
    ... ''')
    >>> redact(hh, 1).actions
    ['d dh p1 ????', 'd dh p2 KcKd', 'p2 f']
    """
    own = None if position is None else f"p{position + 1}"
    try:
        faces = [up for s in history.game.streets for up in s.hole]
        dice = history.game.deck.dice
    except UnsupportedHistoryError:
        faces, dice = [], False
    dealt: dict[str, int] = {}  # cards dealt to each player so far, draws aside
    drawing: set[str] = set()  # players whose next dh line is a draw's new cards
    tabled: set[str] = set()  # players who showed: what they are dealt next lies face up
    actions = []
    for said in split_lines(history.actions):
        words = said
        if words[:2] == ["d", "dh"] and len(words) > 3:
            who, text = words[2], words[3]
            size = 1 if dice else 2
            tokens = [text[i : i + size] for i in range(0, len(text), size)]
            if who in drawing:
                drawing.discard(who)
                up = [False] * len(tokens)
            elif dice:
                up = [True] * len(tokens)
            else:
                first = dealt.get(who, 0)
                dealt[who] = first + len(tokens)
                up = [first + i < len(faces) and faces[first + i] for i in range(len(tokens))]
            if who != own and who not in tabled:
                # Words after the cards mean nothing to a replay, but they may name cards too.
                hidden = "".join(t if u else "?" * size for t, u in zip(tokens, up, strict=True))
                words = [*words[:3], hidden]
        elif len(words) >= 2 and words[1] == "sd" and not dice:  # dice roll in the open
            drawing.add(words[0])
            if words[0] != own and len(words) > 2:
                words = [*words[:2], "?" * len(words[2])]
        elif len(words) > 2 and words[1] == "sm":
            tabled.add(words[0])
        if words:
            actions.append(" ".join(words))
    return replace(history, actions=actions, fields=dict(history.fields))


def split_lines(actions: Iterable[str]) -> Iterable[list[str]]:
    """Each action's words, comments gone."""
    return (split_action(a) for a in actions)
