"""Runsight's `depends`, `inputs`, `transitions` and `conditional_transitions` as `dependsOn` (a conditional route
adds a CEL `condition`), scoped to the loop that runs the block."""
from __future__ import annotations

from designer.importers.common import (
    ImportFailed,
    line_of,
    pointer_token,
)
from designer.importers.runsight.conditions import _Conditions
from designer.importers.runsight.state import _as_list


class _Transitions(_Conditions):

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
