"""shared_memory_write stores under the calling agent's name and shared_memory_read reads any fully qualified key,
when the run has shared memory on (asked for, or an agent lists the tools); otherwise the tools are not offered."""
from tests.support.engine_runs import doc, run, script

FLOW = """
    name: notes
    version: 1
    agents:
      auditor: {description: audits}
      fixer: {description: fixes}
    steps:
      - {id: audit, agent: auditor, instructions: Audit.}
      - {id: fix, agent: fixer, instructions: Fix., dependsOn: [audit]}
"""
NOTES = script("""
    replies:
      audit:
        - {tool_calls: [{name: shared_memory_write, arguments: {key: found, value: "3 bugs"}}]}
        - done
      fix:
        - {tool_calls: [{name: shared_memory_read, arguments: {key: auditor/found}},
                        {name: shared_memory_read, arguments: {key: found}}]}
        - done
""")


def outputs(sink, name: str) -> list[str]:
    return [e["data"]["output"] for e in sink.of_type("tool_call")
            if e["data"]["phase"] == "end" and e["data"]["tool_name"] == name]


async def test_a_write_lands_under_the_agents_name_and_reads_need_the_full_key():
    result, sink = await run(doc(FLOW), NOTES, shared_memory=True)
    assert result.status == "completed"
    assert outputs(sink, "shared_memory_write") == ["written: auditor/found"]
    assert outputs(sink, "shared_memory_read") == [
        "3 bugs", 'not found: nothing is stored under "found" (keys are written as <agent>/<key>)']


async def test_an_agent_listing_a_memory_tool_turns_shared_memory_on():
    listed = FLOW.replace("auditor: {description: audits}", "auditor: {description: audits, tools: [shared_memory_write]}")
    _result, sink = await run(doc(listed), NOTES)
    assert outputs(sink, "shared_memory_write") == ["written: auditor/found"]
    first = sink.of_type("agent_turn")[0]
    assert first["data"]["tools"] == ["send_message", "shared_memory_write", "shared_memory_read"]


async def test_without_shared_memory_the_tools_are_not_offered():
    _result, sink = await run(doc(FLOW), NOTES)
    assert sink.of_type("agent_turn")[0]["data"]["tools"] == ["send_message"]
    [refused] = [e for e in sink.of_type("tool_call") if e["data"]["phase"] == "end"][:1]
    assert refused["error"].startswith("tool 'shared_memory_write' is not available")
