"""Errors raised by the rules engine.

One root, so callers can catch everything the engine rejects::

    EngineError
     ├── InvalidCardError        a card token that is not a card
     │    └── DuplicateCardError a card given twice where cards must be distinct
     └── InvalidHandError        a well-formed set of cards that cannot be evaluated
                                 (too few cards, wrong shape of a batch, ...)

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
