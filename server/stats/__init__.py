"""Statistics over stored hands: all-in adjusted winnings and per-player statistics.

Pure functions over replayed hands, no I/O: the caller brings the hands (from the store,
``Store.hand_info``, or from PHH files). Definitions: docs/statistics.md.

>>> from engine import history
>>> hh = history.load('''
... variant = "NT"
... antes = [0, 0]
... blinds_or_straddles = [50, 100]
... min_bet = 100
... starting_stacks = [1000, 1000]
... actions = ["d dh p1 AsAh", "d dh p2 KsKh", "p2 cbr 1000", "p1 cc", "d db 2c7d9h",
...            "d db Kd", "d db 3c"]
... ''')
>>> hand = facts_of_history(hh, ["ann", "bob"])
>>> [(p.name, p.net) for p in hand.players]
[('ann', -1000), ('bob', 1000)]
>>> [(p.name, round(float(p.adjusted), 1)) for p in hand.players]
[('ann', 652.7), ('bob', -652.7)]
"""

from server.stats.hands import (
    Adjustment,
    HandFacts,
    PlayerFacts,
    facts,
    facts_of_hand,
    facts_of_history,
    facts_of_info,
)
from server.stats.players import Interval, PlayerStats, player_stats, win_rate

__all__ = [
    "Adjustment",
    "HandFacts",
    "Interval",
    "PlayerFacts",
    "PlayerStats",
    "facts",
    "facts_of_hand",
    "facts_of_history",
    "facts_of_info",
    "player_stats",
    "win_rate",
]
