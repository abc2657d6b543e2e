"""The fields pokerroom adds to a hand's PHH history, beside PHH's own.

``table`` and ``hand`` are PHH's (the hand's identity: its table and number); a field PHH
does not define starts with an underscore (pokerkit warns about any other unknown field).
The deck's commitment and its seed are how anyone checks the shuffle
(:mod:`server.fairness`, docs/fairness.md); the seed shows every card, so a history shown
to a player leaves it out (:mod:`server.export.seat`).
"""

from __future__ import annotations

__all__ = ["COMMITMENT_FIELD", "HAND_FIELD", "SEED_FIELD", "TABLE_FIELD"]

TABLE_FIELD = "table"
HAND_FIELD = "hand"
COMMITMENT_FIELD = "_deck_commitment"
SEED_FIELD = "_seed"
