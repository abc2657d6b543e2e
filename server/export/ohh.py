"""A stored hand as Open Hand History (OHH) JSON, the format PokerTracker, Hold'em Manager
and other trackers import.

Where the format comes from: the published specification at
https://hh-specs.handhistory.org ("Standardized Hand History JSON", version 1.4.6 on its
specification page; the change log goes on to 1.4.7, March 4, 2024, which only deprecates
``contributed_rake``), read through a stored copy of those pages. We write
``spec_version`` 1.4.7. The specification publishes no JSON Schema and we found none in
any package or repository (only type definitions in third-party code, and ad-hoc schemas
that get field names wrong), so ``ohh.schema.json`` beside this module is ours, written
from the specification's pages (JSON Schema draft 2020-12; its ``description`` says what
it checks and why). :func:`validate` checks a document against it.

How we fill it in:

- Amounts: every action's ``amount`` is what the player put into the pot with that
  action, our events' ``increment``. The specification's action page says so for a raise
  ("if a player bet $2 and was raised then re-raised to a total of $20 the amount for the
  raise should be 18.00"), its amount page calls it "the total amount put in during this
  action", and its own example hand writes a big blind's call of a raise to 0.06 as 0.04.
  A bet is the same either way (nothing is in front of a player who bets); for a call and
  a raise it is *not* the street total ("raise to") that :class:`engine.BetOrRaiseTo`
  takes and PHH records.
- Uncalled bets: OHH has no action for chips given back. As in the specification's
  example hand, the bet or raise keeps its full amount and the pots hold only what was
  called, so a reader works out the return as a tracker does (the highest street total
  less the next highest).
- Pots come from our ``PotAwarded`` events: number 0 is the main pot, ``amount`` what was
  in it, each winner's ``win_amount`` their share. We take no rake (0) and have no
  jackpot (0).
- Players: ``id`` is the PHH position (0 = p1, the first seat left of the button),
  ``seat`` the table seat :class:`server.export.HandInfo` gives, in that order.
  ``dealer_seat`` is the button's seat, which holds nobody when the button is dead, and
  ``small_blind_amount`` the table's small blind, even in a hand where nobody posted it.
- Hole cards are private. With no ``hero`` the hand is rendered as observed: every
  player gets a ``Dealt Cards`` action without cards and ``hero_player_id`` is null; with
  ``hero`` (a position) that player's cards are in their ``Dealt Cards``. Cards shown at
  showdown are public and go in a ``Showdown`` round, as the specification asks, even when
  our engine tabled them before running out the board; ``Mucks Cards`` carries no cards.
  Only cards the history actually records are written: a replay deals stand-in cards for
  hole cards recorded as ``????``, and those never appear.
- Money: chip hands (ints) are in chips with currency ``XPM``, the specification's code
  for play money since 1.4.6 ("a currency with no monetary value" in its sister Open
  Tournament Summary specification); hands imported in money keep
  their Decimals and ``HandInfo.currency``. Use :func:`dumps` to write a document: it puts
  Decimals out as exact JSON numbers, which :func:`json.dumps` cannot.
- "Bet is not a valid pre-flop action" (action page): a first bet before the flop (only
  possible with no blinds) is written as a Raise.
- Forced bets are Post Ante, Post SB, Post BB, Straddle, Post Dead (a dead blind) and
  Post Extra Blind (any other live blind). A stored PHH history has no dead blinds, so a
  dead small blind posted to come back reaches us, and is written, as an ante.
- ``action_number`` counts from 1 in each round, as in the specification's example hand.
- Table options (docs/rules.md, "Table options"): a straddle is a ``Straddle``; a bomb
  pot's bombs are ``Post Ante``, with no preflop action, and the flag ``Bomb_Pot``; a
  hand with two boards, or run twice, has the flag ``Run_It_Twice`` (the flags page:
  "two [or more] sets of board cards are used in the play of the same hand") and each
  street's second board or run in a round of its own, after the first's, which holds
  the street's actions; each pot is one pot object, ``win_amount`` what a player won of
  it on both boards. Cards a player shows after the hand are a ``Shows Cards`` in the
  Showdown round; OHH has no word for the 7-2 bounty or the rabbit's cards.

Games: the specification's ``game_type`` names six (its game_type page: Holdem, Omaha,
OmahaHiLo, Stud, StudHiLo, Draw), but its rounds have only hold'em's streets (Preflop,
Flop, Turn, River, Showdown) and its actions neither up cards nor draws. So we write the
board games it names (each preset's :attr:`engine.Game.ohh`): hold'em as ``Holdem``,
Omaha of four to six cards as ``Omaha``, Omaha hi-lo as ``OmahaHiLo``, with ``bet_type``
NL, PL or FL.
Stud, stud hi-lo and draw games would need streets and actions OHH does not have, and
razz, badugi, short deck, Kuhn, Leduc, dice and jokers have no ``game_type``: those
raise :class:`server.export.UnsupportedGameError`. In a hi-lo hand each pot is one pot
object, each player's ``win_amount`` what they won of both halves.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from enum import IntEnum
from functools import cache
from pathlib import Path
from typing import Any

from engine.events import (
    ActionTaken,
    BoardDealt,
    BombPotStarted,
    CardsMucked,
    CardsRevealed,
    CardsShown,
    Event,
    ForcedBetPosted,
    HandStarted,
    HoleCardsDealt,
    PotAwarded,
    Street,
    board_index,
)
from engine.games import Betting, Game
from engine.history import Replay
from server.export import HandInfo, UnsupportedGameError

__all__ = [
    "INTERNAL_VERSION",
    "PLAY_MONEY",
    "SCHEMA_PATH",
    "SITE_NAME",
    "SPEC_VERSION",
    "dumps",
    "render",
    "validate",
]

SPEC_VERSION = "1.4.7"
INTERNAL_VERSION = "1.4.0"
"""Our exporter's version: the specification's major and minor, as it recommends, and a
patch number to bump with every change to what we write."""
SITE_NAME = "pokerroom"
PLAY_MONEY = "XPM"
SCHEMA_PATH = Path(__file__).with_name("ohh.schema.json")
FORMAT = "OHH"
_BET_TYPES = {Betting.NO_LIMIT: "NL", Betting.POT_LIMIT: "PL", Betting.FIXED_LIMIT: "FL"}


def game_type(g: Game) -> tuple[str, str]:
    """The game's OHH ``game_type`` and ``bet_type``; raises :class:`UnsupportedGameError`
    for a game we do not write as OHH (see the module docstring)."""
    if g.ohh is None:
        raise UnsupportedGameError(g.key, g.name, FORMAT)
    return g.ohh, _BET_TYPES[g.betting]


Amount = int | Decimal
Money = Callable[[int], Amount]

_FORCED = {
    "ante": "Post Ante",
    "small_blind": "Post SB",
    "big_blind": "Post BB",
    "straddle": "Straddle",
    "dead_blind": "Post Dead",
    "blind": "Post Extra Blind",  # a live blind that is neither the small nor the big
}
_ACTIONS = {"fold": "Fold", "check": "Check", "call": "Call", "bet": "Bet", "raise": "Raise"}
# Keyed by IntEnum: events carry each game's own street enum; only hold'em's is exported.
_STREETS: dict[IntEnum, str] = {
    Street.PREFLOP: "Preflop",
    Street.FLOP: "Flop",
    Street.TURN: "Turn",
    Street.RIVER: "River",
}


@dataclass
class _Round:
    street: str
    cards: list[str]
    actions: list[dict[str, object]] = field(default_factory=list)


def render(info: HandInfo, *, hero: int | None = None) -> dict[str, object]:
    """The hand as an OHH document, ``{"ohh": {...}}``.

    ``hero`` is the PHH position (0 = p1) whose hole cards to include; by default nobody's
    (an observed hand). Raises :class:`server.export.UnsupportedGameError` for a game OHH
    has no words for (no :attr:`engine.Game.ohh`), :class:`engine.errors.HistoryError` if the
    history does not replay, and ValueError if ``info`` does not fit it.
    """
    kind = game_type(info.history.game)
    result = info.replay()
    n = len(result.hand.setup.seats)
    if len(info.players) != n or len(info.seats) != n:
        raise ValueError(
            f"{n} players in the hand, but {len(info.players)} names and {len(info.seats)} seats"
        )
    if hero is not None and not 0 <= hero < n:
        raise ValueError(f"hero {hero} is not a position 0..{n - 1}")
    money = _money(result.scale)
    start = result.events[0]
    assert isinstance(start, HandStarted)
    rounds, pots = _rounds(result, hero, money)
    hand: dict[str, object] = {
        **_header(info, start, hero, money, kind),
        "players": [
            {
                "id": p,
                "seat": info.seats[p],
                "name": info.players[p],
                "display": info.players[p],
                "starting_stack": money(start.stacks[p]),
            }
            for p in range(n)
        ],
        "rounds": [
            {
                "id": i,
                "street": r.street,
                "cards": r.cards,
                "actions": [{"action_number": k, **a} for k, a in enumerate(r.actions, start=1)],
            }
            for i, r in enumerate(rounds)
        ],
        "pots": pots,
    }
    hand["flags"] = _flags(start, result.hand.boards is not None)
    return {"ohh": hand}


def _money(scale: int) -> Money:
    """Chips as the document's amounts: chips themselves, or money at ``scale`` chips to
    the currency unit (exact Decimals)."""
    if scale == 1:
        return lambda chips: chips
    return lambda chips: Decimal(chips) / scale


def _header(
    info: HandInfo, start: HandStarted, hero: int | None, money: Money, kind: tuple[str, str]
) -> dict[str, object]:
    """The document's fields about the hand as a whole, up to its players."""
    return {
        "spec_version": SPEC_VERSION,
        "site_name": SITE_NAME,
        "network_name": SITE_NAME,
        "internal_version": INTERNAL_VERSION,
        "tournament": False,
        "game_number": str(info.hand_id),
        "start_date_utc": _utc(info.started_at),
        "table_name": info.table_name,
        "table_size": info.max_seats,
        "game_type": kind[0],
        "bet_limit": {"bet_type": kind[1], "bet_cap": money(0)},
        "currency": info.currency or PLAY_MONEY,
        "dealer_seat": info.button_seat,
        "small_blind_amount": money(start.small_blind),
        "big_blind_amount": money(start.big_blind),
        "ante_amount": money(start.ante),
        "hero_player_id": hero,
        "flags": [],
    }


def _flags(start: HandStarted, boards: bool) -> list[str]:
    """The specification's flags page: ``Bomb_Pot`` ("a hand with extra money in the pot
    and which goes directly to the flop with no preflop action") and ``Run_It_Twice``
    ("two [or more] sets of board cards are used in the play of the same hand"), for two
    boards (docs/rules.md O4) or a hand run twice (O5)."""
    flags = ["Bomb_Pot"] if isinstance(start, BombPotStarted) else []
    return flags + (["Run_It_Twice"] if boards else [])


def _rounds(
    result: Replay, hero: int | None, money: Money
) -> tuple[list[_Round], list[dict[str, object]]]:
    """The hand's rounds (a street each, then the showdown if there was one) and pots."""
    # Stand-ins replace hole cards a history never knew: show only the known ones.
    known = [
        tuple(str(c) for c in hole) if result.known[p] else ()
        for p, hole in enumerate(result.hand.holes)
    ]
    rounds = [_Round("Preflop", [])]
    current = rounds[0]  # the round the street's actions go in: the first board's
    showdown = _Round("Showdown", [])
    pots: list[dict[str, object]] = []
    for event in result.events:
        if isinstance(event, BoardDealt):
            # A second board's cards are a round of the same street after the first's
            # (flag Run_It_Twice); the street's actions stay with the first board's round.
            rounds.append(_Round(_STREETS[event.street], [str(c) for c in event.cards]))
            current = rounds[-1] if board_index(event) == 0 else current
        elif isinstance(event, PotAwarded):
            _add_pot(pots, event, money)
        elif isinstance(event, CardsShown):
            showdown.actions.append(
                _action(event.seat, "Shows Cards", money(0), cards=known[event.seat])
            )
        elif isinstance(event, CardsMucked):
            showdown.actions.append(_action(event.seat, "Mucks Cards", money(0)))
        elif isinstance(event, CardsRevealed):  # after the hand, as the player chose (O8)
            cards = tuple(str(c) for c in event.cards)
            showdown.actions.append(_action(event.seat, "Shows Cards", money(0), cards=cards))
        elif (action := _street_action(event, current, hero, known, money)) is not None:
            current.actions.append(action)
    if showdown.actions:
        rounds.append(showdown)
    return rounds, pots


def _street_action(
    event: Event,
    round_: _Round,
    hero: int | None,
    known: list[tuple[str, ...]],
    money: Money,
) -> dict[str, object] | None:
    """The action a forced bet, a deal of hole cards or a player's action is in its
    street's round; None for other events. UncalledBetReturned has no OHH action (see the
    module docstring); HandStarted and HandEnded are the header and the pots."""
    if isinstance(event, ForcedBetPosted):
        return _action(event.seat, _FORCED[event.kind], money(event.increment), event.all_in)
    if isinstance(event, HoleCardsDealt):
        cards = known[event.seat] if event.seat == hero else ()
        return _action(event.seat, "Dealt Cards", money(0), cards=cards)
    if isinstance(event, ActionTaken):
        assert _STREETS[event.street] == round_.street, event
        name = _ACTIONS[event.kind]
        if name == "Bet" and event.street is Street.PREFLOP:
            name = "Raise"
        return _action(event.seat, name, money(event.increment), event.all_in)
    return None


def _add_pot(pots: list[dict[str, object]], event: PotAwarded, money: Money) -> None:
    """A pot, or in a hi-lo game its second half: added to the pot object of its number,
    each winner's share added to what they won of it."""
    pot = _pot(event, money)
    same = next((p for p in pots if p["number"] == event.pot), None)
    if same is None:
        pots.append(pot)
        return
    shares = dict(event.shares)
    wins: Any = same["player_wins"]
    for win in wins:
        win["win_amount"] += money(shares.pop(win["player_id"], 0))
    wins += [{"player_id": s, "win_amount": money(share)} for s, share in shares.items()]
    amount: Any = same["amount"]
    same["amount"] = amount + money(event.amount)


def _pot(event: PotAwarded, money: Money) -> dict[str, object]:
    return {
        "number": event.pot,
        "amount": money(event.amount),
        "rake": money(0),
        "jackpot": money(0),
        "player_wins": [
            {"player_id": seat, "win_amount": money(share)} for seat, share in event.shares
        ],
    }


def _action(
    player: int, name: str, amount: Amount, all_in: bool = False, *, cards: tuple[str, ...] = ()
) -> dict[str, object]:
    action: dict[str, object] = {
        "player_id": player,
        "action": name,
        "amount": amount,
        "is_allin": all_in,
    }
    if cards:
        action["cards"] = list(cards)
    return action


def _utc(moment: datetime) -> str:
    """ISO 8601 in UTC as the specification writes it; a naive time is taken as UTC."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


# -- writing and checking ---------------------------------------------------------------


def dumps(document: object, *, indent: int | None = None) -> str:
    """JSON text of a document from :func:`render`, Decimals as exact JSON numbers."""
    return _encode(document, indent, 0)


def _encode(value: object, indent: int | None, depth: int) -> str:
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(f"{value} is not a JSON number")
        return format(value, "f")
    if isinstance(value, dict):
        items = [
            f"{json.dumps(str(k), ensure_ascii=False)}: {_encode(v, indent, depth + 1)}"
            for k, v in value.items()
        ]
        return _wrap("{", "}", items, indent, depth)
    if isinstance(value, list | tuple):
        return _wrap("[", "]", [_encode(v, indent, depth + 1) for v in value], indent, depth)
    return json.dumps(value, ensure_ascii=False)


def _wrap(open_: str, close: str, items: list[str], indent: int | None, depth: int) -> str:
    if not items:
        return open_ + close
    if indent is None:
        return open_ + ", ".join(items) + close
    inner = "\n" + " " * (indent * (depth + 1))
    return open_ + inner + ("," + inner).join(items) + "\n" + " " * (indent * depth) + close


@cache
def _validator() -> Any:
    # jsonschema is a test dependency, not a runtime one: imported only when used.
    import jsonschema  # type: ignore[import-untyped, unused-ignore]  # noqa: PLC0415

    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def validate(document: object) -> None:
    """Check ``document`` against ``ohh.schema.json``; raises
    ``jsonschema.ValidationError`` (the first error found) if it does not conform.

    Decimals count as JSON numbers, so a document can be checked before or after
    :func:`dumps`.
    """
    _validator().validate(document)
