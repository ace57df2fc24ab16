"""A real daphne server on the embedded default, watched over real websockets."""
import asyncio
import json
import re

import httpx
import pytest
import websockets

from tests.support.live_runs import collect, start_run, wait_status
from tests.support.servers import base_env, password_for, running_server


@pytest.fixture(scope="module")
def server():
    with running_server(base_env()) as s:
        yield s


@pytest.fixture(scope="module")
def lossy_server():
    # A channel layer that holds one message per client drops most live messages.
    with running_server(base_env(CHANNEL_CAPACITY=1)) as s:
        yield s


def ws_connect(server, path, user="owner", **kw):
    return websockets.connect(server.ws_url + path, additional_headers=server.headers(user), open_timeout=10, **kw)


def assert_every_event_once(events, last_seq):
    assert [e["seq"] for e in events] == list(range(1, last_seq + 1))
    assert events[0]["type"] == "workflow_start" and events[-1]["type"] == "workflow_end"


async def test_a_runs_events_arrive_live_and_in_order(server):
    with server.client("owner") as client:
        run = start_run(client, latency=0.1)
        async with ws_connect(server, f"/ws/runs/{run['id']}/") as ws:
            events, updates = await collect(ws)
        final = wait_status(client, run["id"], ("completed",))
    assert_every_event_once(events, final["last_seq"])
    assert updates[0]["status"] in ("queued", "running") and updates[-1]["status"] == "completed"
    types = {e["type"] for e in events}
    assert {"iteration_start", "iteration_end", "judge_verdict", "loop_end", "output"} <= types
    verdicts = [e["data"] for e in events if e["type"] == "judge_verdict"]
    assert [v["done"] for v in verdicts] == [False, False, False, False, True]


async def test_a_run_id_written_in_capitals_without_dashes_streams_live_the_same(server):
    with server.client("owner") as client:
        run = start_run(client, latency=0.1)
        odd = run["id"].upper().replace("-", "")
        async with ws_connect(server, f"/ws/runs/{odd}/") as ws:
            events, updates = await collect(ws, timeout=1.5)  # live: no wait for the slow tail poll
        final = wait_status(client, run["id"], ("completed",))
    assert_every_event_once(events, final["last_seq"])
    assert updates[-1]["status"] == "completed"


async def test_a_client_that_reconnects_with_after_gets_every_missed_event_exactly_once(server):
    with server.client("owner") as client:
        run = start_run(client, latency=0.1)
        async with ws_connect(server, f"/ws/runs/{run['id']}/") as ws:
            first, _ = await collect(ws, until_final=False, limit=6)
        await asyncio.sleep(1.0)  # events keep coming while nobody listens
        after = first[-1]["seq"]
        async with ws_connect(server, f"/ws/runs/{run['id']}/?after={after}") as ws:
            rest, _ = await collect(ws)
        final = wait_status(client, run["id"], ("completed",))
    assert_every_event_once(first + rest, final["last_seq"])


async def test_a_finished_run_replays_from_stored_events(server):
    with server.client("owner") as client:
        run = start_run(client, latency=0.0)
        final = wait_status(client, run["id"], ("completed",))
    async with ws_connect(server, f"/ws/runs/{run['id']}/") as ws:
        events, updates = await collect(ws)
    assert_every_event_once(events, final["last_seq"])
    assert updates[-1]["status"] == "completed"


async def test_no_event_is_lost_when_the_channel_layer_drops_messages(lossy_server):
    with lossy_server.client("owner") as client:
        run = start_run(client, iterations=8, latency=0.01, done_at=8)
        async with ws_connect(lossy_server, f"/ws/runs/{run['id']}/") as ws:
            events, _ = await collect(ws)
        final = wait_status(client, run["id"], ("completed",))
    assert_every_event_once(events, final["last_seq"])


async def test_a_stranger_is_refused_over_http_and_websocket(server):
    with server.client("owner") as owner, server.client("stranger") as stranger:
        run = start_run(owner, latency=0.0)
        assert stranger.get(f"/runs/{run['id']}").status_code == 404
        assert stranger.get(f"/runs/{run['id']}/events").status_code == 404
        assert stranger.get(f"/workflows/{run['workflow_id']}").status_code == 404
    with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
        async with ws_connect(server, f"/ws/runs/{run['id']}/", user="stranger"):
            pass
    assert refused.value.response.status_code == 403


async def test_anonymous_and_foreign_origin_websockets_are_refused(server):
    with server.client("owner") as client:
        run = start_run(client, latency=0.0)
    with pytest.raises(websockets.exceptions.InvalidStatus):
        async with websockets.connect(server.ws_url + f"/ws/runs/{run['id']}/", open_timeout=10):
            pass
    with pytest.raises(websockets.exceptions.InvalidStatus):
        async with ws_connect(server, f"/ws/runs/{run['id']}/", origin="http://evil.example"):
            pass


async def test_the_run_list_socket_reports_the_users_runs_and_nobody_elses(server):
    async with ws_connect(server, "/ws/runs/") as mine, ws_connect(server, "/ws/runs/", user="stranger") as theirs:
        with server.client("owner") as client:
            run = start_run(client, latency=0.0)
            seen = []
            while not seen or seen[-1]["status"] != "completed":
                message = json.loads(await asyncio.wait_for(mine.recv(), timeout=30))
                if message["run"]["id"] == run["id"]:
                    seen.append(message["run"])
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(theirs.recv(), timeout=1.0)
    assert seen[0]["status"] in ("queued", "running") and seen[-1]["status"] == "completed"


async def test_secrets_never_reach_events_or_pages(server):
    with server.client("owner") as client:
        run = start_run(client, latency=0.0)
        wait_status(client, run["id"], ("completed",))
        events = client.get(f"/runs/{run['id']}/events").text
    assert server.tokens["owner"] not in events and server.tokens["owner"] not in server.log.read_text()


def _browser_session(server, user="owner"):
    """An httpx client logged in through /login/ like a browser (session cookie + CSRF)."""
    browser = httpx.Client(base_url=server.url, timeout=30, follow_redirects=False)
    browser.get("/login/")
    response = browser.post("/login/", data={"username": user, "password": password_for(user),
                                             "csrfmiddlewaretoken": browser.cookies["csrftoken"]},
                            headers={"Referer": server.url + "/login/"})
    assert response.status_code == 302, response.text[:500]
    return browser


def _post_form(browser, server, path, **data):
    return browser.post(path, data={**data, "csrfmiddlewaretoken": browser.cookies["csrftoken"]},
                        headers={"Referer": server.url + path})


async def _closed_with(ws) -> int:
    try:
        while True:
            await asyncio.wait_for(ws.recv(), timeout=10)
    except websockets.ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else closed.code


async def test_sockets_opened_with_a_token_close_when_it_is_revoked(server):
    browser = _browser_session(server)
    page = _post_form(browser, server, "/account/", action="create_token", name="watcher").text
    token = page.split('id="new-token">')[1].split("<")[0]
    token_id = re.search(r'<td>watcher</td>.*?name="token_id" value="(\d+)"', page, re.S).group(1)
    headers = {"Authorization": f"Bearer {token}"}
    with server.client("owner") as client:
        run = start_run(client, iterations=6, latency=1.0, done_at=6)
        async with websockets.connect(f"{server.ws_url}/ws/runs/{run['id']}/", additional_headers=headers) as run_ws, \
                websockets.connect(f"{server.ws_url}/ws/runs/", additional_headers=headers) as list_ws:
            first = json.loads(await asyncio.wait_for(run_ws.recv(), timeout=10))
            assert first["kind"] in ("event", "run")
            assert _post_form(browser, server, "/account/", action="revoke", token_id=token_id).status_code == 302
            codes = await asyncio.gather(_closed_with(run_ws), _closed_with(list_ws))
        assert codes == [4401, 4401]
        client.post(f"/runs/{run['id']}/stop")
    with pytest.raises(websockets.InvalidStatus):
        async with websockets.connect(f"{server.ws_url}/ws/runs/", additional_headers=headers):
            pass


async def test_a_browser_sessions_sockets_close_when_it_logs_out(server):
    browser = _browser_session(server)
    cookies = "; ".join(f"{k}={v}" for k, v in browser.cookies.items())
    async with websockets.connect(f"{server.ws_url}/ws/runs/", additional_headers={"Cookie": cookies, "Origin": server.url}) as ws:
        assert _post_form(browser, server, "/logout/").status_code == 302
        assert await _closed_with(ws) == 4401
