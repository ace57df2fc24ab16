"""Domain errors every layer may raise; the API maps each to its HTTP status once (designer/errors.py)."""
from __future__ import annotations

from collections.abc import Callable


class BadRequest(Exception):
    """The request is wrong in a way its message names (400 unless ``status`` says otherwise)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status

    def __reduce__(self) -> tuple[type[BadRequest], tuple[str, int]]:  # raised in worker processes (common.offload) and pickled back
        return (type(self), (str(self), self.status))


class Forbidden(Exception):
    """The caller can see the thing but their role does not allow this action (403)."""


class LimitReached(Exception):
    """A workspace limit is used up (429): says which limit, and when it frees up."""

    def __init__(self, message: str, *, limit: str, retry_after_s: int | None = None) -> None:
        super().__init__(message)
        self.limit = limit
        self.retry_after_s = retry_after_s

    def __reduce__(self) -> tuple[Callable[[str, str, int | None], LimitReached], tuple[str, str, int | None]]:
        return (_limit_reached, (str(self), self.limit, self.retry_after_s))


def _limit_reached(message: str, limit: str, retry_after_s: int | None) -> LimitReached:
    return LimitReached(message, limit=limit, retry_after_s=retry_after_s)
