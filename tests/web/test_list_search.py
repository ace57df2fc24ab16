"""The workflows list and the runs list: search, filters and pages, only ever of what the caller may read.

Rows are made directly in the database (a run's events do not matter to a list), with the times set
by hand: ties in `updated_at` and `created_at` are where pages go wrong, so the tests make many.
"""
from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest

from accounts.models import Membership
from accounts.workspaces import create_team, personal
from designer.models import Workflow, WorkflowVersion
from runtime.models import Run
from runtime.runs.query import cursor_of

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
DOC = {"name": "w", "steps": [{"id": "a", "instructions": "Go."}]}


def make_workflow(user, name: str, *, valid: bool = True, updated_at: datetime | None = None, workspace=None) -> Workflow:
    workflow = Workflow.objects.create(owner=user, workspace=workspace or personal(user), name=name, current_version=2)
    # An older version of the other validity: the filter must read the current one.
    WorkflowVersion.objects.create(workflow=workflow, number=1, document=DOC, valid=not valid)
    WorkflowVersion.objects.create(workflow=workflow, number=2, document=DOC, valid=valid)
    if updated_at is not None:
        Workflow.objects.filter(pk=workflow.pk).update(updated_at=updated_at)
    return workflow


def make_run(workflow: Workflow, *, status: str = "completed", provider: str = "simulated", created_at: datetime | None = None) -> Run:
    run = Run.objects.create(owner=workflow.owner, workspace=workflow.workspace, workflow=workflow, version=workflow.latest(),
                             provider=provider, status=status)
    if created_at is not None:
        Run.objects.filter(pk=run.pk).update(created_at=created_at)
    return run


def names(response) -> list[str]:
    assert response.status_code == 200, response.content[:300]
    return [w["name"] for w in response.json()]


def run_ids(response) -> list[str]:
    assert response.status_code == 200, response.content[:300]
    return [r["id"] for r in response.json()]


def detail(response) -> str:
    return response.json()["detail"]


# ---------------------------------------------------------------- workflows


@pytest.fixture
def shelf(owner):
    """Five workflows of the owner's, newest first: Alpha review, beta REVIEW, Gamma (invalid), Delta (invalid), epsilon."""
    spec = [("Alpha review", True, 0), ("beta REVIEW", True, 1), ("Gamma", False, 3), ("Delta draft", False, 8), ("epsilon", True, 40)]
    return {name: make_workflow(owner, name, valid=valid, updated_at=T0 - timedelta(days=age)) for name, valid, age in spec}


def test_the_list_is_still_a_plain_list_newest_first_with_the_total_in_a_header(owner_client, shelf):
    response = owner_client.get("/api/v1/workflows")
    assert names(response) == ["Alpha review", "beta REVIEW", "Gamma", "Delta draft", "epsilon"]
    assert response["X-Total-Count"] == "5"
    first = response.json()[0]
    assert set(first) == {"id", "name", "version", "valid", "updated_at", "workspace_id", "workspace_name"}
    assert first["version"] == 2 and first["valid"] is True


def test_q_finds_a_piece_of_the_name_in_any_case(owner_client, shelf):
    assert names(owner_client.get("/api/v1/workflows?q=review")) == ["Alpha review", "beta REVIEW"]
    assert names(owner_client.get("/api/v1/workflows?q=%20ALP%20")) == ["Alpha review"]
    response = owner_client.get("/api/v1/workflows?q=nothing-like-it")
    assert names(response) == [] and response["X-Total-Count"] == "0"


def test_valid_reads_the_current_version_not_an_older_one(owner_client, shelf):
    assert names(owner_client.get("/api/v1/workflows?valid=true")) == ["Alpha review", "beta REVIEW", "epsilon"]
    assert names(owner_client.get("/api/v1/workflows?valid=false")) == ["Gamma", "Delta draft"]


def test_updated_after_and_before_take_dates_and_date_times(owner_client, shelf):
    # A date alone: `after` from the start of that day, `before` through its end.
    assert names(owner_client.get("/api/v1/workflows?updated_after=2026-11-17")) == ["Alpha review", "beta REVIEW", "Gamma"]
    assert names(owner_client.get("/api/v1/workflows?updated_before=2026-11-17")) == ["Gamma", "Delta draft", "epsilon"]
    assert names(owner_client.get("/api/v1/workflows?updated_after=2026-11-19T12:00:00Z")) == ["Alpha review", "beta REVIEW"]
    # An offset as a browser sends it (%2B), and as a hand-typed URL does (a bare + becomes a space).
    assert names(owner_client.get("/api/v1/workflows?updated_after=2026-11-19T13:00:00%2B01:00")) == ["Alpha review", "beta REVIEW"]
    assert names(owner_client.get("/api/v1/workflows?updated_after=2026-11-19T13:00:00+01:00")) == ["Alpha review", "beta REVIEW"]
    assert names(owner_client.get("/api/v1/workflows?updated_after=2026-11-13&updated_before=2026-11-19T12:00:01")) == ["beta REVIEW", "Gamma"]


def test_filters_combine(owner_client, shelf):
    response = owner_client.get("/api/v1/workflows?q=a&valid=false&updated_after=2026-11-15")
    assert names(response) == ["Gamma"] and response["X-Total-Count"] == "1"
    assert names(owner_client.get("/api/v1/workflows?q=review&valid=true&updated_before=2026-11-19")) == ["beta REVIEW"]


def test_pages_of_equal_update_times_neither_repeat_nor_skip(owner, owner_client):
    made = {make_workflow(owner, f"w{i:02}", updated_at=T0 - timedelta(hours=i // 4)).pk for i in range(23)}
    seen: list[int] = []
    for offset in range(0, 30, 5):
        response = owner_client.get(f"/api/v1/workflows?limit=5&offset={offset}")
        assert response["X-Total-Count"] == "23"
        page = [w["id"] for w in response.json()]
        assert len(page) == (5 if offset < 20 else 3 if offset == 20 else 0)
        seen += page
    assert len(seen) == len(set(seen)) == 23 and set(seen) == made
    whole = [w["id"] for w in owner_client.get("/api/v1/workflows?limit=200").json()]
    assert whole == seen  # the pages, end to end, are the one list


def test_the_default_page_is_fifty(owner, owner_client):
    for i in range(53):
        make_workflow(owner, f"w{i}", updated_at=T0)
    response = owner_client.get("/api/v1/workflows")
    assert len(response.json()) == 50 and response["X-Total-Count"] == "53"
    assert len(owner_client.get("/api/v1/workflows?offset=50").json()) == 3


@pytest.mark.parametrize(("query", "status", "field"), [
    ("valid=maybe", 422, "valid"),
    ("limit=0", 422, "limit"),
    ("limit=201", 422, "limit"),
    ("limit=ten", 422, "limit"),
    ("offset=-1", 422, "offset"),
    ("updated_after=yesterday", 400, "updated_after"),
    ("updated_before=2026-02-30", 400, "updated_before"),
    ("updated_before=9999-12-31", 400, "updated_before"),
    ("q=" + "x" * 201, 422, "q"),
    ("workspace=0", 422, "workspace"),
])
def test_a_bad_parameter_is_refused_naming_it(owner_client, shelf, query, status, field):
    response = owner_client.get(f"/api/v1/workflows?{query}")
    assert response.status_code == status, response.content[:300]
    assert field in detail(response)


def test_a_strangers_workflows_are_never_listed_however_the_list_is_searched(owner, owner_client, stranger, stranger_client):
    mine = make_workflow(owner, "Secret review", updated_at=T0)
    theirs = make_workflow(stranger, "Their review", updated_at=T0)
    for query in ("", "?q=review", "?q=their", "?valid=true", "?updated_after=2026-01-01", "?limit=200"):
        assert mine.pk not in [w["id"] for w in stranger_client.get(f"/api/v1/workflows{query}").json()]
        assert theirs.pk not in [w["id"] for w in owner_client.get(f"/api/v1/workflows{query}").json()]
    assert owner_client.get(f"/api/v1/workflows?q=their&workspace={theirs.workspace_id}").status_code == 404


def test_a_team_members_search_covers_the_team_and_their_own(owner, owner_client, stranger, stranger_client):
    team = create_team(stranger, "Team")
    Membership.objects.create(workspace=team, user=owner, role="viewer")
    shared = make_workflow(stranger, "Team review", workspace=team, updated_at=T0)
    own = make_workflow(owner, "My review", updated_at=T0 - timedelta(hours=1))
    assert [w["id"] for w in owner_client.get("/api/v1/workflows?q=review").json()] == [shared.pk, own.pk]
    assert [w["id"] for w in owner_client.get(f"/api/v1/workflows?q=review&workspace={team.pk}").json()] == [shared.pk]


# ---------------------------------------------------------------- runs


@pytest.fixture
def history(owner):
    """Six runs of two workflows, newest first: r[0] ... r[5]."""
    review = make_workflow(owner, "Nightly Review", updated_at=T0)
    deploy = make_workflow(owner, "deploy", updated_at=T0)
    spec = [(review, "running", "simulated"), (deploy, "failed", "openai"), (review, "completed", "simulated"),
            (deploy, "cancelled", "anthropic"), (review, "failed", "simulated"), (deploy, "completed", "openai")]
    runs = [make_run(wf, status=status, provider=provider, created_at=T0 - timedelta(days=i))
            for i, (wf, status, provider) in enumerate(spec)]
    return {"review": review, "deploy": deploy, "r": [str(r.pk) for r in runs]}


def test_the_runs_list_is_still_a_plain_list_newest_first(owner_client, history):
    response = owner_client.get("/api/v1/runs")
    assert run_ids(response) == history["r"]
    assert response["X-Total-Count"] == "6" and "X-Next-Cursor" not in response
    assert response.json()[0]["workflow_name"] == "Nightly Review"


def test_status_takes_one_or_several_names(owner_client, history):
    r = history["r"]
    assert run_ids(owner_client.get("/api/v1/runs?status=failed")) == [r[1], r[4]]
    assert run_ids(owner_client.get("/api/v1/runs?status=failed,cancelled")) == [r[1], r[3], r[4]]
    assert run_ids(owner_client.get("/api/v1/runs?status=%20completed%20,%20running,")) == [r[0], r[2], r[5]]


def test_provider_workflow_and_q_filter(owner_client, history):
    r = history["r"]
    assert run_ids(owner_client.get("/api/v1/runs?provider=openai")) == [r[1], r[5]]
    assert run_ids(owner_client.get("/api/v1/runs?provider=openai,anthropic")) == [r[1], r[3], r[5]]
    assert run_ids(owner_client.get(f"/api/v1/runs?workflow={history['deploy'].pk}")) == [r[1], r[3], r[5]]
    assert run_ids(owner_client.get("/api/v1/runs?q=nightly")) == [r[0], r[2], r[4]]
    assert run_ids(owner_client.get("/api/v1/runs?q=REVIEW")) == [r[0], r[2], r[4]]
    assert run_ids(owner_client.get("/api/v1/runs?q=nothing")) == []


def test_created_after_and_before_bound_the_dates(owner_client, history):
    r = history["r"]
    # T0 is 2026-11-20 12:00 UTC; run i was created i days before it.
    assert run_ids(owner_client.get("/api/v1/runs?created_after=2026-11-18")) == [r[0], r[1], r[2]]
    assert run_ids(owner_client.get("/api/v1/runs?created_before=2026-11-16")) == [r[4], r[5]]
    assert run_ids(owner_client.get("/api/v1/runs?created_after=2026-11-16&created_before=2026-11-18")) == [r[2], r[3], r[4]]
    assert run_ids(owner_client.get("/api/v1/runs?created_after=2026-11-19T12:00:00Z")) == [r[0], r[1]]
    assert run_ids(owner_client.get("/api/v1/runs?created_before=2026-11-19T12:00:00Z")) == [r[2], r[3], r[4], r[5]]


def test_run_filters_combine(owner_client, history):
    r = history["r"]
    response = owner_client.get("/api/v1/runs?q=review&status=completed,failed&provider=simulated&created_after=2026-11-17")
    assert run_ids(response) == [r[2]] and response["X-Total-Count"] == "1"
    assert run_ids(owner_client.get(f"/api/v1/runs?workflow={history['deploy'].pk}&status=completed,failed&created_before=2026-11-17")) == [r[5]]


@pytest.mark.parametrize(("query", "status", "field"), [
    ("status=bogus", 400, "status"),
    ("status=failed,bogus", 400, "status"),
    ("provider=nobody", 400, "provider"),
    ("created_after=last-week", 400, "created_after"),
    ("created_before=2026-11-31", 400, "created_before"),
    ("limit=0", 422, "limit"),
    ("limit=201", 422, "limit"),
    ("before=not-a-cursor", 400, "before"),
    ("before=" + "A" * 40, 400, "before"),
    ("workflow=" + "9" * 30, 422, "workflow"),
    ("q=" + "x" * 201, 422, "q"),
])
def test_a_bad_runs_parameter_is_refused_naming_it(owner_client, history, query, status, field):
    response = owner_client.get(f"/api/v1/runs?{query}")
    assert response.status_code == status, response.content[:300]
    assert field in detail(response)


def test_cursor_pages_hold_through_ties_and_new_runs(owner, owner_client):
    workflow = make_workflow(owner, "many", updated_at=T0)
    # Fifteen runs at five moments, three at each: every page boundary falls inside a tie somewhere.
    made = [make_run(workflow, created_at=T0 - timedelta(minutes=i // 3)) for i in range(15)]
    seen: list[str] = []
    cursor = None
    pages = 0
    while True:
        response = owner_client.get("/api/v1/runs?limit=4" + (f"&before={cursor}" if cursor else ""))
        # The total counts what matches now: the new run is in it, though no page of this walk shows it.
        assert response["X-Total-Count"] == ("15" if pages == 0 else "16")
        seen += run_ids(response)
        pages += 1
        if pages == 1:
            make_run(workflow, created_at=T0 + timedelta(hours=1))  # started while someone pages: newer than every page, so it moves nothing
        cursor = response.get("X-Next-Cursor")
        if not cursor:
            break
    assert pages == 4 and len(seen) == len(set(seen)) == 15
    assert set(seen) == {str(r.pk) for r in made}
    rows = {str(r.pk): (r.created_at, r.pk.hex) for r in Run.objects.filter(pk__in=seen)}
    assert [rows[i] for i in seen] == sorted((rows[i] for i in seen), reverse=True)


def test_a_cursor_still_works_after_its_run_is_deleted(owner, owner_client):
    workflow = make_workflow(owner, "w", updated_at=T0)
    made = [make_run(workflow, created_at=T0 - timedelta(minutes=i)) for i in range(5)]
    first = owner_client.get("/api/v1/runs?limit=2")
    assert run_ids(first) == [str(made[0].pk), str(made[1].pk)]
    made[1].delete()
    assert run_ids(owner_client.get(f"/api/v1/runs?limit=2&before={first['X-Next-Cursor']}")) == [str(made[2].pk), str(made[3].pk)]


def test_filtered_pages_carry_the_filter_total_and_end_without_a_cursor(owner_client, history):
    first = owner_client.get("/api/v1/runs?status=completed,failed&limit=2")
    assert first["X-Total-Count"] == "4"
    second = owner_client.get(f"/api/v1/runs?status=completed,failed&limit=2&before={first['X-Next-Cursor']}")
    assert second["X-Total-Count"] == "4" and "X-Next-Cursor" not in second
    r = history["r"]
    assert run_ids(first) + run_ids(second) == [r[1], r[2], r[4], r[5]]


def test_a_strangers_runs_are_never_listed_however_the_list_is_searched(owner, owner_client, stranger, stranger_client, history):
    theirs = make_run(make_workflow(stranger, "Nightly Review", updated_at=T0), created_at=T0)
    for query in ("", "?q=nightly", "?status=completed", "?provider=simulated", "?created_after=2026-01-01", "?limit=200"):
        assert str(theirs.pk) not in run_ids(owner_client.get(f"/api/v1/runs{query}"))
        assert set(run_ids(stranger_client.get(f"/api/v1/runs{query}"))) <= {str(theirs.pk)}
    assert run_ids(stranger_client.get("/api/v1/runs?q=nightly")) == [str(theirs.pk)]
    assert owner_client.get(f"/api/v1/runs?workspace={theirs.workspace_id}").status_code == 404
    # Another's run as a cursor only says where to start; it shows nothing of theirs.
    assert str(theirs.pk) not in run_ids(owner_client.get(f"/api/v1/runs?before={cursor_of(theirs)}"))


def test_ten_thousand_runs_page_through_with_the_cursor_each_seen_once(owner, owner_client, monkeypatch):
    workflow = make_workflow(owner, "big", updated_at=T0)
    version = workflow.latest()
    # Times set by hand (auto_now_add would stamp them all now), seven runs to a moment: ties on every page.
    monkeypatch.setattr(Run._meta.get_field("created_at"), "auto_now_add", False)
    statuses = ["completed", "failed", "cancelled", "completed"]
    rows = [Run(id=uuid.uuid4(), owner=owner, workspace=workflow.workspace, workflow=workflow, version=version,
                status=statuses[i % 4], created_at=T0 - timedelta(seconds=i // 7)) for i in range(10_000)]
    Run.objects.bulk_create(rows, batch_size=2000)
    expected = {str(r.pk) for r in rows}

    seen: list[str] = []
    cursor = None
    pages = 0
    while True:
        response = owner_client.get("/api/v1/runs?limit=200" + (f"&before={cursor}" if cursor else ""))
        assert response["X-Total-Count"] == "10000"
        page = run_ids(response)
        assert len(page) == 200
        seen += page
        pages += 1
        cursor = response.get("X-Next-Cursor")
        if not cursor:
            break
    assert pages == 50
    assert len(seen) == len(set(seen)) == 10_000 and set(seen) == expected

    # Filtered, the same holds: every failed run once.
    failed = {str(r.pk) for r in rows if r.status == "failed"}
    seen_failed: list[str] = []
    cursor = None
    while True:
        response = owner_client.get("/api/v1/runs?status=failed&limit=200" + (f"&before={cursor}" if cursor else ""))
        seen_failed += run_ids(response)
        cursor = response.get("X-Next-Cursor")
        if not cursor:
            break
    assert len(seen_failed) == len(set(seen_failed)) == 2500 and set(seen_failed) == failed
