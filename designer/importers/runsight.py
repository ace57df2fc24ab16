"""Runsight block workflows -> zenflow v1.

A Runsight file is a map of ``blocks`` plus ``workflow`` (``name``, ``entry``,
``transitions``, ``conditional_transitions``). Blocks named in a loop's
``inner_block_refs`` become the inner steps of that loop's step, chained in
order; every other block becomes a top-level step. ``depends``, ``inputs`` and
transitions become ``dependsOn`` (conditional routes add a CEL ``condition``).

Breaking a loop:

* ``break_on_exit: pass`` where the loop's last inner block is a gate (and
  nothing else decides the loop) turns the gate into an ``untilAgent`` judge
  with the ``done`` contract.
* Otherwise the loop gets a CEL ``until``: a gate's pass handle is "the first
  line starts with PASS" over its content; ``output_conditions`` cases and
  ``break_condition`` compile to CEL over the block's structured ``result``
  (its agent gets a ``resultSchema`` holding the keys the conditions read).
* ``retry_on_exit`` keeps the loop going for that round (the break test is
  suppressed), which is the closest zenflow gets to "restart the round".
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from designer.cel import CelError, compile_expression

from .common import (
    JUDGE_SCHEMA,
    MAX_INSTRUCTIONS,
    ImportFailed,
    Names,
    cel_member,
    cel_step,
    cel_string,
    clip,
    duration,
    line_of,
    parse_yaml,
    plain,
    pointer_token,
)
from .report import ImportResult, Reporter

BLOCK_TYPES = ("linear", "gate", "code", "loop", "synthesize")
STRING_OPS = {
    "equals", "not_equals", "contains", "not_contains", "starts_with",
    "ends_with", "is_empty", "not_empty", "regex",
}
NUMERIC_OPS = {"eq": "==", "neq": "!=", "gt": ">", "lt": "<", "gte": ">=", "lte": "<="}
UNIVERSAL_OPS = {"exists", "not_exists"}
ALL_OPS = STRING_OPS | set(NUMERIC_OPS) | UNIVERSAL_OPS
DEFAULT_MAX_ROUNDS = 5
GATE_INSTRUCTIONS = (
    "Evaluate the output of step '{target}' and decide if it meets quality standards.\n"
    "Respond with EXACTLY one of:\n"
    "PASS - if the content meets quality standards\n"
    "FAIL: <detailed reason> - if the content needs improvement"
)
CODE_AGENT = "code-runner"
TOP_LEVEL_KEYS = {"version", "enabled", "config", "tools", "souls", "blocks", "workflow", "description"}
COMMON_BLOCK_KEYS = {
    "type", "depends", "stateful", "output_conditions", "inputs", "outputs",
    "retry_config", "exits", "assertions", "timeout_seconds", "stall_thresholds",
}
TYPE_KEYS = {
    "linear": {"soul_ref"},
    "gate": {"soul_ref", "eval_key", "extract_field", "pass", "fail"},
    "code": {"code", "timeout_seconds", "allowed_imports"},
    "synthesize": {"soul_ref", "input_block_ids"},
    "loop": {"inner_block_refs", "max_rounds", "break_condition", "carry_context", "break_on_exit", "retry_on_exit"},
}


def import_runsight(text: str, *, parameters: dict[str, Any] | None = None) -> ImportResult:
    raw = parse_yaml(text, "the Runsight workflow")
    return _Importer(raw).run()


@dataclass
class _Step:
    block_id: str
    step: dict[str, Any]
    loop_id: str | None = None  # the enclosing loop block, for inner steps


@dataclass
class _State:
    agents: dict[str, dict[str, Any]] = field(default_factory=dict)
    agent_users: dict[str, list[str]] = field(default_factory=dict)  # agent -> block ids
    soul_agent: dict[str, str] = field(default_factory=dict)
    steps: dict[str, _Step] = field(default_factory=dict)  # block id -> step


class _Importer:
    def __init__(self, raw: Any):
        if not isinstance(raw, dict):
            raise ImportFailed("a Runsight workflow must be a YAML mapping with 'blocks' and 'workflow'", path="/")
        self.raw = raw
        self.rep = Reporter()
        self.st = _State()
        self.agent_names = Names()
        self.step_names = Names()
        self.step_id: dict[str, str] = {}
        self.loop_of: dict[str, str] = {}  # inner block -> loop block that runs it
        self.inner: dict[str, list[str]] = {}  # loop block -> flattened inner refs
        self.schema_needs: dict[str, dict[str, str]] = {}  # block -> {dotted key: json type}
        self.souls: dict[str, Any] = {}
        self.judged: set[str] = set()  # gates that became untilAgent judges
        self.building = True

    # -- entry point ---------------------------------------------------------
    def run(self) -> ImportResult:
        raw = self.raw
        workflow = raw.get("workflow")
        if not isinstance(workflow, dict):
            raise ImportFailed("required key 'workflow' (with 'name' and 'entry') is missing", path="/workflow",
                               line=line_of(raw, "workflow"))
        blocks = raw.get("blocks")
        if not isinstance(blocks, dict) or not blocks:
            raise ImportFailed("required key 'blocks' is missing or empty", path="/blocks", line=line_of(raw, "blocks"))
        self.blocks: dict[str, Any] = {str(k): v for k, v in blocks.items()}
        entry = workflow.get("entry")
        if not isinstance(entry, str) or not entry:
            raise ImportFailed("required key 'entry' is missing", path="/workflow/entry", line=line_of(workflow, "entry"))
        if entry not in self.blocks:
            raise ImportFailed(f"entry block '{entry}' is not defined in blocks", path="/workflow/entry",
                               line=line_of(workflow, "entry"))

        self._check_blocks()
        self._read_souls()
        self._membership()
        for block_id in self.blocks:
            self.step_id[block_id] = self.step_names.claim(block_id, "step")
            if self.step_id[block_id] != block_id:
                self.rep.carried(f"/blocks/{pointer_token(block_id)}", f"@{self.step_id[block_id]}",
                                 f"block id '{block_id}' renamed to step id '{self.step_id[block_id]}'")

        self._top_fields(workflow)
        self._plan_judges()
        self.deferred: list = []
        for block_id, block in self.blocks.items():
            if block_id not in self.judged:
                self._build_block(block_id, block)
        for loop_id in self.inner:
            if loop_id not in self.loop_of:
                self._build_loop(loop_id, self.blocks[loop_id])
        self.building = False
        for request in self.deferred:
            self._add_dep(*request)
        self._dependencies(workflow)
        self._transitions(workflow)
        self._apply_schemas()

        order = {bid: i for i, bid in enumerate(self.blocks)}
        top = [s.step for bid, s in sorted(self.st.steps.items(), key=lambda kv: order[kv[0]]) if s.loop_id is None]
        if len(top) > 100:
            raise ImportFailed(f"{len(top)} top-level blocks; zenflow allows at most 100 top-level steps", path="/blocks")
        name = workflow.get("name")
        if not isinstance(name, str) or not name.strip():
            name = "imported-runsight-workflow"
            self.rep.approximated("/workflow/name", "/name", "no workflow name; a placeholder name was used")
        else:
            self.rep.carried("/workflow/name", "/name")
        document: dict[str, Any] = {
            "name": str(name).strip(),
            "version": 1,
            "description": clip(str(plain(raw.get("description")) or f"Imported from the Runsight workflow '{name}'."), 2000)[0],
        }
        if raw.get("description") is not None:
            self.rep.carried("/description", "/description")
        if self.st.agents:
            document["agents"] = self.st.agents
        document["steps"] = top
        self.rep.carried("/workflow/entry", f"@{self.step_id[entry]}",
                         f"entry block '{entry}' is a root step; steps run in dependency order")
        result = self.rep.finish("runsight", document)
        _check_cel(document)
        return result

    # -- validation of the source --------------------------------------------
    def _check_blocks(self) -> None:
        for block_id, block in self.blocks.items():
            path = f"/blocks/{pointer_token(block_id)}"
            if not isinstance(block, dict):
                raise ImportFailed("a block must be a mapping", path=path, line=line_of(self.raw["blocks"], block_id))
            btype = block.get("type")
            if btype not in BLOCK_TYPES:
                raise ImportFailed(
                    f"unknown block type {btype!r}; the importer understands {', '.join(BLOCK_TYPES)}",
                    path=f"{path}/type", line=line_of(block, "type") or line_of(self.raw["blocks"], block_id))
            if btype == "synthesize":
                ids = block.get("input_block_ids")
                if not isinstance(ids, list) or not ids:
                    raise ImportFailed("a synthesize block needs a non-empty 'input_block_ids' list",
                                       path=f"{path}/input_block_ids", line=line_of(self.raw["blocks"], block_id))
                for i, ref in enumerate(ids):
                    if ref not in self.blocks or ref == block_id:
                        raise ImportFailed(f"input block '{ref}' is not another block", path=f"{path}/input_block_ids/{i}",
                                           line=line_of(ids, i))
            if btype in ("linear", "gate", "synthesize") and not isinstance(block.get("soul_ref"), str):
                raise ImportFailed(f"a {btype} block needs 'soul_ref'", path=f"{path}/soul_ref", line=line_of(self.raw["blocks"], block_id))
            if btype == "gate":
                ek = block.get("eval_key")
                if not isinstance(ek, str):
                    raise ImportFailed("a gate block needs 'eval_key'", path=f"{path}/eval_key", line=line_of(self.raw["blocks"], block_id))
                if ek.split(".")[0] not in self.blocks:
                    raise ImportFailed(f"eval_key '{ek}' names no block", path=f"{path}/eval_key", line=line_of(block, "eval_key"))
            if btype == "code" and not isinstance(block.get("code"), str):
                raise ImportFailed("a code block needs 'code'", path=f"{path}/code", line=line_of(self.raw["blocks"], block_id))
            if btype == "loop":
                refs = block.get("inner_block_refs")
                if not isinstance(refs, list) or not refs:
                    raise ImportFailed("a loop block needs a non-empty 'inner_block_refs' list",
                                       path=f"{path}/inner_block_refs", line=line_of(self.raw["blocks"], block_id))
                for i, ref in enumerate(refs):
                    if not isinstance(ref, str) or ref not in self.blocks:
                        raise ImportFailed(f"inner block '{ref}' is not defined in blocks",
                                           path=f"{path}/inner_block_refs/{i}", line=line_of(refs, i))
                    if ref == block_id:
                        raise ImportFailed("a loop cannot list itself as an inner block",
                                           path=f"{path}/inner_block_refs/{i}", line=line_of(refs, i))
                rounds = block.get("max_rounds", DEFAULT_MAX_ROUNDS)
                if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 1:
                    raise ImportFailed(f"max_rounds must be a positive integer, not {rounds!r}",
                                       path=f"{path}/max_rounds", line=line_of(block, "max_rounds"))
            for dep in _as_list(block.get("depends")):
                if dep not in self.blocks:
                    raise ImportFailed(f"depends names '{dep}', which is not a block", path=f"{path}/depends",
                                       line=line_of(block, "depends"))
            ts = block.get("timeout_seconds")
            if ts is not None and (not isinstance(ts, (int, float)) or isinstance(ts, bool) or ts <= 0):
                raise ImportFailed(f"timeout_seconds must be a positive number, not {ts!r}",
                                   path=f"{path}/timeout_seconds", line=line_of(block, "timeout_seconds"))

    def _read_souls(self) -> None:
        souls = self.raw.get("souls")
        if isinstance(souls, dict):
            self.souls = {str(k): v for k, v in souls.items() if isinstance(v, dict)}

    def _membership(self) -> None:
        direct: dict[str, str] = {}
        for block_id, block in self.blocks.items():
            if block.get("type") != "loop":
                continue
            for ref in block["inner_block_refs"]:
                if ref in direct and direct[ref] != block_id:
                    raise ImportFailed(
                        f"block '{ref}' is an inner block of two loops ('{direct[ref]}' and '{block_id}'); "
                        "a zenflow step lives in one scope",
                        path=f"/blocks/{pointer_token(block_id)}/inner_block_refs")
                direct[ref] = block_id
        # outermost loop for each block (nested loops are flattened into it)
        for block_id, block in self.blocks.items():
            if block.get("type") != "loop" or block_id in direct:
                continue
            flat: list[str] = []
            self._flatten(block_id, flat, [block_id])
            self.inner[block_id] = flat
            for ref in flat:
                self.loop_of[ref] = block_id
        cyclic = [b for b in direct if b not in self.loop_of and self.blocks[b].get("type") == "loop"]
        if cyclic:
            raise ImportFailed(f"loops {', '.join(sorted(cyclic))} contain each other", path="/blocks")
        for ref in direct:
            if ref not in self.loop_of:
                raise ImportFailed(f"block '{ref}' belongs to a cycle of loops", path=f"/blocks/{pointer_token(ref)}")

    def _plan_judges(self) -> None:
        for loop_id, refs in self.inner.items():
            block = self.blocks[loop_id]
            last = refs[-1]
            if (block.get("break_on_exit") == "pass" and block.get("retry_on_exit") is None
                    and block.get("break_condition") is None and len(refs) >= 2
                    and self.blocks[last].get("type") == "gate"):
                self.judged.add(last)

    def _flatten(self, loop_id: str, out: list[str], stack: list[str]) -> None:
        for ref in self.blocks[loop_id]["inner_block_refs"]:
            if self.blocks[ref].get("type") == "loop":
                if ref in stack:
                    raise ImportFailed(f"loops {' -> '.join(stack + [ref])} contain each other",
                                       path=f"/blocks/{pointer_token(loop_id)}/inner_block_refs")
                self._flatten(ref, out, stack + [ref])
                self.loop_of[ref] = stack[0]
            else:
                out.append(ref)

    # -- top level -----------------------------------------------------------
    def _top_fields(self, workflow: dict) -> None:
        raw = self.raw
        if "version" in raw:
            self.rep.dropped("/version", "Runsight file version; the zenflow document is version 1")
        if "enabled" in raw:
            self.rep.dropped("/enabled", "scheduling switch of the Runsight server; not part of a zenflow document")
        if "config" in raw:
            self.rep.dropped("/config", "Runsight run configuration; set budgets and provider when starting a run")
        if "tools" in raw:
            self.rep.dropped("/tools", "workflow-level tool registrations; zenflow agents without 'tools' may use every registered tool")
        for key in raw:
            if key not in TOP_LEVEL_KEYS:
                self.rep.dropped(f"/{pointer_token(key)}", "unknown top-level field")
        for key in workflow:
            if key not in ("name", "entry", "transitions", "conditional_transitions"):
                self.rep.dropped(f"/workflow/{pointer_token(key)}", "unknown workflow field")

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
                if src_block not in self.blocks:
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

    # -- exit handles and conditions ----------------------------------------
    def _exit_expr(self, refs: list[str], handle: str, field_path: str) -> str | None:
        exprs = []
        for ref in refs:
            expr = self._handle_expr(ref, handle)
            if expr:
                exprs.append(expr)
        if not exprs:
            self.rep.dropped(field_path, f"no inner block can exit with '{handle}'")
            return None
        return " || ".join(f"({e})" for e in exprs) if len(exprs) > 1 else exprs[0]

    def _handle_expr(self, block_id: str, handle: str) -> str | None:
        block = self.blocks[block_id]
        ref = cel_step(self.step_id[block_id])
        if block.get("type") == "gate" and handle in ("pass", "fail"):
            passed = f'{ref}.content.matches("(?i)^[^a-z]*pass")'
            return passed if handle == "pass" else f"!{passed}"
        cases = block.get("output_conditions")
        if isinstance(cases, list) and cases:
            earlier: list[str] = []
            for i, case in enumerate(cases):
                if not isinstance(case, dict):
                    continue
                cpath = f"/blocks/{pointer_token(block_id)}/output_conditions/{i}"
                cid = case.get("case_id")
                if case.get("default"):
                    expr = " && ".join(f"!({e})" for e in earlier) or "true"
                else:
                    group = case.get("condition_group")
                    expr = self._condition_expr(block_id, group, f"{cpath}/condition_group") if group else "false"
                    if cid != handle:
                        earlier.append(expr)
                        continue
                    expr = " && ".join([f"!({e})" for e in earlier] + [f"({expr})"])
                if cid == handle:
                    return expr
        exits = block.get("exits")
        if isinstance(exits, list) and any(isinstance(e, dict) and e.get("id") == handle for e in exits):
            return f"{ref}.content.contains({cel_string(handle)})"
        return None

    def _condition_expr(self, block_id: str, cond: Any, field_path: str) -> str:
        if not isinstance(cond, dict):
            raise ImportFailed("a condition must be a mapping", path=field_path)
        if "conditions" in cond:
            comb = cond.get("combinator", "and")
            if comb not in ("and", "or"):
                raise ImportFailed(f"unknown combinator {comb!r}; use 'and' or 'or'", path=f"{field_path}/combinator",
                                   line=line_of(cond, "combinator"))
            items = cond.get("conditions")
            if not isinstance(items, list):
                raise ImportFailed("'conditions' must be a list", path=f"{field_path}/conditions")
            exprs = [self._condition_expr(block_id, c, f"{field_path}/conditions/{i}") for i, c in enumerate(items)]
            if not exprs:
                return "true" if comb == "and" else "false"
            joiner = " && " if comb == "and" else " || "
            return joiner.join(f"({e})" for e in exprs) if len(exprs) > 1 else exprs[0]
        for key in ("eval_key", "operator"):
            if key not in cond:
                raise ImportFailed(f"a condition needs '{key}'", path=field_path, line=line_of(cond, "operator"))
        op = cond["operator"]
        if op not in ALL_OPS:
            raise ImportFailed(f"unknown operator {op!r}; Runsight operators are {', '.join(sorted(ALL_OPS))}",
                               path=f"{field_path}/operator", line=line_of(cond, "operator"))
        key = str(cond["eval_key"])
        value = plain(cond.get("value"))
        if self.blocks[block_id].get("type") == "gate":
            return _text_condition(f"{cel_step(self.step_id[block_id])}.content", op, value)
        self._need_schema(block_id, key, op)
        base = f"{cel_step(self.step_id[block_id])}.result"
        parts = key.split(".")
        guards, cur = [], base
        for part in parts:
            guards.append(f"{cel_string(part)} in {cur}")
            cur = cel_member(cur, part)
        present = " && ".join(guards)
        return _value_condition(cur, present, op, value)

    def _need_schema(self, block_id: str, key: str, op: str) -> None:
        kind = "number" if op in NUMERIC_OPS else ("any" if op in UNIVERSAL_OPS else "string")
        needs = self.schema_needs.setdefault(block_id, {})
        if needs.get(key) in (None, "any"):
            needs[key] = kind

    def _apply_schemas(self) -> None:
        """Give the steps whose structured output is tested a resultSchema."""
        for block_id, needs in self.schema_needs.items():
            step = self.st.steps[block_id].step
            agent: str = step["agent"]  # every block but a loop became an agent step, and loops have no output conditions
            schema: dict[str, Any] = {"type": "object", "properties": {}}
            for key, kind in needs.items():
                node = schema
                parts = key.split(".")
                for part in parts[:-1]:
                    node = node["properties"].setdefault(part, {"type": "object", "properties": {}})
                node["properties"][parts[-1]] = {"type": kind} if kind != "any" else {}
            if self.st.agent_users.get(agent) == [block_id]:
                name = agent
                self.st.agents[name]["resultSchema"] = schema
            else:
                name = self.agent_names.claim(f"{agent}-{self.step_id[block_id]}", "agent")
                base = dict(self.st.agents[agent])
                base["description"] = base["description"] + f" (structured output for step '{self.step_id[block_id]}')"
                base["resultSchema"] = schema
                self.st.agents[name] = base
                self.st.agent_users[name] = [block_id]
                step["agent"] = name
            self.rep.warn(
                f"step '{self.step_id[block_id]}' now returns a structured result ({', '.join(sorted(needs))}) through agent '{name}', "
                "because a Runsight condition reads those keys from its output")

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

    # -- dependencies ----------------------------------------------------------
    def _scope_target(self, block_id: str) -> str:
        """The block whose step stands for ``block_id`` at top level."""
        return self.loop_of.get(block_id, block_id)

    def _add_dep(self, block_id: str, dep_block: str, field_path: str, note: str | None, condition: str | None = None) -> bool:
        if self.building:
            self.deferred.append((block_id, dep_block, field_path, note, condition))
            return True
        here = self.loop_of.get(block_id)
        if block_id in self.judged:
            return False
        if here is not None and self.loop_of.get(dep_block) == here:
            self.rep.approximated(field_path, f"@{self.step_id[here]}/loop/steps",
                                  "inside a loop the inner steps run in inner_block_refs order")
            return False
        if here is not None:
            self.rep.approximated(field_path, f"@{self.step_id[here]}/dependsOn",
                                  "an inner step cannot depend on a step outside its loop: the loop step depends on it instead")
            block_id = here
        dep = self._scope_target(dep_block)
        if dep == block_id:
            self.rep.dropped(field_path, "the block would depend on its own loop")
            return False
        if self._reaches(dep, block_id):
            self.rep.dropped(field_path, f"'{block_id}' -> '{dep}' would close a cycle; zenflow dependencies are acyclic "
                                         "(use a loop block to repeat)")
            return False
        step = self.st.steps[block_id].step
        deps = step.setdefault("dependsOn", [])
        dep_id = self.step_id[dep]
        if dep_id not in deps:
            deps.append(dep_id)
        if condition:
            old = step.get("condition")
            step["condition"] = condition if not old else f"({old}) || ({condition})"
        target = f"@{self.step_id[block_id]}/" + ("condition" if condition else "dependsOn")
        if note:
            self.rep.approximated(field_path, target, note)
        else:
            self.rep.carried(field_path, target)
        return True

    def _reaches(self, start: str, goal: str) -> bool:
        """Does ``start`` (transitively) depend on ``goal``?"""
        seen, todo = set(), [start]
        rev = {bid: s for bid, s in self.st.steps.items()}
        by_step = {self.step_id[b]: b for b in rev}
        while todo:
            cur = todo.pop()
            if cur == goal:
                return True
            if cur in seen or cur not in rev:
                continue
            seen.add(cur)
            todo.extend(by_step[d] for d in rev[cur].step.get("dependsOn", []) if d in by_step)
        return False

    def _dependencies(self, workflow: dict) -> None:
        for block_id, block in self.blocks.items():
            deps = _as_list(block.get("depends"))
            path = f"/blocks/{pointer_token(block_id)}/depends"
            if not deps:
                continue
            if block_id in self.judged:
                continue
            for dep in deps:
                self._add_dep(block_id, dep, path, None)

    def _transitions(self, workflow: dict) -> None:
        plain_tr = workflow.get("transitions") or []
        if not isinstance(plain_tr, list):
            raise ImportFailed("transitions must be a list", path="/workflow/transitions", line=line_of(workflow, "transitions"))
        for i, tr in enumerate(plain_tr):
            tpath = f"/workflow/transitions/{i}"
            if not isinstance(tr, dict) or "from" not in tr:
                raise ImportFailed("a transition needs 'from'", path=tpath, line=line_of(plain_tr, i))
            src, dst = tr.get("from"), tr.get("to")
            if not isinstance(src, str) or src not in self.blocks:
                raise ImportFailed(f"transition from '{src}' is not a block", path=f"{tpath}/from", line=line_of(tr, "from"))
            if dst is not None and (not isinstance(dst, str) or dst not in self.blocks):
                raise ImportFailed(f"transition to '{dst}' is not a block", path=f"{tpath}/to", line=line_of(tr, "to"))
            if dst is None:
                self.rep.carried(tpath, f"@{self.step_id[src]}", f"'{src}' is terminal")
                continue
            self._add_dep(dst, src, tpath, None)
        routes: list[tuple[str, dict[str, str], str | None, str]] = []
        cond_tr = workflow.get("conditional_transitions") or []
        if not isinstance(cond_tr, list):
            raise ImportFailed("conditional_transitions must be a list", path="/workflow/conditional_transitions")
        for i, tr in enumerate(cond_tr):
            tpath = f"/workflow/conditional_transitions/{i}"
            if not isinstance(tr, dict) or not isinstance(tr.get("from"), str) or tr["from"] not in self.blocks:
                raise ImportFailed("a conditional transition needs 'from' naming a block", path=tpath, line=line_of(cond_tr, i))
            decisions = {str(k): v for k, v in tr.items() if k not in ("from", "default")}
            self.rep.carried(f"{tpath}/from", f"@{self.step_id[tr['from']]}", "the routes below depend on this step")
            routes.append((tr["from"], decisions, tr.get("default"), tpath))
        for block_id, block in self.blocks.items():
            if block.get("type") == "gate" and ("pass" in block or "fail" in block) and block_id not in self.loop_of:
                decisions = {k: block[k] for k in ("pass", "fail") if block.get(k)}
                routes.append((block_id, decisions, None, f"/blocks/{pointer_token(block_id)}"))
            elif block.get("type") == "gate" and block_id in self.loop_of and block_id not in self.judged:
                for key in ("pass", "fail"):
                    if key in block:
                        self.rep.approximated(f"/blocks/{pointer_token(block_id)}/{key}", f"@{self.step_id[self.loop_of[block_id]]}",
                                              "inside a loop, routing is the loop's: rounds repeat until the break rule fires, "
                                              "then the steps after the loop run")
        for src, decisions, default, tpath in routes:
            exprs: dict[str, str | None] = {}
            for decision, dst in decisions.items():
                dpath = f"{tpath}/{pointer_token(decision)}"
                if not isinstance(dst, str) or dst not in self.blocks:
                    raise ImportFailed(f"route '{decision}' goes to '{dst}', which is not a block", path=dpath)
                expr = self._handle_expr(src, decision)
                exprs[decision] = expr
                if expr is None:
                    self.rep.approximated(dpath, None, f"'{src}' has no exit '{decision}' the importer can test; route kept unconditional")
                    self._add_dep(dst, src, dpath, f"route '{decision}' kept without a condition")
                else:
                    self._route(dst, src, expr, dpath, decision)
            if default is not None:
                dpath = f"{tpath}/default"
                if default not in self.blocks:
                    raise ImportFailed(f"default route goes to '{default}', which is not a block", path=dpath)
                known = [e for e in exprs.values() if e]
                expr = " && ".join(f"!({e})" for e in known) if known else None
                if expr:
                    self._route(default, src, expr, dpath, "default")
                else:
                    self._add_dep(default, src, dpath, None)

    def _route(self, dst: str, src: str, expr: str, field_path: str, decision: str) -> None:
        if self.loop_of.get(dst) is not None and self.loop_of.get(dst) == self.loop_of.get(src):
            self.rep.approximated(field_path, f"@{self.step_id[self.loop_of[dst]]}",
                                  "a route inside a loop is the loop's round order")
            return
        if self.loop_of.get(src) is not None:
            # the source's output is not visible outside its loop: keep the order, drop the test
            self._add_dep(dst, src, field_path,
                          f"'{src}' is inside a loop, so its exit cannot be tested outside it: the route became a plain dependency")
            return
        self._add_dep(dst, src, field_path,
                      f"route '{decision}' -> condition in CEL over '{self.step_id[src]}' (skipped when the route is not taken)",
                      condition=expr)


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [str(v) for v in value]
    raise ImportFailed(f"depends must be a block id or a list of them, not {value!r}")


def _text_condition(ref: str, op: str, value: Any) -> str:
    """A Runsight condition over text output (the whole output is the value)."""
    v = cel_string("" if value is None else value)
    return {
        "equals": f"{ref} == {v}",
        "not_equals": f"{ref} != {v}",
        "contains": f"{ref}.contains({v})",
        "not_contains": f"!{ref}.contains({v})",
        "starts_with": f"{ref}.startsWith({v})",
        "ends_with": f"{ref}.endsWith({v})",
        "is_empty": f"size({ref}) == 0",
        "not_empty": f"size({ref}) > 0",
        "regex": f"{ref}.matches({v})",
        "exists": "false",
        "not_exists": "true",
    }.get(op) or _numeric(ref, op, value) or "false"


def _numeric(ref: str, op: str, value: Any) -> str | None:
    if op not in NUMERIC_OPS:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return "false"  # Runsight: a value that is not a number never matches
    if number != number or number in (float("inf"), float("-inf")):
        return "false"
    return f"double({ref}) {NUMERIC_OPS[op]} {number!r}"


def _value_condition(ref: str, present: str, op: str, value: Any) -> str:
    if op == "exists":
        return present
    if op == "not_exists":
        return f"!({present})"
    if op in NUMERIC_OPS:
        return f"{present} && {_numeric(ref, op, value)}"
    if isinstance(value, bool) and op in ("equals", "not_equals"):
        test = f"{ref} == {'true' if value else 'false'}"
        return f"{present} && {test}" if op == "equals" else f"!({present}) || !({test})"
    s = f"string({ref})"
    v = cel_string("" if value is None else value)
    return {
        "equals": f"{present} && {s} == {v}",
        "not_equals": f"!({present}) || {s} != {v}",
        "contains": f"{present} && {s}.contains({v})",
        "not_contains": f"!({present}) || !{s}.contains({v})",
        "starts_with": f"{present} && {s}.startsWith({v})",
        "ends_with": f"{present} && {s}.endsWith({v})",
        "is_empty": f"!({present}) || {s} == \"\"",
        "not_empty": f"{present} && {s} != \"\"",
        "regex": f"{present} && {s}.matches({v})",
    }[op]


def _check_cel(document: dict[str, Any]) -> None:
    """Every expression the importer wrote must compile."""
    for step in document.get("steps", []):
        for s in [step] + list((step.get("loop") or {}).get("steps") or []):
            for where, expr in (("condition", s.get("condition")), ("until", (s.get("loop") or {}).get("until"))):
                if expr is None:
                    continue
                try:
                    compile_expression(expr)
                except CelError as exc:  # a bug in the importer, not in the input
                    raise ImportFailed(f"generated {where} for step '{s['id']}' does not compile: {exc}") from None
