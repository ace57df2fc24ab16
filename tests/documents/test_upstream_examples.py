"""Every upstream example validates; its canonical export satisfies upstream's schema and reloads equal."""
import json

import pytest
from jsonschema import Draft202012Validator

from designer.documents import dump_json, dump_yaml, load_source
from tests.support.upstream_spec import SPEC, examples


@pytest.fixture(scope="module")
def upstream_schema():
    return Draft202012Validator(json.loads((SPEC / "schema.json").read_text()))


@pytest.mark.parametrize("path", examples(), ids=lambda p: p.stem)
def test_example_is_valid_and_exports_canonically(path, upstream_schema):
    source = path.read_text()
    loaded = load_source(source)
    assert loaded.valid, [d.as_dict() for d in loaded.report.errors]

    for text in (dump_yaml(loaded.document), dump_yaml(loaded.document, source=source), dump_json(loaded.document)):
        again = load_source(text)
        assert again.valid, [d.as_dict() for d in again.report.errors]
        assert again.document == loaded.document
        errors = list(upstream_schema.iter_errors(again.document))
        assert not errors, [e.message for e in errors]


@pytest.mark.parametrize("path", examples(), ids=lambda p: p.stem)
def test_export_keeps_the_examples_comments(path):
    source = path.read_text()
    comments = [line.strip() for line in source.splitlines() if line.strip().startswith("#")]
    exported = dump_yaml(load_source(source).document, source=source)
    for comment in comments:
        assert comment in exported
