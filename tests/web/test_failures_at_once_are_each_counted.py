"""Failures that come at once are each counted, in one record per client, and never answer 500.

Axes records a failure by looking its record up and creating it when there is none. Two failures at once
can both find none; the second create must then fail on the table's unique (username, address, agent)
and be counted in the first one's record. On PostgreSQL that is what simultaneous wrong tokens do
(tests/live/test_failed_sign_ins_race_on_postgresql.py). On the test database here they cannot
interleave (SQLite, and each transaction takes its write lock as it begins: transaction_mode IMMEDIATE),
so each failure below looks up as if another's record were still being written: it finds none, whatever
is there. A failure counted for its address alone (a wrong API
token, a failed sign-up) once had no username; NULLs are never equal, so every such create succeeded, the
address had several records, and the next failure's look-up found more than one and answered 500.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

import pytest
from axes.models import AccessAttempt
from django.conf import settings as django_settings
from django.db.models.query import QuerySet
from django.test import Client

LIMIT = django_settings.LOGIN_FAILURE_LIMIT


@pytest.fixture(autouse=True)
def fast_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def at_once(monkeypatch) -> Callable[[], AbstractContextManager[None]]:
    """``with at_once():`` each failure's first look-up for its record finds none, as when the record of
    another failure is not yet committed; a look-up again (after a create that collided) sees what is there."""
    real_get = QuerySet.get
    blind = False

    def get(self, *args, **kwargs):
        if blind and self.model is AccessAttempt and self.query.select_for_update and not getattr(self, "looked", False):
            self.looked = True  # get_or_create looks up again on this same queryset after a collision
            raise AccessAttempt.DoesNotExist
        return real_get(self, *args, **kwargs)

    monkeypatch.setattr(QuerySet, "get", get)

    @contextmanager
    def failures_at_once() -> Iterator[None]:
        nonlocal blind
        blind = True
        try:
            yield
        finally:
            blind = False

    return failures_at_once


def wrong_token(client: Client, i: int):
    return client.get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer ld_guess{i}")


def failures_from(address: str | None) -> int:
    return sum(AccessAttempt.objects.filter(ip_address=address).values_list("failures_since_start", flat=True))


@pytest.mark.parametrize("address", ["10.0.0.50", None], ids=["an address", "no address"])
def test_wrong_tokens_at_once_are_each_counted_in_one_record(owner, owner_token, at_once, address):
    # No address at all: a websocket reaching daphne over a Unix socket has none.
    client = Client(REMOTE_ADDR=address, raise_request_exception=False)
    with at_once():
        answers = [wrong_token(client, i) for i in range(LIMIT - 1)]
    assert [a.status_code for a in answers] == [401] * (LIMIT - 1)

    # Every failure counted and none twice: the right token still gets in, the next failure locks, and the
    # look-ups after it find one record.
    assert client.get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {owner_token}").json() == {"username": "owner"}
    assert wrong_token(client, LIMIT).status_code == 429
    refused = client.get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {owner_token}")
    assert refused.status_code == 429 and 870 <= int(refused["Retry-After"]) <= 900
    assert AccessAttempt.objects.count() == 1
    assert failures_from(AccessAttempt.objects.get().ip_address) == LIMIT


def test_wrong_tokens_failed_sign_ups_and_sign_ins_at_once_share_the_address_count(owner, owner_token, at_once, settings):
    settings.SIGNUP = "open"
    client = Client(REMOTE_ADDR="10.0.0.51", raise_request_exception=False)
    taken = {"username": "owner", "password1": "a-long-password-1", "password2": "a-long-password-1"}
    ways = [lambda i: wrong_token(client, i), lambda i: client.post("/signup/", taken),
            lambda i: client.post("/login/", {"username": "nobody", "password": "wrong"})]
    with at_once():
        answers = [ways[i % 3](i) for i in range(LIMIT - 1)]
    assert [a.status_code for a in answers] == [[401, 200, 200][i % 3] for i in range(LIMIT - 1)]

    assert client.get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {owner_token}").status_code == 200
    assert client.post("/signup/", taken).status_code == 429
    assert client.post("/login/", {"username": "owner", "password": "owner-pass-123"}).status_code == 429
    assert wrong_token(client, LIMIT).status_code == 429
    assert AccessAttempt.objects.count() == 2  # the address's own record, and the one of "nobody" there
    assert failures_from("10.0.0.51") == LIMIT
