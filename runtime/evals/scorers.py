"""Scorers: what a finished run of a case is worth, each a score in [0, 1], passed or not, and a reason.

Kinds (a scorer is a mapping with a unique ``name`` and a ``kind``):

* ``cel``: ``expr`` over the finished run (:func:`run_variables`): ``steps.<id>.{result, content, status}``,
  ``loops.<id>.{rounds, break_reason, broke_early}``, ``run.{status, reason, tokens, cost_usd, duration_s, rounds}``,
  ``expected`` (the case's expectations) and ``case``. A bool passes or fails; a number is the score.
* ``contains`` / ``regex`` / ``equals``: on ``step``'s content (the run's last step when no step is named),
  against ``value`` or, without one, ``expected.content`` of the case.
* ``json_schema``: ``step``'s result is valid against ``schema``.
* ``file``: ``path`` in the run's workspace, ``check`` one of exists / contains / equals (``value``, or the case's
  ``expected.files[path]``).
* ``llm_judge``: a model (``model``, as ``openai/gpt-4o-mini``) reads ``rubric`` and the output and answers a score
  on ``scale`` (1..scale, normalised to [0, 1]); its tokens and cost are counted apart from the run's.

``threshold`` (default 0.5; 1 for pass/fail kinds) decides ``passed`` for numeric scores. Scorers are checked when a
dataset is saved (:func:`check_scorers`): CEL parsed, step ids named against the workflow, kinds and fields.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from common.errors import BadRequest
from designer import cel

KINDS = ("cel", "contains", "regex", "equals", "json_schema", "file", "llm_judge")
FILE_CHECKS = ("exists", "contains", "equals")
MAX_SCORERS = 30
MAX_SCALE = 100


@dataclass
class Score:
    score: float
    passed: bool
    reason: str
    tokens: int = 0
    cost_usd: float = 0.0

    def as_dict(self) -> dict:
        out: dict[str, Any] = {"score": round(self.score, 6), "passed": self.passed, "reason": self.reason[:500]}
        if self.tokens:
            out["tokens"], out["cost_usd"] = self.tokens, round(self.cost_usd, 8)
        return out


def step_ids(document: dict) -> list[str]:
    """Every step id of a workflow document, inner loop steps included."""
    found: list[str] = []

    def walk(steps: Any) -> None:
        for step in steps if isinstance(steps, list) else []:
            if isinstance(step, dict):
                if isinstance(step.get("id"), str):
                    found.append(step["id"])
                loop = step.get("loop")
                if isinstance(loop, dict):
                    walk(loop.get("steps"))

    walk(document.get("steps"))
    return found


def check_scorers(raw: Any, document: dict) -> list[dict]:
    """The scorers, checked against the workflow's document; a 400 naming the scorer and the field at the first fault."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise BadRequest("scorers: expected a list")
    if len(raw) > MAX_SCORERS:
        raise BadRequest(f"scorers: at most {MAX_SCORERS}")
    known = step_ids(document)
    names: set[str] = set()
    out = []
    for i, scorer in enumerate(raw):
        where = f"scorers[{i}]"
        if not isinstance(scorer, dict):
            raise BadRequest(f"{where}: expected an object with `name` and `kind`")
        name = scorer.get("name")
        if not isinstance(name, str) or not name.strip() or len(name) > 100:
            raise BadRequest(f"{where}.name: a name of 1 to 100 characters is required")
        if name in names:
            raise BadRequest(f"{where}.name: `{name}` is used twice")
        names.add(name)
        where = f"scorer `{name}`"
        kind = scorer.get("kind")
        if kind not in KINDS:
            raise BadRequest(f"{where}.kind: unknown kind {kind!r} (known: {', '.join(KINDS)})")
        step = scorer.get("step")
        if step is not None and (not isinstance(step, str) or step not in known):
            raise BadRequest(f"{where}.step: no step {step!r} in the workflow (steps: {', '.join(known)})")
        _check_kind(where, kind, scorer, known)
        threshold = scorer.get("threshold")
        if threshold is not None and (isinstance(threshold, bool) or not isinstance(threshold, (int, float))
                                      or not 0 <= threshold <= 1):
            raise BadRequest(f"{where}.threshold: a number from 0 to 1")
        out.append(scorer)
    return out


def _check_kind(where: str, kind: str, scorer: dict, known: list[str]) -> None:
    if kind == "cel":
        expr = scorer.get("expr")
        if not isinstance(expr, str) or not expr.strip():
            raise BadRequest(f"{where}.expr: a CEL expression is required")
        try:
            found = cel.inspect(expr)
        except cel.CelError as exc:
            raise BadRequest(f"{where}.expr: {exc}") from None
        unknown = sorted(found.step_refs - set(known))
        if unknown:
            raise BadRequest(f"{where}.expr: no step {', '.join(unknown)} in the workflow (steps: {', '.join(known)})")
    elif kind in ("contains", "equals"):
        if "value" in scorer and not isinstance(scorer["value"], str):
            raise BadRequest(f"{where}.value: a string")
    elif kind == "regex":
        pattern = scorer.get("value")
        if not isinstance(pattern, str):
            raise BadRequest(f"{where}.value: the regular expression is required")
        try:
            re.compile(pattern)
        except re.error as exc:
            raise BadRequest(f"{where}.value: not a regular expression ({exc})") from None
    elif kind == "json_schema":
        schema = scorer.get("schema")
        if not isinstance(schema, dict):
            raise BadRequest(f"{where}.schema: a JSON Schema object is required")
        try:
            Draft202012Validator.check_schema(schema)
        except SchemaError as exc:
            raise BadRequest(f"{where}.schema: {exc.message}") from None
    elif kind == "file":
        if not isinstance(scorer.get("path"), str) or not scorer["path"].strip():
            raise BadRequest(f"{where}.path: the file's path in the workspace is required")
        if scorer.get("check", "exists") not in FILE_CHECKS:
            raise BadRequest(f"{where}.check: one of {', '.join(FILE_CHECKS)}")
    elif kind == "llm_judge":
        if not isinstance(scorer.get("rubric"), str) or not scorer["rubric"].strip():
            raise BadRequest(f"{where}.rubric: what a good output is, in words, is required")
        if not isinstance(scorer.get("model"), str) or not scorer["model"].strip():
            raise BadRequest(f"{where}.model: the judge's model is required (as `openai/gpt-4o-mini`)")
        scale = scorer.get("scale", 5)
        if isinstance(scale, bool) or not isinstance(scale, int) or not 2 <= scale <= MAX_SCALE:
            raise BadRequest(f"{where}.scale: a whole number from 2 to {MAX_SCALE}")


# ---------------------------------------------------------------- a finished run, as the scorers read it


@dataclass
class Finished:
    """What scorers read of a finished run (loaded by runtime.evals.experiments)."""

    variables: dict          # run_variables(...)
    last_step: str | None    # the step whose content is "the output" when a scorer names none
    workspace: Path | None   # the run's workspace folder, when it still exists


def run_variables(*, status: str, reason: str, steps: dict, loops: dict, tokens: int, cost_usd: float,
                  duration_s: float, expected: dict, case: dict) -> dict:
    rounds = sum(int(v.get("rounds") or 0) for v in loops.values())
    return {"steps": steps, "loops": loops, "expected": expected, "case": case,
            "run": {"status": status, "reason": reason, "tokens": tokens, "cost_usd": cost_usd,
                    "duration_s": duration_s, "rounds": rounds}}


def _content(finished: Finished, scorer: dict) -> tuple[str | None, str]:
    step: str | None = scorer.get("step") or finished.last_step
    entry = finished.variables["steps"].get(step) if step else None
    if entry is None or step is None:
        return None, f"step {step or '(none)'} did not run"
    return str(entry.get("content") or ""), step


def _expected_text(finished: Finished, scorer: dict) -> str | None:
    if isinstance(scorer.get("value"), str):
        return scorer["value"]
    value = finished.variables["expected"].get("content")
    return None if value is None else str(value)


def _passed(score: float, scorer: dict) -> bool:
    return score >= float(scorer.get("threshold", 0.5))


def score_plain(scorer: dict, finished: Finished) -> Score:
    """Every kind but ``llm_judge`` (see :func:`judge_request`)."""
    kind = scorer["kind"]
    if kind == "cel":
        try:
            value = cel.evaluate(cel.normalize(scorer["expr"]), finished.variables)
        except cel.CelError as exc:
            return Score(0.0, False, f"error: {exc}")
        if isinstance(value, bool):
            return Score(float(value), value, f"{scorer['expr']} is {str(value).lower()}")
        if isinstance(value, (int, float)):
            score = min(1.0, max(0.0, float(value)))
            return Score(score, _passed(score, scorer), f"{scorer['expr']} = {value:g}")
        return Score(0.0, False, f"{scorer['expr']} gave {type(value).__name__}, not a bool or a number")
    if kind in ("contains", "regex", "equals"):
        text, step = _content(finished, scorer)
        if text is None:
            return Score(0.0, False, step)
        want = _expected_text(finished, scorer)
        if want is None:
            return Score(0.0, False, "no `value` and no expected content in the case")
        if kind == "contains":
            ok = want in text
        elif kind == "regex":
            ok = re.search(want, text) is not None
        else:
            ok = text.strip() == want.strip()
        verb = {"contains": "contains", "regex": "matches", "equals": "equals"}[kind]
        return Score(float(ok), ok, f"{step} {'' if ok else 'does not '}{verb if ok else verb.rstrip('s')} {want[:80]!r}")
    if kind == "json_schema":
        name: str | None = scorer.get("step") or finished.last_step
        entry = finished.variables["steps"].get(name) if name else None
        if entry is None:
            return Score(0.0, False, f"step {name or '(none)'} did not run")
        step = str(name)
        errors = sorted(Draft202012Validator(scorer["schema"]).iter_errors(entry.get("result")), key=lambda e: list(e.path))
        if errors:
            where = "/".join(str(p) for p in errors[0].path) or "(root)"
            return Score(0.0, False, f"{step}'s result at {where}: {errors[0].message}")
        return Score(1.0, True, f"{step}'s result fits the schema")
    if kind == "file":
        return _file(scorer, finished)
    raise ValueError(kind)


def _file(scorer: dict, finished: Finished) -> Score:
    path, check = scorer["path"], scorer.get("check", "exists")
    if finished.workspace is None:
        return Score(0.0, False, "the run left no workspace")
    root = finished.workspace.resolve()
    target = (root / path).resolve()
    if root not in target.parents:
        return Score(0.0, False, f"{path} is outside the workspace")
    if not target.is_file():
        return Score(0.0, False, f"{path} does not exist")
    if check == "exists":
        return Score(1.0, True, f"{path} exists")
    text = target.read_text(errors="replace")
    want = scorer.get("value")
    if want is None:
        want = (finished.variables["expected"].get("files") or {}).get(path)
    if want is None:
        return Score(0.0, False, f"no `value` and no expected {path} in the case")
    ok = want in text if check == "contains" else text.strip() == str(want).strip()
    return Score(float(ok), ok, f"{path} {'' if ok else 'does not '}{'contain' if check == 'contains' else 'equal'}"
                 f"{'s' if ok else ''} the expected text")


# ---------------------------------------------------------------- the LLM judge scorer

JUDGE_SYSTEM = ("You grade the output of an automated workflow against a rubric. Answer with JSON only: "
                '{"score": <a whole number from 1 to SCALE>, "reason": "<one sentence>"}.')


def judge_messages(scorer: dict, finished: Finished) -> list[dict]:
    text, step = _content(finished, scorer)
    scale = int(scorer.get("scale", 5))
    expected = finished.variables["expected"]
    parts = [f"Rubric:\n{scorer['rubric']}", f"Output of step {step}:\n{text if text is not None else '(none)'}"]
    if expected:
        parts.append(f"Expected:\n{json.dumps(expected)[:4000]}")
    return [{"role": "system", "content": JUDGE_SYSTEM.replace("SCALE", str(scale))},
            {"role": "user", "content": "\n\n".join(parts)}]


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def judge_score(scorer: dict, reply: str) -> Score:
    """The judge's reply read: JSON with ``score`` (and ``reason``), else the first number in it."""
    scale = int(scorer.get("scale", 5))
    value: Any = None
    reason = ""
    start, end = reply.find("{"), reply.rfind("}")
    if 0 <= start < end:
        try:
            parsed = json.loads(reply[start:end + 1])
            value, reason = parsed.get("score"), str(parsed.get("reason") or "")
        except (ValueError, AttributeError):
            value = None
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        found = _NUMBER.search(reply)
        value = float(found.group()) if found else None
    if value is None:
        return Score(0.0, False, f"the judge gave no score: {reply[:200]!r}")
    raw = min(float(scale), max(1.0, float(value)))
    score = (raw - 1) / (scale - 1)
    return Score(score, _passed(score, scorer), f"{raw:g}/{scale}" + (f": {reason}" if reason else ""))
