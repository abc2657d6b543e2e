"""The Slumbot-style API's one exception: what a request got wrong, and its HTTP status.

``ApiError``: every refusal (a malformed body, an unknown token, an illegal ``incr``, a
limit). Its message goes to the client as ``{"error_msg": message}`` with ``status``
(and a ``Retry-After`` header when ``retry_after`` is set); nothing else in the server
sees it.
"""

from __future__ import annotations

__all__ = ["ApiError"]


class ApiError(Exception):
    """A request the API refuses; ``str(error)`` is the ``error_msg`` the client gets,
    ``retry_after`` the seconds it should wait before trying again, if it should."""

    def __init__(self, message: str, status: int = 400, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after
