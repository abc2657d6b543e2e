"""Errors raised by the rules engine.

One root, so callers can catch everything the engine rejects::

    EngineError
     ├── InvalidCardError        a card token that is not a card
     │    └── DuplicateCardError a card given twice where cards must be distinct
     ├── InvalidHandError        a well-formed set of cards that cannot be evaluated
     │                           (too few cards, wrong shape of a batch, ...)
     ├── InvalidConfigError      a table configuration that breaks the rules
     ├── InvalidActionError      an action that is malformed whatever the state
     │                           (not an action, an amount that is not an int)
     ├── IllegalActionError      a well-formed action the rules do not allow now
     │                           (not your turn, a raise below the minimum, ...)
     ├── SeatingError            sitting down, standing up or sitting out when the
     │                           rules do not allow it (seat taken, hand running, ...)
     └── HistoryError            a hand history that cannot be read or replayed
          └── UnsupportedHistoryError  a history of a game the engine does not play

Messages are lowercase, without a final period, and quote values with ``!r``.
"""

from __future__ import annotations


class EngineError(Exception):
    """Root of every error the engine raises."""


class InvalidCardError(EngineError, ValueError):
    """A token that does not name a card, e.g. ``'Xs'`` or ``'1h'``."""


class DuplicateCardError(InvalidCardError):
    """The same card appears twice where all cards must be distinct."""


class InvalidHandError(EngineError, ValueError):
    """Cards that are valid one by one but cannot form what was asked for."""


class InvalidConfigError(EngineError, ValueError):
    """A :class:`~engine.rules.TableConfig` whose values break the rules (e.g. 11 seats)."""


class InvalidActionError(EngineError, ValueError):
    """An action that is malformed whatever the state of the table."""


class IllegalActionError(EngineError):
    """A well-formed action that the rules do not allow at this moment.

    The table is left exactly as it was.
    """


class SeatingError(EngineError):
    """A seating change the table cannot make now (seat taken, buy-in out of range, ...)."""


class HistoryError(EngineError, ValueError):
    """A hand history that cannot be read, or whose actions our engine cannot replay."""


class UnsupportedHistoryError(HistoryError):
    """A well-formed history of something the engine does not play (another variant)."""
