"""PHH for every game: our hands written as PHH replay to the same events and stacks;
what one player saw hides exactly what they did not see; pokerkit reads ours."""

from __future__ import annotations

import random

import pokerkit as pk
import pytest

from engine import history
from engine.actions import Action, BetOrRaiseTo, BringIn, CheckOrCall, Draw, Fold
from engine.deck import Deck
from engine.events import Event, PlayerStood
from engine.games import GAMES
from engine.hand import Hand
from engine.rules import AnteKind, TableConfig, game
from engine.table import Table

KEYS = [*GAMES, "5cd-bug", "nlhe-wild2"]


def config_for(key: str, seats: int) -> TableConfig:
    g = game(key)
    if g.blinds:
        return TableConfig(small_blind=5, big_blind=10, seats=seats, game=g, min_buy_in=10)
    return TableConfig(
        game=g,
        seats=seats,
        ante=2,
        ante_kind=AnteKind.PER_PLAYER,
        bring_in=3 if g.bring_in else 0,
        small_bet=10,
        min_buy_in=10,
    )


def random_action(table: Table, rng: random.Random) -> Action:
    seat = table.to_act
    assert seat is not None and table.hand is not None
    menu = table.legal_actions(seat)
    assert menu is not None
    if menu.can_draw:
        hole = table.hand.holes[table.hand.position[seat]]
        return Draw(seat, tuple(rng.sample(hole, rng.randint(0, menu.max_discard))))
    choices: list[Action] = []
    if menu.can_fold:
        choices.append(Fold(seat))
    if menu.can_call:
        choices += [CheckOrCall(seat)] * 3
    if menu.can_bring_in:
        choices.append(BringIn(seat))
    if menu.can_raise:
        choices.append(BetOrRaiseTo(seat, rng.randint(menu.min_raise_to, menu.max_raise_to)))
    return rng.choice(choices)


def played_hands(key: str, count: int, rng: random.Random) -> list[tuple[Table, Hand, list[Event]]]:
    """Random hands of ``key`` at a table: (table, hand, events) for each."""
    g = game(key)
    seats = min(6, g.max_players)
    out: list[tuple[Table, Hand, list[Event]]] = []
    table = Table(config_for(key, seats))
    for _ in range(count):
        for seat in range(seats):
            if seat not in table._seats:
                table.sit_down(seat, rng.choice((20, 100, 400)), wait_for_big_blind=False)
        events = list(table.start_hand(Deck.shuffled(rng, g.deck)))
        while table.hand_in_progress:
            events += table.apply(random_action(table, rng))
        assert table.hand is not None  # the hand just played stays until the next starts
        out.append((table, table.hand, events))
    return out


@pytest.mark.parametrize("key", KEYS)
def test_our_hands_of_every_game_replay_from_phh_to_the_same_events(key: str) -> None:
    rng = random.Random(f"phh {key}")
    for _, hand, _events in played_hands(key, 40, rng):
        written = history.from_hand(hand)
        text = history.dump(written)
        loaded = history.load(text)
        assert loaded.game.key == game(key).key
        setup = hand.setup
        result = history.replay(
            loaded, seats=setup.seats, button=setup.button, small_blind=setup.small_blind
        )
        played = [e for e in hand.log if not isinstance(e, PlayerStood)]
        assert result.events == played, text
        assert history.check(loaded).status == "match", text


@pytest.mark.parametrize("key", ["stud", "razz", "27td", "badugi", "plo8", "dice"])
def test_a_players_view_hides_what_they_did_not_see_and_still_replays(key: str) -> None:
    rng = random.Random(f"view {key}")
    for _, hand, _events in played_hands(key, 30, rng):
        written = history.from_hand(hand)
        for position in range(len(hand.seats)):
            seen = history.redact(written, position)
            mine = f"p{position + 1}"
            for line in seen.actions:
                words = line.split()
                if words[:2] == ["d", "dh"] and words[2] != mine and not game(key).up_cards:
                    assert set(words[3]) == {"?"}, line  # nothing of theirs face down
                open_dice = game(key).deck.dice  # dice are rolled in the open
                if len(words) > 2 and words[1] == "sd" and words[0] != mine and not open_dice:
                    assert set(words[2]) == {"?"}, line  # nor what they threw away
            result = history.check(seen)
            assert result.status == "match", (history.dump(seen), result.message)


def test_stud_up_cards_stay_in_everyones_view() -> None:
    rng = random.Random(3)
    ((_, hand, _),) = played_hands("stud", 1, rng)
    seen = history.redact(history.from_hand(hand), 0)
    third = next(line for line in seen.actions if line.startswith("d dh p2")).split()[3]
    assert third[:4] == "????" and third[4:] == str(hand.holes[1][2])


@pytest.mark.parametrize("key", ["nlhe", "flhe", "plo", "stud", "razz", "27td", "badugi", "27sd"])
def test_pokerkit_reads_our_phh_of_the_games_it_plays(key: str) -> None:
    rng = random.Random(f"pk {key}")
    for _, hand, _events in played_hands(key, 10, rng):
        text = history.dump(history.from_hand(hand))
        pk_hh = pk.HandHistory.loads(text)
        assert pk_hh.variant == game(key).code
        assert len(pk_hh.actions) == len(history.load(text).actions)
