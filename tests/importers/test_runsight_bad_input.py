"""Bad Runsight input is refused with a message naming the field and line, never a traceback."""
import pytest

from designer.importers import ImportFailed, import_loop

GOOD_LOOP = """\
blocks:
  draft:
    type: linear
    soul_ref: writer
  refine:
    type: loop
    inner_block_refs: [draft]
workflow:
  name: ok
  entry: refine
"""


def refuse(text: str) -> ImportFailed:
    with pytest.raises(ImportFailed) as err:
        import_loop("runsight", text)
    return err.value


def test_the_good_loop_used_below_imports():
    assert import_loop("runsight", GOOD_LOOP).document["steps"][0]["id"] == "refine"


def test_malformed_yaml_names_the_line():
    err = refuse("blocks:\n  draft: {type: linear\nworkflow: x\n")
    assert "not valid YAML" in str(err)
    assert err.line is not None and err.line >= 2


def test_duplicate_keys_are_refused():
    err = refuse(GOOD_LOOP + "workflow:\n  name: again\n  entry: refine\n")
    assert "not valid YAML" in str(err)


def test_a_file_that_is_not_a_mapping_is_refused():
    assert "mapping" in str(refuse("- just\n- a list\n"))


def test_a_missing_workflow_section_is_refused():
    err = refuse("blocks:\n  a: {type: linear, soul_ref: s}\n")
    assert err.path == "/workflow"


def test_a_missing_entry_is_refused():
    err = refuse("blocks:\n  a: {type: linear, soul_ref: s}\nworkflow:\n  name: x\n")
    assert err.path == "/workflow/entry"


def test_an_entry_that_names_no_block_is_refused_with_its_line():
    err = refuse(GOOD_LOOP.replace("entry: refine", "entry: nowhere"))
    assert err.path == "/workflow/entry" and err.line == 10


def test_missing_blocks_are_refused():
    assert refuse("workflow: {name: x, entry: a}\n").path == "/blocks"


def test_an_unknown_block_type_is_refused_with_its_path_and_line():
    err = refuse(GOOD_LOOP.replace("type: linear", "type: teleport"))
    assert err.path == "/blocks/draft/type"
    assert err.line == 3
    assert "teleport" in str(err) and "linear, gate, code, loop, synthesize" in str(err)


def test_a_loop_whose_inner_ref_points_nowhere_is_refused():
    err = refuse(GOOD_LOOP.replace("[draft]", "[draft, ghost]"))
    assert err.path == "/blocks/refine/inner_block_refs/1"
    assert "ghost" in str(err) and err.line == 7


def test_a_loop_listing_itself_is_refused():
    assert "itself" in str(refuse(GOOD_LOOP.replace("[draft]", "[draft, refine]")))


def test_an_empty_inner_block_list_is_refused():
    assert refuse(GOOD_LOOP.replace("[draft]", "[]")).path == "/blocks/refine/inner_block_refs"


def test_a_linear_block_without_a_soul_is_refused():
    assert refuse(GOOD_LOOP.replace("    soul_ref: writer\n", "")).path == "/blocks/draft/soul_ref"


def test_a_gate_whose_eval_key_names_no_block_is_refused():
    text = GOOD_LOOP.replace("  refine:", "  check:\n    type: gate\n    soul_ref: critic\n    eval_key: nothing\n  refine:")
    assert refuse(text).path == "/blocks/check/eval_key"


def test_depends_on_a_missing_block_is_refused():
    text = GOOD_LOOP.replace("    soul_ref: writer\n", "    soul_ref: writer\n    depends: missing\n")
    assert refuse(text).path == "/blocks/draft/depends"


def test_a_block_in_two_loops_is_refused():
    text = GOOD_LOOP.replace("workflow:", "  other:\n    type: loop\n    inner_block_refs: [draft]\nworkflow:")
    assert "two loops" in str(refuse(text))


def test_loops_that_contain_each_other_are_refused():
    text = """\
blocks:
  a: {type: loop, inner_block_refs: [b]}
  b: {type: loop, inner_block_refs: [a]}
workflow: {name: x, entry: a}
"""
    assert "contain each other" in str(refuse(text)) or "cycle" in str(refuse(text))


def test_max_rounds_must_be_a_positive_integer():
    err = refuse(GOOD_LOOP.replace("inner_block_refs: [draft]", "inner_block_refs: [draft]\n    max_rounds: zero"))
    assert err.path == "/blocks/refine/max_rounds"


def test_an_unknown_source_system_is_refused():
    with pytest.raises(ImportFailed, match="runsight, coqui"):
        import_loop("airflow", GOOD_LOOP)


def test_empty_input_is_refused():
    with pytest.raises(ImportFailed, match="empty"):
        import_loop("runsight", "  \n")
