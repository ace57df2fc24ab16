"""On a real server and PostgreSQL: twenty runs started at once by API token hold no more of the day's tokens
than is left (the workspace row is locked for each start; every run holds its estimate, RUN_RESERVED_TOKENS,
capped at what is left)."""
from __future__ import annotations

import httpx

from tests.support.races import all_at_once
from tests.support.servers import base_env, fresh_postgres, running_server

SIMPLE = "name: s\nsteps:\n  - id: draft\n    instructions: Write.\n"
SLOW = {"latency": 120, "replies": {"draft": ["a draft"]}}  # active for the whole race; stopped after it
# WORK_QUEUE: a slot in the document checks for each of the twenty starts (tests/support/races.checks_for_all).


def test_twenty_starts_at_once_on_postgresql_hold_no_more_than_the_day_has_left():
    with fresh_postgres() as database_url, \
            running_server(base_env(DATABASE_URL=database_url, RUN_RESERVED_TOKENS=400, WORK_QUEUE=20), users=("owner",)) as server, \
            server.client("owner") as owner:
        workspace = next(w for w in owner.get("/workspaces").json() if w["personal"])["id"]
        assert owner.put(f"/workspaces/{workspace}/limits", json={"max_tokens_per_day": 1000}).status_code == 200
        workflow = owner.post("/workflows", json={"source": SIMPLE}).json()["id"]

        def start(_: int) -> httpx.Response:
            with server.client("owner") as client:
                return client.post("/runs", json={"workflow_id": workflow, "script": SLOW})

        answers = all_at_once(start, 20)
        try:
            started = [a.json() for a in answers if a.status_code == 201]
            log = server.log.read_text()[-3000:]
            assert sorted(r["budgets"]["max_tokens"] for r in started) == [200, 400, 400], log
            assert sorted(a.status_code for a in answers if a.status_code != 201) == [429] * 17, log
            usage = owner.get(f"/workspaces/{workspace}/usage").json()["limits"]["tokens_per_day"]
            assert usage["reserved"] == 1000 and usage["left"] == 0
        finally:
            assert owner.post("/runs/all/stop").status_code == 200
