"""The step agents' messaging tools, with upstream zenflow's names, parameters and answers.

* ``send_message`` (``text``): to the run's coordinator. Answers ``queued: msg-send-<n>``, or
  ``dropped: <reason>``; in a run without a coordinator ``dropped: no-coordinator``, which is an answer,
  not an error.
* ``shared_memory_write`` (``key``, ``value``): stored under the calling agent's namespace (agent
  ``auditor``, key ``found``: ``auditor/found``). Answers ``written: <agent>/<key>``.
* ``shared_memory_read`` (``key``, fully qualified): the value, or a sentence saying nothing is there.

Unlike the workspace tools these need no workspace: they act on the run's router and shared memory,
which the engine passes in. What an agent is offered (:func:`offered_to`) follows upstream:
``send_message`` for every step agent, listed or not, unless it already has a tool of that name or
disallows it; the shared-memory pair the same way when the run has shared memory on. The descriptions
and parameters are the designer's (:data:`designer.tool_specs.SPECS`), as for every built-in tool.
"""
from __future__ import annotations

from collections.abc import Collection

from designer.tool_specs import SPECS
from runtime.messaging import COORDINATOR, MessageRouter, SendResult, SharedMemory
from runtime.tools import ToolError

SEND_MESSAGE = "send_message"
MEMORY_WRITE = "shared_memory_write"
MEMORY_READ = "shared_memory_read"
MESSAGING_TOOLS = (SEND_MESSAGE, MEMORY_WRITE, MEMORY_READ)


def spec(name: str) -> dict:
    """The function-tool shape providers send to the model."""
    entry = SPECS[name]
    return {"name": name, "description": entry["description"], "parameters": entry["parameters"]}


def offered_to(agent: dict, others: Collection[str], *, shared_memory: bool) -> list[str]:
    """The messaging tools a step agent gets, besides ``others`` (the tools it already has)."""
    denied = set(agent.get("disallowedTools") or [])
    wanted = [SEND_MESSAGE] + ([MEMORY_WRITE, MEMORY_READ] if shared_memory else [])
    return [name for name in wanted if name not in denied and name not in others]


def text_argument(args: dict, name: str, *, empty: bool = False) -> str:
    value = args.get(name)
    if not isinstance(value, str) or (not empty and not value.strip()):
        raise ToolError(f"`{name}` is required and must be a {'' if empty else 'non-empty '}string")
    return value


def send(router: MessageRouter, sender: str, args: dict) -> SendResult:
    """``send_message`` from the step execution ``sender``: to the coordinator."""
    return router.send(sender, COORDINATOR, text_argument(args, "text"))


def write(memory: SharedMemory | None, agent: str, args: dict) -> str:
    if memory is None:
        raise ToolError("shared memory is off in this run")
    return memory.write(agent, text_argument(args, "key"), text_argument(args, "value", empty=True))


def read(memory: SharedMemory | None, args: dict) -> str:
    if memory is None:
        raise ToolError("shared memory is off in this run")
    return memory.answer(text_argument(args, "key"))
