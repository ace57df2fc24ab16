"""Scripts for the simulated provider: what each agent replies, in order.

A script is YAML or JSON::

    replies:            # key: namespaced id, then step id, then agent name, then "*"
      review: ["needs work", "LGTM"]   # the n-th reply for that key; the last repeats
      judge:
        - {content: "not yet", result: {done: false, reason: "tests missing"}}
        - {content: "ship it", result: {done: true, reason: "ok"}}
      flaky: [{error: "upstream 503"}, "ok"]    # an attempt that fails
      coder:                                     # tool calls: one turn calls them, the next reply answers
        - {tool_calls: [{name: write, arguments: {path: a.txt, content: hi}}, {name: bash, arguments: {command: ls}}]}
        - "done"
    latency: 0.05                     # seconds per reply (optional)
    tokens: {prompt: 10, completion: 5}   # per reply (optional)

Each call to the provider takes the next reply for the first key that
matches, so an agent that submits an invalid result and is asked again gets
the following reply. So does an agent with a ``resultSchema`` that answered
with text only and is reminded to call ``submit_result``: ``draft: ["my answer",
{result: {...}}]`` scripts the text answer, then the submission the reminder
gets (a second text reply fails the step, quoting it). A reply may also set
``latency`` and ``tokens`` for itself.

The run's coordinator is scripted under the key ``coordinator`` (never ``*``: a
catch-all for the step agents would otherwise answer it too). How often it is
woken depends on timing, so its replies may say ``when``: the reply is given, once,
to the first request whose latest user message (the wake's news) contains that
text; requests no ``when`` matches take the key's other replies in order::

    coordinator:
      - {when: "loop.1.worker started", tool_calls: [{name: forward_to_agent,
           arguments: {target_step_id: loop.1.worker, text: "use the new data", kind: context_update}}]}
      - {when: "have all ended", tool_calls: [{name: finalize, arguments: {summary: "All done."}}]}
      - "nothing to add"

Without a ``coordinator`` key the coordinator's every reply is a sentence saying the script has none (no
narration, no forward; its last wake's reply stands in as the run's summary), so the run neither fails nor
stalls for it.

A step agent's ``send_message`` is an ordinary scripted tool call:
``{tool_calls: [{name: send_message, arguments: {text: "halfway"}}]}``.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

_MISSING = object()


class ScriptError(ValueError):
    pass


@dataclass
class Reply:
    content: str = ""
    result: Any = _MISSING
    error: str | None = None
    latency: float | None = None
    tokens: dict | None = None
    tool_calls: list[dict] = field(default_factory=list)   # [{name, arguments, id?}]
    when: str | None = None   # given once, to the first request whose latest user message contains it

    @property
    def has_result(self) -> bool:
        return self.result is not _MISSING


@dataclass
class Script:
    replies: dict[str, list[Reply]] = field(default_factory=dict)
    latency: float = 0.0
    tokens: dict | None = None
    _used: dict[str, int] = field(default_factory=dict, repr=False)

    _spent: set[tuple[str, int]] = field(default_factory=set, repr=False)  # ``when`` replies already given

    def next_reply(self, keys: list[str], said: str = "") -> Reply | None:
        """The next reply for the first of ``keys`` the script names, or None. ``said``: the request's latest
        user message, which a ``when`` reply must contain."""
        for key in keys:
            queue = self.replies.get(key)
            if not queue:
                continue
            for i, reply in enumerate(queue):
                if reply.when is not None and (key, i) not in self._spent and reply.when in said:
                    self._spent.add((key, i))
                    return reply
            plain = [r for r in queue if r.when is None]
            if plain:
                n = self._used.get(key, 0)
                self._used[key] = n + 1
                return plain[min(n, len(plain) - 1)]
        return None

    def count_given(self, keys: list[str], said: str = "") -> None:
        """Count a reply as given for ``keys`` (a call an earlier attempt of the run made), as ``next_reply`` would;
        ``said``: that call's latest user message, so that a ``when`` reply it took is not given again."""
        self.next_reply(keys, said)

    def reset(self) -> None:
        self._used.clear()
        self._spent.clear()


def _reply(raw: Any, where: str) -> Reply:
    if isinstance(raw, str):
        return Reply(content=raw)
    if not isinstance(raw, dict):
        raise ScriptError(f"{where}: a reply is a string or a mapping, not {type(raw).__name__}")
    unknown = set(raw) - {"content", "result", "error", "latency", "tokens", "tool_calls", "when"}
    if unknown:
        raise ScriptError(f"{where}: unknown reply field(s) {', '.join(sorted(unknown))}")
    content = raw.get("content", "")
    if not isinstance(content, str):
        raise ScriptError(f"{where}.content: must be a string")
    error = raw.get("error")
    if error is not None and not isinstance(error, str):
        raise ScriptError(f"{where}.error: must be a string")
    latency = raw.get("latency")
    if latency is not None and (not isinstance(latency, (int, float)) or latency < 0):
        raise ScriptError(f"{where}.latency: must be a number >= 0")
    when = raw.get("when")
    if when is not None and (not isinstance(when, str) or not when):
        raise ScriptError(f"{where}.when: must be a non-empty string")
    return Reply(content=content, result=raw.get("result", _MISSING), error=error, when=when,
                 latency=latency, tokens=_tokens(raw.get("tokens"), f"{where}.tokens"),
                 tool_calls=_tool_calls(raw.get("tool_calls"), f"{where}.tool_calls"))


def _tool_calls(raw: Any, where: str) -> list[dict]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise ScriptError(f"{where}: a list of calls such as [{{name: bash, arguments: {{command: ls}}}}]")
    calls = []
    for i, call in enumerate(raw):
        if not isinstance(call, dict) or not isinstance(call.get("name"), str) or not call["name"]:
            raise ScriptError(f"{where}[{i}]: a call is a mapping with a `name`")
        unknown = set(call) - {"name", "arguments", "id"}
        if unknown:
            raise ScriptError(f"{where}[{i}]: unknown field(s) {', '.join(sorted(unknown))}")
        arguments = call.get("arguments", {})
        if not isinstance(arguments, (dict, str)):
            raise ScriptError(f"{where}[{i}].arguments: a mapping (or a raw JSON string)")
        if "id" in call and not isinstance(call["id"], str):
            raise ScriptError(f"{where}[{i}].id: must be a string")
        calls.append({"name": call["name"], "arguments": arguments, **({"id": call["id"]} if "id" in call else {})})
    return calls


def _tokens(raw: Any, where: str) -> dict | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or any(k not in ("prompt", "completion") for k in raw) or any(
        not isinstance(v, int) or v < 0 for v in raw.values()
    ):
        raise ScriptError(f"{where}: use {{prompt: N, completion: N}} with whole numbers")
    return {"prompt": raw.get("prompt", 0), "completion": raw.get("completion", 0)}


def parse_script(data: Any) -> Script:
    """Build a :class:`Script` from parsed YAML/JSON; raise :class:`ScriptError`."""
    if isinstance(data, Script):
        return data
    if data is None:
        return Script()
    if not isinstance(data, dict):
        raise ScriptError("a script is a mapping with 'replies'")
    unknown = set(data) - {"replies", "latency", "tokens"}
    if unknown:
        raise ScriptError(f"unknown script field(s) {', '.join(sorted(unknown))}")
    replies: dict[str, list[Reply]] = {}
    for key, value in (data.get("replies") or {}).items():
        items = value if isinstance(value, list) else [value]
        if not items:
            raise ScriptError(f"replies.{key}: give at least one reply")
        replies[str(key)] = [_reply(item, f"replies.{key}[{i}]") for i, item in enumerate(items)]
    latency = data.get("latency", 0.0) or 0.0
    if not isinstance(latency, (int, float)) or latency < 0:
        raise ScriptError("latency: must be a number >= 0")
    return Script(replies=replies, latency=float(latency), tokens=_tokens(data.get("tokens"), "tokens"))


def load_script(text: str) -> Script:
    """Parse script text (JSON or YAML)."""
    stripped = text.lstrip()
    if stripped.startswith("{"):
        try:
            return parse_script(json.loads(text))
        except json.JSONDecodeError as exc:
            raise ScriptError(f"invalid JSON: {exc}") from None
    try:
        data = YAML(typ="safe", pure=True).load(text)
    except YAMLError as exc:
        raise ScriptError(f"invalid YAML: {' '.join(str(exc).split())}") from None
    return parse_script(data)


def load_script_file(path: str | Path) -> Script:
    return load_script(Path(path).read_text(encoding="utf-8"))
