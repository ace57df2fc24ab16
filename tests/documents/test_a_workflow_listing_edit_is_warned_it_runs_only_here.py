"""An agent listing our `edit` tool: valid and runnable here, with a warning at the tool's place that zenflow's
runner refuses it (a user exporting it would otherwise learn it there). Upstream's tools get no such warning."""
from designer.documents import load_source

SOURCE = """name: editors
agents:
  fixer:
    description: Fixes.
    tools: [read, edit]
steps:
  - {id: fix, agent: fixer, instructions: Fix.}
"""


def test_edit_is_warned_at_its_place_without_blocking_the_run():
    loaded = load_source(SOURCE)
    assert loaded.valid
    found = [d for d in loaded.report.warnings if d.code == "tool_only_here"]
    assert [(d.path, d.severity) for d in found] == [("/agents/fixer/tools/1", "warning")]
    assert 'tool "edit"' in found[0].message and "zenflow's runner refuses" in found[0].message
    assert "`write`" in (found[0].hint or "")
    assert not found[0].blocks_run and loaded.report.runnable


def test_upstreams_tools_alone_get_no_such_warning():
    loaded = load_source(SOURCE.replace("[read, edit]", "[read, write]"))
    assert [d for d in loaded.report.warnings if d.code == "tool_only_here"] == []
