"""``pokerroom tournament create``: a tournament on a running server (a real one on
loopback), which bots then join with ``pokerroom bot run --tournament``, as the README
shows from a fresh start."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from server.app import PokerServer, ServerSettings
from server.cli import main
from server.store import Store


async def test_create_then_bots_join_and_play_it_to_the_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with Store.open(f"sqlite+aiosqlite:///{tmp_path / 't.db'}") as store:
        server = PokerServer(store, ServerSettings(port=0))
        async with server.running():
            url = server.hosting.address
            argv = ["tournament", "create", "--url", url, "--name", "Friday", "--field", "3",
                    "--seats", "6", "--seed", "cli", "--payouts", "top-2", "--stack", "1000",
                    "--decision-seconds", "5"]  # fmt: skip
            assert await asyncio.to_thread(main, argv) == 0
            printed = capsys.readouterr().out.splitlines()
            assert printed[0] == (
                "tournament 1 ('Friday'): sng, nlhe, registering; it starts when 3 bots "
                "have registered"
            )
            assert (
                printed[1] == f"bots join with: pokerroom bot run SPEC --url {url} --tournament 1"
            )
            host = server.tournaments.get(1)
            assert host.config.seed == "cli" and host.config.starting_stack == 1000
            assert host.config.payouts == (0.65, 0.35) and host.config.seats == 6
            bots = [
                ["bot", "run", spec, "--url", url, "--tournament", "1", "--name", spec, "-q"]
                for spec in ("tight-aggressive", "calling-station", "random")
            ]
            async with asyncio.timeout(120):
                codes = await asyncio.gather(*(asyncio.to_thread(main, b) for b in bots))
            assert codes == [0, 0, 0]
            stored = await store.tournament(1)
    assert stored["results"] is not None
    standings = stored["results"]["standings"]
    assert sorted(s["name"] for s in standings) == ["calling-station", "random", "tight-aggressive"]
    assert [s["prize"] for s in standings] == [195, 105, 0]


async def test_create_prints_the_tournament_as_json_with_a_start_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with Store.open(f"sqlite+aiosqlite:///{tmp_path / 't.db'}") as store:
        server = PokerServer(store, ServerSettings(port=0))
        async with server.running():
            argv = ["tournament", "create", "--url", server.hosting.address, "--field", "4",
                    "--format", "ring", "--game", "plo", "--hands", "20", "--duplicate",
                    "--start-seconds", "600", "--json"]  # fmt: skip
            assert await asyncio.to_thread(main, argv) == 0
            created = json.loads(capsys.readouterr().out)
    assert created["state"] == "registering" and created["field"] == 4
    assert 0 < created["starts_in_seconds"] <= 600
    settings = created["settings"]
    assert (settings["format"], settings["game"], settings["hands"]) == ("ring", "plo", 20)
    assert settings["duplicate"] is True and "seed" not in settings  # drawn, and hidden


async def test_create_says_why_the_server_refused_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with Store.open(f"sqlite+aiosqlite:///{tmp_path / 't.db'}") as store:
        server = PokerServer(store, ServerSettings(port=0))
        async with server.running():
            argv = ["tournament", "create", "--url", server.hosting.address, "--field", "12"]
            assert await asyncio.to_thread(main, argv) == 1
            assert server.tournaments.hosts == {}
    err = capsys.readouterr().err
    assert err == (
        "pokerroom tournament create: error: create_tournament refused: refused: a sng "
        "seats everyone at one table: 12 entrants, 9 seats\n"
    )


def test_create_without_a_server_says_it_cannot_reach_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["tournament", "create", "--url", "ws://127.0.0.1:9/ws", "--field", "2"]) == 1
    assert capsys.readouterr().err.startswith(
        "pokerroom tournament create: error: cannot reach ws://127.0.0.1:9/ws: "
    )


def test_create_refuses_a_structure_a_server_does_not_have(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["tournament", "create", "--url", "ws://x/ws", "--field", "2", "--blinds", "x.json"])
    assert exit_.value.code == 2
    assert "--blinds: invalid choice: 'x.json'" in capsys.readouterr().err
