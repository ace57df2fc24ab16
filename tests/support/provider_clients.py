"""Provider clients the provider tests open against the fakes on loopback, and what several of them send: the
clients are closed after each test by ``close_opened`` (``pytestmark = pytest.mark.usefixtures("close_opened")``,
the fixture in tests/runtime/conftest.py); a one-agent workflow that reads notes.txt and submits an answer, on any
model; a chat request of a system and a user message."""
from __future__ import annotations

from runtime.providers import ChatRequest, Provider

OPENED: list[Provider] = []

READ_NOTES = {"name": "read", "arguments": {"path": "notes.txt"}}
SUBMIT_ANSWER = {"name": "submit_result", "arguments": {"answer": "4"}}


def opened(provider: Provider) -> Provider:
    """``provider``, closed once the test ends."""
    OPENED.append(provider)
    return provider


async def close_opened() -> None:
    while OPENED:
        await OPENED.pop().aclose()


def solver_flow(name: str, model: str, *, temperature: float | None = None) -> str:
    """Workflow ``name``: agent `solver` on ``model`` (with ``temperature``) reads notes.txt and submits ``answer``."""
    setting = f"\n        temperature: {temperature}" if temperature is not None else ""
    return f"""
    name: {name}
    agents:
      solver:
        description: Reads and answers.
        model: "{model}"{setting}
        tools: [read]
        resultSchema:
          type: object
          required: [answer]
          properties: {{answer: {{type: string}}}}
    steps:
      - {{id: solve, agent: solver, instructions: "What is in notes.txt?"}}
"""


def chat_request(default_model: str, user: str = "say hi", **kw: object) -> ChatRequest:
    """A request with a system text ("be brief") and ``user``'s message to ``default_model``, ``kw`` (a ``model``
    among them) replacing what it names."""
    base: dict = dict(model=default_model,
                      messages=[{"role": "system", "content": "be brief"}, {"role": "user", "content": user}])
    base.update(kw)
    return ChatRequest(**base)
