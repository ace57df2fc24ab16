import asyncio

from runtime.providers import ChatReply, Provider
from tests.support.engine_runs import doc, run


class Recorder(Provider):
    def __init__(self, name="simulated", delay=0.01):
        self.name = name
        self.delay = delay
        self.in_flight = 0
        self.peak = 0
        self.order: list[str] = []
        self.models: list[str] = []

    async def chat(self, request, on_delta=None):
        self.order.append(request.step_path)
        self.models.append(request.model)
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        await asyncio.sleep(self.delay)
        self.in_flight -= 1
        return ChatReply(content=f"{self.name}:{request.step_path}")


def fan(n: int, options: str = "") -> dict:
    steps = "\n".join(f"  - {{id: s{i}, instructions: 'Step {i}.'}}" for i in range(n))
    return doc(f"name: fan\n{options}\nsteps:\n{steps}\n")


async def test_at_most_five_steps_run_at_once_by_default():
    provider = Recorder()
    await run(fan(9), providers={"simulated": provider})
    assert provider.peak == 5


async def test_options_max_concurrency_bounds_parallel_steps():
    provider = Recorder()
    await run(fan(6, "options: {maxConcurrency: 2}"), providers={"simulated": provider})
    assert provider.peak == 2


async def test_a_step_starts_only_after_all_its_dependencies_finished():
    d = doc("""
        name: diamond
        steps:
          - {id: join, dependsOn: [left, right], instructions: "Join."}
          - {id: left, dependsOn: [root], instructions: "Left."}
          - {id: right, dependsOn: [root], instructions: "Right."}
          - {id: root, instructions: "Root."}
    """)
    provider = Recorder()
    _result, _ = await run(d, providers={"simulated": provider})
    assert provider.order[0] == "root" and provider.order[-1] == "join"
    assert sorted(provider.order[1:3]) == ["left", "right"]
    assert "## Output of step `left` (completed)\nsimulated:left" in _user_prompt(_, "join")


def _user_prompt(sink, step_id):
    return next(e for e in sink.of_type("agent_turn") if e["stepId"] == step_id)["data"]["prompt"]["user"]


async def test_prefixed_models_reach_their_provider_and_bare_ones_the_default():
    d = doc("""
        name: routing
        agents:
          gpt: {description: "G.", model: openai/gpt-test}
          plain: {description: "P.", model: some-local-model}
        steps:
          - {id: a, agent: gpt, instructions: "A."}
          - {id: b, agent: plain, instructions: "B."}
          - {id: c, instructions: "C.", model: anthropic/claude-test}
    """)
    openai, default = Recorder("openai"), Recorder("simulated")
    result, _sink = await run(d, providers={"openai": openai, "simulated": default})
    assert openai.models == ["gpt-test"]
    assert sorted(default.models) == ["anthropic/claude-test", "some-local-model"]
    assert any("provider 'anthropic' is not configured" in w for w in result.warnings)
