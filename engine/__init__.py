"""pokerroom's rules engine: pure, synchronous, no I/O.

The public API is exactly ``__all__``; bots, tools and the server import from here.

>>> from engine import evaluate, compare
>>> str(evaluate("As Ks Qs Js Ts 2c 3d"))
'Royal Flush'
>>> compare("2H 2D AH KC 3D", "4H 4C JC TC 3H")
'LOSE'
"""

from engine import history
from engine.actions import Action, ActionMenu, BetOrRaiseTo, CheckOrCall, Fold
from engine.cards import Card, Rank, Suit, parse_cards
from engine.deck import Deck
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
from engine.evaluator import HandCategory, HandValue, Outcome, compare, evaluate, rank7, rank_batch
from engine.events import (
    ActionTaken,
    BoardDealt,
    CardsMucked,
    CardsShown,
    Event,
    ForcedBetPosted,
    HandEnded,
    HandStarted,
    HoleCardsDealt,
    PlayerSat,
    PlayerSatIn,
    PlayerSatOut,
    PlayerStood,
    PotAwarded,
    Street,
    UncalledBetReturned,
    redact,
)
from engine.hand import Hand, HandSetup
from engine.rules import AnteKind, ButtonRule, TableConfig
from engine.table import SeatView, Table, TableView

__all__ = [
    "Action",
    "ActionMenu",
    "ActionTaken",
    "AnteKind",
    "BetOrRaiseTo",
    "BoardDealt",
    "ButtonRule",
    "Card",
    "CardsMucked",
    "CardsShown",
    "CheckOrCall",
    "Deck",
    "DuplicateCardError",
    "EngineError",
    "Equity",
    "Event",
    "Fold",
    "ForcedBetPosted",
    "Hand",
    "HandCategory",
    "HandEnded",
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
    "Outcome",
    "PlayerSat",
    "PlayerSatIn",
    "PlayerSatOut",
    "PlayerStood",
    "PotAwarded",
    "Rank",
    "SeatView",
    "SeatingError",
    "Street",
    "Suit",
    "Table",
    "TableConfig",
    "TableView",
    "UncalledBetReturned",
    "UnsupportedHistoryError",
    "compare",
    "equity",
    "evaluate",
    "history",
    "parse_cards",
    "rank7",
    "rank_batch",
    "redact",
]
