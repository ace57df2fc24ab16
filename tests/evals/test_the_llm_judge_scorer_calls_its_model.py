"""The LLM judge scorer: one call per trial to its model (the fake OpenAI server), its score read, its cost apart."""
import pytest

from accounts.models import Workspace
from designer.models import Workflow
from tests.fakes.openai import FakeOpenAI
from tests.support.evaluations import case, make_dataset, make_workflow, run_experiment

pytestmark = pytest.mark.django_db(transaction=True)

JUDGE = {"name": "quality", "kind": "llm_judge", "rubric": "Is the draft about otters?", "model": "openai/judge-model",
         "scale": 5, "step": "dev"}


def test_each_trial_is_judged_once_and_the_judges_tokens_are_counted_apart(owner_client, settings):
    workflow = make_workflow(owner_client)
    Workspace.objects.filter(pk=Workflow.objects.get(pk=workflow).workspace_id).update(server_keys=True)
    dataset = make_dataset(owner_client, workflow, [case("a", 1), case("b", 2)], [JUDGE])
    replies = {"a": '{"score": 5, "reason": "spot on"}', "b": '{"score": 2, "reason": "off topic"}'}
    with FakeOpenAI(default={"content": '{"score": 3}', "usage": {"prompt": 40, "completion": 8}}) as fake:
        settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY = fake.url + "/v1", "sk-judge"

        def reply_for(request):
            text = request.json["messages"][-1]["content"]
            # Case a's judge says done at the first draft; b's draft has two rounds.
            return {"content": replies["b" if "draft 2" in text else "a"], "usage": {"prompt": 40, "completion": 8}}

        fake.reply_for = reply_for
        body = run_experiment(owner_client, workflow, dataset["id"], trials=2)
        calls = list(fake.requests)
    assert len(calls) == 4 and {c.json["model"] for c in calls} == {"judge-model"}
    assert "Is the draft about otters?" in calls[0].json["messages"][-1]["content"]
    scores = {(t["case_id"], t["trial"]): t["scores"]["quality"] for t in body["trials"]}
    assert scores[("a", 1)] == {"score": 1.0, "passed": True, "reason": "5/5: spot on", "tokens": 48, "cost_usd": 0.0}
    assert scores[("b", 2)]["score"] == 0.25 and scores[("b", 2)]["passed"] is False
    # The judge's tokens are its own: not in the runs' (simulated, 15 a turn).
    assert body["aggregate"]["judge_tokens"] == 4 * 48
    assert body["aggregate"]["tokens"] == sum(t["tokens"] for t in body["trials"]) == 2 * 30 + 2 * 60


def test_a_judge_without_a_key_scores_zero_and_says_why(owner_client, settings):
    settings.OPENAI_API_KEY = ""
    workflow = make_workflow(owner_client)
    dataset = make_dataset(owner_client, workflow, [case("a", 1)], [JUDGE])
    body = run_experiment(owner_client, workflow, dataset["id"])
    assert body["trials"][0]["scores"]["quality"]["reason"] == "the judge's provider openai has no key in this workspace"
