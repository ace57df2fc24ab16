"""Runsight's exits and conditions as CEL: a gate's pass handle, `output_conditions` cases and `break_condition`
over a block's structured result, and the `resultSchema` its agent then needs."""
from __future__ import annotations

from typing import Any

from designer.importers.common import (
    ImportFailed,
    cel_member,
    cel_step,
    cel_string,
    line_of,
    plain,
    pointer_token,
)
from designer.importers.runsight.state import ALL_OPS, NUMERIC_OPS, UNIVERSAL_OPS, _Base


class _Conditions(_Base):

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
