"""The Slumbot-style API's one exception: what a request got wrong, and its HTTP status.

``ApiError``: every refusal (a malformed body, an unknown token, an illegal ``incr``, too
many sessions). Its message goes to the client as ``{"error_msg": message}`` with
``status``; nothing else in the server sees it.
"""

from __future__ import annotations

__all__ = ["ApiError"]


class ApiError(Exception):
    """A request the API refuses; ``str(error)`` is the ``error_msg`` the client gets."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status
