"""Experiments: a workflow version run over a dataset version, ``trials`` times per case, as ordinary runs.

Each trial is a :class:`runtime.models.Trial` row; its run is an ordinary run (watchable, resumable, forkable) with
``experiment`` set, started with the case's files as its workspace upload (a path of the workflow's folder is so
replaced: the folder is laid in after, keeping what is there), its forEach items (``Run.case_items``) and, for the
simulated provider, the case's script. :func:`drive` starts trials while fewer than ``concurrency`` run (each start
is an ordinary start: the workspace's limits apply and count it; a start refused for the concurrency limit waits
for a free slot, any other limit ends the experiment ``stopped`` with its words), scores each run as it ends
(:mod:`runtime.evals.scorers`), and ends the experiment when every trial is scored.

``drive`` is plain blocking Python: the API runs it on a thread of its own (:func:`launch`), the management
command in the foreground. :func:`results`, :func:`compare` and :func:`gate` read what it wrote.
"""
from __future__ import annotations

import asyncio
import contextlib
import csv
import io
import logging
import statistics
import threading
import time
from collections import defaultdict
from typing import TYPE_CHECKING, Any

from django.conf import settings as django_settings
from django.db import close_old_connections, connection
from django.db.models import Count
from django.http import Http404
from django.utils import timezone

from accounts import audit
from accounts.workspaces import Need, require
from common.errors import BadRequest, LimitReached
from designer.models import WorkflowVersion
from designer.workflows import reachable as reachable_workflow
from runtime.durability import run_files
from runtime.engine.pricing import PriceBook
from runtime.evals import cases as case_rows
from runtime.evals import datasets
from runtime.evals.scorers import Finished, Score, judge_messages, judge_score, run_variables, score_plain, step_ids
from runtime.models import ACTIVE_STATUSES, Experiment, Run, Trial
from runtime.providers import ChatRequest, ProviderError, get_provider, keys, split_model
from runtime.runs import control, create, limits

if TYPE_CHECKING:
    from django.contrib.auth.models import User

log = logging.getLogger(__name__)

MAX_TRIALS = 20
MAX_CONCURRENCY = 50
MAX_RUNS = 20_000
POLL_S = 0.05
SCORE_BATCH = 5
SETTINGS_FIELDS = {"provider", "model", "script", "budgets", "coordinator", "thinking", "model_override"}


def reachable(user: User, experiment_id: int, need: Need = Need.READ) -> Experiment:
    try:
        experiment = Experiment.objects.select_related("workflow", "version", "dataset_version__dataset").get(pk=experiment_id)
    except (Experiment.DoesNotExist, ValueError, TypeError):
        raise Http404(f"experiment {experiment_id} not found") from None
    require(user, experiment.workspace_id, need, f"experiment {experiment_id}")
    return experiment


def _whole(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadRequest(f"{name}: a whole number from {low} to {high}")
    return value


def start_experiment(user: User, *, workflow_id: int, dataset_id: int, version: int | None = None,
                     dataset_version: int | None = None, trials: int = 1, concurrency: int = 4,
                     run_settings: dict | None = None, name: str = "", launch_driver: bool = True) -> Experiment:
    """Check everything a run would check, once; store the experiment and its trials; start driving it."""
    workflow = reachable_workflow(user, workflow_id, Need.RUN)
    dataset = datasets.reachable(user, dataset_id)
    if dataset.workflow_id != workflow.pk:
        raise BadRequest(f"dataset_id: dataset {dataset_id} belongs to another workflow")
    trials = _whole("trials", trials, 1, MAX_TRIALS)
    concurrency = _whole("concurrency", concurrency, 1, MAX_CONCURRENCY)
    number = version or workflow.current_version
    found = WorkflowVersion.objects.filter(workflow=workflow, number=number).first()
    if found is None:
        raise Http404(f"workflow {workflow_id} has no version {number}")
    data = datasets.version_of(dataset, dataset_version)
    if not data.cases:
        raise BadRequest(f"dataset {dataset.name!r} version {data.number} has no cases")
    if len(data.cases) * trials > MAX_RUNS:
        raise BadRequest(f"trials: {len(data.cases)} cases x {trials} trials is more than {MAX_RUNS:,} runs")
    chosen = dict(run_settings or {})
    unknown = sorted(set(chosen) - SETTINGS_FIELDS)
    if unknown:
        raise BadRequest(f"settings: unknown field(s) {', '.join(unknown)} (known: {', '.join(sorted(SETTINGS_FIELDS))})")
    chosen.setdefault("provider", "simulated")
    chosen.setdefault("coordinator", "off")  # trials measure the workflow; a narrator's calls would blur them
    # What a run would be refused for is refused now, once, with the same words.
    create.check_runnable(found.document, f"version {number}", folder=found)
    create.provider_key(workflow.workspace, chosen["provider"], user=user, workflow=workflow.name)
    create.check_script(chosen.get("script"))
    for case in data.cases:
        if case.get("script") is not None:
            create.check_script(case["script"])
    # A day whose runs, tokens or money are used up would refuse its first trial: refused now, with the same words
    # and 429. This holds nothing: each trial reserves as it starts (create.insert_run), so experiments started
    # together still hold no more than the day has left (the ones that find nothing left end `stopped`, saying so).
    try:
        limits.check_start(workflow.workspace, chosen.get("budgets") or {}, at_once=False)
    except LimitReached as exc:
        audit.record(workflow.workspace_id, user, "run_refused", workflow=workflow.name, limit=exc.limit, experiment=True)
        raise
    experiment = Experiment.objects.create(
        workspace=workflow.workspace, workflow=workflow, version=found, dataset_version=data, owner=user,
        name=(name or f"{workflow.name} v{number} on {dataset.name} v{data.number}")[:200], trials=trials,
        concurrency=concurrency, settings=chosen)
    Trial.objects.bulk_create([Trial(experiment=experiment, case_id=c["id"], trial=t)
                               for c in data.cases for t in range(1, trials + 1)])
    if launch_driver:
        launch(experiment.pk)
    return experiment


def stop_experiment(user: User, experiment_id: int) -> Experiment:
    experiment = reachable(user, experiment_id, Need.RUN)
    if experiment.status == "running":
        Experiment.objects.filter(pk=experiment.pk, status="running").update(
            status="stopped", reason=f"stopped by {user.get_username()}", finished_at=timezone.now())
        Trial.objects.filter(experiment=experiment, status="pending").update(status="failed", reason="the experiment was stopped")
        for run in Run.objects.filter(experiment=experiment, status__in=ACTIVE_STATUSES):
            with contextlib.suppress(BadRequest):  # it ended meanwhile
                control.request_control(run, "stop", user)
    return reachable(user, experiment_id)


# ---------------------------------------------------------------- driving

_driving: set[int] = set()
_driving_lock = threading.Lock()
_threads: list[threading.Thread] = []


def wait_for_drivers(timeout: float) -> None:
    """Wait (up to ``timeout`` seconds) for this process's experiment threads to end: tests, before their database goes."""
    deadline = time.monotonic() + timeout
    for thread in list(_threads):
        thread.join(max(0.0, deadline - time.monotonic()))
    _threads[:] = [t for t in _threads if t.is_alive()]


def launch(experiment_id: int) -> bool:
    """Drive the experiment on a thread of this process, unless one already does; False when one did."""
    with _driving_lock:
        if experiment_id in _driving:
            return False
        _driving.add(experiment_id)

    def work() -> None:
        try:
            drive(experiment_id)
        except Exception:
            log.exception("experiment %s: its driver failed", experiment_id)
            Experiment.objects.filter(pk=experiment_id, status="running").update(
                status="failed", reason="internal error while driving it", finished_at=timezone.now())
        finally:
            with _driving_lock:
                _driving.discard(experiment_id)
            connection.close()

    thread = threading.Thread(target=work, name=f"experiment-{experiment_id}", daemon=True)
    _threads.append(thread)
    thread.start()
    return True


def drive(experiment_id: int, *, poll_s: float = POLL_S, on_progress: Any = None) -> Experiment:
    """Start, watch and score the experiment's trials until every one is scored (or it is stopped)."""
    experiment = Experiment.objects.select_related("workflow", "version", "dataset_version", "owner", "workspace").get(pk=experiment_id)
    by_id = {c["id"]: c for c in experiment.dataset_version.cases}
    uploads: dict[str, str | None] = {}
    key_source = None
    last_progress = None
    while True:
        close_old_connections()
        status = Experiment.objects.filter(pk=experiment_id).values_list("status", flat=True).first()
        if status != "running":
            break
        # Free slots first (runs still active, not trials still unscored), then score: a slot is never kept
        # waiting on a scorer.
        active = Run.objects.filter(experiment=experiment, status__in=ACTIVE_STATUSES).count()
        pending = list(Trial.objects.filter(experiment=experiment, status="pending").order_by("id")[:max(0, experiment.concurrency - active)])
        if not pending and not Trial.objects.filter(experiment=experiment, status__in=("starting", "running")).exists():
            Experiment.objects.filter(pk=experiment_id, status="running").update(status="completed", finished_at=timezone.now())
            break
        for trial in pending:
            # Claimed first: a second driver (another process that was asked for the results) never starts it too.
            if not Trial.objects.filter(pk=trial.pk, status="pending").update(status="starting"):
                continue
            try:
                if key_source is None:
                    key_source = create.provider_key(experiment.workspace, experiment.settings["provider"]) or ""
                _start(experiment, trial, by_id[trial.case_id], uploads, key_source or None)
            except LimitReached as exc:
                Trial.objects.filter(pk=trial.pk, status="starting").update(status="pending")
                if exc.limit == "concurrent_runs":
                    break  # a slot frees up when a run ends
                _end(experiment_id, "stopped", f"a workspace limit was reached: {exc}")
                break
            except (BadRequest, Http404) as exc:
                Trial.objects.filter(pk=trial.pk).update(status="failed", reason=str(exc)[:500])
        scored = _score_ended(experiment, by_id, at_most=SCORE_BATCH)
        if on_progress is not None:
            now = progress(experiment)
            if now != last_progress:
                on_progress(now)
                last_progress = now
        if not scored and not pending:
            time.sleep(poll_s)
    _score_ended(experiment, by_id)
    return Experiment.objects.get(pk=experiment_id)


def _end(experiment_id: int, status: str, reason: str) -> None:
    Experiment.objects.filter(pk=experiment_id, status="running").update(status=status, reason=reason[:1000], finished_at=timezone.now())
    Trial.objects.filter(experiment_id=experiment_id, status="pending").update(status="failed", reason=reason[:500])


def _start(experiment: Experiment, trial: Trial, case: dict, uploads: dict[str, str | None], key_source: str | None) -> None:
    chosen = experiment.settings
    if case["id"] not in uploads:
        uploads[case["id"]] = case_rows.upload_for(experiment.owner, f"case {case['id']}", case.get("files") or {})
    upload = uploads[case["id"]]
    script = case.get("script") if chosen["provider"] == "simulated" and case.get("script") is not None else chosen.get("script")

    def claim(run: Run) -> None:
        Trial.objects.filter(pk=trial.pk).update(run=run, status="running")

    create.insert_run(experiment.owner, experiment.workflow, experiment.version, provider=chosen["provider"], key_source=key_source,
                      fields={"model": (chosen.get("model") or "")[:200], "script": create.check_script(script),
                              "budgets": chosen.get("budgets") or {}, "coordinator": chosen.get("coordinator", "off"),
                              "model_override": bool(chosen.get("model_override")), "thinking": chosen.get("thinking") or "",
                              "workspace_seed": {"upload": upload} if upload else None,
                              "case_items": case.get("items") or None, "experiment": experiment},
                      prepare=claim, audit_extra={"experiment": experiment.pk, "case": case["id"], "trial": trial.trial})


def _score_ended(experiment: Experiment, by_id: dict[str, dict], at_most: int | None = None) -> int:
    """Score trials whose runs ended (``at_most`` of them: the driver goes back to free slots between batches)."""
    ended = Trial.objects.filter(experiment=experiment, status="running").exclude(run__status__in=ACTIVE_STATUSES).select_related("run")
    if at_most is not None:
        ended = ended[:at_most]
    count = 0
    for trial in ended:
        count += 1
        if trial.run is None:
            Trial.objects.filter(pk=trial.pk).update(status="failed", reason="its run was deleted")
            continue
        score_trial(experiment, trial, by_id.get(trial.case_id, {}))
    return count


def finished_of(run: Run, case: dict) -> Finished:
    steps = case_rows.finished_steps(run)
    loops = {k: {"rounds": int(v.get("rounds_completed") or 0), "break_reason": v.get("break_reason") or "",
                 "broke_early": bool(v.get("broke_early"))}
             for k, v in (run.loops or {}).items() if isinstance(v, dict)}
    duration = (run.finished_at - run.started_at).total_seconds() if run.finished_at and run.started_at else 0.0
    order = [s for s in step_ids(run.version.document) if s in steps]
    folder = run_files.workspace_dir(run.id)
    return Finished(variables=run_variables(status=run.status, reason=run.reason, steps=steps, loops=loops,
                                            tokens=run.tokens_prompt + run.tokens_completion, cost_usd=run.cost_usd,
                                            duration_s=duration, expected=case.get("expected") or {},
                                            case={"id": case.get("id"), "name": case.get("name", "")}),
                    last_step=order[-1] if order else None, workspace=folder if folder.is_dir() else None)


def score_trial(experiment: Experiment, trial: Trial, case: dict) -> Trial:
    run = trial.run
    if run is None:
        raise ValueError(f"trial {trial.pk} has no run to score")
    finished = finished_of(run, case)
    scores: dict[str, dict] = {}
    judge_tokens, judge_cost = 0, 0.0
    for scorer in experiment.dataset_version.scorers:
        result = judge(scorer, finished, experiment.workspace) if scorer["kind"] == "llm_judge" else score_plain(scorer, finished)
        judge_tokens += result.tokens
        judge_cost += result.cost_usd
        scores[scorer["name"]] = result.as_dict()
    mean = statistics.fmean(s["score"] for s in scores.values()) if scores else (1.0 if run.status == "completed" else 0.0)
    Trial.objects.filter(pk=trial.pk).update(status="scored", scores=scores, score=mean, judge_tokens=judge_tokens,
                                             judge_cost_usd=judge_cost, reason="" if run.status == "completed" else f"run {run.status}: {run.reason}"[:500])
    trial.refresh_from_db()
    return trial


def judge(scorer: dict, finished: Finished, workspace: Any) -> Score:
    """The LLM judge scorer: one call to its model, through the workspace's key (or the server's, where granted)."""
    prefix, model = split_model(scorer["model"])
    provider_name = prefix or "openai"
    config: dict[str, Any] = {}
    if provider_name in keys.KEYED:
        found = keys.resolve(workspace, provider_name)
        if found.api_key is None:
            return Score(0.0, False, f"the judge's provider {provider_name} has no key in this workspace")
        config["api_key"] = found.api_key
        config["base_url"] = (found.base_url if found.source == "workspace" and found.base_url
                              else getattr(django_settings, f"{provider_name.upper()}_BASE_URL", None))
    elif provider_name == "simulated":
        config["script"] = {"replies": {"judge-scorer": scorer.get("replies") or ['{"score": 1}']}}
    request = ChatRequest(model=model, messages=judge_messages(scorer, finished), step_id="judge-scorer",
                          step_path="judge-scorer", agent="judge-scorer", temperature=0)

    async def ask() -> Any:
        provider = get_provider(provider_name, **config)
        try:
            return await provider.chat(request)
        finally:
            await provider.aclose()

    try:
        reply = asyncio.run(ask())
    except ProviderError as exc:
        return Score(0.0, False, f"the judge's call failed: {exc}")
    result = judge_score(scorer, reply.content)
    result.tokens = reply.usage.total
    price = PriceBook(getattr(django_settings, "MODEL_PRICES", {}) or {}).cost(provider_name, model, reply.usage.prompt, reply.usage.completion)
    result.cost_usd = price or 0.0
    return result


# ---------------------------------------------------------------- results

TRIAL_RUN_FIELDS = ("run_id", "run__status", "run__reason", "run__tokens_prompt", "run__tokens_completion", "run__cost_usd",
                    "run__started_at", "run__finished_at", "run__loops")


def progress(experiment: Experiment) -> dict:
    counts = dict.fromkeys(("pending", "running", "scored", "failed"), 0)
    for status, n in _status_counts(experiment):
        key = "running" if status == "starting" else status  # claimed, its run being made
        counts[key] = counts.get(key, 0) + n
    total = sum(counts.values())
    return {"total": total, **counts, "done": counts["scored"] + counts["failed"]}


def _status_counts(experiment: Experiment) -> list[tuple[str, int]]:
    return list(Trial.objects.filter(experiment=experiment).values_list("status").annotate(n=Count("id")))


def _spread(values: list[float]) -> dict:
    if not values:
        return {"mean": None, "stdev": None, "min": None, "max": None, "n": 0}
    return {"mean": round(statistics.fmean(values), 6), "stdev": round(statistics.pstdev(values), 6) if len(values) > 1 else 0.0,
            "min": round(min(values), 6), "max": round(max(values), 6), "n": len(values)}


def trial_rows(experiment: Experiment) -> list[dict]:
    rows = []
    for t in Trial.objects.filter(experiment=experiment).values("case_id", "trial", "status", "reason", "scores", "score",
                                                                "judge_tokens", "judge_cost_usd", *TRIAL_RUN_FIELDS).order_by("id"):
        loops = t["run__loops"] if isinstance(t["run__loops"], dict) else {}
        rounds = sum(int(v.get("rounds_completed") or 0) for v in loops.values() if isinstance(v, dict))
        stop = next((str(v.get("break_reason") or v.get("stop_rule") or "") for v in loops.values() if isinstance(v, dict)), "")
        started, finished = t["run__started_at"], t["run__finished_at"]
        rows.append({"case_id": t["case_id"], "trial": t["trial"], "status": t["status"], "reason": t["reason"],
                     "run_id": str(t["run_id"]) if t["run_id"] else None, "run_status": t["run__status"],
                     "scores": t["scores"] or {}, "score": t["score"], "rounds": rounds, "stop_reason": stop,
                     "tokens": (t["run__tokens_prompt"] or 0) + (t["run__tokens_completion"] or 0),
                     "cost_usd": round(t["run__cost_usd"] or 0.0, 8),
                     "duration_s": round((finished - started).total_seconds(), 3) if started and finished else None,
                     "judge_tokens": t["judge_tokens"], "judge_cost_usd": round(t["judge_cost_usd"], 8)})
    return rows


def results(experiment: Experiment) -> dict:
    """Per trial, per case (with the spread across its trials) and over all: scores, rounds, tokens, cost, time."""
    rows = trial_rows(experiment)
    scored = [r for r in rows if r["score"] is not None]
    per_case: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        per_case[r["case_id"]].append(r)
    scorer_names = [s["name"] for s in experiment.dataset_version.scorers]
    cases: list[dict[str, Any]] = []
    for case_id, trials in per_case.items():
        values = [r["score"] for r in trials if r["score"] is not None]
        cases.append({"case_id": case_id, "score": _spread(values),
                      "passed": sum(1 for r in trials if r["scores"] and all(s["passed"] for s in r["scores"].values())),
                      "trials": len(trials), "rounds": _spread([float(r["rounds"]) for r in trials if r["run_id"]]),
                      "scorers": {n: _spread([r["scores"][n]["score"] for r in trials if n in r["scores"]]) for n in scorer_names}})
    case_means = [c["score"]["mean"] for c in cases if c["score"]["mean"] is not None]
    passed = sum(1 for r in scored if r["scores"] and all(s["passed"] for s in r["scores"].values()))
    aggregate = {"score": _spread([r["score"] for r in scored]),
                 "case_score": _spread(case_means),
                 "pass_rate": round(passed / len(scored), 6) if scored else None,
                 "scorers": {n: _spread([r["scores"][n]["score"] for r in scored if n in r["scores"]]) for n in scorer_names},
                 "rounds": _spread([float(r["rounds"]) for r in scored]),
                 "tokens": sum(r["tokens"] for r in rows), "cost_usd": round(sum(r["cost_usd"] for r in rows), 8),
                 "judge_tokens": sum(r["judge_tokens"] for r in rows), "judge_cost_usd": round(sum(r["judge_cost_usd"] for r in rows), 8),
                 "duration_s": _spread([r["duration_s"] for r in scored if r["duration_s"] is not None])}
    return {"experiment": experiment_dict(experiment), "progress": progress(experiment), "aggregate": aggregate,
            "cases": cases, "trials": rows}


def experiment_dict(experiment: Experiment) -> dict:
    data = experiment.dataset_version
    return {"id": experiment.pk, "name": experiment.name, "status": experiment.status, "reason": experiment.reason,
            "workflow_id": experiment.workflow_id, "version": experiment.version.number,
            "dataset_id": data.dataset_id, "dataset_version": data.number, "trials": experiment.trials,
            "concurrency": experiment.concurrency, "settings": {k: v for k, v in experiment.settings.items() if k != "script"},
            "created_at": experiment.created_at.isoformat(),
            "finished_at": experiment.finished_at.isoformat() if experiment.finished_at else None}


def listed(user: User, workflow_id: int) -> list[Experiment]:
    workflow = reachable_workflow(user, workflow_id, Need.READ)
    return list(Experiment.objects.filter(workflow=workflow).select_related("version", "dataset_version"))


def export_csv(experiment: Experiment) -> str:
    rows = trial_rows(experiment)
    names = [s["name"] for s in experiment.dataset_version.scorers]
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["case_id", "trial", "status", "run_id", "run_status", "score", *names, "rounds", "stop_reason",
                     "tokens", "cost_usd", "duration_s", "judge_tokens", "judge_cost_usd"])
    for r in rows:
        writer.writerow([r["case_id"], r["trial"], r["status"], r["run_id"] or "", r["run_status"] or "",
                         "" if r["score"] is None else r["score"],
                         *[r["scores"].get(n, {}).get("score", "") for n in names],
                         r["rounds"], r["stop_reason"], r["tokens"], r["cost_usd"],
                         "" if r["duration_s"] is None else r["duration_s"], r["judge_tokens"], r["judge_cost_usd"]])
    return out.getvalue()


# ---------------------------------------------------------------- comparing, gating

def _label(experiment: Experiment, other: Experiment) -> str:
    """What tells the two apart in words: the version, else the model, else the experiment's number."""
    if experiment.version_id != other.version_id:
        return f"version {experiment.version.number}"
    if experiment.settings.get("model") != other.settings.get("model"):
        return f"model {experiment.settings.get('model') or '(default)'}"
    return f"experiment {experiment.pk}"


def compare(candidate: Experiment, baseline: Experiment, *, tolerance: float = 1e-9) -> dict:
    """Per case, the candidate's mean score against the baseline's: better, worse or same, by how much, with the
    two runs (first trials) to compare; a verdict line a CI job can read."""
    if candidate.dataset_version.dataset_id != baseline.dataset_version.dataset_id:
        raise BadRequest("the two experiments ran on different datasets")
    if candidate.workflow_id != baseline.workflow_id:
        raise BadRequest("the two experiments are of different workflows")
    a, b = results(candidate), results(baseline)
    a_cases, b_cases = {c["case_id"]: c for c in a["cases"]}, {c["case_id"]: c for c in b["cases"]}
    first_run: dict[tuple[str, str], str] = {}
    for which, res in (("a", a), ("b", b)):
        for r in res["trials"]:
            if r["run_id"]:
                first_run.setdefault((which, r["case_id"]), r["run_id"])
    rows = []
    for case_id in [*a_cases, *[c for c in b_cases if c not in a_cases]]:
        mine = (a_cases.get(case_id) or {}).get("score", {}).get("mean")
        theirs = (b_cases.get(case_id) or {}).get("score", {}).get("mean")
        if mine is None or theirs is None:
            change = "missing"
            delta = None
        else:
            delta = round(mine - theirs, 6)
            change = "better" if delta > tolerance else "worse" if delta < -tolerance else "same"
        run_a, run_b = first_run.get(("a", case_id)), first_run.get(("b", case_id))
        rows.append({"case_id": case_id, "candidate": mine, "baseline": theirs, "delta": delta, "change": change,
                     "candidate_run": run_a, "baseline_run": run_b,
                     "runs_compare": f"/api/v1/runs/{run_a}/compare/{run_b}" if run_a and run_b else None})
    worse = [r["case_id"] for r in rows if r["change"] == "worse"]
    better = [r["case_id"] for r in rows if r["change"] == "better"]
    ma, mb = a["aggregate"]["score"]["mean"], b["aggregate"]["score"]["mean"]
    name_a, name_b = _label(candidate, baseline), _label(baseline, candidate)
    verdict = (f"{name_a} scores {_num(ma)} vs {_num(mb)} ({name_b}), {len(worse)} case{'s' if len(worse) != 1 else ''} worse, "
               f"{len(better)} better")
    return {"candidate": experiment_dict(candidate), "baseline": experiment_dict(baseline), "score": ma, "baseline_score": mb,
            "rows": rows, "worse": worse, "better": better, "verdict": verdict}


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def gate(experiment: Experiment, *, baseline: Experiment | None = None, min_score: float | None = None,
         max_regressions: int = 0) -> dict:
    """Whether the experiment may ship: its mean score at least ``min_score``, and no more than ``max_regressions``
    cases worse than the baseline's; the reasons when not, and the verdict line."""
    result = results(experiment)
    score = result["aggregate"]["score"]["mean"]
    reasons = []
    if experiment.status != "completed":
        reasons.append(f"the experiment is {experiment.status}{': ' + experiment.reason if experiment.reason else ''}")
    if min_score is not None and (score is None or score < min_score):
        reasons.append(f"score {_num(score)} is below the minimum {min_score:g}")
    comparison = None
    if baseline is not None:
        comparison = compare(experiment, baseline)
        if len(comparison["worse"]) > max_regressions:
            reasons.append(f"{len(comparison['worse'])} case(s) regressed (at most {max_regressions} allowed): "
                           + ", ".join(comparison["worse"][:20]))
    verdict = comparison["verdict"] if comparison else f"experiment {experiment.pk} scores {_num(score)}"
    return {"passed": not reasons, "score": score, "reasons": reasons, "verdict": verdict,
            "regressions": comparison["worse"] if comparison else []}
