"""A drop-in ACPC dealer, and a player for our bots: the Annual Computer Poker
Competition's protocol 2.0.0 over TCP.

- :mod:`server.acpc.dealing`: the real dealer's MT19937 deal, card for card;
- :mod:`server.acpc.state`: its rules, ``STATE:``/``MATCHSTATE:`` text and values;
- :mod:`server.acpc.dealer`: the match over TCP (``pokerroom acpc dealer``);
- :mod:`server.acpc.client`: any of our bots at any ACPC dealer (``pokerroom acpc play``).

The dealer plays by a port of the ACPC dealer's own rules code (``state.py``), not by
the engine: a log must match the real dealer's byte for byte, its fractional pot splits
included. Our tables play ACPC games by the engine's ACPC rule profile
(``engine.RuleProfile.ACPC``), and the client checks the two agree on every turn.
"""

from __future__ import annotations

from server.acpc.dealing import MT19937, deal
from server.acpc.state import Action, HandState, format_value, parse_action

__all__ = ["MT19937", "Action", "HandState", "deal", "format_value", "parse_action"]
