"""OHH export: documents conform to our schema of the specification, and say what the
engine did, to the chip."""

import copy
import json
import random
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal
from typing import Any

import jsonschema  # type: ignore[import-untyped, unused-ignore]
import pytest

from engine import history
from engine.actions import Action, BetOrRaiseTo, CheckOrCall, Fold
from engine.deck import Deck
from engine.errors import IllegalActionError
from engine.events import (
    ActionTaken,
    CardsMucked,
    CardsShown,
    ForcedBetPosted,
    HoleCardsDealt,
    UncalledBetReturned,
)
from engine.rules import AnteKind, TableConfig
from engine.table import Table
from server.export import HandInfo
from server.export.ohh import SCHEMA_PATH, dumps, render, validate
from tests.conftest import SHARED_DATA
from tests.server.test_export_pokerstars import dead_button_hand, table_info

PHH = SHARED_DATA / "phh"
HANDHQ = PHH / "handhq" / "PS-2009-07-01_2009-07-23_1000NLH_OBFU" / "10"
WHEN = datetime(2024, 5, 17, 20, 30, 5, tzinfo=UTC)
LIVE = {"Post SB", "Post BB", "Straddle", "Post Extra Blind", "Bet", "Raise", "Call"}


# -- hands to render ---------------------------------------------------------------------


def info_for(hh: history.HandHistory, hand_id: int = 1, **kw: Any) -> HandInfo:
    n = len(hh.starting_stacks)
    players = tuple(hh.fields.get("players") or [f"player{i + 1}" for i in range(n)])
    seats = tuple(hh.fields.get("seats") or range(1, n + 1))
    fields: dict[str, Any] = {"max_seats": max(6, n, *seats)} | kw
    return HandInfo(hand_id, "Table 1", WHEN, players, seats, hh, **fields)


def phh(
    stacks: list[int | Decimal], blinds: list[int | Decimal], actions: list[str], **extra: Any
) -> HandInfo:
    antes = extra.pop("antes", [0] * len(stacks))
    hh = history.HandHistory(
        variant="NT",
        antes=antes,
        blinds_or_straddles=blinds,
        min_bet=extra.pop("min_bet", max(blinds) or 10),
        starting_stacks=stacks,
        actions=actions,
    )
    return info_for(hh, **extra)


def random_action(menu: Any, rng: random.Random) -> Action:
    roll = rng.random()
    if menu.can_fold and roll < 0.15:
        return Fold(menu.seat)
    if menu.can_raise and roll > 0.6:
        low, high = menu.min_raise_to, menu.max_raise_to
        amount = rng.choice([low, high, high, rng.randint(low, high)])
        return BetOrRaiseTo(menu.seat, amount)
    return CheckOrCall(menu.seat)


def engine_hands(count: int, seed: int) -> Iterator[HandInfo]:
    """Hands our engine plays at random tables: 2 to 10 players, stacks from a few big
    blinds to deep (so all-ins and side pots), antes of both kinds, players sitting out
    and coming back to post dead blinds, random legal actions."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        size = rng.randint(2, 10)
        ante_kind = rng.choice(
            [AnteKind.NONE, AnteKind.NONE, AnteKind.PER_PLAYER, AnteKind.BIG_BLIND]
        )
        ante = {AnteKind.NONE: 0, AnteKind.PER_PLAYER: 5, AnteKind.BIG_BLIND: 100}[ante_kind]
        config = TableConfig(50, 100, seats=size, ante=ante, ante_kind=ante_kind, min_buy_in=1)
        table = Table(config)
        for seat in rng.sample(range(size), rng.randint(2, size)):
            table.sit_down(seat, rng.choice([rng.randint(1, 600), rng.randint(600, 20_000)]))
        away: set[int] = set()
        for _ in range(rng.randint(1, 6)):
            if made == count or len(table.occupied()) < 2:
                break
            try:
                table.start_hand(Deck.shuffled(rng))
            except IllegalActionError:  # too few players ready (someone sitting out)
                break
            while table.hand_in_progress:
                actor = table.to_act
                assert actor is not None
                table.apply(random_action(table.legal_actions(actor), rng))
            assert table.hand is not None
            seats = table.hand.setup.seats
            hh = history.from_hand(table.hand)
            names = tuple(f"p{seat}_{rng.randint(0, 999)}" for seat in seats)
            yield HandInfo(
                hand_id=10_000 + made,
                table_name=f"Table {seed}",
                started_at=WHEN + timedelta(minutes=made),
                players=names,
                seats=tuple(seat + 1 for seat in seats),
                history=hh,
                max_seats=size,
            )
            made += 1
            # Now and then a player sits out, and comes back a hand or more later posting
            # the blinds they missed (a live big blind and a dead small blind).
            occupied = table.occupied()
            for seat in sorted(away & set(occupied)):
                if rng.random() < 0.5:
                    table.sit_in(seat, post=True)
                    away.discard(seat)
            here = [s for s in occupied if s not in away]
            if len(here) > 2 and rng.random() < 0.4:
                seat = rng.choice(here)
                table.sit_out(seat)
                away.add(seat)


# -- what a document must agree with ------------------------------------------------------


def actions_of(doc: dict[str, Any]) -> list[tuple[str, int, str, Any, bool]]:
    return [
        (r["street"], a["player_id"], a["action"], a["amount"], a["is_allin"])
        for r in doc["ohh"]["rounds"]
        for a in r["actions"]
    ]


def expected_actions(info: HandInfo) -> list[tuple[str, int, str, Any, bool]]:
    """Our events, one OHH action each, with showing and mucking moved to the end."""
    result = history.replay(info.history)
    scale = result.scale

    def money(chips: int) -> Any:
        return chips if scale == 1 else Decimal(chips) / scale

    forced = {
        "ante": "Post Ante",
        "small_blind": "Post SB",
        "big_blind": "Post BB",
        "straddle": "Straddle",
        "dead_blind": "Post Dead",
        "blind": "Post Extra Blind",
    }
    streets = ["Preflop", "Flop", "Turn", "River"]
    betting, showdown = [], []
    for e in result.events:
        if isinstance(e, ForcedBetPosted):
            betting.append(("Preflop", e.seat, forced[e.kind], money(e.increment), e.all_in))
        elif isinstance(e, HoleCardsDealt):
            betting.append(("Preflop", e.seat, "Dealt Cards", 0, False))
        elif isinstance(e, ActionTaken):
            name = e.kind.capitalize()
            if name == "Bet" and e.street == 0:
                name = "Raise"
            betting.append((streets[e.street], e.seat, name, money(e.increment), e.all_in))
        elif isinstance(e, CardsShown):
            showdown.append(("Showdown", e.seat, "Shows Cards", 0, False))
        elif isinstance(e, CardsMucked):
            showdown.append(("Showdown", e.seat, "Mucks Cards", 0, False))
    return betting + showdown


def check_against_the_hand(doc: dict[str, Any], info: HandInfo) -> None:
    """The document alone accounts for every chip, and agrees with the replay."""
    ohh = doc["ohh"]
    result = history.replay(info.history)
    final = result.final_stacks
    n = len(final)
    assert [p["id"] for p in ohh["players"]] == list(range(n))
    assert [p["seat"] for p in ohh["players"]] == list(info.seats)
    assert [p["name"] for p in ohh["players"]] == list(info.players)
    assert [p["starting_stack"] for p in ohh["players"]] == [
        Decimal(s) if result.scale > 1 else s for s in info.history.starting_stacks
    ]
    assert actions_of(doc) == expected_actions(info)
    rounds = ohh["rounds"]
    assert rounds[0]["street"] == "Preflop"
    assert [r["id"] for r in rounds] == list(range(len(rounds)))
    for r in rounds:
        assert [a["action_number"] for a in r["actions"]] == list(range(1, len(r["actions"]) + 1))
    board = [c for r in rounds for c in r["cards"]]
    assert board == [str(c) for c in result.hand.board]

    # Contributions, and the uncalled bets a reader works out from the street totals.
    put_in = [0] * n
    returned = [0] * n
    for r in rounds:
        street_totals = [0] * n
        for a in r["actions"]:
            put_in[a["player_id"]] += a["amount"]
            if a["action"] in LIVE:
                street_totals[a["player_id"]] += a["amount"]
        ranked = sorted(range(n), key=lambda p: street_totals[p], reverse=True)
        returned[ranked[0]] += street_totals[ranked[0]] - street_totals[ranked[1]]
    won = [0] * n
    for pot in ohh["pots"]:
        assert sum(w["win_amount"] for w in pot["player_wins"]) == pot["amount"]
        for w in pot["player_wins"]:
            won[w["player_id"]] += w["win_amount"]
    assert [p["number"] for p in ohh["pots"]] == list(range(len(ohh["pots"])))
    assert sum(p["amount"] for p in ohh["pots"]) == sum(put_in) - sum(returned)
    for p, player in enumerate(ohh["players"]):
        assert player["starting_stack"] - put_in[p] + returned[p] + won[p] == final[p]
    # ... and the engine returned exactly those bets.
    engine_returned = [0] * n
    for e in result.events:
        if isinstance(e, UncalledBetReturned):
            engine_returned[e.seat] += e.amount
    assert returned == [
        Decimal(r) / result.scale if result.scale > 1 else r for r in engine_returned
    ]


def render_and_check(info: HandInfo, **kw: Any) -> dict[str, Any]:
    doc = render(info, **kw)
    validate(doc)
    validate(json.loads(dumps(doc)))
    assert json.loads(dumps(doc), parse_float=Decimal) == doc  # Decimals written exactly
    check_against_the_hand(doc, info)
    return doc


def action(doc: dict[str, Any], street: str, name: str) -> list[dict[str, Any]]:
    return [
        a
        for r in doc["ohh"]["rounds"]
        if r["street"] == street
        for a in r["actions"]
        if a["action"] == name
    ]


# -- hands our engine played --------------------------------------------------------------


def test_hundreds_of_engine_hands_conform_and_add_up() -> None:
    seen: Counter[str] = Counter()
    for info in engine_hands(400, seed=2024):
        doc = render_and_check(info)
        ohh = doc["ohh"]
        pots = ohh["pots"]
        kinds = {a[2] for a in actions_of(doc)}
        seen["hands"] += 1
        seen["heads-up"] += len(ohh["players"]) == 2
        seen["side pots"] += len(pots) > 1
        seen["split pots"] += any(len(p["player_wins"]) > 1 for p in pots)
        seen["showdowns"] += any(r["street"] == "Showdown" for r in ohh["rounds"])
        seen["mucks"] += "Mucks Cards" in kinds
        seen["all-ins"] += any(a[4] for a in actions_of(doc))
        seen["antes"] += "Post Ante" in kinds
        seen["posted to come back"] += [a[2] for a in actions_of(doc)].count("Post BB") > 1
        seen["river"] += any(r["street"] == "River" for r in ohh["rounds"])
        seen["uncalled"] += any(isinstance(e, UncalledBetReturned) for e in _events(info))
        seen["re-raises"] += any(len(action(doc, s, "Raise")) > 1 for s in ("Preflop", "Flop"))
        # Observed by default: no hole cards but those shown.
        dealt = action(doc, "Preflop", "Dealt Cards")
        assert len(dealt) == len(ohh["players"]) and all("cards" not in a for a in dealt)
        assert ohh["hero_player_id"] is None
    assert seen["hands"] == 400
    assert seen["posted to come back"] >= 1, seen
    for case in ("heads-up", "side pots", "split pots", "showdowns", "mucks", "all-ins"):
        assert seen[case] >= 3, (case, seen)
    for case in ("antes", "river", "uncalled", "re-raises"):
        assert seen[case] >= 10, (case, seen)


def _events(info: HandInfo) -> list[object]:
    return list(history.replay(info.history).events)


def test_hero_sees_their_own_cards_and_shown_cards_are_public() -> None:
    for info in engine_hands(60, seed=7):
        result = history.replay(info.history)
        for hero in range(len(info.players)):
            doc = render_and_check(info, hero=hero)
            assert doc["ohh"]["hero_player_id"] == hero
            with_cards = {
                a["player_id"]: a["cards"]
                for a in action(doc, "Preflop", "Dealt Cards")
                if "cards" in a
            }
            assert with_cards == {hero: [str(c) for c in result.hand.holes[hero]]}
            shown = {a["player_id"]: a["cards"] for a in action(doc, "Showdown", "Shows Cards")}
            for e in result.events:
                if isinstance(e, CardsShown):
                    assert shown[e.seat] == [str(c) for c in e.cards]
            assert all("cards" not in a for a in action(doc, "Showdown", "Mucks Cards"))


def test_dealer_seat_is_the_button_and_seats_are_the_tables() -> None:
    for info in engine_hands(30, seed=11):
        doc: dict[str, Any] = render(info)
        ohh = doc["ohh"]
        assert ohh["dealer_seat"] == info.seats[-1]  # PHH order ends with the button
        assert ohh["table_size"] == info.max_seats
        assert ohh["game_number"] == str(info.hand_id)
        assert ohh["currency"] == "XPM"  # chips: the specification's play money


def test_a_dead_button_and_a_small_blind_nobody_posted_are_the_tables() -> None:
    info = table_info(dead_button_hand(), hand_id=5)
    doc = render_and_check(info)
    ohh = doc["ohh"]
    assert info.seats == (5, 6, 1)  # the button's seat, 2, is empty
    assert (ohh["dealer_seat"], ohh["small_blind_amount"], ohh["big_blind_amount"]) == (2, 5, 10)
    assert [a["action"] for a in action(doc, "Preflop", "Post BB")] == ["Post BB"]
    assert action(doc, "Preflop", "Post SB") == []


# -- the amount an action records ---------------------------------------------------------


def test_amounts_are_what_each_action_puts_in_not_the_total_raised_to() -> None:
    """OHH action page: "if a player bet $2 and was raised then re-raised to a total of $20
    the amount for the raise should be 18.00". Our flop here is that example times 100."""
    info = phh(
        [10_000, 10_000, 10_000],
        [50, 100, 0],
        ["d dh p1 AcAd", "d dh p2 7c2d", "d dh p3 KcKd",
         "p3 cbr 300",   # Raise 300 (nothing in front)
         "p1 cbr 900",   # the small blind re-raises to 900: puts in 850
         "p2 f",
         "p3 cc",        # Call: 600 more
         "d db 2h7s9d",
         "p1 cbr 200",   # Bet 200
         "p3 cbr 600",   # Raise 600
         "p1 cbr 2000",  # re-raise to a total of 2000 after betting 200: puts in 1800
         "p3 cc",        # Call: 1400 more
         "d db Qh",
         "p1 cbr 3000",  # Bet 3000, never called
         "p3 f"],
    )  # fmt: skip
    doc = render_and_check(info)
    moves = [(a[0], a[1], a[2], a[3]) for a in actions_of(doc) if a[2] != "Dealt Cards"]
    assert moves == [
        ("Preflop", 0, "Post SB", 50),
        ("Preflop", 1, "Post BB", 100),
        ("Preflop", 2, "Raise", 300),
        ("Preflop", 0, "Raise", 850),
        ("Preflop", 1, "Fold", 0),
        ("Preflop", 2, "Call", 600),
        ("Flop", 0, "Bet", 200),
        ("Flop", 2, "Raise", 600),
        ("Flop", 0, "Raise", 1800),
        ("Flop", 2, "Call", 1400),
        ("Turn", 0, "Bet", 3000),
        ("Turn", 2, "Fold", 0),
    ]
    # The uncalled 3000 has no action; as in the specification's example hand, the pot
    # holds only what was called: 900 + 100 + 900 preflop, 2000 + 2000 on the flop.
    assert doc["ohh"]["pots"] == [
        {"number": 0, "amount": 5900, "rake": 0, "jackpot": 0,
         "player_wins": [{"player_id": 0, "win_amount": 5900}]},
    ]  # fmt: skip


def test_forced_bets_antes_straddle_and_all_in_blind() -> None:
    info = phh(
        [5_000, 70, 5_000, 5_000],
        [50, 100, 200, 0],
        ["d dh p1 AcAd", "d dh p2 7c2d", "d dh p3 KcKd", "d dh p4 QcQd",
         "p4 cbr 600", "p1 f", "p3 cc",
         "d db 2h7s9d", "p3 cc", "p4 cc", "d db Qh", "p3 cc", "p4 cc", "d db 3s",
         "p3 cc", "p4 cc"],
        antes=[10, 10, 10, 10],
        min_bet=100,
    )  # fmt: skip
    doc = render_and_check(info)
    forced = [(a[1], a[2], a[3], a[4]) for a in actions_of(doc) if a[2].startswith(("Post", "Str"))]
    assert forced == [
        (0, "Post Ante", 10, False),
        (1, "Post Ante", 10, False),
        (2, "Post Ante", 10, False),
        (3, "Post Ante", 10, False),
        (0, "Post SB", 50, False),
        (1, "Post BB", 60, True),  # all in for what was left after the ante
        (2, "Straddle", 200, False),
    ]
    ohh = doc["ohh"]
    assert (ohh["small_blind_amount"], ohh["big_blind_amount"], ohh["ante_amount"]) == (50, 100, 10)
    assert len(ohh["pots"]) == 2  # the short big blind's main pot and a side pot


def test_a_first_bet_before_the_flop_is_a_raise() -> None:
    """ "Bet" is not a valid pre-flop action (OHH action page); with antes and no blinds
    our engine calls the first one a bet."""
    info = phh(
        [1_000, 1_000, 1_000],
        [0, 0, 0],
        ["d dh p1 AcAd", "d dh p2 7c2d", "d dh p3 KcKd", "p1 cbr 40", "p2 f", "p3 f"],
        antes=[5, 5, 5],
        min_bet=10,
    )
    assert any(
        isinstance(e, ActionTaken) and e.kind == "bet" and e.street == 0 for e in _events(info)
    )
    doc = render_and_check(info)
    assert [a[2] for a in actions_of(doc)].count("Raise") == 1
    assert "Bet" not in {a[2] for a in actions_of(doc)}


def test_split_pot_with_an_odd_chip() -> None:
    info = phh(
        [1_000, 1_000, 1_000],
        [5, 10, 0],
        ["d dh p1 2c3c", "d dh p2 4d5d", "d dh p3 6h8h", "p3 cc", "p1 f", "p2 cc",
         "d db AsKsQs", "p2 cc", "p3 cc", "d db Js", "p2 cc", "p3 cc", "d db Ts",
         "p2 cc", "p3 cc"],
        min_bet=10,
    )  # fmt: skip
    doc = render_and_check(info)
    (pot,) = doc["ohh"]["pots"]
    assert pot["amount"] == 25
    # The odd chip goes to the first winner left of the button.
    assert pot["player_wins"] == [
        {"player_id": 1, "win_amount": 13},
        {"player_id": 2, "win_amount": 12},
    ]
    assert [(a["player_id"], a["cards"]) for a in action(doc, "Showdown", "Shows Cards")] == [
        (1, ["4d", "5d"]),
        (2, ["6h", "8h"]),
    ]


# -- real hands ---------------------------------------------------------------------------


def test_pluribus_hand() -> None:
    hh = history.load((PHH / "pluribus" / "30" / "0.phh").read_text(encoding="utf-8"))
    info = info_for(hh, hand_id=30_000)
    doc = render_and_check(info)
    ohh = doc["ohh"]
    assert [p["name"] for p in ohh["players"]] == [
        "MrWhite", "Gogo", "Budd", "Eddie", "Bill", "Pluribus",
    ]  # fmt: skip
    assert ohh["dealer_seat"] == 6
    assert action(doc, "Preflop", "Raise") == [
        {"action_number": 11, "player_id": 4, "action": "Raise", "amount": 225, "is_allin": False}
    ]
    assert ohh["pots"] == [
        {
            "number": 0,
            "amount": 250,
            "rake": 0,
            "jackpot": 0,
            "player_wins": [{"player_id": 4, "win_amount": 250}],
        },
    ]  # fmt: skip  (the raise to 225 keeps its amount; 125 of it was never called)
    # Pluribus's view: its own cards and nobody else's.
    mine = render_and_check(info, hero=5)
    (dealt,) = [a for a in action(mine, "Preflop", "Dealt Cards") if "cards" in a]
    assert (dealt["player_id"], dealt["cards"]) == (5, ["7c", "Tc"])
    # The recorded result, too.
    assert history.replay(hh).final_stacks == hh.finishing_stacks


def handhq() -> list[history.HandHistory]:
    (path,) = HANDHQ.glob("*.phhs")
    return history.load_all(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("index", range(12))
def test_handhq_dollar_hands(index: int) -> None:
    hh = handhq()[index]
    info = info_for(hh, hand_id=int(hh.fields["hand"]), currency="USD", max_seats=6)
    doc = render_and_check(info, hero=0)
    ohh = doc["ohh"]
    assert ohh["currency"] == "USD"
    assert ohh["dealer_seat"] == hh.fields["seats"][-1]
    # Hole cards recorded as ???? stay unknown, even to the hero, unless the file shows
    # them later (hand 11): the replay's stand-ins never appear.
    dealt = {
        a["player_id"]: a["cards"] for a in action(doc, "Preflop", "Dealt Cards") if "cards" in a
    }
    assert dealt == ({0: ["6s", "Ad"]} if index == 10 else {})


def test_handhq_decimals_are_exact_json_numbers() -> None:
    hh = handhq()[1]
    doc = render_and_check(info_for(hh, currency="USD"))
    stacks = [p["starting_stack"] for p in doc["ohh"]["players"]]
    assert stacks == [419, Decimal("1150.50"), Decimal("270.25"), 270, 170, 609]
    text = dumps(doc)
    assert '"starting_stack": 1150.5}' in text and '"starting_stack": 270.25}' in text
    assert json.loads(text)["ohh"]["players"][2]["starting_stack"] == 270.25


def test_handhq_showdown_shows_the_recorded_cards() -> None:
    """Hand 11 records both players' cards only at showdown ("p1 sm 6sAd"); the replay deals
    stand-ins for the ???? it started from, and it is the recorded cards that are shown."""
    hh = handhq()[10]
    doc = render_and_check(info_for(hh, currency="USD"))
    shows = [(a["player_id"], a["cards"]) for a in action(doc, "Showdown", "Shows Cards")]
    assert shows == [(0, ["6s", "Ad"]), (4, ["Qh", "Kh"])]
    assert [r["street"] for r in doc["ohh"]["rounds"]] == [
        "Preflop", "Flop", "Turn", "River", "Showdown",
    ]  # fmt: skip
    assert [r["actions"] for r in doc["ohh"]["rounds"][1:4]] == [[], [], []]  # all in


# -- the schema checks something ----------------------------------------------------------


def schema() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return loaded


def test_the_schema_is_a_valid_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(schema())
    assert schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert "hh-specs.handhistory.org" in schema()["description"]


def _good() -> dict[str, Any]:
    hh = history.load((PHH / "pluribus" / "30" / "0.phh").read_text(encoding="utf-8"))
    doc: dict[str, Any] = render(info_for(hh), hero=5)
    doc["ohh"]["rounds"].append(
        {"id": 1, "street": "Showdown", "actions": [
            {"action_number": 1, "player_id": 4, "action": "Shows Cards", "cards": ["Ad", "Kd"]}
        ]}
    )  # fmt: skip
    return doc


def _drop(*path: Any) -> Any:
    def change(doc: dict[str, Any]) -> None:
        target = doc
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return change


def _set(value: Any, *path: Any) -> Any:
    def change(doc: dict[str, Any]) -> None:
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


BROKEN = {
    "no ohh wrapper": lambda doc: doc.update(doc.pop("ohh")),
    "missing pots": _drop("ohh", "pots"),
    "missing game_number": _drop("ohh", "game_number"),
    "missing spec_version": _drop("ohh", "spec_version"),
    "missing dealer_seat": _drop("ohh", "dealer_seat"),
    "missing a player's id": _drop("ohh", "players", 0, "id"),
    "missing a round's street": _drop("ohh", "rounds", 0, "street"),
    "missing an action's name": _drop("ohh", "rounds", 0, "actions", 0, "action"),
    "missing a win amount": _drop("ohh", "pots", 0, "player_wins", 0, "win_amount"),
    "bad street": _set("Flopp", "ohh", "rounds", 0, "street"),
    "street in lower case": _set("preflop", "ohh", "rounds", 0, "street"),
    "bad action": _set("Limp", "ohh", "rounds", 0, "actions", 0, "action"),
    "bad game type": _set("Texas Hold'em", "ohh", "game_type"),
    "bad bet type": _set("No Limit", "ohh", "bet_limit", "bet_type"),
    "amount as text": _set("50", "ohh", "rounds", 0, "actions", 0, "amount"),
    "negative amount": _set(-50, "ohh", "rounds", 0, "actions", 0, "amount"),
    "bad card": _set(["7c", "10c"], "ohh", "rounds", 0, "actions", 7, "cards"),
    "board cards as text": _set("2h7s9d", "ohh", "rounds", 0, "cards"),
    "seat as text": _set("1", "ohh", "players", 0, "seat"),
    "tournament as text": _set("no", "ohh", "tournament"),
    "bad version": _set("1.4", "ohh", "spec_version"),
    "bad date": _set("17/05/2024 20:30", "ohh", "start_date_utc"),
}


def test_the_unbroken_document_conforms() -> None:
    validate(_good())


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_the_schema_rejects_broken_documents(name: str) -> None:
    doc = copy.deepcopy(_good())
    BROKEN[name](doc)
    with pytest.raises(jsonschema.ValidationError):
        validate(doc)


# -- odds and ends ------------------------------------------------------------------------


def test_start_date_is_written_in_utc() -> None:
    hh = history.load((PHH / "pluribus" / "30" / "0.phh").read_text(encoding="utf-8"))
    cest = timezone(timedelta(hours=2))
    info = info_for(hh)
    aware = HandInfo(1, "t", datetime(2024, 5, 17, 22, 30, 5, tzinfo=cest), info.players,
                     info.seats, hh)  # fmt: skip
    naive = HandInfo(1, "t", datetime(2024, 5, 17, 20, 30, 5), info.players, info.seats, hh)
    for info in (aware, naive):
        doc: dict[str, Any] = render(info)
        assert doc["ohh"]["start_date_utc"] == "2024-05-17T20:30:05Z"


def test_info_that_does_not_fit_the_hand_is_refused() -> None:
    hh = history.load((PHH / "pluribus" / "30" / "0.phh").read_text(encoding="utf-8"))
    info = info_for(hh)
    with pytest.raises(ValueError, match="hero"):
        render(info, hero=6)
    short = HandInfo(1, "t", WHEN, info.players[:5], info.seats[:5], hh)
    with pytest.raises(ValueError, match="6 players"):
        render(short)


def test_dumps_writes_what_json_dumps_would() -> None:
    hh = history.load((PHH / "pluribus" / "30" / "0.phh").read_text(encoding="utf-8"))
    doc = render(info_for(hh))
    for indent in (None, 2):
        assert dumps(doc, indent=indent) == json.dumps(doc, indent=indent, ensure_ascii=False)
    assert dumps({"a": [], "b": {}, "c": "é"}, indent=2) == json.dumps(
        {"a": [], "b": {}, "c": "é"}, indent=2, ensure_ascii=False
    )
    with pytest.raises(ValueError, match="not a JSON number"):
        dumps({"amount": Decimal("NaN")})
