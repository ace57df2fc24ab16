"""Workflow documents the live, web and browser tests run: a judged loop (and its replies), a polish loop, a judged
rivers draft to fork from."""
from __future__ import annotations


def judge_loop(name: str, iterations: int, *, review: bool = False) -> str:
    """A repeat-until loop `dev` judged by `judge`, with a `draft` step (and a `review` after it)."""
    review_step = """
        - id: review
          agent: writer
          dependsOn: [draft]
          instructions: Review it.""" if review else ""
    return f"""
name: {name}
agents:
  writer: {{description: Writes.}}
  judge:
    description: Judges.
    resultSchema:
      type: object
      required: [done]
      properties: {{done: {{type: boolean}}, reason: {{type: string}}}}
steps:
  - id: dev
    loop:
      maxIterations: {iterations}
      untilAgent: judge
      outputMode: cumulative
      steps:
        - id: draft
          agent: writer
          instructions: Write a draft.{review_step}
"""


# Replies for a judge_loop without review: two drafts, then the judge passes the second.
JUDGE_LOOP_SCRIPT = {
    "replies": {
        "draft": ["draft one", "draft two", "draft three"],
        "judge": [
            {"content": "not yet", "result": {"done": False, "reason": "too short"}},
            {"content": "good", "result": {"done": True, "reason": "complete"}},
        ],
    }
}


WORDS = {3: "Three", 4: "Four"}


def polish_loop(name: str, rounds: int) -> str:
    """A judged repeat-until loop `polish` (its inner step `write`) of at most ``rounds`` rounds, then `publish`."""
    return f"""\
name: {name}
description: {WORDS.get(rounds, str(rounds))} rounds of polishing, judged each round.
agents:
  writer:
    description: Writes and rewrites the text.
  judge:
    description: Decides whether the text is done.
    resultSchema:
      type: object
      required: [done]
      properties:
        done: {{type: boolean}}
        reason: {{type: string}}
steps:
  - id: polish
    loop:
      maxIterations: {rounds}
      untilAgent: judge
      outputMode: cumulative
      steps:
        - id: write
          agent: writer
          instructions: Improve the text.
  - id: publish
    agent: writer
    dependsOn: [polish]
    instructions: Publish the final text.
"""


# A judged one-step repeat-until `write` (agent `writer`, judge `judge`), for the fork tests: RIVERS_SCRIPT's judge
# says not yet until round 4. The writer has no scripted reply: the simulated provider answers with its task, so an
# edited instruction shows in the output.
JUDGE_NOT_YET = {"content": "not yet", "result": {"done": False, "reason": "too short"}}
JUDGE_DONE = {"content": "good", "result": {"done": True, "reason": "complete"}}
RIVERS_SCRIPT = {"replies": {"judge": [JUDGE_NOT_YET], "write.3.untilAgent": [JUDGE_DONE]}}


def rivers_loop(name: str) -> str:
    return f"""
name: {name}
agents:
  writer: {{description: Writes.}}
  judge:
    description: Judges.
    resultSchema:
      type: object
      required: [done]
      properties: {{done: {{type: boolean}}, reason: {{type: string}}}}
steps:
  - id: write
    agent: writer
    instructions: Write a draft about rivers.
    loop:
      maxIterations: 6
      untilAgent: judge
"""
