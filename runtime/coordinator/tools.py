"""The coordinator's tools, with upstream zenflow's names, parameters and answers.

* ``forward_to_agent`` (``target_step_id``, ``text``, ``kind``: ``info`` by default, ``context_update``
  or ``cancel``, anything else ``info``): answered by the router (``queued: msg-fwd-<n>``, ``dropped:
  <reason>`` with the targetable ids for ``unknown-step``, ``rejected: ...`` for a container).
* ``narrate`` (``text``): ``narrated``; one ``coordinator_narration`` event. Not in ``summary-only``.
* ``finalize`` (``summary``, optional): ``finalized``; the last call's summary is the run's. Advisory:
  the run ends when its steps end.

The coordinator never gets ``send_message`` or the shared-memory tools.
"""
from __future__ import annotations

from runtime.coordinator.modes import Mode

FORWARD = "forward_to_agent"
NARRATE = "narrate"
FINALIZE = "finalize"


def _s(description: str) -> dict:
    return {"type": "string", "description": description}


SPECS: dict[str, dict] = {
    FORWARD: {"name": FORWARD,
              "description": "Forward a message to a running step's agent, by the step id you were shown (bare, "
                             "such as 'worker', or namespaced, such as 'loop.1.worker'). It reads it at its next turn.",
              "parameters": {"type": "object", "required": ["target_step_id", "text"], "properties": {
                  "target_step_id": _s("The id of a running step, as listed in your latest update"),
                  "text": _s("The message"),
                  "kind": {"type": "string", "enum": ["info", "context_update", "cancel"],
                           "description": "info (default), context_update (new context for its task) or cancel"}}}},
    NARRATE: {"name": NARRATE,
              "description": "Tell the people watching the run, in a sentence or two, what just happened and why it "
                             "matters. Once per significant event; never repeat an earlier narration.",
              "parameters": {"type": "object", "required": ["text"], "properties": {"text": _s("The narration")}}},
    FINALIZE: {"name": FINALIZE,
               "description": "Give the run's final synthesis: what was done, what came out of it, what is left. "
                              "A later call replaces an earlier one.",
               "parameters": {"type": "object", "properties": {"summary": _s("The synthesis")}}},
}


def names_for(mode: Mode) -> list[str]:
    """The tools a coordinator in ``mode`` is offered."""
    return [FORWARD, FINALIZE] if mode == "summary-only" else [FORWARD, NARRATE, FINALIZE]


def specs_for(mode: Mode) -> list[dict]:
    return [SPECS[name] for name in names_for(mode)]
