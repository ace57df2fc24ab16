"""On PostgreSQL, with two server processes on one database: failures from one address at once (wrong API
tokens over HTTP and the websocket, wrong passwords on /login/) are each counted, in one record per client,
and none answers 500. Wrong tokens once made a record per failure that found none yet (a NULL username
defeats the table's unique key), and the next look-up of the address found several: 500, and the failures
of the requests that broke were never counted (tests/web/test_failures_at_once_are_each_counted.py says
more). Each burst comes from its own address (TRUSTED_PROXIES=1 believes X-Forwarded-For)."""
from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.support.races import all_at_once
from tests.support.servers import Server, base_env, fresh_postgres, manage, running_server, server_process

LIMIT = 20


@pytest.fixture(scope="module")
def servers() -> Iterator[tuple[Server, Server]]:
    env = base_env(LOGIN_FAILURE_LIMIT=LIMIT, TRUSTED_PROXIES=1)
    with fresh_postgres() as database_url:
        env["DATABASE_URL"] = database_url
        with running_server(env, users=("owner",)) as first, server_process(first.env, first.tokens) as second:
            yield first, second


def wrong_token_over_http(server: Server, address: str, i: int) -> int:
    return httpx.get(server.url + "/api/v1/me", headers={"Authorization": f"Bearer ld_guess{i}", "X-Forwarded-For": address},
                     timeout=60).status_code


def wrong_token_over_websocket(server: Server, address: str, i: int) -> int:
    try:
        connect(f"{server.ws_url}/ws/runs/", open_timeout=60,
                additional_headers={"Authorization": f"Bearer ld_guess{i}", "X-Forwarded-For": address}).close()
    except InvalidStatus as refused:
        return refused.response.status_code
    return 101


def wrong_password(server: Server, address: str) -> Callable[[], int]:
    """A sign-in ready to post (its page fetched for the CSRF token, which counts nothing)."""
    client = httpx.Client(base_url=server.url, headers={"X-Forwarded-For": address}, timeout=60)
    page = client.get("/login/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
    assert token, page.text[:300]

    def post() -> int:
        try:
            return client.post("/login/", data={"username": "nobody", "password": "wrong",
                                                "csrfmiddlewaretoken": token.group(1)}).status_code
        finally:
            client.close()
    return post


def failures_at_once(servers: tuple[Server, Server], address: str, count: int) -> list[int]:
    """``count`` failures from ``address`` released together, spread over both servers and three ways."""
    posts = {i: wrong_password(servers[i % 2], address) for i in range(count) if i % 3 == 2}

    def fail(i: int) -> int:
        server = servers[i % 2]
        if i % 3 == 0:
            return wrong_token_over_websocket(server, address, i)
        return wrong_token_over_http(server, address, i) if i % 3 == 1 else posts[i]()

    return all_at_once(fail, count)


def right_token(server: Server, address: str) -> httpx.Response:
    return httpx.get(server.url + "/api/v1/me", headers={**server.headers("owner"), "X-Forwarded-For": address}, timeout=60)


def records_of(server: Server, address: str) -> list[tuple[str | None, str, int]]:
    """(username, user agent, failures) of each record of ``address``."""
    listed = manage(server.env, "shell", "-v", "0", "-c", "from axes.models import AccessAttempt; print(list("
                    f"AccessAttempt.objects.filter(ip_address={address!r}).values_list('username', 'user_agent', 'failures_since_start')))")
    return ast.literal_eval(listed.strip())


def log_of(servers: tuple[Server, Server]) -> str:
    return "\n".join(server.log.read_text()[-3000:] for server in servers)


def test_failures_at_once_below_the_limit_are_each_counted_and_the_next_one_locks(servers):
    first, second = servers
    address = "198.51.100.1"
    answers = failures_at_once(servers, address, LIMIT - 1)
    # Wrong tokens: 401 over HTTP, 403 over the websocket; a wrong password: the form again.
    assert sorted(set(answers)) == [200, 401, 403], (answers, log_of(servers))

    # None lost, none counted twice: the right token still gets in, and one failure more locks the address.
    assert right_token(second, address).json() == {"username": "owner"}
    assert wrong_token_over_http(first, address, LIMIT) == 429
    assert right_token(second, address).status_code == 429
    records = records_of(first, address)
    assert sum(failures for *_, failures in records) == LIMIT, records
    clients = [(username, agent) for username, agent, _ in records]
    assert len(clients) == len(set(clients)), records  # one record per username and agent


def test_failures_at_once_past_the_limit_lock_the_address_and_none_is_a_server_error(servers):
    first, second = servers
    address = "198.51.100.2"
    answers = failures_at_once(servers, address, LIMIT + 10)
    assert set(answers) <= {200, 401, 403, 429}, (answers, log_of(servers))

    assert right_token(first, address).status_code == 429
    assert wrong_token_over_http(second, address, 0) == 429
    assert wrong_token_over_websocket(first, address, 0) == 403
    records = records_of(first, address)
    clients = [(username, agent) for username, agent, _ in records]
    assert len(clients) == len(set(clients)), records
    # Every failure until the lock is counted; those that found the address locked already are not.
    assert LIMIT <= sum(failures for *_, failures in records) <= LIMIT + 10, records
