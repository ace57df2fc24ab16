"""Storage failures told apart from bugs: a full disk, a read-only or unreachable database.

Such a failure is the server's state, not a fault of the request nor of the code: the API and the pages answer it
with a status and words saying what happened and who can fix it (507 for a full disk, 503 with Retry-After for a
database that is read-only or unreachable), and a run it stops ends failed with the same words. Everything else is
left alone (None): a bug stays a 500.

The words never hold the exception's own text (SQL, paths, a driver's message): the log has that.
"""
from __future__ import annotations

import errno
import sqlite3
from dataclasses import dataclass

import psycopg


@dataclass(frozen=True)
class StorageFailure:
    status: int                   # the HTTP status to answer with
    cause: str                    # what is wrong, in words: "the server's disk is full"
    advice: str                   # what to do about it
    retry_after_s: int | None = None
    unsaved: bool = True          # a write was refused: "nothing was saved" (False: the database is out of reach, maybe for a moment)

    @property
    def detail(self) -> str:
        """The answer to a request that failed this way."""
        return f"{self.cause}: nothing was saved; {self.advice}" if self.unsaved else f"{self.cause}; {self.advice}"

    @property
    def run_reason(self) -> str:
        """Why a run that failed this way ended: what it stored before is kept."""
        return f"the run could not store its progress ({self.cause}); what it stored before is kept; {self.advice}"


DISK_FULL = StorageFailure(507, "the server's disk is full", "ask the administrator to free space")
READ_ONLY = StorageFailure(503, "the database is read-only", "ask the administrator to make it writable again", 60)
DISK_READ_ONLY = StorageFailure(503, "the server's disk is read-only", "ask the administrator to make it writable again", 60)
DISK_ERROR = StorageFailure(503, "the server could not write to its disk", "ask the administrator to check the disk", 60)
UNAVAILABLE = StorageFailure(503, "the database is unavailable", "try again in a minute", 30, unsaved=False)

_ERRNOS = {errno.ENOSPC: DISK_FULL, errno.EDQUOT: DISK_FULL, errno.EROFS: DISK_READ_ONLY, errno.EIO: DISK_ERROR}

# SQLite's primary result codes (the low byte of an extended one), and the words of each for an error made
# without its code.
_SQLITE = {13: DISK_FULL, 8: READ_ONLY, 10: DISK_ERROR}  # SQLITE_FULL, SQLITE_READONLY, SQLITE_IOERR
_SQLITE_WORDS = {"database or disk is full": DISK_FULL, "attempt to write a readonly database": READ_ONLY,
                 "disk i/o error": DISK_ERROR}

# PostgreSQL's SQLSTATEs: disk_full, read_only_sql_transaction, too_many_connections, and the server shutting down
# or starting (admin_shutdown, crash_shutdown, cannot_connect_now). Class 08 (connection exception) is matched apart.
_SQLSTATES = {"53100": DISK_FULL, "25006": READ_ONLY, "53300": UNAVAILABLE,
              "57P01": UNAVAILABLE, "57P02": UNAVAILABLE, "57P03": UNAVAILABLE}


def storage_failure(exc: BaseException) -> StorageFailure | None:
    """The storage failure ``exc`` is, or was raised from (Django wraps a driver's error: ``__cause__``)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        found = _one(current)
        if found is not None:
            return found
        current = current.__cause__
    return None


def _one(exc: BaseException) -> StorageFailure | None:
    if isinstance(exc, OSError):
        return _ERRNOS.get(exc.errno) if exc.errno is not None else None
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", None)
        if isinstance(code, int) and (code & 0xFF) in _SQLITE:
            return _SQLITE[code & 0xFF]
        text = str(exc).lower()
        return next((failure for words, failure in _SQLITE_WORDS.items() if words in text), None)
    if isinstance(exc, psycopg.Error):
        state = exc.sqlstate
        if state is None:
            # Raised before any statement ran: the connection could not be made or was lost.
            return UNAVAILABLE if isinstance(exc, (psycopg.OperationalError, psycopg.InterfaceError)) else None
        return _SQLSTATES.get(state) or (UNAVAILABLE if state.startswith("08") else None)
    return None
