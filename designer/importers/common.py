"""Helpers shared by the importers: names, CEL literals, durations, parsing."""
from __future__ import annotations

import io
import json
import re
from collections.abc import Iterable
from typing import Any

import yaml as libyaml
from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from designer.source import value_problem

NAME_PATTERN = re.compile(r"^[a-z][a-z0-9_-]{0,63}$")
MAX_INSTRUCTIONS = 2000
MAX_DESCRIPTION = 2000
# A Runsight workflow or a Coqui definition holds hundreds of values, nested a dozen deep.
# ruamel reads about a tenth as fast as libyaml and recurses per level, so the shape is
# checked first, by libyaml's event stream: no recursion, and it stops at the first excess.
MAX_IMPORT_VALUES = 20_000
MAX_IMPORT_DEPTH = 64

JUDGE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["done"],
    "properties": {
        "done": {"type": "boolean", "description": "true when the loop should stop"},
        "reason": {"type": "string", "description": "why the loop should stop or go on"},
    },
}


class ImportFailed(Exception):
    """Input that cannot be imported. The message names the field and line."""

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None) -> None:
        self.path = path
        self.line = line
        where = ""
        if path:
            where += f"{path}: "
        super().__init__(where + message + (f" (line {line})" if line else ""))
        self.detail = message


def slugify(raw: Any, fallback: str = "x") -> str:
    """A name matching ``^[a-z][a-z0-9_-]{0,63}$`` made from ``raw``."""
    text = str(raw or "").strip().lower()
    text = re.sub(r"[^a-z0-9_-]+", "-", text)
    text = re.sub(r"-{2,}", "-", text).strip("-_")
    text = re.sub(r"^[^a-z]+", "", text)
    if not text:
        text = fallback
    return text[:64].rstrip("-_") or fallback


class Names:
    """Hands out unique slugs within one namespace."""

    def __init__(self, taken: Iterable[str] = ()) -> None:
        self.taken: set[str] = set(taken)

    def claim(self, raw: Any, fallback: str = "x") -> str:
        base = slugify(raw, fallback)
        name = base
        n = 2
        while name in self.taken:
            suffix = f"-{n}"
            name = base[: 64 - len(suffix)] + suffix
            n += 1
        self.taken.add(name)
        return name


def cel_string(value: Any) -> str:
    """A double-quoted CEL string literal."""
    text = str(value)
    text = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")
    return f'"{text}"'


def cel_step(step_id: str) -> str:
    """``steps.x`` or ``steps['x-y']`` (hyphens cannot use dot access)."""
    if re.fullmatch(r"[a-z_][a-z0-9_]*", step_id):
        return f"steps.{step_id}"
    return f"steps[{cel_string(step_id)}]"


def cel_member(base: str, key: str) -> str:
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key):
        return f"{base}.{key}"
    return f"{base}[{cel_string(key)}]"


def cel_regex_words(words: Iterable[str]) -> str:
    """A case-insensitive regex alternation of literal words."""
    return "(?i)(" + "|".join(re.escape(w).replace("\\ ", " ") for w in words) + ")"


def duration(seconds: Any) -> str:
    """Whole seconds as a zenflow Duration (``1h30m``, ``45s``, ``0s``)."""
    total = round(float(seconds))
    if total <= 0:
        return "0s"
    h, rest = divmod(total, 3600)
    m, s = divmod(rest, 60)
    out = (f"{h}h" if h else "") + (f"{m}m" if m else "") + (f"{s}s" if s else "")
    return out


def clip(text: str, limit: int) -> tuple[str, bool]:
    if len(text) <= limit:
        return text, False
    marker = "\n[... truncated at import]"
    return text[: limit - len(marker)] + marker, True


def check_shape(text: str, what: str) -> None:
    """Refuse text nested deeper than MAX_IMPORT_DEPTH or holding more than MAX_IMPORT_VALUES
    values, aliases counted as the values they repeat (so an alias bomb is refused unexpanded)."""
    values = 0
    anchored: dict[str, tuple[int, int]] = {}  # anchor -> (values, height) of its node
    open_nodes: list[list] = []  # [anchor, values when it opened, height so far]

    def close(anchor: str | None, size: int, height: int) -> None:
        if anchor:
            anchored[anchor] = (size, height)
        if open_nodes:
            open_nodes[-1][2] = max(open_nodes[-1][2], height + 1)

    try:
        for event in libyaml.parse(text, Loader=libyaml.CSafeLoader):
            line = event.start_mark.line + 1 if event.start_mark else None
            if isinstance(event, libyaml.AliasEvent):
                size, height = anchored.get(event.anchor or "", (1, 0))
                values += size
                if len(open_nodes) + height > MAX_IMPORT_DEPTH:
                    raise ImportFailed(f"{what} is nested more than {MAX_IMPORT_DEPTH} levels deep "
                                       f"(the alias *{event.anchor} repeats a deep value)", line=line)
                close(None, size, height)
            elif isinstance(event, libyaml.ScalarEvent):
                values += 1
                close(event.anchor, 1, 0)
            elif isinstance(event, (libyaml.SequenceStartEvent, libyaml.MappingStartEvent)):
                values += 1
                open_nodes.append([event.anchor, values, 0])
                if len(open_nodes) > MAX_IMPORT_DEPTH:
                    raise ImportFailed(f"{what} is nested more than {MAX_IMPORT_DEPTH} levels deep", line=line)
            elif isinstance(event, (libyaml.SequenceEndEvent, libyaml.MappingEndEvent)):
                anchor, opened_at, height = open_nodes.pop()
                close(anchor, values - opened_at + 1, height)
            if values > MAX_IMPORT_VALUES:
                raise ImportFailed(f"{what} holds more than {MAX_IMPORT_VALUES:,} values"
                                   " (aliases count as the values they repeat)", line=line)
    except libyaml.YAMLError:
        # Left to the full parser, for its message: it stops at the same place, after at most
        # the values counted here.
        return


def parse_yaml(text: str, what: str) -> Any:
    """Round-trip parse (keeps line numbers); syntax errors become ImportFailed."""
    check_shape(text, what)
    yaml = YAML(typ="rt")
    yaml.allow_duplicate_keys = False
    try:
        return yaml.load(io.StringIO(text))
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = exc.problem or exc.context or "malformed YAML"
        raise ImportFailed(f"{what} is not valid YAML: {problem}", line=line) from None
    except YAMLError as exc:
        raise ImportFailed(f"{what} is not valid YAML: {str(exc).splitlines()[0]}") from None
    except (ValueError, IndexError) as exc:
        # ruamel's own scalar readers trip over some odd scalars (`._`, `0b_`) instead of reporting them.
        raise ImportFailed(f"{what} is not valid YAML: a value it cannot read ({exc})") from None


def parse_json(text: str, what: str) -> Any:
    check_shape(text, what)  # JSON is YAML: the same bounds, before json recurses
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ImportFailed(f"{what} is not valid JSON: {exc.msg} (column {exc.colno})", line=exc.lineno) from None
    except RecursionError:
        raise ImportFailed(f"{what} is nested more than {MAX_IMPORT_DEPTH} levels deep") from None
    except ValueError as exc:  # an integer past Python's conversion limit
        raise ImportFailed(f"{what} holds a number too large to read ({exc})") from None
    problem = value_problem(value, max_depth=MAX_IMPORT_DEPTH, max_values=MAX_IMPORT_VALUES)
    if problem is not None:
        raise ImportFailed(problem.message, path=problem.path or "/")
    return value


def line_of(container: Any, key: Any) -> int | None:
    """1-based line of ``key`` in a ruamel round-trip mapping or sequence."""
    lc = getattr(container, "lc", None)
    if lc is None:
        return None
    try:
        if isinstance(key, int) and isinstance(container, list):
            return lc.item(key)[0] + 1
        return lc.key(key)[0] + 1
    except Exception:
        try:
            return lc.line + 1
        except Exception:
            return None


def plain(value: Any) -> Any:
    """Ruamel round-trip data -> plain dicts, lists and scalars."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, str):
        return str(value)
    return value


def pointer_token(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")
