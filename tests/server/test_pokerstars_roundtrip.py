"""pokerkit reads our PokerStars text back to the hands we played (issue 20,
"Tracker-grade PokerStars export").

pokerkit's PokerStars parser (``pokerkit.HandHistory.from_pokerstars``, 0.7.7) reads each
exported hold'em hand, and what it reads must be the hand: its number, players, seats,
starting stacks, dealt and shown hole cards, board and every action, and, replayed by
pokerkit, its final stacks. The hands are played through the engine from seeded decks
(no-limit hold'em at two to nine seats with all-ins, side pots and uncalled bets, fixed
limit, straddles, hands run twice, a player's own text), or are Pluribus hands imported
and exported by the command line, as ``pokerroom hands import`` and ``pokerroom hands
export --format pokerstars`` do it.

Where pokerkit's parser cannot read what PokerStars itself writes, the test names the
case, checks that pokerkit does fail on it (so that a pokerkit which learns it shows up
here), reads the rest of the hand with the smallest change to the text or the parser,
and pins our text to the hand's events:

- "Hold'em Limit": its only header is "Hold'em No Limit", and it replays a text by
  no limit's rules, where a fixed-limit bet completed after a short all-in bet is short
  of the minimum raise;
- "posts straddle": its blinds pattern knows small and big blinds only;
- a hand run twice: its board pattern knows "*** FLOP ***", "*** TURN ***" and "***
  RIVER ***" only, so it finds no board to run the hand out on.

Blinds posted all in for less are left out here: pokerkit counts the next raise from
what was posted, PokerStars and we from the whole blind (see
test_export_pokerstars.py); every hand here tops its stacks up to three big blinds.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import io
import random
import re
import warnings
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from pokerkit import HandHistory as PokerkitHistory
from pokerkit.notation import PokerStarsParser
from pokerkit.utilities import parse_value

from engine import (
    ActionTaken,
    BetOrRaiseTo,
    BoardDealt,
    CardsShown,
    CheckOrCall,
    Deck,
    ForcedBetPosted,
    Hand,
    PotAwarded,
    Table,
    TableConfig,
    UncalledBetReturned,
    game,
    history,
)
from engine.events import board_index
from server.cli import main
from server.config import database_url
from server.export import HandInfo
from server.export.pokerstars import render
from server.store import Store, hand_rows
from tests.conftest import SHARED_DATA
from tests.helpers import play_out
from tests.server.test_export_pokerstars import NAMES, NOON, info_for

PLURIBUS = SHARED_DATA / "phh" / "pluribus"
SHOW = re.compile(r"p\d+ sm( \S+)?")
CARDS = re.compile(r"[2-9TJQKA][cdhs]")


# -- reading back ------------------------------------------------------------------------


def read_back(
    text: str, parser: Callable[..., Iterator[PokerkitHistory]] | None = None
) -> list[PokerkitHistory]:
    """The hands in ``text`` as pokerkit's PokerStars parser reads them (``parser``: one
    adapted to a case it cannot read); ValueError if it cannot read one."""
    read = parser or PokerkitHistory.from_pokerstars
    # pokerkit warns, and prints a traceback, about every hand it cannot read.
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        return list(read(text, error_status=True))


def one(
    text: str, parser: Callable[..., Iterator[PokerkitHistory]] | None = None
) -> PokerkitHistory:
    hands = read_back(text, parser)
    assert len(hands) == 1, text
    return hands[0]


def number(theirs: PokerkitHistory) -> int:
    """The hand number pokerkit read ("PokerStars Hand #42")."""
    assert isinstance(theirs.hand, int)
    return theirs.hand


def pokerkit_stacks(theirs: PokerkitHistory) -> list[int]:
    """The stacks pokerkit ends the hand with, replaying what it read."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [int(s) for s in collections.deque(theirs, maxlen=1)[0].stacks]


def played(actions: Sequence[str]) -> list[str]:
    """A hand's actions but the shows: the deal, the board and the betting (PHH puts a
    show where the hand was tabled, pokerkit's parser at the end)."""
    return [a for a in actions if not SHOW.fullmatch(a)]


def shown(actions: Sequence[str]) -> list[str]:
    """The hands shown, in no order."""
    return sorted(a for a in actions if SHOW.fullmatch(a) and CARDS.search(a))


def assert_read_back(theirs: PokerkitHistory, info: HandInfo, text: str) -> None:
    """pokerkit read ``info``'s hand from ``text``: its number, players, seats, starting
    stacks, the cards dealt, the board, every action and the hands shown."""
    ours = info.history
    assert (theirs.hand, theirs.players, theirs.seats) == (
        info.hand_id,
        list(info.players),
        list(info.seats),
    ), text
    assert list(theirs.starting_stacks) == list(ours.starting_stacks), text
    assert played(theirs.actions) == played(ours.actions), text
    assert shown(theirs.actions) == shown(ours.actions), text


def odd_chip_winners(info: HandInfo) -> set[int]:
    """Winners of pots split three or more ways with two or more odd chips: we give them
    one each, from the first winner left of the button (TDA Rule 20); pokerkit gives them
    all to the first winner."""
    return {
        seat
        for e in info.replay().events
        if isinstance(e, PotAwarded) and e.amount % len(e.shares) >= 2
        for seat, _ in e.shares
    }


def assert_same_result(theirs: PokerkitHistory, info: HandInfo, text: str) -> None:
    """Replayed by pokerkit, the hand ends with our final stacks (every chip of them,
    but for odd chips pokerkit gives another winner of the same pot). Ours are the
    engine's, as our text has them: a history's own ``finishing_stacks`` may split an
    odd chip in halves (Pluribus 32/23.phh: 10387.5 twice), as no table can."""
    finishing = [int(s) for s in info.replay().final_stacks]
    stacks = pokerkit_stacks(theirs)
    odd = odd_chip_winners(info)
    assert sum(stacks) == sum(finishing), text
    for p, (a, b) in enumerate(zip(stacks, finishing, strict=True)):
        assert a == b or p in odd, text


# -- hands played through the engine -------------------------------------------------------


def info_of(hand: Hand, hand_id: int, max_seats: int) -> HandInfo:
    """The hand as the store gives it to the exporters, with its button and small blind."""
    button = hand.setup.button
    assert button is not None
    info = info_for(hand, hand_id=hand_id, max_seats=max_seats)
    return dataclasses.replace(info, button=button + 1, small_blind=hand.setup.small_blind)


def play(
    config: TableConfig,
    seed: int,
    count: int,
    *,
    deep: tuple[int, int] = (3, 150),
    raise_share: float = 0.25,
    straddle: bool = False,
) -> Iterator[tuple[Hand, HandInfo]]:
    """``count`` hands at one table, each dealt from a deck shuffled by a seeded RNG.
    Every empty chair is filled before each hand, with ``deep`` big blinds (a random
    number in that range), and every stack under its floor topped up to it: no blind or
    straddle is ever posted short, and short and deep stacks make all-ins and side pots.
    With ``straddle`` everyone straddles when under the gun."""
    rng = random.Random(seed)
    table = Table(config)
    floor = deep[0] * config.big_blind
    for i in range(1, count + 1):
        for chair in range(config.seats):
            if chair not in table.occupied():
                stack = rng.randint(*deep) * config.big_blind
                table.sit_down(chair, stack, wait_for_big_blind=False)
            elif table.stack(chair) < floor:
                table.adjust_stack(chair, floor - table.stack(chair))
            table.set_straddle(chair, straddle)
        table.start_hand(Deck.shuffled(rng))
        play_out(table, rng, raise_share=raise_share)
        hand = table.hand
        assert hand is not None
        yield hand, info_of(hand, 1000 * seed + i, config.seats)


def features(hand: Hand) -> Counter[str]:
    """What a hand exercised: an all-in, an uncalled bet returned, a side pot, a show."""
    log = hand.log
    return Counter(
        {
            "all in": any(isinstance(e, ActionTaken) and e.all_in for e in log),
            "uncalled bet": any(isinstance(e, UncalledBetReturned) for e in log),
            "side pot": any(isinstance(e, PotAwarded) and e.pot > 0 for e in log),
            "show": any(isinstance(e, CardsShown) for e in log),
        }
    )


def nlhe(seats: int, **options: Any) -> TableConfig:
    return TableConfig(small_blind=50, big_blind=100, seats=seats, min_buy_in=100, **options)


# -- no-limit hold'em ------------------------------------------------------------------------


@pytest.mark.parametrize("seats", range(2, 10))
def test_no_limit_holdem_reads_back_as_it_was_played(seats: int) -> None:
    seen: Counter[str] = Counter()
    for hand, info in play(nlhe(seats), seats, 40):
        text = render(info)
        theirs = one(text)
        assert_read_back(theirs, info, text)
        assert_same_result(theirs, info, text)
        seen += features(hand)
    assert seen["all in"] and seen["uncalled bet"] and seen["show"], seen
    assert seen["side pot"] or seats == 2, seen  # heads-up, one all-in is all there is


def test_a_players_own_text_deals_them_alone_and_reads_back_with_the_others_unknown() -> None:
    """``render(info, hero=p)`` is the player's own history, as the PokerStars client
    writes it: "Dealt to" the hero alone; the others' cards where shown. pokerkit reads
    it as the same hand with the others' cards unknown; a watcher's text
    (``public=True``) deals nobody."""
    for _, info in play(nlhe(6), 21, 20):
        dealt = {a.split()[2]: a.split()[3] for a in info.history.actions if a.startswith("d dh")}
        for hero in [*range(len(info.players)), None]:
            text = render(info, hero=hero, public=hero is None)
            theirs = one(text)
            hidden = {f"p{p + 1}" for p in range(len(info.players)) if p != hero}
            expected = [
                f"d dh {a.split()[2]} ????" if a.startswith("d dh") and a.split()[2] in hidden
                else a
                for a in played(info.history.actions)
            ]  # fmt: skip
            assert played(theirs.actions) == expected, text
            assert shown(theirs.actions) == shown(info.history.actions), text
            assert_same_result(theirs, info, text)
            dealt_lines = [line for line in text.splitlines() if line.startswith("Dealt to ")]
            if hero is None:
                assert dealt_lines == [], text
            else:
                cards = " ".join(CARDS.findall(dealt[f"p{hero + 1}"]))
                assert dealt_lines == [f"Dealt to {info.players[hero]} [{cards}]"], text


# -- fixed limit ---------------------------------------------------------------------------


def as_no_limit(text: str) -> str:
    """The text with its fixed-limit header read as no limit. A fixed-limit hand's lines
    are those of a no-limit hand betting the same amounts, which pokerkit can replay."""
    assert " Hold'em Limit (" in text.splitlines()[0]
    return text.replace(" Hold'em Limit (", " Hold'em No Limit (", 1)


def flhe(seats: int) -> TableConfig:
    return TableConfig(
        game=game("flhe"), small_blind=50, big_blind=100, seats=seats, min_buy_in=100
    )


@pytest.mark.parametrize("seats", [2, 4, 6, 9])
def test_fixed_limit_holdem_reads_back_under_a_no_limit_header(seats: int) -> None:
    """Named case: pokerkit's parser knows one header, "Hold'em No Limit" (its
    ``VARIANTS``), and refuses PokerStars' "Hold'em Limit (100/200)". Read as no limit,
    every hand is the hand played. Stacks of 25 to 60 big blinds: capped at four bets a
    street, a hand costs 24 at most, so nobody is all in (a short all-in bet is the
    next test's)."""
    raises = 0
    for hand, info in play(flhe(seats), 100 + seats, 30, deep=(25, 60), raise_share=0.4):
        text = render(info)
        setup = hand.setup
        assert text.startswith(
            f"PokerStars Hand #{info.hand_id}:  Hold'em Limit ({setup.small_bet}/{setup.big_bet})"
        )
        with pytest.raises(ValueError):
            read_back(text)
        theirs = one(as_no_limit(text))
        assert_read_back(theirs, info, text)
        assert_same_result(theirs, info, text)
        assert not features(hand)["all in"], text
        raises += sum(isinstance(e, ActionTaken) and e.kind == "raise" for e in hand.log)
    assert raises >= 30


def completed_short_bet() -> tuple[Hand, HandInfo]:
    """Fixed limit, 100/200: the big blind, 40 left after the preflop betting, bets it
    all on the flop (under half a bet, so not a bet the next must raise) and the next
    player to bet makes it a full bet of 100."""
    table = Table(flhe(3))
    for chair, stack in enumerate((5_000, 5_000, 140)):
        table.sit_down(chair, stack, wait_for_big_blind=False)
    table.start_hand(Deck.shuffled(random.Random(5)))
    while (seat := table.to_act) is not None:
        menu = table.legal_actions(seat)
        assert menu is not None
        hand = table.hand
        assert hand is not None
        bet = any(isinstance(e, BoardDealt) for e in hand.log) and menu.can_raise
        short = seat == 2 and table.stack(seat) < 100
        completing = bet and any(
            isinstance(e, ActionTaken) and e.all_in and e.kind == "bet" for e in hand.log
        )
        if short and bet:
            table.apply(BetOrRaiseTo(seat, menu.max_raise_to))
        elif completing:
            table.apply(BetOrRaiseTo(seat, menu.min_raise_to))
        else:
            table.apply(CheckOrCall(seat))
    assert table.hand is not None
    return table.hand, info_of(table.hand, 77, 3)


def pokerkit_actions(text: str, players: Sequence[str]) -> list[str]:
    """The actions pokerkit's parser finds in ``text`` before it replays them (its
    ``_parse_actions``, which counts "raises X to Y" from the bet faced, as PokerStars
    does), for ``players`` in PHH order."""
    return PokerStarsParser()._parse_actions(text, parse_value, list(players))


def test_a_fixed_limit_bet_completed_after_a_short_all_in_bet_is_a_raise() -> None:
    """After an all-in bet of 40 where a bet is 100, the next bet makes it a full one:
    in stud "completes it to", the bring-in's word; in a board game PokerStars text has
    a raise, counted from the all-in bet ("raises 60 to 100"), which hold'em's parsers
    read. Named case: pokerkit replays a fixed-limit text as no limit only, where a
    raise to 100 over a bet of 40 is short of the minimum (to 140); so the hand's actions
    are compared as its parser reads them, before its replay."""
    hand, info = completed_short_bet()
    completion = next(e for e in hand.log if isinstance(e, ActionTaken) and e.kind == "complete")
    short = next(e for e in hand.log if isinstance(e, ActionTaken) and e.all_in)
    text = render(info)
    name = info.players[hand.position[completion.seat]]
    raised = completion.street_total - short.street_total
    assert f"{name}: raises {raised} to {completion.street_total}" in text.splitlines(), text
    assert "completes" not in text
    assert played(pokerkit_actions(text, info.players)) == played(info.history.actions)
    with pytest.raises(ValueError):
        read_back(as_no_limit(text))


# -- straddles -----------------------------------------------------------------------------


@dataclass
class StraddleParser(PokerStarsParser):
    """pokerkit's parser taught the straddle. Its blinds pattern gets "posts straddle";
    and since it takes every post after the first two for a dead one (a negative entry
    in its ``blinds_or_straddles``, which does not move the first to act), a straddle's
    entry is made negative first, so that it comes out live."""

    BLIND_OR_STRADDLE_POSTING = re.compile(
        r"(?P<player>.+): posts (?:small blind|big blind|straddle)"
        r" \D?(?P<blind_or_straddle>[0-9.]+)"
    )

    def _parse_blinds_or_straddles(
        self, s: str, parse_value: Callable[[str], int]
    ) -> collections.defaultdict[str, int]:
        posted = super()._parse_blinds_or_straddles(s, parse_value)
        for m in re.finditer(r"^(?P<player>.+): posts straddle ", s, re.MULTILINE):
            posted[m["player"]] = -posted[m["player"]]
        return posted


def reads_back_whole(text: str, info: HandInfo) -> bool:
    """Whether pokerkit's own parser reads ``text`` as ``info``'s hand, to its stacks."""
    try:
        theirs = one(text)
        assert_read_back(theirs, info, text)
        assert_same_result(theirs, info, text)
    except (ValueError, AssertionError):
        return False
    return True


def test_straddles_are_posted_and_read_back_by_a_parser_that_knows_the_line() -> None:
    """Named case: pokerkit's blinds pattern knows "posts small blind" and "posts big
    blind", not "posts straddle" (PokerStars' words; fpdb's PokerStars importer reads
    them), so it plays a straddle hand without the straddle and cannot read it. Taught
    the line, it reads every straddle hand (the button's too) as it was played."""
    straddles = 0
    for hand, info in play(nlhe(6, button_straddle=True), 8, 60, straddle=True):
        text = render(info)
        post = [e for e in hand.log if isinstance(e, ForcedBetPosted) and e.kind == "straddle"]
        for e in post:
            name = info.players[hand.position[e.seat]]
            assert f"{name}: posts straddle {e.increment}" in text.splitlines(), text
        straddles += bool(post)
        assert reads_back_whole(text, info) == (not post), text
        theirs = one(text, StraddleParser())
        assert_read_back(theirs, info, text)
        assert_same_result(theirs, info, text)
    assert straddles >= 30


# -- running it twice ----------------------------------------------------------------------

RUNS = ("FIRST", "SECOND")


def first_run(text: str) -> str:
    """The text of a hand run twice as if it had run once, on the first board: the
    second run's streets and show down left out, "FIRST" taken off the first run's."""
    kept: list[str] = []
    second = False
    for line in text.splitlines():
        if line.startswith("*** "):
            second = line.startswith("*** SECOND ")
        if not second:
            kept.append(line.replace("*** FIRST ", "*** ", 1))
    return "\n".join(kept) + "\n"


def first_run_actions(hand: Hand, info: HandInfo) -> list[str]:
    """The hand's PHH actions but the shows and the second run's cards (dealt last)."""
    actions = played(info.history.actions)
    second = sum(isinstance(e, BoardDealt) and board_index(e) == 1 for e in hand.log)
    deals = [i for i, a in enumerate(actions) if a.startswith("d db ")]
    return [a for i, a in enumerate(actions) if i not in deals[len(deals) - second :]]


def street_lines(hand: Hand) -> list[str]:
    """The board's lines a hand run twice should have, from its events: each street as
    dealt, on the board it was dealt on, marked FIRST or SECOND if the runs dealt it
    apart."""
    twice = {e.street for e in hand.log if isinstance(e, BoardDealt) and board_index(e)}
    lines = []
    for e in hand.log:
        if isinstance(e, BoardDealt):
            run = f"{RUNS[board_index(e)]} " if e.street in twice else ""
            before = e.board[: len(e.board) - len(e.cards)]
            shown_before = f"[{' '.join(map(str, before))}] " if before else ""
            cards = " ".join(map(str, e.cards))
            lines.append(f"*** {run}{str(e.street).upper()} *** {shown_before}[{cards}]")
    return lines


def collected(lines: Sequence[str]) -> Counter[str]:
    won: Counter[str] = Counter()
    for line in lines:
        if m := re.fullmatch(r"(.+) collected (\d+) from (?:main |side )?pot(?:-\d+)?", line):
            won[m[1]] += int(m[2])
    return won


def awarded(hand: Hand, info: HandInfo, board: int) -> Counter[str]:
    won: Counter[str] = Counter()
    for e in hand.log:
        if isinstance(e, PotAwarded) and board_index(e) == board:
            for seat, share in e.shares:
                won[info.players[hand.position[seat]]] += share
    return +won


def assert_runs(hand: Hand, info: HandInfo, text: str) -> None:
    """Our text of a hand run twice, against its events, in PokerStars' words."""
    boards = hand.boards
    assert boards is not None
    lines = text.splitlines()
    board_lines = [x for x in lines if re.match(r"\*\*\* (\w+ )?(FLOP|TURN|RIVER) \*\*\*", x)]
    assert board_lines == street_lines(hand), text
    first, second, summary = (
        lines.index(f"*** {marker} ***")
        for marker in ("FIRST SHOW DOWN", "SECOND SHOW DOWN", "SUMMARY")
    )
    assert first < second < summary, text
    assert collected(lines[first:second]) == awarded(hand, info, 0), text
    assert collected(lines[second:summary]) == awarded(hand, info, 1), text
    assert lines[summary + 2 : summary + 5] == [
        "Hand was run twice",
        *(f"{run} Board [{' '.join(map(str, b))}]" for run, b in zip(RUNS, boards, strict=True)),
    ], text
    for e in hand.log:
        if isinstance(e, CardsShown):  # won on each board, or lost, in the seat's line
            name = info.players[hand.position[e.seat]]
            line = next(x for x in lines[summary:] if re.match(rf"Seat \d+: {re.escape(name)} ", x))
            results = re.findall(r"(?:won \((\d+)\)|lost) with", line)
            assert [int(r or 0) for r in results] == [awarded(hand, info, b)[name] for b in (0, 1)]


def test_hands_run_twice_are_written_as_pokerstars_writes_them() -> None:
    """Named case: pokerkit's board pattern knows "*** FLOP ***", "*** TURN ***" and
    "*** RIVER ***", not "*** FIRST TURN ***" (PokerStars' words for a hand run twice),
    so it finds no board to run the hand out on and cannot read it. Our text is pinned to
    the hand's events instead, and the hand read once, on its first board, is read back
    whole; hands whose players did not all agree run once and are read back as any
    hand."""
    counts: Counter[str] = Counter()
    for hand, info in play(nlhe(4, run_it_twice=True), 12, 60, raise_share=0.5):
        text = render(info)
        if hand.boards is None:
            theirs = one(text)
            assert_read_back(theirs, info, text)
            assert_same_result(theirs, info, text)
            counts["once"] += 1
            continue
        counts["twice"] += 1
        counts["from the flop on"] += "*** FLOP ***" in text
        with pytest.raises(ValueError):
            read_back(text)
        assert_runs(hand, info, text)
        theirs = one(first_run(text))
        assert (theirs.hand, theirs.players) == (info.hand_id, list(info.players))
        assert list(theirs.starting_stacks) == list(info.history.starting_stacks)
        assert played(theirs.actions) == first_run_actions(hand, info), text
        assert shown(theirs.actions) == shown(info.history.actions), text
    assert counts["twice"] >= 10 and counts["from the flop on"] >= 2, counts
    assert counts["once"] >= 10, counts


# -- through the store and the command line ----------------------------------------------

SESSIONS = ("30", "31", "32", "105")
"""283 Pluribus hands (six players, 50/100, 10,000 chips each), numbered 0, 1, ... in
each session, so their PHH hand numbers repeat from one session to the next."""


def export(db: str, out: Path, *ids: int) -> str:
    """``pokerroom hands export --format pokerstars`` of ``ids``, or of every hand."""
    which = [str(i) for i in ids] or ["--all"]
    assert (
        main(["hands", "export", *which, "--format", "pokerstars", "--db", db, "-o", str(out)]) == 0
    )
    return out.read_text(encoding="utf-8")


async def stored(db: str) -> dict[int, tuple[str, history.HandHistory]]:
    """Every stored hand's table and history, by id."""
    async with Store.open(database_url(db)) as store:
        infos = [await store.hand_info(i) for i in await store.hand_ids()]
    return {info.hand_id: (info.table_name, info.history) for info in infos}


def test_pluribus_hands_exported_by_the_command_line_read_back_with_the_stores_ids(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each hand's number is its id in the store, the same in every export; and
    every hand read back is the hand in the PHH file it was imported from."""
    db = f"sqlite:///{tmp_path / 'hands.db'}"
    assert main(["hands", "import", "--db", db, *(str(PLURIBUS / s) for s in SESSIONS)]) == 0
    text = export(db, tmp_path / "all.txt")
    assert export(db, tmp_path / "again.txt") == text
    capsys.readouterr()
    hands = {number(theirs): theirs for theirs in read_back(text)}
    by_id = asyncio.run(stored(db))
    assert sorted(hands) == sorted(by_id) and len(hands) == len(read_back(text)) == 283
    numbers = [int(hh.fields["hand"]) for _, hh in by_id.values()]
    assert len(set(numbers)) < len(numbers)  # the files' numbers repeat; the ids do not
    for hand_id, (table, hh) in by_id.items():
        source = history.load(
            (PLURIBUS / table.split("/")[-1] / f"{hh.fields['hand']}.phh").read_text()
        )
        players = tuple(source.fields["players"])
        info = HandInfo(hand_id, table, NOON, players, tuple(range(1, 7)), source)
        theirs = hands[hand_id]
        assert theirs.table == table
        assert_read_back(theirs, info, f"hand {hand_id}")
        assert_same_result(theirs, info, f"hand {hand_id}")
    one_hand = export(db, tmp_path / "one.txt", hand_id)
    assert one_hand.rstrip("\n") in text  # alone or with the others, the same text


def live_hand(table: Table, rng: random.Random) -> Hand:
    table.start_hand(Deck.shuffled(rng))
    play_out(table, rng)
    assert table.hand is not None
    return table.hand


async def write_live_hands(db: str, name: str, count: int) -> list[int]:
    """``count`` hands of a live table called ``name``, written by a store of its own
    (as a server process holding that table writes them); their ids."""
    table = Table(nlhe(3))
    for chair in range(3):
        table.sit_down(chair, 10_000)
    rng = random.Random(name)
    ids = []
    async with Store.open(database_url(db), upgrade=True) as store:
        players = await store.ensure_players(NAMES[:3])
        table_id = await store.ensure_table(name, {"small_blind": 50, "big_blind": 100})
        for _ in range(count):
            hand = live_hand(table, rng)
            names = [NAMES[s] for s in hand.seats]
            rows = hand_rows(hand, table_id=table_id, player_ids=[players[n] for n in names],
                             names=names, started_at=NOON, ended_at=NOON)  # fmt: skip
            ids.append(await store.write_hand(rows))
    return ids


def test_hands_of_two_live_tables_and_imported_hands_never_share_a_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two tables (each written by its own store, as two server processes would) number
    their hands 1, 2, 3; an imported session numbers its own 0, 1, 2, ...; the text
    numbers each hand with its id in the store, so no two share one."""
    db = f"sqlite:///{tmp_path / 'hands.db'}"
    east = asyncio.run(write_live_hands(db, "east", 3))
    assert main(["hands", "import", "--db", db, str(PLURIBUS / "105")]) == 0
    west = asyncio.run(write_live_hands(db, "west", 3))
    capsys.readouterr()
    text = export(db, tmp_path / "all.txt")
    by_id = asyncio.run(stored(db))
    numbers = [number(h) for h in read_back(text)]
    assert sorted(numbers) == sorted(by_id) and len(set(numbers)) == len(numbers)
    assert {*east, *west} <= set(numbers)
    tables = [str(h.table) for h in read_back(text) if number(h) in {*east, *west}]
    assert sorted(tables) == ["east"] * 3 + ["west"] * 3
