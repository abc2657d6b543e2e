"""The tournament director, its structures and statistics, and ``pokerroom tournament``."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine import (
    Action,
    ActionMenu,
    BetOrRaiseTo,
    BringIn,
    CheckOrCall,
    Draw,
    Fold,
    TableView,
    history,
)
from server.bots import CallingStation, RandomBot, TightAggressive
from server.cli import main
from server.tournaments.director import (
    BotAgent,
    Entrant,
    Format,
    HandPlayed,
    TournamentConfig,
    TournamentDirector,
    TournamentError,
    config_from_json,
    config_json,
    make_bot,
)
from server.tournaments.stats import bb_per_100
from server.tournaments.structures import (
    BLIND_STRUCTURES,
    PAYOUTS,
    BlindStructure,
    Level,
    blind_structure,
    payout_structure,
    payouts,
)

KINDS = (TightAggressive, CallingStation, RandomBot)


def field_of(n: int, seed: str) -> list[Entrant]:
    """``n`` built-in bots, seeded from the tournament's seed."""
    return [
        Entrant(f"bot-{i}", BotAgent(make_bot(KINDS[i % 3], seed, f"bot-{i}"))) for i in range(n)
    ]


def run(config: TournamentConfig, entrants: list[Entrant], **options: Any) -> Any:
    director = TournamentDirector(config, entrants, **options)
    return director, asyncio.run(director.run())


# -- freeze-outs ------------------------------------------------------------------------------


def test_a_60_bot_multi_table_tournament_balances_breaks_and_conserves_chips() -> None:
    config = TournamentConfig(Format.MTT, seed="mtt-60", seats=9)
    seen: list[tuple[list[int], int]] = []  # (table sizes, hand's chips) at every hand
    directors: list[TournamentDirector] = []

    def check(played: HandPlayed) -> None:
        hand = played.hand
        assert sum(hand.stacks) == sum(hand.setup.stacks)  # a hand moves chips, never makes them
        sizes = [len(seated) for _, _, seated in directors[0].tables]
        seen.append((sizes, sum(hand.setup.stacks)))

    director = TournamentDirector(config, field_of(60, "mtt-60"), on_hand=check)
    directors.append(director)
    results = asyncio.run(director.run())
    assert all(max(sizes) - min(sizes) <= 1 for sizes, _ in seen)  # balanced within one
    assert seen[0][0] == [9, 9, 9, 9, 8, 8, 8]  # 60 players at 7 tables of 9
    assert [len(sizes) for sizes, _ in seen][-1] == 1  # the final table
    # Tables break as soon as the players fit at fewer: never more tables than needed.
    total = 60 * config.starting_stack
    assert sum(s.chips for s in results.standings) == total
    winner = results.standings[0]
    assert winner.chips == total and winner.place == 1
    assert sorted(s.place for s in results.standings) == list(range(1, 61))
    assert sum(s.prize for s in results.standings) == results.prize_pool == 6_000


def test_blinds_rise_every_level_of_hands() -> None:
    structure = BlindStructure("fast", (Level(10, 20), Level(20, 40), Level(50, 100, 10)), hands=5)
    config = TournamentConfig(Format.SNG, seed="levels", blinds=structure, seats=6)
    blinds: list[tuple[int, int, int]] = []

    def record(played: HandPlayed) -> None:
        setup = played.hand.setup
        blinds.append((setup.small_blind, setup.big_blind, max(setup.antes)))

    run(config, field_of(6, "levels"), on_hand=record)
    expected = [structure.levels[min(h // 5, 2)] for h in range(len(blinds))]
    assert blinds == [(lv.small_blind, lv.big_blind, lv.ante) for lv in expected]
    assert len(blinds) > 10  # the last level was reached


def test_blinds_rise_on_the_injected_clock() -> None:
    structure = BlindStructure("timed", BLIND_STRUCTURES["turbo"].levels, seconds=300.0)
    config = TournamentConfig(Format.SNG, seed="clock", blinds=structure, seats=6)
    now = [0.0]
    big_blinds: list[tuple[float, int]] = []

    def tick(played: HandPlayed) -> None:
        big_blinds.append((now[0], played.hand.setup.big_blind))
        now[0] += 45.0  # each hand takes 45 seconds on the tournament's clock

    run(config, field_of(6, "clock"), on_hand=tick, clock=lambda: now[0])
    for moment, big_blind in big_blinds:
        level = min(int(moment // 300), len(structure.levels) - 1)
        assert big_blind == structure.levels[level].big_blind


def test_a_sit_and_go_ranks_busts_by_when_and_pays_the_places() -> None:
    config = TournamentConfig(Format.SNG, seed="sng", payouts=PAYOUTS["top-3"], buy_in=50)
    busted_after: dict[str, int] = {}

    def watch(played: HandPlayed) -> None:
        for position, name in enumerate(played.players):
            if played.hand.stacks[position] == 0:
                busted_after[name] = len(busted_after)

    _, results = run(config, field_of(6, "sng"), on_hand=watch)
    places = {s.name: s.place for s in results.standings}
    out_first = sorted(busted_after, key=busted_after.__getitem__)
    assert [places[n] for n in out_first] == sorted((places[n] for n in out_first), reverse=True)
    assert [s.prize for s in results.standings] == [150, 90, 60, 0, 0, 0]


def test_a_multi_table_tournament_says_when_each_player_went_out_and_no_win_rate() -> None:
    config = TournamentConfig(Format.MTT, seed="out", seats=6)
    busted_in: dict[str, int] = {}
    hands = 0

    def watch(played: HandPlayed) -> None:
        nonlocal hands
        hands += 1
        for position, name in enumerate(played.players):
            if played.hand.stacks[position] == 0:
                busted_in[name] = hands

    _, results = run(config, field_of(20, "out"), on_hand=watch)
    winner, *others = results.standings
    assert winner.eliminated_in_hand is None and winner.chips == 1_500 * 20
    assert {s.name: s.eliminated_in_hand for s in others} == busted_in
    rounds = [s.eliminated_in_round for s in others]
    assert rounds == sorted(rounds, reverse=True)  # ranked by round, later rounds higher
    assert all(s.rate is None and s.duplicate_rate is None for s in results.standings)
    data = results.to_json()
    assert "winnings" not in data and all("rate" not in s for s in data["standings"])
    # Chips after every hand each played, from the tournament's hand count: the last 0.
    for s in data["standings"]:
        points = data["stacks"][s["name"]]
        assert len(points) == s["hands"]
        assert [hand for hand, _ in points] == sorted(hand for hand, _ in points)
        assert points[-1] == [s["eliminated_in_hand"] or results.hands, s["chips"]]


def test_a_ring_match_keeps_its_win_rates_and_has_no_eliminations() -> None:
    config = TournamentConfig(Format.RING, seed="rates", hands=40)
    _, results = run(config, field_of(3, "rates"))
    data = results.to_json()
    assert all(s["rate"]["samples"] == 40 for s in data["standings"])
    assert all("eliminated_in_hand" not in s for s in data["standings"])
    assert "stacks" not in data and len(data["winnings"]) == 3


def test_a_tournament_is_played_again_hand_for_hand_from_its_seed() -> None:
    def play(seed: str) -> tuple[dict[str, Any], list[str]]:
        texts: list[str] = []

        def keep(played: HandPlayed) -> None:
            texts.append(history.dump(history.from_hand(played.hand, list(played.players))))

        config = TournamentConfig(Format.MTT, seed=seed, seats=6)
        _, results = run(config, field_of(20, seed), on_hand=keep)
        return results.to_json(), texts

    first, again, other = play("again"), play("again"), play("other")
    assert first == again
    assert first[1] != other[1]


# -- ring matches and round robins ------------------------------------------------------------


def test_tight_aggressive_beats_random_in_a_duplicate_ring_by_more_than_the_interval() -> None:
    config = TournamentConfig(
        Format.RING, seed="tag-vs-random", hands=1_000, duplicate=True, starting_stack=10_000
    )
    entrants = [
        Entrant("tag", BotAgent(TightAggressive())),
        Entrant("random", BotAgent(make_bot(RandomBot, "tag-vs-random", "random"))),
    ]
    _, results = run(config, entrants)
    tag = next(s for s in results.standings if s.name == "tag")
    assert tag.place == 1 and tag.hands == 1_000
    assert tag.duplicate_rate is not None and tag.duplicate_rate.samples == 500  # deals
    assert tag.duplicate_rate.low > 0  # the whole 95 % interval is a win


def test_duplicate_deals_each_deck_once_in_each_rotation() -> None:
    config = TournamentConfig(Format.RING, seed="dup", hands=30, duplicate=True)
    dealt: dict[int, list[tuple[str, ...]]] = {}
    boards: dict[int, set[str]] = {}

    def keep(played: HandPlayed) -> None:
        dealt.setdefault(played.deal, []).append(played.players)
        boards.setdefault(played.deal, set()).add(
            "".join(str(c) for c in played.hand.holes[0])  # the first position's cards
        )

    _, results = run(config, field_of(3, "dup"), on_hand=keep)
    assert results.hands == 30 and len(dealt) == 10
    for deal, orders in dealt.items():
        assert len(orders) == 3 and len(set(orders)) == 3  # three seatings of the players
        assert len(boards[deal]) == 1  # the same cards for the same position
    assert sum(s.chips for s in results.standings) == 0  # a ring match moves chips only


def test_a_round_robin_plays_every_pair() -> None:
    config = TournamentConfig(Format.ROUND_ROBIN, seed="rr", hands=20)
    pairs: set[str] = set()
    _, results = run(config, field_of(4, "rr"), on_hand=lambda played: pairs.add(played.table))
    assert pairs == {f"match-{a}-{b}" for a in range(1, 5) for b in range(a + 1, 5)}
    assert results.hands == 6 * 20
    assert all(s.hands == 3 * 20 for s in results.standings)
    assert sum(s.chips for s in results.standings) == 0


class Broken:
    """Raises on every other decision and answers nonsense on the others."""

    def __init__(self) -> None:
        self.calls = 0

    def act(self, view: TableView, menu: ActionMenu) -> Action:
        self.calls += 1
        if self.calls % 2:
            raise RuntimeError("bug")
        return BetOrRaiseTo(menu.seat, 10**9)  # far beyond any stack


def test_a_failing_bot_checks_or_folds_and_the_tournament_goes_on() -> None:
    entrants = [*field_of(2, "broken"), Entrant("broken", BotAgent(Broken()))]
    _, results = run(TournamentConfig(Format.RING, seed="broken", hands=50), entrants)
    broken = next(s for s in results.standings if s.name == "broken")
    assert broken.errors > 0 and broken.hands == 50


@pytest.mark.parametrize(
    ("config", "entrants", "message"),
    [
        (TournamentConfig(Format.SNG, seed="x", seats=6), 7, "one table: 7 entrants, 6 seats"),
        (TournamentConfig(Format.RING, seed="x"), 1, "at least two entrants"),
        (TournamentConfig(Format.SNG, seed="x", duplicate=True), 3, "duplicate mode is for"),
    ],
)
def test_tournaments_that_cannot_be_run_say_why(
    config: TournamentConfig, entrants: int, message: str
) -> None:
    with pytest.raises(TournamentError, match=message):
        TournamentDirector(config, field_of(entrants, "x"))


# -- structures and statistics ----------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PAYOUTS))
def test_payouts_add_up_to_the_prize_pool(name: str) -> None:
    for pool in (0, 1, 7, 100, 999, 123_457):
        for entrants in range(1, 30):
            prizes = payouts(pool, PAYOUTS[name], entrants)
            assert sum(prizes) == pool
            assert prizes == sorted(prizes, reverse=True)
            assert len(prizes) <= max(1, entrants)


def test_structures_from_json_files_and_what_is_wrong_with_bad_ones(tmp_path: Path) -> None:
    good = tmp_path / "mine.json"
    good.write_text(json.dumps({"hands": 4, "levels": [[5, 10, 0], [10, 20, 2]]}))
    assert blind_structure(str(good)).levels[1] == Level(10, 20, 2)
    shares = tmp_path / "shares.json"
    shares.write_text("[0.6, 0.4]")
    assert payout_structure(str(shares)) == (0.6, 0.4)
    bad: list[tuple[str, Callable[[str], Any], str]] = [
        ('{"levels": [[5, 10, 0]]}', blind_structure, "in hands or in seconds"),
        ('{"hands": 4, "levels": [[20, 10, 0]]}', blind_structure, "small blind <= big blind"),
        ('{"hands": 4}', blind_structure, "needs levels"),
        ("[0.4, 0.6]", payout_structure, "first place down"),
        ("[0.5, 0.4]", payout_structure, "summing to 1"),
        ("{nope", payout_structure, "not a readable JSON"),
    ]
    for text, read, message in bad:
        path = tmp_path / "bad.json"
        path.write_text(text)
        with pytest.raises(ValueError, match=message):
            read(str(path))
    with pytest.raises(ValueError, match="unknown blind structure 'slow'"):
        blind_structure("slow")


def test_bb_per_100_and_its_interval() -> None:
    rate = bb_per_100([0.5, -0.5] * 50)
    assert rate.bb_per_100 == 0 and rate.samples == 100
    # standard deviation 0.5025..., standard error 0.05025..., 1.96 of it, per 100 hands
    assert rate.high == pytest.approx(1.959964 * 100 * 0.50251891 / 10, rel=1e-6)
    assert rate.low == -rate.high
    assert bb_per_100([2.0]).samples == 1 and str(bb_per_100([2.0])) == "+200.0"


# -- the command --------------------------------------------------------------------------------


def test_the_command_runs_stores_charts_and_replays_a_tournament(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = f"sqlite:///{tmp_path / 'room.db'}"
    out = tmp_path / "out"
    argv = [
        "tournament", "--format", "ring", "--seed", "cli", "--hands", "60", "--duplicate",
        "--bot", "tag=tight-aggressive", "--bot", "rnd=random", "--db", db, "--out", str(out),
    ]  # fmt: skip
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "tag" in printed and "duplicate bb/100" in printed
    results = json.loads((out / "results.json").read_text())
    assert results["hands"] == 60 and results["seed"] == "cli"
    assert {s["name"] for s in results["standings"]} == {"tag", "rnd"}
    assert (out / "winnings.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with sqlite3.connect(tmp_path / "room.db") as conn:
        (stored,) = conn.execute("SELECT count(*) FROM hands").fetchone()
        (seeds,) = conn.execute("SELECT count(DISTINCT seed) FROM hands").fetchone()
    assert stored == 60 and seeds == 30  # each deal's seed, played twice
    assert main(["tournament", "--replay", str(results["id"]), "--db", db]) == 0
    assert "identical results" in capsys.readouterr().out


def test_the_command_ranks_a_sit_and_go_by_finish_and_charts_its_chips(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = f"sqlite:///{tmp_path / 'room.db'}"
    out = tmp_path / "out"
    argv = ["tournament", "--format", "sng", "--seed", "finish", "--players", "4",
            "--db", db, "--out", str(out)]  # fmt: skip
    assert main(argv) == 0
    printed = capsys.readouterr().out
    results = json.loads((out / "results.json").read_text())
    assert "bb/100" not in printed and "No win rates" in printed
    for s in results["standings"]:
        row = next(line for line in printed.splitlines() if f" {s['name']} " in line)
        hand = s["eliminated_in_hand"]
        assert ("won" if hand is None else f"out in hand {hand}, level") in row
    assert (out / "chips.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not (out / "winnings.png").exists()
    assert main(["tournament", "--replay", str(results["id"]), "--db", db]) == 0
    assert "identical results" in capsys.readouterr().out


def test_a_replay_compares_results_stored_with_win_rates_on_what_both_have(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A freeze-out stored before its win rates were dropped still replays as identical;
    one whose places were changed does not."""
    db = f"sqlite:///{tmp_path / 'room.db'}"
    argv = ["tournament", "--seed", "old", "--players", "3", "--db", db,
            "--out", str(tmp_path / "out"), "--json"]  # fmt: skip
    assert main(argv) == 0
    tid = json.loads(capsys.readouterr().out)["id"]
    with sqlite3.connect(tmp_path / "room.db") as conn:
        (text,) = conn.execute("SELECT results FROM tournaments WHERE id = ?", (tid,)).fetchone()
        old = json.loads(text)
        old["winnings"] = {s["name"]: [1.0] for s in old["standings"]}
        for s in old["standings"]:
            s["rate"] = {"bb_per_100": 1.0, "ci95": None, "samples": 1}
            del s["eliminated_in_hand"], s["eliminated_in_round"], s["eliminated_at_level"]
        del old["stacks"]
        conn.execute("UPDATE tournaments SET results = ? WHERE id = ?", (json.dumps(old), tid))
    assert main(["tournament", "--replay", str(tid), "--db", db]) == 0
    with sqlite3.connect(tmp_path / "room.db") as conn:
        old["standings"][0]["prize"] += 1
        conn.execute("UPDATE tournaments SET results = ? WHERE id = ?", (json.dumps(old), tid))
    assert main(["tournament", "--replay", str(tid), "--db", db]) == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bot", "x=nonsense"], "--bot x=nonsense: unknown bot 'nonsense'"),
        (["--bot", "novalue"], "give NAME=SPEC"),
        (["--players", "11"], "one table: 11 entrants, 9 seats"),
        (["--blinds", "glacial"], "unknown blind structure 'glacial'"),
        ([], "give --seed"),
    ],
)
def test_bad_tournament_input_is_one_clear_line(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed = [] if argv == [] else ["--seed", "x"]
    try:  # argparse's own refusals exit; ours return the status
        code = main(["tournament", *seed, *argv, "--db", f"sqlite:///{tmp_path / 'x.db'}"])
    except SystemExit as exc:
        code = int(exc.code or 0)
    assert code == 2
    assert message in capsys.readouterr().err


# -- every game, and mixed games --------------------------------------------------------------


class AnyGame:
    """A seeded random player of any game: draws up to its limit, brings in or completes,
    bets, calls and folds, all from the menu."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, view: TableView, menu: ActionMenu) -> Action:
        seat, r = menu.seat, self.rng.random()
        if menu.can_draw:
            mine = next(s.cards for s in view.seats if s.seat == seat) or ()
            return Draw(seat, tuple(mine[: self.rng.randint(0, min(menu.max_discard, len(mine)))]))
        if menu.can_bring_in and r < 0.5:
            return BringIn(seat)
        if menu.can_raise and r < 0.3:
            return BetOrRaiseTo(seat, self.rng.choice([menu.min_raise_to, menu.max_raise_to]))
        if menu.can_fold and menu.call > 0 and r < 0.5:
            return Fold(seat)
        if menu.can_call:
            return CheckOrCall(seat)
        return BetOrRaiseTo(seat, menu.min_raise_to)  # a bring-in due: complete


def any_game_field(n: int) -> list[Entrant]:
    return [Entrant(f"any-{i}", BotAgent(AnyGame(i))) for i in range(n)]


@pytest.mark.parametrize(
    ("fmt", "key", "players"),
    [
        (Format.SNG, "stud", 6),
        (Format.SNG, "27td", 6),
        (Format.MTT, "razz", 12),
        (Format.MTT, "plo8", 14),
        (Format.RING, "badugi", 4),
        (Format.RING, "shortdeck", 3),
        (Format.ROUND_ROBIN, "stud8", 3),
        (Format.ROUND_ROBIN, "leduc", 3),
        (Format.SNG, "dice", 3),
    ],
)
def test_every_format_plays_any_game(fmt: Format, key: str, players: int) -> None:
    config = TournamentConfig(fmt, seed=f"{fmt}-{key}", game=key, seats=6, hands=24)
    games: set[str] = set()

    def check(played: HandPlayed) -> None:
        games.add(played.hand.game.key)
        assert sum(played.hand.stacks) == sum(played.hand.setup.stacks)

    _, results = run(config, any_game_field(players), on_hand=check)
    assert games == {key}
    assert all(s.errors == 0 for s in results.standings)  # every menu was answered
    total = sum(s.chips for s in results.standings)
    assert total == (players * config.starting_stack if fmt in (Format.SNG, Format.MTT) else 0)


def test_a_stud_tournament_antes_and_brings_in_by_the_small_bet_at_every_level() -> None:
    structure = BlindStructure("fast", (Level(10, 20), Level(25, 50, 5), Level(50, 100, 10)), 4)
    config = TournamentConfig(Format.SNG, seed="stud-levels", game="stud", blinds=structure)
    seen: list[tuple[int, int, int, int, int]] = []

    def record(played: HandPlayed) -> None:
        s = played.hand.setup
        seen.append((s.big_blind, max(s.antes), s.bring_in, s.small_bet, s.big_bet))

    run(config, any_game_field(6), on_hand=record)
    # Limits are the level's big blind and twice it; the ante a fifth, the bring-in half.
    expected = [(0, 4, 10, 20, 40), (0, 10, 25, 50, 100), (0, 20, 50, 100, 200)]
    assert seen == [expected[min(h // 4, 2)] for h in range(len(seen))]
    assert len(seen) > 8


def test_a_limit_holdem_tournament_keeps_the_blinds_and_bets_the_big_blind() -> None:
    structure = BlindStructure("one", (Level(50, 100, 10),), hands=10)
    config = TournamentConfig(Format.SNG, seed="flhe", game="flhe", blinds=structure)
    setups: list[tuple[int, int, int, int, int]] = []

    def record(played: HandPlayed) -> None:
        s = played.hand.setup
        setups.append((s.small_blind, s.big_blind, max(s.antes), s.small_bet, s.big_bet))

    run(config, any_game_field(4), on_hand=record)
    assert set(setups) == {(50, 100, 0, 100, 200)}  # no ante in limit hold'em


def test_a_horse_sit_and_go_plays_eight_hands_of_each_game_in_turn() -> None:
    config = TournamentConfig(Format.SNG, seed="horse", mix="horse", starting_stack=5_000)
    played_games: list[str] = []
    run(config, any_game_field(5), on_hand=lambda p: played_games.append(p.hand.game.key))
    horse = ["flhe", "flo8", "razz", "stud", "stud8"]
    cycle = [k for k in horse for _ in range(8)]
    assert len(played_games) > 40
    assert played_games == (cycle * (len(played_games) // 40 + 1))[: len(played_games)]


def test_each_table_of_an_eight_game_mtt_rotates_on_its_own() -> None:
    config = TournamentConfig(Format.MTT, seed="8game", mix="8game", seats=9)
    by_table: dict[str, list[str]] = {}
    seats: set[int] = set()

    def record(played: HandPlayed) -> None:
        by_table.setdefault(played.table, []).append(played.hand.game.key)
        seats.add(len(played.hand.seats))

    run(config, any_game_field(13), on_hand=record)
    assert max(seats) <= 6  # 2-7 triple draw seats six: so does every game of the mix
    assert len(by_table) == 3  # 13 players at tables of 6
    eight = ["27td", "flhe", "flo8", "razz", "stud", "stud8", "nlhe", "plo"]
    first = by_table["table-1"]
    assert first[:48] == [k for k in eight for _ in range(6)][: len(first[:48])]


def test_a_duplicate_ring_of_a_mix_deals_each_game_once_per_rotation() -> None:
    config = TournamentConfig(Format.RING, seed="dup-horse", mix="horse", hands=90, duplicate=True)
    deals: dict[int, set[tuple[str, str]]] = {}

    def keep(played: HandPlayed) -> None:
        # The first two cards: later ones (stud's streets, draws) follow who is still in.
        cards = "".join(str(c) for c in played.hand.holes[0][:2])
        deals.setdefault(played.deal, set()).add((played.hand.game.key, cards))

    _, results = run(config, any_game_field(3), on_hand=keep)
    assert len(deals) == 30
    assert all(len(seen) == 1 for seen in deals.values())  # one game, one deck a deal
    games = [next(iter(deals[d]))[0] for d in sorted(deals)]
    assert games[:16] == ["flhe"] * 8 + ["flo8"] * 8
    for s in results.standings:
        assert s.duplicate_rate is not None and s.duplicate_rate.samples == 30


def test_winnings_are_in_big_bets_when_every_game_is_limit_and_in_big_blinds_otherwise() -> None:
    assert TournamentConfig(Format.SNG, seed="x", mix="horse").unit == "big bets"
    assert TournamentConfig(Format.SNG, seed="x", game="stud").unit == "big bets"
    assert TournamentConfig(Format.SNG, seed="x", mix="8game").unit == "big blinds"
    assert TournamentConfig(Format.SNG, seed="x", game="plo").unit == "big blinds"
    config = TournamentConfig(Format.RING, seed="units", game="razz", hands=20)
    nets: list[tuple[str, float]] = []

    def keep(played: HandPlayed) -> None:
        hand = played.hand
        for position, name in enumerate(played.players):
            net = hand.stacks[position] - hand.setup.stacks[position]
            nets.append((name, net / hand.setup.big_bet))

    _, results = run(config, any_game_field(3), on_hand=keep)
    assert results.to_json()["unit"] == "big bets"
    for name, series in results.winnings.items():
        assert series[-1] == pytest.approx(sum(n for who, n in nets if who == name))


def test_a_changed_game_seats_everyone_again_for_a_new_snapshot() -> None:
    class Seen:
        def __init__(self) -> None:
            self.told: list[tuple[str, str]] = []

        def seated(self, table: str, engine_table: Any, seat: int, name: str) -> None:
            self.told.append((name, engine_table.config.game.key))

        def events(self, table: str, engine_table: Any, events: Any) -> None:
            pass

    seen = Seen()
    config = TournamentConfig(Format.SNG, seed="told", mix="horse", starting_stack=5_000)
    run(config, any_game_field(3), observer=seen)
    told = [key for _, key in seen.told]
    assert told[:3] == ["flhe"] * 3  # sitting down
    assert told[3:6] == ["flo8"] * 3  # after eight hands: Omaha hi-lo, told to all three


def test_game_and_mix_are_stored_and_read_back() -> None:
    config = TournamentConfig(Format.MTT, seed="x", mix="8game")
    assert config_from_json(config_json(config)) == config
    old = {k: v for k, v in config_json(config).items() if k not in ("game", "mix")}
    assert config_from_json(old).games[0].key == "nlhe"  # stored before other games


@pytest.mark.parametrize(
    ("config", "entrants", "message"),
    [
        (TournamentConfig(Format.SNG, seed="x", game="stud"), 9,
         r"9 entrants, 8 seats \(Seven-card stud seats 8\)"),
        (TournamentConfig(Format.SNG, seed="x", mix="8game"), 7,
         r"7 entrants, 6 seats \(8-Game seats 6\)"),
        (TournamentConfig(Format.RING, seed="x", game="kuhn"), 3, "3 entrants, 2 seats"),
        (TournamentConfig(Format.SNG, seed="x", game="holdem"), 3, "unknown game 'holdem'"),
        (TournamentConfig(Format.SNG, seed="x", mix="hors"), 3, "unknown mix 'hors'"),
        (TournamentConfig(Format.SNG, seed="x", game="stud", mix="horse"), 3, "not both"),
    ],
)  # fmt: skip
def test_games_that_cannot_be_run_so_say_why(
    config: TournamentConfig, entrants: int, message: str
) -> None:
    with pytest.raises(TournamentError, match=message):
        TournamentDirector(config, any_game_field(entrants))


@pytest.mark.parametrize(
    ("option", "unit", "name"),
    [
        (["--game", "stud"], "big bets", "Seven-card stud"),
        (["--mix", "8game"], "big blinds", "8-Game"),
    ],
)
def test_the_command_plays_a_game_or_a_mix_and_says_its_unit(
    option: list[str], unit: str, name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = f"sqlite:///{tmp_path / 'room.db'}"
    out = tmp_path / "out"
    argv = ["tournament", *option, "--format", "ring", "--seed", "g", "--hands", "30",
            "--players", "3", "--db", db, "--out", str(out)]  # fmt: skip
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert name in printed and f"{unit} won per 100 hands" in printed
    results = json.loads((out / "results.json").read_text())
    assert results["unit"] == unit and results["hands"] == 30
    assert main(["tournament", "--replay", str(results["id"]), "--db", db]) == 0
    assert "identical results" in capsys.readouterr().out


# -- all-in adjusted winnings and player statistics -----------------------------------------


def run_stored_ring(tmp_path: Path, fmt: str, *extra: str) -> dict[str, Any]:
    """``pokerroom tournament`` on a fresh database; its results.json."""
    db = f"sqlite:///{tmp_path / 'room.db'}"
    argv = [
        "tournament", "--format", fmt, "--seed", "adjust", "--db", db,
        "--out", str(tmp_path / "out"), "--bot", "tag=tight-aggressive",
        "--bot", "cs=calling-station", "--bot", "rnd=random", *extra,
    ]  # fmt: skip
    assert main(argv) == 0
    return dict(json.loads((tmp_path / "out" / "results.json").read_text()))


def stored_stats(tmp_path: Path, tournament_id: int) -> dict[str, Any]:
    """server.stats over the tournament's hands as stored, replayed from their PHH."""
    from server.stats import facts_of_info, player_stats
    from server.store import Store

    async def load() -> list[Any]:
        async with Store.open(f"sqlite+aiosqlite:///{tmp_path / 'room.db'}") as store:
            hands = await store.list_hands(limit=10**6)
            mine = [h for h in hands if h.table.startswith(f"tournament-{tournament_id}-")]
            return [await store.hand_info(h.id) for h in reversed(mine)]

    infos = asyncio.run(load())
    return {name: s.as_json() for name, s in player_stats(map(facts_of_info, infos)).items()}


def test_a_ring_match_reports_adjusted_rates_that_sum_to_zero_and_the_stored_hands_stats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = run_stored_ring(tmp_path, "ring", "--hands", "150")
    printed = capsys.readouterr().out
    assert "adjusted bb/100 (95 % CI)" in printed and "% narrower on average" in printed
    assert "VPIP" in printed and "W$SD" in printed
    assert results["adjustments"]["all-in"] > 0  # the random bot shoves: some are adjusted
    standings = results["standings"]
    adjusted = [s["adjusted"] for s in standings]
    assert all(a["samples"] == 150 and a["ci95"][0] < a["bb_per_100"] < a["ci95"][1]
               for a in adjusted)  # fmt: skip
    # Exact shares of each pot: the adjusted chips of every hand sum to 0.
    assert sum(a["chips_won"] for a in adjusted) == pytest.approx(0, abs=1e-6)
    assert sum(a["bb_per_100"] for a in adjusted) == pytest.approx(0, abs=1e-6)
    assert sum(s["chips"] for s in standings) == 0
    for s, a in zip(standings, adjusted, strict=True):
        raw, adj = s["rate"]["ci95"], a["ci95"]
        assert a["ci_narrower"] == pytest.approx(1 - (adj[1] - adj[0]) / (raw[1] - raw[0]))
    stored = stored_stats(tmp_path, results["id"])
    for s in standings:
        again = stored[s["name"]]
        assert s["stats"] == {k: again[k] for k in s["stats"]}
        assert s["stats"]["hands"] == 150 and s["stats"]["vpip"] is not None
        # The same hands counted in chips: the adjusted net is the stored hands' adjusted net.
        assert s["adjusted"]["chips_won"] == pytest.approx(again["adjusted_net"])
        assert s["chips"] == again["net"]


def test_a_sit_and_go_reports_each_players_statistics_and_no_rates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = run_stored_ring(tmp_path, "sng")
    assert "results.json" in capsys.readouterr().out
    stored = stored_stats(tmp_path, results["id"])
    for s in results["standings"]:
        assert "adjusted" not in s and "rate" not in s
        assert s["stats"] == {k: stored[s["name"]][k] for k in s["stats"]}
        assert s["stats"]["hands"] == s["hands"]


def test_an_all_in_over_the_budget_keeps_its_result_and_is_counted() -> None:
    """A short deck preflop all-in would enumerate 200,000 boards hand by hand (an Omaha
    hi-lo one a million): the director keeps its actual result, fast, and counts it."""
    from server.stats import Adjustment, facts_of_hand

    config = TournamentConfig(Format.RING, "budget", game="shortdeck", hands=60, starting_stack=500)
    played: list[HandPlayed] = []
    entrants = [Entrant(f"r{i}", BotAgent(RandomBot(seed=i))) for i in range(2)]
    _, results = run(config, entrants, on_hand=played.append)
    kinds = [facts_of_hand(p.hand, p.players, budget=50_000).adjustment for p in played]
    assert results.adjustments["skipped"] == kinds.count(Adjustment.SKIPPED) > 0
    for s in results.standings:
        assert s.stats.unadjusted_all_ins >= results.adjustments["skipped"]
