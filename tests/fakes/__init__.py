"""Fake LLM provider servers on loopback, for tests and benchmarks.

``FakeOpenAI`` (chat completions) and ``FakeAnthropic`` (Messages API) start
on a free port in a thread, answer from scripted replies and record requests.
"""
from tests.fakes.anthropic import FakeAnthropic
from tests.fakes.openai import FakeOpenAI
from tests.fakes.server import FakeServer, Request, Response

__all__ = ["FakeAnthropic", "FakeOpenAI", "FakeServer", "Request", "Response"]
