"""server.stats: all-in adjusted winnings and player statistics.

The player statistics are checked on the Pluribus hands against a small counter of our
own here, which reads the PHH action strings directly and never replays a hand."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import pytest

import engine
from engine import history
from server.cli import main
from server.stats import Adjustment, HandFacts, facts_of_history, player_stats, win_rate
from tests.conftest import SHARED_DATA

PLURIBUS = SHARED_DATA / "phh" / "pluribus"


def hand(text: str, players: list[str] | None = None) -> HandFacts:
    return facts_of_history(history.load(text), players)


HEADS_UP = """
variant = "NT"
antes = [0, 0]
blinds_or_straddles = [50, 100]
min_bet = 100
starting_stacks = [1000, 1000]
"""


def test_a_preflop_all_in_counts_each_players_exact_equity() -> None:
    h = hand(
        HEADS_UP + 'actions = ["d dh p1 AsAh", "d dh p2 KsKh", "p2 cbr 1000", "p1 cc", '
        '"d db 2c7d9h", "d db Kd", "d db 3c"]'
    )
    aces = engine.equity(["AsAh", "KsKh"], exact=True)[0]
    assert h.adjustment is Adjustment.ALL_IN
    assert [p.net for p in h.players] == [-1000, 1000]
    expected = Fraction(aces.wins * 2 + aces.ties, aces.boards * 2) * 2000 - 1000
    assert h.players[0].adjusted == expected
    assert sum(p.adjusted for p in h.players) == 0


def test_an_all_in_on_the_flop_enumerates_the_turn_and_river_only() -> None:
    h = hand(
        HEADS_UP + 'actions = ["d dh p1 AsAh", "d dh p2 KsKh", "p2 cc", "p1 cc", '
        '"d db 2c7dKd", "p1 cbr 900", "p2 cc", "d db 9h", "d db 3c"]'
    )
    kings = engine.equity(["AsAh", "KsKh"], board="2c7dKd", exact=True)[1]
    assert kings.boards == 990  # 45 choose 2
    assert h.players[1].adjusted == Fraction(kings.wins, kings.boards) * 2000 - 1000
    assert h.players[1].net == 1000


def test_betting_to_the_river_keeps_the_actual_result() -> None:
    h = hand(
        HEADS_UP + 'actions = ["d dh p1 AsAh", "d dh p2 KsKh", "p2 cc", "p1 cc", '
        '"d db 2c7d9h", "p1 cc", "p2 cc", "d db Kd", "p1 cc", "p2 cc", "d db 3c", '
        '"p1 cbr 900", "p2 cc"]'
    )
    assert h.adjustment is Adjustment.ACTUAL
    assert [p.adjusted for p in h.players] == [-1000, 1000]


def test_folded_hole_cards_are_out_of_the_deck_and_side_pots_shared_apart() -> None:
    h = hand(
        """
variant = "NT"
antes = [0, 0, 0, 0]
blinds_or_straddles = [50, 100, 0, 0]
min_bet = 100
starting_stacks = [300, 1000, 1000, 1000]
actions = ["d dh p1 QhQd", "d dh p2 AsAh", "d dh p3 KsKh", "d dh p4 Ac2d", "p3 cbr 1000",
           "p4 f", "p1 cc", "p2 cc", "d db 2c7d9h", "d db 3d", "d db 4s"]
"""
    )
    assert h.adjustment is Adjustment.ALL_IN
    main = engine.equity(["QhQd", "AsAh", "KsKh"], dead="Ac2d", exact=True)
    side = engine.equity(["AsAh", "KsKh"], dead="Ac2d QhQd", exact=True)
    queens, aces, _kings = (Fraction(e.equity).limit_denominator(10**8) for e in main)
    assert h.players[0].adjusted == queens * 900 - 300
    assert float(h.players[1].adjusted) == pytest.approx(
        float(aces * 900 + Fraction(side[0].equity) * 1400 - 1000)
    )
    assert sum(p.adjusted for p in h.players) == 0
    assert h.players[3].adjusted == h.players[3].net == 0


def test_omaha_hi_lo_splits_each_half_apart() -> None:
    h = hand(
        """
variant = "PO/8"
antes = [0, 0]
blinds_or_straddles = [50, 100]
min_bet = 100
starting_stacks = [1000, 1000]
actions = ["d dh p1 As2s3dKd", "d dh p2 KsKhQcJc", "p2 cc", "p1 cc", "d db 4c7dKc",
           "p1 cbr 200", "p2 cbr 800", "p1 cbr 900", "p2 cc", "d db Qd", "d db Jh"]
"""
    )
    assert h.adjustment is Adjustment.ALL_IN
    eq = engine.equity(["As2s3dKd", "KsKhQcJc"], board="4c7dKc", game="plo8", exact=True)
    assert float(h.players[0].adjusted) == pytest.approx(eq[0].equity * 2000 - 1000)
    assert sum(p.adjusted for p in h.players) == 0


def test_stud_all_in_keeps_the_actual_result_and_says_so() -> None:
    h = hand(
        """
variant = "F7S"
antes = [10, 10]
bring_in = 20
small_bet = 50
big_bet = 100
starting_stacks = [60, 1000]
actions = ["d dh p1 AsAh7c", "d dh p2 KsKh2c", "p2 pb", "p1 cbr 50", "p2 cc",
           "d dh p1 2d", "d dh p2 3d", "d dh p1 5d", "d dh p2 6d", "d dh p1 8h",
           "d dh p2 9h", "d dh p1 Tc", "d dh p2 Jc"]
"""
    )
    assert h.adjustment is Adjustment.UNSUPPORTED
    assert [p.adjusted for p in h.players] == [p.net for p in h.players]


def test_win_rate_interval_is_mean_plus_minus_1_96_standard_errors() -> None:
    interval = win_rate([1, -1, 1, -1])
    assert interval is not None
    half = 1.959964 * (4 / 3) ** 0.5 / 2 * 100
    assert interval.rate == 0
    assert interval.high == pytest.approx(half)
    assert win_rate([5]) is None


# -- the Pluribus hands, counted independently ------------------------------------------


@dataclass
class Count:
    hands: int = 0
    vpip: int = 0
    pfr: int = 0
    three_bet_chances: int = 0
    three_bets: int = 0
    saw_flop: int = 0
    showdowns: int = 0
    won_at_showdown: int = 0
    net: int = 0
    bets: int = 0
    calls: int = 0
    nets: list[int] = field(default_factory=list)


def pluribus_files() -> Iterator[Path]:
    return iter(sorted(PLURIBUS.glob("*/*.phh")))


def count_by_hand(files: Iterator[Path]) -> dict[str, Count]:
    """Reads each file's fields and action strings: a no-limit hold'em counter in a page."""
    counts: dict[str, Count] = {}
    for path in files:
        hh = history.load(path.read_text())
        names = [str(n) for n in hh.fields["players"]]
        n = len(names)
        stacks = [int(s) for s in hh.starting_stacks]
        street = [int(b) for b in hh.blinds_or_straddles]  # this street's bets
        total = [0] * n
        level = max(street)
        folded = [False] * n
        raises, raiser, chance = 0, -1, [False] * n
        seen = [False] * n
        vpip: set[int] = set()
        pfr: set[int] = set()
        flop = False
        c = [counts.setdefault(name, Count()) for name in names]
        for x in c:
            x.hands += 1
        for action in hh.actions:
            words = action.split()
            if words[0] == "d":
                if words[1] == "db":
                    if not flop:
                        seen = [not f for f in folded]
                    flop = True
                    total = [t + s for t, s in zip(total, street, strict=True)]
                    street, level = [0] * n, 0
                continue
            p = int(words[0][1:]) - 1
            if words[1] == "f":
                folded[p] = True
            elif words[1] == "cc":
                called = min(level, stacks[p] - total[p])
                if called > street[p]:
                    if not flop:
                        vpip.add(p)
                    c[p].calls += flop
                street[p] = called
            elif words[1] == "cbr":
                street[p], level = int(words[2]), int(words[2])
                c[p].bets += flop
            if not flop:
                if raises == 1 and raiser != p and not chance[p]:
                    chance[p] = True
                    c[p].three_bet_chances += 1
                    c[p].three_bets += words[1] == "cbr"
                if words[1] == "cbr":
                    vpip.add(p)
                    pfr.add(p)
                    raises, raiser = raises + 1, p
        total = [t + s for t, s in zip(total, street, strict=True)]
        tally(c, hh, total=total, folded=folded, seen=seen, vpip=vpip, pfr=pfr)
    return counts


def tally(
    c: list[Count],
    hh: history.HandHistory,
    *,
    total: list[int],
    folded: list[bool],
    seen: list[bool],
    vpip: set[int],
    pfr: set[int],
) -> None:
    """One hand's end: what each player put in, got back and won, from the file's stacks."""
    n = len(c)
    stacks = [int(s) for s in hh.starting_stacks]
    top, second = sorted(total)[-1], sorted(total)[-2]
    total = [min(t, second) if t == top else t for t in total]  # the uncalled bet back
    finish = [int(s) for s in hh.finishing_stacks or []]
    live = [p for p in range(n) if not folded[p]]
    for p in range(n):
        net = finish[p] - stacks[p]
        c[p].net += net
        c[p].nets.append(net)
        c[p].saw_flop += seen[p]
        c[p].vpip += p in vpip
        c[p].pfr += p in pfr
        if len(live) > 1 and p in live and seen[p]:
            c[p].showdowns += 1
            c[p].won_at_showdown += finish[p] > stacks[p] - total[p]


@pytest.fixture(scope="module")
def pluribus_stats() -> dict[str, object]:
    hands = [facts_of_history(history.load(p.read_text())) for p in pluribus_files()]
    return {"hands": hands, "stats": player_stats(hands)}


@pytest.mark.parametrize("name", ["Pluribus", "MrBlue", "Budd", "Gogo"])
def test_pluribus_statistics_match_an_independent_count(
    pluribus_stats: dict[str, object], name: str
) -> None:
    ours = pluribus_stats["stats"][name]  # type: ignore[index]
    theirs = count_by_hand(pluribus_files())[name]
    assert (ours.hands, ours.vpip_hands, ours.pfr_hands) == (theirs.hands, theirs.vpip, theirs.pfr)
    assert (ours.three_bet_chances, ours.three_bets) == (
        theirs.three_bet_chances,
        theirs.three_bets,
    )
    assert (ours.bets, ours.calls) == (theirs.bets, theirs.calls)
    assert (ours.saw_second_round, ours.showdowns, ours.won_at_showdown) == (
        theirs.saw_flop,
        theirs.showdowns,
        theirs.won_at_showdown,
    )
    # The files' odd chips follow pokerkit's rule, the replay's ours (the first winner
    # left of the button, docs/rules.md): a split pot may put one chip elsewhere.
    recorded = [Fraction(x, 100) for x in theirs.nets]
    off = [a - b for a, b in zip(ours.results_bb, recorded, strict=True) if a != b]
    assert all(abs(d) == Fraction(1, 100) for d in off)
    assert len(off) <= 1 + ours.hands // 500
    assert abs(ours.net - theirs.net) <= len(off)


def test_pluribus_all_in_adjustment_sums_to_zero_in_every_hand(
    pluribus_stats: dict[str, object],
) -> None:
    hands: list[HandFacts] = pluribus_stats["hands"]  # type: ignore[assignment]
    adjusted = [h for h in hands if h.adjustment is Adjustment.ALL_IN]
    assert len(hands) == 10_000
    assert len(adjusted) == 92  # all in before the river with a pot contested
    assert all(sum(p.adjusted for p in h.players) == 0 for h in hands)
    assert any(h.players[0].adjusted != h.players[0].net for h in adjusted)


def test_hands_stats_prints_a_line_per_player(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'hands.db'}"
    assert main(["hands", "import", "--db", db, str(PLURIBUS / "30")]) == 0
    capsys.readouterr()
    assert main(["hands", "stats", "--db", db, "--json"]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    files = iter(sorted((PLURIBUS / "30").glob("*.phh")))
    expected = count_by_hand(files)
    assert {name: r["hands"] for name, r in rows.items()} == {
        name: c.hands for name, c in expected.items()
    }
    assert rows["Pluribus"]["net"] == expected["Pluribus"].net
    assert main(["hands", "stats", "--db", db, "--player", "Pluribus"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("player") and out[1].startswith("Pluribus") and len(out) == 2


def test_unknown_hole_cards_in_the_pot_keep_the_actual_result() -> None:
    h = hand(
        HEADS_UP + 'actions = ["d dh p1 AsAh", "d dh p2 ????", "p2 cbr 1000", "p1 cc", '
        '"d db 2c7d9h", "d db Kd", "d db 3c"]'
    )
    assert h.adjustment is Adjustment.UNSUPPORTED
    assert [p.adjusted for p in h.players] == [p.net for p in h.players]
