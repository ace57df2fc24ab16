"""Turn workflow text (YAML or JSON) into a plain document, with positions.

YAML is read as a stream of libyaml events and built here, not by a YAML
library's constructor, for three reasons: anchors, aliases, tags and merge
keys are refused at the event that carries them (so an alias bomb is refused
before anything is expanded); duplicate keys are caught with their line; and
every node's line and column is recorded under its JSON pointer so a
diagnostic can point at the source. Plain scalars resolve by the YAML 1.2 core
schema, as the reference runner reads them (``yes`` stays a string).
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from designer.diagnostics import Diagnostic, pointer

MAX_DOCUMENT_BYTES = 1024 * 1024

Positions = dict[str, tuple[int, int]]

_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_TRUE = re.compile(r"^(?:true|True|TRUE)$")
_FALSE = re.compile(r"^(?:false|False|FALSE)$")
_INT10 = re.compile(r"^[-+]?[0-9]+$")
_INT8 = re.compile(r"^0o[0-7]+$")
_INT16 = re.compile(r"^0x[0-9a-fA-F]+$")
_FLOAT = re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$")
_INF = re.compile(r"^[-+]?\.(?:inf|Inf|INF)$")
_NAN = re.compile(r"^\.(?:nan|NaN|NAN)$")


@dataclass
class ParsedText:
    """A document read from text: the value, where each node stood, and problems."""

    document: Any = None
    positions: Positions = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    format: str = "yaml"

    @property
    def ok(self) -> bool:
        return not self.diagnostics


_UNCLOSED = {
    "while parsing a flow sequence": "the `[` opened here is never closed",
    "while parsing a flow mapping": "the `{` opened here is never closed",
    "while scanning a quoted scalar": "the quote opened here is never closed",
}


class _Refused(Exception):
    def __init__(self, code: str, message: str, line: int | None, column: int | None, hint: str | None = None):
        super().__init__(message)
        self.diagnostic = Diagnostic(code=code, message=message, line=line, column=column, hint=hint, cls="validation")


def detect_format(text: str) -> str:
    stripped = text.lstrip()
    return "json" if stripped[:1] in ("{", "[") else "yaml"


def parse_text(source: str | bytes) -> ParsedText:
    """Parse workflow text. Never raises: problems come back as diagnostics."""
    if isinstance(source, bytes):
        if len(source) > MAX_DOCUMENT_BYTES:
            return _fail("too_large", f"the document is {len(source):,} bytes; the limit is 1 MiB ({MAX_DOCUMENT_BYTES:,} bytes)")
        try:
            source = source.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            return _fail("encoding", f"the document is not UTF-8 text (byte {exc.start} cannot be decoded)")
    elif len(source) > MAX_DOCUMENT_BYTES or len(source.encode("utf-8", "surrogatepass")) > MAX_DOCUMENT_BYTES:
        return _fail("too_large", f"the document is larger than 1 MiB ({MAX_DOCUMENT_BYTES:,} bytes)")
    if source.startswith("\ufeff"):
        source = source[1:]
    if not source.strip():
        return _fail("empty_document", "the document is empty", hint="start with `name:` and `steps:`")
    fmt = detect_format(source)
    try:
        if fmt == "json":
            document, positions = _parse_json(source)
        else:
            document, positions = _EventBuilder(source).build()
    except _Refused as refused:
        out = ParsedText(format=fmt)
        out.diagnostics.append(refused.diagnostic)
        return out
    out = ParsedText(document=document, positions=positions, format=fmt)
    if not isinstance(document, dict):
        kind = "empty" if document is None else type(document).__name__
        out.diagnostics.append(
            Diagnostic(
                code="not_a_mapping",
                message=f"the document must be a mapping with `name` and `steps`, not {_kind_name(kind)}",
                line=1,
                column=1,
            )
        )
    return out


def _kind_name(kind: str) -> str:
    return {"list": "a list", "str": "a string", "int": "a number", "float": "a number", "bool": "a boolean", "empty": "nothing"}.get(kind, kind)


def _fail(code: str, message: str, hint: str | None = None) -> ParsedText:
    return ParsedText(diagnostics=[Diagnostic(code=code, message=message, hint=hint, line=None, column=None)])


# ---------------------------------------------------------------- JSON


def _parse_json(text: str) -> tuple[Any, Positions]:
    def pairs(items):
        out: dict[str, Any] = {}
        for key, value in items:
            if key in out:
                raise _Refused("duplicate_key", f"duplicate key {key!r}", *_find_key(text, key))
            out[key] = value
        return out

    def bad_constant(name):
        raise _Refused("invalid_number", f"{name} is not a JSON number", None, None)

    try:
        document = json.loads(text, object_pairs_hook=pairs, parse_constant=bad_constant)
    except json.JSONDecodeError as exc:
        raise _Refused("syntax", f"JSON syntax error: {exc.msg}", exc.lineno, exc.colno) from None
    except RecursionError:
        raise _Refused("too_deep", "the document is nested too deeply", None, None) from None
    # Positions for JSON come from the YAML event reader (JSON is YAML), best effort.
    try:
        _, positions = _EventBuilder(text).build()
    except (_Refused, RecursionError):
        positions = {}
    return document, positions


def _find_key(text: str, key: str) -> tuple[int | None, int | None]:
    marker = json.dumps(key)
    first = text.find(marker)
    second = text.find(marker, first + 1) if first >= 0 else -1
    at = second if second >= 0 else first
    if at < 0:
        return None, None
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1


# ---------------------------------------------------------------- YAML

MAX_DEPTH = 200


class _EventBuilder:
    def __init__(self, text: str):
        self.text = text
        self.positions: Positions = {}

    def build(self) -> tuple[Any, Positions]:
        try:
            events = yaml.parse(self.text, Loader=yaml.CSafeLoader)
            self.events = iter(events)
            self._expect(yaml.StreamStartEvent)
            first = next(self.events)
            if isinstance(first, yaml.StreamEndEvent):
                return None, self.positions
            if not isinstance(first, yaml.DocumentStartEvent):
                raise _Refused("syntax", "unexpected YAML structure", *_mark(first))
            value = self._node(next(self.events), [], 0)
            self._expect(yaml.DocumentEndEvent)
            trailing = next(self.events)
            if not isinstance(trailing, yaml.StreamEndEvent):
                raise _Refused(
                    "multiple_documents",
                    "the file holds more than one YAML document; a workflow is one document",
                    *_mark(trailing),
                    hint="remove the `---` separator and what follows it",
                )
            return value, self.positions
        except yaml.MarkedYAMLError as exc:
            problem = exc.problem or exc.context or "syntax error"
            mark, opened = exc.problem_mark or exc.context_mark, exc.context_mark
            if opened is not None and mark is not None and opened.line != mark.line and exc.context in _UNCLOSED:
                # libyaml notices an unclosed bracket or quote lines later, often where the text
                # ends; point at where it was opened, which is where the author has to look.
                problem = f"{_UNCLOSED[exc.context]} ({problem} by line {mark.line + 1})"
                mark = opened
            line, column = (mark.line + 1, mark.column + 1) if mark else (None, None)
            raise _Refused("syntax", f"YAML syntax error: {problem}", line, column) from None
        except yaml.YAMLError as exc:
            raise _Refused("syntax", f"YAML error: {str(exc).splitlines()[0] if str(exc) else 'unreadable'}", None, None) from None

    def _expect(self, kind):
        event = next(self.events)
        if not isinstance(event, kind):
            raise _Refused("syntax", "unexpected YAML structure", *_mark(event))
        return event

    def _refuse_features(self, event) -> None:
        if isinstance(event, yaml.AliasEvent):
            raise _Refused(
                "yaml_alias",
                f"YAML aliases (*{event.anchor}) are not allowed in workflows",
                *_mark(event),
                hint="write the value out in full; zenflow documents use no YAML-specific features",
            )
        anchor = getattr(event, "anchor", None)
        if anchor:
            raise _Refused(
                "yaml_anchor",
                f"YAML anchors (&{anchor}) are not allowed in workflows",
                *_mark(event),
                hint="remove the anchor; zenflow documents use no YAML-specific features",
            )
        tag = getattr(event, "tag", None)
        if tag and tag != "!":
            raise _Refused("yaml_tag", f"YAML tags ({tag}) are not allowed in workflows", *_mark(event), hint="remove the tag")
        if tag == "!":
            raise _Refused("yaml_tag", "YAML tags (!) are not allowed in workflows", *_mark(event), hint="remove the tag")

    def _node(self, event, path: list, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise _Refused("too_deep", "the document is nested too deeply", *_mark(event))
        self._refuse_features(event)
        self.positions[pointer(*path)] = _mark(event)
        if isinstance(event, yaml.ScalarEvent):
            return _resolve_scalar(event)
        if isinstance(event, yaml.SequenceStartEvent):
            items = []
            while True:
                child = next(self.events)
                if isinstance(child, yaml.SequenceEndEvent):
                    return items
                items.append(self._node(child, path + [len(items)], depth + 1))
        if isinstance(event, yaml.MappingStartEvent):
            mapping: dict[str, Any] = {}
            while True:
                key_event = next(self.events)
                if isinstance(key_event, yaml.MappingEndEvent):
                    return mapping
                self._refuse_features(key_event)
                if not isinstance(key_event, yaml.ScalarEvent):
                    raise _Refused("invalid_key", "mapping keys must be plain strings", *_mark(key_event))
                key = key_event.value
                if key == "<<" and key_event.implicit[0]:
                    raise _Refused("yaml_merge_key", "YAML merge keys (<<) are not allowed in workflows", *_mark(key_event), hint="write the merged fields out in full")
                if key_event.implicit[0] and not isinstance(_resolve_scalar(key_event), str):
                    raise _Refused("invalid_key", f"mapping key {key!r} must be a string", *_mark(key_event), hint=f'quote it: "{key}"')
                if key in mapping:
                    line, column = _mark(key_event)
                    raise _Refused("duplicate_key", f"duplicate key {key!r} (line {line})", line, column, hint="each key may appear once in a mapping")
                child_path = path + [key]
                value_event = next(self.events)
                mapping[key] = self._node(value_event, child_path, depth + 1)
                # A key's own position is more useful than its value's for messages.
                self.positions[pointer(*child_path)] = _mark(key_event)
        raise _Refused("syntax", "unexpected YAML structure", *_mark(event))


def _mark(event) -> tuple[int, int]:
    mark = event.start_mark
    return mark.line + 1, mark.column + 1


def _resolve_scalar(event) -> Any:
    value = event.value
    if not event.implicit[0]:
        return value  # quoted or block scalar: always a string
    if _NULL.match(value):
        return None
    if _TRUE.match(value):
        return True
    if _FALSE.match(value):
        return False
    if _INT10.match(value):
        return int(value)
    if _INT8.match(value):
        return int(value[2:], 8)
    if _INT16.match(value):
        return int(value[2:], 16)
    if _FLOAT.match(value):
        number = float(value)
        if math.isinf(number):
            raise _Refused("invalid_number", f"{value} is too large to be a number", *_mark(event), hint="quote it to keep it as text")
        return number
    if _INF.match(value) or _NAN.match(value):
        raise _Refused("invalid_number", f"{value} has no JSON equivalent", *_mark(event), hint="quote it to keep it as text")
    return value
