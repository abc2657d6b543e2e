"""Our ACPC player (server/acpc/client.py): our bots play whole matches at our own ACPC
dealer over loopback. The dealer runs ``strict``, so any action it would have to fix
ends the match without a ``SCORE`` line, and its stderr must carry no warning."""

from __future__ import annotations

import asyncio
import io
import socket
from pathlib import Path

import pytest

from engine import acpc
from server.acpc.client import (
    AcpcPlayer,
    ClientError,
    MatchSummary,
    load_gamedef,
    parse_match_state,
    play_match,
)
from server.acpc.dealer import MatchConfig, run_match
from server.acpc.state import format_value
from server.bots.loader import load_bot_spec
from server.bots.strategies import STRATEGIES
from server.cli import main

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "acpc"
NOLIMIT = "holdem.nolimit.2p.reverse_blinds.game"
LIMIT = "holdem.limit.2p.reverse_blinds.game"


def load(name: str) -> acpc.GameDef:
    return acpc.parse((DATA / name).read_text())


async def start_dealer(
    name: str, hands: int, *, strict: bool = True
) -> tuple[asyncio.Task[list[float]], list[int], io.StringIO, io.StringIO]:
    game = load(name)
    ports: asyncio.Future[list[int]] = asyncio.get_running_loop().create_future()
    out, err = io.StringIO(), io.StringIO()
    config = MatchConfig(
        name="m",
        game_path=name,
        game=game,
        hands=hands,
        seed=11,
        names=["p0", "p1", "p2"][: game.num_players],
        host="127.0.0.1",
        log=False,
        quiet=True,
        strict=strict,
    )
    task = asyncio.create_task(run_match(config, out, err, ports.set_result))
    return task, await ports, out, err


async def play(
    name: str, bots: list[str], hands: int, *, strict: bool = True
) -> tuple[list[float], list[MatchSummary], str, str]:
    task, ports, out, err = await start_dealer(name, hands, strict=strict)
    game = load(name)
    summaries = await asyncio.gather(
        *(
            play_match("127.0.0.1", port, game, load_bot_spec(bot), io.StringIO())
            for port, bot in zip(ports, bots, strict=True)
        )
    )
    return await task, list(summaries), out.getvalue(), err.getvalue()


@pytest.mark.parametrize("name", [NOLIMIT, LIMIT])
@pytest.mark.parametrize("bot", sorted(STRATEGIES))
async def test_each_built_in_bot_plays_a_whole_match_without_an_invalid_action(
    name: str, bot: str
) -> None:
    totals, summaries, out, err = await play(name, [bot, "random"], 40)
    assert out.splitlines()[-1].startswith("SCORE:")
    assert "WARNING" not in err
    for summary in summaries:
        assert (summary.hands, summary.complete, summary.corrected) == (40, True, 0)
        assert summary.decisions > 0
    # What each player adds up from its final states is the dealer's score for its seat.
    assert [s.won for s in summaries] == totals
    assert summaries[0].unvalued == summaries[1].unvalued == 0


async def test_three_of_our_bots_play_a_three_handed_no_limit_match() -> None:
    totals, summaries, out, err = await play(
        "holdem.nolimit.3p.game", ["random", "tight-aggressive", "calling-station"], 40
    )
    assert out.splitlines()[-1].startswith("SCORE:")
    assert "WARNING" not in err
    assert [s.won for s in summaries] == totals
    assert all(s.complete and s.corrected == 0 for s in summaries)


async def test_an_answer_off_the_menu_is_sent_as_a_call_and_counted(tmp_path: Path) -> None:
    # A bot that folds even when it could check: the dealer does not allow that fold.
    (tmp_path / "folder.py").write_text(
        "from engine import Fold\n"
        "class Folder:\n"
        "    def act(self, view, menu):\n"
        "        return Fold(menu.seat)\n"
    )
    task, ports, out, err = await start_dealer(LIMIT, 30)
    game = load(LIMIT)
    folder_err = io.StringIO()
    folder, caller = await asyncio.gather(
        play_match(
            "127.0.0.1", ports[0], game, load_bot_spec(f"{tmp_path}/folder.py:Folder"), folder_err
        ),
        play_match("127.0.0.1", ports[1], game, load_bot_spec("calling-station"), io.StringIO()),
    )
    await task
    assert out.getvalue().splitlines()[-1].startswith("SCORE:")
    assert "WARNING" not in err.getvalue()
    # Half the hands it is the big blind, and a limp lets it check: a fold it may not make.
    assert folder.corrected > 0
    assert "is not on the menu; calling" in folder_err.getvalue()
    assert folder.won == -caller.won


async def test_the_play_command_plays_a_users_bot_file_and_prints_a_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bot_file = tmp_path / "my_bot.py"
    bot_file.write_text(
        "from engine import BetOrRaiseTo, CheckOrCall\n"
        "class MinRaiser:\n"
        "    def act(self, view, menu):\n"
        "        if menu.can_raise:\n"
        "            return BetOrRaiseTo(menu.seat, menu.min_raise_to)\n"
        "        return CheckOrCall(menu.seat)\n"
    )
    task, ports, out, err = await start_dealer(NOLIMIT, 20)
    argv = ["acpc", "play", "127.0.0.1", str(ports[0]), "--bot", f"{bot_file}:MinRaiser"]
    argv += ["--game", str(DATA / NOLIMIT)]
    code, other = await asyncio.gather(
        asyncio.to_thread(main, argv),
        play_match("127.0.0.1", ports[1], load(NOLIMIT), load_bot_spec("random"), io.StringIO()),
    )
    totals = await task
    assert code == 0
    assert out.getvalue().splitlines()[-1].startswith("SCORE:")
    assert "WARNING" not in err.getvalue()
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1].startswith(f"hands played: 20, won: {format_value(totals[0])} (")
    assert other.won == totals[1]


def test_the_play_command_without_a_dealer_fails_saying_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A port nothing listens on: bind one, note it, close it.
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert main(["acpc", "play", "127.0.0.1", str(port), "--bot", "random"]) == 1
    assert "cannot connect to 127.0.0.1" in capsys.readouterr().err


async def test_a_dealer_hanging_up_mid_hand_leaves_the_match_incomplete() -> None:
    seen: list[str] = []

    async def dealer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        seen.append((await reader.readline()).decode())
        writer.write(b"MATCHSTATE:0:0::AsKs|\r\n")  # position 0 waits: nobody answers
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(dealer, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        summary = await play_match("127.0.0.1", port, load_gamedef(None), load_bot_spec("random"))
    assert seen == ["VERSION:2.0.0\r\n"]
    assert (summary.hands, summary.complete) == (0, False)


async def test_the_player_answers_only_when_to_act_with_the_line_and_its_action() -> None:
    lines: list[str] = []

    async def dealer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readline()
        # Position 1 is the button in this gamedef and acts first preflop; a folded hand.
        for line in ("MATCHSTATE:0:0::AsKs|", "MATCHSTATE:1:1::|AsKs"):
            writer.write(line.encode() + b"\r\n")
            await writer.drain()
        lines.append((await reader.readline()).decode())
        writer.write(b"MATCHSTATE:1:1:f:|AsKs\r\n")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(dealer, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        summary = await play_match(
            "127.0.0.1", port, load_gamedef(None), load_bot_spec("calling-station")
        )
    assert lines == ["MATCHSTATE:1:1::|AsKs:c\r\n"]
    # Hand 0 never ended (no final state), hand 1 did: the button folded its small blind.
    assert (summary.hands, summary.won, summary.decisions) == (1, -50.0, 1)


def test_a_state_line_that_does_not_fit_the_game_is_refused() -> None:
    game = load_gamedef(None)
    with pytest.raises(ValueError, match="position 2"):
        parse_match_state("MATCHSTATE:2:0::AsKs|", game)
    with pytest.raises(ValueError, match="cannot read cards"):
        parse_match_state("MATCHSTATE:0:0::AxKs|", game)
    state = parse_match_state("MATCHSTATE:0:3:r300c/r900:AsKs|/2c3d4h", game)
    assert (state.hand_id, len(state.moves), state.board) == (3, 3, (0, 5, 10))


def test_a_gamedef_our_tables_cannot_play_is_refused_up_front() -> None:
    text = (
        (DATA / "leduc.limit.2p.game").read_text().replace("firstPlayer = 1 1", "firstPlayer = 2 1")
    )
    with pytest.raises(ClientError, match="our tables cannot play this gamedef"):
        AcpcPlayer(acpc.parse(text), load_bot_spec("random"))
