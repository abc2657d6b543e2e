"""Table options (docs/rules.md, "Table options") in the stored hand and every export:
PHH, PokerStars text and OHH; and ``pokerroom verify`` checks hands played with them, the
seed's deck determining every card."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime

import pytest

import engine
from engine import Hand, Table, TableConfig, history
from server.export import HandInfo, ohh, pokerstars
from server.fairness import HandIdentity, Shuffle, verify_history
from tests.helpers import play_out

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]
NOON = datetime(2024, 5, 6, 12, 0, 0, tzinfo=UTC)


def info_for(hand: Hand, shuffle: Shuffle | None = None) -> HandInfo:
    """The hand as the store keeps it: its PHH (with the shuffle's fields) and context."""
    hh = history.from_hand(hand, players=[NAMES[s] for s in hand.seats])
    if shuffle is not None:
        hh.fields.update(shuffle.phh_fields())
    button = hand.setup.button
    assert button is not None
    return HandInfo(
        hand_id=hand.setup.hand_number,
        table_name="options",
        started_at=NOON,
        players=tuple(NAMES[s] for s in hand.seats),
        seats=tuple(s + 1 for s in hand.seats),
        history=history.load(history.dump(hh)),
        max_seats=6,
        button=button + 1,
        small_blind=hand.setup.small_blind,
    )


def session(
    key: str, count: int, seed: int, *, setup: str = "straddle", **options: object
) -> Iterator[tuple[Hand, Shuffle]]:
    """``count`` hands of game ``key`` at a five-player table with the options on, each
    dealt from its own seed; busted players are replaced."""
    config = engine.TableConfig(
        game=engine.game(key),
        small_blind=50,
        big_blind=100,
        seats=6,
        min_buy_in=100,
        **options,  # type: ignore[arg-type]
    )
    table = Table(config)
    rng = random.Random(seed)
    for _ in range(count):
        for chair in range(5):
            if chair not in table.occupied():
                table.sit_down(chair, rng.choice([250, 2_000, 10_000]), wait_for_big_blind=False)
            if setup == "straddle":
                table.set_straddle(chair)
        shuffle = Shuffle(HandIdentity("options", table.hand_number + 1), rng.randbytes(32))
        table.start_hand(shuffle.deck(config.game.deck))
        play_out(table, rng)
        assert table.hand is not None
        yield table.hand, shuffle


# -- straddles -------------------------------------------------------------------------


def straddle_hands(key: str = "nlhe", count: int = 30) -> list[tuple[Hand, Shuffle]]:
    hands = list(session(key, count, 7, button_straddle=True))
    assert sum(h.setup.straddle > 0 for h, _ in hands) >= count // 3
    return hands


def test_pokerstars_text_posts_the_straddle_and_counts_raises_from_it() -> None:
    seen = 0
    for hand, _ in straddle_hands():
        if not hand.setup.straddle:
            continue
        text = pokerstars.render(info_for(hand))
        p = hand.setup.big_blind_position
        assert p is not None
        straddler = NAMES[hand.seats[p]]
        posted = min(hand.setup.straddle, hand.setup.stacks[p])
        assert f"{straddler}: posts straddle {posted}" in text, text
        # The first preflop raise is counted from the straddle, as PokerStars counts
        # raises from the bet faced.
        first = re.search(r": raises (\d+) to (\d+)", text.split("*** FLOP ***")[0])
        if first:
            assert int(first[2]) - int(first[1]) == 200, text
            seen += 1
    assert seen >= 3


def test_ohh_writes_the_straddle_as_its_straddle_action() -> None:
    for hand, _ in straddle_hands(count=12):
        document = ohh.render(info_for(hand))
        ohh.validate(document)
        actions = [a for r in document["ohh"]["rounds"] for a in r["actions"]]  # type: ignore[index]
        straddles = [a for a in actions if a["action"] == "Straddle"]
        assert len(straddles) == (1 if hand.setup.straddle else 0)


@pytest.mark.parametrize("key", ["nlhe", "plo", "plo8"])
def test_straddle_hands_verify_against_their_seed(key: str) -> None:
    for hand, shuffle in straddle_hands(key, 12):
        info = info_for(hand, shuffle)
        result = verify_history(info.history)
        assert result.ok, result.message
        assert history.check(info.history).status == "match"


def test_a_changed_straddle_field_no_longer_replays_the_hand() -> None:
    """The straddle's size is part of the stored hand: without ``_straddle`` the same
    actions are read with pokerkit's raise by the big blind, and a replay that differs
    must say so or play the same raises (never silently another hand)."""
    for hand, _ in straddle_hands(count=20):
        if not hand.setup.straddle:
            continue
        info = info_for(hand)
        assert info.history.fields[history.STRADDLE_FIELD] == 200
        fields = dict(info.history.fields)
        del fields[history.STRADDLE_FIELD]
        bare = replace(info.history, fields=fields)
        assert history.replay(bare).hand.setup.straddle == 0
        break
    else:
        pytest.fail("no straddle")


def test_the_table_config_option_and_seat_flag_are_in_the_views() -> None:
    table = Table(TableConfig(small_blind=50, big_blind=100, seats=6, button_straddle=True))
    table.sit_down(0, 10_000)
    table.set_straddle(0)
    view = table.view(None)
    assert view.config.button_straddle
    assert [s.straddle for s in view.seats] == [True]


# -- bomb pots and the double board ------------------------------------------------------


def bomb_hands(key: str, boards: int, count: int = 10) -> list[tuple[Hand, Shuffle]]:
    hands = list(
        session(key, count, 11, setup="", bomb_pot=150, bomb_pot_every=1, bomb_pot_boards=boards)
    )
    assert all(h.setup.bomb_pot and h.setup.boards == boards for h, _ in hands)
    return hands


def collected(text: str) -> int:
    return sum(int(m) for m in re.findall(r" collected (\d+) from", text))


@pytest.mark.parametrize("key", ["nlhe", "plo8"])
def test_pokerstars_text_of_a_double_board_names_each_board_as_a_hand_run_twice(key: str) -> None:
    showdowns = 0
    for hand, _ in bomb_hands(key, 2):
        text = pokerstars.render(info_for(hand))
        assert "posts the ante 150" in text or "posts the ante" in text
        assert "posts small blind" not in text and "posts big blind" not in text
        assert text.index("*** FIRST FLOP ***") < text.index("*** SECOND FLOP ***"), text
        assert hand.boards is not None
        assert f"FIRST Board [{' '.join(map(str, hand.boards[0]))}]" in text, text
        assert f"SECOND Board [{' '.join(map(str, hand.boards[1]))}]" in text, text
        pot = sum(e.amount for e in hand.log if isinstance(e, engine.PotAwarded))
        assert f"Total pot {pot} " in text
        assert collected(text) == pot, text
        if "*** FIRST SHOW DOWN ***" in text:
            showdowns += 1
            assert text.index("*** FIRST SHOW DOWN ***") < text.index("*** SECOND SHOW DOWN ***")
    assert showdowns >= 2


def test_pokerstars_text_of_a_bomb_pot_has_no_preflop_action() -> None:
    for hand, _ in bomb_hands("nlhe", 1, 6):
        text = pokerstars.render(info_for(hand))
        preflop = text.split("*** HOLE CARDS ***")[1].split("*** FLOP ***")[0]
        assert not re.search(r": (checks|calls|bets|raises|folds)", preflop), text
        assert "*** FIRST" not in text


@pytest.mark.parametrize("boards", [1, 2])
def test_ohh_flags_a_bomb_pot_and_a_second_board(boards: int) -> None:
    for hand, _ in bomb_hands("plo", boards, 6):
        document = ohh.render(info_for(hand))
        ohh.validate(document)
        body: dict[str, object] = document["ohh"]  # type: ignore[assignment]
        flags = ["Bomb_Pot"] + (["Run_It_Twice"] if boards == 2 else [])
        assert body["flags"] == flags
        rounds: list[dict[str, object]] = body["rounds"]  # type: ignore[assignment]
        preflop = rounds[0]["actions"]
        assert {a["action"] for a in preflop} == {"Post Ante", "Dealt Cards"}  # type: ignore[attr-defined]
        streets = [r["street"] for r in rounds if r["street"] != "Showdown"]
        assert streets.count("Flop") == boards
        wins = sum(w["win_amount"] for p in body["pots"] for w in p["player_wins"])  # type: ignore[attr-defined]
        assert wins == sum(e.amount for e in hand.log if isinstance(e, engine.PotAwarded))


@pytest.mark.parametrize("key", ["nlhe", "plo", "plo8", "shortdeck"])
@pytest.mark.parametrize("boards", [1, 2])
def test_bomb_pots_verify_against_their_seed(key: str, boards: int) -> None:
    for hand, shuffle in bomb_hands(key, boards, 6):
        info = info_for(hand, shuffle)
        result = verify_history(info.history)
        assert result.ok, result.message
        board_cards = sum(map(len, hand.boards)) if hand.boards else len(hand.board)
        assert result.cards_checked >= board_cards + 2 * len(hand.seats)


def test_a_second_board_card_the_seed_did_not_deal_fails_verify() -> None:
    hand, shuffle = bomb_hands("nlhe", 2, 1)[0]
    assert hand.boards is not None
    text = history.dump(info_for(hand, shuffle).history)
    flop = "".join(map(str, hand.boards[1][:3]))
    unused = next(c for c in engine.Deck.shuffled(random.Random(0)).cards if str(c) not in text)
    tampered = text.replace(f'"d db {flop}"', f'"d db {flop[:4]}{unused}"')
    assert tampered != text
    result = verify_history(history.load(tampered))
    assert not result.ok and result.problem == "card"
    assert "board" in result.message


# -- running it twice --------------------------------------------------------------------


def run_twice_hands(key: str, count: int = 8) -> list[tuple[Hand, Shuffle]]:
    """Hands at a table offering to run it twice where everyone moves all in before the
    flop, or on it, and everyone (mostly) agrees."""
    config = TableConfig(
        game=engine.game(key), small_blind=50, big_blind=100, seats=6, min_buy_in=100,
        run_it_twice=True,
    )  # fmt: skip
    table = Table(config)
    rng = random.Random(key)
    hands = []
    for _ in range(count):
        for chair in range(3):
            if chair not in table.occupied():
                table.sit_down(chair, rng.choice([500, 5_000]), wait_for_big_blind=False)
        shuffle = Shuffle(HandIdentity("twice", table.hand_number + 1), rng.randbytes(32))
        table.start_hand(shuffle.deck(config.game.deck))
        while table.hand_in_progress:
            seat = table.to_act
            assert seat is not None
            menu = table.legal_actions(seat)
            assert menu is not None
            if menu.run_it_twice:
                table.apply(engine.RunItTwice(seat, rng.random() < 0.85))
            elif menu.can_raise:
                table.apply(engine.BetOrRaiseTo(seat, menu.max_raise_to))
            else:
                table.apply(engine.CheckOrCall(seat))
        assert table.hand is not None
        hands.append((table.hand, shuffle))
    assert sum(h.boards is not None for h, _ in hands) >= 3
    return hands


@pytest.mark.parametrize("key", ["nlhe", "plo8"])
def test_pokerstars_text_says_the_hand_was_run_twice_as_pokerstars_does(key: str) -> None:
    for hand, _ in run_twice_hands(key):
        text = pokerstars.render(info_for(hand))
        pot = sum(e.amount for e in hand.log if isinstance(e, engine.PotAwarded))
        assert collected(text) == pot, text
        if hand.boards is None:
            assert "run twice" not in text and "*** FIRST" not in text, text
            continue
        assert "Hand was run twice" in text, text
        for i, word in enumerate(("FIRST", "SECOND")):
            assert f"{word} Board [{' '.join(map(str, hand.boards[i]))}]" in text, text
            assert f"*** {word} SHOW DOWN ***" in text, text
        # The runs' streets, the first run's first; streets dealt before are shared.
        assert text.index("*** FIRST RIVER ***") < text.index("*** SECOND RIVER ***"), text
        shared = sum(a == b for a, b in zip(*hand.boards, strict=True))
        if shared:
            assert "*** FLOP ***" in text and "*** FIRST FLOP ***" not in text, text


def test_ohh_flags_a_hand_run_twice() -> None:
    for hand, _ in run_twice_hands("plo"):
        document = ohh.render(info_for(hand))
        ohh.validate(document)
        body: dict[str, object] = document["ohh"]  # type: ignore[assignment]
        assert body["flags"] == (["Run_It_Twice"] if hand.boards is not None else [])


@pytest.mark.parametrize("key", ["nlhe", "plo", "plo8"])
def test_hands_run_twice_verify_against_their_seed(key: str) -> None:
    for hand, shuffle in run_twice_hands(key):
        info = info_for(hand, shuffle)
        assert history.RUN_IT_TWICE_FIELD in info.history.fields
        result = verify_history(info.history)
        assert result.ok, result.message
        cards = sum(map(len, hand.boards)) if hand.boards else len(hand.board)
        assert result.cards_checked >= cards


def test_a_second_run_card_the_seed_did_not_deal_fails_verify() -> None:
    hand, shuffle = next((h, s) for h, s in run_twice_hands("nlhe") if h.boards is not None)
    assert hand.boards is not None
    text = history.dump(info_for(hand, shuffle).history)
    river = str(hand.boards[1][-1])
    unused = next(c for c in engine.Deck.shuffled(random.Random(0)).cards if str(c) not in text)
    tampered = text.replace(f'"d db {river}"', f'"d db {unused}"')
    assert tampered != text
    result = verify_history(history.load(tampered))
    assert not result.ok and result.problem == "card"


# -- the 7-2 bounty, cards shown after the hand, the rabbit --------------------------------

SEVEN_DEUCE = "7h Kc Qd 2c Kd Qs 3s 4s 5s 8d 9h"


def seven_deuce_hand() -> Hand:
    """Seat 1 (7h 2c) raises, the others fold; seat 1 shows, seat 0 shows a queen, and
    the rabbit is hunted."""
    table = Table(TableConfig(small_blind=50, big_blind=100, seats=6, seven_deuce=100))
    for seat in range(3):
        table.sit_down(seat, 10_000)
    table.start_hand(engine.Deck.from_cards(SEVEN_DEUCE))
    table.apply(engine.Fold(0))
    table.apply(engine.BetOrRaiseTo(1, 300))
    table.apply(engine.Fold(2))
    table.show_cards(1, engine.parse_cards("7h 2c"))
    table.show_cards(0, engine.parse_cards("Qs"))
    table.rabbit_hunt()
    assert table.hand is not None
    return table.hand


def test_pokerstars_text_shows_after_the_hand_and_sums_up_the_bounty() -> None:
    text = pokerstars.render(info_for(seven_deuce_hand()))
    lines = text.splitlines()
    assert lines.index("Bob collected 200 from pot") < lines.index("Bob: shows [7h 2c]")
    assert "Ann: shows [Qs]" in lines
    summary = lines[lines.index("*** SUMMARY ***") :]
    assert "7-2 bounty: Bob collected 200 (Cy 100, Ann 100)" in summary


def test_ohh_shows_the_cards_shown_after_the_hand() -> None:
    document = ohh.render(info_for(seven_deuce_hand()))
    ohh.validate(document)
    rounds: list[dict[str, object]] = document["ohh"]["rounds"]  # type: ignore[index]
    assert rounds[-1]["street"] == "Showdown"
    shows = [(a["player_id"], a["cards"]) for a in rounds[-1]["actions"]]  # type: ignore[attr-defined]
    assert shows == [(0, ["7h", "2c"]), (2, ["Qs"])]  # PHH positions: Bob p1, Ann p3


def test_phh_keeps_what_happened_after_the_hand_in_order() -> None:
    hh = history.from_hand(seven_deuce_hand())
    assert hh.fields[history.AFTER_FIELD] == ["p1 sm 7h2c", "p3 sm Qs", "d rabbit 3s4s5s8d9h"]
    assert history.check(history.load(history.dump(hh))).status == "match"


def after_hands(count: int = 12) -> list[tuple[Hand, Shuffle]]:
    """Hands at a table with the 7-2 bounty, each followed by everyone still seated showing
    and the rabbit hunted."""
    config = TableConfig(small_blind=50, big_blind=100, seats=6, min_buy_in=100, seven_deuce=50)
    table = Table(config)
    rng = random.Random(21)
    hands = []
    for _ in range(count):
        for chair in range(4):
            if chair not in table.occupied():
                table.sit_down(chair, 5_000, wait_for_big_blind=False)
        shuffle = Shuffle(HandIdentity("after", table.hand_number + 1), rng.randbytes(32))
        table.start_hand(shuffle.deck())
        play_out(table, rng, fold_share=0.5)
        hand = table.hand
        assert hand is not None
        table.rabbit_hunt()
        for seat in hand.seats:
            if seat in table.occupied() and hand.position[seat] not in hand.shown:
                table.show_cards(seat, hand.holes[hand.position[seat]][:1])
        hands.append((hand, shuffle))
    return hands


def test_shown_cards_and_the_rabbit_verify_against_the_seed() -> None:
    rabbits = 0
    for hand, shuffle in after_hands():
        info = info_for(hand, shuffle)
        result = verify_history(info.history)
        assert result.ok, result.message
        rabbits += any(isinstance(e, engine.RabbitHunted) for e in hand.log)
    assert rabbits >= 3


def test_a_rabbit_card_the_seed_did_not_deal_fails_verify() -> None:
    hand, shuffle = next(
        (h, s) for h, s in after_hands() if any(isinstance(e, engine.RabbitHunted) for e in h.log)
    )
    hh = info_for(hand, shuffle).history
    after = list(hh.fields[history.AFTER_FIELD])
    i = next(k for k, a in enumerate(after) if a.startswith("d rabbit "))
    text = history.dump(hh)
    cards = after[i].split()[2]
    unused = next(c for c in engine.Deck.shuffled(random.Random(0)).cards if str(c) not in text)
    after[i] = f"d rabbit {unused}{cards[2:]}"
    tampered = replace(hh, fields={**hh.fields, history.AFTER_FIELD: after})
    result = verify_history(tampered)
    assert not result.ok and "rabbit" in result.message
