"""An include step's result and the dependencies its included workflow sees, as upstream's runner gives them.

Ports upstream's internal/exec/include_test.go ``TestExecutor_Include_NamespacedInnerStepIDs`` (the result
carries ``innerSteps`` keyed ``do_build.compile``, ``do_build.test_step``; each value ``{content, status}``
as executor_include.go builds it), ``TestExecutor_Include_ParentDepResultsInjected`` (the outputs of the
include step's ``dependsOn`` reach the prompts of the included workflow's root steps) and
``TestExecutor_Include_FallbackToDirectFilePath`` (the include's content is its last completed step's).
"""
from pathlib import Path

import pytest

from tests.support.checkpoints import assert_fold_matches_engine
from tests.support.engine_runs import doc, prompts, run, run_with_checkpoints, step_end
from tests.support.ported_workflows import INCLUDE_BUILD, INCLUDE_MAIN, INCLUDE_REPLIES


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "build.yaml").write_text(INCLUDE_BUILD)
    return tmp_path


async def test_the_result_lists_every_inner_step_by_its_namespaced_id_with_content_and_status(folder):
    result, sink = await run(doc(INCLUDE_MAIN), INCLUDE_REPLIES, base_dir=folder)
    assert result.status == "completed", result.reason
    assert result.steps["do_build"].result == {
        "passed": 12,  # the last completed inner step's own result, as upstream merges it
        "innerSteps": {
            "do_build.compile": {"content": "compiled", "status": "completed"},
            "do_build.test_step": {"content": "tests passed", "status": "completed"},
        },
    }
    assert step_end(sink, "do_build")["data"]["result"] == result.steps["do_build"].result
    assert result.steps["do_build"].content == "tests passed"


async def test_a_condition_after_the_include_reads_an_inner_steps_content(folder):
    result, sink = await run(doc(INCLUDE_MAIN), INCLUDE_REPLIES, base_dir=folder)
    assert result.steps["report"].status == "completed"
    assert not sink.of_type("step_skipped")


async def test_the_include_steps_dependencies_reach_the_included_root_steps_prompts(folder):
    _, sink = await run(doc(INCLUDE_MAIN), INCLUDE_REPLIES, base_dir=folder)
    root = prompts(sink, "do_build.compile")[0]
    assert "Output of step `setup`" in root and "setup done: toolchain 1.2 ready" in root
    # A step that depends on a sibling sees that sibling, not the include step's dependencies.
    inner = prompts(sink, "do_build.test_step")[0]
    assert "compiled" in inner and "toolchain 1.2" not in inner


async def test_the_include_step_counts_what_its_workflow_spent(folder):
    _, sink = await run(doc(INCLUDE_MAIN), INCLUDE_REPLIES, base_dir=folder)
    assert step_end(sink, "do_build")["tokens"] == {"prompt": 10, "completion": 6, "total": 16}


async def test_an_include_whose_last_step_is_skipped_hands_on_the_step_before(tmp_path):
    (tmp_path / "sub.yaml").write_text(INCLUDE_BUILD.replace('    instructions: "Run tests"',
                                                     '    instructions: "Run tests"\n    condition: "false"'))
    d = doc("""
        name: skipped-last
        steps:
          - {id: inc, include: sub.yaml}
    """)
    result, _ = await run(d, INCLUDE_REPLIES, base_dir=tmp_path)
    assert result.steps["inc"].content == "compiled"
    assert result.steps["inc"].result == {"innerSteps": {"inc.compile": {"content": "compiled", "status": "completed"},
                                                         "inc.test_step": {"content": "", "status": "skipped"}}}


async def test_a_failed_include_has_no_result(folder):
    replies = {**INCLUDE_REPLIES, "replies": {**INCLUDE_REPLIES["replies"], "compile": [{"error": "compiler crashed"}]}}
    result, _ = await run(doc(INCLUDE_MAIN), replies, base_dir=folder)
    assert result.steps["do_build"].status == "failed"
    assert result.steps["do_build"].result is None


async def test_every_boundary_of_an_include_run_is_rebuilt_from_its_events(folder):
    result, sink, taken = await run_with_checkpoints(doc(INCLUDE_MAIN), INCLUDE_REPLIES, base_dir=folder)
    assert result.status == "completed"
    assert_fold_matches_engine(sink.events, taken)


async def test_a_retried_include_counts_what_every_attempt_spent(folder):
    d = doc(INCLUDE_MAIN.replace("    dependsOn: [setup]\n", "    dependsOn: [setup]\n    retries: 1\n", 1))
    replies = {**INCLUDE_REPLIES, "replies": {**INCLUDE_REPLIES["replies"],
                                      "do_build.test_step": [{"content": "no structured result"}] * 3 + [
                                          {"content": "tests passed", "result": {"passed": 12}}]}}
    result, sink = await run(d, replies, base_dir=folder)
    assert result.steps["do_build"].status == "completed"
    assert step_end(sink, "do_build")["data"]["attempts"] == 2
    outside = sum(step_end(sink, s)["tokens"]["total"] for s in ("setup", "report"))
    assert step_end(sink, "do_build")["tokens"]["total"] == result.tokens["total"] - outside > 16
