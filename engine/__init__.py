"""pokerroom's rules engine: pure, synchronous, no I/O.

The public API is exactly ``__all__``; bots, tools and the server import from here.

>>> from engine import evaluate, compare, rate
>>> str(evaluate("As Ks Qs Js Ts 2c 3d"))
'Royal Flush'
>>> compare("2H 2D AH KC 3D", "4H 4C JC TC 3H")
'LOSE'
>>> rate("Ad 2d 7c 7s", "3s 4h 7d Kd 9s", game="plo8").describe()
'high: Three of a Kind, Sevens, King-Nine kickers; low: Seven-Four-Three-Two-Ace'

Every game the engine plays is a value of :class:`Game` (:data:`GAMES` has the presets,
:func:`game` finds one by key or PHH code); a :class:`TableConfig` names the one a table
plays. Defining a new game takes :mod:`engine.games` and :mod:`engine.ranking`.

Only the cards, the evaluator and equity load with the package: a command that names a
hand needs nothing else. The table, hands, events and histories load when first named
(PEP 562), so ``from engine import Table`` and ``engine.Table`` work as ever.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from engine.cards import Card, Rank, Suit, parse_cards, parse_dice

# Eager, not lazy, because ``equity`` names both a submodule and its function: importing
# the submodule binds ``engine.equity`` to the module, so the function must be bound
# after it, here, before anyone else can import ``engine.equity``.
from engine.equity import Equity, equity
from engine.errors import (
    DuplicateCardError,
    EngineError,
    HistoryError,
    IllegalActionError,
    InvalidActionError,
    InvalidCardError,
    InvalidConfigError,
    InvalidHandError,
    SeatingError,
    UnsupportedHistoryError,
)
from engine.evaluator import (
    HandCategory,
    HandValue,
    Outcome,
    compare,
    evaluate,
    rank7,
    rank_batch,
    rank_omaha_batch,
)

if TYPE_CHECKING:
    from engine import history
    from engine.actions import (
        Action,
        ActionMenu,
        BetOrRaiseTo,
        BringIn,
        CheckOrCall,
        Draw,
        Fold,
        RunItTwice,
    )
    from engine.deck import Deck, DeckSpec
    from engine.events import (
        ActionTaken,
        BoardDealt,
        BoardDealtOnBoard,
        BombPotStarted,
        BountyPaid,
        CardsDrawn,
        CardsMucked,
        CardsRevealed,
        CardsShown,
        Event,
        ForcedBetPosted,
        HandEnded,
        HandEndedOnBoards,
        HandStarted,
        HoleCardsDealt,
        PlayerSat,
        PlayerSatIn,
        PlayerSatOut,
        PlayerStood,
        PotAwarded,
        PotAwardedOnBoard,
        RabbitHunted,
        RunItTwiceAnswered,
        Street,
        UncalledBetReturned,
        UpCardsDealt,
        redact,
    )
    from engine.games import GAMES, Game, game, game_from_dict
    from engine.hand import Hand, HandSetup, PublicState
    from engine.mixed import (
        MIXES,
        GameChange,
        Mix,
        Rotation,
        Stakes,
        dealers_choice,
        mix,
        stakes_for,
        stakes_for_blinds,
    )
    from engine.rating import Rating, contest, rate
    from engine.rules import TABLE_OPTIONS, AnteKind, ButtonRule, RuleProfile, TableConfig
    from engine.table import SeatView, Table, TableView

# The modules that define the names loaded on first use (the imports above, which only
# type checkers see), searched in this order: a module's ``__all__`` says what it has.
_LAZY_MODULES = (
    "engine.actions", "engine.deck", "engine.events", "engine.games", "engine.rules",
    "engine.hand", "engine.table", "engine.rating", "engine.mixed",
)  # fmt: skip

# Defined for the interpreter only: a type checker that saw a module ``__getattr__``
# would take any misspelt ``engine.X`` for Any instead of naming the mistake.
if not TYPE_CHECKING:

    def __getattr__(name: str) -> Any:
        if name == "history":  # the submodule itself
            value = importlib.import_module("engine.history")
        elif name in __all__:
            modules = map(importlib.import_module, _LAZY_MODULES)
            value = next(getattr(m, name) for m in modules if name in m.__all__)
        else:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        globals()[name] = value  # once: later lookups find it and never come back here
        return value

    def __dir__() -> list[str]:
        return sorted({*globals(), *__all__})


__all__ = [
    "GAMES",
    "MIXES",
    "TABLE_OPTIONS",
    "Action",
    "ActionMenu",
    "ActionTaken",
    "AnteKind",
    "BetOrRaiseTo",
    "BoardDealt",
    "BoardDealtOnBoard",
    "BombPotStarted",
    "BountyPaid",
    "BringIn",
    "ButtonRule",
    "Card",
    "CardsDrawn",
    "CardsMucked",
    "CardsRevealed",
    "CardsShown",
    "CheckOrCall",
    "Deck",
    "DeckSpec",
    "Draw",
    "DuplicateCardError",
    "EngineError",
    "Equity",
    "Event",
    "Fold",
    "ForcedBetPosted",
    "Game",
    "GameChange",
    "Hand",
    "HandCategory",
    "HandEnded",
    "HandEndedOnBoards",
    "HandSetup",
    "HandStarted",
    "HandValue",
    "HistoryError",
    "HoleCardsDealt",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidCardError",
    "InvalidConfigError",
    "InvalidHandError",
    "Mix",
    "Outcome",
    "PlayerSat",
    "PlayerSatIn",
    "PlayerSatOut",
    "PlayerStood",
    "PotAwarded",
    "PotAwardedOnBoard",
    "PublicState",
    "RabbitHunted",
    "Rank",
    "Rating",
    "Rotation",
    "RuleProfile",
    "RunItTwice",
    "RunItTwiceAnswered",
    "SeatView",
    "SeatingError",
    "Stakes",
    "Street",
    "Suit",
    "Table",
    "TableConfig",
    "TableView",
    "UncalledBetReturned",
    "UnsupportedHistoryError",
    "UpCardsDealt",
    "compare",
    "contest",
    "dealers_choice",
    "equity",
    "evaluate",
    "game",
    "game_from_dict",
    "history",
    "mix",
    "parse_cards",
    "parse_dice",
    "rank7",
    "rank_batch",
    "rank_omaha_batch",
    "rate",
    "redact",
    "stakes_for",
    "stakes_for_blinds",
]
