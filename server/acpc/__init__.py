"""A drop-in ACPC dealer: the Annual Computer Poker Competition's protocol 2.0.0 over TCP.

- :mod:`server.acpc.dealing`: the real dealer's MT19937 deal, card for card;
- :mod:`server.acpc.state`: its rules, ``STATE:``/``MATCHSTATE:`` text and values;
- :mod:`server.acpc.dealer`: the match over TCP (``pokerroom acpc dealer``).
"""

from __future__ import annotations

from server.acpc.dealing import MT19937, deal
from server.acpc.state import Action, HandState, format_value, parse_action

__all__ = ["MT19937", "Action", "HandState", "deal", "format_value", "parse_action"]
