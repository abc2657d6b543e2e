"""A drop-in ACPC dealer, and a player for our bots: the Annual Computer Poker
Competition's protocol 2.0.0 over TCP.

- :mod:`server.acpc.dealing`: the real dealer's MT19937 deal, card for card;
- :mod:`server.acpc.state`: its rules, ``STATE:``/``MATCHSTATE:`` text and values;
- :mod:`server.acpc.dealer`: the match over TCP (``pokerroom acpc dealer``);
- :mod:`server.acpc.client`: any of our bots at any ACPC dealer (``pokerroom acpc play``);
- :mod:`server.acpc.gateway`: an ACPC bot at an ordinary table or in a tournament, through
  a seat exposed as an ACPC port (``pokerroom acpc gateway``): :mod:`~server.acpc.gamedefs`
  (the table's game as a gamedef, or why ACPC cannot express it), :mod:`~server.acpc.seat`
  (the seat's events as ``MATCHSTATE`` lines, the bot's replies as our actions, without
  I/O), :mod:`~server.acpc.bridge` (the bot's TCP connection) and
  :mod:`~server.acpc.sessions` (the bot SDK's clients at the server).

The dealer plays by a port of the ACPC dealer's own rules code (``state.py``), not by
the engine: a log must match the real dealer's byte for byte, its fractional pot splits
included. Our tables play ACPC games by the engine's ACPC rule profile
(``engine.RuleProfile.ACPC``), and the client checks the two agree on every turn. The
gateway replays each hand of an ordinary table on the dealer's rules too, for the betting
string and who is to act; our table's menu has the last word on what is played.
"""

from __future__ import annotations

from server.acpc.dealing import MT19937, deal
from server.acpc.state import Action, HandState, format_value, parse_action

__all__ = ["MT19937", "Action", "HandState", "deal", "format_value", "parse_action"]
