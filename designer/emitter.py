"""A small YAML emitter for plain JSON-like data, in the canonical style.

ruamel.yaml is kept for round trips that carry comments; for everything else
this emitter is an order of magnitude faster and writes the same layout:
two-space mappings, sequences indented with `- ` under their key, literal
blocks for multi-line text, and quotes only where a plain scalar would read
back differently.
"""
from __future__ import annotations

import json
import math
import re
from functools import lru_cache
from typing import Any

from designer.source import _resolve_scalar

_PLAIN_START = re.compile(r"^[^\s\-?:,\[\]{}#&*!|>'\"%@`]")


class _Plain:
    implicit = (True, False)
    start_mark = None

    def __init__(self, value: str) -> None:
        self.value = value


def reads_back_as_other_type(value: str) -> bool:
    try:
        return not isinstance(_resolve_scalar(_Plain(value)), str)
    except Exception:
        return True


def _plain_ok(value: str) -> bool:
    return (
        bool(value)
        and _PLAIN_START.match(value) is not None
        and value == value.strip()
        and ": " not in value
        and " #" not in value
        and not value.endswith(":")
        and value.isprintable()
        and not reads_back_as_other_type(value)
    )


def literal_ok(value: str) -> bool:
    if "\n" not in value or value[0] in " \t\n" or "\r" in value:
        return False
    if any(line != line.rstrip(" \t") for line in value.split("\n")):
        return False
    return all(ch.isprintable() or ch in "\n\t" for ch in value)


def _quoted(value: str) -> str:
    if value.isprintable() and ("'" not in value or '"' in value or "\\" in value):
        return "'" + value.replace("'", "''") + "'"
    text = json.dumps(value, ensure_ascii=False)
    if text[1:-1].isprintable():
        return text
    # JSON leaves some non-printables (NEL, U+2028 ...) raw; YAML must see them escaped.
    return "".join(ch if ch.isprintable() else f"\\u{ord(ch):04x}" if ord(ch) < 0x10000 else f"\\U{ord(ch):08x}" for ch in text)


@lru_cache(maxsize=8192)
def _string(value: str) -> str:
    """How a string is written; keys and values repeat a lot, so remembered."""
    return value if _plain_ok(value) else _quoted(value)


def _scalar(value: Any) -> str:
    if isinstance(value, str):
        return _string(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise ValueError("NaN and infinity have no place in a workflow document")
        text = repr(value)
        return text if ("." in text or "e" in text) else text + ".0"
    raise TypeError(f"cannot write {type(value).__name__} as YAML")


def _key(key: Any) -> str:
    return _scalar(str(key))


def _literal(value: str, indent: str) -> str:
    if value.endswith("\n\n") or (value.endswith("\n") and value.rstrip("\n") == ""):
        chomp = "+"
        body = value[:-1]
    elif value.endswith("\n"):
        chomp = ""
        body = value[:-1]
    else:
        chomp = "-"
        body = value
    lines = [(indent + line) if line else "" for line in body.split("\n")]
    return f"|{chomp}\n" + "\n".join(lines)


def emit(data: Any) -> str:
    out: list[str] = []
    if isinstance(data, dict) and data:
        _mapping(data, "", out)
    elif isinstance(data, list) and data:
        _sequence(data, "", out)
    else:
        out.append(_inline(data, "  "))
    return "\n".join(out) + "\n"


def _inline(value: Any, child_indent: str) -> str:
    """A value that fits after `key: ` or `- `."""
    if isinstance(value, dict):
        return "{}"
    if isinstance(value, list):
        return "[]"
    if isinstance(value, str) and literal_ok(value):
        return _literal(value, child_indent)
    return _scalar(value)


def _mapping(data: dict, indent: str, out: list[str], first_prefix: str | None = None) -> None:
    child = indent + "  "
    for i, (key, value) in enumerate(data.items()):
        lead = first_prefix if (i == 0 and first_prefix is not None) else indent
        if isinstance(value, dict) and value:
            out.append(f"{lead}{_key(key)}:")
            _mapping(value, child, out)
        elif isinstance(value, list) and value:
            out.append(f"{lead}{_key(key)}:")
            _sequence(value, child, out)
        else:
            out.append(f"{lead}{_key(key)}: {_inline(value, child)}")


def _sequence(data: list, indent: str, out: list[str], first_prefix: str | None = None) -> None:
    child = indent + "  "
    for i, value in enumerate(data):
        lead = (first_prefix if (i == 0 and first_prefix is not None) else indent) + "- "
        if isinstance(value, dict) and value:
            _mapping(value, child, out, first_prefix=lead)
        elif isinstance(value, list) and value:
            _sequence(value, child, out, first_prefix=lead)
        else:
            out.append(f"{lead}{_inline(value, child)}")
