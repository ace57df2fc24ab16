"""Workflow documents the live and web tests run."""
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
