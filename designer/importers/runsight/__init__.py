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

from typing import Any

from designer.cel import CelError, compile_expression
from designer.importers.common import (
    ImportFailed,
    clip,
    line_of,
    parse_yaml,
    plain,
    pointer_token,
)
from designer.importers.report import ImportResult
from designer.importers.runsight.blocks import _Blocks
from designer.importers.runsight.state import BLOCK_TYPES, DEFAULT_MAX_ROUNDS, TOP_LEVEL_KEYS, _as_list


def import_runsight(text: str, *, parameters: dict[str, Any] | None = None) -> ImportResult:
    raw = parse_yaml(text, "the Runsight workflow")
    return _Importer(raw).run()


class _Importer(_Blocks):
    """The translation in order: check the blocks, plan loops and judges, build each block, then wire them."""

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
        self.blocks = {str(k): v for k, v in blocks.items()}
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
        self.deferred = []
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
                    raise ImportFailed(f"loops {' -> '.join([*stack, ref])} contain each other",
                                       path=f"/blocks/{pointer_token(loop_id)}/inner_block_refs")
                self._flatten(ref, out, [*stack, ref])
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


def _check_cel(document: dict[str, Any]) -> None:
    """Every expression the importer wrote must compile."""
    for step in document.get("steps", []):
        for s in [step, *list((step.get("loop") or {}).get("steps") or [])]:
            for where, expr in (("condition", s.get("condition")), ("until", (s.get("loop") or {}).get("until"))):
                if expr is None:
                    continue
                try:
                    compile_expression(expr)
                except CelError as exc:  # a bug in the importer, not in the input
                    raise ImportFailed(f"generated {where} for step '{s['id']}' does not compile: {exc}") from None
