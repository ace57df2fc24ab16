from runtime.tools.results import check_result, minimal_instance, submit_tool
from tests.support.engine_runs import doc, run, script, step_end

SCHEMA = {"type": "object", "required": ["tags"], "properties": {
    "tags": {"type": "array", "items": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}}}}


def test_validation_errors_name_json_paths():
    errors = check_result(SCHEMA, {"tags": [{"name": "a"}, {"name": "b"}, {"name": 3}]})
    assert errors == ["tags[2].name: 3 is not of type 'string'"]
    assert check_result(SCHEMA, {})[0].startswith("$: 'tags' is a required property")
    assert check_result(SCHEMA, {"tags": []}) == []


def test_the_submit_tool_takes_the_schema_as_its_parameters():
    tool = submit_tool(SCHEMA)
    assert tool["name"] == "submit_result" and tool["parameters"] == SCHEMA


def test_minimal_instances_are_valid():
    for schema in (SCHEMA, {"type": "object", "required": ["n"], "properties": {"n": {"type": "number", "exclusiveMinimum": 0}}},
                   {"type": "object", "required": ["done"], "properties": {"done": {"type": "boolean"}}}):
        assert check_result(schema, minimal_instance(schema)) == []
    assert minimal_instance({"type": "object", "required": ["done"], "properties": {"done": {"type": "boolean"}}}) == {"done": False}


TAGGER = """
name: tagger
agents:
  tagger:
    description: "Tags."
    resultSchema:
      type: object
      required: [tags]
      properties:
        tags: {type: array, items: {type: object, required: [name], properties: {name: {type: string}}}}
steps:
  - {id: tag, agent: tagger, instructions: "Tag."}
"""


async def test_an_invalid_submit_is_returned_to_the_agent_which_may_retry():
    s = script("""
        replies:
          tag:
            - {content: "try", result: {tags: [{name: 1}]}}
            - {content: "again", result: {tags: [{name: "one"}]}}
    """)
    result, sink = await run(doc(TAGGER), s)
    assert result.steps["tag"].result == {"tags": [{"name": "one"}]}
    assert result.steps["tag"].content == "try\n\nagain"
    ends = [e for e in sink.of_type("tool_call") if e["data"]["phase"] == "end"]
    assert ends[0]["data"]["output"]["status"] == "error" and "tags[0].name" in ends[0]["data"]["output"]["message"]
    assert ends[1]["data"]["output"]["status"] == "ok"


async def test_max_retries_caps_invalid_submits():
    d = doc(TAGGER)
    d["steps"][0]["maxRetries"] = 1
    result, sink = await run(d, script("replies: {tag: [{result: {tags: 'nope'}}]}"))
    assert result.status == "failed"
    assert "rejected 2 times (maxRetries 1)" in step_end(sink, "tag")["error"]


async def test_max_turns_bounds_a_conversation_that_keeps_submitting_invalid_results():
    d = doc(TAGGER)
    d["agents"]["tagger"]["maxTurns"] = 3
    result, sink = await run(d, script("replies: {tag: [{result: {tags: 'nope'}}]}"))
    assert result.status == "failed"
    # Three turns, then the submit_result reminder's two (its answer was refused, so it had one more).
    assert len([e for e in sink.of_type("agent_turn") if e["data"]["phase"] == "request"]) == 5
    assert step_end(sink, "tag")["error"] == ("resultSchema defined but submit_result never called within "
                                               "maxTurns (3), not even after a reminder; the agent wrote no text")
