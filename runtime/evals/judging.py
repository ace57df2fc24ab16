"""The judge on trial: people label rounds of judged loops ("this round's output was good enough: yes / no"), and
the judge's verdicts are held against the labels.

Over every labelled round that has a verdict (``RunIteration.verdict``, from ``judge_verdict``):

* **too early**: the judge said done on a round labelled not good enough (bad work shipped);
* **too late**: the judge said not done on a round labelled good (the rounds after it were wasted: their tokens
  and, in proportion, the run's cost are counted as ``wasted_tokens`` / ``wasted_cost_usd``);
* **right**: the verdict and the label agree.

Counted per workflow version (the judge's prompt and model live in the document: a version is a judge's version),
and over all. :func:`agreement` is plain Python over rows, so it tests without a database.

Re-scoring the judge alone on the labelled rounds is :mod:`runtime.evals.rescoring`.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from accounts.workspaces import Need
from common.errors import BadRequest
from designer.workflows import reachable as reachable_workflow
from runtime.models import RoundLabel, Run, RunIteration
from runtime.runs.access import reachable as reachable_run

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@dataclass(frozen=True)
class Round:
    run_id: str
    version: int
    step_id: str
    iteration: int
    done: bool | None       # the judge's verdict (None: it gave none)
    tokens: int             # the round's tokens
    later_tokens: int       # the tokens of the loop's rounds after this one
    later_cost_usd: float


def agreement(rounds: Iterable[Round], labels: dict[tuple[str, str, int], bool]) -> dict:
    """Counts per version and over all (see the module's docstring)."""
    per: dict[Any, dict] = defaultdict(lambda: {"labelled": 0, "right": 0, "too_early": 0, "too_late": 0,
                                                "wasted_tokens": 0, "wasted_cost_usd": 0.0})
    for r in rounds:
        good = labels.get((r.run_id, r.step_id, r.iteration))
        if good is None or r.done is None:
            continue
        for key in (r.version, "all"):
            row = per[key]
            row["labelled"] += 1
            if r.done and not good:
                row["too_early"] += 1
            elif not r.done and good:
                row["too_late"] += 1
                row["wasted_tokens"] += r.later_tokens
                row["wasted_cost_usd"] += r.later_cost_usd
            else:
                row["right"] += 1
    def done(row: dict) -> dict:
        return {**row, "agreement": round(row["right"] / row["labelled"], 6) if row["labelled"] else None,
                "wasted_cost_usd": round(row["wasted_cost_usd"], 8)}
    return {"versions": [{"version": v, **done(row)} for v, row in sorted((k, r) for k, r in per.items() if k != "all")],
            "all": done(per["all"]) if "all" in per else done({"labelled": 0, "right": 0, "too_early": 0, "too_late": 0,
                                                                  "wasted_tokens": 0, "wasted_cost_usd": 0.0})}


def rounds_of(runs: Iterable[Run]) -> list[Round]:
    """The judged rounds of these runs, with what the rounds after each cost."""
    runs = list(runs)
    by_id = {str(r.id): r for r in runs}
    rows = RunIteration.objects.filter(run_id__in=[r.id for r in runs], index__isnull=True, iteration__isnull=False,
                                       verdict__isnull=False).values("run_id", "step_id", "iteration", "verdict", "tokens")
    grouped: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for found in rows:
        grouped[(str(found["run_id"]), found["step_id"])].append(dict(found))
    out = []
    for (run_id, step_id), listed in grouped.items():
        run = by_id[run_id]
        run_tokens = max(1, run.tokens_prompt + run.tokens_completion)
        listed.sort(key=lambda r: r["iteration"])
        for i, row in enumerate(listed):
            later = sum(int(r["tokens"] or 0) for r in listed[i + 1:])
            verdict = row["verdict"] if isinstance(row["verdict"], dict) else {}
            out.append(Round(run_id, run.version.number, step_id, int(row["iteration"] or 0), verdict.get("done"), int(row["tokens"] or 0),
                             later, run.cost_usd * later / run_tokens))
    return out


def run_rounds(user: User, run_id: str) -> list[dict]:
    """A run's judged rounds with their verdicts and labels: what the labelling view shows."""
    run = reachable_run(user, run_id)
    labels = {(label.step_id, label.iteration): label.good for label in RoundLabel.objects.filter(run=run)}
    contents = {(r["step_id"], r["iteration"]): r["content"] for r in RunIteration.objects.filter(
        run=run, index__isnull=True, verdict__isnull=False).values("step_id", "iteration", "content")}
    return [{"step_id": r.step_id, "iteration": r.iteration, "done": r.done, "tokens": r.tokens,
             "content": (contents.get((r.step_id, r.iteration)) or "")[:4000], "good": labels.get((r.step_id, r.iteration))}
            for r in sorted(rounds_of([run]), key=lambda r: (r.step_id, r.iteration))]


def label_round(user: User, run_id: str, step_id: str, iteration: int, good: bool | None) -> list[dict]:
    """Label one round (``good`` None: take the label back); the run's rounds as they now are."""
    run = reachable_run(user, run_id, Need.RUN)
    if not RunIteration.objects.filter(run=run, step_id=step_id, iteration=iteration, index__isnull=True,
                                       verdict__isnull=False).exists():
        raise BadRequest(f"step_id/iteration: run {run_id} has no judged round {iteration} of {step_id!r}")
    if good is None:
        RoundLabel.objects.filter(run=run, step_id=step_id, iteration=iteration).delete()
    else:
        RoundLabel.objects.update_or_create(run=run, step_id=step_id, iteration=iteration,
                                            defaults={"good": bool(good), "labelled_by": user})
    return run_rounds(user, run_id)


def labelled(user: User, workflow_id: int, experiment_id: int | None, need: Need) -> tuple[dict, list[Round]]:
    """The labels of the workflow's runs (or one experiment's), by (run id, step id, round), and those runs' judged
    rounds; the workflow reachable with ``need``."""
    labels, _, rounds = labelled_runs(user, workflow_id, experiment_id, need)
    return labels, rounds


def labelled_runs(user: User, workflow_id: int, experiment_id: int | None, need: Need,
                  related: tuple[str, ...] = ("version",)) -> tuple[dict, dict[str, Run], list[Round]]:
    """:func:`labelled`, and the labelled runs by id (read with ``related``): re-scoring needs them whole."""
    workflow = reachable_workflow(user, workflow_id, need)
    found = RoundLabel.objects.filter(run__workflow=workflow)
    if experiment_id is not None:
        found = found.filter(run__experiment_id=experiment_id)
    labels = {(str(r), s, i): g for r, s, i, g in found.values_list("run_id", "step_id", "iteration", "good")}
    runs = {str(r.pk): r for r in Run.objects.filter(pk__in={k[0] for k in labels}).select_related(*related)}
    return labels, runs, rounds_of(runs.values())


def workflow_agreement(user: User, workflow_id: int, experiment_id: int | None = None) -> dict:
    """The judge's agreement with the labels over the workflow's labelled runs (or one experiment's)."""
    labels, rounds = labelled(user, workflow_id, experiment_id, Need.READ)
    return agreement(rounds, labels)
