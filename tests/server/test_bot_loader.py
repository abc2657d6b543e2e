"""Loading a bot for the SDK (server.bots.loader): by name, module, file, or a module that
another installed package shadows."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine import Deck, Table, TableConfig
from server.bots.loader import load_bot_spec

ROOT = Path(__file__).resolve().parents[2]


def test_bots_load_by_name_module_file_and_shadowed_module(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(ROOT)
    assert type(load_bot_spec("calling-station")).__name__ == "CallingStation"
    assert type(load_bot_spec("server.bots.strategies:RandomBot")).__name__ == "RandomBot"
    assert type(load_bot_spec("examples/my_bot.py:MyBot")).__name__ == "MyBot"
    # PyPokerEngine installs a package called ``examples``: the folder here is still found.
    assert type(load_bot_spec("examples.my_bot:MyBot")).__name__ == "MyBot"
    with pytest.raises(ValueError, match="no class 'Nope'"):
        load_bot_spec("examples/my_bot.py:Nope")
    with pytest.raises(ValueError, match="not found"):
        load_bot_spec("missing/bot.py:Bot")
    broken = tmp_path / "broken.py"
    broken.write_text("raise RuntimeError('boom')\n")
    with pytest.raises(ValueError, match="cannot be imported: boom"):
        load_bot_spec(f"{broken}:Bot")


def test_the_example_bot_always_answers_from_the_menu() -> None:
    bot = load_bot_spec(str(ROOT / "examples" / "my_bot.py") + ":MyBot")
    rng = random.Random(5)
    for _ in range(200):
        table = Table(TableConfig(small_blind=50, big_blind=100, seats=4, min_buy_in=100))
        for chair in range(4):
            table.sit_down(chair, rng.choice([300, 10_000]))
        table.start_hand(Deck.shuffled(rng))
        while table.hand_in_progress:
            seat = table.to_act
            assert seat is not None
            menu = table.legal_actions(seat)
            assert menu is not None
            action = bot.act(table.view(seat), menu)
            assert menu.allows(action), (action, menu)
            table.apply(action)
