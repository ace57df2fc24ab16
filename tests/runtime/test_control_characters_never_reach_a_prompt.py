"""Control characters other than tab and newline are stripped before a prompt is built.

Ports upstream's internal/exec/parse_security_test.go, TestParseWorkflow_ControlCharStripped (a BEL in
instructions is stripped, the text around it kept; tab and newline stay). Upstream strips C0 (carriage return
included), DEL and C1 controls from the workflow's texts as it parses them; we keep the document as written
and strip them from every prompt built (runtime/engine/prompting.py): the instructions, the agent's prompt and
description, the goal, dependency outputs, context files and the judge's prompt. What the provider is sent
and what the agent_turn event records are the same stripped text.
"""
import json
import time
from dataclasses import replace

import pytest

from runtime.engine.prompting import without_controls
from runtime.providers.script import parse_script
from runtime.providers.simulated import SimulatedProvider
from tests.support.engine_runs import run

CONTROLS = [chr(c) for c in range(0x00, 0x20) if chr(c) not in "\t\n"] + [chr(0x7F)] + [chr(c) for c in range(0x80, 0xA0)]
NOISE = "\x07\r\x1b\x0b\x0c\x7f\x85\x9b"


class Recording(SimulatedProvider):
    def __init__(self, replies: dict):
        super().__init__(parse_script({"replies": replies}))
        self.requests = []

    async def chat(self, request, on_delta=None):
        self.requests.append(replace(request, messages=list(request.messages)))
        return await super().chat(request, on_delta)


def sent_text(requests) -> str:
    return "\n".join(m["content"] for r in requests for m in r.messages if m["role"] in ("system", "user"))


def recorded_prompts(sink) -> str:
    return "\n".join(e["data"]["prompt"]["system"] + "\n" + e["data"]["prompt"]["user"]
                     for e in sink.of_type("agent_turn") if "prompt" in e["data"])


def controls_in(text: str) -> list[str]:
    return sorted({f"U+{ord(c):04X}" for c in text if c in CONTROLS})


async def test_a_bel_in_instructions_is_stripped_and_the_words_around_it_kept():
    provider = Recording({})
    document = {"name": "x", "steps": [{"id": "a", "instructions": "hi\x07world\tand\nmore"}]}
    _, sink = await run(document, providers={"simulated": provider})
    user = provider.requests[0].messages[1]["content"]
    assert "## Task\nhiworld\tand\nmore" in user
    assert "\x07" not in user
    assert sink.of_type("agent_turn")[0]["data"]["prompt"]["user"] == user


async def test_no_control_character_from_any_part_reaches_a_prompt(tmp_path):
    (tmp_path / "notes.txt").write_text(f"context{NOISE}file\r\nsecond line\n")
    document = {
        "name": "controls",
        "description": f"goal{NOISE}text",
        "agents": {
            "writer": {"description": f"writes{NOISE}well", "prompt": f"be{NOISE}brief"},
            "judge": {"description": f"judges{NOISE}", "prompt": f"strict{NOISE}ly",
                      "resultSchema": {"type": "object", "required": ["done"],
                                       "properties": {"done": {"type": "boolean"}}}},
        },
        "steps": [
            {"id": "first", "agent": "writer", "instructions": f"draft{NOISE}it"},
            {"id": "second", "agent": "writer", "dependsOn": ["first"], "instructions": "use it",
             "contextFiles": ["notes.txt"],
             "loop": {"maxIterations": 2, "untilAgent": "judge"}},
        ],
    }
    provider = Recording({
        "first": [f"dep{NOISE}output"],
        "second": [f"round{NOISE}one", "round two"],
        "judge": [{"content": f"not{NOISE}yet", "result": {"done": False}}, {"result": {"done": True}}],
    })
    result, sink = await run(document, providers={"simulated": provider}, base_dir=tmp_path)
    assert result.status == "completed", result.reason
    text = sent_text(provider.requests)
    assert controls_in(text) == []
    assert controls_in(recorded_prompts(sink)) == []
    for kept in ("goaltext", "writeswell", "bebrief", "draftit", "depoutput", "contextfile\nsecond line",
                 "roundone", "judges", "strictly", "notyet"):
        assert kept in text, kept
    # The document and the agents' own outputs are left as they were: only prompts are cleaned.
    assert result.steps["first"].content == f"dep{NOISE}output"


def test_every_control_character_but_tab_and_newline_is_stripped():
    everything = "".join(chr(c) for c in range(0xA0)) + "\u2028é"
    assert without_controls(everything) == "\t\n" + "".join(chr(c) for c in range(0x20, 0x7F)) + "\u2028é"


@pytest.mark.django_db(transaction=True)
def test_a_run_over_http_sends_and_records_prompts_without_them(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("owner", password="owner-pass-123"))
    source = 'name: x\ndescription: "aim\\a high"\nsteps:\n  - id: a\n    instructions: "hi\\x07world\\r\\n\\tdone"\n'
    saved = client.post("/api/v1/workflows", data=json.dumps({"source": source}), content_type="application/json").json()
    assert saved["valid"] is True, saved["errors"]
    created = client.post("/api/v1/runs", data=json.dumps({"workflow_id": saved["id"], "provider": "simulated",
                                                           "script": {"replies": {"a": ["ok"]}}}),
                          content_type="application/json").json()
    deadline = time.time() + 30
    while client.get(f"/api/v1/runs/{created['id']}").json()["status"] not in ("completed", "failed") \
            and time.time() < deadline:
        time.sleep(0.05)
    events = client.get(f"/api/v1/runs/{created['id']}/events").json()
    prompt = next(e for e in events if e["type"] == "agent_turn" and "prompt" in e["data"])["data"]["prompt"]
    assert prompt["user"] == "## Goal\naim high\n\n## Task\nhiworld\n\tdone"
    assert controls_in(prompt["system"] + prompt["user"]) == []
