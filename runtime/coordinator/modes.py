"""How a run's coordinator is set up: its mode, its model, its wake-cycle cap.

The modes are upstream's CLI's: ``narrate`` (its default: narration, forwarding, a final synthesis),
``summary-only`` (``--summary-only``: forwarding and one final synthesis, no ``narrate`` tool) and
``off`` (``--quiet``: no coordinator, no coordinator cost; ``send_message`` answers ``dropped:
no-coordinator``).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

Mode = Literal["narrate", "summary-only", "off"]
MODES: Final = ("narrate", "summary-only", "off")
DEFAULT_MODE: Final[Mode] = "narrate"
DEFAULT_MAX_WAKE_CYCLES: Final = 100  # upstream's default; the deployment's COORDINATOR_MAX_WAKE_CYCLES


def parse_mode(value: object) -> Mode:
    """A mode as given by a person (``POST /runs``, ``--coordinator``); a ``ValueError`` names the choices."""
    if value == "narrate" or value == "summary-only" or value == "off":
        return value
    raise ValueError(f"coordinator must be one of {', '.join(MODES)}, not {value!r}")


@dataclass(frozen=True)
class CoordinatorSettings:
    """``model``: ``provider/model`` or a bare name, as an agent's; empty: the workflow's first agent's model."""

    mode: Mode = DEFAULT_MODE
    model: str = ""
    max_wake_cycles: int = DEFAULT_MAX_WAKE_CYCLES

    def __post_init__(self) -> None:
        parse_mode(self.mode)
        if self.max_wake_cycles < 1:
            raise ValueError(f"max_wake_cycles must be at least 1, not {self.max_wake_cycles}")

    @property
    def on(self) -> bool:
        return self.mode != "off"


def first_agent_model(document: Mapping[str, Any]) -> str:
    """The coordinator's default model: the first agent's ``model`` in the document, else the provider's default."""
    for agent in (document.get("agents") or {}).values():
        if isinstance(agent, dict) and isinstance(agent.get("model"), str) and agent["model"]:
            return agent["model"]
        break
    return ""
