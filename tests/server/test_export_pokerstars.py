"""PokerStars hand-history text (server.export.pokerstars).

Three kinds of evidence: hands our engine plays, rendered and read back by pokerkit's
PokerStars parser (same players, actions, shown cards and final stacks); real PokerStars
hands (shared/data/pokerstars) rebuilt as PHH and rendered again line for line; and the
Pluribus and HandHQ hands from shared/data/phh.
"""

from __future__ import annotations

import contextlib
import io
import random
import re
import warnings
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from pokerkit.notation import HandHistory as PokerkitHistory
from pokerkit.notation import PokerStarsParser

from engine import (
    AnteKind,
    BetOrRaiseTo,
    ButtonRule,
    CheckOrCall,
    Deck,
    Fold,
    ForcedBetPosted,
    Hand,
    PotAwarded,
    Table,
    TableConfig,
    evaluate,
    history,
)
from engine.history import HandHistory, replay
from server.export import HandInfo
from server.export.pokerstars import hand_name, render, render_all
from tests.conftest import SHARED_DATA

STARS = SHARED_DATA / "pokerstars"
PHH = SHARED_DATA / "phh"
HANDHQ = PHH / "handhq" / "PS-2009-07-01_2009-07-23_1000NLH_OBFU" / "10"
HANDHQ_FILE = HANDHQ / "ps NLH handhq_1-OBFUSCATED.hands-1-12.phhs"

# Made-up screen names with the spaces, dots and dashes real ones have.
NAMES = ["Ann", "bob 2", "C.D-3", "dee_4", "Eve 5", "fox.6", "Gus-7", "hal_8", "Ivy 9", "Jo 10"]
NOON = datetime(2024, 5, 6, 12, 0, 0, tzinfo=UTC)


# -- pokerkit ----------------------------------------------------------------------------


@dataclass
class AnteAwareParser(PokerStarsParser):
    """pokerkit's PokerStars parser with the one pattern it leaves out: its
    ``ANTE_POSTING`` never matches, so it reads "posts the ante" lines as nothing and
    replays ante hands without antes. Only for the ante tables below."""

    ANTE_POSTING = re.compile(r"(?P<player>.+): posts the ante \D?(?P<ante>[0-9.]+)")


@dataclass
class Parsed:
    history: PokerkitHistory
    stacks: list[Any]  # ints, or Decimals for money hands


def pokerkit_parse(
    text: str, parser: PokerStarsParser | None = None, *, ante_trimming: bool = False
) -> Parsed | None:
    """The one hand in ``text`` as pokerkit reads it, or None if pokerkit gives up.

    ``ante_trimming`` replays it with pokerkit's ``ante_trimming_status``: antes count
    towards each player's share of the pots, as our engine has them when every player
    pays one. Without it pokerkit pools the antes in the main pot for everyone, which
    only differs from us when a player is all in for less than the ante.
    """
    parser = parser or PokerStarsParser()
    # pokerkit warns, and prints a traceback, about every hand it cannot parse.
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        try:
            hands = list(parser(text, error_status=True))
        except ValueError:
            return None
        assert len(hands) == 1
        hands[0].ante_trimming_status = ante_trimming
        states = list(hands[0])
    return Parsed(hands[0], list(states[-1].stacks))


def without_sm(actions: list[str]) -> list[str]:
    return [a for a in actions if " sm" not in a]


def shown(actions: list[str]) -> list[str]:
    return sorted(a for a in actions if re.search(r" sm [2-9TJQKA]", a))


def drop_inserted_checks(theirs: list[str], ours: list[str]) -> tuple[list[str], int]:
    """pokerkit's actions without the free checks its replay adds.

    Our engine ends the betting when nobody is left to bet against: the big blind whose
    only caller is all in for less than the blind, say, is not asked to act. pokerkit asks,
    and when the text goes on to the next street it "repairs" the hand with a check.
    """
    kept: list[str] = []
    inserted = 0
    for action in theirs:
        if len(kept) < len(ours) and action == ours[len(kept)]:
            kept.append(action)
        elif re.fullmatch(r"p\d+ cc", action):
            inserted += 1
        else:
            kept.append(action)
    return kept, inserted


def odd_chip_winners(hand: Hand) -> set[int]:
    """Winners of pots split three or more ways with two or more odd chips: we give them
    one chip each from the first winner left of the button (TDA Rule 20), pokerkit gives
    them all to the first winner."""
    winners: set[int] = set()
    for event in hand.log:
        if isinstance(event, PotAwarded) and event.amount % len(event.shares) >= 2:
            winners |= {hand.position[seat] for seat, _ in event.shares}
    return winners


SHORT_BLIND = re.compile(r": posts (small|big) blind \S+ and is all-in")


# -- our hands -------------------------------------------------------------------------


def play_sessions(seed: int, hands: int, ante_kind: AnteKind) -> Iterator[tuple[Hand, HandInfo]]:
    """Hands at random tables of 2 to 10 seats with random legal play, stacks from 3 to
    200 big blinds so that all-ins, side pots and short blinds come up, ten hands a table
    (players bust, the button moves, tables go heads-up)."""
    rng = random.Random(seed)
    played = 0
    while played < hands:
        config = TableConfig(
            small_blind=50,
            big_blind=100,
            seats=rng.randint(2, 10),
            ante=0 if ante_kind is AnteKind.NONE else rng.choice([10, 25, 100]),
            ante_kind=ante_kind,
            min_buy_in=300,
        )
        table = Table(config)
        for chair in rng.sample(range(config.seats), rng.randint(2, config.seats)):
            table.sit_down(chair, int(300 * (200 / 3) ** rng.random()))
        for _ in range(10):
            if len(table.occupied()) < 2 or played >= hands:
                break
            table.start_hand(Deck.shuffled(rng))
            while (seat := table.to_act) is not None:
                menu = table.legal_actions(seat)
                assert menu is not None
                r = rng.random()
                if menu.can_raise and r < 0.06:
                    table.apply(BetOrRaiseTo(seat, menu.max_raise_to))
                elif menu.can_raise and r < 0.2:
                    table.apply(
                        BetOrRaiseTo(seat, rng.randint(menu.min_raise_to, menu.max_raise_to))
                    )
                elif menu.can_fold and r < 0.45:
                    table.apply(Fold(seat))
                else:
                    table.apply(CheckOrCall(seat))
            hand = table.hand
            assert hand is not None
            played += 1
            yield hand, info_for(hand, hand_id=seed * 100_000 + played, max_seats=config.seats)


def info_for(hand: Hand, *, hand_id: int, max_seats: int) -> HandInfo:
    return HandInfo(
        hand_id=hand_id,
        table_name="Ross 128",
        started_at=NOON,
        players=tuple(NAMES[seat] for seat in hand.seats),
        seats=tuple(seat + 1 for seat in hand.seats),
        history=history.from_hand(hand),
        max_seats=max_seats,
    )


def dead_button_hand() -> Hand:
    """A hand under the dead-button rule with the button on an empty seat and no small
    blind: the players on the next button (seat 1) and small blind (seat 3) left."""
    config = TableConfig(small_blind=5, big_blind=10, seats=6, button_rule=ButtonRule.DEAD)
    table = Table(config)
    for chair in (0, 1, 3, 4, 5):
        table.sit_down(chair, 1000, wait_for_big_blind=False)
    rng = random.Random(1)
    for leaving in ((1, 3), ()):
        table.start_hand(Deck.shuffled(rng))
        while (seat := table.to_act) is not None:
            table.apply(CheckOrCall(seat))
        for chair in leaving:
            table.stand_up(chair)
    hand = table.hand
    assert hand is not None and (hand.setup.seats, hand.setup.button) == ((4, 5, 0), 1)
    assert [e.kind for e in hand.log if isinstance(e, ForcedBetPosted)] == ["big_blind"]
    return hand


def table_info(hand: Hand, *, hand_id: int) -> HandInfo:
    """``info_for``, with the button and small blind a store gives from the table."""
    info = info_for(hand, hand_id=hand_id, max_seats=6)
    button = hand.setup.button
    assert button is not None  # HandSetup fills it in
    return replace(info, button=button + 1, small_blind=hand.setup.small_blind)


@pytest.mark.parametrize(
    ("ante_kind", "seed", "hands"),
    [(AnteKind.NONE, 1, 400), (AnteKind.PER_PLAYER, 2, 200), (AnteKind.BIG_BLIND, 3, 200)],
)
def test_engine_hands_read_back_by_pokerkit_give_the_same_hand(
    ante_kind: AnteKind, seed: int, hands: int
) -> None:
    """Every hand pokerkit can parse comes back with our players, seats, dealt cards,
    actions, shown hands and final stacks.

    pokerkit cannot parse one construct correctly: a blind posted all in for less
    ("posts big blind 61 and is all-in"). It adds a raise's increment to what that blind
    posted, while PokerStars (thlorenz-hhp/posts-allin.txt: "posts big blind 11 and is
    all-in", then "raises 160 to 180" at 10/20) and we count it from the full big blind,
    which callers owe. Those hands are left out and counted; they are rare.
    """
    parser = PokerStarsParser() if ante_kind is AnteKind.NONE else AnteAwareParser()
    counts: Counter[str] = Counter()
    for hand, info in play_sessions(seed, hands, ante_kind):
        text = render(info)
        counts["hands"] += 1
        counts["side pots"] += "Side pot" in text
        counts["split pots"] += sum(
            len(e.shares) > 1 for e in hand.log if isinstance(e, PotAwarded)
        )
        if SHORT_BLIND.search(text):
            counts["short blind, left out"] += 1
            continue
        parsed = pokerkit_parse(text, parser, ante_trimming=ante_kind is AnteKind.PER_PLAYER)
        assert parsed is not None, text
        theirs = parsed.history
        assert theirs.players == list(info.players), text
        assert theirs.seats == list(info.seats), text
        ours = without_sm(info.history.actions)
        actions, inserted = drop_inserted_checks(without_sm(list(theirs.actions)), ours)
        assert actions == ours, text
        counts["pokerkit's extra checks"] += inserted > 0
        assert shown(list(theirs.actions)) == shown(info.history.actions), text
        finishing = info.history.finishing_stacks
        assert finishing is not None
        odd = odd_chip_winners(hand)
        assert sum(parsed.stacks) == sum(finishing), text
        for p, (a, b) in enumerate(zip(parsed.stacks, finishing, strict=True)):
            assert a == b or p in odd, text
        counts["odd chips split otherwise"] += parsed.stacks != finishing
        counts["round trip"] += 1
    # Short stacks are common here (3 to 200 big blinds, antes up to a big blind), so
    # are short blinds: 3 to 6 % of these hands.
    assert counts["round trip"] >= 0.9 * counts["hands"], counts
    assert counts["side pots"] >= 0.05 * counts["hands"], counts
    assert counts["split pots"] > 0, counts
    assert counts["pokerkit's extra checks"] <= 0.02 * counts["hands"], counts


def chip_flow(text: str) -> tuple[dict[str, int], dict[str, int], int]:
    """Read back from our text each player's starting and final stack, and the total pot:
    what they post, call, bet or raise to, get back uncalled and collect."""
    start: dict[str, int] = {}
    put: Counter[str] = Counter()
    won: Counter[str] = Counter()
    street: Counter[str] = Counter()  # in front of each player this street
    total = -1
    for line in text.splitlines():
        if m := re.fullmatch(r"Seat \d+: (.+) \((\d+) in chips\)", line):
            start[m[1]] = int(m[2])
        elif m := re.fullmatch(r"(.+): posts the ante (\d+)( and is all-in)?", line):
            put[m[1]] += int(m[2])
        elif m := re.fullmatch(
            r"(.+): (?:posts (?:small|big) blind|calls) (\d+)( and is all-in)?", line
        ):
            put[m[1]] += int(m[2])
            street[m[1]] += int(m[2])
        elif m := re.fullmatch(r"(.+): (?:bets|raises \d+ to) (\d+)( and is all-in)?", line):
            put[m[1]] += int(m[2]) - street[m[1]]
            street[m[1]] = int(m[2])
        elif line.startswith(("*** FLOP", "*** TURN", "*** RIVER")):
            street.clear()
        elif m := re.fullmatch(r"Uncalled bet \((\d+)\) returned to (.+)", line):
            put[m[2]] -= int(m[1])
        elif m := re.fullmatch(
            r"(.+) collected (\d+) from (?:pot|main pot|side pot(?:-\d+)?)", line
        ):
            won[m[1]] += int(m[2])
        elif m := re.match(r"Total pot (\d+)", line):
            total = int(m[1])
    assert total == sum(put.values()) == sum(won.values())
    return start, {name: start[name] - put[name] + won[name] for name in start}, total


@pytest.mark.parametrize("ante_kind", list(AnteKind))
def test_every_chip_of_an_engine_hand_is_in_its_text(ante_kind: AnteKind) -> None:
    """Whatever pokerkit makes of them (short blinds included): reading our text back,
    every player starts and ends with the stacks the engine had, and the total pot is
    what was posted, called and raised less what came back uncalled, all of it
    collected."""
    for hand, info in play_sessions(29, 150, ante_kind):
        text = render(info)
        start, finish, total = chip_flow(text)
        names = [NAMES[seat] for seat in hand.seats]
        assert [start[name] for name in names] == list(hand.setup.stacks), text
        assert [finish[name] for name in names] == hand.stacks, text
        assert total == sum(e.amount for e in hand.log if isinstance(e, PotAwarded)), text


# -- real PokerStars hands, rendered again -------------------------------------------------


def real_lines(name: str) -> list[str]:
    """A real hand's lines as we write them: no trailing spaces or CRs, and none of the
    tournament's own lines ("... finished the tournament in 80th place")."""
    text = (STARS / name).read_text(encoding="utf-8")
    return [line.rstrip() for line in text.splitlines() if "finished the tournament" not in line]


def stars_info(
    hand_id: int,
    table: str,
    et: str,
    *,
    players: list[tuple[str, int, int]],
    antes: int,
    blinds: tuple[int, int],
    actions: list[str],
) -> HandInfo:
    """A real PokerStars tournament hand as PHH: ``players`` (name, seat, stack) from the
    first seat left of the button to the button, ``et`` its time in Eastern Time."""
    n = len(players)
    hh = HandHistory(
        variant="NT",
        antes=[antes] * n,
        blinds_or_straddles=[*blinds, *[0] * (n - 2)],
        min_bet=blinds[1],
        starting_stacks=[stack for _, _, stack in players],
        actions=actions,
    )
    started = datetime.strptime(et, "%Y/%m/%d %H:%M:%S").replace(
        tzinfo=ZoneInfo("America/New_York")
    )
    return HandInfo(
        hand_id=hand_id,
        table_name=table,
        started_at=started,
        players=tuple(name for name, _, _ in players),
        seats=tuple(seat for _, seat, _ in players),
        history=hh,
        max_seats=9,
    )


def assert_renders_like(info: HandInfo, real: str, header: str, extra_dealt: list[str]) -> None:
    """Our text is the real one but for the header (ours is a cash-game header in UTC
    and ET) and the hole cards the real one shows only for the hero."""
    ours = render(info).splitlines()
    expected = real_lines(real)
    assert ours[0] == header
    for line in extra_dealt:
        assert line in ours
    assert [line for line in ours[1:] if line not in extra_dealt] == expected[1:]


def test_actiononall_hand_renders_as_pokerstars_wrote_it() -> None:
    """thlorenz-hhp/actiononall.txt: antes in seat order, a raise, bets and calls on every
    street, the river bettor shows first and the loser mucks; the summary shows the
    mucked cards."""
    info = stars_info(
        149651992548,
        "1495192630 3",
        "2016/03/01 01:29:41",
        players=[("DmelloH", 4, 15451), ("held", 9, 22060), ("Fischersito", 1, 15875),
                 ("Irisha2", 3, 14114)],
        antes=50,
        blinds=(400, 800),
        actions=["d dh p1 ????", "d dh p2 4c2d", "d dh p3 TdTc", "d dh p4 JhQs", "p3 cbr 1600",
                 "p4 cc", "p1 f", "p2 f", "d db 3cJc3h", "p3 cbr 2400", "p4 cc", "d db 6h", "p3 cc",
                 "p4 cbr 1600", "p3 cc", "d db 3d", "p3 cc", "p4 cbr 3200", "p3 cc"],
    )  # fmt: skip
    assert_renders_like(
        info,
        "thlorenz-hhp/actiononall.txt",
        "PokerStars Hand #149651992548:  Hold'em No Limit (400/800) - "
        "2016/03/01 6:29:41 UTC [2016/03/01 1:29:41 ET]",
        ["Dealt to Fischersito [Td Tc]", "Dealt to Irisha2 [Jh Qs]"],
    )


def test_three_way_all_in_renders_side_pot_then_main_pot_as_pokerstars_did() -> None:
    """pokerregion-poker/HAND2.txt: two all-in raises and an all-in call, the uncalled
    bet returned, the side pot's hands shown and collected first, then the main pot's;
    "Total pot 26310 Main pot 4740. Side pot 21570." in the summary."""
    info = stars_info(
        105034215446,
        "797536898 9",
        "2013/10/04 17:22:20",
        players=[("Labahra", 3, 7395), ("Lean Abadia", 4, 7765), ("lkenny44", 5, 10080),
                 ("Newfie_187", 6, 1030), ("Hokolix", 7, 13175), ("pmmr", 8, 2415),
                 ("costamar", 9, 13070), ("RichFatWhale", 1, 12910), ("W2lkm2n", 2, 11815)],
        antes=75,
        blinds=(400, 800),
        actions=["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "d dh p4 9cQd", "d dh p5 ????",
                 "d dh p6 ????", "d dh p7 KdAc", "d dh p8 ????", "d dh p9 JdJs", "p3 f",
                 "p4 cbr 955", "p5 f", "p6 f", "p7 cbr 12995", "p8 f", "p9 cc", "p1 f", "p2 f",
                 "d db 3c6s9d", "d db 8d", "d db Ks"],
    )  # fmt: skip
    assert_renders_like(
        info,
        "pokerregion-poker/HAND2.txt",
        "PokerStars Hand #105034215446:  Hold'em No Limit (400/800) - "
        "2013/10/04 21:22:20 UTC [2013/10/04 17:22:20 ET]",
        ["Dealt to Newfie_187 [9c Qd]", "Dealt to costamar [Kd Ac]"],
    )


def test_split_pot_after_turn_all_in_renders_as_pokerstars_did() -> None:
    """thlorenz-hhp/uncalled-bet-returned.txt: raises counted from the bet faced ("raises
    223 to 400"), an all-in bet called all in for less, the uncalled part returned, then
    a pot split two ways, each winner collecting."""
    info = stars_info(
        159582406766,
        "1689829479 4",
        "2016/10/06 23:26:09",
        players=[("GuiTrettel", 1, 2240), ("Raven_0866", 2, 4071), ("bobalex007", 3, 4073),
                 ("held", 4, 1915), ("Potekh", 5, 1260), ("msilveira11", 6, 2402),
                 ("direbolical1", 7, 5589), ("Scorpion333", 8, 1977), ("Siwy Johnny", 9, 1350)],
        antes=10,
        blinds=(40, 80),
        actions=["d dh p1 AdQc", "d dh p2 ????", "d dh p3 ????", "d dh p4 QsAh", "d dh p5 ????",
                 "d dh p6 ????", "d dh p7 ????", "d dh p8 ????", "d dh p9 ????", "p3 cc",
                 "p4 cbr 177", "p5 f", "p6 f", "p7 f", "p8 f", "p9 f", "p1 cbr 400", "p2 f", "p3 f",
                 "p4 cc", "d db 4cKd7s", "p1 cbr 400", "p4 cbr 1120", "p1 cc", "d db 4d",
                 "p1 cbr 710", "p4 cc", "d db 9c"],
    )  # fmt: skip
    assert_renders_like(
        info,
        "thlorenz-hhp/uncalled-bet-returned.txt",
        "PokerStars Hand #159582406766:  Hold'em No Limit (40/80) - "
        "2016/10/07 3:26:09 UTC [2016/10/06 23:26:09 ET]",
        ["Dealt to GuiTrettel [Ad Qc]"],
    )


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        # as PokerStars names them in shared/data/pokerstars
        ("Jh Qs 3c Jc 3h 6h 3d", "a full house, Threes full of Jacks"),
        ("Ac 9d 4d 9h 9s Qc 2d", "three of a kind, Nines"),
        ("4c 4d Th Qs Qh Jc 6s", "two pair, Queens and Fours"),
        ("Kc Qc Ts Td As Jd 2c", "a straight, Ten to Ace"),
        ("9h As 5s Kh Th 2h 3s", "high card Ace"),
        ("Kd Ac 3c 6s 9d 8d Ks", "a pair of Kings"),
        # the same pattern for the rest
        ("Th Ts Kh 8h Qc 2h 6h", "a flush, King high"),
        ("Ah 2c 3d 4s 5h 9c Kd", "a straight, Ace to Five"),
        ("9s 8s 7s 6s 5s 2d 2c", "a straight flush, Five to Nine"),
        ("Ac Ad Ah As 2c 2d 2h", "four of a kind, Aces"),
        ("Ah Kh Qh Jh Th 9h 2c", "a Royal Flush"),
    ],
)
def test_hands_are_named_as_pokerstars_names_them(cards: str, name: str) -> None:
    assert hand_name(evaluate(cards)) == name


def test_a_hand_that_wins_on_kickers_says_which_as_pokerstars_does() -> None:
    """Each hand shown names its kickers down to the one that beats the closest hand of
    the same name shown before it, as PokerStars writes "(a pair of Jacks - King
    kicker)"; the summary names the hand alone."""
    hh = HandHistory(
        variant="NT",
        antes=[0, 0, 0],
        blinds_or_straddles=[50, 100, 0],
        min_bet=100,
        starting_stacks=[5000, 5000, 5000],
        actions=["d dh p1 Jc3s", "d dh p2 Qh4c", "d dh p3 Ad6c", "p3 cc", "p1 cc", "p2 cc",
                 "d db Kc9d5s", "p1 cc", "p2 cc", "p3 cc", "d db 2h", "p1 cc", "p2 cc", "p3 cc",
                 "d db 2d", "p1 cc", "p2 cc", "p3 cc"],
    )  # fmt: skip
    info = HandInfo(7, "Kickers", NOON, ("Ann", "bob 2", "C.D-3"), (1, 2, 3), hh)
    lines = render(info).splitlines()
    show_down = lines.index("*** SHOW DOWN ***")
    assert lines[show_down + 1 : show_down + 5] == [
        "Ann: shows [Jc 3s] (a pair of Twos)",
        "bob 2: shows [Qh 4c] (a pair of Twos - King+Queen kicker)",
        "C.D-3: shows [Ad 6c] (a pair of Twos - Ace kicker)",
        "C.D-3 collected 300 from pot",
    ]
    assert lines[-3:] == [
        "Seat 1: Ann (small blind) showed [Jc 3s] and lost with a pair of Twos",
        "Seat 2: bob 2 (big blind) showed [Qh 4c] and lost with a pair of Twos",
        "Seat 3: C.D-3 (button) showed [Ad 6c] and won (300) with a pair of Twos",
    ]


def test_heads_up_button_posts_the_small_blind_and_raises_count_from_the_bet_faced() -> None:
    """Heads-up the button posts the small blind and is named for both; the big blind
    gets the uncalled part of its blind back when the button folds."""
    hh = HandHistory(
        variant="NT",
        antes=[0, 0],
        blinds_or_straddles=[50, 100],
        min_bet=100,
        starting_stacks=[10000, 9000],
        actions=["d dh p1 AhKd", "d dh p2 7c2s", "p2 cbr 300", "p1 cbr 900", "p2 cc", "d db Ac7d2d",
                 "p1 cbr 1000", "p2 cbr 8100", "p1 f"],
    )  # fmt: skip
    info = HandInfo(42, "Duel", NOON, ("Ann", "bob 2"), (4, 2), hh, max_seats=2)
    assert render(info) == (
        "PokerStars Hand #42:  Hold'em No Limit (50/100) - "
        "2024/05/06 12:00:00 UTC [2024/05/06 8:00:00 ET]\n"
        "Table 'Duel' 2-max Seat #2 is the button\n"
        "Seat 2: bob 2 (9000 in chips)\n"
        "Seat 4: Ann (10000 in chips)\n"
        "bob 2: posts small blind 50\n"
        "Ann: posts big blind 100\n"
        "*** HOLE CARDS ***\n"
        "Dealt to Ann [Ah Kd]\n"
        "Dealt to bob 2 [7c 2s]\n"
        "bob 2: raises 200 to 300\n"
        "Ann: raises 600 to 900\n"
        "bob 2: calls 600\n"
        "*** FLOP *** [Ac 7d 2d]\n"
        "Ann: bets 1000\n"
        "bob 2: raises 7100 to 8100 and is all-in\n"
        "Ann: folds\n"
        "Uncalled bet (7100) returned to bob 2\n"
        "bob 2 collected 3800 from pot\n"
        "*** SUMMARY ***\n"
        "Total pot 3800 | Rake 0\n"
        "Board [Ac 7d 2d]\n"
        "Seat 2: bob 2 (button) (small blind) collected (3800)\n"
        "Seat 4: Ann (big blind) folded on the Flop\n"
    )


def test_a_dead_button_and_a_small_blind_nobody_posted_are_the_tables() -> None:
    """PHH records neither; ``HandInfo`` has the table's. Nobody posts the small blind, so
    the blinds posted alone would make the stakes 10/10, and the button's seat is empty,
    so the last player's seat would be the button's."""
    lines = render(table_info(dead_button_hand(), hand_id=5)).splitlines()
    assert lines[0].startswith("PokerStars Hand #5:  Hold'em No Limit (5/10) - ")
    assert lines[1:6] == [
        "Table 'Ross 128' 6-max Seat #2 is the button",
        "Seat 1: Ann (990 in chips)",
        "Seat 5: Eve 5 (990 in chips)",
        "Seat 6: fox.6 (1040 in chips)",
        "Eve 5: posts big blind 10",
    ]
    assert lines[-3:] == [
        "Seat 1: Ann mucked [4d 2d]",
        "Seat 5: Eve 5 (big blind) showed [Js 4c] and won (30) with two pair, Jacks and Threes",
        "Seat 6: fox.6 mucked [7s 4h]",
    ]


def test_a_player_back_from_sitting_out_posts_small_and_big_blinds() -> None:
    """A player who missed the blinds and comes back posting pays a live big blind and a
    dead small blind: PokerStars' "posts small & big blinds 150". The PHH history keeps
    the dead blind as an ante; the text still says what happened."""
    table = Table(TableConfig(small_blind=50, big_blind=100, seats=6))
    for seat in (0, 2, 4):
        table.sit_down(seat, 10_000)
    rng = random.Random(3)

    def play() -> Hand:
        table.start_hand(Deck.shuffled(rng))
        while (seat := table.to_act) is not None:
            table.apply(CheckOrCall(seat))
        assert table.hand is not None
        return table.hand

    play()
    table.sit_out(2)
    play()
    play()
    table.sit_in(2, post=True)
    hand = play()
    text = render(info_for(hand, hand_id=4, max_seats=6))
    forced = text.split("*** HOLE CARDS ***")[0].splitlines()[-3:]
    assert forced == [
        "Eve 5: posts small blind 50",
        "Ann: posts big blind 100",
        "C.D-3: posts small & big blinds 150",
    ]
    assert "Total pot 350 | Rake 0" in text


HEROES = HandHistory(
    variant="NT",
    antes=[0, 0, 0],
    blinds_or_straddles=[50, 100, 0],
    min_bet=100,
    starting_stacks=[5000, 5000, 5000],
    actions=["d dh p1 AhJd", "d dh p2 Qh4c", "d dh p3 7c6c", "p3 f", "p1 cc", "p2 cc",
             "d db Kc9d5s", "p1 cc", "p2 cc", "d db 8h", "p1 cc", "p2 cc", "d db 3c", "p1 cc",
             "p2 cc", "p1 sm AhJd", "p2 sm"],
)  # fmt: skip


def test_a_heros_history_deals_only_to_the_hero_and_shows_only_what_was_shown() -> None:
    """As the PokerStars client writes a player's own history: Ann shows her ace high
    and wins, bob 2 mucks unseen, C.D-3 folded. (From the history with those cards as
    ``????`` the replay would give bob 2 stand-in deuces, which would win the pot.)"""
    info = HandInfo(8, "Heroes", NOON, ("Ann", "bob 2", "C.D-3"), (1, 2, 3), HEROES)
    full = render(info).splitlines()
    ann = render(info, hero=0).splitlines()
    expected = [line for line in full if not line.startswith(("Dealt to bob", "Dealt to C.D"))]
    expected[expected.index("Seat 2: bob 2 (big blind) mucked [Qh 4c]")] = (
        "Seat 2: bob 2 (big blind) mucked"
    )
    assert ann == expected
    assert "Dealt to Ann [Ah Jd]" in ann and "Ann collected 200 from pot" in ann
    assert not {"Qh", "4c", "7c", "6c"} & set(re.findall(r"[2-9TJQKA][cdhs]", "\n".join(ann)))
    bob = render(info, hero=1).splitlines()
    assert [line for line in bob if line.startswith("Dealt to")] == ["Dealt to bob 2 [Qh 4c]"]
    assert "Seat 2: bob 2 (big blind) mucked [Qh 4c]" in bob
    assert "Ann: shows [Ah Jd] (high card Ace)" in bob
    assert not {"7c", "6c"} & set(re.findall(r"[2-9TJQKA][cdhs]", "\n".join(bob)))


def test_a_watchers_history_deals_nobody_and_shows_only_what_was_shown() -> None:
    """``render(info, public=True)``: the hand as someone who did not play it saw it,
    for an export of a table's hands to a watcher: nobody's hole cards but Ann's, shown
    at the showdown."""
    info = HandInfo(8, "Heroes", NOON, ("Ann", "bob 2", "C.D-3"), (1, 2, 3), HEROES)
    ann = render(info, hero=0).splitlines()
    watcher = render(info, public=True).splitlines()
    assert watcher == [line for line in ann if not line.startswith("Dealt to Ann")]
    assert "Ann: shows [Ah Jd] (high card Ace)" in watcher
    assert not [line for line in watcher if line.startswith("Dealt to")]
    cards = set(re.findall(r"[2-9TJQKA][cdhs]", "\n".join(watcher)))
    assert not {"Qh", "4c", "7c", "6c"} & cards


def test_a_hero_must_be_one_of_the_players() -> None:
    info = HandInfo(8, "Heroes", NOON, ("Ann", "bob 2", "C.D-3"), (1, 2, 3), HEROES)
    with pytest.raises(ValueError, match="hero 3 is not a position"):
        render(info, hero=3)


def test_players_and_seats_must_name_everyone_in_the_hand() -> None:
    hh = history.load((PHH / "pluribus" / "30" / "0.phh").read_text(encoding="utf-8"))
    with pytest.raises(ValueError, match="6 players"):
        render(HandInfo(1, "T", NOON, ("a", "b"), (1, 2), hh))


def test_a_naive_start_time_is_taken_as_utc() -> None:
    hh = history.load((PHH / "pluribus" / "30" / "0.phh").read_text(encoding="utf-8"))
    names = tuple(hh.fields["players"])
    naive = HandInfo(1, "T", datetime(2024, 1, 15, 17, 5, 9), names, (1, 2, 3, 4, 5, 6), hh)
    assert (
        render(naive)
        .splitlines()[0]
        .endswith(" - 2024/01/15 17:05:09 UTC [2024/01/15 12:05:09 ET]")
    )


# -- the shared PHH hands ----------------------------------------------------------------


def pluribus_info(path: str) -> HandInfo:
    hh = history.load((PHH / "pluribus" / path).read_text(encoding="utf-8"))
    players = tuple(hh.fields["players"])
    return HandInfo(
        hand_id=int(hh.fields["hand"]),
        table_name="Pluribus",
        started_at=NOON,
        players=players,
        seats=tuple(range(1, len(players) + 1)),
        history=hh,
    )


def test_pluribus_hand_renders_and_pokerkit_reads_it_back() -> None:
    info = pluribus_info("30/0.phh")
    text = render(info)
    assert text.splitlines()[:2] == [
        "PokerStars Hand #0:  Hold'em No Limit (50/100) - "
        "2024/05/06 12:00:00 UTC [2024/05/06 8:00:00 ET]",
        "Table 'Pluribus' 6-max Seat #6 is the button",
    ]
    assert "Bill: raises 125 to 225" in text
    assert "Seat 5: Bill collected (250)" in text
    parsed = pokerkit_parse(text)
    assert parsed is not None
    assert parsed.history.players == list(info.players)
    assert parsed.history.actions == info.history.actions
    assert (
        parsed.stacks == info.history.finishing_stacks == [9950, 9900, 10000, 10000, 10150, 10000]
    )


def test_every_pluribus_hand_of_session_30_round_trips_through_pokerkit() -> None:
    paths = sorted((PHH / "pluribus" / "30").glob("*.phh"))
    assert len(paths) == 80
    for path in paths:
        info = pluribus_info(f"30/{path.name}")
        parsed = pokerkit_parse(render(info))
        assert parsed is not None, path
        assert without_sm(list(parsed.history.actions)) == without_sm(info.history.actions)
        assert parsed.stacks == info.history.finishing_stacks, path


def test_a_file_of_rendered_hands_reads_back_hand_by_hand() -> None:
    infos = [pluribus_info(f"30/{i}.phh") for i in range(20)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parsed = list(PokerStarsParser()(render_all(infos), error_status=True))
    assert [hh.hand for hh in parsed] == [info.hand_id for info in infos]
    assert [hh.players for hh in parsed] == [list(info.players) for info in infos]


def handhq_infos() -> list[HandInfo]:
    infos = []
    for hh in history.load_all(HANDHQ_FILE.read_text(encoding="utf-8")):
        f = hh.fields
        started = datetime.combine(
            datetime(f["year"], f["month"], f["day"]).date(),
            f["time"],
            tzinfo=ZoneInfo("America/New_York"),
        )
        infos.append(
            HandInfo(
                hand_id=f["hand"],
                table_name=f.get("table", "HandHQ"),
                started_at=started,
                players=tuple(f["players"]),
                seats=tuple(f["seats"]),
                history=hh,
                currency="USD",
                max_seats=f.get("seat_count", 6),
            )
        )
    return infos


def test_handhq_money_hand_renders_dollars_and_no_unknown_hole_cards() -> None:
    """$5/$10 with cents: "$3059.20", whole dollars without cents as PokerStars writes
    "$2"; the hole cards are unknown (????), so no one is dealt face up."""
    assert render(handhq_infos()[0]) == (
        "PokerStars Hand #59937797066:  Hold'em No Limit ($5/$10 USD) - "
        "2009/07/01 4:00:04 UTC [2009/07/01 0:00:04 ET]\n"
        "Table '+NhqSJa5OiRnzm8JnodlVw' 6-max Seat #5 is the button\n"
        "Seat 1: KaZ/PDt4jMrDbAd9enK1tA ($1000 in chips)\n"
        "Seat 2: CMqNm6W+8EupxsCIK6aAlA ($1047 in chips)\n"
        "Seat 4: ZsQ938RTTazzQTkcoswgDA ($3059.20 in chips)\n"
        "Seat 5: DR2NKuhN5Tb2yI2LroKOVA ($995 in chips)\n"
        "Seat 6: 9pcYOozOQW+H/CCLOUUH2w ($516.95 in chips)\n"
        "9pcYOozOQW+H/CCLOUUH2w: posts small blind $5\n"
        "KaZ/PDt4jMrDbAd9enK1tA: posts big blind $10\n"
        "*** HOLE CARDS ***\n"
        "CMqNm6W+8EupxsCIK6aAlA: folds\n"
        "ZsQ938RTTazzQTkcoswgDA: folds\n"
        "DR2NKuhN5Tb2yI2LroKOVA: folds\n"
        "9pcYOozOQW+H/CCLOUUH2w: raises $10 to $20\n"
        "KaZ/PDt4jMrDbAd9enK1tA: calls $10\n"
        "*** FLOP *** [Ks 2s 6d]\n"
        "9pcYOozOQW+H/CCLOUUH2w: bets $30\n"
        "KaZ/PDt4jMrDbAd9enK1tA: calls $30\n"
        "*** TURN *** [Ks 2s 6d] [9h]\n"
        "9pcYOozOQW+H/CCLOUUH2w: bets $70\n"
        "KaZ/PDt4jMrDbAd9enK1tA: folds\n"
        "Uncalled bet ($70) returned to 9pcYOozOQW+H/CCLOUUH2w\n"
        "9pcYOozOQW+H/CCLOUUH2w collected $100 from pot\n"
        "*** SUMMARY ***\n"
        "Total pot $100 | Rake $0\n"
        "Board [Ks 2s 6d 9h]\n"
        "Seat 1: KaZ/PDt4jMrDbAd9enK1tA (big blind) folded on the Turn\n"
        "Seat 2: CMqNm6W+8EupxsCIK6aAlA folded before Flop (didn't bet)\n"
        "Seat 4: ZsQ938RTTazzQTkcoswgDA folded before Flop (didn't bet)\n"
        "Seat 5: DR2NKuhN5Tb2yI2LroKOVA (button) folded before Flop (didn't bet)\n"
        "Seat 6: 9pcYOozOQW+H/CCLOUUH2w (small blind) collected ($100)\n"
    )


def test_handhq_showdown_shows_the_cards_the_history_recorded() -> None:
    """Hand [11] deals ???? but records the cards shown at the end: those are shown, with
    their hands named, and nobody is dealt face up."""
    text = render(handhq_infos()[10])
    assert "Dealt to" not in text
    assert "7u7CVWLfH5mxzeWdRgWV4Q: shows [6s Ad] (a pair of Sixes)" in text
    assert "ARWDvRI59GgpVk6FaHAoiQ: shows [Qh Kh] (a pair of Kings)" in text
    assert "ARWDvRI59GgpVk6FaHAoiQ collected $370 from pot" in text


def test_every_handhq_hand_round_trips_through_pokerkit_in_dollars() -> None:
    for info in handhq_infos():
        text = render(info)
        parsed = pokerkit_parse(text)
        assert parsed is not None, text
        assert without_sm(list(parsed.history.actions)) == without_sm(info.history.actions)
        ours = replay(info.history).final_stacks
        assert [Decimal(s) for s in parsed.stacks] == [Decimal(s) for s in ours], text


# -- the game in the header ---------------------------------------------------------------

# Real PokerStars files, kept as test data by hand-history parsers: the repository, then
# the file.
HHSMITHY = "HHSmithy/PokerHandHistoryParser SampleHandHistories/PokerStars/CashGame/"
FPDB = "jejellyroll-fr/fpdb-3 regression-test-files/cash/Stars/"
FPDB_TEST = "fpdb's pyfpdb/test_PokerStars.py, "
REAL_HEADERS = [
    # (game, the words after "PokerStars Hand #N:  ", where a real hand of it has them)
    ("flhe", "Hold'em Limit", HHSMITHY + "GameTypeTests/FixedLimitHoldem.txt"),
    ("plhe", "Hold'em Pot Limit", HHSMITHY + "GameTypeTests/PotLimitHoldem.txt"),
    ("plo", "Omaha Pot Limit", HHSMITHY + "RunItTwiceTests/RunItTwice1.txt"),
    ("plo5", "5 Card Omaha Pot Limit", FPDB + "Flop/5-Card-PLO-6max-USD-3.00-6.00-201303.txt"),
    ("plo6", "6 Card Omaha Pot Limit", FPDB + "Flop/6-Card-PLO-6max-USD-0.25-0.50-202004.txt"),
    ("flo8", "Omaha Hi/Lo Limit", FPDB_TEST + "'HORSE (Omaha Hi/Lo Limit, $2/$4)'"),
    ("plo8", "Omaha Hi/Lo Pot Limit", HHSMITHY + "GameTypeTests/PotLimitOmahaHiLo.txt"),
    ("stud", "7 Card Stud Limit", FPDB + "Stud/7-Stud-USD-0.04-0.08-200911.txt"),
    ("stud8", "7 Card Stud Hi/Lo Limit", FPDB + "Stud/7-StudHL-USD-0.04-0.08-200911.txt"),
    ("razz", "Razz Limit", FPDB + "Stud/Razz-USD-0.04-0.08-200911.txt"),
    ("27td", "Triple Draw 2-7 Lowball Limit", FPDB + "Draw/Triple Draw 2-7 Lowball-FL-*.txt"),
    ("27sd", "Single Draw 2-7 Lowball No Limit", FPDB + "Draw/2-7 Single Draw-NL-*.txt"),
    ("5cd", "5 Card Draw No Limit", FPDB + "Draw/5-Carddraw-NL-USD-0.25-0.50.Sample.txt"),
    ("badugi", "Badugi Limit", FPDB_TEST + "'Badugi Limit ($0.25/$0.50)'"),
]


def header_words(first_line: str) -> str:
    """The game's words in a PokerStars header: "Hold'em No Limit"."""
    m = re.match(r"PokerStars (?:Zoom )?(?:Hand|Game) #\d+:  (.+?) \(", first_line)
    assert m is not None, first_line
    return m[1]


@pytest.mark.parametrize(
    ("key", "words", "source"), REAL_HEADERS, ids=[k for k, *_ in REAL_HEADERS]
)
def test_the_header_names_the_game_as_pokerstars_does(key: str, words: str, source: str) -> None:
    """Each game's header has the words of a real PokerStars hand of that game (the
    files named are PokerStars' own, kept as test data by hand-history parsers)."""
    from tests.server.test_export_games import played

    info = next(played(key, 1, f"header {key}"))
    assert header_words(render(info).splitlines()[0]) == words, source


def test_a_no_limit_holdem_header_is_a_real_one_and_the_only_one_pokerkit_reads() -> None:
    """No-limit hold'em's header words are those of the real hands in
    shared/data/pokerstars; pokerkit's PokerStars parser reads that header alone, so
    that it refuses a pot-limit Omaha hand rather than read it as hold'em."""
    from tests.server.test_export_games import played

    real = header_words(real_lines("thlorenz-hhp/cash.2010.txt")[0])
    nlhe = render(next(played("nlhe", 1, "header nlhe")))
    assert header_words(nlhe.splitlines()[0]) == real == "Hold'em No Limit"
    assert pokerkit_parse(nlhe) is not None
    plo = render(next(played("plo", 1, "header plo")))
    assert header_words(plo.splitlines()[0]) == "Omaha Pot Limit"
    assert pokerkit_parse(plo) is None


def test_two_boards_are_dealt_as_pokerstars_dealt_split_holdem() -> None:
    """A double-board bomb pot is what PokerStars dealt as Split Hold'em (fpdb's
    regression file Flop/NLHE-Split-6max-USD-1.00-2.00-201803.txt): "Split Hold'em No
    Limit", each street on the first board then the second, a show down for each and
    both boards in the summary, and no "Hand was run twice"."""
    from tests.server.test_table_options_exports import bomb_hands, info_for

    for hand, _ in bomb_hands("nlhe", 2, 4):
        text = render(info_for(hand))
        assert header_words(text.splitlines()[0]) == "Split Hold'em No Limit", text
        assert hand.boards is not None
        for i, run in enumerate(("FIRST", "SECOND")):
            assert f"*** {run} FLOP *** [{' '.join(map(str, hand.boards[i][:3]))}]" in text
        assert "Hand was run twice" not in text
    for hand, _ in bomb_hands("nlhe", 1, 2):
        assert header_words(render(info_for(hand)).splitlines()[0]) == "Hold'em No Limit"
