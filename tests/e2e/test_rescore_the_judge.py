"""Re-scoring the judge from the Evaluations page, in Chromium against a server of the test's own whose team
workspace key points at the fake OpenAI server: an experiment's rounds labelled by keyboard, a refusal shown under
the field it names, then the judge alone asked again with new instructions and another model (only judge calls reach
the fake, with the new prompt), pending while it asks, and the new agreement beside the old with the expected
counts. A viewer of the team is offered no Re-score, and the API refuses it too."""
from __future__ import annotations

import functools
import json

import pytest
from playwright.sync_api import expect

from tests.fakes import FakeOpenAI
from tests.support.browser import api, csrf, signed_in_context
from tests.support.documents import judge_loop
from tests.support.evaluations import NEW_JUDGE_PROMPT, experiment_done, judged_by_prompt
from tests.support.servers import server_allowing_private_urls
from tests.support.team_members import sign_up_member

USERNAME = "judge-keeper"
# The judged loop with a judge prompt of its own: the form starts from it.
SOURCE = judge_loop("rescored-e2e", 3).replace("    description: Judges.\n", "    description: Judges.\n    prompt: Be strict.\n")


@pytest.fixture(scope="module")
def fake():
    with FakeOpenAI(default={"content": "x"}) as server:
        # The re-scoring's calls answer after a second: the page is seen asking.
        server.reply_for = functools.partial(judged_by_prompt, rescore_latency=1.0)
        yield server


@pytest.fixture(scope="module")
def own_server():
    # A workspace's key may point at a loopback address on this server only (the fake).
    with server_allowing_private_urls(USERNAME) as url:
        yield url


def test_the_judge_is_rescored_with_new_instructions_beside_the_old_agreement(browser, own_server, fake):
    ctx = signed_in_context(browser, own_server, USERNAME)
    others = []
    try:
        page = ctx.new_page()
        page.set_default_timeout(45_000)
        expect.set_options(timeout=45_000)
        page.goto("/runs")
        team = api(page, "POST", "/workspaces", {"name": "Judges"})
        api(page, "PUT", f"/workspaces/{team['id']}/keys", {"provider": "openai", "api_key": "sk-fake-key", "base_url": fake.url + "/v1"})
        workflow = api(page, "POST", "/workflows", {"source": SOURCE, "workspace_id": team["id"]})["id"]
        dataset = api(page, "POST", "/datasets", {"workflow_id": workflow, "name": "golden", "cases": [{"id": "one"}]})
        experiment = api(page, "POST", "/experiments", {"workflow_id": workflow, "dataset_id": dataset["id"],
                                                        "settings": {"provider": "openai", "model": "gpt-test"}})
        experiment_done(page, experiment["id"])

        page.goto(f"/workflows/{workflow}/evaluations")
        page.get_by_role("button", name=f"#{experiment['id']}", exact=False).click()
        page.get_by_test_id("label-rounds").click()
        focus = page.get_by_test_id("round-focus")
        expect(focus).to_contain_text("Round 1 of 3")
        focus.focus()
        # Round 1 not good (the judge said not done: right), 2 good (not done: too late), 3 good (done: right).
        for key, next_round in (("n", 2), ("y", 3)):
            page.keyboard.press(key)
            expect(focus).to_contain_text(f"Round {next_round} of 3")
        page.keyboard.press("y")
        now = page.get_by_test_id("judge-agreement-now")
        expect(now).to_contain_text("67 % over 3 labelled rounds: 2 right, 0 too early, 1 too late")

        # A model name the server refuses: its words under the model field, nothing asked.
        asked_before = len(fake.requests)
        model = page.get_by_test_id("rescore-model")
        model.fill("m" * 201)
        page.get_by_test_id("rescore").click()
        problem = page.locator("#rescore-model-problem")
        expect(problem).to_have_text("model: name a model (at most 200 characters)")
        expect(model).to_have_attribute("aria-invalid", "true")
        assert len(fake.requests) == asked_before

        # New instructions and another model: pending while the judge is asked, then both agreements side by side.
        prompt = page.get_by_test_id("rescore-prompt")
        expect(prompt).to_have_value("Be strict.")
        prompt.fill(NEW_JUDGE_PROMPT)
        model.fill("gpt-lenient")
        page.get_by_test_id("rescore").click()
        expect(page.get_by_test_id("rescore-pending")).to_contain_text("Asking the judge again on 3 labelled rounds")
        expect(page.get_by_test_id("rescore-before")).to_have_text(
            "Before: 67 % over 3 labelled rounds: 2 right, 0 too early, 1 too late" + f" ({wasted(page, workflow)} tokens wasted)")
        expect(page.get_by_test_id("rescore-after")).to_have_text(
            "After: 67 % over 3 labelled rounds: 2 right, 1 too early, 0 too late (0 tokens wasted)")
        for row, before, after in (("right", "2", "2"), ("too_early", "0", "1"), ("too_late", "1", "0")):
            expect(page.get_by_test_id(f"rescore-before-{row}")).to_have_text(before)
            expect(page.get_by_test_id(f"rescore-after-{row}")).to_have_text(after)
        expect(page.get_by_test_id("rescore-pending")).to_have_count(0)
        assert page.get_by_test_id("rescore-error").count() == 0
        # Three calls, the judge's alone, each with the new prompt and model; no draft written again.
        asked = [r.json for r in fake.requests[asked_before:]]
        assert len(asked) == 3
        assert all(a["model"] == "gpt-lenient" and NEW_JUDGE_PROMPT in a["messages"][0]["content"]
                   and "Be strict." not in a["messages"][0]["content"] and any(t["function"]["name"] == "submit_result" for t in a["tools"]) for a in asked)
        # The stored agreement is still the judge's own.
        expect(now).to_contain_text("2 right, 0 too early, 1 too late")

        # A viewer: no Re-score offered, and the server refuses it too (a runner may: it runs the judge).
        for role in ("viewer",):
            other = sign_up_member(page, browser, own_server, team["id"], role, f"{role}-of-judges")
            others.append(other)
            theirs = other.new_page()
            theirs.set_default_timeout(45_000)
            theirs.goto(f"/workflows/{workflow}/evaluations")
            expect(theirs.get_by_test_id("rescore-needs-runner")).to_contain_text(f"yours is {role}")
            assert theirs.get_by_test_id("rescore").count() == 0
            refused = theirs.request.fetch(f"/api/v1/workflows/{workflow}/judge-agreement/rescore", method="POST",
                                           headers={"X-CSRFToken": csrf(theirs), "Content-Type": "application/json",
                                                    "Referer": theirs.url},
                                           data=json.dumps({"edits": {"prompt": NEW_JUDGE_PROMPT}}))
            assert refused.status == 403, refused.text()
        assert len(fake.requests) == asked_before + 3
    finally:
        for other in others:
            other.close()
        ctx.close()


def wasted(page, workflow: int) -> int:
    """The tokens the judge's late stop wasted, as the server counts them (round 3's)."""
    return api(page, "GET", f"/workflows/{workflow}/judge-agreement")["all"]["wasted_tokens"]
