"""Experiments at size (issue 34): a judged 3-round loop against the fake OpenAI server at 50 ms a call.

Prints, with the load average before, after and at each part:

1. the baseline: CASES x TRIALS runs started directly (runs.create, as POST /runs), at most CONCURRENCY at once,
   each until it ends;
2. the same runs as one experiment (runtime.evals: a dataset of CASES cases, TRIALS trials each, concurrency
   CONCURRENCY), driven in the foreground and scored as they end (a CEL scorer and a contains scorer), and how
   far it is from the baseline (target: within 15 %);
3. the results the experiment's page reads (GET /experiments/{id}: every trial, per case, aggregates), timed
   (target: well under 1 s with 600 runs);
4. the experiment's results page opened in Chromium (a daphne server on this data folder, Debian's chromium through
   Playwright): from navigation to **interactive**, that is the results table drawn with every trial's row and a
   click on the last row's "label rounds" answered (its labelling panel drawn), timed in the page from its
   navigation start (target: <= 1 s with 600 runs); beside it the same for an experiment of one run (the baseline:
   the page's own cost); the first opening (cold cache) and the median of the others;
5. the judge re-scored alone on ROUNDS labelled rounds of the experiment (runtime.evals.rescoring, a new judge
   prompt): the requests the fake server received (target: only judge calls, one per round) and the wall time
   against the ideal, calls / concurrency x latency (target: <= 10 % over), and against a baseline measured here:
   as many bare judge requests through the OpenAI provider at the same concurrency.

The data folder is a temporary one (SQLite); runs execute in this process (the inline backend).
``--cases`` / ``--trials`` (or ``--runs``) / ``--concurrency`` / ``--rounds`` shrink it (``--cases 20 --rounds 60``
runs in a minute or two on 2 cores); ``--skip-direct`` leaves out part 1, the longest. The fake server runs in a
process of its own on the second core (bench/judge_fake.py), as bench/runtime.py's do: a real provider's work is
not done in our process. ``--fake-in-process`` puts it in a thread of this one, as the figures before 2026-11-28.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["DESIGNER_DATA_DIR"] = tempfile.mkdtemp(prefix="bench-evals-")
os.environ.setdefault("RUNTIME_BACKEND", "inline")

import django  # noqa: E402

LOOP = """
name: bench-judged
agents:
  writer: {description: Writes., model: openai/bench-writer}
  judge:
    description: Judges.
    model: openai/bench-judge
    resultSchema:
      type: object
      required: [done]
      properties: {done: {type: boolean}, reason: {type: string}}
steps:
  - id: dev
    loop:
      maxIterations: 3
      untilAgent: judge
      steps:
        - {id: draft, agent: writer, instructions: Write a draft.}
"""


JUDGE_TOOL = {"name": "submit_result", "description": "Submit the verdict.",
              "parameters": {"type": "object", "required": ["done"],
                             "properties": {"done": {"type": "boolean"}, "reason": {"type": "string"}}}}


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values):.0f} ms, max {max(values):.0f} ms"


def open_results(page, url: str, rows: int) -> tuple[float, float]:
    """Open the results page afresh: (ms from navigation to every row drawn, to the last row's click answered)."""
    page.goto("about:blank")
    page.goto(url, wait_until="commit")
    drawn = page.wait_for_function(
        """n => { const rows = document.querySelectorAll('[data-testid=trials] tbody tr');
                  return rows.length === n && performance.now(); }""", arg=rows, polling="raf", timeout=120_000).json_value()
    page.evaluate("""() => { const rows = document.querySelectorAll('[data-testid=trials] tbody tr');
                            rows[rows.length - 1].querySelector('[data-testid=label-rounds]').click(); }""")
    answered = page.wait_for_function("() => document.querySelector('[data-testid=round-labels]') && performance.now()",
                                      polling="raf", timeout=60_000).json_value()
    return float(drawn), float(answered)


def results_page(user: str, pages: list[tuple[str, str, int]], repeats: int) -> dict[str, list[tuple[float, float]]]:
    """Each (name, path, rows) opened ``repeats`` times in Chromium, signed in as ``user``, through a daphne server on
    this process's data folder."""
    from playwright.sync_api import sync_playwright

    from tests.support.browser import CHROMIUM_ARGS, FULL_CHROMIUM, signed_in_context
    from tests.support.servers import base_env, server_process

    env = base_env(DESIGNER_DATA_DIR=os.environ["DESIGNER_DATA_DIR"])
    out: dict[str, list[tuple[float, float]]] = {}
    with server_process(env, {}) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=FULL_CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            context = signed_in_context(browser, server.url, user)
            page = context.new_page()
            for name, path, rows in pages:
                out[name] = [open_results(page, path, rows) for _ in range(repeats)]
            context.close()
        finally:
            browser.close()
    return out


@contextmanager
def judge_fake(latency: float, in_process: bool) -> Iterator[tuple[str, Callable[[], dict[str, int]]]]:
    """The judged loop's fake OpenAI server (bench/judge_fake.py): its URL and how to read its counts."""
    from bench.judge_fake import JudgeFake, counts
    from bench.runtime import start_fake_openai

    if in_process:
        with JudgeFake(latency=latency) as fake:
            yield fake.url, lambda: {"requests": fake.chats, "judge": fake.judged}
        return
    proc, port = start_fake_openai(latency, module="bench.judge_fake")  # on the second core
    try:
        url = f"http://127.0.0.1:{port}"
        yield url, lambda: counts(url)
    finally:
        proc.terminate()
        proc.wait(10)


async def bare_judge_calls(url: str, calls: int, concurrency: int) -> float:
    """``calls`` judge requests straight through the OpenAI provider, ``concurrency`` at once: their wall time."""
    from runtime.providers import ChatRequest, get_provider

    provider = get_provider("openai", api_key="sk-bench", base_url=url)
    gate = asyncio.Semaphore(concurrency)

    async def one(i: int) -> None:
        async with gate:
            await provider.chat(ChatRequest(model="bench-judge", tools=[JUDGE_TOOL], agent="judge",
                                            messages=[{"role": "system", "content": "You judge."},
                                                      {"role": "user", "content": f"Round {i}: a draft about otters."}]))

    started = time.perf_counter()
    try:
        await asyncio.gather(*(one(i) for i in range(calls)))
    finally:
        await provider.aclose()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--runs", type=int, default=None, help="runs in the experiment (sets --cases from --trials)")
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--rounds", type=int, default=1000, help="labelled rounds the judge is re-scored on")
    parser.add_argument("--rescore-concurrency", type=int, default=None, help="judge calls at once (default: the service's)")
    parser.add_argument("--repeats", type=int, default=5, help="openings of each results page")
    parser.add_argument("--skip-direct", action="store_true", help="leave out part 1 (the runs started directly)")
    parser.add_argument("--fake-in-process", action="store_true",
                        help="the fake server in a thread of this process (as before 2026-11-28), not a process of its own")
    args = parser.parse_args()
    if args.runs is not None:
        args.cases = max(1, -(-args.runs // args.trials))
    django.setup()
    import logging

    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    from accounts.models import Workspace
    from bench.judge_fake import NEW_JUDGE_PROMPT
    from designer import workflows
    from runtime.evals import datasets, experiments, judging, rescoring
    from runtime.models import ACTIVE_STATUSES, RoundLabel, Run
    from runtime.runs import create
    from tests.support.servers import password_for

    logging.disable(logging.WARNING)
    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("bench", password=password_for("bench"))
    workflow = workflows.create(user, source=LOOP, document=None)
    Workspace.objects.filter(pk=workflow.workspace_id).update(server_keys=True)
    total = args.cases * args.trials
    at_once = args.rescore_concurrency or rescoring.DEFAULT_CONCURRENCY
    print(f"{args.cases} cases x {args.trials} trials = {total} runs of a 3-round judged loop (6 calls a run), "
          f"concurrency {args.concurrency}, fake OpenAI at {args.latency * 1000:.0f} ms; SQLite, inline backend; "
          f"{os.cpu_count()} cores")
    print(f"load average before: {load()}")
    print(f"the fake server: {'a thread of this process' if args.fake_in_process else 'a process of its own, on the other core'}")
    with judge_fake(args.latency, args.fake_in_process) as (url, counts):
        settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY = url + "/v1", "sk-bench"
        settings.PROVIDER_URLS_ALLOW_PRIVATE = True
        ideal = total * 6 * args.latency / args.concurrency
        print(f"ideal (calls x latency / concurrency): {ideal:.1f} s")

        # 1. The same runs started directly, at most `concurrency` at once.
        direct = None
        if not args.skip_direct:
            started = time.perf_counter()
            launched = 0
            while True:
                active = Run.objects.filter(status__in=ACTIVE_STATUSES).count()
                while launched < total and active < args.concurrency:
                    create.create_run(user, workflow_id=workflow.pk, version=None, provider="openai", coordinator="off")
                    launched += 1
                    active += 1
                if launched == total and active == 0:
                    break
                time.sleep(0.02)
            direct = time.perf_counter() - started
            statuses = sorted(set(Run.objects.values_list("status", flat=True)))
            print(f"1. {total} runs started directly: {direct:.1f} s ({statuses}); load {load()}")

        # 2. The experiment.
        dataset = datasets.create_dataset(user, workflow.pk, "bench", [{"id": f"c{i}"} for i in range(args.cases)], [
            {"name": "rounds", "kind": "cel", "expr": "loops.dev.rounds == 3"},
            {"name": "drafted", "kind": "contains", "step": "dev", "value": "otters"}])
        started = time.perf_counter()
        experiment = experiments.start_experiment(user, workflow_id=workflow.pk, dataset_id=dataset.pk, trials=args.trials,
                                                  concurrency=args.concurrency, run_settings={"provider": "openai"},
                                                  launch_driver=False)
        experiment = experiments.drive(experiment.pk)
        took = time.perf_counter() - started
        against = f", {100 * (took - direct) / direct:+.1f} % against the direct runs (target within 15 %)" if direct else ""
        print(f"2. the experiment: {took:.1f} s ({experiment.status}){against}; load {load()}")
        print(f"   requests to the fake server: {counts()['requests']} (both parts)")
        # The baseline of part 4: an experiment of one run.
        single = datasets.create_dataset(user, workflow.pk, "one", [{"id": "only"}], [])
        smallest = experiments.drive(experiments.start_experiment(
            user, workflow_id=workflow.pk, dataset_id=single.pk, trials=1, concurrency=1,
            run_settings={"provider": "openai"}, launch_driver=False).pk)

        # 3. What the results page reads.
        client = Client()
        client.force_login(user)
        samples = []
        for _ in range(7):
            t0 = time.perf_counter()
            body = client.get(f"/api/v1/experiments/{experiment.pk}").json()
            samples.append(time.perf_counter() - t0)
        aggregate = body["aggregate"]
        print(f"3. GET /experiments/{{id}} with {len(body['trials'])} trials: median {statistics.median(samples) * 1000:.0f} ms, "
              f"max {max(samples) * 1000:.0f} ms; score {aggregate['score']['mean']}, pass rate {aggregate['pass_rate']}")

        # 4. The results page in Chromium, against the page of one run.
        base = f"/workflows/{workflow.pk}/evaluations?experiment="
        opened = results_page("bench", [("one run", base + str(smallest.pk), 1),
                                        (f"{total} runs", base + str(experiment.pk), total)], args.repeats)
        print(f"4. the results page in Chromium, navigation to interactive (every row drawn, a row's click answered), "
              f"{args.repeats} openings each; load {load()}")
        for name, timings in opened.items():
            warm = timings[1:] or timings
            print(f"   {name:>10}: first {timings[0][1]:.0f} ms (drawn {timings[0][0]:.0f}); then drawn "
                  f"{ms([d for d, _ in warm])}, interactive {ms([i for _, i in warm])}"
                  + ("   target <= 1,000 ms" if name != "one run" else "   (baseline)"))

        # 5. The judge alone, re-scored on `rounds` labelled rounds of the experiment.
        rounds = sorted(judging.rounds_of(Run.objects.filter(experiment=experiment).select_related("version")),
                        key=lambda r: (r.run_id, r.iteration))[:args.rounds]
        RoundLabel.objects.bulk_create([RoundLabel(run_id=r.run_id, step_id=r.step_id, iteration=r.iteration, good=True,
                                                   labelled_by=user) for r in rounds])
        calls = len(rounds)
        bare = asyncio.run(bare_judge_calls(url + "/v1", calls, at_once))
        before = counts()
        started = time.perf_counter()
        answer = rescoring.rescore(user, workflow.pk, experiment.pk, edits={"prompt": NEW_JUDGE_PROMPT}, concurrency=at_once)
        wall = time.perf_counter() - started
        after = counts()
        sent, judged = after["requests"] - before["requests"], after["judge"] - before["judge"]
        ideal_rescore = answer["calls"] * args.latency / at_once
        print(f"5. the judge re-scored on {calls} labelled rounds, {at_once} calls at once: {sent} requests, "
              f"{judged} of them the judge's (target: only judge calls, one a round); load {load()}")
        print(f"   wall {wall:.2f} s; ideal (calls / concurrency x latency) {ideal_rescore:.2f} s: "
              f"{100 * (wall - ideal_rescore) / ideal_rescore:+.1f} % (target <= +10 %); "
              f"bare provider calls, same concurrency: {bare:.2f} s ({100 * (wall - bare) / bare:+.1f} %)")
        print(f"   agreement before {answer['before']['all']['agreement']}, after {answer['after']['all']['agreement']}")
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
