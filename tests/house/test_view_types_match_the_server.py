"""The big-run page's view types (frontend/src/run/view/merge.ts) say what the server's view sends.

The server's view (runtime/live/view/state.py, runtime/live/view/mail.py) is typed by TypedDicts; merge.ts declares
the same shapes by hand, with the front end's own words (comments, the string literals a field takes). Not generated
like events.gen.ts: the TypedDicts hold `str` where the front end narrows to literals, and the comments are the
front end's. So this test reads both and fails when a field is missing on one side, optional on one side only, or
of another type: `str` matches a string or a union of string literals, `int` and `float` a number, `dict[str, V]` a
`Record<string, V>` or an object whose named keys are all of V, a TypedDict of the pairs below its TypeScript name,
and any other TypedDict the object it is written out as.
"""
from __future__ import annotations

import re
import types
import typing
from pathlib import Path

from runtime.engine.shapes import Tokens
from runtime.live.view import mail, state

REPO = Path(__file__).resolve().parents[2]
MERGE = REPO / "frontend" / "src" / "run" / "view" / "merge.ts"
# Each TypedDict of the view and the interface of merge.ts that declares it.
PAIRS: dict[type, str] = {
    state.RunSummary: "ViewRun",
    state.StepSummary: "ViewStep",
    state.FailedItem: "LoopFailure",
    state.ItemSummary: "LoopFinish",
    state.VerdictSummary: "LoopVerdict",
    state.LoopSummary: "ViewLoop",
    mail.MessageSummary: "ViewMailMessage",
    mail.MailSummary: "ViewMail",
}
# TypedDicts named on the TypeScript side by a type merge.ts imports, or written out where they are used.
ELSEWHERE = {Tokens: "Tokens", mail.NarrationSummary: None}
Fields = dict[str, tuple[bool, str]]  # name -> (optional, its type in one spelling)


def split_top(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` where no bracket is open."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        depth += char in "<([{"
        depth -= char in ">)]}"
        if char == sep and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def ts_fields(body: str) -> Fields:
    """The fields of an interface's or an object type's body (``a: T; b?: U`` or one a line, comments skipped)."""
    body = re.sub(r"/\*.*?\*/|//[^\n]*", "", body, flags=re.S)
    fields: Fields = {}
    for member in split_top(body.replace("\n", ";"), ";"):
        name, optional, kind = re.fullmatch(r"(\w+)(\??):\s*(.+)", member, re.S).groups()  # type: ignore[union-attr]
        fields[name] = (bool(optional), ts_type(kind))
    return fields


def ts_type(text: str) -> str:
    text = text.strip()
    members = split_top(text, "|")
    if len(members) > 1:
        return " | ".join(sorted({ts_type(m) for m in members}))
    if text.startswith("(") and text.endswith(")"):
        return ts_type(text[1:-1])
    if text.endswith("[]"):
        inner = ts_type(text[:-2])
        return f"({inner})[]" if "|" in inner else f"{inner}[]"
    if text[0] in "'\"":
        return "string"
    if record := re.fullmatch(r"Record<\s*string\s*,(.*)>", text, re.S):
        return f"Record<string, {ts_type(record.group(1))}>"
    if text.startswith("{"):
        fields = ts_fields(text[1:-1])
        kinds = {kind for optional, kind in fields.values() if not optional}
        if len(kinds) == 1 and len(fields) > 1 and all(not optional for optional, _ in fields.values()):
            return f"Record<string, {kinds.pop()}>"  # named keys of one type: the server's dict[str, V]
        return "{" + "; ".join(f"{k}{'?' if o else ''}: {t}" for k, (o, t) in sorted(fields.items())) + "}"
    return text


def interfaces(source: str) -> dict[str, Fields]:
    found = re.finditer(r"^export interface (\w+)(?: extends \w+)? \{\n(.*?)^\}", source, re.M | re.S)
    return {m.group(1): ts_fields(m.group(2)) for m in found}


def py_type(kind: object) -> str:
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        return " | ".join(sorted({py_type(a) for a in args}))
    if origin is list or origin is typing.Sequence:
        inner = py_type(args[0])
        return f"({inner})[]" if "|" in inner else f"{inner}[]"
    if origin is dict:
        return f"Record<string, {py_type(args[1])}>"
    if kind is type(None):
        return "null"
    if kind is str:
        return "string"
    if kind in (int, float):
        return "number"
    if kind is bool:
        return "boolean"
    if isinstance(kind, type) and typing.is_typeddict(kind):
        named = PAIRS.get(kind) or ELSEWHERE.get(kind)
        if named:
            return named
        fields = py_fields(kind)
        return "{" + "; ".join(f"{k}{'?' if o else ''}: {t}" for k, (o, t) in sorted(fields.items())) + "}"
    raise AssertionError(f"no TypeScript spelling for {kind!r}: teach py_type it")


def py_fields(typed: type) -> Fields:
    hints = typing.get_type_hints(typed, include_extras=True)
    fields: Fields = {}
    for name, kind in hints.items():
        optional = name in typed.__optional_keys__  # type: ignore[attr-defined]
        if typing.get_origin(kind) is typing.NotRequired:
            optional, kind = True, typing.get_args(kind)[0]
        fields[name] = (optional, py_type(kind))
    return fields


def differences(typed: type, declared: Fields) -> list[str]:
    ours = py_fields(typed)
    name = PAIRS[typed]
    out = [f"{name}.{f}: only in merge.ts" for f in sorted(declared.keys() - ours.keys())]
    out += [f"{name}.{f}: missing in merge.ts ({typed.__name__} has it)" for f in sorted(ours.keys() - declared.keys())]
    for field in sorted(ours.keys() & declared.keys()):
        if ours[field] != declared[field]:
            (py_opt, py_kind), (ts_opt, ts_kind) = ours[field], declared[field]
            out.append(f"{name}.{field}: merge.ts says {'optional ' * ts_opt}{ts_kind}, "
                       f"{typed.__name__} says {'optional ' * py_opt}{py_kind}")
    return out


def test_the_view_types_of_merge_ts_match_the_servers_typed_dicts():
    declared = interfaces(MERGE.read_text())
    assert [name for name in PAIRS.values() if name not in declared] == [], "merge.ts no longer declares them"
    found = [d for typed, name in PAIRS.items() for d in differences(typed, declared[name])]
    assert found == [], "merge.ts and the server's view differ:\n" + "\n".join(found)


def test_every_typed_dict_of_the_view_is_paired():
    typed_dicts = {v for module in (state, mail) for v in vars(module).values()
                   if isinstance(v, type) and typing.is_typeddict(v) and v.__module__ == module.__name__}
    assert typed_dicts - PAIRS.keys() - ELSEWHERE.keys() == set(), "pair each with its interface in merge.ts"


def test_the_check_sees_a_renamed_a_retyped_and_an_optional_field():
    declared = interfaces(MERGE.read_text())["ViewStep"]
    drifted = dict(declared, duration=declared["duration_ms"], tokens=(False, "string"), agent=(True, "null | string"))
    del drifted["duration_ms"]
    assert differences(state.StepSummary, drifted) == [
        "ViewStep.duration: only in merge.ts",
        "ViewStep.duration_ms: missing in merge.ts (StepSummary has it)",
        "ViewStep.agent: merge.ts says optional null | string, StepSummary says null | string",
        "ViewStep.tokens: merge.ts says string, StepSummary says number",
    ]
