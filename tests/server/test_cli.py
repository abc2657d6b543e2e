import json
import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.cli import main
from tests.conftest import SHARED_DATA

EULER = SHARED_DATA / "euler54" / "poker.txt"
ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_eval_prints_name_best_five_and_category(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "eval", "As", "Ks", "Qs", "Js", "Ts", "2c", "3d")
    assert code == 0
    assert out.splitlines()[:3] == [
        "Royal Flush",
        "best five: As Ks Qs Js Ts",
        "category: Royal Flush",
    ]


def test_eval_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "eval", "--json", "Kh Kd Ks 5c 5d 2h 3c")
    assert code == 0
    assert json.loads(out) == {
        "description": "Full House, Kings over Fives",
        "category": "Full House",
        "rank": 7276,
        "best_five": ["Ks", "Kh", "Kd", "5d", "5c"],
    }


def test_compare_prints_lose(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "compare", "2H 2D AH KC 3D", "4H 4C JC TC 3H")[:2] == (0, "LOSE\n")


def test_compare_json_names_both_hands(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "compare", "--json", "2H 2D AH KC 3D", "4H 4C JC TC 3H")
    data = json.loads(out)
    assert data["result"] == "LOSE"
    assert data["hand_b"]["description"] == "One Pair, Fours, Jack-Ten-Three kickers"


def test_showdown_on_project_euler_54_player_one_wins_376(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "showdown", "--json", str(EULER))
    assert code == 0
    assert json.loads(out) == {"hands": 1000, "player1": 376, "player2": 624, "draws": 0}


def test_showdown_names_the_bad_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "hands.txt"
    bad.write_text("8C TS KC 9H 4S 7D 2S 5D 3S AC\n\n5C AD 5D AC 9C 7C 5H 8D TD KZ\n")
    code, out, err = run(capsys, "showdown", str(bad))
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert f"{bad}: line 3: invalid card 'KZ' at position 10" in err


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("8C TS KC 9H 4S 7D 2S 5D 3S", "expected 10 cards, got 9"),
        ("8C TS KC 9H 4S 7D 2S 5D 3S 8C", "card '8c' appears more than once"),
    ],
)
def test_showdown_rejects_short_and_repeated_lines(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, line: str, message: str
) -> None:
    bad = tmp_path / "hands.txt"
    bad.write_text(line + "\n")
    code, _, err = run(capsys, "showdown", str(bad))
    assert code == 2 and "line 1: " + message in err


def test_showdown_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "showdown", str(tmp_path / "nope.txt"))
    assert code == 2 and "cannot read" in err and "nope.txt" in err


def test_equity_exact_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "equity", "--json", "AhKh", "QsQd")
    data = json.loads(out)
    assert code == 0 and data["exact"] and data["boards"] == 1_712_304
    assert [h["wins"] for h in data["hands"]] == [787_966, 917_606]


def test_equity_text_with_board_and_seeded_samples(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "equity", "AhKh", "QsQd", "--board", "As 7c 2d", "--samples", "500", "--seed", "3"
    )
    assert code == 0
    assert "Monte Carlo, 500 boards, seed 3" in out
    assert (
        run(
            capsys,
            "equity",
            "AhKh",
            "QsQd",
            "--board",
            "As 7c 2d",
            "--samples",
            "500",
            "--seed",
            "3",
        )[1]
        == out
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["eval", "As", "Xs", "Qs", "Js", "Ts"],
        ["eval", "As", "Ks"],
        ["compare", "As Ks", "2c 3c 4c 5c 6c"],
        ["equity", "AhKh"],
        ["equity", "AhKh", "QsQd", "--exact", "--samples", "10"],
        ["equity", "AhKh", "QsQd", "--samples", "ten"],
        ["nonsense"],
    ],
)
def test_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    try:
        code, out, err = run(capsys, *argv)
    except SystemExit as exc:  # argparse's own errors
        code, (out, err) = int(str(exc.code)), capsys.readouterr()
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and "error" in err


def test_console_script_runs_as_a_process() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "server.cli", "compare", "2H 2D AH KC 3D", "4H 4C JC TC 3H"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode, result.stdout) == (0, "LOSE\n")


def test_demo_deals_and_names_winners(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "demo", "--hands", "3", "--seed", "1")
    assert code == 0
    assert out.count("<- wins") >= 3 and out.count("hand ") == 3


PHH = SHARED_DATA / "phh"


def test_replay_a_folder_of_pluribus_hands_all_match(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "replay", str(PHH / "pluribus" / "30"))
    assert code == 0
    matched = len(list((PHH / "pluribus" / "30").glob("*.phh")))
    assert out.splitlines()[-1] == f"{matched} match, 0 differ, 0 unsupported, 0 error"


def test_replay_json_one_line_per_hand_then_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    handhq = next((PHH / "handhq").rglob("*.phhs"))
    code, out, _ = run(
        capsys, "replay", "--json", str(PHH / "pluribus" / "32" / "23.phh"), str(handhq)
    )
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(lines) == 1 + 12 + 1
    first = lines[0]
    assert first["status"] == "match" and first["index"] == 0
    assert first["recorded"][2] == 10387.5 and first["ours"][2] == 10388
    assert [line["index"] for line in lines[1:13]] == list(range(1, 13))
    assert {line["status"] for line in lines[1:13]} == {"unsupported"}
    assert lines[-1] == {"summary": {"match": 1, "differ": 0, "unsupported": 12, "error": 0}}


def test_replay_exits_1_when_a_hand_differs_or_errs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    good = (PHH / "pluribus" / "30" / "0.phh").read_text()
    (tmp_path / "differs.phh").write_text(
        good.replace("finishing_stacks = [", "finishing_stacks = [1")
    )
    (tmp_path / "broken.phh").write_text("variant = [")
    code, out, _ = run(capsys, "replay", str(tmp_path))
    assert code == 1
    assert "broken.phh: error: cannot read: not valid PHH (TOML)" in out
    assert "differs.phh: differ: final stacks differ" in out
    assert out.splitlines()[-1] == "0 match, 1 differ, 0 unsupported, 1 error"


def test_replay_other_variants_are_unsupported_not_failures(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # We play every variant PHH defines: a code it does not define stands for the others.
    text = (PHH / "antonius-blom-2009.phh").read_text().replace('variant = "PO"', 'variant = "XX"')
    (tmp_path / "other.phh").write_text(text)
    code, out, _ = run(capsys, "replay", str(tmp_path / "other.phh"))
    assert code == 0 and "unsupported: variant 'XX' is not a game we play" in out


def run_in_a_terminal(*argv: str) -> tuple[int, str, str]:
    """``pokerroom ARGV`` in a fresh process whose stderr is a terminal (a pty) and whose
    stdout is a pipe: its exit status, its stdout, and the text the terminal was sent."""
    pty = pytest.importorskip("pty")  # not on Windows
    terminal, their_end = pty.openpty()
    with subprocess.Popen(
        [sys.executable, "-m", "server.cli", *argv],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=their_end, text=True,
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm"},
    ) as proc:  # fmt: skip
        os.close(their_end)
        shown = b""
        while True:
            try:
                chunk = os.read(terminal, 65536)
            except OSError:  # EIO: the process has closed the terminal
                break
            if not chunk:
                break
            shown += chunk
        assert proc.stdout is not None
        out = proc.stdout.read()  # a line or two: it never fills the pipe
    os.close(terminal)
    return proc.returncode, out, re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown.decode())


def test_replay_shows_a_bar_on_a_terminal_and_prints_the_same(
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = PHH / "pluribus" / "30"
    files = len(list(folder.glob("*.phh")))
    piped = run(capsys, "replay", str(folder))
    code, out, shown = run_in_a_terminal("replay", str(folder))
    assert (code, out) == piped[:2]
    assert "replay" in shown and f"{files}/{files}" in shown
    assert piped[2] == ""  # piped: no bar


def test_replay_a_missing_path_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "replay", str(tmp_path / "nope"))
    assert code == 2 and "no such file or folder" in err


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A port something else listens on."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        yield int(taken.getsockname()[1])


@pytest.mark.parametrize(
    ("argv", "problem"),
    [
        (["serve", "--db", "postgresql://postgres@127.0.0.1:1/x"], "database: "),
        (["serve", "--db", "bogus://x"], "database: "),
        (["serve", "--config", "{tmp}/missing.toml"], "missing.toml: No such file"),
        (["serve", "--config", "{tmp}/bad.toml"], "[serve] has no option 'colour'"),
        (["serve", "--mqtt-prefix", "a/+/b"], "MQTT prefix 'a/+/b'"),
        (["serve", "--bus", "http://x"], "unknown bus"),
        (["serve", "--lease-seconds", "0"], "lease-seconds 0"),
        (["hands", "list", "--db", "sqlite:////nonexistent/dir/x.db"], "database: "),
        (["hands", "import", "{tmp}/missing.phh"], "no such file or folder"),
        (["hands", "show", "999"], "no hand with id 999"),
        (["hands", "export", "--all", "--format", "phh", "-o", "{tmp}/no/dir/x"], "No such file"),
        (["verify", "999"], "no hand with id 999"),
        (["db", "upgrade", "--db", "postgresql://postgres@127.0.0.1:1/x"], "database: "),
        (["tournament", "--seed", "x", "--blinds", "{tmp}/missing.json"], "blind structure"),
        (["bot", "run", "nosuchbot", "--url", "ws://127.0.0.1:1/ws"], "unknown bot"),
        (["bot", "run", "random", "--url", "ws://127.0.0.1:1/ws", "-q"], "cannot connect"),
        (["replay", "{tmp}/missing.phh"], "no such file"),
        (["showdown", "{tmp}/missing.txt"], "missing.txt"),
    ],
)
def test_every_command_names_its_problem_in_one_line(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    problem: str,
) -> None:
    """Bad input, a database or server out of reach, a missing file: one line on stderr
    naming the problem, and no traceback, whatever the command."""
    monkeypatch.setenv("POKERROOM_DB", f"sqlite:///{tmp_path / 'cli.db'}")
    (tmp_path / "bad.toml").write_text("[serve]\ncolour = 'red'\n")
    code, _, err = run(capsys, *[a.replace("{tmp}", str(tmp_path)) for a in argv])
    assert code in (1, 2)
    lines = [line for line in err.splitlines() if "WARNING" not in line]  # a bot's log
    assert len(lines) == 1 and problem in lines[0], err
    assert lines[0].startswith(f"pokerroom {argv[0]}")


def test_serve_on_a_busy_port_says_so_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, busy_port: int
) -> None:
    code, out, err = run(
        capsys, "serve", "--port", str(busy_port), "--db", f"sqlite:///{tmp_path / 'p.db'}"
    )
    assert code == 2 and out == ""
    assert err == (
        f"pokerroom serve: error: cannot listen on 127.0.0.1:{busy_port}: address already in "
        "use (another server is running there?)\n"
    )


def test_serve_with_the_broker_out_of_reach_says_so_once_and_serves(tmp_path: Path) -> None:
    """An MQTT broker that is down is no reason not to serve: one line says so, and the
    server stops cleanly on SIGTERM."""
    with subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve", "--port", "0", "--bus", "mqtt://127.0.0.1:1",
         "--db", f"sqlite:///{tmp_path / 'b.db'}"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    ) as proc:  # fmt: skip
        assert proc.stdout is not None and proc.stderr is not None
        assert proc.stdout.readline().startswith("pokerroom is serving")
        unreachable = proc.stderr.readline()
        proc.send_signal(signal.SIGTERM)
        _, rest = proc.communicate(timeout=20)
    assert unreachable.startswith("MQTT broker 127.0.0.1:1 unreachable")
    assert proc.returncode == 0 and rest == "pokerroom is shutting down\n"


def test_serve_takes_each_option_from_the_command_line_the_environment_then_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from server.cli import build_parser
    from server.cli.serve import resolve

    config = tmp_path / "pokerroom.toml"
    config.write_text(
        '[serve]\nport = 9100\nmqtt_prefix = "file/root"\nbus = "mqtt://broker:1883"\n'
        "tables_per_address = 50\ndemo = true\nlease_seconds = 4.5\n"
    )
    monkeypatch.delenv("POKERROOM_BUS", raising=False)
    monkeypatch.setenv("POKERROOM_CONFIG", str(config))
    monkeypatch.setenv("POKERROOM_MQTT_PREFIX", "env/root")
    args = build_parser().parse_args(["serve", "--lease-seconds", "3"])
    settings = resolve(args)
    assert (settings.port, settings.tables_per_address, settings.demo) == (9100, 50, True)
    assert settings.lease_seconds == 3.0  # the command line over the file
    assert args.mqtt_prefix == "env/root"  # the environment over the file
    assert args.bus == "mqtt://broker:1883"  # the file over the default
    assert settings.host == "127.0.0.1" and settings.messages_per_second == 20.0  # defaults
    monkeypatch.delenv("POKERROOM_CONFIG")
    bare = build_parser().parse_args(["serve"])
    assert (resolve(bare).port, bare.mqtt_prefix, bare.bus) == (8765, "env/root", "local")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[serve]\nport = 'high'\n", "port must be int"),
        ("[serve]\ndemo = 1\n", "demo must be bool"),
        ("[server]\nport = 1\n", "unknown table [server]"),
        ("port = 1\n", "unknown table [port]"),
        ("[serve\n", "not TOML"),
        ("[serve]\nlease_seconds = -1\n", "lease-seconds -1"),
    ],
)
def test_a_bad_config_file_is_named_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, problem: str
) -> None:
    config = tmp_path / "bad.toml"
    config.write_text(text)
    code, _, err = run(capsys, "serve", "--config", str(config))
    assert code == 2 and err.count("\n") == 1 and problem in err, err
