"""The store on the command line: ``pokerroom db`` and ``pokerroom hands``.

Every command takes ``--db URL``, falling back to ``POKERROOM_DB`` and then to the SQLite
file ``pokerroom.db`` (see :mod:`server.config`).
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import sys
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy.ext.asyncio import create_async_engine

import engine
from engine import EngineError, history
from server.cli.common import Parser, Progress, UsageError, add_command, emit, phh_files, progress
from server.config import database_url
from server.export import HandInfo, pokerstars
from server.export.formats import FORMATS
from server.protocol import summary_body
from server.store import HandSummary, Store, migrate

if TYPE_CHECKING:
    from server.stats import HandFacts, Interval, PlayerStats

T = TypeVar("T")


def _run(work: Callable[[Store], Awaitable[T]], args: argparse.Namespace) -> T:
    async def go() -> T:
        async with Store.open(database_url(args.db)) as store:
            return await work(store)

    return asyncio.run(go())


# -- pokerroom db ------------------------------------------------------------------------


def cmd_db(args: argparse.Namespace) -> int:
    url = database_url(args.db)

    async def go() -> tuple[str | None, str | None]:
        engine = create_async_engine(url)
        try:
            before = await migrate.current(engine)
            if args.action == "upgrade":
                await migrate.upgrade(engine, args.revision or "head")
            elif args.action == "downgrade":
                await migrate.downgrade(engine, args.revision or "-1")
            return before, await migrate.current(engine)
        finally:
            await engine.dispose()

    before, after = asyncio.run(go())
    text = (
        f"at revision {after or 'base (empty)'}"
        if args.action == "current"
        else f"{args.action}: {before or 'base'} -> {after or 'base'}"
    )
    emit(args, text, {"before": before, "after": after, "head": migrate.head()})
    return 0


# -- pokerroom hands ---------------------------------------------------------------------


def _money(amount: int, scale: int, currency: str | None) -> str:
    if scale == 1:
        return f"{amount:,}"
    value = Decimal(amount) / scale
    return f"{'$' if currency == 'USD' else ''}{value:,.2f}"


def _summary_json(h: HandSummary) -> dict[str, Any]:
    # The protocol's summary, with what an imported hand's amounts need (scale, currency),
    # every player's net, and the board as stored (one string).
    return {
        **summary_body(h),
        "scale": h.scale,
        "currency": h.currency,
        "board": h.board,
        "players": [{"name": name, "net": net} for name, net in h.players],
    }


def cmd_list(args: argparse.Namespace) -> int:
    since = None
    if args.since:
        try:
            since = dt.datetime.fromisoformat(args.since)
        except ValueError:
            raise UsageError(f"--since wants a date like 2026-11-21, got {args.since!r}") from None
        if since.tzinfo is None:
            since = since.replace(tzinfo=dt.UTC)
    if args.limit < 1:
        raise UsageError(f"--limit must be positive, got {args.limit}")
    game = None
    if args.game is not None:
        try:
            game = engine.game(args.game).key
        except engine.EngineError as exc:
            raise UsageError(f"--game: {exc}") from None
    hands = _run(
        lambda store: store.list_hands(
            player=args.player, table=args.table, since=since, game=game, limit=args.limit
        ),
        args,
    )
    lines = []
    for h in hands:
        winners = ", ".join(
            f"{name} +{_money(net, h.scale, h.currency)}" for name, net in h.players if net > 0
        )
        board = " ".join(h.board[i : i + 2] for i in range(0, len(h.board), 2)) or "-"
        lines.append(
            f"{h.id:>8}  {h.started_at:%Y-%m-%d %H:%M}  {h.table} #{h.hand_number}  {h.game}  "
            f"pot {_money(h.pot, h.scale, h.currency)}  [{board}]  {winners}"
        )
    emit(args, "\n".join(lines) or "no hands", [_summary_json(h) for h in hands])
    return 0


def _info(args: argparse.Namespace) -> HandInfo:
    return _run(lambda store: store.hand_info(args.id), args)


def cmd_show(args: argparse.Namespace) -> int:
    print(pokerstars.render(_info(args)))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """The hand street by street: Enter shows the next street (all at once if stdin or
    stdout is not a terminal)."""
    text = pokerstars.render(_info(args))
    interactive = sys.stdin.isatty() and sys.stdout.isatty() and not args.all
    sections = _streets(text)
    for i, section in enumerate(sections):
        print(section.rstrip("\n"))
        if interactive and i < len(sections) - 1:
            nxt = sections[i + 1].split("\n", 1)[0].strip("* ").split(" ***")[0].lower()
            input(f"-- Enter for the {nxt} --")
    return 0


def _streets(text: str) -> list[str]:
    """PokerStars text cut before each "*** FLOP/TURN/RIVER/SHOW DOWN/SUMMARY ***"."""
    sections: list[str] = []
    current: list[str] = []
    for line in text.splitlines(keepends=True):
        if line.startswith("*** ") and not line.startswith("*** HOLE CARDS") and current:
            sections.append("".join(current))
            current = []
        current.append(line)
    sections.append("".join(current))
    return sections


def cmd_export(args: argparse.Namespace) -> int:
    if args.all == bool(args.ids):
        raise UsageError("name hand ids, or --all, but not both")
    if args.hero is not None and args.format != "pokerstars":
        raise UsageError("--hero writes PokerStars text: use it with --format pokerstars")

    async def load(store: Store, bar: Progress) -> list[HandInfo]:
        ids = await store.hand_ids() if args.all else args.ids
        bar.set_total(len(ids))
        return await store.hand_infos(ids, bar.advance)

    with progress("load") as bar:
        infos = _run(lambda store: load(store, bar), args)
    if args.hero is not None:  # the hero's own hands, as a tracker imports them
        infos = [info for info in infos if args.hero in info.players]
    with progress(f"write {args.format}", len(infos)) as bar:
        text = render(infos, args.format, bar, hero=args.hero)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
        print(f"wrote {len(infos)} hand{'s' * (len(infos) != 1)} to {args.output}")
    else:
        sys.stdout.write(text)
    return 0


def render(
    infos: Sequence[HandInfo], fmt: str, bar: Progress | None = None, *, hero: str | None = None
) -> str:
    """Hands in one of the export formats, as the text of one file; ``bar`` counts them.
    With ``hero`` (PokerStars text, hands that player played) each hand is that player's
    own history: their hole cards alone, the others' where shown."""
    form, counted = FORMATS[fmt], _counted(infos, bar or Progress())
    if fmt == "phh" and len(infos) == 1:  # one hand: a .phh file, not a .phhs
        return history.dump(next(counted).history)
    return form.join([
        form.render(info, None if hero is None else info.players.index(hero), False)
        for info in counted
    ])  # fmt: skip


def _counted(items: Iterable[T], bar: Progress) -> Iterator[T]:
    """``items``, advancing ``bar`` past each once it is done with."""
    for item in items:
        yield item
        bar.advance()


def _histories(
    files: Iterable[Path], report_errors: list[tuple[str, str]]
) -> Iterator[tuple[str, str, history.HandHistory]]:
    for path in files:
        table = "/".join(path.parts[-3:-1])
        try:
            text = path.read_text(encoding="utf-8")
            hands = history.load_all(text) if path.suffix == ".phhs" else [history.load(text)]
        except (OSError, UnicodeDecodeError, EngineError) as exc:
            report_errors.append((str(path), f"cannot read: {exc}"))
            continue
        for index, hh in enumerate(hands, start=1):
            source = f"{path}[{index}]" if path.suffix == ".phhs" else str(path)
            yield source, table, hh


def cmd_import(args: argparse.Namespace) -> int:
    unreadable: list[tuple[str, str]] = []
    files = phh_files(args.paths)
    with progress("import", len(files)) as bar:
        hands = _histories(_counted(files, bar), unreadable)
        report = _run(lambda store: store.import_histories(hands), args)
    lines = [f"{source}: error: {message}" for source, message in unreadable]
    lines += [
        f"{source}: {status}: {message}"
        for source, status, message in report.lines
        if status != "imported"
    ]
    errors = report.errors + len(unreadable)
    summary = (
        f"imported {report.imported}, already stored {report.duplicates}, "
        f"unsupported {report.unsupported}, errors {errors}"
    )
    data = {
        "imported": report.imported,
        "duplicates": report.duplicates,
        "unsupported": report.unsupported,
        "errors": errors,
        "problems": [
            {"source": s, "status": st, "message": m}
            for s, st, m in report.lines
            if st != "imported"
        ]
        + [{"source": s, "status": "error", "message": m} for s, m in unreadable],
    }
    emit(args, "\n".join([*lines, summary]), data)
    return 1 if errors else 0


def cmd_stats(args: argparse.Namespace) -> int:
    """Per-player statistics over the stored hands (docs/statistics.md)."""
    from server import stats  # noqa: PLC0415  (only this command needs it)

    game = None
    if args.game is not None:
        try:
            game = engine.game(args.game).key
        except engine.EngineError as exc:
            raise UsageError(f"--game: {exc}") from None

    async def load(store: Store, bar: Progress) -> list[HandInfo]:
        summaries = await store.list_hands(
            player=args.player, table=args.table, game=game, limit=10**9
        )
        bar.set_total(len(summaries))
        return await store.hand_infos([h.id for h in reversed(summaries)], bar.advance)

    with progress("load") as bar:
        infos = _run(lambda store: load(store, bar), args)
    aivat: dict[str, list[Fraction]] | None = {} if args.aivat else None
    with progress("replay", len(infos)) as bar:
        table = stats.player_stats(_facts(i, aivat) for i in _counted(infos, bar))
    rows = [s for s in table.values() if args.player is None or s.name == args.player]
    lines = [_stats_heading(aivat is not None)]
    lines += [_stats_line(s, aivat) for s in rows]
    data = [s.as_json() for s in rows]
    if aivat is not None:
        for entry in data:
            luck = stats.win_rate(aivat[entry["name"]])
            entry["aivat_bb_per_100"] = None if luck is None else vars(luck)
    emit(args, "\n".join(lines) if rows else "no hands", data)
    return 0


def _facts(info: HandInfo, aivat: dict[str, list[Fraction]] | None) -> HandFacts:
    """A stored hand's facts; with ``aivat``, each player's luck-adjusted result (AIVAT's
    chance terms, docs/statistics.md) in big blinds is added to their list there."""
    from server import stats  # noqa: PLC0415  (only hands stats needs it)
    from server.stats.luck import luck_of_info  # noqa: PLC0415

    if aivat is None:
        return stats.facts_of_info(info)
    facts, luck = luck_of_info(info)
    for p, value in zip(facts.players, luck.values, strict=True):
        aivat.setdefault(p.name, []).append(value / facts.big_blind)
    return facts


def _rate(i: Interval | None) -> str:
    return "-" if i is None else f"{i.rate:+.1f} [{i.low:+.1f}, {i.high:+.1f}]"


def _stats_heading(aivat: bool) -> str:
    heading = (
        f"{'player':<14} {'hands':>6} {'VPIP':>5} {'PFR':>5} {'3bet':>5} {'AF':>5} "
        f"{'WTSD':>5} {'W$SD':>5} {'net':>10} {'adj net':>10}  "
        f"{'bb/100 (95% CI)':<24} "
    )
    if aivat:
        return heading + f"{'adjusted bb/100 (95% CI)':<26} AIVAT bb/100 (95% CI)"
    return heading + "adjusted bb/100 (95% CI)"


def _stats_line(s: PlayerStats, aivat: dict[str, list[Fraction]] | None) -> str:
    from server.stats import win_rate  # noqa: PLC0415  (only hands stats needs it)

    def pct(x: float | None) -> str:
        return "-" if x is None else f"{100 * x:.1f}"

    af = "-" if s.aggression is None else f"{s.aggression:.2f}"
    line = (
        f"{s.name:<14} {s.hands:>6} {pct(s.vpip):>5} {pct(s.pfr):>5} "
        f"{pct(s.three_bet):>5} {af:>5} {pct(s.wtsd):>5} {pct(s.wsd):>5} "
        f"{s.net:>10,} {float(s.adjusted_net):>10,.0f}  "
        f"{_rate(s.bb_per_100):<24} "
    )
    if aivat is None:
        line += _rate(s.adjusted_bb_per_100)
    else:
        line += f"{_rate(s.adjusted_bb_per_100):<26} {_rate(win_rate(aivat[s.name]))}"
    if s.results_big_bets:
        line += (
            f"  big bets/100 {_rate(s.big_bets_per_100)}, "
            f"adjusted {_rate(s.adjusted_big_bets_per_100)}"
        )
    return line


def with_db(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument(
        "--db", help="database URL (default: $POKERROOM_DB, then sqlite pokerroom.db)"
    )
    return parser


def add_commands(sub: argparse._SubParsersAction[Parser]) -> None:
    """Register ``db`` and ``hands``."""
    db = add_command(sub, "db", cmd_db, json_output=False)
    db_sub = db.add_subparsers(dest="action", required=True, parser_class=Parser)
    for action, text in (
        ("upgrade", "migrate up to --revision (default: the newest)"),
        ("downgrade", "migrate down to --revision (default: one step; 'base' empties it)"),
        ("current", "print the database's revision"),
    ):
        p = with_db(add_command(db_sub, action, cmd_db, text))
        p.add_argument("--revision", help="an Alembic revision: head, base, -1, 0001, ...")
    add_hands_commands(sub)


def add_hands_commands(sub: argparse._SubParsersAction[Parser]) -> None:
    """Register ``hands`` and its subcommands."""
    hands = add_command(sub, "hands", cmd_list, json_output=False)
    hands_sub = hands.add_subparsers(dest="action", required=True, parser_class=Parser)
    p = with_db(add_command(hands_sub, "list", cmd_list, "list stored hands, newest first"))
    p.add_argument("--player", help="only hands this player played")
    p.add_argument("--table", help="only hands from this table")
    p.add_argument("--since", help="only hands started at or after this date (ISO 8601)")
    p.add_argument("--game", help="only hands of this game: a preset key (nlhe, plo8, stud, ...)")
    p.add_argument("--limit", type=int, default=20, help="at most this many (default 20)")
    p = with_db(
        add_command(hands_sub, "show", cmd_show, "a hand as PokerStars text", json_output=False)
    )
    p.add_argument("id", type=int, help="the hand's id (see hands list)")
    p = with_db(
        add_command(
            hands_sub,
            "replay",
            cmd_replay,
            "step through a hand street by street",
            json_output=False,
        )
    )
    p.add_argument("id", type=int, help="the hand's id")
    p.add_argument("--all", action="store_true", help="print every street at once")
    p = with_db(
        add_command(
            hands_sub,
            "export",
            cmd_export,
            "export hands as PHH, PokerStars text or OHH",
            json_output=False,
        )
    )
    p.add_argument("ids", nargs="*", type=int, help="hand ids")
    p.add_argument("--all", action="store_true", help="every stored hand")
    p.add_argument("--format", choices=tuple(FORMATS), required=True)
    p.add_argument(
        "--hero",
        metavar="NAME",
        help="PokerStars text of NAME's hands as NAME saw them, for a hand tracker: "
        "their hole cards alone, the others' where shown",
    )
    p.add_argument("-o", "--output", help="write to this file instead of standard output")
    p = with_db(add_command(hands_sub, "import", cmd_import, "import PHH hand histories"))
    p.add_argument("paths", nargs="+", help=".phh or .phhs files, or folders of them")
    p = with_db(add_command(hands_sub, "stats", cmd_stats, "per-player statistics"))
    p.add_argument("--player", help="only this player's hands and line")
    p.add_argument("--table", help="only hands from this table")
    p.add_argument("--game", help="only hands of this game: a preset key (nlhe, plo8, stud, ...)")
    p.add_argument(
        "--aivat",
        action="store_true",
        help="add luck-adjusted bb/100 (AIVAT's chance terms; slower: about 10 ms a hand)",
    )
