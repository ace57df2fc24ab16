"""Runsight blocks as zenflow steps: linear and code blocks as agent steps, gates, loops with their inner steps,
a gate that becomes an `untilAgent` judge, and `carry_context`."""
from __future__ import annotations

from typing import Any

from designer.importers.common import (
    JUDGE_SCHEMA,
    MAX_INSTRUCTIONS,
    ImportFailed,
    clip,
    duration,
    line_of,
    pointer_token,
)
from designer.importers.runsight.state import CODE_AGENT, COMMON_BLOCK_KEYS, DEFAULT_MAX_ROUNDS, GATE_INSTRUCTIONS, TYPE_KEYS, _Step
from designer.importers.runsight.transitions import _Transitions


class _Blocks(_Transitions):

    # -- agents --------------------------------------------------------------
    def _agent_for_soul(self, soul_ref: str, field_path: str, block_id: str) -> str:
        if soul_ref in self.st.soul_agent:
            name = self.st.soul_agent[soul_ref]
            self.st.agent_users[name].append(block_id)
            self.rep.carried(field_path, f"/agents/{name}", f"soul '{soul_ref}' -> agent '{name}'")
            return name
        name = self.agent_names.claim(soul_ref, "agent")
        soul = self.souls.get(soul_ref)
        agent: dict[str, Any] = {}
        if soul is not None:
            spath = f"/souls/{pointer_token(soul_ref)}"
            agent["description"] = str(soul.get("role") or f"Runsight soul '{soul_ref}'")
            self.rep.carried(f"{spath}/role", f"/agents/{name}/description")
            if soul.get("system_prompt"):
                agent["prompt"] = str(soul["system_prompt"])
                self.rep.carried(f"{spath}/system_prompt", f"/agents/{name}/prompt")
            if soul.get("model_name"):
                model = str(soul["model_name"])
                if soul.get("provider") and "/" not in model:
                    model = f"{soul['provider']}/{model}"
                    self.rep.carried(f"{spath}/provider", f"/agents/{name}/model", "provider prefixed to the model name")
                agent["model"] = model
                self.rep.carried(f"{spath}/model_name", f"/agents/{name}/model")
            elif soul.get("provider"):
                self.rep.dropped(f"{spath}/provider", "a provider without a model name has no zenflow field")
            if isinstance(soul.get("tools"), list):
                agent["tools"] = [str(t) for t in soul["tools"]]
                self.rep.carried(f"{spath}/tools", f"/agents/{name}/tools")
            if isinstance(soul.get("temperature"), (int, float)) and 0 <= soul["temperature"] <= 2:
                agent["temperature"] = soul["temperature"]
                self.rep.carried(f"{spath}/temperature", f"/agents/{name}/temperature")
            if isinstance(soul.get("max_tool_iterations"), int) and soul["max_tool_iterations"] >= 0:
                agent["maxTurns"] = soul["max_tool_iterations"]
                self.rep.approximated(f"{spath}/max_tool_iterations", f"/agents/{name}/maxTurns",
                                      "tool-call rounds became conversation turns")
            if "id" in soul:
                self.rep.carried(f"{spath}/id", f"/agents/{name}", "the soul's id names the agent")
            for key in soul:
                if key in ("id", "role", "system_prompt", "model_name", "provider", "tools", "temperature", "max_tool_iterations"):
                    continue
                self.rep.dropped(f"{spath}/{pointer_token(key)}", f"soul field '{key}' has no zenflow equivalent")
            self.rep.carried(field_path, f"/agents/{name}", f"soul '{soul_ref}' -> agent '{name}'")
        else:
            agent["description"] = f"Runsight soul '{soul_ref}' (its definition is not in this file; add its prompt)"
            self.rep.approximated(field_path, f"/agents/{name}",
                                  f"soul '{soul_ref}' is defined outside the file: agent '{name}' has a placeholder description and no prompt")
        self.st.agents[name] = agent
        self.st.agent_users[name] = [block_id]
        self.st.soul_agent[soul_ref] = name
        return name

    def _code_agent(self, block_id: str) -> str:
        if CODE_AGENT not in self.st.agents:
            name = self.agent_names.claim(CODE_AGENT)
            self.st.agents[name] = {
                "description": "Stands in for Runsight code blocks: works out what the given Python main(data) returns.",
                "prompt": "You receive a Python function main(data) and the outputs of earlier steps as data. "
                          "Work out what it returns (run it if you have a tool for that) and answer with that value as JSON only.",
            }
            self.st.agent_users[name] = []
        self.st.agent_users[CODE_AGENT].append(block_id)
        return CODE_AGENT

    # -- blocks --------------------------------------------------------------
    def _build_block(self, block_id: str, block: dict) -> None:
        btype = block["type"]
        if btype == "loop":
            if block_id in self.loop_of:  # nested: flattened into the outer loop
                self._report_nested(block_id, block)
            return
        path = f"/blocks/{pointer_token(block_id)}"
        sid = self.step_id[block_id]
        step: dict[str, Any] = {"id": sid}
        loop_id = self.loop_of.get(block_id)
        if btype == "linear":
            step["agent"] = self._agent_for_soul(block["soul_ref"], f"{path}/soul_ref", block_id)
            text = "Work on the workflow's task in your role."
            if loop_id:
                text += " If an earlier round left output or feedback, improve on it."
            step["instructions"] = text
            self.rep.approximated(f"{path}/type", f"@{sid}",
                                  "linear block -> agent step; Runsight hands the run's task to the block at run time, "
                                  "so the step carries a generic instruction: write the task into it")
        elif btype == "gate":
            self._gate_step(block_id, block, step, path)
        elif btype == "synthesize":
            step["agent"] = self._agent_for_soul(block["soul_ref"], f"{path}/soul_ref", block_id)
            names = ", ".join(f"'{self.step_id[b]}'" for b in block["input_block_ids"])
            step["instructions"] = f"Synthesise the outputs of {names} into one coherent result."
            self.rep.carried(f"{path}/type", f"@{sid}", "synthesize block -> agent step over its inputs' outputs")
            for i, ref in enumerate(block["input_block_ids"]):
                self._add_dep(block_id, ref, f"{path}/input_block_ids/{i}", None)
        elif btype == "code":
            step["agent"] = self._code_agent(block_id)
            src = str(block["code"]).rstrip()
            text, cut = clip(
                "This was a Runsight code block. With the outputs of your dependencies as `data`, "
                "answer with what this function returns, as JSON:\n\n```python\n" + src + "\n```",
                MAX_INSTRUCTIONS)
            step["instructions"] = text
            self.rep.approximated(f"{path}/type", f"@{sid}",
                                  f"code block -> agent step run by '{CODE_AGENT}'")
            self.rep.approximated(f"{path}/code", f"@{sid}/instructions",
                                  "zenflow v1 has no code blocks: an agent step whose instructions carry the Python source"
                                  + (" (truncated to the 2000-character limit)" if cut else ""))
            if "allowed_imports" in block:
                self.rep.dropped(f"{path}/allowed_imports", "sandbox import allowlist has no zenflow equivalent")
        self.st.steps[block_id] = _Step(block_id, step, loop_id)
        self._common_fields(block_id, block, step, path)

    def _gate_step(self, block_id: str, block: dict, step: dict, path: str) -> None:
        sid = self.step_id[block_id]
        step["agent"] = self._agent_for_soul(block["soul_ref"], f"{path}/soul_ref", block_id)
        target = block["eval_key"].split(".")[0]
        step["instructions"] = GATE_INSTRUCTIONS.format(target=self.step_id[target])
        self.rep.carried(f"{path}/type", f"@{sid}",
                         "gate block -> agent step that answers PASS or FAIL: <reason>; its pass handle is tested in CEL "
                         "as 'first line starts with PASS'")
        self._eval_key_dependency(block_id, block, step, path)
        if "extract_field" in block:
            self.rep.dropped(f"{path}/extract_field",
                             "a gate's pass-through field has no zenflow equivalent; the step's content is its verdict")

    def _eval_key_dependency(self, block_id: str, block: dict, step: dict, path: str) -> None:
        target = block["eval_key"].split(".")[0]
        sid = self.step_id[block_id]
        if target == block_id:
            self.rep.dropped(f"{path}/eval_key", "a gate evaluating itself")
            return
        here, there = self.loop_of.get(block_id), self.loop_of.get(target)
        if here and here == there:
            refs = self.inner[here]
            if target in refs and refs.index(target) < refs.index(block_id):
                self.rep.carried(f"{path}/eval_key", f"@{sid}/dependsOn",
                                 f"the gate reads '{target}', an earlier step of the same iteration")
            else:
                self.rep.approximated(f"{path}/eval_key", f"@{sid}/instructions",
                                      f"'{target}' runs later in the round; the gate sees its output from the previous iteration")
            return
        dep = target if there is None else there
        self._add_dep(block_id, dep, f"{path}/eval_key",
                      None if there is None else f"'{target}' is inside loop '{there}': the gate depends on the loop step")

    def _common_fields(self, block_id: str, block: dict, step: dict, path: str) -> None:
        sid = self.step_id[block_id]
        ts = block.get("timeout_seconds")
        if ts is not None:
            step["timeout"] = duration(ts)
            self.rep.carried(f"{path}/timeout_seconds", f"@{sid}/timeout")
        rc = block.get("retry_config")
        if isinstance(rc, dict):
            attempts = rc.get("max_attempts", 3)
            if isinstance(attempts, int) and attempts >= 1:
                step["retries"] = attempts - 1
                extra = [k for k in rc if k != "max_attempts"]
                self.rep.approximated(f"{path}/retry_config", f"@{sid}/retries",
                                      f"max_attempts {attempts} -> retries {attempts - 1}"
                                      + (f"; {', '.join(extra)} dropped (zenflow retries at once, on any error)" if extra else ""))
            else:
                self.rep.dropped(f"{path}/retry_config", f"max_attempts {attempts!r} is not a positive integer")
        elif rc is not None:
            self.rep.dropped(f"{path}/retry_config", "not a mapping")
        if block.get("stateful"):
            self.rep.dropped(f"{path}/stateful",
                             "zenflow v1 has no per-step conversation memory across iterations; each iteration sees the previous one's output only")
        elif "stateful" in block:
            self.rep.carried(f"{path}/stateful", None, "false is zenflow's behaviour")
        for key, why in (
            ("outputs", "declared output types are not part of a zenflow step"),
            ("assertions", "Runsight evaluation assertions have no zenflow equivalent"),
            ("stall_thresholds", "stall detection is the runner's business, not the document's"),
        ):
            if key in block:
                self.rep.dropped(f"{path}/{key}", why)
        if "exits" in block:
            self.rep.approximated(f"{path}/exits", None,
                                  "exit ports have no zenflow field; where a loop or transition tests one, CEL tests the step's output")
        if "output_conditions" in block:
            self.rep.approximated(f"{path}/output_conditions", None,
                                  "cases compile to CEL over the step's structured result wherever a loop or transition tests their handle")
        inputs = block.get("inputs")
        if isinstance(inputs, dict):
            for name, ref in inputs.items():
                src = ref.get("from") if isinstance(ref, dict) else None
                src_block = str(src).split(".")[0] if src else None
                ipath = f"{path}/inputs/{pointer_token(name)}"
                if src_block is None or src_block not in self.blocks:
                    raise ImportFailed(f"input '{name}' comes from '{src}', which names no block", path=ipath,
                                       line=line_of(inputs, name))
                self._add_dep(block_id, src_block, ipath,
                              "zenflow injects every dependency's output; the named input field is not singled out")
        if block.get("type") != "loop":
            allowed = COMMON_BLOCK_KEYS | TYPE_KEYS[block["type"]]
            for key in block:
                if key not in allowed:
                    self.rep.dropped(f"{path}/{pointer_token(key)}", f"unknown field for a {block['type']} block")

    def _report_nested(self, loop_id: str, block: dict) -> None:
        path = f"/blocks/{pointer_token(loop_id)}"
        outer = self.loop_of[loop_id]
        self.rep.approximated(path, f"@{self.step_id[outer]}/loop/steps",
                              f"zenflow v1 has no nested loops: the blocks of '{loop_id}' run once per round of '{outer}'")
        for key in block:
            if key not in ("type", "inner_block_refs"):
                self.rep.dropped(f"{path}/{pointer_token(key)}", "belongs to a nested loop, which was flattened")

    # -- loops ---------------------------------------------------------------
    def _build_loop(self, loop_id: str, block: dict) -> None:
        path = f"/blocks/{pointer_token(loop_id)}"
        sid = self.step_id[loop_id]
        refs = self.inner[loop_id]
        rounds = block.get("max_rounds", DEFAULT_MAX_ROUNDS)
        loop: dict[str, Any] = {"maxIterations": rounds}
        if "max_rounds" in block:
            self.rep.carried(f"{path}/max_rounds", f"@{sid}/loop/maxIterations")
        else:
            self.rep.approximated(f"{path}/max_rounds", f"@{sid}/loop/maxIterations",
                                  f"absent: Runsight's default of {DEFAULT_MAX_ROUNDS} rounds made explicit")
        self.rep.carried(f"{path}/type", f"@{sid}/loop",
                         "loop block -> repeat-until loop step; rounds_completed, broke_early and break_reason are kept in the run record")
        self.rep.carried(f"{path}/inner_block_refs", f"@{sid}/loop/steps",
                         "inner blocks -> inner steps, each depending on the one before (Runsight runs them in order)")

        last = refs[-1]
        judge = last in self.judged
        if judge:
            refs = refs[:-1]
            self._gate_to_judge(loop_id, last, loop, path)
        inner_steps = []
        for i, ref in enumerate(refs):
            inner_step = self.st.steps[ref].step
            if i > 0:
                deps = inner_step.setdefault("dependsOn", [])
                prev = self.step_id[refs[i - 1]]
                if prev not in deps:
                    deps.insert(0, prev)
            inner_steps.append(inner_step)
        loop["steps"] = inner_steps
        if not judge:
            self._loop_until(loop_id, block, refs, loop, path)
        if loop.get("until") or loop.get("untilAgent"):
            self.rep.warn(f"loop '{sid}': if its break rule never fires, the loop ends after {rounds} iterations and the "
                          "designer's runtime marks it failed, where Runsight reports 'max_rounds reached' and carries on")
        self._carry_context(loop_id, block, refs, loop, path)
        step: dict[str, Any] = {"id": sid, "loop": loop}
        self.st.steps[loop_id] = _Step(loop_id, step, None)
        self._common_fields(loop_id, block, step, path)
        for key in block:
            if key not in COMMON_BLOCK_KEYS | TYPE_KEYS["loop"]:
                self.rep.dropped(f"{path}/{pointer_token(key)}", "unknown field for a loop block")

    def _gate_to_judge(self, loop_id: str, gate_id: str, loop: dict, path: str) -> None:
        gate = self.blocks[gate_id]
        gpath = f"/blocks/{pointer_token(gate_id)}"
        soul_ref = gate["soul_ref"]
        name = self.agent_names.claim(gate_id, "judge")
        soul = self.souls.get(soul_ref) or {}
        target = gate["eval_key"].split(".")[0]
        prompt = (str(soul.get("system_prompt")).rstrip() + "\n\n") if soul.get("system_prompt") else ""
        prompt += (f"You are the quality gate of this loop. Evaluate the output of '{self.step_id.get(target, target)}' "
                   "from the round that just finished. Set done=true when it meets quality standards (PASS); "
                   "otherwise set done=false and give the detailed reason, which the next round will see.")
        agent: dict[str, Any] = {
            "description": f"Quality gate from Runsight gate '{gate_id}' (soul '{soul_ref}'): decides whether the loop is done.",
            "prompt": prompt,
            "resultSchema": JUDGE_SCHEMA,
        }
        if soul.get("model_name"):
            agent["model"] = str(soul["model_name"])
        self.st.agents[name] = agent
        self.st.agent_users[name] = [gate_id]
        loop["untilAgent"] = name
        sid = self.step_id[loop_id]
        self.rep.carried(f"{path}/break_on_exit", f"@{sid}/loop/untilAgent",
                         f"the last inner block '{gate_id}' is a gate: it became judge agent '{name}' with the done contract "
                         "(pass = done: true); the loop stops when the judge says done")
        self.rep.carried(f"{gpath}/type", f"/agents/{name}", "gate -> untilAgent judge")
        self.rep.carried(f"{gpath}/soul_ref", f"/agents/{name}/prompt",
                         f"soul '{soul_ref}' gives the judge its role" + ("" if soul else " (definition not in this file)"))
        self.rep.approximated(f"{gpath}/eval_key", f"/agents/{name}/prompt",
                              f"the judge sees the whole iteration; its prompt points it at '{target}'")
        for key in ("pass", "fail"):
            if key in gate:
                self.rep.approximated(f"{gpath}/{key}", f"@{sid}",
                                      f"{key} -> '{gate[key]}': " + (
                                          "when the judge says done the loop ends and the steps after it run"
                                          if key == "pass" else "a failed verdict starts the next iteration"))
        if "extract_field" in gate:
            self.rep.dropped(f"{gpath}/extract_field", "a judge's verdict carries no pass-through field")
        self._common_fields_judge(gate_id, gate, gpath, name)

    def _common_fields_judge(self, gate_id: str, gate: dict, gpath: str, agent: str) -> None:
        for key in gate:
            if key in ("type", "soul_ref", "eval_key", "pass", "fail", "extract_field"):
                continue
            if key == "depends":
                self.rep.dropped(f"{gpath}/depends", "the judge runs after each iteration; it has no dependencies")
            elif key == "timeout_seconds":
                self.rep.dropped(f"{gpath}/timeout_seconds", "a judge has no timeout of its own; the loop step's timeout bounds it")
            elif key in COMMON_BLOCK_KEYS:
                self.rep.dropped(f"{gpath}/{key}", f"'{key}' on a gate that became a judge has no zenflow equivalent")
            else:
                self.rep.dropped(f"{gpath}/{pointer_token(key)}", "unknown field for a gate block")

    def _loop_until(self, loop_id: str, block: dict, refs: list[str], loop: dict, path: str) -> None:
        sid = self.step_id[loop_id]
        parts: list[str] = []
        break_exit = block.get("break_on_exit")
        if break_exit is not None:
            expr = self._exit_expr(refs, str(break_exit), f"{path}/break_on_exit")
            if expr:
                parts.append(expr)
                self.rep.approximated(f"{path}/break_on_exit", f"@{sid}/loop/until",
                                      f"CEL over the blocks that can exit with '{break_exit}'; zenflow tests it after the whole "
                                      "iteration, where Runsight stops mid-round")
        condition = block.get("break_condition")
        if condition is not None:
            parts.append(self._condition_expr(refs[-1], condition, f"{path}/break_condition"))
            self.rep.carried(f"{path}/break_condition", f"@{sid}/loop/until",
                             f"CEL over the last inner step '{self.step_id[refs[-1]]}' after each iteration")
        until = " || ".join(f"({p})" for p in parts) if len(parts) > 1 else (parts[0] if parts else None)
        retry_exit = block.get("retry_on_exit")
        if retry_exit is not None:
            retry_expr = self._exit_expr(refs, str(retry_exit), f"{path}/retry_on_exit")
            if retry_expr and until:
                until = f"!({retry_expr}) && ({until})"
                self.rep.approximated(f"{path}/retry_on_exit", f"@{sid}/loop/until",
                                      "a retried round skips the break test and counts toward maxIterations, as in Runsight; "
                                      "zenflow cannot restart mid-round, so the inner steps after the retry point still run")
            elif retry_expr:
                self.rep.approximated(f"{path}/retry_on_exit", f"@{sid}/loop",
                                      "with no break rule every round is followed by the next anyway; "
                                      "a retried round counts toward maxIterations, as in Runsight")
        if until:
            loop["until"] = until
        elif break_exit is None and condition is None:
            self.rep.carried(f"{path}", f"@{sid}/loop/maxIterations", "no break rule: the loop runs maxIterations times")

    # -- carried context ------------------------------------------------------
    def _carry_context(self, loop_id: str, block: dict, refs: list[str], loop: dict, path: str) -> None:
        sid = self.step_id[loop_id]
        cc = block.get("carry_context")
        cpath = f"{path}/carry_context"
        if cc is None:
            return
        if not isinstance(cc, dict):
            raise ImportFailed("carry_context must be a mapping", path=cpath, line=line_of(block, "carry_context"))
        enabled = cc.get("enabled", True)
        if not enabled:
            self.rep.approximated(f"{cpath}/enabled", f"@{sid}/loop",
                                  "zenflow always shows an iteration the previous one's output; it cannot be switched off")
            return
        if "enabled" in cc:
            self.rep.carried(f"{cpath}/enabled", f"@{sid}/loop", "each zenflow iteration sees the previous one's outputs")
        mode = cc.get("mode", "last")
        if mode == "all":
            loop["outputMode"] = "cumulative"
            self.rep.approximated(f"{cpath}/mode", f"@{sid}/loop/outputMode",
                                  "'all' -> cumulative: the loop step's content joins every iteration for the steps after it; "
                                  "inside the loop each iteration sees the previous one, and Runsight's 3% budget trimming is the runner's")
        elif mode == "last":
            self.rep.carried(f"{cpath}/mode", f"@{sid}/loop",
                             "'last' is zenflow's behaviour: an iteration sees the previous iteration's outputs")
        else:
            raise ImportFailed(f"carry_context.mode must be 'last' or 'all', not {mode!r}", path=f"{cpath}/mode",
                               line=line_of(cc, "mode"))
        sources = cc.get("source_blocks")
        if sources is not None:
            if not isinstance(sources, list) or any(s not in self.inner[loop_id] for s in sources):
                raise ImportFailed("source_blocks must name inner blocks of this loop", path=f"{cpath}/source_blocks",
                                   line=line_of(cc, "source_blocks"))
            names = ", ".join(f"the judge '{s}' (its verdict)" if s in self.judged else self.step_id[s] for s in sources)
            if refs:
                first = self.st.steps[refs[0]].step
                note = f" Focus on the previous iteration's output of: {names}."
                if "instructions" in first and len(first["instructions"]) + len(note) <= MAX_INSTRUCTIONS:
                    first["instructions"] += note
            self.rep.approximated(f"{cpath}/source_blocks", f"@{self.step_id[refs[0]]}/instructions" if refs else None,
                                  "zenflow carries every inner step's output; the first inner step is told which ones matter")
        if "inject_as" in cc:
            self.rep.dropped(f"{cpath}/inject_as", "a shared_memory key; zenflow injects carried outputs into the context itself")
        for key in cc:
            if key not in ("enabled", "mode", "source_blocks", "inject_as"):
                self.rep.dropped(f"{cpath}/{pointer_token(key)}", "unknown carry_context field")
