"""The comparison of two runs says where one of them was changed by a person at a breakpoint (the inputs edited, or
the step skipped) and where a pinned output answered instead of the model, beside the rows where they differ."""
from __future__ import annotations

import asyncio

from runtime.engine.debugger import Debugger
from runtime.engine.pricing import PriceBook
from runtime.runs.compare import compare_units, units_of
from tests.support.debugging import DEADLINE_S, Driver, cont
from tests.support.engine_runs import doc, run

FOUR_ROUNDS = """
name: four
steps:
  - id: write
    instructions: Write the next draft.
    loop:
      maxIterations: 4
"""
SCRIPT = {"replies": {"write": [f"draft {i}" for i in range(4)]}}


async def units(**kw) -> dict:
    result, sink = await asyncio.wait_for(run(doc(FOUR_ROUNDS), SCRIPT, **kw), DEADLINE_S)
    assert result.status == "completed", result.reason
    return units_of(sink.events, [], PriceBook(), "simulated")


async def test_an_edit_at_a_breakpoint_and_a_pin_are_marked_on_their_rows():
    plain = await units()
    debugger = Debugger([{"id": "b", "kind": "round", "step": "write", "round": 2}])
    edit = [{"action": "edit", "field": "previous_output", "value": "EDITED", "actor": "ann"}, *cont()]
    edited = await units(sink=Driver(debugger, [edit]), debugger=debugger)
    pinned = await units(pins={"write.1": {"content": "PINNED"}})

    assert edited["write.2"]["edited"] == ["previous_output"] and not edited["write.2"]["pinned"]
    assert all(not row["edited"] for key, row in edited.items() if key != "write.2")
    assert all(not row["edited"] and not row["pinned"] for row in plain.values())
    assert pinned["write.1"]["pinned"] and pinned["write.1"]["tokens"] == 0
    assert not any(row["pinned"] for key, row in pinned.items() if key != "write.1")

    # Marks are not disagreements: the runs part where the outputs do.
    comparison = compare_units(plain, edited, list(plain), list(edited))
    row = next(r for r in comparison["rows"] if r["key"] == "write.2")
    assert row["b"]["edited"] == ["previous_output"] and "edited" not in row["differs"]


async def test_a_context_file_edited_at_a_breakpoint_is_marked_with_its_path(tmp_path):
    (tmp_path / "brief.md").write_text("Keep it short.")
    document = doc("""
        name: briefed
        steps:
          - id: write
            instructions: Write the next draft.
            contextFiles: [brief.md]
            loop:
              maxIterations: 3
    """)
    debugger = Debugger([{"id": "b", "kind": "round", "step": "write", "round": 1}])
    edit = [{"action": "edit", "field": "context_file", "path": "brief.md", "value": "Make it long.", "actor": "ann"},
            *cont()]
    result, sink = await asyncio.wait_for(run(document, {"replies": {"write": ["a", "b", "c"]}}, base_dir=tmp_path,
                                              sink=Driver(debugger, [edit]), debugger=debugger), DEADLINE_S)
    assert result.status == "completed", result.reason
    edited = units_of(sink.events, [], PriceBook(), "simulated")
    assert edited["write.1"]["edited"] == ["context_file:brief.md"]
    assert all(not row["edited"] for key, row in edited.items() if key != "write.1")
