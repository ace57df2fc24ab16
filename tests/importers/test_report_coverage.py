"""The import report accounts for every source field and points into the document it describes."""
import json

import pytest
from ruamel.yaml import YAML

from designer.importers.report import OUTCOMES, format_table
from tests.support.imported_seeds import COQUI_SEEDS, RUNSIGHT_SEEDS, import_seed, resolve


def source_fields(data, prefix="", depth=0, max_depth=3):
    """JSON-pointer paths of the source, down to ``max_depth`` levels."""
    out = []
    items = data.items() if isinstance(data, dict) else (enumerate(data) if isinstance(data, list) else [])
    for key, value in items:
        path = f"{prefix}/{str(key).replace('~', '~0').replace('/', '~1')}"
        out.append(path)
        if depth + 1 < max_depth:
            out.extend(source_fields(value, path, depth + 1, max_depth))
    return out


def covered(path, fields):
    return any(path == f or path.startswith(f + "/") or f.startswith(path + "/") for f in fields)


CASES = [("runsight", p) for p in RUNSIGHT_SEEDS] + [("coqui", p) for p in COQUI_SEEDS]


@pytest.mark.parametrize("kind,path", CASES, ids=lambda c: getattr(c, "name", c))
def test_every_source_field_appears_in_the_report(kind, path):
    result = import_seed(kind, path.name)
    text = path.read_text()
    data = json.loads(text) if kind == "coqui" else YAML(typ="safe").load(text)
    fields = [e.field for e in result.report]
    missing = [p for p in source_fields(data) if not covered(p, fields)]
    assert not missing, f"not in the report: {missing}"


@pytest.mark.parametrize("kind,path", CASES, ids=lambda c: getattr(c, "name", c))
def test_every_report_target_exists_in_the_document(kind, path):
    result = import_seed(kind, path.name)
    for entry in result.report:
        assert entry.outcome in OUTCOMES
        if entry.outcome == "dropped":
            assert entry.target is None and entry.note, entry
        if entry.target is not None:
            resolve(result.document, entry.target)  # raises when the pointer is wrong
        if entry.outcome == "approximated":
            assert entry.note, f"{entry.field}: an approximation must say how"


def test_the_report_table_has_one_line_per_entry_and_a_header():
    result = import_seed("runsight", "basic_loop.yaml")
    lines = format_table(result.report).splitlines()
    assert lines[0].split() == ["OUTCOME", "FIELD", "TARGET", "NOTE"]
    assert len(lines) == len(result.report) + 1
    assert any(line.startswith("approximated") and "/blocks/done/code" in line for line in lines)


def test_the_result_serialises_to_json_with_counts():
    result = import_seed("coqui", "harness.json")
    data = json.loads(json.dumps(result.as_dict()))
    assert data["kind"] == "coqui"
    assert sum(data["counts"].values()) == len(data["report"])
    assert set(data["report"][0]) == {"field", "outcome", "target", "note"}
