"""common.storage_errors: which exceptions are a full disk, a read-only or an unreachable database, and which are not.

SQLite's errors are real ones, made by SQLite on an in-memory database; PostgreSQL's are psycopg's own classes for
each SQLSTATE, wrapped the way Django wraps a driver's error.
"""
from __future__ import annotations

import errno
import sqlite3

import django.db
import psycopg
import pytest
from psycopg import errors as pg

from common.storage_errors import DISK_ERROR, DISK_FULL, DISK_READ_ONLY, READ_ONLY, UNAVAILABLE, storage_failure


def sqlite_error(*pragmas: str) -> sqlite3.Error:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE t (x TEXT)")
    for pragma in pragmas:
        db.execute(pragma)
    try:
        db.execute("INSERT INTO t VALUES (?)", ("x" * 100_000,))
    except sqlite3.Error as exc:
        return exc
    finally:
        db.close()
    raise AssertionError("the write went through")


def wrapped(driver_error: BaseException) -> BaseException:
    """The error as Django raises it: its own class, raised from the driver's."""
    try:
        try:
            raise driver_error
        except BaseException as exc:
            raise django.db.OperationalError(*getattr(exc, "args", ())) from exc
    except django.db.OperationalError as django_error:
        return django_error


def test_real_sqlite_errors_are_classified_by_their_code():
    assert storage_failure(sqlite_error("PRAGMA query_only = ON")) is READ_ONLY
    assert storage_failure(sqlite_error("PRAGMA max_page_count = 2")) is DISK_FULL
    assert storage_failure(wrapped(sqlite_error("PRAGMA query_only = ON"))) is READ_ONLY


@pytest.mark.parametrize("words, failure", [("attempt to write a readonly database", READ_ONLY),
                                            ("database or disk is full", DISK_FULL), ("disk I/O error", DISK_ERROR)])
def test_sqlite_errors_without_a_code_are_classified_by_their_words(words, failure):
    assert storage_failure(sqlite3.OperationalError(words)) is failure
    assert storage_failure(wrapped(sqlite3.OperationalError(words))) is failure


@pytest.mark.parametrize("number, failure", [(errno.ENOSPC, DISK_FULL), (errno.EDQUOT, DISK_FULL),
                                             (errno.EROFS, DISK_READ_ONLY), (errno.EIO, DISK_ERROR)])
def test_os_errors_of_a_full_or_failing_disk(number, failure):
    assert storage_failure(OSError(number, "x")) is failure


@pytest.mark.parametrize("error, failure", [(pg.DiskFull("no space"), DISK_FULL),
                                            (pg.ReadOnlySqlTransaction("read-only"), READ_ONLY),
                                            (pg.TooManyConnections("too many"), UNAVAILABLE),
                                            (pg.AdminShutdown("shutting down"), UNAVAILABLE),
                                            (pg.CannotConnectNow("starting up"), UNAVAILABLE),
                                            (psycopg.OperationalError("connection failed: refused"), UNAVAILABLE)])
def test_postgresql_errors_by_their_sqlstate(error, failure):
    assert storage_failure(wrapped(error)) is failure


@pytest.mark.parametrize("error", [OSError(errno.EACCES, "denied"), FileNotFoundError(errno.ENOENT, "gone"), OSError("no errno"),
                                   ConnectionRefusedError(errno.ECONNREFUSED, "a provider is down"),
                                   sqlite3.OperationalError("no such table: t"), sqlite3.IntegrityError("UNIQUE constraint failed"),
                                   pg.UniqueViolation("duplicate"), pg.SyntaxError("syntax"), KeyError("bug"),
                                   django.db.OperationalError("database is locked")])
def test_everything_else_is_not_a_storage_failure(error):
    assert storage_failure(error) is None
    assert storage_failure(wrapped(error)) is None


def test_a_bug_raised_while_handling_a_full_disk_is_still_a_bug():
    # Only what an error was raised *from* counts; an error raised while handling one (its __context__) is its own.
    try:
        try:
            raise OSError(errno.ENOSPC, "full")
        except OSError:
            raise KeyError("bug")  # noqa: B904
    except KeyError as exc:
        assert storage_failure(exc) is None


def test_the_words_say_what_happened_and_what_to_do():
    assert DISK_FULL.status == 507
    assert DISK_FULL.detail == "the server's disk is full: nothing was saved; ask the administrator to free space"
    assert (READ_ONLY.status, READ_ONLY.retry_after_s) == (503, 60)
    assert UNAVAILABLE.detail == "the database is unavailable; try again in a minute"
    assert DISK_FULL.run_reason == ("the run could not store its progress (the server's disk is full); what it stored before "
                                    "is kept; ask the administrator to free space")
