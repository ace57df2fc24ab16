from pathlib import Path

from tests.support.engine_runs import doc, run, step_end


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


SUB = """
name: sub
agents:
  deployer: {description: "Deploys."}
steps:
  - {id: run, agent: deployer, instructions: "Run."}
  - {id: check, agent: deployer, dependsOn: [run], instructions: "Check."}
"""


async def test_included_steps_are_namespaced_and_their_agents_merged(tmp_path):
    write(tmp_path / "flows/deploy.yaml", SUB)
    d = doc("""
        name: parent
        includes: {deploy: flows/deploy.yaml}
        steps:
          - {id: build, instructions: "Build."}
          - {id: ship, include: deploy, dependsOn: [build]}
          - {id: announce, dependsOn: [ship], instructions: "Announce."}
    """)
    result, sink = await run(d, base_dir=tmp_path)
    assert result.status == "completed"
    starts = [e["stepId"] for e in sink.of_type("step_start")]
    assert starts == ["build", "ship", "ship.run", "ship.check", "announce"]
    assert step_end(sink, "ship.run")["agent"] == "deployer"
    assert "Check." in result.steps["ship"].content


async def test_includes_resolve_relative_to_the_including_file(tmp_path):
    write(tmp_path / "a/inner.yaml", "name: inner\nsteps: [{id: leaf, instructions: Leaf.}]\n")
    write(tmp_path / "a/middle.yaml", "name: middle\nsteps: [{id: mid, include: inner.yaml}]\n")
    d = doc("name: top\nsteps: [{id: top, include: a/middle.yaml}]")
    result, sink = await run(d, base_dir=tmp_path)
    assert result.status == "completed"
    assert "top.mid.leaf" in [e["stepId"] for e in sink.of_type("step_start")]


async def test_an_agent_clash_is_an_error(tmp_path):
    write(tmp_path / "deploy.yaml", SUB)
    d = doc("""
        name: clash
        agents: {deployer: {description: "Someone else."}}
        steps: [{id: ship, include: deploy.yaml}]
    """)
    result, sink = await run(d, base_dir=tmp_path)
    assert result.status == "failed"
    assert "agent 'deployer' clashes" in step_end(sink, "ship")["error"]


async def test_includes_nest_at_most_five_deep(tmp_path):
    write(tmp_path / "self.yaml", "name: self\nsteps: [{id: again, include: self.yaml}]\n")
    d = doc("name: deep\nsteps: [{id: d, include: self.yaml}]")
    result, sink = await run(d, base_dir=tmp_path)
    assert result.status == "failed"
    assert "deeper than 5" in step_end(sink, "d.again.again.again.again.again")["error"]


async def test_a_custom_resolver_supplies_saved_workflows():
    saved = {"saved:deploy": doc(SUB)}
    d = doc("name: web\nsteps: [{id: ship, include: 'saved:deploy'}]")
    result, _ = await run(d, resolver=lambda ref, base: (saved[ref], None))
    assert result.status == "completed"


async def test_a_missing_include_file_fails_the_step(tmp_path):
    _result, sink = await run(doc("name: m\nsteps: [{id: ship, include: nowhere.yaml}]"), base_dir=tmp_path)
    assert "nowhere.yaml not found" in step_end(sink, "ship")["error"]


async def test_tools_of_included_agents_are_warned_about_once(tmp_path):
    write(tmp_path / "deploy.yaml", SUB.replace('description: "Deploys."', 'description: "Deploys.", tools: [bash]'))
    d = doc("""
        name: twice
        steps:
          - {id: staging, include: deploy.yaml}
          - {id: production, include: deploy.yaml, dependsOn: [staging]}
    """)
    result, _ = await run(d, base_dir=tmp_path)
    assert result.status == "completed"
    assert result.warnings == ["agent 'deployer': tools bash are not given in this run (it has no workspace) "
                               "and are left out"]


async def test_an_included_agent_with_an_unknown_tool_fails_its_include_step(tmp_path):
    write(tmp_path / "deploy.yaml", SUB.replace('description: "Deploys."', 'description: "Deploys.", tools: [kubectl]'))
    d = doc("""
        name: once
        steps:
          - {id: staging, include: deploy.yaml}
    """)
    result, sink = await run(d, base_dir=tmp_path)
    assert result.status == "failed"
    assert "agent 'deployer' lists tool 'kubectl'" in step_end(sink, "staging")["error"]
