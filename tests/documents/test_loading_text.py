"""Loading text: YAML features refused with their line, malformed text explained, never an exception."""
import time

import pytest

from designer.documents import MAX_DOCUMENT_BYTES, load_source

MINIMAL = "name: w\nsteps:\n  - id: a\n    instructions: hi\n"


def codes(loaded):
    return [d.code for d in loaded.report.errors]


def test_it_reads_yaml_and_json_to_the_same_document():
    as_json = '{"name": "w", "steps": [{"id": "a", "instructions": "hi"}]}'
    assert load_source(MINIMAL).document == load_source(as_json).document
    assert load_source(as_json).format == "json"


def test_it_refuses_an_alias_bomb_at_the_value_cap_without_expanding_it_further():
    layers = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 30):
        prev = chr(ord("a") + i - 1) if i < 26 else f"z{i}"
        name = chr(ord("a") + i) if i < 26 else f"z{i + 1}"
        layers.append(f"{name}: &{name} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]")
    started = time.perf_counter()
    loaded = load_source("\n".join(layers))
    assert codes(loaded) == ["too_large"]
    assert "an alias counts as the values it repeats" in loaded.report.errors[0].message
    assert time.perf_counter() - started < 5  # generous: expansion would never finish


def test_it_refuses_tags():
    assert codes(load_source("name: !!str w\nsteps: []\n")) == ["yaml_tag"]


def test_it_refuses_duplicate_keys_naming_the_key_and_line():
    loaded = load_source("name: w\nsteps:\n  - id: a\n    id: b\n")
    error = loaded.report.errors[0]
    assert error.code == "duplicate_key"
    assert "'id'" in error.message and error.line == 4


def test_malformed_yaml_gives_line_and_column():
    loaded = load_source("name: w\nsteps:\n  - id: [a\n")
    error = loaded.report.errors[0]
    assert error.code == "syntax"
    assert error.line and error.column


@pytest.mark.parametrize("text, line, column, words", [
    ("name: w\nsteps:\n  - id: a\n    instructions: b\n  - id: [oops\n", 5, 9, "the `[` opened here is never closed"),
    ('name: "w\nsteps: []\n', 1, 7, "the quote opened here is never closed"),
    ("name: w\nsteps: {a: 1\n", 2, 8, "the `{` opened here is never closed"),
])
def test_an_unclosed_bracket_or_quote_points_where_it_was_opened_not_where_the_text_ends(text, line, column, words):
    error = load_source(text).report.errors[0]
    assert (error.code, error.line, error.column) == ("syntax", line, column)
    assert words in error.message


def test_malformed_json_gives_line_and_column():
    loaded = load_source('{\n  "name": "w",\n  "steps": [,]\n}')
    error = loaded.report.errors[0]
    assert (error.code, error.line) == ("syntax", 3)


def test_the_size_cap_is_checked_before_parsing():
    text = "name: w\n# " + "x" * MAX_DOCUMENT_BYTES + "\nsteps: [{id: a}]\n"
    loaded = load_source(text)
    assert codes(loaded) == ["too_large"]
    assert loaded.document is None


def test_a_list_or_an_empty_file_is_not_a_workflow():
    assert codes(load_source("- a\n- b\n")) == ["not_a_mapping"]
    assert codes(load_source("   \n")) == ["empty_document"]


def test_yaml_11_booleans_stay_strings_as_in_yaml_12():
    loaded = load_source("name: w\ndescription: yes\nsteps:\n  - id: a\n")
    assert loaded.document["description"] == "yes"
    assert loaded.valid


def test_diagnostics_carry_the_line_of_the_field_they_name():
    loaded = load_source("name: w\nsteps:\n  - id: a\n    dependsOn: [ghost]\n")
    error = loaded.report.errors[0]
    assert (error.code, error.path, error.line) == ("missing_dep", "/steps/0/dependsOn/0", 4)


def test_invalid_utf8_is_explained():
    assert codes(load_source(b"name: \xff\xfe\nsteps: []\n")) == ["encoding"]
