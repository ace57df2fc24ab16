"""POST /runs with `thinking` (upstream's --thinking): the run stores and shows the level, the worker sends it to the
provider as its own field (the OpenAI fake receives `reasoning_effort`), the reasoning that comes back is in the
agent_turn event, a fork keeps the level; a bad value is a 400 naming the field and the choices, and no run."""
import pytest
from django.contrib.auth import get_user_model

from runtime.models import Run
from tests.fakes import FakeOpenAI
from tests.support.api_calls import client_for, post, wait_for, wait_for_events

pytestmark = pytest.mark.django_db(transaction=True)

FLOW = """name: thinking run
agents:
  solver: {description: Answers., model: openai/gpt-test}
steps:
  - {id: first, agent: solver, instructions: "What is 2+2?"}
  - {id: second, agent: solver, instructions: "And 3+3?", dependsOn: [first]}
"""
THOUGHT = "<script>alert(1)</script> two plus two"


@pytest.fixture
def boss(settings):
    settings.PROVIDER_URLS_ALLOW_PRIVATE = True
    # The server's owner: its personal workspace may use the server's key, pointed at the fake below.
    return client_for(get_user_model().objects.create_superuser("boss", password=None))


def test_the_level_reaches_the_provider_shows_on_the_run_and_a_fork_keeps_it(boss, settings):
    reply = {"content": "4", "reasoning": THOUGHT, "usage": {"prompt": 9, "completion": 14, "reasoning": 11}}
    with FakeOpenAI(default=reply) as fake:
        settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY = fake.url + "/v1", "sk-the-servers-own"
        wid = post(boss, "/api/v1/workflows", {"source": FLOW}).json()["id"]
        created = post(boss, "/api/v1/runs", {"workflow_id": wid, "provider": "openai", "thinking": "high", "coordinator": "off"})
        assert created.status_code == 201, created.content
        run = wait_for(boss, created.json()["id"])
        assert run["status"] == "completed", run["reason"]
        assert run["thinking"] == "high"
        assert [r.json["reasoning_effort"] for r in fake.requests] == ["high", "high"]
        turns = [e for e in wait_for_events(boss, run["id"], "agent_turn") if e["data"]["phase"] == "response"]
        assert [(t["data"]["reasoning"], t["data"]["reasoning_tokens"]) for t in turns] == [(THOUGHT, 11)] * 2
        fork = post(boss, f"/api/v1/runs/{run['id']}/fork", {"at": {"step": "second"}})
        assert fork.status_code == 201, fork.content
        assert fork.json()["thinking"] == "high"
        assert wait_for(boss, fork.json()["id"])["status"] == "completed"
        assert [r.json["reasoning_effort"] for r in fake.requests] == ["high"] * 3


def test_without_a_level_nothing_is_sent_and_the_run_shows_none(boss, settings):
    with FakeOpenAI(default={"content": "4"}) as fake:
        settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY = fake.url + "/v1", "sk-the-servers-own"
        wid = post(boss, "/api/v1/workflows", {"source": FLOW}).json()["id"]
        run = wait_for(boss, post(boss, "/api/v1/runs", {"workflow_id": wid, "provider": "openai", "coordinator": "off"}).json()["id"])
        assert run["status"] == "completed", run["reason"]
        assert run["thinking"] is None
        assert fake.requests and all("reasoning_effort" not in r.json for r in fake.requests)


def test_a_bad_level_is_a_400_naming_the_field_and_the_choices(boss):
    wid = post(boss, "/api/v1/workflows", {"source": FLOW}).json()["id"]
    answer = post(boss, "/api/v1/runs", {"workflow_id": wid, "provider": "simulated", "thinking": "maximum"})
    assert answer.status_code == 400, answer.content
    assert answer.json()["detail"] == "thinking: 'maximum' is not a reasoning level (choose one of: off, low, medium, high)"
    assert not Run.objects.exists()


@pytest.mark.parametrize(("given", "stored"), [("", None), (" HIGH ", "high")])
def test_an_empty_level_is_none_and_a_level_is_read_without_case_or_spaces(boss, given, stored):
    wid = post(boss, "/api/v1/workflows", {"source": FLOW}).json()["id"]
    answer = post(boss, "/api/v1/runs", {"workflow_id": wid, "provider": "simulated", "thinking": given})
    assert answer.status_code == 201, answer.content
    assert answer.json()["thinking"] == stored


@pytest.mark.parametrize("bad", [7, ["high"]])
def test_a_level_that_is_not_text_is_refused_by_the_schema_naming_the_field(boss, bad):
    wid = post(boss, "/api/v1/workflows", {"source": FLOW}).json()["id"]
    answer = post(boss, "/api/v1/runs", {"workflow_id": wid, "provider": "simulated", "thinking": bad})
    assert answer.status_code == 422, answer.content
    assert answer.json()["errors"][0]["loc"][-1] == "thinking"
    assert not Run.objects.exists()
