"""Fake LLM provider servers on loopback, for tests and benchmarks.

``FakeOpenAI`` (chat completions; ``FakeAzure`` with Azure's URL and header rules), ``FakeAnthropic``
(Messages API), ``FakeGemini`` (streamGenerateContent) and ``FakeBedrock`` (ConverseStream and Converse, SigV4 checked) start
on a free port in a thread, answer from scripted replies and record requests.
"""
from tests.fakes.anthropic import FakeAnthropic
from tests.fakes.bedrock import FakeBedrock
from tests.fakes.gemini import FakeGemini
from tests.fakes.openai import FakeAzure, FakeOpenAI
from tests.fakes.server import FakeServer, Request, Response

__all__ = ["FakeAnthropic", "FakeAzure", "FakeBedrock", "FakeGemini", "FakeOpenAI", "FakeServer", "Request",
           "Response"]
