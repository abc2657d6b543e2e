"""pokerroom db and pokerroom hands, end to end through the command line."""

from __future__ import annotations

import asyncio
import collections
import datetime as dt
import json
import logging
import warnings
from pathlib import Path

import pytest

from engine import history
from server.cli import main
from server.config import database_url
from server.export import ohh
from server.store import Store, hand_rows, migrate
from tests.conftest import SHARED_DATA
from tests.server.conftest import create_pg_database, demo_server, drop_pg_database
from tests.server.test_cli import run_in_a_terminal
from tests.server.test_export_pokerstars import NAMES, dead_button_hand

PLURIBUS = SHARED_DATA / "phh" / "pluribus"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def sqlite_db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'hands.db'}"


@pytest.fixture
def imported(capsys: pytest.CaptureFixture[str], sqlite_db: str) -> str:
    code, out, _ = run(capsys, "hands", "import", "--db", sqlite_db, str(PLURIBUS / "30"))
    assert code == 0, out
    return sqlite_db


def test_import_reports_what_it_stored(capsys: pytest.CaptureFixture[str], sqlite_db: str) -> None:
    count = len(list((PLURIBUS / "30").glob("*.phh")))
    code, out, _ = run(capsys, "hands", "import", "--db", sqlite_db, str(PLURIBUS / "30"))
    assert code == 0
    assert out.splitlines()[-1] == f"imported {count}, already stored 0, unsupported 0, errors 0"
    code, out, _ = run(
        capsys, "hands", "import", "--json", "--db", sqlite_db, str(PLURIBUS / "30" / "0.phh")
    )
    assert json.loads(out)["duplicates"] == 1


def test_import_and_export_show_bars_on_a_terminal_and_print_the_same(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The same commands, piped and with stderr on a terminal: the same output, and on
    the terminal a bar for each."""
    hands = len(list((PLURIBUS / "30").glob("*.phh")))
    piped, shown = tmp_path / "piped", tmp_path / "shown"
    imported = run(capsys, "hands", "import", "--db", f"sqlite:///{piped}.db", str(PLURIBUS / "30"))
    code, out, terminal = run_in_a_terminal(
        "hands", "import", "--db", f"sqlite:///{shown}.db", str(PLURIBUS / "30")
    )
    assert (code, out) == imported[:2] and imported[2] == ""
    assert "import" in terminal and f"{hands}/{hands}" in terminal
    export = ["hands", "export", "--all", "--format", "pokerstars", "--db", f"sqlite:///{shown}.db"]
    run(capsys, *export, "-o", str(piped))
    code, out, terminal = run_in_a_terminal(*export, "-o", str(shown))
    assert (code, out) == (0, f"wrote {hands} hands to {shown}\n")
    assert shown.read_text() == piped.read_text()
    assert "load" in terminal and "write pokerstars" in terminal and f"{hands}/{hands}" in terminal


def test_import_names_bad_files_and_hands_and_keeps_the_good(
    capsys: pytest.CaptureFixture[str], sqlite_db: str, tmp_path: Path
) -> None:
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "good.phh").write_text((PLURIBUS / "30" / "1.phh").read_text())
    (folder / "broken.phh").write_text("variant = ")
    (folder / "short.phh").write_text(
        (PLURIBUS / "30" / "2.phh").read_text().replace("actions = [", "actions = ['p1 f', ")
    )
    code, out, _ = run(capsys, "hands", "import", "--db", sqlite_db, str(folder))
    assert code == 1
    assert f"{folder / 'broken.phh'}: error: cannot read: not valid PHH (TOML)" in out
    assert f"{folder / 'short.phh'}: error: action 8: p3 'f' comes after the hand ended" in out
    assert out.splitlines()[-1] == "imported 1, already stored 0, unsupported 0, errors 2"


def test_list_filters_by_player_table_date_and_limit(
    capsys: pytest.CaptureFixture[str], imported: str
) -> None:
    code, out, _ = run(capsys, "hands", "list", "--json", "--db", imported, "--limit", "5")
    hands = json.loads(out)
    assert code == 0 and len(hands) == 5
    assert [h["id"] for h in hands] == sorted((h["id"] for h in hands), reverse=True)
    assert all(h["table"] == "pluribus/30" for h in hands)
    _, out, _ = run(
        capsys,
        "hands",
        "list",
        "--json",
        "--db",
        imported,
        "--player",
        "Pluribus",
        "--limit",
        "500",
    )
    assert all(any(p["name"] == "Pluribus" for p in h["players"]) for h in json.loads(out))
    _, out, _ = run(capsys, "hands", "list", "--db", imported, "--table", "elsewhere")
    assert out.strip() == "no hands"
    _, out, _ = run(capsys, "hands", "list", "--json", "--db", imported, "--since", "2999-01-01")
    assert json.loads(out) == []


def test_show_is_pokerstars_text(capsys: pytest.CaptureFixture[str], imported: str) -> None:
    code, out, _ = run(capsys, "hands", "show", "--db", imported, "1")
    assert code == 0
    assert out.startswith("PokerStars Hand #1:  Hold'em No Limit (50/100)")
    assert "*** HOLE CARDS ***" in out and "*** SUMMARY ***" in out


def test_replay_steps_street_by_street(capsys: pytest.CaptureFixture[str], imported: str) -> None:
    _, listed, _ = run(capsys, "hands", "list", "--json", "--db", imported, "--limit", "100")
    river = next(h for h in json.loads(listed) if len(h["board"]) == 10)
    code, out, _ = run(capsys, "hands", "replay", "--db", imported, str(river["id"]))
    assert code == 0
    streets = [line for line in out.splitlines() if line.startswith("*** ")]
    assert streets[:4] == [
        "*** HOLE CARDS ***",
        f"*** FLOP *** [{river['board'][0:2]} {river['board'][2:4]} {river['board'][4:6]}]",
        streets[2],
        streets[3],
    ]
    assert streets[2].startswith("*** TURN ***") and streets[3].startswith("*** RIVER ***")


def test_export_each_format(
    capsys: pytest.CaptureFixture[str], imported: str, tmp_path: Path
) -> None:
    phh = tmp_path / "two.phhs"
    assert (
        run(
            capsys, "hands", "export", "--db", imported, "1", "2", "--format", "phh", "-o", str(phh)
        )[0]
        == 0
    )
    assert len(history.load_all(phh.read_text())) == 2
    _, single, _ = run(capsys, "hands", "export", "--db", imported, "3", "--format", "phh")
    assert history.check(history.load(single)).status == "match"
    _, stars, _ = run(
        capsys, "hands", "export", "--db", imported, "1", "2", "--format", "pokerstars"
    )
    assert stars.count("PokerStars Hand #") == 2
    _, text, _ = run(capsys, "hands", "export", "--db", imported, "1", "2", "--format", "ohh")
    documents = [json.loads(chunk) for chunk in text.split("\n\n") if chunk.strip()]
    assert len(documents) == 2
    for document in documents:
        ohh.validate(document)


def test_export_for_a_hero_is_their_own_pokerstars_history(
    capsys: pytest.CaptureFixture[str], sqlite_db: str, tmp_path: Path
) -> None:
    """``--hero NAME``: the hands NAME played (Bill sits in session 30, not in 105), each
    as NAME's own PokerStars history, for a hand tracker: "Dealt to" Bill alone, with
    his cards, and the others' cards only where shown."""
    for session in ("30", "105"):
        assert run(capsys, "hands", "import", "--db", sqlite_db, str(PLURIBUS / session))[0] == 0
    out = tmp_path / "bill.txt"
    code, said, _ = run(
        capsys, "hands", "export", "--all", "--format", "pokerstars", "--hero", "Bill",
        "--db", sqlite_db, "-o", str(out),
    )  # fmt: skip
    bills = sorted((PLURIBUS / "30").glob("*.phh"))
    assert (code, said) == (0, f"wrote {len(bills)} hands to {out}\n")
    _, listed, _ = run(
        capsys, "hands", "list", "--json", "--player", "Bill", "--db", sqlite_db, "--limit", "999"
    )
    hands = out.read_text().split("\n\n\n")
    numbers = [int(h.split("#", 1)[1].split(":", 1)[0]) for h in hands]
    assert sorted(numbers) == sorted(h["id"] for h in json.loads(listed))

    async def stored() -> dict[int, history.HandHistory]:
        async with Store.open(database_url(sqlite_db)) as store:
            return {n: (await store.hand_info(n)).history for n in numbers}

    histories = asyncio.run(stored())
    for number, text in zip(numbers, hands, strict=True):
        hh = histories[number]
        bill = hh.fields["players"].index("Bill") + 1
        hole = {a.split()[2]: a.split()[3] for a in hh.actions if a.startswith("d dh ")}
        cards = hole[f"p{bill}"]
        dealt = [x for x in text.splitlines() if x.startswith("Dealt to ")]
        assert dealt == [f"Dealt to Bill [{cards[:2]} {cards[2:]}]"], text
        shown = {a.split()[0] for a in hh.actions if " sm " in a}
        for p, theirs in hole.items():
            seen = f"[{theirs[:2]} {theirs[2:]}]" in text
            assert seen == (p == f"p{bill}" or p in shown), text
    code, _, err = run(
        capsys, "hands", "export", "--all", "--format", "phh", "--hero", "Bill", "--db", sqlite_db
    )
    assert code == 2 and "--hero writes PokerStars text" in err


def test_exports_have_the_tables_button_and_small_blind(
    capsys: pytest.CaptureFixture[str], sqlite_db: str
) -> None:
    """A dead button (seat 2 is empty) and a small blind of 5 that nobody posted: PHH
    records neither, the store has both."""
    hand = dead_button_hand()

    async def write() -> int:
        async with Store.open(database_url(sqlite_db), upgrade=True) as store:
            names = [NAMES[s] for s in hand.seats]
            ids = await store.ensure_players(names)
            table_id = await store.ensure_table("dead", {"small_blind": 5, "big_blind": 10})
            now = dt.datetime.now(dt.UTC)
            return await store.write_hand(
                hand_rows(hand, table_id=table_id, player_ids=[ids[n] for n in names],
                          names=names, started_at=now, ended_at=now)
            )  # fmt: skip

    hand_id = str(asyncio.run(write()))
    for argv in (["show"], ["export", "--format", "pokerstars"]):
        code, out, _ = run(capsys, "hands", *argv, "--db", sqlite_db, hand_id)
        assert code == 0
        assert "Hold'em No Limit (5/10) - " in out.splitlines()[0]
        assert out.splitlines()[1] == "Table 'dead' 6-max Seat #2 is the button"
    _, out, _ = run(capsys, "hands", "export", "--db", sqlite_db, hand_id, "--format", "ohh")
    document = json.loads(out)["ohh"]
    assert (document["dealer_seat"], document["small_blind_amount"]) == (2, 5)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["hands", "show", "999"], "no hand with id 999"),
        (["hands", "export", "--format", "phh"], "name hand ids, or --all"),
        (["hands", "list", "--since", "yesterday"], "--since wants a date"),
        (["hands", "list", "--limit", "0"], "--limit must be positive"),
    ],
)
def test_bad_input_is_one_clear_line(
    capsys: pytest.CaptureFixture[str], imported: str, argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv, "--db", imported)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err


def test_the_database_comes_from_the_environment_then_the_default(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "hands", "import", str(PLURIBUS / "30" / "0.phh"))[0] == 0
    assert (tmp_path / "pokerroom.db").exists()  # the default: an SQLite file here
    monkeypatch.setenv("POKERROOM_DB", f"sqlite:///{tmp_path / 'env.db'}")
    assert run(capsys, "hands", "list")[1].strip() == "no hands"
    assert (tmp_path / "env.db").exists()


def test_db_upgrade_current_and_downgrade_on_postgresql(capsys: pytest.CaptureFixture[str]) -> None:
    url = asyncio.run(create_pg_database())
    try:
        code, _, err = run(capsys, "hands", "list", "--db", url)
        assert code == 2 and "run pokerroom db upgrade" in err  # operators migrate PostgreSQL
        head = migrate.head()
        assert run(capsys, "db", "upgrade", "--db", url)[1].strip() == f"upgrade: base -> {head}"
        assert run(capsys, "db", "current", "--db", url)[1].strip() == f"at revision {head}"
        assert run(capsys, "hands", "import", "--db", url, str(PLURIBUS / "31" / "1.phh"))[0] == 0
        assert len(json.loads(run(capsys, "hands", "list", "--json", "--db", url)[1])) == 1
        assert (
            run(capsys, "db", "downgrade", "--db", url, "--revision", "base")[1].strip()
            == f"downgrade: {head} -> base"
        )
    finally:
        asyncio.run(drop_pg_database(url))


def test_a_database_that_cannot_be_reached_is_one_clear_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(capsys, "hands", "list", "--db", "postgresql://postgres@127.0.0.1:1/nowhere")
    assert (
        code == 2
        and err.startswith("pokerroom hands list: error: database:")
        and err.count("\n") == 1
    )


def test_all_pluribus_hands_import_and_export_as_phh_that_pokerkit_replays(
    capsys: pytest.CaptureFixture[str], sqlite_db: str, tmp_path: Path
) -> None:
    from pokerkit import HandHistory

    code, out, _ = run(capsys, "hands", "import", "--db", sqlite_db, str(PLURIBUS))
    assert code == 0 and out.splitlines()[-1].startswith("imported 10000,")
    exported = tmp_path / "pluribus.phhs"
    assert (
        run(
            capsys,
            "hands",
            "export",
            "--all",
            "--format",
            "phh",
            "--db",
            sqlite_db,
            "-o",
            str(exported),
        )[0]
        == 0
    )
    ours = [history.replay(h).hand.stacks for h in history.load_all(exported.read_text())]
    with warnings.catch_warnings(), exported.open("rb") as handle:
        warnings.simplefilter("ignore")
        theirs = [
            list(collections.deque(hh, maxlen=1)[0].stacks) for hh in HandHistory.load_all(handle)
        ]
    assert len(theirs) == len(ours) == 10_000
    assert theirs == ours


async def test_an_import_into_a_live_servers_sqlite_file_waits_its_turn_quietly(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """`pokerroom hands import` writes to the file a server is writing hands to: both
    finish, every hand of both is stored, and the server never complains of the lock."""
    db = tmp_path / "live.db"
    async with demo_server(db, seats=4, bots=4) as demo:  # four bots playing at full speed
        before = demo.runner.finished_through
        sessions = [str(PLURIBUS / s) for s in ("30", "31", "32")]
        argv = ["hands", "import", "--db", f"sqlite:///{db}", *sessions]
        code = await asyncio.to_thread(main, argv)
        played = demo.runner.finished_through
        # The table played on meanwhile. (How many hands depends on the machine: the
        # import runs in a thread of this process, sharing the GIL with the table.)
        assert played > before + 5
        stored = await demo.server.store.count_hands()
    assert code == 0
    assert stored >= 80 + 73 + 95 + played
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
