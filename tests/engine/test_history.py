import dataclasses
import json
import random
import warnings
from collections import Counter, deque
from decimal import Decimal
from pathlib import Path

import pytest

from engine import history
from engine.actions import BetOrRaiseTo, CheckOrCall
from engine.cards import parse_cards
from engine.deck import Deck
from engine.errors import EngineError, HistoryError
from engine.events import (
    CardsMucked,
    CardsShown,
    Event,
    ForcedBetPosted,
    HandEnded,
    HandStarted,
    HoleCardsDealt,
    PlayerStood,
    PotAwarded,
)
from engine.hand import Hand
from engine.rules import ButtonRule, TableConfig
from engine.table import Table
from tests.conftest import SHARED_DATA
from tests.helpers import play_out

PHH = SHARED_DATA / "phh"


def check_file(path: Path) -> list[history.ReplayResult]:
    text = path.read_text(encoding="utf-8")
    hands = history.load_all(text) if path.suffix == ".phhs" else [history.load(text)]
    return [history.check(h) for h in hands]


def test_all_10000_pluribus_hands_replay_to_their_recorded_stacks() -> None:
    results = [r for path in sorted((PHH / "pluribus").rglob("*.phh")) for r in check_file(path)]
    assert Counter(r.status for r in results) == {"match": 10_000}
    odd = [r for r in results if r.message]
    assert len(odd) == 8
    assert all(r.message == "odd chip to the first winner left of the button" for r in odd)


def test_odd_chip_split_recorded_as_halves_goes_to_the_first_winner() -> None:
    (result,) = check_file(PHH / "pluribus" / "32" / "23.phh")
    assert result.recorded == [9950, 9275, Decimal("10387.5"), 10000, 10000, Decimal("10387.5")]
    assert result.ours == [9950, 9275, 10388, 10000, 10000, 10387]


def test_wsop_hands_of_nine_variants_match_their_real_outcomes() -> None:
    statuses: Counter[tuple[str, str]] = Counter()
    for path in sorted((PHH / "wsop").rglob("*.phh")):
        variant = history.load(path.read_text(encoding="utf-8")).variant
        for result in check_file(path):
            statuses[(variant, result.status)] += 1
    assert statuses == {
        ("NT", "match"): 12,
        ("FO/8", "match"): 14,
        ("F7S", "match"): 13,
        ("FR", "match"): 10,
        ("PO", "match"): 7,
        ("FT", "match"): 7,
        ("N2L1D", "match"): 7,
        ("F7S/8", "match"): 7,
        ("F2L3D", "match"): 7,
    }


def test_a_limit_raise_written_as_what_the_all_in_player_could_call_replays() -> None:
    """Razz, 2023 hand 85 (pokerkit 0.7.7 cannot replay it): on sixth street p2 raises a
    player all in for 150,000 more, and the file writes the raise as 750,000."""
    (result,) = check_file(PHH / "wsop" / "2023" / "43" / "5" / "85.phh")
    assert result.status == "match"
    assert result.message == "p2 cbr 750000: a raise to 1200000, called only to 750000"


def test_an_unknown_stud_up_card_does_not_bring_in() -> None:
    """Stud hi-lo, 2023 hand 53: p5's cards are unknown (it folds at once); the file has p4
    bring in with the four of clubs, so p5's stand-in up card must be higher."""
    (result,) = check_file(PHH / "wsop" / "2023" / "43" / "5" / "53.phh")
    assert result.status == "match"


def test_big_blind_ante_hand_matches_the_real_outcome() -> None:
    """The 2019 WSOP hand has a big-blind ante and leaves out the button's fold; with the
    ante dead in the main pot (docs/rules.md F2) we get the recorded real-world stacks."""
    (result,) = check_file(PHH / "wsop" / "2019" / "42" / "3" / "00-01-07.phh")
    assert result.status == "match"
    assert result.message == "supplied missing actions: p8 f"


def test_top_level_hands_dwan_ivey_replays_to_the_televised_result() -> None:
    (dwan,) = check_file(PHH / "dwan-ivey-2009.phh")
    # The file records no finishing_stacks. The televised result: Dwan's seven-high
    # straight beats Ivey's wheel for the 1,109,500 pot; Antonius's blind and ante are dead.
    assert dwan.status == "unsupported" and dwan.message == "no finishing_stacks recorded"
    assert dwan.ours == [1_125_600 - 553_500, 2_000_000 - 2_500, 1_109_500]


@pytest.mark.parametrize(
    "name",
    [
        "antonius-blom-2009.phh",
        "arieh-yockey-2019.phh",
        "phua-xuan-2019.phh",
        "alice-carol-wikipedia.phh",
    ],
)
def test_top_level_hands_of_other_variants_end_as_pokerkit_ends_them(name: str) -> None:
    """PLO, 2-7 triple draw, short deck and Wikipedia's badugi hand (whose cards are
    unknown until the showdown, after three draws): the files record no result; pokerkit's
    replay of each is the oracle."""
    import pokerkit

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns of the unknown cards
        states = list(pokerkit.HandHistory.loads((PHH / name).read_text(encoding="utf-8")))
    (result,) = check_file(PHH / name)
    assert result.ours == list(states[-1].stacks)


def test_handhq_decimal_dollar_hands_replay_in_cents() -> None:
    path = next((PHH / "handhq").rglob("*.phhs"))
    results = check_file(path)
    assert len(results) == 12
    assert {r.status for r in results} == {"unsupported"}  # no finishing_stacks to compare
    assert all(r.ours is not None for r in results)
    first = history.load_all(path.read_text(encoding="utf-8"))[0]
    assert sum(Decimal(v) for v in results[0].ours or []) == sum(
        map(Decimal, first.starting_stacks)
    )


def play_random_hands(seed: int, count: int) -> list[tuple[Table, list[Event]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        table = Table(TableConfig(small_blind=5, big_blind=10, seats=6, min_buy_in=1))
        for chair in rng.sample(range(6), rng.randint(2, 6)):
            table.sit_down(chair, rng.choice([3, 40, 250, 1000]))
        events = table.start_hand(Deck.shuffled(rng))
        events += play_out(table, rng, raise_share=0.35, fold_share=0.15)
        out.append((table, events))
    return out


def renumbered(event: Event, position: dict[int, int]) -> Event:
    """The event with table seats replaced by PHH positions (p1 = 0, ...)."""
    changes: dict[str, object] = {}
    if hasattr(event, "seat"):
        changes["seat"] = position[event.seat]
    if isinstance(event, HandStarted):
        changes |= {
            "seats": tuple(range(len(event.seats))),
            "button": len(event.seats) - 1,
            "big_blind_seat": position[event.big_blind_seat],
        }
    if isinstance(event, PotAwarded):
        changes["eligible"] = tuple(position[s] for s in event.eligible)
        changes["shares"] = tuple((position[s], a) for s, a in event.shares)
    if isinstance(event, HandEnded):
        changes["stacks"] = tuple((position[s], a) for s, a in event.stacks)
    return dataclasses.replace(event, **changes)  # type: ignore[arg-type]


def test_our_hands_written_as_phh_replay_to_the_same_events_and_stacks() -> None:
    for table, _ in play_random_hands(seed=1, count=300):
        hand = table.hand
        assert hand is not None
        replayed = history.replay(history.load(history.dump(history.from_hand(hand))))
        ours = [e for e in hand.log if not isinstance(e, PlayerStood)]
        assert replayed.events == [renumbered(e, hand.position) for e in ours]
        assert replayed.hand.stacks == hand.stacks


def test_a_tables_hands_replay_at_its_seats_to_the_events_the_table_sent() -> None:
    # Players come and go under the dead-button rule: dead buttons, hands without a small
    # blind and newcomers posting. The seats, the button and the small blind come from the
    # table (PHH records none of them); the rest from the history.
    rng = random.Random(5)
    config = TableConfig(
        small_blind=5, big_blind=10, seats=6, min_buy_in=1, button_rule=ButtonRule.DEAD
    )
    table = Table(config)
    dead_buttons = no_small_blind = 0
    for _ in range(300):
        for chair in range(6):
            if chair in table.occupied() and rng.random() < 0.15:
                table.stand_up(chair)
            elif chair not in table.occupied() and rng.random() < 0.3:
                stack = rng.choice([3, 40, 250, 1000])
                table.sit_down(chair, stack, wait_for_big_blind=rng.random() < 0.5)
        try:
            table.start_hand(Deck.shuffled(rng))
        except EngineError:  # not two players ready
            continue
        play_out(table, rng, raise_share=0.35, fold_share=0.15)
        hand = table.hand
        assert hand is not None
        setup = hand.setup
        replayed = history.replay(
            history.load(history.dump(history.from_hand(hand))),
            seats=setup.seats,
            button=setup.button,
            small_blind=setup.small_blind,
        )
        assert replayed.events == [e for e in hand.log if not isinstance(e, PlayerStood)]
        dead_buttons += setup.button not in setup.seats
        no_small_blind += not any(
            isinstance(e, ForcedBetPosted) and e.kind == "small_blind" for e in hand.log
        )
    assert dead_buttons and no_small_blind


def test_a_replay_at_seats_that_do_not_fit_the_hand_is_a_history_error() -> None:
    hh = history.load(BASE + f"actions = {json.dumps([*DEALT, 'p3 f', 'p1 cc', 'p2 cc'])}\n")
    with pytest.raises(HistoryError, match="cannot set up the hand"):
        history.replay(hh, seats=[4, 2])


def test_a_redacted_history_hides_the_hole_cards_that_were_not_shown() -> None:
    hh = history.load(
        BASE + 'actions = ["d dh p1 AcAd", "d dh p2 KcKd", "d dh p3 2c7d # seven-deuce", '
        '"p3 f", "p1 cc", "p2 cc", "d db AhKh2s", "p1 cc", "p2 cc", "d db 3c", "p1 cc", '
        '"p2 cc", "d db 9d", "p1 cc", "p2 cc", "p1 sm AcAd", "p2 sm"]\n_seed = "x"\n'
    )
    seen = history.redact(hh, 2)
    assert seen.actions[:3] == ["d dh p1 ????", "d dh p2 ????", "d dh p3 2c7d"]
    assert seen.actions[3:] == hh.actions[3:]  # shown cards stay; the muck shows nothing
    assert seen.fields == hh.fields and seen.fields is not hh.fields
    spectator = history.dump(history.redact(hh, None))
    assert "KcKd" not in spectator and "2c7d" not in spectator and "seven" not in spectator
    assert "p1 sm AcAd" in spectator
    assert history.load(spectator).actions[0] == "d dh p1 ????"


def test_a_redacted_history_hides_dealt_cards_whatever_follows_them() -> None:
    actions = ["d dh p1 AcAd", "d dh p2 KcKd extra words", "d dh p3 2c7d", "p3 f",
               "p1 cbr 30", "p2 f"]  # fmt: skip
    hh = history.load(BASE + f"actions = {json.dumps(actions)}\n")
    assert history.replay(hh).hand.holes[1] == tuple(parse_cards("KcKd"))  # it deals them
    seen = history.redact(hh, 0)
    assert seen.actions[:3] == ["d dh p1 AcAd", "d dh p2 ????", "d dh p3 ????"]
    assert "Kc" not in history.dump(seen) and "extra" not in history.dump(seen)


def test_a_redacted_history_keeps_no_comment() -> None:
    actions = ["# p2 holds KcKd", "d dh p1 AcAd # aces", "d dh p2 KcKd", "d dh p3 2c7d",
               "p3 f # p2 had KcKd", "p1 cbr 30  #KcKd", "p2 f"]  # fmt: skip
    hh = history.load(BASE + f"actions = {json.dumps(actions)}\n")
    seen = history.redact(hh, 0)
    assert seen.actions == [
        "d dh p1 AcAd", "d dh p2 ????", "d dh p3 ????", "p3 f", "p1 cbr 30", "p2 f"
    ]  # fmt: skip
    assert history.replay(seen).final_stacks == history.replay(hh).final_stacks


def test_phhs_round_trip_keeps_every_hand() -> None:
    hands = [history.from_hand(t.hand) for t, _ in play_random_hands(seed=2, count=20) if t.hand]
    text = history.dump_all(hands)
    loaded = history.load_all(text)
    assert [history.dump(h) for h in loaded] == [history.dump(h) for h in hands]


def rules_differ_from_pokerkit(hand: Hand) -> bool:
    """Hands where docs/rules.md knowingly differs from pokerkit: a blind posted short (F3)
    or a pot with two or more odd chips (S2)."""
    return any(
        (isinstance(e, ForcedBetPosted) and e.all_in)
        or (isinstance(e, PotAwarded) and e.amount % len(e.shares) > 1)
        for e in hand.log
    )


def test_pokerkit_reads_our_phh_and_replays_the_same_stacks() -> None:
    from pokerkit import HandHistory

    compared = 0
    for table, _ in play_random_hands(seed=3, count=300):
        hand = table.hand
        assert hand is not None
        if rules_differ_from_pokerkit(hand):
            continue
        text = history.dump(history.from_hand(hand))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            state = deque(HandHistory.loads(text), maxlen=1)[0]  # the state at the end
        assert list(state.stacks) == hand.stacks, text
        compared += 1
    assert compared >= 150  # of 300; the rest have short blinds or several odd chips


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("variant = ", "not valid PHH"),
        ('variant = "NT"\nactions = []', "missing field 'starting_stacks'"),
        ("[1]\nvariant = 1\n[2]\nfoo = 2", "missing field"),
    ],
)
def test_bad_files_raise_history_errors_naming_the_problem(text: str, message: str) -> None:
    with pytest.raises(HistoryError, match=message):
        history.load_all(text) if text.startswith("[") else history.load(text)


BASE = """
variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [5, 10, 0]
min_bet = 10
starting_stacks = [100, 100, 100]
finishing_stacks = [110, 90, 100]
"""


DEALT = ["d dh p1 AcAd", "d dh p2 KcKd", "d dh p3 2c7d"]
BAD_CARD = "invalid card '7x' at position 1: expected a rank (2-9, T, 10, J, Q, K, A) and a suit"


@pytest.mark.parametrize(
    ("actions", "status", "message"),
    [
        ([*DEALT, "p3 f", "p1 cbr 30", "p2 f"], "match", ""),
        (
            [*DEALT, "p3 f", "p1 cbr 30", "p2 cc", "d db AhKh2h", "p1 cbr 1000"],
            "error",
            "action 8: p1 'cbr 1000': bet to 1000 is outside 10..70",
        ),
        (["d dh p1 AcAd", "d dh p2 AcKd", "d dh p3 2c7d"], "error", "a card is dealt twice"),
        ([*DEALT, "p3 f"], "error", "the actions end before the hand does"),
        ([*DEALT, "p9 f"], "error", "action 4: 'p9' is not a player p1..p3"),
        (
            [*DEALT, "p3 sd"],
            "error",
            "action 4: p3 'sd': seat 2 cannot draw now: there is no draw this street",
        ),
        ([*DEALT, "p3 xx"], "unsupported", "action 4: p3 'xx' is not an action we know"),
        ([*DEALT[:2], "d dh p3 2c7x", "p3 f"], "error", f"action 3: {BAD_CARD} (s, h, d, c)"),
        (
            [*DEALT, "p3 f", "p1 cbr 30", "p2 f", "p1 f"],
            "error",
            "action 7: p1 'f' comes after the hand ended",
        ),
    ],
)
def test_replay_reports_bad_hands_without_crashing(
    actions: list[str], status: str, message: str
) -> None:
    result = history.check(history.load(BASE + f"actions = {json.dumps(actions)}\n"))
    assert (result.status, result.message) == (status, message)


def test_a_changed_result_differs() -> None:
    text = BASE.replace("[110, 90, 100]", "[100, 100, 100]")
    actions = (
        'actions = ["d dh p1 AcAd", "d dh p2 KcKd", "d dh p3 2c7d", "p3 f", "p1 cbr 30", "p2 f"]\n'
    )
    result = history.check(history.load(text + actions))
    assert result.status == "differ" and result.ours == [110, 90, 100]


def test_a_game_we_do_not_play_is_unsupported_not_an_error() -> None:
    text = BASE.replace('"NT"', '"NR"') + 'actions = ["d dh p1 AcAd"]\n'
    result = history.check(history.load(text))
    assert (result.status, result.message) == ("unsupported", "variant 'NR' is not a game we play")


def test_unknown_hole_cards_shown_at_the_end_are_the_ones_that_play() -> None:
    hh = history.load(
        BASE + 'actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 2c7d", "p3 f", "p1 cc", '
        '"p2 cc", "d db AhKh2s", "p1 cc", "p2 cc", "d db 3c", "p1 cc", "p2 cc", "d db 9d", '
        '"p1 cc", "p2 cc", "p1 sm 6s6d", "p2 sm KcKd"]\n'
    )
    replay = history.replay(hh)
    assert [str(c) for c in replay.hand.holes[1]] == ["Kc", "Kd"]
    assert replay.final_stacks == [90, 110, 100]  # kings beat sixes: the shown cards play


def test_showing_cards_other_than_those_dealt_is_an_error() -> None:
    hh = history.load(
        BASE + 'actions = ["d dh p1 AcAd", "d dh p2 KcKd", "d dh p3 2c7d", "p1 sm QcQd"]\n'
    )
    assert history.check(hh).message == "action 4: p1 shows cards not dealt to them"


def test_dead_blinds_with_antes_survive_a_phh_round_trip() -> None:
    from engine.hand import Hand, HandSetup

    setup = HandSetup(
        hand_number=1, seats=(0, 1, 2), stacks=(2000, 2000, 175), small_blind=50,
        big_blind=100, blinds=(50, 100, 100), antes=(25, 25, 25), dead_blinds=(0, 0, 50),
    )  # fmt: skip
    hand = Hand(setup, Deck.from_cards("2c 3d As 7h 8d Ah Kc Qd 4s 9h"))
    hand.start()
    hand.apply(BetOrRaiseTo(0, 1000))
    while not hand.is_over:
        hand.apply(CheckOrCall(hand.seat_to_act))  # type: ignore[arg-type]
    written = history.from_hand(hand)
    assert written.fields["_dead_blinds"] == [0, 0, 50]
    assert history.replay(history.load(history.dump(written))).hand.stacks == hand.stacks


@pytest.mark.parametrize(
    "change",
    [
        ('"p3 f"', '"p3 cbr abc"'),
        ("starting_stacks = [100, 100, 100]", "starting_stacks = [inf, 100, 100]"),
        ("starting_stacks = [100, 100, 100]", "starting_stacks = [-5, 100, 100]"),
        ("starting_stacks = [100, 100, 100]", 'starting_stacks = ["x", 100, 100]'),
        ('"p3 f"', '"d db"'),
    ],
)
def test_malformed_hands_are_history_errors_not_crashes(change: tuple[str, str]) -> None:
    text = BASE + f"actions = {json.dumps([*DEALT, 'p3 f', 'p1 cbr 30', 'p2 f'])}\n"
    result = history.check(history.load(text.replace(*change)))
    assert result.status == "error" and result.message


def test_toml_dates_and_times_are_written_back_as_toml_values() -> None:
    text = BASE + "actions = []\nday = 2019-06-20\ntime = 12:30:00\n"
    again = history.load(history.dump(history.load(text)))
    assert str(again.fields["time"]) == "12:30:00" and str(again.fields["day"]) == "2019-06-20"


# p1 shows aces up and wins; p2 mucks queen-jack unseen. Redacted for p1, p2's cards are
# unknown and get the first unused cards as stand-ins, 2c 2d: quads with this board.
MUCKED_UNSEEN = [
    "d dh p1 AcAd", "d dh p2 QcJd", "d dh p3 7h8h", "p3 f", "p1 cc", "p2 cc",
    "d db 2h2s5c", "p1 cc", "p2 cc", "d db 9d", "p1 cc", "p2 cc", "d db Kh", "p1 cc", "p2 cc",
    "p1 sm AcAd", "p2 sm",
]  # fmt: skip


def test_a_hand_mucked_unseen_replays_to_the_recorded_stacks_in_a_players_view() -> None:
    hh = history.load(BASE + f"actions = {json.dumps(MUCKED_UNSEEN)}\n")
    assert history.check(hh).status == "match"
    seen = history.redact(hh, 0)
    assert seen.actions[1:3] == ["d dh p2 ????", "d dh p3 ????"]
    assert history.replay(seen).hand.holes[1] == tuple(parse_cards("2c2d"))  # they would win
    result = history.check(seen)
    assert (result.status, result.ours) == ("match", [110, 90, 100])
    assert result.message == "p2's hole cards are unknown: mucked at showdown"


def test_every_players_view_of_our_hands_replays_the_showdown_the_table_played() -> None:
    """With the hands mucked unseen left out of the showdown, everyone else shows or mucks
    in the same order, the same pots go to the same hands: only stand-ins differ."""
    rng, mucked_unseen = random.Random(5), 0
    for _ in range(300):
        table = Table(TableConfig(small_blind=5, big_blind=10, seats=6, min_buy_in=1))
        for chair in rng.sample(range(6), rng.randint(2, 6)):
            table.sit_down(chair, rng.choice([40, 250, 1000]))
        table.start_hand(Deck.shuffled(rng))
        play_out(table, rng, raise_share=0.05, fold_share=0.05)  # showdowns, often not all in
        hand = table.hand
        assert hand is not None
        ours = [renumbered(e, hand.position) for e in hand.log if not isinstance(e, PlayerStood)]
        written = history.from_hand(hand)
        for viewer in [None, *range(hand.n)]:
            replayed = history.replay(history.redact(written, viewer))
            unseen = [
                e.seat
                for e in replayed.events
                if isinstance(e, CardsMucked) and not replayed.known[e.seat]
            ]
            mucked_unseen += len(unseen)
            assert [e for e in replayed.events if not isinstance(e, HoleCardsDealt)] == [
                e for e in ours if not isinstance(e, HoleCardsDealt)
            ]
            notes = [f"p{p + 1}'s hole cards are unknown: mucked at showdown" for p in unseen]
            assert replayed.notes == notes
    assert mucked_unseen > 100


ALL_IN = [
    "d dh p1 AcAd", "d dh p2 ????", "d dh p3 ????", "p3 f", "p1 cbr 100", "p2 cc",
    "d db 2h2s5c", "d db 9d", "d db Kh",
]  # fmt: skip


def test_an_all_in_hand_never_shown_is_mucked_and_the_check_says_so() -> None:
    """A foreign history may leave out what was shown. Cards cannot decide it: the replay
    mucks the hand it does not know, and the recorded stacks say whether that is right."""
    text = BASE + f"actions = {json.dumps(ALL_IN)}\n"
    lost = history.check(history.load(text.replace("[110, 90, 100]", "[200, 0, 100]")))
    assert (lost.status, lost.ours) == ("match", [200, 0, 100])
    assert lost.message == "p2's hole cards are unknown: mucked at showdown"
    won = history.check(history.load(text.replace("[110, 90, 100]", "[0, 200, 100]")))
    assert (won.status, won.ours) == ("differ", [200, 0, 100])
    assert won.message == "final stacks differ; p2's hole cards are unknown: mucked at showdown"


def test_a_pot_only_unknown_hands_contest_is_split_between_them() -> None:
    actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 f", "p1 cc", "p2 cc",
               "d db 2h2s5c", "p1 cc", "p2 cc", "d db 9d", "p1 cc", "p2 cc", "d db Kh",
               "p1 cc", "p2 cc"]  # fmt: skip
    text = BASE.replace("[110, 90, 100]", "[100, 100, 100]")
    hh = history.load(text + f"actions = {json.dumps(actions)}\n")
    assert not any(isinstance(e, CardsShown) for e in history.replay(hh).events)
    result = history.check(hh)
    assert (result.status, result.ours) == ("match", [100, 100, 100])
    assert result.message == (
        "p1's hole cards are unknown: mucked at showdown; "
        "p2's hole cards are unknown: mucked at showdown; "
        "no hand shown for pot 0: split between p1, p2"
    )
