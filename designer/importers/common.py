"""Helpers shared by the importers: names, CEL literals, durations, parsing."""
from __future__ import annotations

import io
import json
import re
from typing import Any, Iterable

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError

NAME_PATTERN = re.compile(r"^[a-z][a-z0-9_-]{0,63}$")
MAX_INSTRUCTIONS = 2000
MAX_DESCRIPTION = 2000

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

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None):
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

    def __init__(self, taken: Iterable[str] = ()):
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
    total = int(round(float(seconds)))
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


def parse_yaml(text: str, what: str) -> Any:
    """Round-trip parse (keeps line numbers); syntax errors become ImportFailed."""
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


def parse_json(text: str, what: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ImportFailed(f"{what} is not valid JSON: {exc.msg} (column {exc.colno})", line=exc.lineno) from None


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
