"""Turn workflow text (YAML or JSON) into a plain document, with positions.

YAML is read as a stream of libyaml events and built here, not by a YAML
library's constructor, for three reasons: anchors, aliases and merge keys
(``<<``) are resolved as the reference runner's parser resolves them, each alias
counted as the values it repeats while it is built (so an alias bomb stops at
the value cap, never expanded further), and tags are refused; duplicate keys
are caught with their line; and every node's line and column is recorded under
its JSON pointer so a diagnostic can point at the source (content an alias or
merge key repeats is placed at the alias). Plain scalars resolve by the YAML
1.2 core schema, as the reference runner reads them (``yes`` stays a string).
A file holds one document; empty documents after it (a trailing ``---``) are
read past, as the reference runner reads only the first.

Text and data alike are held to caps checked while reading, before anything recurses:
size, depth, number of values, and only values a store and any JSON reader can hold
(no NUL, no lone surrogate, no number beyond a double).
"""
from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NoReturn, Protocol

import yaml

from designer.diagnostics import Diagnostic, pointer

MAX_DOCUMENT_BYTES = 1024 * 1024
# Mappings, lists and scalars in one document. Reading costs per value, so this (and not only
# the size in bytes) bounds the work: a 1 MiB flow list of 250,000 numbers takes seconds to read.
MAX_VALUES = 50_000
MAX_DEPTH = 200
# The largest number a JSON reader anywhere can hold; the same bound as request bodies.
LARGEST_NUMBER = sys.float_info.max
# Integer text longer than this is refused before converting it: past 309 digits no JSON reader
# holds the number, and past 4,300 Python refuses the conversion itself (ValueError).
_MAX_INT_DIGITS = 400

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


class _Marked(Protocol):
    start_mark: Any  # a yaml Mark; None only on events not made by the parser


class _Scalar(_Marked, Protocol):
    """A yaml ScalarEvent, or a stand-in with the same fields (the emitter's)."""

    value: str
    implicit: tuple[bool, bool]


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
    def __init__(self, code: str, message: str, line: int | None, column: int | None, hint: str | None = None) -> None:
        super().__init__(message)
        self.diagnostic = Diagnostic(code=code, message=message, line=line, column=column, hint=hint, cls="validation")

    @classmethod
    def of(cls, diagnostic: Diagnostic) -> _Refused:
        refused = cls(diagnostic.code, diagnostic.message, diagnostic.line, diagnostic.column)
        refused.diagnostic = diagnostic
        return refused


def detect_format(text: str) -> str:
    stripped = text.lstrip()
    return "json" if stripped[:1] in ("{", "[") else "yaml"


def parse_text(source: str | bytes, max_values: int = MAX_VALUES) -> ParsedText:
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
    elif not source.isascii() and (surrogate := _LONE_SURROGATE.search(source)):
        return _fail("encoding", "the document is not Unicode text: it holds a lone surrogate "
                     f"(\\u{ord(surrogate.group()):04x}), which no file can store")
    if source.startswith("\ufeff"):
        source = source[1:]
    if not source.strip():
        return _fail("empty_document", "the document is empty", hint="start with `name:` and `steps:`")
    fmt = detect_format(source)
    try:
        if fmt == "json":
            document, positions = _parse_json(source, max_values)
        else:
            document, positions = _EventBuilder(source, max_values).build()
        _refuse_unstorable(document, positions, max_values)
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


def read_object(document: Any) -> ParsedText:
    """A document given as data (the API's `document`), held to the caps text is held to.

    Its size is that of its compact JSON in UTF-8, the form it is stored in. Anything but a
    mapping is left to the validator, which names the wrong type.
    """
    problem = value_problem(document, max_depth=MAX_DEPTH, max_values=MAX_VALUES)
    if problem is not None:
        return ParsedText(diagnostics=[problem.diagnostic()], format="json")
    size = len(json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
    if size > MAX_DOCUMENT_BYTES:
        return _fail("too_large", f"the document is {size:,} bytes as JSON; the limit is 1 MiB ({MAX_DOCUMENT_BYTES:,} bytes)")
    return ParsedText(document=document, format="json")


# ---------------------------------------------------------------- values a store can hold

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass
class ValueProblem:
    """The first value that cannot be stored or read back, with where it is."""

    code: str
    path: str
    message: str

    @property
    def where(self) -> str:
        if not self.path:
            return "the document"
        # A pointer 200 levels deep says no more than its start does.
        return f"`{self.path if len(self.path) <= 80 else self.path[:80] + '...'}`"

    def diagnostic(self, positions: Positions | None = None) -> Diagnostic:
        line, column = _nearest(positions or {}, self.path)
        return Diagnostic(code=self.code, message=f"{self.where} {self.message}", path=self.path, line=line, column=column)


def _text_problem(text: str) -> str | None:
    if "\x00" in text:
        return "holds a NUL character (\\u0000), which cannot be stored"
    if not text.isascii():
        found = _LONE_SURROGATE.search(text)
        if found:
            return f"holds a lone surrogate (\\u{ord(found.group()):04x}), which is not Unicode text"
    return None


def value_problem(value: Any, *, max_depth: int, max_values: int) -> ValueProblem | None:
    """Walk JSON-like data without recursion: the first problem, or None.

    Refused: nesting deeper than ``max_depth``, more than ``max_values`` values, text that
    UTF-8 or PostgreSQL cannot hold (lone surrogates, NUL), numbers beyond a double
    (not finite, or integers too large for any JSON reader), and anything that is not JSON.
    """
    stack: list[tuple[Any, int, Any]] = [(value, 0, None)]
    counted = 1
    while stack:
        node, depth, trail = stack.pop()
        if depth > max_depth:
            return ValueProblem("too_deep", _trail_pointer(trail), f"is nested more than {max_depth} levels deep")
        if isinstance(node, str):
            reason = _text_problem(node)
            if reason:
                return ValueProblem("invalid_text", _trail_pointer(trail), reason)
        elif isinstance(node, dict):
            counted += len(node)
            if counted > max_values:
                return ValueProblem("too_large", "", f"holds more than {max_values:,} values")
            children = []
            for key, item in node.items():
                if not isinstance(key, str):
                    return ValueProblem("not_json", _trail_pointer((trail, key)), "has a key that is not text")
                reason = _text_problem(key)
                if reason:
                    return ValueProblem("invalid_text", _trail_pointer((trail, key)), "has a key that " + reason)
                children.append((item, depth + 1, (trail, key)))
            stack.extend(reversed(children))
        elif isinstance(node, list):
            counted += len(node)
            if counted > max_values:
                return ValueProblem("too_large", "", f"holds more than {max_values:,} values")
            stack.extend((node[i], depth + 1, (trail, i)) for i in range(len(node) - 1, -1, -1))
        elif node is None or isinstance(node, bool):
            continue
        elif isinstance(node, int):
            if abs(node) > LARGEST_NUMBER:
                return ValueProblem("invalid_number", _trail_pointer(trail), "is a number too large for JSON readers (over 1.8e308)")
        elif isinstance(node, float):
            if not math.isfinite(node):
                return ValueProblem("invalid_number", _trail_pointer(trail), f"is {node}, which has no JSON equivalent")
        else:
            return ValueProblem("not_json", _trail_pointer(trail), f"is a {type(node).__name__}, not a JSON value")
    return None


def _trail_pointer(trail: Any) -> str:
    parts = []
    while trail is not None:
        trail, key = trail
        parts.append(key)
    # The pointer is shown and sent back as text: a key that is itself not text is written escaped.
    return pointer(*reversed(parts)).encode("utf-8", "backslashreplace").decode("utf-8")


def _nearest(positions: Positions, path: str) -> tuple[int | None, int | None]:
    while True:
        if path in positions:
            return positions[path]
        if not path:
            return None, None
        path = path.rsplit("/", 1)[0]


def _refuse_unstorable(document: Any, positions: Positions, max_values: int) -> None:
    problem = value_problem(document, max_depth=MAX_DEPTH, max_values=max_values)
    if problem is not None:
        raise _Refused.of(problem.diagnostic(positions))


def _kind_name(kind: str) -> str:
    return {"list": "a list", "str": "a string", "int": "a number", "float": "a number", "bool": "a boolean", "empty": "nothing"}.get(kind, kind)


def _fail(code: str, message: str, hint: str | None = None) -> ParsedText:
    return ParsedText(diagnostics=[Diagnostic(code=code, message=message, hint=hint, line=None, column=None)])


# ---------------------------------------------------------------- JSON


# Refusals of the YAML reader that hold for JSON text too (JSON is YAML): the others (a tab
# libyaml does not take, a key over 1,024 characters) are left to the JSON parser.
_STRUCTURAL = ("too_deep", "too_large", "invalid_number")


def _parse_json(text: str, max_values: int = MAX_VALUES) -> tuple[Any, Positions]:
    # The event reader goes first: it stops at the depth and value caps with a line, before
    # the JSON parser (which recurses) sees the text, and its positions serve diagnostics.
    try:
        _, positions = _EventBuilder(text, max_values).build()
    except _Refused as refused:
        if refused.diagnostic.code in _STRUCTURAL:
            raise
        positions = {}

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in items:
            if key in out:
                raise _Refused("duplicate_key", f"duplicate key {key!r}", *_find_key(text, key))
            out[key] = value
        return out

    def bad_constant(name: str) -> NoReturn:
        raise _Refused("invalid_number", f"{name} is not a JSON number", None, None)

    try:
        document = json.loads(text, object_pairs_hook=pairs, parse_constant=bad_constant)
    except json.JSONDecodeError as exc:
        raise _Refused("syntax", f"JSON syntax error: {exc.msg}", exc.lineno, exc.colno) from None
    except RecursionError:
        raise _Refused("too_deep", f"the document is nested more than {MAX_DEPTH} levels deep", None, None) from None
    except ValueError as exc:  # an integer past Python's conversion limit
        raise _Refused("invalid_number", f"a number in the document is too large: {exc}", None, None,
                       hint="quote it to keep it as text") from None
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


class _EventBuilder:
    """Builds the document from libyaml's events, resolving anchors, aliases and merge keys.

    When the text has anchors, every event read is kept on a tape; an anchored node is
    remembered as its stretch of the tape, and an alias reads that stretch again where it
    stands (so each use is a new value, counted against the value cap as it is built: an alias
    bomb stops at the cap, never expanded further). A node reached through an alias is placed
    at the alias, where the repeated value enters the document.
    """

    def __init__(self, text: str, max_values: int = MAX_VALUES) -> None:
        self.text = text
        self.positions: Positions = {}
        self.max_values = max_values
        self.values = 0
        self.tape: list[yaml.Event] = []
        self.at = -1  # the tape index of the event last read
        self.anchors: dict[str, tuple[int, int]] = {}  # anchor -> its node's stretch of the tape
        self.open_anchors: set[str] = set()  # anchors whose node is still being read
        self.targets: dict[int, tuple[int, int]] = {}  # an alias's tape index -> the stretch it named
        self.replaying: list[Iterator[int]] = []

    def build(self) -> tuple[Any, Positions]:
        try:
            events = iter(yaml.parse(self.text, Loader=yaml.CSafeLoader))
            # Without an anchor in the text there is nothing to read again: no tape.
            self._read = self._read_recorded if "&" in self.text else events.__next__
            self.events = events
            self._expect(yaml.StreamStartEvent)
            first = self._read()
            if isinstance(first, yaml.StreamEndEvent):
                return None, self.positions
            if not isinstance(first, yaml.DocumentStartEvent):
                raise _Refused("syntax", "unexpected YAML structure", *_mark(first))
            value = self._node(self._read(), "", 0)
            self._expect(yaml.DocumentEndEvent)
            self._end_of_stream()
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

    def _end_of_stream(self) -> None:
        """After the document: the end, or empty documents only (``---`` and nothing after it, as the
        reference runner reads one document and no more)."""
        while True:
            event = self._read()
            if isinstance(event, yaml.StreamEndEvent):
                return
            content = self._read() if isinstance(event, yaml.DocumentStartEvent) else None
            empty = isinstance(content, yaml.ScalarEvent) and content.value == "" and content.implicit[0] \
                and not content.anchor and not content.tag
            if not empty or not isinstance(self._read(), yaml.DocumentEndEvent):
                raise _Refused(
                    "multiple_documents",
                    "the file holds more than one YAML document; a workflow is one document",
                    *_mark(event),
                    hint="remove the `---` separator and what follows it",
                )

    def _read_recorded(self) -> yaml.Event:
        """The next event: from the text (kept on the tape), or from the tape while an alias is read again."""
        if self.replaying:
            self.at = next(self.replaying[-1])
            return self.tape[self.at]
        event = next(self.events)
        self.tape.append(event)
        self.at = len(self.tape) - 1
        return event

    def _expect(self, kind: type[yaml.Event]) -> yaml.Event:
        event = self._read()
        if not isinstance(event, kind):
            raise _Refused("syntax", "unexpected YAML structure", *_mark(event))
        return event

    def _refuse_tag(self, event: yaml.Event) -> None:
        tag = getattr(event, "tag", None)
        if tag and tag != "!":
            raise _Refused("yaml_tag", f"YAML tags ({tag}) are not allowed in workflows", *_mark(event), hint="remove the tag")
        if tag == "!":
            raise _Refused("yaml_tag", "YAML tags (!) are not allowed in workflows", *_mark(event), hint="remove the tag")

    def _target(self, alias: yaml.AliasEvent) -> tuple[int, int]:
        """The stretch of the tape an alias names: the node its anchor was last given to before it."""
        if self.replaying:
            return self.targets[self.at]
        name = alias.anchor or ""
        if name in self.open_anchors:
            raise _Refused("yaml_alias", f"the alias *{name} is inside the value it names, which would never end",
                           *_mark(alias), hint=f"move *{name} out of the value anchored &{name}")
        if name not in self.anchors:
            raise _Refused("yaml_alias", f"the alias *{name} names no anchor before it", *_mark(alias),
                           hint=f"anchor a value with &{name} above this line, or write the value out")
        self.targets[self.at] = self.anchors[name]
        return self.anchors[name]

    def _node(self, event: yaml.Event, ptr: str, depth: int, at: tuple[int, int] | None = None) -> Any:
        """The value ``event`` starts, at JSON pointer ``ptr``; ``at``: where it is placed when an alias
        brought it."""
        if depth > MAX_DEPTH:
            raise _Refused("too_deep", f"the document is nested more than {MAX_DEPTH} levels deep", *_mark(event))
        if isinstance(event, yaml.AliasEvent):
            start, end = self._target(event)
            self.replaying.append(iter(range(start + 1, end)))
            self.at = start
            try:
                return self._node(self.tape[start], ptr, depth, at or _mark(event))
            finally:
                self.replaying.pop()
        self.values += 1
        if self.values > self.max_values:
            raise _Refused("too_large", f"the document holds more than {self.max_values:,} values "
                           "(an alias counts as the values it repeats)", *_mark(event),
                           hint="split it into included sub-workflows")
        if getattr(event, "tag", None):
            self._refuse_tag(event)
        anchor = getattr(event, "anchor", None)
        if anchor and not self.replaying:
            start = self.at
            self.open_anchors.add(anchor)
            value = self._value(event, ptr, depth, at)
            self.open_anchors.discard(anchor)
            self.anchors[anchor] = (start, len(self.tape))
            return value
        return self._value(event, ptr, depth, at)

    def _value(self, event: yaml.Event, ptr: str, depth: int, at: tuple[int, int] | None) -> Any:
        self.positions[ptr] = at or _mark(event)
        if isinstance(event, yaml.ScalarEvent):
            try:
                return _resolve_scalar(event)
            except _Refused as refused:
                refused.diagnostic.path = ptr
                raise
        if isinstance(event, yaml.SequenceStartEvent):
            items: list[Any] = []
            read = self._read
            while True:
                child = read()
                if isinstance(child, yaml.SequenceEndEvent):
                    return items
                items.append(self._node(child, f"{ptr}/{len(items)}", depth + 1, at))
        if isinstance(event, yaml.MappingStartEvent):
            return self._mapping(ptr, depth, at)
        raise _Refused("syntax", "unexpected YAML structure", *_mark(event))

    def _mapping(self, ptr: str, depth: int, at: tuple[int, int] | None) -> dict[str, Any]:
        mapping: dict[str, Any] = {}
        explicit: set[str] = set()  # keys written here, as opposed to merged in by `<<`
        merged = False
        read = self._read
        while True:
            key_event = read()
            if isinstance(key_event, yaml.MappingEndEvent):
                return mapping
            if not isinstance(key_event, yaml.ScalarEvent):
                self._refuse_tag(key_event)
                raise _Refused("invalid_key", "mapping keys must be plain strings", *_mark(key_event))
            if key_event.tag:
                self._refuse_tag(key_event)
            if key_event.anchor and not self.replaying:
                self.anchors[key_event.anchor] = (self.at, self.at + 1)
            key = key_event.value
            if key_event.implicit[0]:
                if key == "<<":
                    if merged:
                        line, column = _mark(key_event)
                        raise _Refused("duplicate_key", f"duplicate merge key '<<' (line {line})", line, column,
                                       hint="merge several mappings with one key: `<<: [*a, *b]`")
                    merged = True
                    self._merge_into(mapping, explicit, ptr, depth, at, at or _mark(key_event))
                    continue
                if not isinstance(_resolve_scalar(key_event), str):
                    raise _Refused("invalid_key", f"mapping key {key!r} must be a string", *_mark(key_event), hint=f'quote it: "{key}"')
            if key in explicit:
                line, column = _mark(key_event)
                raise _Refused("duplicate_key", f"duplicate key {key!r} (line {line})", line, column, hint="each key may appear once in a mapping")
            explicit.add(key)
            child = f"{ptr}/{_escape(key)}"
            mapping[key] = self._node(read(), child, depth + 1, at)
            # A key's own position is more useful than its value's for messages.
            self.positions[child] = at or _mark(key_event)

    def _merge_into(self, mapping: dict, explicit: set[str], ptr: str, depth: int, at: tuple[int, int] | None,
                    key_at: tuple[int, int]) -> None:
        """A merge key's value (a mapping, an alias of one, or a list of them): its keys join ``mapping``
        unless written there; of several mappings, the first to give a key gives it."""
        event = self._read()
        sources = []
        if isinstance(event, yaml.SequenceStartEvent) and not event.anchor:
            self._refuse_tag(event)
            while not isinstance(item := self._read(), yaml.SequenceEndEvent):
                sources.append(self._merge_source(item, ptr, depth, at))
        else:
            sources.append(self._merge_source(event, ptr, depth, at))
        for source, positions in sources:
            taken = {f"{ptr}/{_escape(key)}" for key in source if key not in explicit and key not in mapping}
            for key, value in source.items():
                if key not in explicit and key not in mapping:
                    mapping[key] = value
            for place, mark in positions.items():
                cut = place.find("/", len(ptr) + 1)
                if (place[:cut] if cut != -1 else place) in taken:
                    self.positions[place] = mark
        for key in mapping:
            if key not in explicit:
                self.positions.setdefault(f"{ptr}/{_escape(key)}", key_at)

    def _merge_source(self, event: yaml.Event, ptr: str, depth: int,
                      at: tuple[int, int] | None) -> tuple[dict, Positions]:
        """One mapping a merge key names, read at ``ptr`` with its positions kept apart."""
        kept, self.positions = self.positions, {}
        try:
            value = self._node(event, ptr, depth, at)
        finally:
            positions, self.positions = self.positions, kept
        if not isinstance(value, dict):
            raise _Refused("yaml_merge_key", "a merge key (<<) takes a mapping, an alias of one, or a list of them, "
                           f"not {_kind_name(type(value).__name__ if value is not None else 'empty')}", *_mark(event),
                           hint="write `<<: *name` where &name anchors a mapping")
        return value, positions


def _escape(key: str) -> str:
    """A key as one JSON pointer token (as :func:`designer.diagnostics.pointer` writes it)."""
    return key.replace("~", "~0").replace("/", "~1") if "~" in key or "/" in key else key


def _integer(value: str, event: _Scalar) -> int:
    base = {"0o": 8, "0x": 16}.get(value[:2], 10)
    # Bounded before converting: Python refuses (ValueError) past 4,300 decimal digits, and
    # nothing past a double's range survives a JSON reader anyway.
    number = int(value[2:] if base != 10 else value, base) if len(value) <= _MAX_INT_DIGITS else None
    if number is None or abs(number) > LARGEST_NUMBER:
        digits = f"{len(value):,}-character" if number is None else "huge"
        raise _Refused("invalid_number", f"the {digits} integer is too large to be a number (over 1.8e308)", *_mark(event),
                       hint="quote it to keep it as text")
    return number


def _mark(event: _Marked) -> tuple[int, int]:
    mark = event.start_mark
    return mark.line + 1, mark.column + 1


def _resolve_scalar(event: _Scalar) -> Any:
    value = event.value
    if not event.implicit[0]:
        return value  # quoted or block scalar: always a string
    if _NULL.match(value):
        return None
    if _TRUE.match(value):
        return True
    if _FALSE.match(value):
        return False
    if _INT10.match(value) or _INT8.match(value) or _INT16.match(value):
        return _integer(value, event)
    if _FLOAT.match(value):
        number = float(value)
        if math.isinf(number):
            raise _Refused("invalid_number", f"{value} is too large to be a number", *_mark(event), hint="quote it to keep it as text")
        return number
    if _INF.match(value) or _NAN.match(value):
        raise _Refused("invalid_number", f"{value} has no JSON equivalent", *_mark(event), hint="quote it to keep it as text")
    return value
