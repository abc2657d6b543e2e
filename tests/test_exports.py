"""The engine's public surface is deliberate, and the engine does no I/O."""

import ast
import sys
from pathlib import Path

import engine

ENGINE = Path(engine.__file__).parent
ALLOWED_IMPORTS = {
    "__future__", "argparse", "array", "bisect", "collections", "copy", "dataclasses", "datetime",
    "decimal", "enum", "functools", "importlib", "itertools", "json", "math", "numpy",
    "pathlib", "random", "re", "sys", "tomllib", "typing",
    # hashlib: a draw's reshuffle orders the discards by a keyed hash of the deck (dealing.py);
    # lzma and mmap: the evaluator's Omaha tables, shipped compressed, read once.
    "hashlib", "lzma", "mmap",
}  # fmt: skip


def isort_style(name: str) -> tuple[int, str]:
    """ruff's order for ``__all__`` (RUF022): constants, then classes, then the rest."""
    return (0 if name.isupper() else 1 if name[:1].isupper() else 2, name)


def test_all_names_exist_and_are_sorted() -> None:
    assert engine.__all__ == sorted(engine.__all__, key=isort_style)
    for name in engine.__all__:
        assert getattr(engine, name) is not None


def test_public_api() -> None:
    assert set(engine.__all__) == {
        # cards, evaluation, equity
        "Card", "Rank", "Suit", "parse_cards", "parse_dice", "evaluate", "compare", "HandValue",
        "HandCategory", "Outcome", "rank7", "rank_batch", "rank_omaha_batch", "equity", "Equity",
        # games: every game as a value, and its hands named and compared
        "Game", "GAMES", "game", "game_from_dict", "DeckSpec", "rate", "contest", "Rating",
        # mixed games: rotations and each game's stakes at one level
        "MIXES", "Mix", "GameChange", "Rotation", "Stakes", "mix", "dealers_choice",
        "stakes_for", "stakes_for_blinds",
        # the table: configuration, actions in, events out, views
        "TableConfig", "AnteKind", "ButtonRule", "RuleProfile", "TABLE_OPTIONS", "Deck", "Table",
        "TableView", "SeatView", "PublicState",
        "Hand", "HandSetup", "Action", "ActionMenu", "Fold", "CheckOrCall", "BetOrRaiseTo",
        "BringIn", "Draw", "Event", "Street", "redact", "HandStarted", "ForcedBetPosted",
        "HoleCardsDealt", "UpCardsDealt", "CardsDrawn",
        "ActionTaken", "BoardDealt", "UncalledBetReturned", "CardsShown", "CardsMucked",
        "PotAwarded", "HandEnded", "PlayerSat", "PlayerStood", "PlayerSatOut", "PlayerSatIn",
        # table options: running it twice is asked like an action (docs/rules.md O5), the
        # 7-2 bounty, cards shown after the hand and the rabbit's cards are events
        "RunItTwice", "RunItTwiceAnswered", "BountyPaid", "CardsRevealed", "RabbitHunted",
        "BombPotStarted", "BoardDealtOnBoard", "PotAwardedOnBoard", "HandEndedOnBoards",
        # hand histories
        "history",
        # errors
        "EngineError", "InvalidCardError", "DuplicateCardError", "InvalidHandError",
        "InvalidConfigError", "InvalidActionError", "IllegalActionError", "SeatingError",
        "HistoryError", "UnsupportedHistoryError",
    }  # fmt: skip


def test_engine_imports_only_stdlib_and_numpy_without_io() -> None:
    """Sans-I/O: no asyncio, sockets, clocks or logging in engine/. ``random`` is allowed
    only as a type (Deck.shuffled takes an injected generator); the next test checks that."""
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                roots = {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                roots = {node.module.split(".")[0]}
            else:
                continue
            roots.discard("engine")
            assert roots <= ALLOWED_IMPORTS, f"{path.name} imports {roots - ALLOWED_IMPORTS}"


def test_engine_never_draws_randomness_itself() -> None:
    for path in ENGINE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for call in ("random.random(", "random.shuffle(", "random.randint(", "random.choice("):
            assert call not in text, f"{path.name} uses the global generator: {call}"
        assert "time.time(" not in text and "datetime.now(" not in text, path.name


def test_engine_does_not_pull_in_the_server() -> None:
    assert "server" not in {name.split(".")[0] for name in sys.modules if name.startswith("engine")}
    assert all(not ENGINE.joinpath(p).exists() for p in ("server", "asyncio"))
