"""Canonical YAML and JSON for workflow documents.

Canonical means: the spec's field order, block style, multi-line strings as
literal blocks, quoting only where a plain scalar would read back as another
type, and the same bytes for the same document. ``resultSchema`` and other
free-form maps keep their own key order.

When the document came from text, pass that text as ``source``: nodes that are
unchanged keep their comments (and their quoting), through ruamel.yaml's
round-trip tree. Anchors, aliases and merge keys of the source are not kept:
the output spells every value out (as the document holds it, merged), so any
YAML reader reads it the same.
"""
from __future__ import annotations

import io
import json
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError
from ruamel.yaml.scalarstring import DoubleQuotedScalarString, LiteralScalarString

from designer.emitter import emit, literal_ok, reads_back_as_other_type
from designer.schema import AGENT_FIELDS, DOCUMENT_FIELDS, LOOP_FIELDS, OPTION_FIELDS, STEP_FIELDS

_MISSING = object()


def _ordered(mapping: dict, order: list[str]) -> dict:
    out = {k: mapping[k] for k in order if k in mapping}
    out.update((k, v) for k, v in mapping.items() if k not in out)
    return out


def canonical(document: Any) -> Any:
    """The document with every known object's keys in the spec's order."""
    if not isinstance(document, dict):
        return document
    doc = _ordered(document, DOCUMENT_FIELDS)
    if type(doc.get("version")) is int and doc["version"] == 0:
        doc["version"] = 1  # read as 1, as zenflow's runner reads it; written as 1 so what we export passes the schema
    if isinstance(doc.get("agents"), dict):
        doc["agents"] = {name: _ordered(a, AGENT_FIELDS) if isinstance(a, dict) else a for name, a in doc["agents"].items()}
    if isinstance(doc.get("steps"), list):
        doc["steps"] = [_step(s) for s in doc["steps"]]
    if isinstance(doc.get("options"), dict):
        doc["options"] = _ordered(doc["options"], OPTION_FIELDS)
    return doc


def _step(step: Any) -> Any:
    if not isinstance(step, dict):
        return step
    out = _ordered(step, STEP_FIELDS)
    loop = out.get("loop")
    if isinstance(loop, dict):
        loop = _ordered(loop, LOOP_FIELDS)
        if isinstance(loop.get("steps"), list):
            loop["steps"] = [_step(s) for s in loop["steps"]]
        out["loop"] = loop
    return out


def dump_json(document: Any) -> str:
    return json.dumps(canonical(document), indent=2, ensure_ascii=False) + "\n"


def _yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.width = 1_000_000  # never fold long lines: folding changes nothing but diffs badly
    yaml.preserve_quotes = True
    yaml.default_flow_style = False
    return yaml


def dump_yaml(document: Any, source: str | None = None) -> str:
    """Canonical YAML; with ``source``, comments of unchanged nodes survive."""
    tree = None
    if source is not None and "#" in source:  # only a source with comments needs the slow round trip
        tree = _round_trip_tree(source)
    if tree is None:
        return emit(canonical(document))
    node = _merge(tree, canonical(document))
    stream = io.StringIO()
    _yaml().dump(node, stream)
    return stream.getvalue()


def _round_trip_tree(source: str) -> Any:
    try:
        return _yaml().load(source)
    except (YAMLError, Exception):  # comments are a courtesy: fall back to a fresh rendering
        return None


def _merge(old: Any, new: Any) -> Any:
    if isinstance(new, dict):
        out = CommentedMap()
        old_map = old if isinstance(old, CommentedMap) else None
        for key, value in new.items():
            out[key] = _merge(old_map[key] if old_map is not None and key in old_map else _MISSING, value)
        if old_map is not None:
            _copy_comments(old_map, out, {k: k for k in new if k in old_map})
        return out
    if isinstance(new, list):
        seq = CommentedSeq()
        old_seq = old if isinstance(old, CommentedSeq) else None
        matches = _match_items(old_seq, new) if old_seq is not None else {}
        for i, value in enumerate(new):
            j = matches.get(i)
            seq.append(_merge(old_seq[j] if old_seq is not None and j is not None else _MISSING, value))
        if old_seq is not None:
            _copy_comments(old_seq, seq, {j: i for i, j in matches.items()})
        if not new:
            seq.fa.set_flow_style()
        return seq
    if old is not _MISSING and _same_scalar(old, new) and not _anchored(old):
        return old
    return _scalar(new)


def _anchored(node: Any) -> bool:
    """A scalar that carries a YAML anchor: reused, it would be written with its anchor, and as an alias
    wherever else the source repeated it. Written afresh, the output is plain YAML."""
    anchor = getattr(node, "anchor", None)
    return getattr(anchor, "value", None) is not None


def _match_items(old: CommentedSeq, new: list) -> dict[int, int]:
    """Pair new list items with old ones: steps by id, other items by position."""
    old_ids = {item.get("id"): j for j, item in enumerate(old) if isinstance(item, dict) and isinstance(item.get("id"), str)}
    matches: dict[int, int] = {}
    for i, item in enumerate(new):
        if isinstance(item, dict) and isinstance(item.get("id"), str):
            if item["id"] in old_ids:
                matches[i] = old_ids[item["id"]]
        elif i < len(old):
            matches[i] = i
    return matches


def _copy_comments(old: CommentedMap | CommentedSeq, new: CommentedMap | CommentedSeq, key_map: dict) -> None:
    if getattr(old.ca, "comment", None):
        new.ca.comment = old.ca.comment
    for old_key, new_key in key_map.items():
        if old_key in old.ca.items:
            new.ca.items[new_key] = old.ca.items[old_key]
    if getattr(old.ca, "end", None):
        new.ca.end = old.ca.end


def _same_scalar(old: Any, new: Any) -> bool:
    if isinstance(old, (CommentedMap, CommentedSeq)):
        return False
    if isinstance(new, bool) or isinstance(old, bool):
        return isinstance(new, bool) and isinstance(old, bool) and bool(old) == new
    if isinstance(new, str):
        return isinstance(old, str) and str(old) == new
    if isinstance(new, (int, float)) and isinstance(old, (int, float)):
        return type(new) is type(int(old) if isinstance(old, int) else float(old)) and old == new
    return old is None and new is None


def _scalar(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    if literal_ok(value):
        return LiteralScalarString(value)
    if reads_back_as_other_type(value) or not value.isprintable():
        # Non-printables (NEL, line separators, controls) must be escaped to survive.
        return DoubleQuotedScalarString(value)
    return value
