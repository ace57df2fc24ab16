"""python manage.py templates [SLUG] [--script] [--json]."""
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from designer.documents import load_source
from runtime.providers.script import load_script


def run(*args):
    out = StringIO()
    call_command("templates", *args, stdout=out)
    return out.getvalue()


def test_it_lists_every_template_with_its_title():
    lines = run().splitlines()
    assert len(lines) == 7
    assert lines[0].startswith("harness") and "Harness: plan, code, review" in lines[0]


def test_it_prints_a_templates_yaml():
    assert load_source(run("debate")).valid


def test_it_prints_a_templates_script():
    assert load_script(run("debate", "--script")).replies["judge"]


def test_json_lists_summaries():
    data = json.loads(run("--json"))
    assert [t["slug"] for t in data][:2] == ["harness", "research"]
    assert "document_yaml" not in data[0]


def test_an_unknown_template_exits_1_and_lists_the_known_ones():
    with pytest.raises(CommandError) as err:
        run("nope")
    assert err.value.returncode == 1 and "harness" in str(err.value)
