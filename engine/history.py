"""Hand histories: PHH (the Poker Hand History format, phh.readthedocs.io) and replay.

The public face of :mod:`engine.phh` (reading, writing and redacting PHH, for every game
:mod:`engine.games` plays) and :mod:`engine.replay` (playing a history through our
engine and comparing it with the recorded result).

>>> text = '''
... variant = "NT"
... antes = [0, 0, 0]
... blinds_or_straddles = [5, 10, 0]
... min_bet = 10
... starting_stacks = [100, 100, 100]
... actions = ["d dh p1 AcAd", "d dh p2 KcKd", "d dh p3 2c7d", "p3 f", "p1 cbr 30", "p2 f"]
... finishing_stacks = [110, 90, 100]
... '''
>>> check(load(text)).status
'match'
"""

from __future__ import annotations

from engine.phh import (
    AFTER_FIELD,
    BOARDS_FIELD,
    BOMB_POT_FIELD,
    GAME_FIELD,
    RUN_IT_TWICE_FIELD,
    SEVEN_DEUCE_FIELD,
    STRADDLE_FIELD,
    HandHistory,
    Number,
    Status,
    dump,
    dump_all,
    from_hand,
    load,
    load_all,
    redact,
)
from engine.replay import Replay, ReplayResult, check, replay

__all__ = [
    "AFTER_FIELD",
    "BOARDS_FIELD",
    "BOMB_POT_FIELD",
    "GAME_FIELD",
    "RUN_IT_TWICE_FIELD",
    "SEVEN_DEUCE_FIELD",
    "STRADDLE_FIELD",
    "HandHistory",
    "Number",
    "Replay",
    "ReplayResult",
    "Status",
    "check",
    "dump",
    "dump_all",
    "from_hand",
    "load",
    "load_all",
    "redact",
    "replay",
]
