"""The coordinator: upstream zenflow's model that watches a run, routes messages and writes its synthesis.

Hub and spoke: step agents ``send_message`` to it; it ``forward_to_agent``s to a running step, ``narrate``s
for the people watching and ``finalize``s with the run's synthesis. Plain Python over the messaging room
and the providers' types; the engine wires it (:mod:`runtime.engine.coordination`) and reaches the model
for it, so its calls wait out a pause, ask the run's permit and count in the run's tokens, cost and budgets.

* :mod:`~runtime.coordinator.modes`: ``narrate`` / ``summary-only`` / ``off``, its model, the wake-cycle cap.
* :mod:`~runtime.coordinator.tools`: ``forward_to_agent``, ``narrate``, ``finalize``: names and parameters.
* :mod:`~runtime.coordinator.prompt`: what it is told, at the start and on every wake.
* :mod:`~runtime.coordinator.runner`: the wake loop, the cap, the final synthesis.
"""
from runtime.coordinator.modes import DEFAULT_MAX_WAKE_CYCLES, DEFAULT_MODE, MODES, CoordinatorSettings, Mode, first_agent_model, parse_mode
from runtime.coordinator.runner import Coordinator, Hooks, Synthesis

__all__ = ["DEFAULT_MAX_WAKE_CYCLES", "DEFAULT_MODE", "MODES", "Coordinator", "CoordinatorSettings", "Hooks", "Mode",
           "Synthesis", "first_agent_model", "parse_mode"]
