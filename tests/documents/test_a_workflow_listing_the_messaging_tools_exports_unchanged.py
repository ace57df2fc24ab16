"""A workflow whose agents list upstream's messaging tools (send_message, shared_memory_write, shared_memory_read)
is valid without a warning about them, and exports unchanged."""
from designer.documents import dump_json, dump_yaml, load_source

SOURCE = """name: talkers
version: 1
agents:
  auditor:
    description: Audits.
    tools: [read, send_message, shared_memory_write]
  fixer:
    description: Fixes.
    tools: [shared_memory_read]
steps:
  - {id: audit, agent: auditor, instructions: Audit.}
  - {id: fix, agent: fixer, instructions: Fix., dependsOn: [audit]}
"""


def test_the_tools_are_known_and_the_export_keeps_them():
    loaded = load_source(SOURCE)
    assert loaded.valid
    assert [d.message for d in loaded.report.warnings if "tool" in d.message] == []
    for text in (dump_yaml(loaded.document, source=SOURCE), dump_yaml(loaded.document), dump_json(loaded.document)):
        again = load_source(text)
        assert again.document == loaded.document
        assert again.document["agents"]["auditor"]["tools"] == ["read", "send_message", "shared_memory_write"]
