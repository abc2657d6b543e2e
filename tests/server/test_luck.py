"""server.stats.luck: AIVAT's chance terms (docs/statistics.md, "AIVAT's chance terms")."""

from __future__ import annotations

import json
import math
import random
import statistics
from fractions import Fraction
from pathlib import Path

import pytest

import engine
from engine import history
from server.cli import main
from server.stats.hands import Adjustment, HandFacts, facts
from server.stats.luck import Luck, LuckKind, luck, luck_of_history
from tests.conftest import SHARED_DATA

PHH = SHARED_DATA / "phh"


def header(stacks: list[int]) -> str:
    n = len(stacks)
    blinds = [50, 100] + [0] * (n - 2)
    return (
        f'variant = "NT"\nantes = {[0] * n}\nblinds_or_straddles = {blinds}\n'
        f"min_bet = 100\nstarting_stacks = {stacks}\n"
    )


def played(text: str, seed: int = 1, samples: int | None = None) -> tuple[HandFacts, Luck]:
    hh = history.load(text)
    if samples is None:
        return luck_of_history(hh, seed=seed)
    replay = history.replay(hh)
    names = [f"p{i}" for i in range(1, len(hh.starting_stacks) + 1)]
    hand = facts(names, hh, replay)
    return hand, luck(hh.game, replay, hand, seed=seed, samples=samples)


def actions(*items: str) -> str:
    return f"actions = {json.dumps(list(items))}\n"


def after_last_action(text: str, result: Luck) -> list[Fraction]:
    """Each player's terms of the deals after the last action (betting over)."""
    events = history.replay(history.load(text)).events
    last = max(i for i, e in enumerate(events) if isinstance(e, engine.ActionTaken))
    n = len(result.values)
    return [
        sum((t.corrections[i] for t in result.terms if t.event > last), Fraction(0))
        for i in range(n)
    ]


# -- what the terms are --------------------------------------------------------------------


def test_a_hand_that_ends_preflop_gets_the_hole_cards_term_only() -> None:
    hand, result = played(header([1000, 1000]) + actions("d dh p1 AsAh", "d dh p2 7c2d", "p2 f"))
    assert result.kind is LuckKind.AIVAT
    assert [t.chance for t in result.terms] == ["hole cards"]
    aces = engine.equity(["AsAh", "7c2d"], exact=True)[0].equity
    # The forced bets (150) shared by the two players dealt in: 1/2 each before the deal.
    assert float(result.terms[0].corrections[0]) == pytest.approx(150 * (0.5 - aces), abs=3)
    assert [p.net for p in hand.players] == [50, -50]
    assert result.values[0] == 50 + result.terms[0].corrections[0]


def test_the_values_of_a_hand_sum_to_its_nets_sum() -> None:
    files = sorted((PHH / "pluribus" / "30").glob("*.phh"))[:25]
    for seed, path in enumerate(files):
        hand, result = luck_of_history(history.load(path.read_text()), seed=seed)
        assert result.kind is LuckKind.AIVAT
        assert sum(result.values) == sum(p.net for p in hand.players) == 0
        for term in result.terms:
            assert sum(term.corrections) == 0


TURN_ALL_IN = ["p2 cc", "p1 cc", "d db 2c7dKd", "p1 cc", "p2 cc", "d db 9h", "p1 cbr 900"]
TURN_ALL_IN += ["p2 cc", "d db 3c"]


@pytest.mark.parametrize(
    "deal",
    [
        ["p2 cbr 1000", "p1 cc", "d db 2c7d9h", "d db Kd", "d db 3c"],  # preflop
        ["p2 cc", "p1 cc", "d db 2c7dKd", "p1 cbr 900", "p2 cc", "d db 9h", "d db 3c"],  # flop
        TURN_ALL_IN,
    ],
)
def test_after_an_all_in_the_terms_telescope_to_the_all_in_adjustment(deal: list[str]) -> None:
    text = header([1000, 1000]) + actions("d dh p1 AsAh", "d dh p2 KsKh", *deal)
    hand, result = played(text)
    assert hand.adjustment is Adjustment.ALL_IN
    later = after_last_action(text, result)
    assert [p.net + c for p, c in zip(hand.players, later, strict=True)] == [
        p.adjusted for p in hand.players
    ]


def test_side_pots_telescope_too() -> None:
    text = header([500, 1000, 1000]) + actions(
        "d dh p1 AsAh", "d dh p2 KsKh", "d dh p3 QsQh",
        "p3 cbr 1000", "p1 cc", "p2 cc", "d db 2c7d9h", "d db Qd", "d db 3c",
    )  # fmt: skip
    hand, result = played(text)
    assert hand.adjustment is Adjustment.ALL_IN
    later = after_last_action(text, result)
    assert [p.net + c for p, c in zip(hand.players, later, strict=True)] == [
        p.adjusted for p in hand.players
    ]
    assert sum(result.values) == 0


def test_stud_keeps_the_all_in_adjusted_result() -> None:
    path = PHH / "wsop" / "2023" / "43" / "5"
    studs = [p for p in sorted(path.glob("*.phh")) if "variant = 'F7S'" in p.read_text()]
    hand, result = luck_of_history(history.load(studs[0].read_text()), seed=0)
    assert result.kind is LuckKind.FALLBACK
    assert list(result.values) == [p.adjusted for p in hand.players]


def test_every_sample_phh_hand_computes() -> None:
    files = [p for p in sorted(PHH.rglob("*.phh*")) if "pluribus" not in p.parts]
    files += sorted((PHH / "pluribus" / "83").glob("*.phh"))[:10]
    kinds = set()
    for seed, path in enumerate(files):
        text = path.read_text()
        for hh in history.load_all(text) if path.suffix == ".phhs" else [history.load(text)]:
            hand, result = luck_of_history(hh, seed=seed)
            assert sum(result.values) == sum(p.net for p in hand.players)
            kinds.add(result.kind)
    assert kinds == {LuckKind.AIVAT, LuckKind.FALLBACK}


# -- unbiased, and it reduces the variance -------------------------------------------------


def random_boards(rng: random.Random, holes: list[str], count: int) -> list[list[str]]:
    dealt = {h[i : i + 2] for h in holes for i in (0, 2)}
    deck = [c for c in _all_cards() if c not in dealt]
    return [rng.sample(deck, 5) for _ in range(count)]


def _all_cards() -> list[str]:
    return [r + s for r in "23456789TJQKA" for s in "cdhs"]


def checked_down(holes: list[str], board: list[str], first: list[str]) -> str:
    """Three players: ``first`` preflop (p3 folds), then p1 and p2 check it down."""
    flop, turn, river = "".join(board[:3]), board[3], board[4]
    street = ["p1 cc", "p2 cc"]
    deals = [f"d dh p{i} {h}" for i, h in enumerate(holes, start=1)]
    return header([1000] * len(holes)) + actions(
        *deals, *first, f"d db {flop}", *street, f"d db {turn}", *street, f"d db {river}", *street
    )


def z_score(xs: list[float]) -> float:
    return statistics.fmean(xs) / (statistics.stdev(xs) / math.sqrt(len(xs)))


def test_the_board_terms_average_zero_with_a_folded_hands_cards_dead() -> None:
    # AK against queens, aces folded: AK's equity is 34 %, not the 43 % it would be with
    # the aces in the deck. Leaving the folded cards in would bias each hand's board terms
    # by 200 x 9 % = 18 chips, about 5 standard errors over 600 hands.
    rng = random.Random(21)
    holes = ["AhKd", "QsQc", "AsAc"]
    raw, corrections, values = [], [], []
    for seed, board in enumerate(random_boards(rng, holes, 600)):
        text = checked_down(holes, board, ["p3 f", "p1 cc", "p2 cc"])
        hand, result = played(text, seed=seed, samples=2_000)
        board_terms = sum(t.corrections[0] for t in result.terms if t.chance != "hole cards")
        raw.append(float(hand.players[0].net))
        corrections.append(float(board_terms))
        values.append(float(hand.players[0].net + board_terms))
    assert abs(z_score(corrections)) < 3.5
    assert statistics.variance(values) < 0.01 * statistics.variance(raw)


def test_the_hole_cards_term_averages_zero() -> None:
    rng = random.Random(22)
    cards = _all_cards()
    terms, raw, values = [], [], []
    for seed in range(300):
        dealt = rng.sample(cards, 9)
        holes = [dealt[0] + dealt[1], dealt[2] + dealt[3]]
        text = header([1000, 1000]) + actions(
            *(f"d dh p{i} {h}" for i, h in enumerate(holes, start=1)),
            "p2 cc", "p1 cc", f"d db {''.join(dealt[4:7])}", "p1 cc", "p2 cc",
            f"d db {dealt[7]}", "p1 cc", "p2 cc", f"d db {dealt[8]}", "p1 cc", "p2 cc",
        )  # fmt: skip
        hand, result = played(text, seed=seed, samples=2_000)
        terms.append(float(result.terms[0].corrections[0]))
        raw.append(float(hand.players[0].net))
        values.append(float(result.values[0]))
    assert abs(z_score(terms)) < 3.5
    # Checked down, a value is 200 x eq - 100 + 150 x (1/2 - eq): what is left of the
    # luck is the hole cards' on the 50 chips the small blind completed after the deal.
    assert statistics.variance(values) < 0.01 * statistics.variance(raw)


# -- the command ---------------------------------------------------------------------------


def test_hands_stats_aivat_adds_a_luck_adjusted_rate(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'hands.db'}"
    files = sorted((PHH / "pluribus" / "30").glob("*.phh"))[:12]
    for path in files:
        (tmp_path / path.name).write_text(path.read_text())
    assert main(["hands", "import", "--db", db, str(tmp_path)]) == 0
    capsys.readouterr()
    assert main(["hands", "stats", "--db", db, "--aivat", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert all(set(r["aivat_bb_per_100"]) == {"rate", "low", "high"} for r in rows)
    assert main(["hands", "stats", "--db", db, "--aivat", "--player", "Pluribus"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("AIVAT bb/100 (95% CI)") and out[1].startswith("Pluribus")
