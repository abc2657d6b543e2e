"""A stored hand as PHH, and the fields pokerroom adds to a hand's PHH history.

The PHH export is the stored history itself (:func:`render`), for every game the engine
plays: ``variant`` is the PHH code where PHH has one, else ours with a ``_game`` field
naming the preset (docs/engine.md). pokerkit loads our PHH of every game it plays and
replays it to our final stacks (tests/server/test_export_games.py).

``table`` and ``hand`` are PHH's (the hand's identity: its table and number); a field PHH
does not define starts with an underscore (pokerkit warns about any other unknown field).
The deck's commitment and its seed are how anyone checks the shuffle
(:mod:`server.fairness`, docs/fairness.md); the seed shows every card, so a history shown
to a player leaves it out (:mod:`server.export.seat`).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import history
from server.export import HandInfo

__all__ = ["COMMITMENT_FIELD", "HAND_FIELD", "SEED_FIELD", "TABLE_FIELD", "render", "render_all"]

TABLE_FIELD = "table"
HAND_FIELD = "hand"
COMMITMENT_FIELD = "_deck_commitment"
SEED_FIELD = "_seed"


def render(info: HandInfo) -> str:
    """One hand as a ``.phh`` file: its stored history, whatever the game."""
    return history.dump(info.history)


def render_all(infos: Sequence[HandInfo]) -> str:
    """Several hands as a ``.phhs`` file (tables ``[1]``, ``[2]``, ...)."""
    return history.dump_all(info.history for info in infos)
