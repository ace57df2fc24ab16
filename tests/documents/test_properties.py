"""Property tests: written documents read back equal; junk never raises."""
import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from designer.documents import dump_json, dump_yaml, load_source, validate_document

ids = st.from_regex(r"\A[a-z][a-z0-9_-]{0,10}\Z")
text = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=60)
tricky = st.sampled_from(["yes", "no", "null", "~", "true", "1e3", "0x10", "0o7", "-1", ".5", "1.0", "", " lead", "trail ", "a: b", "# not a comment",
                          "- item", "'q'", '"dq"', "line1\nline2", "ends\n", "\ttab", "x\r\ny", "@prompts/p.md", "*alias", "&anchor", "!tag", "{a}", "[b]",
                          "%d", "`tick`", "\u2028", "é ü 中"])
strings = st.one_of(text, tricky)
json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**53), 2**53), st.floats(allow_nan=False, allow_infinity=False), strings)
json_values = st.recursive(json_scalars, lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(strings, inner, max_size=3)), max_leaves=8)
duration = st.from_regex(r"\A[1-9][0-9]?[hms]\Z")


@st.composite
def steps(draw, *, allow_loop=True, n_max=5):
    count = draw(st.integers(1, n_max))
    chosen = draw(st.lists(ids, min_size=count, max_size=count, unique=True))
    out = []
    for i, step_id in enumerate(chosen):
        step = {"id": step_id}
        if draw(st.booleans()):
            step["instructions"] = draw(strings)
        if i and draw(st.booleans()):
            step["dependsOn"] = draw(st.lists(st.sampled_from(chosen[:i]), max_size=2, unique=True))
        if draw(st.booleans()):
            step["timeout"] = draw(duration)
        if draw(st.booleans()):
            step["retries"] = draw(st.integers(0, 3))
        if draw(st.booleans()):
            step["condition"] = draw(st.sampled_from(["true", "iteration < 2", "steps.x.status == 'completed'"]))
        if allow_loop and draw(st.integers(0, 3)) == 0:
            if draw(st.booleans()):
                step["loop"] = {"forEach": draw(st.one_of(st.lists(json_values, min_size=1, max_size=3), st.just("steps.a.result.items"))),
                                "maxConcurrency": draw(st.integers(0, 4))}
            else:
                step["loop"] = {"maxIterations": draw(st.integers(1, 9)), "until": "iteration >= 1",
                                "outputMode": draw(st.sampled_from(["last", "cumulative", ""])), "delay": draw(duration)}
            if draw(st.booleans()):
                step["loop"]["steps"] = draw(steps(allow_loop=False, n_max=3))
        out.append(step)
    return out


@st.composite
def documents(draw):
    doc = {"name": draw(strings.filter(bool)), "steps": draw(steps())}
    if draw(st.booleans()):
        doc["description"] = draw(strings)
    if draw(st.booleans()):
        doc["agents"] = {
            name: {"description": draw(strings), "resultSchema": {"type": "object", "properties": {"x": {"type": "string", "description": draw(strings)}}}}
            for name in draw(st.lists(ids, max_size=3, unique=True))
        }
    if draw(st.booleans()):
        doc["options"] = {"maxConcurrency": draw(st.integers(0, 9)), "onStepFailure": draw(st.sampled_from(["cascade", "abort", "skip-dependents"]))}
    return doc


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(documents())
def test_written_yaml_reads_back_equal(doc):
    loaded = load_source(dump_yaml(doc))
    assert not [d for d in loaded.report.errors if d.code in ("syntax", "duplicate_key", "yaml_tag", "yaml_alias", "yaml_anchor")]
    assert loaded.document == doc


@settings(max_examples=200, deadline=None)
@given(documents())
def test_written_json_reads_back_equal(doc):
    assert load_source(dump_json(doc)).document == doc


@settings(max_examples=200, deadline=None)
@given(documents())
def test_writing_is_deterministic(doc):
    assert dump_yaml(doc) == dump_yaml(load_source(dump_yaml(doc)).document)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_random_bytes_give_diagnostics_never_an_exception(data):
    loaded = load_source(data)
    assert loaded.valid is False or isinstance(loaded.document, dict)


yamlish = st.text(alphabet=string.printable + "&*!<>|{}[]-:#", max_size=300)


@settings(max_examples=300, deadline=None)
@given(yamlish)
def test_random_yamlish_text_gives_diagnostics_never_an_exception(source):
    loaded = load_source(source)
    for diagnostic in loaded.report.diagnostics:
        assert diagnostic.message


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_random_structures_validate_without_raising(value):
    report = validate_document(value)
    for diagnostic in report.diagnostics:  # every problem says what, and where as a JSON pointer
        assert diagnostic.code and diagnostic.message and (diagnostic.path == "" or diagnostic.path.startswith("/"))
    if not isinstance(value, dict) or "steps" not in value:
        assert not report.valid and report.errors  # `steps` is required: never valid without it


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["name", "steps", "agents", "options", "version", "includes"]), json_values, max_size=6))
def test_random_documents_with_real_keys_validate_without_raising(value):
    report = validate_document(value)
    assert report.valid == (not report.errors)
    if not isinstance(value.get("steps"), list) or not value.get("steps"):
        assert not report.valid
