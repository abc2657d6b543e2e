"""pokerroom's rules engine: pure, synchronous, no I/O.

The public API is exactly ``__all__``; bots, tools and the server import from here.

>>> from engine import evaluate, compare
>>> str(evaluate("As Ks Qs Js Ts 2c 3d"))
'Royal Flush'
>>> compare("2H 2D AH KC 3D", "4H 4C JC TC 3H")
'LOSE'
"""

from engine.cards import Card, Rank, Suit, parse_cards
from engine.equity import Equity, equity
from engine.errors import DuplicateCardError, EngineError, InvalidCardError, InvalidHandError
from engine.evaluator import HandCategory, HandValue, Outcome, compare, evaluate, rank7, rank_batch

__all__ = [
    "Card",
    "DuplicateCardError",
    "EngineError",
    "Equity",
    "HandCategory",
    "HandValue",
    "InvalidCardError",
    "InvalidHandError",
    "Outcome",
    "Rank",
    "Suit",
    "compare",
    "equity",
    "evaluate",
    "parse_cards",
    "rank7",
    "rank_batch",
]
