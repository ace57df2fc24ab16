"""The fake OpenAI server bench/evals.py runs in a process of its own (``bench.runtime.start_fake_openai``), as
bench/runtime.py does its fakes: in the benchmark's process its work took the interpreter from the code measured.

It answers as a judged loop's agents would: the judge (offered ``submit_result`` with ``done``) says done at the
third round, or at once when its system text is the re-scoring's new prompt; the writer writes. ``GET /counts``
answers how many chat requests it has had and how many of them were the judge's.
"""
from __future__ import annotations

import argparse
import json
import urllib.request
from typing import Any

from tests.fakes.openai import FakeOpenAI
from tests.fakes.server import Request, Response, json_response

NEW_JUDGE_PROMPT = "Say done once the draft mentions otters."


def is_judge(body: dict) -> bool:
    return any(t.get("function", {}).get("name") == "submit_result"
               and "done" in (t.get("function", {}).get("parameters") or {}).get("properties", {})
               for t in body.get("tools") or [])


def reply_to(body: dict) -> dict:
    if is_judge(body):
        messages = body.get("messages") or []
        done = any("Iteration 3 of at most 3" in str(m.get("content")) for m in messages) \
            or NEW_JUDGE_PROMPT in str(messages[0].get("content") if messages else "")
        return {"tool_calls": [{"name": "submit_result", "arguments": {"done": done, "reason": "ok" if done else "not yet"}}]}
    return {"content": "a draft about otters"}


class JudgeFake(FakeOpenAI):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.chats = self.judged = 0

    def reply_for(self, request: Request) -> dict:
        if request.path == "/counts":
            return {"counts": True, "latency": 0}
        body = request.json or {}
        self.chats += 1
        self.judged += is_judge(body)
        return reply_to(body)

    def respond(self, request: Request, reply: dict) -> Response:
        if reply.get("counts"):
            return json_response(200, {"requests": self.chats, "judge": self.judged})
        return super().respond(request, reply)


def counts(url: str) -> dict[str, int]:
    """What the fake at ``url`` has answered: ``requests`` and ``judge``."""
    with urllib.request.urlopen(url + "/counts", timeout=30) as answer:  # noqa: S310 - a loopback URL we started
        return json.loads(answer.read())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--latency", type=float, default=0.05)
    args = parser.parse_args()
    JudgeFake(latency=args.latency, port=args.port).serve_forever()


if __name__ == "__main__":
    main()
