"""The template gallery lists valid documents, each with a script the simulated provider accepts."""
import pytest

from designer.documents import load_source
from designer.templates import get_template, list_templates
from runtime.providers.script import load_script

EXPECTED = ["harness", "research", "goal-driven", "writer-critic", "react-tool-loop", "fanout-deploy", "debate"]
TEMPLATES = list_templates()


def test_the_gallery_has_the_seven_patterns_in_order():
    assert [t.slug for t in TEMPLATES] == EXPECTED


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: t.slug)
def test_each_template_is_a_valid_document_without_warnings(template):
    loaded = load_source(template.document_yaml)
    assert loaded.valid, [d.message for d in loaded.report.diagnostics]
    assert not loaded.report.warnings, [d.message for d in loaded.report.warnings]
    assert loaded.document["name"] == template.slug


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: t.slug)
def test_each_template_has_a_title_a_description_and_a_loop(template):
    assert template.title and template.description and template.pattern and template.origin
    steps = load_source(template.document_yaml).document["steps"]
    assert any("loop" in s for s in steps)


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: t.slug)
def test_each_script_parses_and_scripts_only_steps_or_agents_of_its_template(template):
    script = load_script(template.script_yaml)
    document = load_source(template.document_yaml).document
    names = set(document.get("agents", {}))
    for s in document["steps"]:
        names.add(s["id"])
        names.update(inner["id"] for inner in (s.get("loop") or {}).get("steps") or [])
    assert script.replies and set(script.replies) <= names
    assert 0 < script.latency <= 0.1


def test_the_template_yaml_keeps_its_explanatory_comments():
    assert get_template("harness").document_yaml.startswith("# Harness")


def test_get_template_finds_by_slug_and_refuses_unknown_ones():
    assert get_template("debate").title == "Debate until a judge agrees"
    with pytest.raises(KeyError):
        get_template("no-such-template")


def test_a_summary_leaves_the_file_texts_out():
    summary = get_template("harness").summary()
    assert set(summary) == {"slug", "title", "description", "pattern", "origin"}
