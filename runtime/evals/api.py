"""Evaluation endpoints: datasets, experiments, their results, comparisons and gates. Thin over runtime.evals."""
from __future__ import annotations

import json
from typing import Literal, Optional

from django.http import HttpResponse
from ninja import Query, Router, Status

from accounts.tokens import API_AUTH
from common.schemas import errors, file_answer
from common.types import ApiRequest
from runtime.evals import datasets, experiments, judging, rescoring
from runtime.evals.schemas import (
    AgreementOut,
    CasesIn,
    ComparisonOut,
    DatasetIn,
    DatasetOut,
    DatasetUpdateIn,
    ExperimentIn,
    ExperimentOut,
    FromRunIn,
    GateOut,
    ImportIn,
    LabelIn,
    ProgressOut,
    RescoreIn,
    RescoreOut,
    ResultsOut,
    RoundOut,
)

router = Router(tags=["evaluations"], auth=API_AUTH)


@router.get("/workflows/{workflow_id}/datasets", response={200: list[DatasetOut], **errors(401, 404)})
def list_datasets(request: ApiRequest, workflow_id: int) -> list[dict]:
    return [datasets.dataset_dict(d, full=False) for d in datasets.listed(request.auth, workflow_id)]


@router.post("/datasets", response={201: DatasetOut, **errors(400, 401, 403, 404, 422)})
def create_dataset(request: ApiRequest, payload: DatasetIn) -> Status[dict]:
    """A dataset of the workflow's cases and scorers (version 1); the cases and scorers are checked against it."""
    dataset = datasets.create_dataset(request.auth, payload.workflow_id, payload.name, payload.cases, payload.scorers)
    return Status(201, datasets.dataset_dict(dataset))


@router.get("/datasets/{dataset_id}", response={200: DatasetOut, **errors(401, 404, 422)})
def get_dataset(request: ApiRequest, dataset_id: int, version: Optional[int] = Query(None, ge=1, le=2**31)) -> dict:
    dataset = datasets.reachable(request.auth, dataset_id)
    return datasets.dataset_dict(dataset, datasets.version_of(dataset, version))


@router.put("/datasets/{dataset_id}", response={200: DatasetOut, **errors(400, 401, 403, 404, 422)})
def update_dataset(request: ApiRequest, dataset_id: int, payload: DatasetUpdateIn) -> dict:
    """A new version: the cases and scorers given replace the current ones."""
    return datasets.dataset_dict(datasets.update_dataset(request.auth, dataset_id, cases=payload.cases,
                                                         scorers=payload.scorers, name=payload.name))


@router.post("/datasets/{dataset_id}/cases", response={200: DatasetOut, **errors(400, 401, 403, 404, 422)})
def add_cases(request: ApiRequest, dataset_id: int, payload: CasesIn) -> dict:
    return datasets.dataset_dict(datasets.add_cases(request.auth, dataset_id, payload.cases))


@router.post("/datasets/{dataset_id}/import", response={200: DatasetOut, **errors(400, 401, 403, 404, 422)})
def import_cases(request: ApiRequest, dataset_id: int, payload: ImportIn) -> dict:
    """CSV or JSONL, one row a case, appended."""
    return datasets.dataset_dict(datasets.import_cases(request.auth, dataset_id, format=payload.format, text=payload.text,
                                                       columns=payload.columns))


@router.post("/datasets/{dataset_id}/from-run", response={200: DatasetOut, **errors(400, 401, 403, 404, 422)})
def add_run(request: ApiRequest, dataset_id: int, payload: FromRunIn) -> dict:
    """A finished run of the workflow as a case: its inputs, and with `keep_outputs` its outputs as expected."""
    return datasets.dataset_dict(datasets.add_run(request.auth, dataset_id, payload.run_id, keep_outputs=payload.keep_outputs,
                                                  case_id=payload.case_id))


@router.get("/workflows/{workflow_id}/experiments", response={200: list[ExperimentOut], **errors(401, 404)})
def list_experiments(request: ApiRequest, workflow_id: int) -> list[dict]:
    return [experiments.experiment_dict(e) for e in experiments.listed(request.auth, workflow_id)]


@router.post("/experiments", response={201: ExperimentOut, **errors(400, 401, 403, 404, 422, 429)})
def start_experiment(request: ApiRequest, payload: ExperimentIn) -> Status[dict]:
    """Run a workflow version over a dataset, `trials` runs per case, at most `concurrency` at once."""
    experiment = experiments.start_experiment(
        request.auth, workflow_id=payload.workflow_id, dataset_id=payload.dataset_id, version=payload.version,
        dataset_version=payload.dataset_version, trials=payload.trials, concurrency=payload.concurrency,
        run_settings=payload.settings, name=payload.name)
    return Status(201, experiments.experiment_dict(experiment))


@router.get("/experiments/{experiment_id}", response={200: ResultsOut, **errors(401, 404)})
def get_experiment(request: ApiRequest, experiment_id: int) -> dict:
    """Its results so far: per trial, per case with the spread across trials, and over all."""
    experiment = experiments.reachable(request.auth, experiment_id)
    if experiment.status == "running":
        experiments.launch(experiment.pk)  # driven here again when the process that drove it is gone
    return experiments.results(experiment)


@router.get("/experiments/{experiment_id}/progress", response={200: ProgressOut, **errors(401, 404)})
def experiment_progress(request: ApiRequest, experiment_id: int) -> dict:
    return experiments.progress(experiments.reachable(request.auth, experiment_id))


@router.post("/experiments/{experiment_id}/stop", response={200: ExperimentOut, **errors(401, 403, 404)})
def stop_experiment(request: ApiRequest, experiment_id: int) -> dict:
    return experiments.experiment_dict(experiments.stop_experiment(request.auth, experiment_id))


@router.get("/experiments/{experiment_id}/export", response={200: None, **errors(401, 404, 422)},
            openapi_extra=file_answer("text/csv", "the experiment's trials as CSV, or its results as JSON"))
def export_experiment(request: ApiRequest, experiment_id: int, format: Literal["csv", "json"] = "csv") -> HttpResponse:
    experiment = experiments.reachable(request.auth, experiment_id)
    if format == "json":
        response = HttpResponse(json.dumps(experiments.results(experiment)), content_type="application/json")
    else:
        response = HttpResponse(experiments.export_csv(experiment), content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="experiment-{experiment.pk}.{format}"'
    return response


@router.get("/experiments/{experiment_id}/compare/{other_id}", response={200: ComparisonOut, **errors(400, 401, 404)})
def compare_experiments(request: ApiRequest, experiment_id: int, other_id: int) -> dict:
    """This experiment (the candidate) against another on the same dataset (the baseline), case by case."""
    return experiments.compare(experiments.reachable(request.auth, experiment_id), experiments.reachable(request.auth, other_id))


@router.get("/experiments/{experiment_id}/gate", response={200: GateOut, 412: GateOut, **errors(400, 401, 404, 422)})
def gate(request: ApiRequest, experiment_id: int, compare_to: Optional[int] = Query(None, ge=1, le=2**63 - 1),
         min_score: Optional[float] = Query(None, ge=0, le=1), max_regressions: int = Query(0, ge=0, le=100_000)) -> Status[dict]:
    """The CI gate: 200 when the experiment passes, 412 with the reasons when its score is below `min_score` or more
    than `max_regressions` cases are worse than in experiment `compare_to`."""
    experiment = experiments.reachable(request.auth, experiment_id)
    baseline = experiments.reachable(request.auth, compare_to) if compare_to is not None else None
    answer = experiments.gate(experiment, baseline=baseline, min_score=min_score, max_regressions=max_regressions)
    return Status(200 if answer["passed"] else 412, answer)


@router.get("/runs/{run_id}/rounds", response={200: list[RoundOut], **errors(401, 404)})
def run_rounds(request: ApiRequest, run_id: str) -> list[dict]:
    """The run's judged rounds: each verdict, the round's output and its label."""
    return judging.run_rounds(request.auth, run_id)


@router.put("/runs/{run_id}/rounds/{step_id}/{iteration}/label", response={200: list[RoundOut], **errors(400, 401, 403, 404, 422)})
def label_round(request: ApiRequest, run_id: str, step_id: str, iteration: int, payload: LabelIn) -> list[dict]:
    """Label a round good enough or not (`good: null` takes the label back; runner or above)."""
    return judging.label_round(request.auth, run_id, step_id, iteration, payload.good)


@router.get("/workflows/{workflow_id}/judge-agreement", response={200: AgreementOut, **errors(401, 404, 422)})
def judge_agreement(request: ApiRequest, workflow_id: int, experiment: Optional[int] = Query(None, ge=1, le=2**63 - 1)) -> dict:
    """How often the loop's judge stopped too early, too late or right on the labelled rounds, per version."""
    return judging.workflow_agreement(request.auth, workflow_id, experiment)


@router.post("/workflows/{workflow_id}/judge-agreement/rescore", response={200: RescoreOut, **errors(400, 401, 403, 404, 422)})
def rescore_judge(request: ApiRequest, workflow_id: int, payload: RescoreIn) -> dict:
    """Ask the judge alone again on the labelled rounds (a new prompt or model), without running the workers, at most
    `concurrency` calls at once: the agreement before and after (editor or above)."""
    return rescoring.rescore(request.auth, workflow_id, payload.experiment, payload.edits, payload.script,
                             payload.concurrency)
