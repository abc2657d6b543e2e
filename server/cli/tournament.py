"""``pokerroom tournament``: run a tournament between bots in this process, store it, and
report standings with honest statistics (docs/tournaments.md)."""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table as RichTable

from server.bots.client import load_bot_spec
from server.cli.common import Parser, Progress, UsageError, add_command, positive, progress
from server.config import database_url
from server.store import Store
from server.tournaments.chart import stacks_chart, winnings_chart
from server.tournaments.director import (
    BotAgent,
    Entrant,
    Format,
    HandPlayed,
    Results,
    Standing,
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
    chart = out / ("chips.png" if results.freezeout else "winnings.png")
    if results.freezeout:
        stack = results.config.starting_stack
        stacks_chart(results.stacks, chart, title, starting_stack=stack)
    else:
        winnings_chart(results.winnings, chart, title, unit=results.config.unit)
    if args.json:
        print(json.dumps({k: v for k, v in data.items() if k not in ("winnings", "stacks")}))
    else:
        _leaderboard(results, tournament_id, out, chart)
    return 0


def _played(results: Results) -> str:
    """The game or mix played, by name."""
    config = results.config
    mixed = config.mixed
    return mixed.name if mixed is not None else config.games[0].name


def _leaderboard(results: Results, tournament_id: int, out: Path, chart: Path) -> None:
    """The standings, best first. A freeze-out is ranked by finish: its table says when
    each player went out, and shows no win rate, which would rank chips won at small
    blinds with chips lost at big ones. A ring match or round robin is ranked by chips
    won, and its win rates (with their intervals) are the point."""
    table = RichTable(
        title=f"tournament {tournament_id}: {results.config.format}, {_played(results)}, "
        f"{results.hands} hands, prize pool {results.prize_pool}"
    )
    chips = "chips" if results.freezeout else "chips won"
    columns = ["place", "bot", "prize", chips, "hands"]
    unit = results.config.unit
    per_100 = "bb/100" if unit == "big blinds" else "big bets/100"
    if results.freezeout:
        columns.append("finish")
    else:
        columns.append(f"{per_100} (95 % CI)")
        columns.append(f"adjusted {per_100} (95 % CI)")
        if results.config.duplicate:
            columns.append(f"duplicate {per_100} (95 % CI)")
    for column in columns:
        table.add_column(column, justify="left" if column in ("bot", "finish") else "right")
    for s in results.standings:
        cells = [str(s.place), s.name, str(s.prize), str(s.chips), str(s.hands)]
        if results.freezeout:
            cells.append(_finish(s, results.config.format))
        else:
            cells.append(_rate(s.rate))
            cells.append(_rate(s.adjusted_rate))
            if results.config.duplicate:
                cells.append(_rate(s.duplicate_rate))
        table.add_row(*cells)
    console = Console(width=max(140, Console().width))  # a pipe gets the whole table
    console.print(table)
    _explain(console, results)
    if not results.freezeout:
        console.print(_stats_table(results))
    errors = {s.name: s.errors for s in results.standings if s.errors}
    if errors:
        console.print(
            f"decisions played for failing bots (stand pat, bring in, check or fold): {errors}"
        )
    console.print(f"results: {out / 'results.json'}; chart: {chart}")


def _explain(console: Console, results: Results) -> None:
    """The lines under the leaderboard: what its columns measure."""
    unit = results.config.unit
    if results.freezeout:
        rounds = (
            ";\na round is a hand at every table, and players out in the same round rank by "
            "their chips before it"
            if results.config.format is Format.MTT
            else ""
        )
        console.print(
            f"hands: those each bot was dealt in; hand N: the Nth of the tournament's "
            f"{results.hands}, every table's counted{rounds}.\nNo win rates: in a "
            "freeze-out the finish is the result (docs/tournaments.md#statistics);\n"
            'each bot\'s VPIP, PFR, 3-bet, AF, WTSD and W$SD are in results.json ("stats")'
        )
    else:
        paired = (
            "\nduplicate: the same, from each deal's mean over its seat rotations"
            if results.config.duplicate
            else ""
        )
        console.print(
            f"win rates: {unit} won per 100 hands, over the hands each bot played (the hands "
            f"column),\nwith a 95 % confidence interval{paired}"
        )
        console.print(_adjusted_line(results))


def _adjusted_line(results: Results) -> str:
    """What the all-in adjustment did on this match: hands adjusted, and how much
    narrower it made the intervals (the variance reduction achieved)."""
    counts = results.adjustments
    kept = counts.get("unsupported", 0) + counts.get("skipped", 0)
    narrower = [s.ci_narrower for s in results.standings if s.ci_narrower is not None]
    line = (
        f"adjusted: a hand all in before the last card counts as each bot's equity in each "
        f"pot (exact; docs/statistics.md);\n{counts.get('all-in', 0)} of "
        f"{results.hands} hands adjusted"
    )
    if kept:
        line += f", {kept} all in early kept at their result (stud/draw, or over the budget)"
    if narrower:
        low, high, mean = min(narrower), max(narrower), sum(narrower) / len(narrower)
        line += (
            f"; the adjusted intervals are {100 * mean:.1f} % narrower on average "
            f"({100 * low:.1f} to {100 * high:.1f} %)"
        )
    return line


def _stats_table(results: Results) -> RichTable:
    """Each bot's play, from the hands it was dealt in (docs/statistics.md)."""
    table = RichTable(title="statistics (docs/statistics.md)")
    for column in ("bot", "hands", "VPIP", "PFR", "3-bet", "AF", "WTSD", "W$SD"):
        table.add_column(column, justify="left" if column == "bot" else "right")

    def pct(x: float | None) -> str:
        return "-" if x is None else f"{100 * x:.1f}"

    for s in results.standings:
        st = s.stats
        if st is None:
            continue
        af = "-" if st.aggression is None else f"{st.aggression:.2f}"
        cells = (pct(st.vpip), pct(st.pfr), pct(st.three_bet), af, pct(st.wtsd), pct(st.wsd))
        table.add_row(s.name, str(st.hands), *cells)
    return table


def _finish(s: Standing, fmt: Format) -> str:
    if s.eliminated_in_hand is None:
        return "won"
    if fmt is Format.MTT:  # busts in one round rank by stack, not by which hand was first
        return (
            f"out in round {s.eliminated_in_round} (hand {s.eliminated_in_hand}), "
            f"level {s.eliminated_at_level}"
        )
    return f"out in hand {s.eliminated_in_hand}, level {s.eliminated_at_level}"


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
    same = _same(again, stored["results"])
    if args.json:
        print(json.dumps({"id": args.replay, "identical": same}))
    else:
        verdict = "identical results" if same else "DIFFERENT results"
        print(f"tournament {args.replay} replayed from seed {stored['seed']!r}: {verdict}")
    return 0 if same else 1


def _same(again: dict[str, Any], stored: dict[str, Any]) -> bool:
    """Whether results played again are those stored. Results stored before a field was
    added (the game, the unit, when each player went out) or dropped (a freeze-out's win
    rates and winnings) are compared on the fields both have: the places, prizes, chips
    and hands are always there, and a freeze-out's series of chips follows from its hands."""
    common = again.keys() & stored.keys()
    if any(again[k] != stored[k] for k in common if k != "standings"):
        return False
    if len(again["standings"]) != len(stored["standings"]):
        return False
    return all(
        all(a[k] == b[k] for k in a.keys() & b.keys())
        for a, b in zip(again["standings"], stored["standings"], strict=True)
    )


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


# -- on a running server ---------------------------------------------------------------------

EXIT_FAILED = 1
"""The server refused the tournament or could not be reached (as ``pokerroom bot run``)."""

# What create_tournament takes by name (server/protocol.py CreateTournament); a server
# does not read structure files.
SERVER_BLINDS = ("standard", "turbo", "hyper", "standard-timed", "turbo-timed")
SERVER_PAYOUTS = ("winner-takes-all", "top-2", "top-3", "top-4", "top-6", "top-9")


def _create_message(args: argparse.Namespace) -> dict[str, Any]:
    """The ``create_tournament`` message for these options: only those given, so the
    server's defaults (docs/protocol.md) stand for the rest."""
    message: dict[str, Any] = {
        "type": "create_tournament", "id": "create", "name": args.name,
        "format": args.format, "field": args.field,
    }  # fmt: skip
    optional = {
        "seed": args.seed, "start_seconds": args.start_seconds, "blinds": args.blinds,
        "payouts": args.payouts, "stack": args.stack, "buy_in": args.buy_in,
        "seats": args.seats, "hands": args.hands, "game": args.game, "mix": args.mix,
        "decision_seconds": args.decision_seconds,
    }  # fmt: skip
    message.update({k: v for k, v in optional.items() if v is not None})
    if args.duplicate:
        message["duplicate"] = True
    return message


async def _create(url: str, who: dict[str, str], message: dict[str, Any]) -> dict[str, Any]:
    """Say hello, send ``message``, and return the server's answer to it."""
    from websockets.asyncio.client import connect  # noqa: PLC0415

    async with connect(url) as ws:
        for sent in ({"type": "hello", "id": "hello", **who}, message):
            await ws.send(json.dumps(sent))
            while True:  # lobby broadcasts may come first: the answer names what it answers
                reply = json.loads(await ws.recv())
                if reply.get("re") == sent["id"]:
                    break
            if reply.get("type") == "error":
                raise _Refused(f"{sent['type']} refused: {reply['code']}: {reply['message']}")
    return dict(reply["tournament"])


class _Refused(Exception):
    pass


def cmd_create(args: argparse.Namespace) -> int:
    """Create a tournament on a running server for bots to register for; print its id
    and the command a bot joins with. The tournament lives on the server: this command
    ends as soon as it is created."""
    if args.token is not None:
        who = {"token": args.token}
    else:  # a guest name of its own: two organizers at once do not collide
        who = {"name": args.guest or f"organizer-{os.getpid()}"}
    from websockets.exceptions import WebSocketException  # noqa: PLC0415

    try:
        summary = asyncio.run(_create(args.url, who, _create_message(args)))
    except _Refused as exc:
        print(f"pokerroom tournament create: error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except (OSError, WebSocketException) as exc:
        print(f"pokerroom tournament create: error: cannot reach {args.url}: {exc}",
              file=sys.stderr)  # fmt: skip
        return EXIT_FAILED
    tid = summary["id"]
    if args.json:
        print(json.dumps(summary))
        return 0
    settings = summary["settings"]
    game = settings.get("mix") or settings.get("game")
    start = (
        f", or in {summary['starts_in_seconds']:g} s with two or more"
        if summary["starts_in_seconds"] is not None
        else ""
    )
    print(
        f"tournament {tid} ({summary['name']!r}): {settings['format']}, {game}, "
        f"{summary['state']}; it starts when {summary['field']} bots have registered{start}"
    )
    print(f"bots join with: pokerroom bot run SPEC --url {args.url} --tournament {tid}")
    return 0


def _add_create(sub: argparse._SubParsersAction[Parser]) -> None:
    p = add_command(sub, "create", cmd_create, "create a tournament on a running server")
    p.add_argument("--url", required=True, help="the server's websocket, e.g. ws://host:8765/ws")
    p.add_argument("--name", default="bots", help="the tournament's name (default bots)")
    p.add_argument("--format", choices=[str(f) for f in Format], default="sng")
    p.add_argument(
        "--field", "--players", type=positive, required=True, metavar="N",
        help="entrants: it starts when N have registered",
    )  # fmt: skip
    p.add_argument(
        "--start-seconds", type=float, metavar="S",
        help="or S seconds from now, with two or more registered (fewer: cancelled)",
    )  # fmt: skip
    p.add_argument("--seed", help="every deal is drawn from it (default: the server draws one)")
    p.add_argument("--game", help="an engine preset: nlhe (the default), flhe, plo, stud, ...")
    p.add_argument("--mix", choices=["horse", "8game"], help="a mixed game instead of --game")
    p.add_argument("--blinds", choices=SERVER_BLINDS, help="sng and mtt (default turbo)")
    p.add_argument("--payouts", choices=SERVER_PAYOUTS, help="default top-3")
    p.add_argument(
        "--stack", type=positive,
        help="starting stack (default 1500; 100 big blinds in a ring or round robin, at 50/100)",
    )  # fmt: skip
    p.add_argument("--buy-in", type=int, help="per entrant, for the prize pool (default 100)")
    p.add_argument("--seats", type=positive, help="seats a table (default 9)")
    p.add_argument(
        "--hands", type=positive,
        help="ring: hands in all; round robin: hands each pair plays (default 1000)",
    )  # fmt: skip
    p.add_argument(
        "--duplicate", action="store_true",
        help="ring and round robin: play every deal once in each seat rotation",
    )  # fmt: skip
    p.add_argument(
        "--decision-seconds", type=float, metavar="S",
        help="time for each decision, no time bank (default 10)",
    )  # fmt: skip
    who = p.add_mutually_exclusive_group()
    who.add_argument("--guest", help="create it as this guest (default organizer-PID)")
    who.add_argument("--token", help="create it as the account with this token")


def add_commands(sub: argparse._SubParsersAction[Parser]) -> None:
    p = add_command(sub, "tournament", cmd_tournament)
    # `pokerroom tournament create --url ...` on a server; without it, one in this process.
    _add_create(p.add_subparsers(dest="action", parser_class=Parser, metavar="create"))
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
