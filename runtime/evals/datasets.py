"""Datasets as the API offers them: a workflow's, in its workspace (reading needs READ, changing EDIT); every change
saves a new version, so an experiment always names the exact cases and scorers it ran with."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.http import Http404

from accounts.workspaces import Need, require
from common.errors import BadRequest
from designer.workflows import reachable as reachable_workflow
from runtime.evals import cases as case_rows
from runtime.evals.scorers import check_scorers
from runtime.models import Dataset, DatasetVersion
from runtime.runs.access import reachable as reachable_run

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def reachable(user: User, dataset_id: int, need: Need = Need.READ) -> Dataset:
    try:
        dataset = Dataset.objects.select_related("workflow").get(pk=dataset_id)
    except (Dataset.DoesNotExist, ValueError, TypeError):
        raise Http404(f"dataset {dataset_id} not found") from None
    require(user, dataset.workspace_id, need, f"dataset {dataset_id}")
    return dataset


def version_of(dataset: Dataset, number: int | None = None) -> DatasetVersion:
    found = DatasetVersion.objects.filter(dataset=dataset, number=number or dataset.current_version).first()
    if found is None:
        raise Http404(f"dataset {dataset.pk} has no version {number}")
    return found


def _document(dataset_or_workflow: Any) -> dict:
    workflow = getattr(dataset_or_workflow, "workflow", dataset_or_workflow)
    return workflow.latest().document


def _save(dataset: Dataset, cases: list[dict], scorers: list[dict]) -> DatasetVersion:
    with transaction.atomic():
        locked = Dataset.objects.select_for_update().get(pk=dataset.pk)
        locked.current_version += 1
        locked.save(update_fields=["current_version", "updated_at"])
        dataset.current_version = locked.current_version
        return DatasetVersion.objects.create(dataset=locked, number=locked.current_version, cases=cases, scorers=scorers)


def create_dataset(user: User, workflow_id: int, name: str, cases: Any = None, scorers: Any = None) -> Dataset:
    workflow = reachable_workflow(user, workflow_id, Need.EDIT)
    if not isinstance(name, str) or not name.strip():
        raise BadRequest("name: a dataset name is required")
    document = workflow.latest().document
    checked_cases = case_rows.check_cases(cases or [], document)
    checked_scorers = check_scorers(scorers or [], document)
    dataset = Dataset.objects.create(workspace=workflow.workspace, workflow=workflow, owner=user, name=name.strip()[:200])
    _save(dataset, checked_cases, checked_scorers)
    return dataset


def update_dataset(user: User, dataset_id: int, *, cases: Any = None, scorers: Any = None, name: str | None = None) -> Dataset:
    """A new version with the cases and/or scorers given (the others as they were)."""
    dataset = reachable(user, dataset_id, Need.EDIT)
    current = version_of(dataset)
    document = _document(dataset)
    new_cases = case_rows.check_cases(cases, document) if cases is not None else current.cases
    new_scorers = check_scorers(scorers, document) if scorers is not None else current.scorers
    if name is not None:
        if not name.strip():
            raise BadRequest("name: a dataset name is required")
        Dataset.objects.filter(pk=dataset.pk).update(name=name.strip()[:200])
        dataset.name = name.strip()[:200]
    _save(dataset, new_cases, new_scorers)
    return dataset


def add_cases(user: User, dataset_id: int, new: list[dict]) -> Dataset:
    dataset = reachable(user, dataset_id, Need.EDIT)
    current = version_of(dataset)
    taken = {c["id"] for c in current.cases}
    numbered = []
    for i, case in enumerate(new):
        if not isinstance(case, dict):
            raise BadRequest(f"cases[{i}]: expected an object")
        case = dict(case)
        if "id" not in case:  # named for its place in the dataset
            n = len(current.cases) + i + 1
            while f"case-{n}" in taken:
                n += 1
            case["id"] = f"case-{n}"
        taken.add(case["id"])
        numbered.append(case)
    return update_dataset(user, dataset_id, cases=[*current.cases, *numbered])


def import_cases(user: User, dataset_id: int, *, format: str, text: str, columns: dict[str, str] | None) -> Dataset:
    if format == "csv":
        rows = case_rows.from_csv(text, columns)
    elif format == "jsonl":
        rows = case_rows.from_jsonl(text, columns)
    else:
        raise BadRequest(f"format: `csv` or `jsonl`, not {format!r}")
    if not rows:
        raise BadRequest("the import holds no rows")
    return add_cases(user, dataset_id, rows)


def add_run(user: User, dataset_id: int, run_id: str, *, keep_outputs: bool, case_id: str | None = None) -> Dataset:
    """A finished run of the dataset's workflow added as a case."""
    dataset = reachable(user, dataset_id, Need.EDIT)
    try:
        run = reachable_run(user, run_id)
    except Http404:
        raise BadRequest(f"run_id: run {run_id!r} not found") from None
    if run.workflow_id != dataset.workflow_id:
        raise BadRequest(f"run_id: run {run_id} is of another workflow than the dataset's")
    if run.active:
        raise BadRequest(f"run_id: run {run_id} is still {run.status}; add it once it ended")
    case = case_rows.from_run(run, keep_outputs=keep_outputs)
    if case_id:
        case["id"] = case_id
    return add_cases(user, dataset_id, [case])


def listed(user: User, workflow_id: int) -> list[Dataset]:
    workflow = reachable_workflow(user, workflow_id, Need.READ)
    return list(Dataset.objects.filter(workflow=workflow))


def dataset_dict(dataset: Dataset, version: DatasetVersion | None = None, *, full: bool = True) -> dict:
    version = version or version_of(dataset)
    out = {"id": dataset.pk, "name": dataset.name, "workflow_id": dataset.workflow_id, "workspace_id": dataset.workspace_id,
           "version": version.number, "current_version": dataset.current_version, "cases_count": len(version.cases),
           "scorers": version.scorers, "updated_at": dataset.updated_at.isoformat()}
    if full:
        out["cases"] = version.cases
    return out
