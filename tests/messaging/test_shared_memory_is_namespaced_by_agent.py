"""Upstream's shared memory: ``shared_memory_write`` stores under the calling agent's name (agent ``auditor``,
key ``found`` -> ``auditor/found``); ``shared_memory_read`` takes a fully qualified key and answers the value."""
import json

import pytest

from runtime.messaging import SharedMemory


def test_a_write_lands_under_the_writers_name():
    memory = SharedMemory()
    assert memory.write("auditor", "found", "3 issues") == "written: auditor/found"
    assert memory.read("auditor/found") == "3 issues"
    assert memory.answer("auditor/found") == "3 issues"
    assert memory.read("found") is None


def test_any_agent_reads_any_namespace_and_each_writes_only_its_own():
    memory = SharedMemory()
    memory.write("auditor", "found", "a")
    memory.write("fixer", "found", "b")
    assert (memory.read("auditor/found"), memory.read("fixer/found")) == ("a", "b")


def test_a_later_write_replaces_the_value():
    memory = SharedMemory()
    memory.write("auditor", "found", "1")
    memory.write("auditor", "found", "2")
    assert memory.read("auditor/found") == "2"


def test_a_slash_in_an_agents_name_cannot_reach_another_namespace():
    memory = SharedMemory()
    assert memory.write("fixer/found", "x", "sneaky") == "written: fixer_found/x"
    assert memory.read("fixer/found/x") is None


def test_reading_a_key_nothing_was_written_under_says_so():
    assert SharedMemory().answer("auditor/none") == 'not found: nothing is stored under "auditor/none" (keys are written as <agent>/<key>)'


def test_a_snapshot_round_trips_through_json():
    memory = SharedMemory()
    memory.write("auditor", "found", "3")
    again = SharedMemory()
    again.restore(json.loads(json.dumps(memory.snapshot())))
    assert again.read("auditor/found") == "3"
    memory.write("auditor", "found", "4")  # the snapshot is a copy
    assert again.read("auditor/found") == "3"


@pytest.mark.parametrize("entries", [[], {"a/b": 1}, {2: "x"}])
def test_a_malformed_snapshot_is_refused(entries):
    with pytest.raises(ValueError, match="agent/key"):
        SharedMemory().restore(entries)
