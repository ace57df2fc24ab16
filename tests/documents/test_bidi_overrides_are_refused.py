"""Bidirectional override and isolate characters are refused, naming the field and where they stand.

Ports upstream's internal/exec/parse_security_test.go: TestParseWorkflow_BidiOverrideRejectedInDescription,
TestParseWorkflow_BidiOverrideInInstructions, TestParseWorkflow_BidiInAgentPrompt,
TestParseWorkflowJSON_BidiOverrideRejected (the workflow name, from JSON), TestParseWorkflow_BidiOverrideInStepID
and TestParseWorkflow_CleanASCIIPasses. Upstream refuses U+202A-U+202E and U+2066-U+2069 ("unicode-unsafe");
we refuse them with the `unicode_unsafe` diagnostic, in steps inside loops too and in agent descriptions
(which reach this runtime's prompts), through the validator and POST /api/v1/validate, and a run of such a
workflow is refused before it starts.
"""
import json

import pytest

from designer.documents import load_document, load_source

BIDI = [chr(c) for c in range(0x202A, 0x202F)] + [chr(c) for c in range(0x2066, 0x206A)]


def unsafe(loaded):
    return [d for d in loaded.report.errors if d.code == "unicode_unsafe"]


@pytest.mark.parametrize("char", BIDI, ids=lambda c: f"U+{ord(c):04X}")
def test_every_override_and_isolate_character_is_refused_in_instructions(char):
    loaded = load_source(f'name: x\nversion: 1\nsteps:\n  - id: a\n    instructions: "do{char}evil"\n')
    [error] = unsafe(loaded)
    assert not loaded.valid
    assert error.path == "/steps/0/instructions" and (error.line, error.column) == (5, 5)
    assert f"U+{ord(char):04X}" in error.message and "at character 3" in error.message


@pytest.mark.parametrize("source, path, line, field", [
    ('name: x\ndescription: "hello\\u202E rm -rf"\nversion: 1\nsteps:\n  - id: a\n    instructions: ok\n',
     "/description", 2, "description"),
    ('name: x\nversion: 1\nagents:\n  helper:\n    description: ok\n    prompt: "sys\\u202Eevil"\n'
     'steps:\n  - id: a\n    agent: helper\n    instructions: ok\n', "/agents/helper/prompt", 6, "agents.helper.prompt"),
    ('name: x\nagents:\n  helper:\n    description: "helps \\u2066quietly\\u2069"\nsteps:\n  - {id: a, agent: helper}\n',
     "/agents/helper/description", 4, "agents.helper.description"),
    ('name: x\nsteps:\n  - id: loop\n    loop:\n      maxIterations: 2\n      steps:\n'
     '        - id: inner\n          instructions: "x\\u202Dy"\n', "/steps/0/loop/steps/0/instructions", 8,
     "steps[0].loop.steps[0].instructions"),
])
def test_each_text_field_is_checked(source, path, line, field):
    loaded = load_source(source)
    assert [(d.path, d.line) for d in unsafe(loaded)] == [(path, line)]
    assert unsafe(loaded)[0].message.startswith(f"`{field}` holds a bidirectional control character")


def test_a_name_given_as_json_is_refused():
    loaded = load_source(json.dumps({"name": "bad\u202ename", "version": 1,
                                     "steps": [{"id": "a", "instructions": "ok"}]}, ensure_ascii=False))
    [error] = unsafe(loaded)
    assert (error.path, error.line) == ("/name", 1)
    assert "`name` holds a bidirectional control character, U+202E RIGHT-TO-LEFT OVERRIDE, at character 4" \
        in error.message


def test_a_step_id_is_refused_for_the_character_as_well_as_its_pattern():
    loaded = load_document({"name": "ok", "version": 1, "steps": [{"id": "a\u202eb", "instructions": "ok"}]})
    assert {d.code for d in loaded.report.errors} == {"unicode_unsafe", "invalid_step_id"}
    assert [d.path for d in unsafe(loaded)] == ["/steps/0/id"]


def test_where_in_a_long_text_the_character_stands():
    prompt = "line one\nline two\n  and \u202eagain \u2067 and \u2069\n"
    loaded = load_document({"name": "x", "agents": {"h": {"description": "ok", "prompt": prompt}},
                            "steps": [{"id": "a", "agent": "h"}]})
    [error] = unsafe(loaded)
    assert "at character 25 (line 3, column 7 of the text); 2 more such characters follow" in error.message


def test_clean_text_and_right_to_left_script_pass():
    loaded = load_source("name: clean\ndescription: hi\nversion: 1\nsteps:\n  - id: a\n    instructions: do it\n")
    assert loaded.valid
    hebrew = load_document({"name": "שלום", "description": "مرحبا \u200f", "steps": [{"id": "a", "instructions": "תרגם"}]})
    assert hebrew.valid, [d.as_dict() for d in hebrew.report.errors]


@pytest.mark.django_db
def test_the_validate_api_names_the_field_and_its_line(client):
    source = 'name: x\nsteps:\n  - id: a\n    instructions: "do\\u202Eevil"\n'
    body = client.post("/api/v1/validate", data=json.dumps({"source": source}), content_type="application/json").json()
    assert body["valid"] is False
    [error] = body["errors"]
    assert (error["code"], error["path"], error["line"], error["column"]) == ("unicode_unsafe", "/steps/0/instructions", 4, 5)
    assert "U+202E RIGHT-TO-LEFT OVERRIDE" in error["message"]


@pytest.mark.django_db
def test_a_workflow_holding_one_cannot_run(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("owner", password="owner-pass-123"))
    source = "name: x\nagents:\n  a: {description: ok, prompt: \"be \\u2067nice\"}\nsteps:\n  - {id: s, agent: a}\n"
    saved = client.post("/api/v1/workflows", data=json.dumps({"source": source}), content_type="application/json").json()
    assert saved["valid"] is False
    response = client.post("/api/v1/runs", data=json.dumps({"workflow_id": saved["id"], "provider": "simulated"}),
                           content_type="application/json")
    assert response.status_code == 422
    assert [d["code"] for d in response.json()["diagnostics"]] == ["unicode_unsafe"]
