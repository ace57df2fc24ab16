"""Coqui loop definitions (JSON) -> zenflow v1.

A definition's roles, sorted by ``order``, become the inner steps of one
repeat-until loop step, each depending on the one before, so a stage sees the
earlier stages of its iteration (and, as in every zenflow repeat-until, the
previous iteration). ``{{parameters}}`` are filled in at import.

Termination:

* ``evaluation_bound`` -> ``until`` over the last stage's content: an approval
  word and no rejection word (Coqui's keyword detection with its cross-check);
  ``max_review_rounds`` -> ``maxIterations``; the criteria are appended to the
  last stage's instructions.
* ``goal_bound`` -> an ``untilAgent`` judge whose prompt is the goal prompt.
* ``iteration_bound`` -> ``maxIterations`` alone.
* ``time_bound`` -> the loop step's ``timeout`` (plus an iteration ceiling,
  which zenflow requires).
* ``manual`` -> an iteration ceiling; stopping is the run's Stop control.
"""
from __future__ import annotations

import re
from typing import Any

from designer.cel import CelError, compile_expression
from designer.importers.common import (
    JUDGE_SCHEMA,
    MAX_DESCRIPTION,
    MAX_INSTRUCTIONS,
    ImportFailed,
    Names,
    cel_regex_words,
    cel_step,
    cel_string,
    clip,
    duration,
    parse_json,
)
from designer.importers.report import ImportResult, Reporter

APPROVAL_WORDS = ("approved", "lgtm", "looks good", "accepted", "passes all criteria")
REJECTION_WORDS = (
    "not approved", "unapproved", "disapproved", "not accepted", "rejected", "needs changes",
    "needs work", "changes requested", "request changes", "does not pass", "doesn't pass",
    "not yet", "not lgtm",
)
TERMINATION_TYPES = ("evaluation_bound", "iteration_bound", "time_bound", "manual", "goal_bound")
DEFAULT_ROUNDS = {"evaluation_bound": 5, "iteration_bound": 5, "goal_bound": 10, "time_bound": 50, "manual": 20}
ROLE_DESCRIPTIONS = {
    "plan": "Planner: analyses the goal and writes or updates the implementation plan (Coqui access: read-only files).",
    "coder": "Coder: implements the plan and reworks it from review feedback (Coqui access: full).",
    "reviewer": "Reviewer: checks the work against the goal and acceptance criteria; approves or gives actionable feedback (Coqui access: read-only files).",
    "explorer": "Explorer: investigates the codebase and documentation and reports findings (Coqui access: read-only shell).",
}
PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}")
ROLE_KEYS = {"name", "role", "prompt", "order", "requires_artifact_from"}
TOP_KEYS = {"name", "description", "roles", "termination_condition", "parameters", "max_iterations"}


def import_coqui(text: str, *, parameters: dict[str, Any] | None = None) -> ImportResult:
    raw = parse_json(text, "the Coqui loop definition")
    if not isinstance(raw, dict):
        raise ImportFailed("a Coqui loop definition must be a JSON object", path="/")
    return _Importer(raw, dict(parameters or {})).run()


class _Importer:
    def __init__(self, raw: dict[str, Any], given: dict[str, Any]) -> None:
        self.raw = raw
        self.given = given
        self.rep = Reporter()
        self.values: dict[str, str] = {}
        self.unknown: set[str] = set()

    def run(self) -> ImportResult:
        raw = self.raw
        name = raw.get("name")
        if not isinstance(name, str) or not name.strip():
            raise ImportFailed("required key 'name' is missing or empty", path="/name")
        roles = raw.get("roles")
        if not isinstance(roles, list) or not roles:
            raise ImportFailed("required key 'roles' must be a non-empty list", path="/roles")
        self._parameters()

        document: dict[str, Any] = {"name": name.strip(), "version": 1}
        self.rep.carried("/name", "/name")
        if isinstance(raw.get("description"), str):
            text, cut = clip(self.fill(raw["description"], "/description"), MAX_DESCRIPTION)
            document["description"] = text
            if cut:
                self.rep.approximated("/description", "/description", "truncated to 2000 characters")
            else:
                self.rep.carried("/description", "/description")
        else:
            document["description"] = f"Imported from the Coqui loop definition '{name}'."

        agents: dict[str, dict[str, Any]] = {}
        agent_names = Names()
        step_names = Names()
        loop_id = step_names.claim(name, "loop")
        ordered = self._ordered_roles(roles)
        steps: list[dict[str, Any]] = []
        role_agent: dict[str, str] = {}
        stage_ids: list[str] = []
        for pos, (index, role) in enumerate(ordered):
            rpath = f"/roles/{index}"
            role_name = role.get("role")
            if not isinstance(role_name, str) or not role_name.strip():
                raise ImportFailed("a role needs 'role' (plan, coder, reviewer, explorer ...)", path=f"{rpath}/role")
            if not isinstance(role.get("prompt"), str) or not role["prompt"].strip():
                raise ImportFailed("a role needs a non-empty 'prompt'", path=f"{rpath}/prompt")
            if role_name not in role_agent:
                agent = agent_names.claim(role_name, "agent")
                role_agent[role_name] = agent
                agents[agent] = {"description": ROLE_DESCRIPTIONS.get(role_name, f"Coqui role '{role_name}'.")}
                self.rep.carried(f"{rpath}/role", f"/agents/{agent}",
                                 f"role '{role_name}' -> agent '{agent}'; Coqui's access level is the runner's tool set")
            else:
                self.rep.carried(f"{rpath}/role", f"/agents/{role_agent[role_name]}", "shares the agent of an earlier stage")
            sid = step_names.claim(role.get("name") or role_name, "stage")
            stage_ids.append(sid)
            step: dict[str, Any] = {"id": sid, "agent": role_agent[role_name]}
            if "name" in role:
                self.rep.carried(f"{rpath}/name", f"/steps/0/loop/steps/{pos}/id",
                                 "" if sid == role.get("name") else f"renamed to '{sid}'")
            step["instructions"] = self.fill(str(role["prompt"]).strip(), f"{rpath}/prompt")
            self.rep.carried(f"{rpath}/prompt", f"/steps/0/loop/steps/{pos}/instructions",
                             "parameters filled in" if PLACEHOLDER.search(role["prompt"]) else "")
            if "order" in role:
                self.rep.carried(f"{rpath}/order", f"/steps/0/loop/steps/{pos}" + ("/dependsOn" if pos else ""),
                                 "stage order -> each stage depends on the one before" if pos else "the first stage")
            if pos > 0:
                step["dependsOn"] = [stage_ids[pos - 1]]
            art = role.get("requires_artifact_from")
            if art is not None:
                if not isinstance(art, int) or not 0 <= art < pos:
                    raise ImportFailed(f"requires_artifact_from {art!r} must be the position of an earlier stage",
                                       path=f"{rpath}/requires_artifact_from")
                if stage_ids[art] not in step["dependsOn"]:
                    step["dependsOn"].append(stage_ids[art])
                self.rep.approximated(f"{rpath}/requires_artifact_from", f"/steps/0/loop/steps/{pos}/dependsOn",
                                      "the stage depends on the earlier stage, whose output it receives; Coqui's artifact "
                                      "requirement is not enforced")
            for key in role:
                if key not in ROLE_KEYS:
                    self.rep.dropped(f"{rpath}/{key}", "unknown role field")
            steps.append(step)

        loop: dict[str, Any] = {}
        loop_step: dict[str, Any] = {"id": loop_id, "loop": loop}
        self._termination(loop, loop_step, steps, agents, agent_names)
        if "max_iterations" in self.given and "max_iterations" not in self.values:
            loop["maxIterations"] = self._int(self.given["max_iterations"], "max_iterations (given)")
            self.rep.warn(f"max_iterations given at import: maxIterations is {loop['maxIterations']}")
        loop["steps"] = steps
        self._prompt_composition(steps)
        document["agents"] = agents
        document["steps"] = [loop_step]

        for key in raw:
            if key not in TOP_KEYS:
                self.rep.dropped(f"/{key}", "unknown field of a loop definition")
        for placeholder in sorted(self.unknown):
            self.rep.warn(f"'{{{{{placeholder}}}}}' is not a declared parameter and no value was given; it was left as written")
        for key in sorted(set(self.given) - set(self.values) - {"goal", "max_iterations"}):
            self.rep.warn(f"parameter '{key}' was given but the definition does not declare it; it was still filled in where it appears")
        result = self.rep.finish("coqui", document)
        until = loop.get("until")
        if until:
            try:
                compile_expression(until)
            except CelError as exc:  # an importer bug
                raise ImportFailed(f"generated until does not compile: {exc}") from None
        return result

    # -- parameters ------------------------------------------------------------
    def _parameters(self) -> None:
        params = self.raw.get("parameters")
        if params is None:
            return
        if not isinstance(params, list):
            raise ImportFailed("'parameters' must be a list of {name, description, required, default}", path="/parameters")
        for i, p in enumerate(params):
            ppath = f"/parameters/{i}"
            if not isinstance(p, dict) or not isinstance(p.get("name"), str):
                raise ImportFailed("a parameter needs a 'name'", path=ppath)
            pname = p["name"]
            if pname in self.given:
                self.values[pname] = str(self.given[pname])
                self.rep.carried(ppath, None, f"'{pname}' filled in at import with the given value")
            elif "default" in p and p["default"] is not None:
                self.values[pname] = str(p["default"])
                self.rep.carried(ppath, None, f"'{pname}' filled in at import with its default")
            elif p.get("required"):
                raise ImportFailed(f"parameter '{pname}' is required: give it a value (--param {pname}=...)",
                                   path=f"{ppath}/name")
            else:
                self.values[pname] = ""
                self.rep.approximated(ppath, None, f"optional '{pname}' has no default and no value: filled in as empty text")

    def fill(self, text: str, field_path: str) -> str:
        def sub(m: re.Match) -> str:
            key = m.group(1)
            if key in self.values:
                return self.values[key]
            if key in self.given:
                return str(self.given[key])
            self.unknown.add(key)
            return m.group(0)

        return PLACEHOLDER.sub(sub, text)

    def _fill_value(self, value: Any, field_path: str) -> Any:
        return self.fill(value, field_path) if isinstance(value, str) else value

    # -- roles -----------------------------------------------------------------
    def _ordered_roles(self, roles: list) -> list[tuple[int, dict]]:
        out = []
        for i, role in enumerate(roles):
            if not isinstance(role, dict):
                raise ImportFailed("a role must be an object", path=f"/roles/{i}")
            order = role.get("order", i)
            if not isinstance(order, (int, float)) or isinstance(order, bool):
                raise ImportFailed(f"order must be a number, not {order!r}", path=f"/roles/{i}/order")
            out.append((order, i, role))
        out.sort(key=lambda t: (t[0], t[1]))
        return [(i, role) for _, i, role in out]

    def _prompt_composition(self, steps: list[dict[str, Any]]) -> None:
        self.rep.approximated(
            "/roles", "/steps/0/loop/steps",
            "Coqui composes each stage's prompt from the goal, 'Iteration N/M', earlier stages, earlier outcomes, "
            "acceptance criteria and parameters; here earlier stages arrive as dependencies, the previous iteration "
            "through the loop, and parameters, criteria and the goal (--param goal=...) are written into instructions")
        goal = self.given.get("goal")
        if goal:
            for step in steps:
                text = f"Goal: {goal}\n\n{step['instructions']}"
                if len(text) <= MAX_INSTRUCTIONS:
                    step["instructions"] = text
            self.rep.warn("the goal was written into every stage's instructions")
        for step in steps:
            text, cut = clip(step["instructions"], MAX_INSTRUCTIONS)
            if cut:
                step["instructions"] = text
                self.rep.warn(f"instructions of stage '{step['id']}' were cut to 2000 characters")

    # -- termination -------------------------------------------------------------
    def _termination(self, loop: dict, loop_step: dict, steps: list, agents: dict, agent_names: Names) -> None:
        tc = self.raw.get("termination_condition")
        top_max = self.raw.get("max_iterations")
        if top_max is not None:
            top_max = self._int(top_max, "/max_iterations")
        if tc is None:
            loop["maxIterations"] = top_max or DEFAULT_ROUNDS["iteration_bound"]
            self.rep.warn("no termination_condition: the loop runs maxIterations times "
                          f"({loop['maxIterations']}); zenflow needs a bound")
            if top_max:
                self.rep.carried("/max_iterations", "/steps/0/loop/maxIterations")
            return
        if not isinstance(tc, dict):
            raise ImportFailed("termination_condition must be an object with 'type' and 'value'", path="/termination_condition")
        kind = tc.get("type")
        if kind not in TERMINATION_TYPES:
            raise ImportFailed(f"unknown termination type {kind!r}; Coqui's are {', '.join(TERMINATION_TYPES)}",
                               path="/termination_condition/type")
        self.rep.carried("/termination_condition/type", "/steps/0/loop", f"{kind} -> " + {
            "evaluation_bound": "repeat-until with a CEL until over the last stage",
            "iteration_bound": "repeat-until bounded by maxIterations",
            "time_bound": "repeat-until bounded by the loop step's timeout",
            "manual": "repeat-until bounded by maxIterations; stop it from the run",
            "goal_bound": "repeat-until with an untilAgent judge",
        }[kind])
        value = tc.get("value")
        vpath = "/termination_condition/value"
        for key in tc:
            if key not in ("type", "value"):
                self.rep.dropped(f"/termination_condition/{key}", "unknown termination field")
        value = {k: self._fill_value(v, f"{vpath}/{k}") for k, v in value.items()} if isinstance(value, dict) else self._fill_value(value, vpath)

        def rounds(key: str | None) -> None:
            given = value.get(key) if (key and isinstance(value, dict)) else None
            if given is not None:
                loop["maxIterations"] = self._int(given, f"{vpath}/{key}")
                self.rep.carried(f"{vpath}/{key}", "/steps/0/loop/maxIterations")
                if top_max:
                    self.rep.dropped("/max_iterations", f"{vpath}/{key} sets the bound")
            elif top_max:
                loop["maxIterations"] = top_max
                self.rep.carried("/max_iterations", "/steps/0/loop/maxIterations")
            else:
                loop["maxIterations"] = DEFAULT_ROUNDS[kind]
                self.rep.warn(f"no iteration limit in the definition: maxIterations set to {loop['maxIterations']}")

        if kind == "evaluation_bound":
            rounds("max_review_rounds")
            last = steps[-1]
            ref = f"{cel_step(last['id'])}.content"
            loop["until"] = (f"{ref}.matches({cel_string(cel_regex_words(APPROVAL_WORDS))}) && "
                             f"!{ref}.matches({cel_string(cel_regex_words(REJECTION_WORDS))})")
            criteria = value.get("criteria") if isinstance(value, dict) else None
            ask = "Reply APPROVED when the work meets the acceptance criteria; otherwise give specific, actionable feedback."
            if criteria:
                ask = f"Acceptance criteria: {criteria}\n" + ask
            last["instructions"] = f"{last['instructions']}\n\n{ask}"
            self.rep.approximated("/termination_condition", "/steps/0/loop/until",
                                  f"approval detection -> CEL: stage '{last['id']}' says one of "
                                  f"{', '.join(APPROVAL_WORDS)} and none of the rejection phrases "
                                  f"({', '.join(REJECTION_WORDS[:4])} ...); keyword matching, like Coqui's")
            if criteria:
                self.rep.carried(f"{vpath}/criteria", f"/steps/0/loop/steps/{len(steps) - 1}/instructions",
                                 "acceptance criteria appended to the last stage's instructions")
        elif kind == "iteration_bound":
            if isinstance(value, dict):
                key = "max_iterations" if "max_iterations" in value else ("value" if "value" in value else None)
                rounds(key)
            elif value is not None:
                loop["maxIterations"] = self._int(value, vpath)
                self.rep.carried(vpath, "/steps/0/loop/maxIterations")
            else:
                rounds(None)
        elif kind == "time_bound":
            seconds = value
            if isinstance(value, dict):
                seconds = next((value[k] for k in ("seconds", "max_seconds", "value", "duration") if k in value), None)
            if seconds is None:
                raise ImportFailed("time_bound needs a number of seconds as its value", path=vpath)
            seconds = self._int(seconds, vpath)
            loop_step["timeout"] = duration(seconds)
            self.rep.approximated(vpath, "/steps/0/timeout",
                                  f"{seconds}s -> the loop step's timeout, which bounds all iterations together; "
                                  "in zenflow running out of time fails the step instead of completing the loop")
            rounds("max_iterations" if isinstance(value, dict) and "max_iterations" in value else None)
        elif kind == "manual":
            rounds("max_iterations" if isinstance(value, dict) and "max_iterations" in value else None)
            self.rep.approximated("/termination_condition", "/steps/0/loop/maxIterations",
                                  "manual stop is the run's Stop control; zenflow still needs an iteration ceiling")
        elif kind == "goal_bound":
            rounds("max_iterations")
            judge = agent_names.claim("goal-judge", "judge")
            goal_prompt = value.get("goal_prompt") if isinstance(value, dict) else None
            prompt = "Decide whether the goal has been achieved by the iteration that just finished. " \
                     "Set done=true only when it has; otherwise set done=false and say what is missing."
            if goal_prompt:
                prompt = f"{goal_prompt}\n\n{prompt}"
                self.rep.carried(f"{vpath}/goal_prompt", f"/agents/{judge}/prompt")
            agents[judge] = {
                "description": "Goal judge: decides after each iteration whether the goal is met (Coqui goal_bound).",
                "prompt": prompt,
                "resultSchema": JUDGE_SCHEMA,
            }
            loop["untilAgent"] = judge
            self.rep.carried("/termination_condition", "/steps/0/loop/untilAgent",
                             f"LLM-evaluated goal completion -> judge agent '{judge}' with the done contract")
        if isinstance(value, dict):
            used = {"max_review_rounds", "criteria", "max_iterations", "goal_prompt", "seconds", "max_seconds", "value", "duration"}
            for key in value:
                if key not in used:
                    self.rep.dropped(f"{vpath}/{key}", "unknown termination setting")

    def _int(self, value: Any, field_path: str) -> int:
        try:
            number = int(str(value).strip())
        except (TypeError, ValueError):
            raise ImportFailed(f"expected a whole number, not {value!r}", path=field_path) from None
        if number < 1:
            raise ImportFailed(f"expected a positive number, not {number}", path=field_path)
        return number
