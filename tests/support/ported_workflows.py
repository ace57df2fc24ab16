"""Workflows ported from upstream's runner tests (internal/exec), with their scripted replies: the engine runs them
in tests/runtime and the web app runs the same ones over HTTP in tests/web."""
from tests.support.engine_runs import script

# internal/exec/foreach_test.go: a forEach over three items, read by CEL downstream (tests/runtime/test_foreach_result_lists_its_iterations.py).
FOREACH_PROC = """
name: agg
steps:
  - id: proc
    instructions: Process
    loop: {forEach: [x, y, z]}
  - id: after
    dependsOn: [proc]
    condition: "steps.proc.result.iterations[0].content == 'result-1' && steps.proc.result.iterations[2].item == 'z'"
    instructions: "Read the results."
"""
FOREACH_PROC_REPLIES = script("""
replies:
  "proc[0]": ["result-1"]
  "proc[1]": ["result-2"]
  "proc[2]": ["result-3"]
""")


# internal/exec/include_test.go: main.yaml including build.yaml (tests/runtime/test_include_results_and_dependencies.py).
INCLUDE_BUILD = """\
name: build-sub
version: 1
agents:
  builder:
    description: "Builds things"
    resultSchema: {type: object, required: [passed], properties: {passed: {type: integer}}}
  w:
    description: "Worker"
steps:
  - id: compile
    agent: w
    instructions: "Compile code"
  - id: test_step
    agent: builder
    dependsOn: [compile]
    instructions: "Run tests"
"""

INCLUDE_MAIN = """
name: include-ns-test
includes:
  build: build.yaml
steps:
  - id: setup
    instructions: "Setup the environment"
  - id: do_build
    include: build
    dependsOn: [setup]
  - id: report
    dependsOn: [do_build]
    condition: "steps.do_build.result.innerSteps['do_build.compile'].content == 'compiled'"
    instructions: "Report."
"""

INCLUDE_REPLIES = script("""
replies:
  setup: ["setup done: toolchain 1.2 ready"]
  compile: ["compiled"]
  test_step: [{content: "tests passed", result: {passed: 12}}]
  report: ["reported"]
tokens: {prompt: 5, completion: 3}
""")


# internal/exec/executor_test.go: a judged, cumulative debate loop and the text it hands on (tests/runtime/test_cumulative_loops_keep_every_inner_step.py).
DEBATE = """
name: debate
agents:
  pro: {description: "Argues for."}
  con: {description: "Argues against."}
  judge:
    description: "Judges the debate."
    resultSchema:
      type: object
      required: [done]
      properties: {done: {type: boolean}}
steps:
  - id: debate-rounds
    instructions: iterate
    loop:
      untilAgent: judge
      maxIterations: 5
      outputMode: cumulative
      steps:
        - {id: pro-argue, agent: pro, instructions: "argue for"}
        - {id: con-argue, agent: con, instructions: "argue against", dependsOn: [pro-argue]}
  - id: verdict
    dependsOn: [debate-rounds]
    instructions: "Sum up the debate."
"""

DEBATE_REPLIES = """
replies:
  pro: ["PRO_R1: remote work boosts productivity", "PRO_R2: telemetry shows higher output"]
  con: ["CON_R1: remote work isolates teams", "CON_R2: but onboarding suffers"]
  judge:
    - {content: "", result: {done: false}}
    - {content: "", result: {done: true}}
"""

WHOLE_DEBATE = (
    "## Iteration 1\n"
    "### pro-argue\nPRO_R1: remote work boosts productivity\n\n"
    "### con-argue\nCON_R1: remote work isolates teams\n\n"
    "## Iteration 2\n"
    "### pro-argue\nPRO_R2: telemetry shows higher output\n\n"
    "### con-argue\nCON_R2: but onboarding suffers\n\n"
)


# internal/exec/conformance_test.go: a judged loop whose every turn spends tokens (tests/runtime/test_loop_step_tokens.py).
UNTIL_AGENT = """
name: until-agent-test
agents:
  worker: {description: "Does iterative work", model: "gpt-x"}
  judge:
    description: "Evaluates completion"
    model: "gpt-x"
    resultSchema:
      type: object
      properties: {done: {type: boolean}, reason: {type: string}}
      required: [done]
steps:
  - id: iterate
    agent: worker
    instructions: "Iterate on the task"
    loop: {maxIterations: 5, untilAgent: judge}
"""
UNTIL_AGENT_REPLIES = script("""
replies:
  worker: [{content: "working...", tokens: {prompt: 100, completion: 50}}]
  judge:
    - {content: "Evaluating...", result: {done: false, reason: "iteration check"}, tokens: {prompt: 50, completion: 25}}
    - {content: "Evaluating...", result: {done: true, reason: "iteration check"}, tokens: {prompt: 50, completion: 25}}
""")
