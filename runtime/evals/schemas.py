"""What the evaluation endpoints take and answer (runtime/evals/api.py). Cases, scorers and results are the services'
dicts (runtime.evals), passed through: their shapes are documented in runtime.evals.cases and .scorers."""
from __future__ import annotations

from typing import Any, Optional

from ninja import Field, Schema

from common.schemas import Number


class DatasetIn(Schema):
    workflow_id: int
    name: str
    cases: Optional[list[Any]] = None
    scorers: Optional[list[Any]] = None


class DatasetUpdateIn(Schema):
    name: Optional[str] = None
    cases: Optional[list[Any]] = None      # the whole list (a new version); absent: as it was
    scorers: Optional[list[Any]] = None


class CasesIn(Schema):
    cases: list[Any]                       # appended (ids made for those without)


class ImportIn(Schema):
    format: str                            # csv or jsonl
    text: str
    columns: Optional[dict[str, str]] = None  # column -> id, name, file:PATH, items:STEP, expected:KEY, expected_file:PATH


class FromRunIn(Schema):
    run_id: str
    keep_outputs: bool = False             # its steps' outputs become the case's expected ones
    case_id: Optional[str] = None


class DatasetOut(Schema):
    id: int
    name: str
    workflow_id: int
    workspace_id: int
    version: int
    current_version: int
    cases_count: int
    scorers: list[dict[str, Any]]
    updated_at: str
    cases: Optional[list[dict[str, Any]]] = None


class ExperimentIn(Schema):
    workflow_id: int
    dataset_id: int
    version: Optional[int] = None          # the workflow's version (default: its current one)
    dataset_version: Optional[int] = None
    trials: int = 1
    concurrency: int = 4
    name: str = ""
    settings: Optional[dict[str, Any]] = None  # provider, model, script, budgets, coordinator, thinking, model_override


class ExperimentOut(Schema):
    id: int
    name: str
    status: str
    reason: str
    workflow_id: int
    version: int
    dataset_id: int
    dataset_version: int
    trials: int
    concurrency: int
    settings: dict[str, Any]
    created_at: str
    finished_at: Optional[str] = None


class ProgressOut(Schema):
    total: int
    pending: int
    running: int
    scored: int
    failed: int
    done: int


class ResultsOut(Schema):
    experiment: ExperimentOut
    progress: ProgressOut
    aggregate: dict[str, Any]
    cases: list[dict[str, Any]]
    trials: list[dict[str, Any]]


class ComparisonOut(Schema):
    candidate: ExperimentOut
    baseline: ExperimentOut
    score: Optional[Number] = None
    baseline_score: Optional[Number] = None
    rows: list[dict[str, Any]]
    worse: list[str]
    better: list[str]
    verdict: str


class GateOut(Schema):
    passed: bool
    score: Optional[Number] = None
    reasons: list[str]
    verdict: str
    regressions: list[str]


class RoundOut(Schema):
    step_id: str
    iteration: int
    done: Optional[bool] = None      # the judge's verdict
    tokens: int
    content: str
    good: Optional[bool] = None      # the label (None: not labelled)


class LabelIn(Schema):
    good: Optional[bool] = None      # None takes the label back


class AgreementRowOut(Schema):
    labelled: int
    right: int
    too_early: int
    too_late: int
    wasted_tokens: int
    wasted_cost_usd: Number
    agreement: Optional[Number] = None


class VersionAgreementOut(AgreementRowOut):
    version: int


class AgreementOut(Schema):
    versions: list[VersionAgreementOut]
    all: AgreementRowOut


class RescoreIn(Schema):
    experiment: Optional[int] = None  # only this experiment's labelled rounds
    # The judge call changed (runtime.evals.rescoring): prompt (the judge agent's), or as the playground takes it
    # (runtime.runs.playground): instructions, system, user, model, temperature; none: the judge as it was (how
    # consistent is it?).
    edits: dict[str, Any] = Field(default_factory=dict)
    script: Any = None                # simulated runs: the judge's replies for the new calls
    concurrency: int = 8              # judge calls at once (1 to 32)


class RescoredRoundOut(Schema):
    run_id: str
    step_id: str
    iteration: int
    good: bool                        # the label
    was: Optional[bool] = None        # the judge's verdict then
    now: Optional[bool] = None        # and when asked again
    reason: str
    error: Optional[str] = None


class RescoreOut(Schema):
    before: AgreementOut
    after: AgreementOut
    calls: int                        # judge calls made, one per labelled round
    concurrency: int                  # at most this many at once
    tokens: int
    cost_usd: Number
    rounds: list[RescoredRoundOut]
