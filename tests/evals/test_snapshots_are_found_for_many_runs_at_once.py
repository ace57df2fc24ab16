"""Re-scoring gives a judge the workspace its round saw: the snapshot each recorded request came after, looked up
for every run of a chunk in one query (runtime.durability.run_files.snapshots_at): a run's own snapshots only (not
one a fork inherited, not one of a lost attempt), the last at or before the request, none before the first."""
from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from designer.models import Workflow
from runtime.durability import run_files
from runtime.models import Run, RunEvent, RunStatus
from tests.support.api_calls import post
from tests.support.documents import judge_loop

pytestmark = pytest.mark.django_db


def finished_run(owner_client, owner, name: str) -> Run:
    workflow = Workflow.objects.get(pk=post(owner_client, "/api/v1/workflows", {"source": judge_loop(name, 2)}).json()["id"])
    return Run.objects.create(owner=owner, workspace=workflow.workspace, workflow=workflow, version=workflow.latest(),
                              status=RunStatus.COMPLETED)


def announce(run: Run, seq: int, snapshot: int, **extra) -> None:
    data = {"snapshot": snapshot, "label": f"s{seq}", "workspace": extra.pop("workspace", "run")}
    RunEvent.objects.create(run=run, seq=seq, type="workspace_snapshot", superseded=extra.pop("superseded", False),
                            event_json=json.dumps({"type": "workspace_snapshot", "seq": seq, "data": data, **extra}))


def test_each_request_gets_the_last_own_snapshot_before_it_in_one_query(owner_client, owner):
    one, two, bare = (finished_run(owner_client, owner, n) for n in ("one", "two", "bare"))
    announce(one, 3, 1)
    announce(one, 7, 2)
    announce(one, 9, 3, superseded=True)  # a lost attempt's
    announce(one, 10, 4, workspace="judge")  # another workspace's
    announce(two, 2, 9, inherited=True)  # its parent's, before a fork
    announce(two, 5, 1)
    wanted = {str(one.pk): [2, 3, 8, 12], str(two.pk): [4, 6], str(bare.pk): [5]}
    with CaptureQueriesContext(connection) as queries:
        found = run_files.snapshots_at(wanted)
    assert len(queries) == 1
    assert found == {(str(one.pk), 2): None, (str(one.pk), 3): 1, (str(one.pk), 8): 2, (str(one.pk), 12): 2,
                     (str(two.pk), 4): None, (str(two.pk), 6): 1, (str(bare.pk), 5): None}
