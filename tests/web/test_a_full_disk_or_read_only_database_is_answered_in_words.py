"""A full disk or a read-only database answers 507/503 in words, never a bare 500, and what was saved stays.

The database is made read-only or full by SQLite itself, on the connection the requests use: ``PRAGMA query_only``
refuses every write ("attempt to write a readonly database") and ``PRAGMA max_page_count`` set to the pages already
used makes any write that needs a new page fail as a full disk would ("database or disk is full"). A chmod would
not do: the suite may run as root, whom file modes do not stop. Both pragmas hold for one connection only; it is
closed at the end of each test, which gives the next one a writable database again.
"""
from __future__ import annotations

import errno
import html
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection
from django.test import Client

from designer.models import Workflow
from tests.support.api_calls import post

pytestmark = pytest.mark.django_db(transaction=True)

FLOW = {"name": "kept", "description": "Saved before the disk filled.", "steps": [{"id": "a", "instructions": "Write."}]}


@contextmanager
def sqlite_pragma(*statements: str) -> Iterator[None]:
    connection.ensure_connection()
    try:
        with connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)
        yield
    finally:
        connection.close()  # the pragmas go with the connection


def read_only() -> Any:
    return sqlite_pragma("PRAGMA query_only = ON")


def full() -> Any:
    with connection.cursor() as cursor:
        # Free pages left by earlier tests' flushes would take a write without growing the file: none left.
        cursor.execute("VACUUM")
        cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages = cursor.execute("PRAGMA page_count").fetchone()[0]
    return sqlite_pragma(f"PRAGMA max_page_count = {pages}")


@contextmanager
def writes_raise(exc: Callable[[], BaseException]) -> Iterator[None]:
    """Every INSERT, UPDATE or DELETE raises ``exc()`` where the query would reach the database."""
    def refuse(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        if sql.lstrip().split(None, 1)[0].upper() in ("INSERT", "UPDATE", "DELETE"):
            raise exc()
        return execute(sql, params, many, context)

    with connection.execute_wrapper(refuse):
        yield


def big_flow() -> dict:
    # Larger than a page, many times over: it needs new pages wherever it goes.
    return {**FLOW, "name": "new", "description": "x" * 200_000}


@pytest.fixture
def client_500s() -> Client:
    """A client that answers as the server would, instead of raising the view's exception into the test."""
    return Client(raise_request_exception=False)


@pytest.fixture
def signed_in(client_500s: Client, owner: Any) -> Client:
    client_500s.force_login(owner)
    return client_500s


@pytest.fixture
def kept(signed_in: Client) -> int:
    created = post(signed_in, "/api/v1/workflows", {"document": FLOW})
    assert created.status_code == 201, created.content
    return int(created.json()["id"])


def assert_still_there(client: Client, workflow_id: int) -> None:
    again = client.get(f"/api/v1/workflows/{workflow_id}")
    assert again.status_code == 200, again.content
    assert again.json()["document"]["description"] == FLOW["description"]
    assert Workflow.objects.count() == 1


def assert_no_leak(text: str) -> None:
    for leak in ("Traceback", "INSERT", "UPDATE", "sqlite", "OperationalError", "internal error"):
        assert leak not in text


def test_saving_a_workflow_in_a_read_only_database_answers_503_in_words(signed_in, kept):
    with read_only():
        answer = post(signed_in, "/api/v1/workflows", {"document": big_flow()})
    assert answer.status_code == 503, answer.content
    assert answer.json() == {"detail": "the database is read-only: nothing was saved; ask the administrator to make it "
                                       "writable again"}
    assert answer["Retry-After"] == "60"
    assert_no_leak(answer.content.decode())
    assert_still_there(signed_in, kept)


def test_saving_a_workflow_in_a_full_database_answers_507_in_words(signed_in, kept):
    with full():
        answer = post(signed_in, "/api/v1/workflows", {"document": big_flow()})
    assert answer.status_code == 507, answer.content
    assert answer.json() == {"detail": "the server's disk is full: nothing was saved; ask the administrator to free space"}
    assert_no_leak(answer.content.decode())
    assert_still_there(signed_in, kept)


def test_a_disk_full_os_error_under_a_save_answers_507(signed_in, kept):
    with writes_raise(lambda: OSError(errno.ENOSPC, "No space left on device")):
        answer = post(signed_in, "/api/v1/workflows", {"document": big_flow()})
    assert answer.status_code == 507, answer.content
    assert answer.json()["detail"].startswith("the server's disk is full: nothing was saved")
    assert_still_there(signed_in, kept)


def test_signing_in_to_a_read_only_database_answers_a_page_in_words(client_500s, owner, django_user_model):
    with read_only():
        answer = client_500s.post("/login/", {"username": "owner", "password": "owner-pass-123"})
    assert answer.status_code == 503
    assert answer["Content-Type"].startswith("text/html")
    assert answer["Retry-After"] == "60"
    page = html.unescape(answer.content.decode())
    assert "the database is read-only: nothing was saved; ask the administrator to make it writable again" in page
    assert "Storage unavailable" in page
    assert_no_leak(page)
    assert django_user_model.objects.filter(username="owner").exists()


def test_signing_in_on_a_full_disk_answers_a_page_in_words(client_500s, owner):
    # A sign-in's few rows fit in pages the database already has free: the full disk is the operating system's.
    with writes_raise(lambda: OSError(errno.ENOSPC, "No space left on device")):
        answer = client_500s.post("/login/", {"username": "owner", "password": "owner-pass-123"})
    assert answer.status_code == 507
    page = html.unescape(answer.content.decode())
    assert "Disk full" in page
    assert "the server's disk is full: nothing was saved; ask the administrator to free space" in page
    assert_no_leak(page)


def test_a_bug_is_still_a_500(signed_in, kept):
    # What is not a storage failure is not dressed up as one.
    with writes_raise(lambda: OSError(errno.EACCES, "Permission denied")):
        answer = post(signed_in, "/api/v1/workflows", {"document": big_flow()})
    assert answer.status_code == 500
    assert answer.json() == {"detail": "internal error; it has been logged"}
