"""Settling up (server/settle.py, ``pokerroom ledger settle``): the transfers clear every
net, the count is the fewest (checked against a different, brute-force search) and never
more than n - 1, and ledgers that are not ledgers or do not balance are refused."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server import protocol
from server.cli import main
from server.settle import EXACT_PLAYERS, LedgerError, Transfer, read_ledger, settle
from server.store.ledger import CSV_COLUMNS, Session

HEADER = "player_nickname,player_id,session_start_at,session_end_at,buy_in,buy_out,stack,net"


@st.composite
def balanced(draw: st.DrawFn, most: int) -> dict[str, int]:
    """Nets of up to ``most`` players that sum to zero (some equal, some zero)."""
    values = draw(st.lists(st.integers(-60, 60), min_size=1, max_size=most - 1))
    values.append(-sum(values))
    return {f"p{i}": v for i, v in enumerate(values)}


def fewest(nets: list[int]) -> int:
    """The fewest transfers, by a search that tries every way to clear each debt in
    turn (a different method from settle's subset groups)."""
    debts = [n for n in nets if n]

    def search(start: int) -> int:
        while start < len(debts) and debts[start] == 0:
            start += 1
        if start == len(debts):
            return 0
        best = len(debts)
        for j in range(start + 1, len(debts)):
            if debts[j] * debts[start] < 0:
                debts[j] += debts[start]
                best = min(best, 1 + search(start + 1))
                debts[j] -= debts[start]
        return best

    return search(0)


def cleared(nets: dict[str, int], transfers: list[Transfer]) -> dict[str, int]:
    left = dict(nets)
    for t in transfers:
        assert t.amount > 0 and t.payer != t.payee
        left[t.payer] += t.amount
        left[t.payee] -= t.amount
    return left


@settings(max_examples=300, deadline=None)
@given(balanced(8))
def test_the_fewest_transfers_clear_every_net(nets: dict[str, int]) -> None:
    transfers = settle(nets)
    assert not any(cleared(nets, transfers).values())
    players = sum(1 for v in nets.values() if v)
    assert len(transfers) <= max(players - 1, 0)
    assert len(transfers) == fewest(list(nets.values()))


@settings(max_examples=40, deadline=None)
@given(balanced(EXACT_PLAYERS))
def test_twelve_players_are_settled_exactly(nets: dict[str, int]) -> None:
    transfers = settle(nets)
    assert not any(cleared(nets, transfers).values())
    assert len(transfers) <= max(sum(1 for v in nets.values() if v) - 1, 0)


def test_groups_that_balance_among_themselves_settle_apart() -> None:
    # Biggest debtor to biggest creditor takes 5 transfers here (c pays f 9, then a, e,
    # b pay f, then a pays d); a pays d and the rest pay f: 4.
    nets = {"a": -5, "b": -2, "c": -9, "d": 5, "e": -4, "f": 15}
    transfers = settle(nets)
    assert len(transfers) == 4 == fewest(list(nets.values()))
    assert Transfer("a", "d", 5) in transfers


@settings(max_examples=60, deadline=None)
@given(balanced(40))
def test_many_players_take_at_most_n_minus_1_transfers(nets: dict[str, int]) -> None:
    transfers = settle(nets)
    assert not any(cleared(nets, transfers).values())
    assert len(transfers) <= max(sum(1 for v in nets.values() if v) - 1, 0)


def test_the_heuristic_pairs_equal_and_opposite_nets() -> None:
    nets = {f"w{i}": 10 + i for i in range(8)} | {f"l{i}": -(10 + i) for i in range(8)}
    transfers = settle(nets)
    assert sorted(transfers, key=lambda t: t.payer) == [
        Transfer(f"l{i}", f"w{i}", 10 + i) for i in range(8)
    ]


def test_a_ledger_that_does_not_balance_is_refused() -> None:
    with pytest.raises(LedgerError, match="sum to 5"):
        settle({"a": 10, "b": -5})


def test_pokernow_sessions_are_summed_by_player_id_and_named_by_the_latest() -> None:
    text = "\n".join(
        [
            HEADER + ",nit_escrow",
            "bobby,b1,2026-11-20T21:30:00.000Z,,1000,0,700,-300,0",
            "ann,a1,2026-11-20T20:00:00.000Z,2026-11-20T22:00:00.000Z,1000,1500,0,500,0",
            "bob,b1,2026-11-20T20:00:00.000Z,2026-11-20T21:00:00.000Z,1000,0,0,-1000,0",
            "cy,c1,2026-11-20T20:00:00.000Z,,1000,0,1800,800,0",
        ]
    )
    assert read_ledger(text) == {"bobby": -1300, "ann": 500, "cy": 800}
    without_escrow = "\n".join(line.rsplit(",", 1)[0] for line in text.splitlines())
    assert read_ledger(without_escrow) == read_ledger(text)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("name,amount\nann,5\n", "not a ledger: no column player_nickname, player_id, net"),
        (HEADER + "\n", "no rows"),
        (HEADER + "\nann,a1,,,100,0,150,50.5\n", "line 2: net '50.5' is not a whole number"),
        (HEADER + "\n,a1,,,100,0,150,50\n", "line 2: no player_id or player_nickname"),
    ],
)
def test_what_is_not_a_ledger_gets_a_clear_error(text: str, problem: str) -> None:
    with pytest.raises(LedgerError, match=problem):
        read_ledger(text)


def test_the_command_prints_transfers_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ledger = tmp_path / "ledger.csv"
    ledger.write_text(
        "\n".join([HEADER, "ann,1,,,100,0,250,150", "bob,2,,,100,0,0,-100", "cy,3,,,100,0,50,-50"])
    )
    assert main(["ledger", "settle", str(ledger)]) == 0
    assert capsys.readouterr().out.splitlines() == ["bob pays ann 100", "cy pays ann 50"]
    assert main(["ledger", "settle", str(ledger), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == [
        {"from": "bob", "to": "ann", "amount": 100},
        {"from": "cy", "to": "ann", "amount": 50},
    ]


def test_the_command_fails_with_status_1_and_names_the_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    unbalanced = tmp_path / "short.csv"
    unbalanced.write_text(HEADER + "\nann,1,,,100,0,250,150\nbob,2,,,100,0,0,-100\n")
    assert main(["ledger", "settle", str(unbalanced)]) == 1
    assert "short.csv: the nets sum to 50, not 0" in capsys.readouterr().err
    assert main(["ledger", "settle", str(tmp_path / "missing.csv")]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_the_examples_in_docs_ledger_md_print_what_they_show(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = Path(__file__).parents[2]
    monkeypatch.chdir(root)
    block = (root / "docs/ledger.md").read_text().split("```console\n")[1].split("```")[0]
    runs = [run.splitlines() for run in block.split("$ .venv/bin/pokerroom ")[1:]]
    assert len(runs) == 2
    for command, *shown in runs:
        assert main(command.split()) == 0
        assert capsys.readouterr().out.splitlines() == shown


def test_a_tables_ledger_keeps_two_players_of_one_nickname_apart() -> None:
    """A guest's name is free again once they are gone: a later guest of that name is
    another player, settled apart (the ledger CSV's rule), and the nets still sum to 0."""
    start = dt.datetime(2026, 11, 26, 20, tzinfo=dt.UTC)
    sessions = [
        Session("bob", 1, start, start, buy_in=200, buy_out=0),
        Session("bob", 2, start, None, buy_in=200, stack=500),
        Session("ann", 3, start, None, buy_in=200, stack=100),
    ]
    body = protocol.ledger_body("friday", sessions)
    assert body["nets"] == {"bob": -200, "bob (2)": 300, "ann": -100}
    paid = dict.fromkeys(body["nets"], 0)
    for t in body["transfers"]:
        paid[t["from"]] += t["amount"]
        paid[t["to"]] -= t["amount"]
    assert {n: body["nets"][n] + paid[n] for n in paid} == {"bob": 0, "bob (2)": 0, "ann": 0}
    assert body["csv"].splitlines()[0] == ",".join(CSV_COLUMNS)
    assert len(body["csv"].splitlines()) == 4 and "error" not in body
