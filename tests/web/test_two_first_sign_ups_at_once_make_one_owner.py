"""Two people signing up on a fresh install at the same moment: exactly one becomes the owner (superuser); the
other is judged as a second account would be (SIGNUP=invite: refused, nothing saved). On the test run's
database with both requests held until each has been told "first", and on a real PostgreSQL server."""
from __future__ import annotations

import re
import threading

import httpx
import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

from accounts import signup as signup_view
from accounts.models import AuditEntry
from tests.support.servers import base_env, fresh_postgres, manage, running_server

PASSWORD = "a-long-pass-phrase-9"
DEADLINE_S = 60


def signed_up_together(sign_up, names: list[str]) -> list:
    answers: dict[str, object] = {}
    errors: list[BaseException] = []

    def one(name: str) -> None:
        try:
            answers[name] = sign_up(name)
        except BaseException as exc:  # reported below, in the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=one, args=(name,)) for name in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(DEADLINE_S)
    assert not any(t.is_alive() for t in threads), "a sign-up did not finish within the deadline"
    assert not errors, errors
    return [answers[name] for name in names]


def hold_until_both_were_told_first(monkeypatch) -> None:
    """Each request's first pass waits, after the view has asked "first user?", until the other's has asked too."""
    both_told_first = threading.Barrier(2, timeout=DEADLINE_S)
    passed = threading.local()
    checked = signup_view.address_locked

    def held(request):
        if not getattr(passed, "once", False):  # a request judged anew (the later one) is not held again
            passed.once = True
            both_told_first.wait()
        return checked(request)

    monkeypatch.setattr(signup_view, "address_locked", held)


def sign_up_here(name: str):
    try:
        return Client().post("/signup/", {"username": name, "password1": PASSWORD, "password2": PASSWORD})
    finally:
        connection.close()  # this thread's own connection


@pytest.mark.django_db(transaction=True)
def test_two_first_sign_ups_held_until_both_were_told_first_make_exactly_one_owner(monkeypatch, settings):
    settings.SIGNUP = "invite"
    hold_until_both_were_told_first(monkeypatch)
    answers = signed_up_together(sign_up_here, ["ann", "bob"])
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [302, 403], [(a.status_code, a.content[:300]) for a in answers]
    users = get_user_model().objects.all()
    assert [(u.username, u.is_superuser, u.is_staff) for u in users] == [(users[0].username, True, True)]
    refused = answers[0] if answers[0].status_code == 403 else answers[1]
    assert b"needs an invitation link" in refused.content
    assert AuditEntry.objects.filter(action="signed_up").count() == 1
    assert not AccessAttempt.objects.exists()  # losing the race is no failed guess counted against the address


@pytest.mark.django_db(transaction=True)
def test_the_later_of_two_first_sign_ups_joins_as_an_ordinary_account_when_signup_is_open(monkeypatch, settings):
    settings.SIGNUP = "open"
    hold_until_both_were_told_first(monkeypatch)
    answers = signed_up_together(sign_up_here, ["ann", "bob"])
    assert [a.status_code for a in answers] == [302, 302]
    assert sorted(get_user_model().objects.values_list("is_superuser", flat=True)) == [False, True]


def _csrf(client: httpx.Client) -> str:
    page = client.get("/signup/")
    assert page.status_code == 200, page.text[:300]
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
    assert found, page.text[:300]
    return found.group(1)


def test_on_postgresql_four_first_sign_ups_at_once_make_exactly_one_owner():
    names = ["ann", "bob", "cat", "dan"]
    with fresh_postgres() as database_url, running_server(base_env(DATABASE_URL=database_url, SIGNUP="invite"), users=()) as server:
        clients = {name: httpx.Client(base_url=server.url, timeout=DEADLINE_S) for name in names}
        tokens = {name: _csrf(client) for name, client in clients.items()}  # every page says "owner account"
        go = threading.Barrier(len(names), timeout=DEADLINE_S)

        def sign_up(name: str):
            go.wait()
            return clients[name].post("/signup/", data={"username": name, "password1": PASSWORD,
                                                        "password2": PASSWORD,
                                                        "csrfmiddlewaretoken": tokens[name]})

        try:
            answers = signed_up_together(sign_up, names)
        finally:
            for client in clients.values():
                client.close()
        listed = manage(server.env, "shell", "-v", "0", "-c", "from django.contrib.auth import get_user_model; "
                        "print(list(get_user_model().objects.values_list('username', 'is_superuser')))")
        log = server.log.read_text()
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [302, 403, 403, 403], log[-4000:]
    owner = names[[a.status_code for a in answers].index(302)]
    assert listed.strip() == repr([(owner, True)])
