"""Guessing is limited: after LOGIN_FAILURE_LIMIT (10) failed sign-ins for one username, or from one
address, within LOGIN_COOLOFF_MINUTES (15), further tries are refused with 429 and how long to wait,
even with the right password, until the window has passed. A successful sign-in forgets that
username's failures. Failed sign-ups and wrong API tokens (over HTTP or a websocket) count for their
address; a locked-out address gets 429 JSON with Retry-After from the API, even for a valid token.
The address is REMOTE_ADDR unless TRUSTED_PROXIES says whose X-Forwarded-For to believe.
"""
from __future__ import annotations

from datetime import timedelta

import httpx
import pytest
from axes.models import AccessAttempt
from django.test import Client
from ninja.conf import settings as ninja_settings
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.support.servers import base_env, fresh_postgres, running_server

WRONG = "not-the-password"
LOCKED_OUT = "Too many failed sign-in attempts. Try again in 15 minutes."


@pytest.fixture(autouse=True)
def fast_hashing(settings):
    # Hundreds of password checks here; the count is what is tested, not the hash.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def sign_in(client: Client, username: str, password: str, **extra):
    return client.post("/login/", {"username": username, "password": password}, **extra)


def fail(client: Client, times: int, username: str = "owner", **extra):
    return [sign_in(client, username, WRONG, **extra) for _ in range(times)]


def signed_in_as(client: Client) -> str | None:
    me = client.get("/api/v1/me")
    return me.json()["username"] if me.status_code == 200 else None


def window_passes() -> None:
    """Moves every recorded failure back past the cool-off, as if 16 minutes had gone by."""
    for attempt in AccessAttempt.objects.all():
        attempt.attempt_time -= timedelta(minutes=16)
        attempt.save(update_fields=["attempt_time"])


def test_ten_failures_lock_the_username_and_then_even_the_right_password_is_refused(client, owner):
    first_nine = fail(client, 9)
    assert [r.status_code for r in first_nine] == [200] * 9
    assert "did not match" in first_nine[-1].content.decode()

    tenth = sign_in(client, "owner", WRONG)
    assert tenth.status_code == 429
    right = sign_in(client, "owner", "owner-pass-123")
    assert right.status_code == 429
    page = right.content.decode()
    assert LOCKED_OUT in page
    assert 'href="/static/accounts/pages.css"' in page  # dressed like the other account pages
    assert 870 <= int(right["Retry-After"]) <= 900
    assert signed_in_as(client) is None


def test_the_username_is_locked_from_every_address(owner):
    for i in range(10):
        fail(Client(REMOTE_ADDR=f"10.0.0.{i + 1}"), 1)
    assert sign_in(Client(REMOTE_ADDR="10.0.1.1"), "owner", "owner-pass-123").status_code == 429


def test_an_address_is_locked_whatever_usernames_it_tries(owner):
    spraying = Client(REMOTE_ADDR="10.0.0.9")
    for i in range(10):
        fail(spraying, 1, username=f"someone{i}")
    assert sign_in(spraying, "owner", "owner-pass-123").status_code == 429
    # The owner, elsewhere, is not locked out by someone else's failures.
    elsewhere = Client(REMOTE_ADDR="10.0.0.10")
    assert sign_in(elsewhere, "owner", "owner-pass-123").status_code == 302
    assert signed_in_as(elsewhere) == "owner"


def test_after_the_window_the_right_password_gets_in(client, owner):
    fail(client, 10)
    assert sign_in(client, "owner", "owner-pass-123").status_code == 429
    window_passes()
    assert sign_in(client, "owner", "owner-pass-123").status_code == 302
    assert signed_in_as(client) == "owner"


def test_the_wait_announced_is_what_is_left_of_the_window(client, owner, settings):
    settings.AXES_COOLOFF_TIME = timedelta(minutes=3)
    fail(client, 10)
    refused = sign_in(client, "owner", "owner-pass-123")
    assert "Try again in 3 minutes." in refused.content.decode()
    for attempt in AccessAttempt.objects.all():  # two minutes and a half later
        attempt.attempt_time -= timedelta(seconds=150)
        attempt.save(update_fields=["attempt_time"])
    refused = sign_in(client, "owner", "owner-pass-123")
    assert "Try again in 1 minute." in refused.content.decode()
    assert int(refused["Retry-After"]) <= 30


def test_a_success_resets_the_count(client, owner):
    fail(client, 9)
    assert sign_in(client, "owner", "owner-pass-123").status_code == 302
    assert not AccessAttempt.objects.filter(username="owner").exists()
    client.post("/logout/")
    fail(client, 9)
    assert sign_in(client, "owner", "owner-pass-123").status_code == 302


def test_signing_in_to_ones_own_account_does_not_reset_a_run_of_guesses_at_others(client, owner, stranger):
    for i in range(9):
        fail(client, 1, username=f"victim{i}")
    assert sign_in(client, "stranger", "stranger-pass-123").status_code == 302
    client.post("/logout/")
    assert fail(client, 1, username="victim9")[0].status_code == 429


def test_a_forged_x_forwarded_for_does_not_escape_the_limit(client, owner):
    for i in range(10):
        fail(client, 1, username=f"someone{i}", HTTP_X_FORWARDED_FOR=f"203.0.113.{i + 1}")
    refused = sign_in(client, "owner", "owner-pass-123", HTTP_X_FORWARDED_FOR="203.0.113.200")
    assert refused.status_code == 429


def test_behind_a_trusted_proxy_its_forwarded_address_is_the_one_counted(client, owner, monkeypatch):
    # The same rule as the API's rate limits (TRUSTED_PROXIES sets ninja's NUM_PROXIES).
    monkeypatch.setattr(ninja_settings, "NUM_PROXIES", 1)
    for i in range(10):
        fail(client, 1, username=f"someone{i}", HTTP_X_FORWARDED_FOR="198.51.100.7")
    assert sign_in(client, "owner", "owner-pass-123", HTTP_X_FORWARDED_FOR="198.51.100.7").status_code == 429
    assert sign_in(client, "owner", "owner-pass-123", HTTP_X_FORWARDED_FOR="198.51.100.8").status_code == 302


def test_guessing_api_tokens_locks_the_address_out_of_the_api(client, owner_token):
    answers = [client.get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer ld_guess{i}") for i in range(10)]
    assert [a.status_code for a in answers[:9]] == [401] * 9
    assert answers[9].status_code == 429

    right = client.get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {owner_token}")
    assert right.status_code == 429
    body = right.json()
    assert body["detail"] == LOCKED_OUT
    assert 870 <= body["retryAfterSeconds"] <= 900 and right["Retry-After"] == str(body["retryAfterSeconds"])
    # Spoofing another address changes nothing; another real address is not locked.
    assert client.get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {owner_token}",
                      HTTP_X_FORWARDED_FOR="203.0.113.5").status_code == 429
    assert Client(REMOTE_ADDR="10.0.0.20").get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {owner_token}").status_code == 200

    window_passes()
    assert client.get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {owner_token}").json() == {"username": "owner"}


def test_wrong_tokens_and_failed_sign_ins_share_the_address_count(client, owner, owner_token):
    for i in range(5):
        client.get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer ld_guess{i}")
    fail(client, 5, username="someone")
    assert sign_in(client, "owner", "owner-pass-123").status_code == 429


def test_failed_sign_ups_lock_the_address_out_of_signing_up(owner, settings):
    settings.SIGNUP = "open"
    probing = Client(REMOTE_ADDR="10.0.0.30")
    taken = {"username": "owner", "password1": "a-long-password-1", "password2": "a-long-password-1"}
    answers = [probing.post("/signup/", taken) for _ in range(10)]
    assert [a.status_code for a in answers[:9]] == [200] * 9
    assert answers[9].status_code == 429
    fresh = {"username": "newcomer", "password1": "a-long-password-1", "password2": "a-long-password-1"}
    refused = probing.post("/signup/", fresh)
    assert refused.status_code == 429
    assert "Too many failed sign-up attempts from this address. Try again in 15 minutes." in refused.content.decode()
    assert Client(REMOTE_ADDR="10.0.0.31").post("/signup/", fresh).status_code == 302


def test_a_successful_sign_up_is_not_counted(owner, settings):
    settings.SIGNUP = "open"
    for i in range(12):
        fresh = {"username": f"newcomer{i}", "password1": "a-long-password-1", "password2": "a-long-password-1"}
        assert Client(REMOTE_ADDR="10.0.0.40").post("/signup/", fresh).status_code == 302
    assert not AccessAttempt.objects.exists()


def test_a_forwarded_value_that_is_no_address_counts_for_the_proxy(client, owner, monkeypatch):
    monkeypatch.setattr(ninja_settings, "NUM_PROXIES", 1)
    assert client.get("/api/v1/me", HTTP_AUTHORIZATION="Bearer ld_guess", HTTP_X_FORWARDED_FOR="not-an-address").status_code == 401
    assert list(AccessAttempt.objects.values_list("ip_address", flat=True)) == ["127.0.0.1"]


@pytest.fixture(scope="module")
def live():
    # PostgreSQL, which refuses what SQLite stores (NUL in text, a non-address in an inet column).
    with fresh_postgres() as database_url, running_server(base_env(DATABASE_URL=database_url, LOGIN_FAILURE_LIMIT=3), users=("owner",)) as s:
        yield s


def test_a_wrong_token_on_a_path_with_nul_is_counted_not_a_server_error(live):
    for path in ("/api/v1/workflows/%00", "/api/v1/workflows/%00" + "x" * 300):  # axes keeps 255 characters of it
        answer = httpx.get(live.url + path, headers={"Authorization": "Bearer ld_guess"}, timeout=10)
        assert answer.status_code == 401, path[:40]
    assert "AXES: New login failure" in live.log.read_text()


def test_wrong_tokens_on_the_websocket_count_too(live):
    for i in range(3):
        with pytest.raises(InvalidStatus):
            connect(f"{live.ws_url}/ws/runs/", additional_headers={"Authorization": f"Bearer ld_guess{i}"}).close()
    with pytest.raises(InvalidStatus):  # the right token, from the locked-out address
        connect(f"{live.ws_url}/ws/runs/", additional_headers=live.headers("owner")).close()
    refused = httpx.get(live.url + "/api/v1/me", headers=live.headers("owner"), timeout=10)
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 800
    assert refused.json()["detail"] == LOCKED_OUT
