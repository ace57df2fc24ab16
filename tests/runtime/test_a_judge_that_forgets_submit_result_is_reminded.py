"""An untilAgent judge that answers with text only is reminded to call submit_result, like any agent.

Upstream runs the judge through the same AgentRunner as a step's agent, so its
internal/exec/agent_retry_test.go (TestZFB3_AgentRunner_RetriesSubmitResultOnMiss,
TestZFB3_AgentRunner_RetryAlsoFails_IncludesLastAssistantText) holds for judges too: the reminder's answer
is the verdict, and only when that fails as well does the judge fail open (the loop goes on).
"""
from runtime.engine.agent import REMINDER
from tests.support.engine_runs import doc, run, script

JUDGED = """
name: judged
agents:
  judge:
    description: Decides whether the draft is done.
    resultSchema:
      type: object
      required: [done]
      properties: {done: {type: boolean}, reason: {type: string}}
steps:
  - id: draft
    instructions: Write the draft.
    loop: {maxIterations: 3, untilAgent: judge}
"""


def judge_requests(sink, iteration):
    return [e for e in sink.of_type("agent_turn")
            if e["data"]["phase"] == "request" and e["stepId"] == f"draft.{iteration}.untilAgent"]


async def test_the_reminded_judges_answer_is_its_verdict():
    result, sink = await run(doc(JUDGED), script("""
        replies:
          judge: ["Looks complete to me.", {result: {done: true, reason: "complete"}}]
    """))
    assert result.status == "completed"
    assert result.loops["draft"] == {"rounds_completed": 1, "broke_early": True, "break_reason": "judge"}
    verdict = sink.of_type("judge_verdict")[0]["data"]
    assert (verdict["done"], verdict["reason"], verdict["failed_open"]) == (True, "complete", False)
    turns = judge_requests(sink, 0)
    assert len(turns) == 2
    assert turns[1]["data"]["input"] == [REMINDER] and turns[1]["data"]["tools"] == ["submit_result"]


async def test_a_judge_that_ignores_the_reminder_still_fails_open():
    result, sink = await run(doc(JUDGED), script("""
        replies:
          judge: ["Not sure.", "Still not sure.", {result: {done: true}}]
    """))
    assert result.status == "completed"
    verdicts = [e["data"] for e in sink.of_type("judge_verdict")]
    assert [(v["done"], v["failed_open"]) for v in verdicts] == [(None, True), (True, False)]
    assert verdicts[0]["error"] == ('resultSchema defined but submit_result never called, not even after a '
                                    'reminder; its last message: "Still not sure."')
    assert len(judge_requests(sink, 0)) == 2 and len(judge_requests(sink, 1)) == 1
    assert result.loops["draft"]["rounds_completed"] == 2
