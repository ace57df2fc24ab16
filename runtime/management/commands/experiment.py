"""``manage.py experiment run WORKFLOW DATASET``: run an experiment in the foreground and gate on it (for CI).

WORKFLOW is a workflow's id or name, DATASET a dataset's id or name (of that workflow). The experiment runs as the
user given by ``--user`` (default: the workflow's owner), with that user's roles. It prints progress, the results
and a verdict line, and exits 0 when the gate passes, 1 when the score is below ``--min-score`` or more than
``--max-regressions`` cases are worse than in experiment ``--compare-to``, 2 when it could not run at all.
"""
from __future__ import annotations

import json
import sys
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.http import Http404

from common.errors import BadRequest, LimitReached
from designer.models import Workflow
from runtime.evals import experiments
from runtime.models import Dataset

GATE_FAILED = 1
COULD_NOT_RUN = 2


class Command(BaseCommand):
    help = "Run a workflow version over a dataset and gate on the score (exit 1 below --min-score or on regressions)."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        run = sub.add_parser("run", help="run an experiment and gate on it")
        run.add_argument("workflow", help="the workflow's id or name")
        run.add_argument("dataset", help="the dataset's id or name")
        run.add_argument("--version", type=int, default=None, help="the workflow's version (default: current)")
        run.add_argument("--dataset-version", type=int, default=None)
        run.add_argument("--trials", type=int, default=1)
        run.add_argument("--concurrency", type=int, default=4)
        run.add_argument("--provider", default="simulated")
        run.add_argument("--model", default=None)
        run.add_argument("--user", default=None, help="who runs it (default: the workflow's owner)")
        run.add_argument("--compare-to", type=int, default=None, help="a baseline experiment's id")
        run.add_argument("--min-score", type=float, default=None)
        run.add_argument("--max-regressions", type=int, default=0, help="cases allowed to be worse than the baseline (default 0)")
        run.add_argument("--json", action="store_true", help="print the results and the gate as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            workflow = _workflow(options["workflow"])
            user = _user(options["user"], workflow)
            dataset = _dataset(options["dataset"], workflow)
            settings: dict[str, Any] = {"provider": options["provider"]}
            if options["model"]:
                settings["model"] = options["model"]
            experiment = experiments.start_experiment(
                user, workflow_id=workflow.pk, dataset_id=dataset.pk, version=options["version"],
                dataset_version=options["dataset_version"], trials=options["trials"], concurrency=options["concurrency"],
                run_settings=settings, launch_driver=False)
            baseline = experiments.reachable(user, options["compare_to"]) if options["compare_to"] else None
        except (BadRequest, Http404, LimitReached) as exc:
            raise CommandError(str(exc), returncode=COULD_NOT_RUN) from None
        self.stderr.write(f"experiment {experiment.pk}: {experiment.name}")

        def report(progress: dict) -> None:
            self.stderr.write(f"  {progress['done']}/{progress['total']} done ({progress['running']} running, {progress['failed']} failed)")

        experiment = experiments.drive(experiment.pk, on_progress=report)
        answer = experiments.gate(experiment, baseline=baseline, min_score=options["min_score"],
                                  max_regressions=options["max_regressions"])
        if options["json"]:
            self.stdout.write(json.dumps({"results": experiments.results(experiment), "gate": answer}))
        else:
            aggregate = experiments.results(experiment)["aggregate"]
            score = aggregate["score"]
            self.stdout.write(f"score {score['mean']} (stdev {score['stdev']}, n {score['n']}), pass rate {aggregate['pass_rate']}, "
                              f"tokens {aggregate['tokens']}, cost {aggregate['cost_usd']} USD")
            self.stdout.write(answer["verdict"])
            for reason in answer["reasons"]:
                self.stdout.write(f"FAILED: {reason}")
            self.stdout.write("PASSED" if answer["passed"] else "GATE FAILED")
        if not answer["passed"]:
            sys.exit(GATE_FAILED)


def _workflow(ref: str) -> Workflow:
    found = Workflow.objects.filter(pk=int(ref)).first() if ref.isdigit() else None
    if found is None:
        named = list(Workflow.objects.filter(name=ref)[:2])
        if len(named) > 1:
            raise CommandError(f"two workflows are named {ref!r}: give its id", returncode=COULD_NOT_RUN)
        found = named[0] if named else None
    if found is None:
        raise CommandError(f"no workflow {ref!r}", returncode=COULD_NOT_RUN)
    return found


def _dataset(ref: str, workflow: Workflow) -> Dataset:
    mine = Dataset.objects.filter(workflow=workflow)
    found = mine.filter(pk=int(ref)).first() if ref.isdigit() else None
    found = found or mine.filter(name=ref).first()
    if found is None:
        raise CommandError(f"workflow {workflow.name!r} has no dataset {ref!r}", returncode=COULD_NOT_RUN)
    return found


def _user(name: str | None, workflow: Workflow) -> Any:
    if name is None:
        return workflow.owner
    found = get_user_model().objects.filter(username=name).first()
    if found is None:
        raise CommandError(f"no user {name!r}", returncode=COULD_NOT_RUN)
    return found
