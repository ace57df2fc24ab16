"""An agent with a resultSchema that answers with text only is reminded once to call submit_result.

Ports upstream's internal/exec/agent_retry_test.go to our engine:
TestZFB3_AgentRunner_RetriesSubmitResultOnMiss (the reminder offers submit_result alone, requires a tool
call, names submit_result, and its answer counts), TestZFB3_AgentRunner_PrimaryCallsSubmitResult_NoRetry
(no reminder when the agent submits by itself) and
TestZFB3_AgentRunner_RetryAlsoFails_IncludesLastAssistantText (when the reminder fails too, the error
names submit_result and quotes the agent's last text). Our own rules on top: an invalid submission on the
reminder turn gets one more turn (upstream's retry runs two steps), and counts against maxRetries like any
other.
"""
from dataclasses import replace

from runtime.engine.agent import REMINDER
from runtime.providers.script import parse_script
from runtime.providers.simulated import SimulatedProvider
from tests.support.engine_runs import doc, run, script, step_end

FLOW = """
    name: reminded
    agents:
      answerer:
        description: Answers with a structured result.
        resultSchema:
          type: object
          required: [done, answer]
          properties: {done: {type: boolean}, answer: {type: string}}
    steps:
      - {id: ask, agent: answerer, instructions: "Please answer."}
"""


class Recording(SimulatedProvider):
    """The simulated provider, keeping every request it was sent."""

    def __init__(self, replies: str):
        super().__init__(parse_script(script(replies)))
        self.requests = []

    async def chat(self, request, on_delta=None):
        self.requests.append(replace(request, messages=list(request.messages)))  # as it was when sent
        return await super().chat(request, on_delta)


async def run_recorded(replies: str, document=None):
    provider = Recording(replies)
    result, sink = await run(document or doc(FLOW), providers={"simulated": provider})
    return result, sink, provider.requests


def requests_of(sink, step="ask"):
    return [e for e in sink.of_type("agent_turn") if e["data"]["phase"] == "request" and e["stepId"] == step]


async def test_a_text_only_answer_is_reminded_and_the_second_answer_counts():
    result, sink, sent = await run_recorded("""
        replies:
          ask:
            - "here is my final answer, but I forgot to call the tool"
            - {content: "", result: {done: true, answer: "42"}}
    """)
    assert result.status == "completed", result.reason
    assert result.steps["ask"].result == {"done": True, "answer": "42"}
    assert len(sent) == 2
    first, reminder = sent
    assert [t["name"] for t in first.tools] == ["send_message", "submit_result"] and first.tool_choice is None
    assert [t["name"] for t in reminder.tools] == ["submit_result"] and reminder.tool_choice == "required"
    assert reminder.messages[-1] == {"role": "user", "content": REMINDER}
    assert "submit_result" in REMINDER
    # The reminder is an ordinary request turn: what it said and what it offered are in its event.
    turns = requests_of(sink)
    assert [t["data"]["turn"] for t in turns] == [1, 2]
    assert turns[1]["data"]["input"] == [REMINDER] and turns[1]["data"]["tools"] == ["submit_result"]
    assert "prompt" not in turns[1]["data"]
    # The text of the first answer stays the step's content.
    assert step_end(sink, "ask")["data"]["content"] == "here is my final answer, but I forgot to call the tool"


async def test_an_agent_that_submits_by_itself_is_not_reminded():
    result, sink, sent = await run_recorded("replies: {ask: [{result: {done: true, answer: 'yes'}}]}")
    assert result.status == "completed"
    assert len(sent) == 1 and sent[0].tool_choice is None
    assert not any(m["content"] == REMINDER for m in sent[0].messages)
    assert len(requests_of(sink)) == 1


async def test_when_the_reminder_fails_too_the_error_quotes_the_last_text():
    result, sink, sent = await run_recorded("""
        replies:
          ask: ["I will not call it", "I really do not want to call this tool"]
    """)
    assert result.status == "failed"
    assert len(sent) == 2  # the answer and the reminder's: no third request
    error = step_end(sink, "ask")["error"]
    assert error == ('resultSchema defined but submit_result never called, not even after a reminder; '
                     'its last message: "I really do not want to call this tool"')


async def test_an_invalid_submission_on_the_reminder_turn_gets_one_more_turn():
    result, _sink, sent = await run_recorded("""
        replies:
          ask:
            - "no tool from me"
            - {result: {done: true}}
            - {result: {done: true, answer: "fixed"}}
    """)
    assert result.status == "completed", result.reason
    assert result.steps["ask"].result == {"done": True, "answer": "fixed"}
    assert [r.tool_choice for r in sent] == [None, "required", "required"]
    assert [[t["name"] for t in r.tools] for r in sent[1:]] == [["submit_result"], ["submit_result"]]
    # The third request carries the rejection, not a second reminder.
    assert sum(m["content"] == REMINDER for m in sent[2].messages) == 1
    assert sent[2].messages[-1]["role"] == "tool" and "answer" in sent[2].messages[-1]["content"]


async def test_the_reminder_stops_after_its_second_turn():
    result, _, sent = await run_recorded("""
        replies:
          ask: ["text only", {result: {done: true}}, {result: {answer: "x"}}, {result: {done: true, answer: "late"}}]
    """)
    assert result.status == "failed"
    assert len(sent) == 3


async def test_invalid_submissions_on_the_reminder_turn_count_against_max_retries():
    document = doc(FLOW)
    document["steps"][0]["maxRetries"] = 0
    result, sink, sent = await run_recorded("""
        replies:
          ask: ["text only", {result: {done: true}}, {result: {done: true, answer: "too late"}}]
    """, document)
    assert result.status == "failed"
    assert len(sent) == 2
    assert step_end(sink, "ask")["error"] == "submit_result was rejected 1 times (maxRetries 0)"


async def test_an_agent_that_runs_out_of_turns_is_reminded_too():
    document = doc(FLOW)
    document["agents"]["answerer"]["maxTurns"] = 1
    result, _sink, sent = await run_recorded("""
        replies:
          ask: [{result: {done: "not a boolean"}}, {result: {done: true, answer: "in time"}}]
    """, document)
    assert result.status == "completed", result.reason
    assert result.steps["ask"].result == {"done": True, "answer": "in time"}
    assert [r.tool_choice for r in sent] == [None, "required"]
    assert sent[1].messages[-1] == {"role": "user", "content": REMINDER}


async def test_an_agent_that_runs_out_of_turns_and_ignores_the_reminder_says_so():
    document = doc(FLOW)
    document["agents"]["answerer"]["maxTurns"] = 1
    result, sink, _ = await run_recorded("""
        replies:
          ask: [{content: "trying", result: {done: 1}}, "giving up"]
    """, document)
    assert result.status == "failed"
    assert step_end(sink, "ask")["error"] == ('resultSchema defined but submit_result never called within '
                                              'maxTurns (1), not even after a reminder; its last message: '
                                              '"giving up"')


async def test_an_agent_without_a_result_schema_is_never_reminded():
    document = doc(FLOW)
    del document["agents"]["answerer"]["resultSchema"]
    result, _, sent = await run_recorded("replies: {ask: ['just text', 'a second answer nobody asked for']}",
                                         document)
    assert result.status == "completed"
    assert len(sent) == 1 and [t["name"] for t in sent[0].tools] == ["send_message"]
