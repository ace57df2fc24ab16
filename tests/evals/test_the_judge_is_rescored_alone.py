"""The judge on trial, asked again: on the labelled rounds of finished runs, the judge alone is asked once more per
round (the prompt it was really sent, with a new system prompt or model), the workers never run again (requests
counted at the fake OpenAI server), and the new agreement stands beside the old; the runs are left as they were."""
import pytest

from runtime.models import Run
from tests.fakes.openai import FakeOpenAI
from tests.support.api_calls import client_for, post, wait_for
from tests.support.documents import judge_loop
from tests.support.evaluations import NEW_JUDGE_PROMPT, judged_by_prompt

pytestmark = pytest.mark.django_db(transaction=True)


def verdict(done: bool, reason: str) -> dict:
    return {"tool_calls": [{"name": "submit_result", "arguments": {"done": done, "reason": reason}}]}


def test_only_the_judge_is_asked_again_and_the_agreement_is_shown_before_and_after(server_owner, settings):
    client = client_for(server_owner)
    # The run: round 1's draft, a judge saying "not yet"; round 2's draft, a judge saying done. Then the two re-asks.
    replies = [{"content": "draft one"}, verdict(False, "too short"), {"content": "draft two"}, verdict(True, "fine"),
               verdict(True, "good enough already"), verdict(True, "fine")]
    with FakeOpenAI(replies) as fake:
        settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY = fake.url + "/v1", "sk-the-servers-own"
        workflow = post(client, "/api/v1/workflows", {"source": judge_loop("rejudged", 4)}).json()["id"]
        created = post(client, "/api/v1/runs", {"workflow_id": workflow, "provider": "openai", "model": "gpt-test",
                                                "coordinator": "off"}).json()
        run = wait_for(client, created["id"])
        assert run["status"] == "completed", run["reason"]
        assert len(fake.requests) == 4
        last_seq = Run.objects.get(pk=run["id"]).last_seq
        # A person: round 1 was already good enough (the judge stopped too late), round 2 too.
        for iteration in (0, 1):
            answer = client.put(f"/api/v1/runs/{run['id']}/rounds/dev/{iteration}/label", data={"good": True},
                                content_type="application/json")
            assert answer.status_code == 200, answer.content

        rescored = post(client, f"/api/v1/workflows/{workflow}/judge-agreement/rescore",
                        {"edits": {"system": "You judge drafts. Say done once a draft has a point.", "model": "gpt-lenient"}})
        assert rescored.status_code == 200, rescored.content
        body = rescored.json()
        # Two calls, both the judge's: no draft was written again.
        assert len(fake.requests) == 6 and body["calls"] == 2
        for request in fake.requests[4:]:
            sent = request.json
            assert sent["model"] == "gpt-lenient"
            assert sent["messages"][0]["content"] == "You judge drafts. Say done once a draft has a point."
            assert any(t["function"]["name"] == "submit_result" for t in sent["tools"])
        assert "draft one" in fake.requests[4].json["messages"][-1]["content"]
        assert "draft two" in fake.requests[5].json["messages"][-1]["content"]

    assert body["before"]["all"] == {**body["before"]["all"], "labelled": 2, "right": 1, "too_late": 1, "too_early": 0}
    assert body["after"]["all"] == {**body["after"]["all"], "labelled": 2, "right": 2, "too_late": 0, "too_early": 0}
    assert [(r["iteration"], r["good"], r["was"], r["now"]) for r in body["rounds"]] == [(0, True, False, True), (1, True, True, True)]
    assert body["rounds"][0]["reason"] == "good enough already"
    assert body["tokens"] > 0
    # The run is as it was, and the stored agreement is still the judge's own.
    assert Run.objects.get(pk=run["id"]).last_seq == last_seq
    assert client.get(f"/api/v1/workflows/{workflow}/judge-agreement").json()["all"]["too_late"] == 1


def test_nothing_labelled_is_named_and_strangers_are_refused(owner_client, stranger_client):
    workflow = post(owner_client, "/api/v1/workflows", {"source": judge_loop("unlabelled", 2)}).json()["id"]
    answer = post(owner_client, f"/api/v1/workflows/{workflow}/judge-agreement/rescore", {})
    assert answer.status_code == 400 and answer.json()["detail"].startswith("labels: no labelled round")
    assert post(stranger_client, f"/api/v1/workflows/{workflow}/judge-agreement/rescore", {}).status_code == 404


def test_a_new_judge_prompt_is_asked_of_many_rounds_at_most_concurrency_at_once(server_owner, settings):
    client = client_for(server_owner)
    with FakeOpenAI(default={"content": "x"}, latency=0.2) as fake:
        fake.reply_for = judged_by_prompt
        settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY = fake.url + "/v1", "sk-the-servers-own"
        workflow = post(client, "/api/v1/workflows", {"source": judge_loop("rejudged-many", 3)}).json()["id"]
        runs = []
        for _ in range(2):
            created = post(client, "/api/v1/runs", {"workflow_id": workflow, "provider": "openai", "model": "gpt-test",
                                                    "coordinator": "off"}).json()
            runs.append(wait_for(client, created["id"]))
            assert runs[-1]["status"] == "completed", runs[-1]["reason"]
        # Every round labelled good: the judge's own "not yet" on rounds 1 and 2 stopped too late.
        for run in runs:
            for iteration in (0, 1, 2):
                answer = client.put(f"/api/v1/runs/{run['id']}/rounds/dev/{iteration}/label", data={"good": True},
                                    content_type="application/json")
                assert answer.status_code == 200, answer.content
        made = len(fake.requests)
        connections = fake.connections

        rescored = post(client, f"/api/v1/workflows/{workflow}/judge-agreement/rescore",
                        {"edits": {"prompt": NEW_JUDGE_PROMPT}, "concurrency": 3})
        assert rescored.status_code == 200, rescored.content
        body = rescored.json()
        asked = fake.requests[made:]
        # Six judge calls, no draft; more than one connection at once (the calls overlapped), never more than three.
        assert body["calls"] == len(asked) == 6 and body["concurrency"] == 3
        assert all(any(t["function"]["name"] == "submit_result" for t in r.json["tools"]) for r in asked)
        assert 1 < fake.connections - connections <= 3
        # The system text is built again as a run builds it, with the new prompt in the agent's place.
        system = asked[0].json["messages"][0]["content"]
        assert system.startswith("You are the agent 'judge': Judges.\n\n" + NEW_JUDGE_PROMPT)
        assert "call the submit_result tool" in system

    assert body["before"]["all"] == {**body["before"]["all"], "labelled": 6, "right": 2, "too_late": 4, "too_early": 0}
    assert body["after"]["all"] == {**body["after"]["all"], "labelled": 6, "right": 6, "too_late": 0, "too_early": 0}
    assert all(r["now"] is True and r["error"] is None for r in body["rounds"])


def test_edits_are_refused_naming_their_field(owner_client):
    workflow = post(owner_client, "/api/v1/workflows", {"source": judge_loop("refused-edits", 2)}).json()["id"]
    url = f"/api/v1/workflows/{workflow}/judge-agreement/rescore"
    for body, words in (({"edits": {"prompt": 3}}, "prompt: must be text"),
                        ({"edits": {"prompt": "a", "system": "b"}}, "prompt: give the judge's prompt or the whole system"),
                        ({"edits": {"tone": "kind"}}, "edits: unknown field(s) tone"),
                        ({"concurrency": 0}, "concurrency: a whole number from 1 to 32")):
        answer = post(owner_client, url, body)
        assert answer.status_code == 400 and answer.json()["detail"].startswith(words), answer.content
