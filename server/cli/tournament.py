"""``pokerroom tournament``: run a tournament between bots in this process, store it, and
report standings with honest statistics (docs/tournaments.md)."""

from __future__ import annotations

import argparse
import asyncio
import json
import math
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table as RichTable

from server.bots.client import load_bot_spec
from server.cli.common import Parser, Progress, UsageError, add_command, positive, progress
from server.config import database_url
from server.store import Store
from server.tournaments.chart import winnings_chart
from server.tournaments.director import (
    BotAgent,
    Entrant,
    Format,
    HandPlayed,
    Results,
    TournamentConfig,
    TournamentDirector,
    TournamentError,
    config_from_json,
    config_json,
    make_bot,
)
from server.tournaments.record import HandRecorder
from server.tournaments.structures import Level, blind_structure, payout_structure

BUILT_IN = ("tight-aggressive", "calling-station", "random")
DEFAULT_PLAYERS = {Format.SNG: 6, Format.MTT: 27, Format.RING: 6, Format.ROUND_ROBIN: 3}


def _settings(args: argparse.Namespace) -> dict[str, Any]:
    """Everything that decides the tournament, as stored with it (and replayed from)."""
    fmt = Format(args.format)
    bots = dict(args.bot or [])
    if not bots:
        n = args.players or DEFAULT_PLAYERS[fmt]
        bots = {f"{BUILT_IN[i % 3]}-{i // 3 + 1}": BUILT_IN[i % 3] for i in range(n)}
    elif args.players is not None:
        raise UsageError("--players counts the built-in bots: leave it out with --bot")
    stack = args.stack
    if stack is None:  # a ring's hands start 100 big blinds deep; a freeze-out's at 1,500
        stack = 100 * args.stakes[1] if fmt in (Format.RING, Format.ROUND_ROBIN) else 1_500
    try:
        config = TournamentConfig(
            format=fmt, seed=args.seed, starting_stack=stack,
            blinds=blind_structure(args.blinds), stakes=Level(*args.stakes),
            buy_in=args.buy_in, payouts=payout_structure(args.payouts), seats=args.seats,
            hands=args.hands, duplicate=args.duplicate, game=args.game, mix=args.mix,
        )  # fmt: skip
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return {**config_json(config), "bots": bots}


def _director(settings: dict[str, Any], on_hand: Any) -> TournamentDirector:
    if "bots" not in settings:
        raise UsageError("this tournament's players were connected over websockets: "
                         "only they can play it again")  # fmt: skip
    config = config_from_json(settings)
    entrants = []
    for name, spec in settings["bots"].items():
        try:
            bot = make_bot(type(load_bot_spec(spec)), settings["seed"], name)
        except ValueError as exc:
            raise UsageError(f"--bot {name}={spec}: {exc}") from None
        entrants.append(Entrant(name, BotAgent(bot)))
    try:
        return TournamentDirector(config, entrants, on_hand=on_hand)
    except TournamentError as exc:
        raise UsageError(str(exc)) from None


async def _run(args: argparse.Namespace, settings: dict[str, Any], bar: Progress) -> Any:
    async with Store.open(database_url(args.db)) as store, store.writer() as writer:
        tournament_id = await store.create_tournament(settings["format"], args.seed, settings)
        record = HandRecorder(store, writer, tournament_id)

        async def on_hand(played: HandPlayed) -> None:
            await record(played)
            bar.advance()

        director = _director(settings, on_hand)
        bar.set_total(director.planned_hands())
        results = await director.run()
        await store.finish_tournament(tournament_id, results.to_json())
    return tournament_id, results


def cmd_tournament(args: argparse.Namespace) -> int:
    if args.replay is not None:
        return _replay(args)
    if args.seed is None:
        raise UsageError("give --seed: every deal is drawn from it (and --replay needs it)")
    settings = _settings(args)
    _director(settings, None)  # the bots load and the settings fit, before anything starts
    with progress(f"{settings['format']} {args.seed}", hide=args.json) as bar:
        tournament_id, results = asyncio.run(_run(args, settings, bar))
    out = Path(args.out or f"tournament-{tournament_id}")
    out.mkdir(parents=True, exist_ok=True)
    data = {"id": tournament_id, **results.to_json(), "settings": settings}
    (out / "results.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    title = (
        f"pokerroom tournament {tournament_id}: {settings['format']}, {_played(results)}, "
        f"seed {args.seed}"
    )
    winnings_chart(results.winnings, out / "winnings.png", title, unit=results.config.unit)
    if args.json:
        print(json.dumps({k: v for k, v in data.items() if k != "winnings"}))
    else:
        _leaderboard(results, tournament_id, out)
    return 0


def _played(results: Results) -> str:
    """The game or mix played, by name."""
    config = results.config
    mixed = config.mixed
    return mixed.name if mixed is not None else config.games[0].name


def _leaderboard(results: Results, tournament_id: int, out: Path) -> None:
    duplicate = results.config.duplicate
    unit = results.config.unit
    per_100 = "bb/100" if unit == "big blinds" else "big bets/100"
    table = RichTable(
        title=f"tournament {tournament_id}: {results.config.format}, {_played(results)}, "
        f"{results.hands} hands, prize pool {results.prize_pool}"
    )
    for column in ("place", "bot", "prize", "chips", "hands", f"{per_100} (95 % CI)"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    if duplicate:
        table.add_column(f"duplicate {per_100} (95 % CI)", justify="right")
    for s in results.standings:
        cells = [str(s.place), s.name, str(s.prize), str(s.chips), str(s.hands), _rate(s.rate)]
        if duplicate:
            cells.append(_rate(s.duplicate_rate))
        table.add_row(*cells)
    console = Console(width=max(120, Console().width))  # a pipe gets the whole table
    console.print(table)
    console.print(f"win rates: {unit} won per 100 hands, with a 95 % confidence interval")
    errors = {s.name: s.errors for s in results.standings if s.errors}
    if errors:
        console.print(
            f"decisions played for failing bots (stand pat, bring in, check or fold): {errors}"
        )
    console.print(f"results: {out / 'results.json'}; chart: {out / 'winnings.png'}")


def _rate(rate: Any) -> str:
    if rate is None:
        return "-"
    if math.isnan(rate.low):
        return f"{rate.bb_per_100:+.1f}"
    return f"{rate.bb_per_100:+.1f} [{rate.low:+.1f}, {rate.high:+.1f}]"


def _replay(args: argparse.Namespace) -> int:
    """Play a stored tournament again from its seed and settings; say whether every result
    is the same."""

    async def load() -> dict[str, Any]:
        async with Store.open(database_url(args.db)) as store:
            return await store.tournament(args.replay)

    stored = asyncio.run(load())
    if stored["results"] is None:
        raise UsageError(f"tournament {args.replay} has not finished: nothing to compare")
    results = asyncio.run(_director(stored["config"], None).run())
    again = json.loads(json.dumps(results.to_json()))  # as stored: JSON's floats and lists
    # Results stored before a field was added (the game, the unit) are compared on the
    # fields they have: the hands, standings and winnings are all there.
    again = {k: v for k, v in again.items() if k in stored["results"]}
    same = again == stored["results"]
    if args.json:
        print(json.dumps({"id": args.replay, "identical": same}))
    else:
        verdict = "identical results" if same else "DIFFERENT results"
        print(f"tournament {args.replay} replayed from seed {stored['seed']!r}: {verdict}")
    return 0 if same else 1


def _bot(text: str) -> tuple[str, str]:
    name, equals, spec = text.partition("=")
    if not equals or not name or not spec:
        raise argparse.ArgumentTypeError(f"give NAME=SPEC (tag=tight-aggressive), not {text!r}")
    return name, spec


def _stakes(text: str) -> tuple[int, int, int]:
    parts = text.split("/")
    try:
        values = [int(p) for p in parts]
        Level(*values)
    except (ValueError, TypeError):
        raise argparse.ArgumentTypeError(f"give SB/BB or SB/BB/ANTE, not {text!r}") from None
    return (values[0], values[1], values[2] if len(values) > 2 else 0)


def add_commands(sub: argparse._SubParsersAction[Parser]) -> None:
    p = add_command(sub, "tournament", cmd_tournament)
    p.add_argument("--format", choices=[str(f) for f in Format], default="sng")
    p.add_argument(
        "--game", default="nlhe",
        help="the game: an engine preset (nlhe, flhe, plo, plo8, stud, stud8, razz, 27td, "
        "badugi, ...; default nlhe)",
    )  # fmt: skip
    p.add_argument(
        "--mix", help="a mixed game instead of --game: horse or 8game (each table rotates)"
    )
    p.add_argument(
        "--bot", action="append", type=_bot, metavar="NAME=SPEC",
        help="an entrant: a built-in bot (tight-aggressive, calling-station, random), "
        "module:Class or file.py:Class; repeat for each (default: built-in bots)",
    )  # fmt: skip
    p.add_argument("--players", type=positive, help="how many built-in bots, without --bot")
    p.add_argument("--seed", help="every deal and every seeded bot is drawn from it")
    p.add_argument(
        "--duplicate", action="store_true",
        help="ring and round robin: play every deal once in each seat rotation",
    )  # fmt: skip
    p.add_argument(
        "--hands", type=positive, default=1_000,
        help="ring: hands in all; round robin: hands each pair plays (default 1000)",
    )  # fmt: skip
    p.add_argument(
        "--blinds", default="turbo",
        help="sng and mtt: standard, turbo, hyper, standard-timed, turbo-timed, or a JSON file; "
        "a limit game bets each level's big blind and twice it",
    )  # fmt: skip
    p.add_argument(
        "--payouts", default="top-3",
        help="winner-takes-all, top-2, top-3, top-4, top-6, top-9, or a JSON file of shares",
    )  # fmt: skip
    p.add_argument(
        "--stack", type=positive,
        help="starting stack (default: 1500 in a sng or mtt; 100 big blinds, reset every "
        "hand, in a ring or round robin)",
    )  # fmt: skip
    p.add_argument(
        "--stakes", type=_stakes, default=(50, 100, 0),
        help="ring and round robin: SB/BB[/ANTE] (default 50/100); a limit game bets BB and "
        "twice it",
    )  # fmt: skip
    p.add_argument("--buy-in", type=int, default=100, help="per entrant, for the prize pool")
    p.add_argument("--seats", type=positive, default=9, help="seats a table (default 9)")
    p.add_argument("--out", help="folder for results.json and winnings.png")
    p.add_argument("--db", help="database URL (default: $POKERROOM_DB, then pokerroom.db)")
    p.add_argument(
        "--replay", type=positive, metavar="ID",
        help="play stored tournament ID again from its seed and compare the results",
    )  # fmt: skip
