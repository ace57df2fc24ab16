"""The runs and workflows lists at size: 10,000 runs and 1,000 workflows in a temporary SQLite data
folder, read through a real server (GET /api/v1/runs, GET /api/v1/workflows) as the list pages read them.

Figures, p50 and p95 of each: a trivial signed-in request (GET /me, the floor), the first page (the
baseline), a deep page (the cursor near the end, or an offset near the end for workflows), a filtered
page, with the load average: first without the runs list's index (dropped here, in the throw-away
database), then with it as migrations make it (``run_workspace_newest``: workspace, created_at, id).

No target is asserted: a page should cost about the same at the 10,000th run as at the first.
"""
from __future__ import annotations

import os
import sys
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import httpx  # noqa: E402

from bench.common import timings  # noqa: E402
from tests.support.servers import base_env, running_server  # noqa: E402

RUNS = 10_000
WORKFLOWS = 1_000
T0 = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
INDEX = "run_workspace_newest"  # runtime/models.py


def fill(username: str) -> tuple[str, str]:
    """Workflows and runs of one user, straight into the server's database; the cursor and offset of a deep page."""
    from django.contrib.auth import get_user_model

    from accounts.workspaces import personal
    from designer.models import Workflow, WorkflowVersion
    from runtime.models import Run
    from runtime.runs.query import cursor_of

    user = get_user_model().objects.get(username=username)
    workspace = personal(user)
    doc = {"name": "w", "steps": [{"id": "a", "instructions": "Go."}]}
    flows = Workflow.objects.bulk_create(
        [Workflow(owner=user, workspace=workspace, name=f"{'Nightly review' if i % 10 == 0 else 'deploy'} {i}", current_version=1)
         for i in range(WORKFLOWS)])
    versions = WorkflowVersion.objects.bulk_create(
        [WorkflowVersion(workflow=w, number=1, document=doc, valid=i % 3 != 0) for i, w in enumerate(flows)])
    field = Run._meta.get_field("created_at")
    field.auto_now_add = False  # times set by hand, a second apart: this process only fills the database
    statuses, providers = ["completed", "failed", "cancelled", "completed", "running"], ["simulated", "openai", "anthropic"]
    rows = [Run(id=uuid.uuid4(), owner=user, workspace=workspace, workflow=flows[i % 20], version=versions[i % 20],
                status=statuses[i % 5], provider=providers[i % 3], created_at=T0 - timedelta(seconds=i)) for i in range(RUNS)]
    Run.objects.bulk_create(rows, batch_size=2000)
    deep = Run.objects.order_by("-created_at", "-pk")[RUNS - 150]
    return cursor_of(deep), str(WORKFLOWS - 50)


def p50_p95(samples: list[float]) -> str:
    ordered = sorted(samples)
    p50 = ordered[len(ordered) // 2]
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"p50 {p50 * 1000:7.2f} ms   p95 {p95 * 1000:7.2f} ms"


def measure(client: httpx.Client, cases: list[tuple[str, str, int | None]], repeat: int) -> None:
    for label, path, rows in cases:
        def call(path=path, rows=rows):
            response = client.get(path)
            assert response.status_code == 200, (path, response.status_code, response.text[:200])
            assert rows is None or len(response.json()) == rows, (path, len(response.json()))
        shown = "" if rows is None else f"   ({rows} rows)"
        print(f"  {label:48s} {p50_p95(timings(call, repeat))}{shown}")


def drop_index() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"DROP INDEX {INDEX}")
        cursor.execute("ANALYZE")


def add_index() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"CREATE INDEX {INDEX} ON runtime_run (workspace_id, created_at DESC, id DESC)")
        cursor.execute("ANALYZE")


def first_page_plan(username: str) -> str:
    from django.contrib.auth import get_user_model
    from django.db import connection

    from accounts.workspaces import personal
    from runtime.models import Run

    user = get_user_model().objects.get(username=username)
    query = Run.objects.filter(workspace_id=personal(user).pk).labelled().order_by("-created_at", "-pk")[:51]
    sql, params = query.query.sql_with_params()

    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
        return "; ".join(row[3] for row in cursor.fetchall())


def main() -> None:
    env = base_env()
    # This process writes the rows into the server's own SQLite file, then only reads over HTTP.
    os.environ["DESIGNER_DATA_DIR"] = env["DESIGNER_DATA_DIR"]
    import logging

    import django

    django.setup()
    logging.getLogger("httpx").setLevel(logging.WARNING)  # Django's logging config would print every request
    repeat = 200
    with running_server(env, users=("owner",)) as server:
        cursor, offset = fill("owner")
        filtered = "status=failed,cancelled&provider=simulated&q=deploy&created_after=2026-11-20T10:00:00Z"
        cases: list[tuple[str, str, int | None]] = [
            ("GET /me (floor)", "/me", None),
            ("runs: first page, 50 (baseline)", "/runs", 50),
            ("runs: first page, 200", "/runs?limit=200", 200),
            ("runs: deep page (cursor at run 9,850), 50", f"/runs?before={cursor}", 50),
            ("runs: filtered (status, provider, q, date), 50", f"/runs?{filtered}", 50),
            ("runs: filtered, rare (q matches no run)", "/runs?q=no-such-workflow", 0),
            ("workflows: first page, 50", "/workflows", 50),
            (f"workflows: deep page (offset {offset}), 50", f"/workflows?offset={offset}", 50),
            ("workflows: q + valid, 50", "/workflows?q=review&valid=true", 50),
        ]
        with server.client("owner") as client:
            total = client.get("/runs").headers["X-Total-Count"]
            print(f"{total} runs, {WORKFLOWS} workflows in one workspace; SQLite; daphne on loopback; "
                  f"{repeat} requests each after 3 warm-up")
            print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
            drop_index()
            print(f"without the index {INDEX} (workspace, created_at, id) (the baseline)")
            print(f"  plan of the first page: {first_page_plan('owner')}")
            measure(client, cases, repeat)
            add_index()
            print(f"with the index {INDEX}, as migrations make it")
            print(f"  plan of the first page: {first_page_plan('owner')}")
            measure(client, cases, repeat)
            print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
