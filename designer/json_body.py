"""Request bodies: JSON as the standard defines it, so nothing a body holds fails later.

Python's json module accepts NaN, Infinity and numbers too large for a float (they
become inf); none of them is JSON, and storing or re-emitting them fails deep inside
a save or a render. Nor can every JSON string be stored: a lone surrogate (``\\ud800``)
is not Unicode text and PostgreSQL refuses NUL. Nesting is bounded too, so nothing
later recurses past Python's limit. All refused here, with the reason and the place, as a 400.
"""
from __future__ import annotations

import json
import math
from typing import Any, Never

import orjson
from django.conf import settings
from django.http import HttpRequest
from ninja.parser import Parser

from designer.source import value_problem

# Deeper than any document may be (200 levels), with room for the body around it.
MAX_BODY_DEPTH = 256
# Values (objects, arrays, scalars) in one body: a document's 50,000 and room around it.
MAX_BODY_VALUES = 200_000


class BodyError(ValueError):
    """Why a request body is not acceptable JSON (shown to the client as it is)."""


def body_too_large(size: int | None, limit: int | None = None) -> str:
    """The answer to a body over the limit, naming the limit."""
    limit = settings.REQUEST_MAX_BYTES if limit is None else limit
    named = f"{limit / 1024 / 1024:g} MiB ({limit:,} bytes)"
    if size is None:
        return f"the request body is larger than the limit of {named}"
    return f"the request body is {size:,} bytes; the limit is {named}"


def _constant(name: str) -> Never:
    raise BodyError(f"invalid JSON body: {name} is not a JSON number")


def _number(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BodyError(f"invalid JSON body: the number {text[:40]} is out of range")
    return value


def _where(body: bytes) -> str:
    """' at line L, column C' where a C parser gives up on ``body`` (orjson stops at depth 1,024
    and at numbers beyond a double), or '' when it does not."""
    try:
        orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        return f" at line {exc.lineno}, column {exc.colno}"
    return ""


def _surely_too_many_values(body: bytes) -> bool:
    """True when ``body`` holds more than MAX_BODY_VALUES values, told from its bytes before any object is made.

    Once blanks are gone, every member of an object is a key's closing quote then a colon. A quote
    then a colon that is not that is a quote inside a string (always escaped: ``\\":``) or the
    opening quote of a string starting with a colon (after ``{ [ , :`` or at the start). Taking all
    of those away counts members from below, so refusing on it refuses nothing the walk in
    :func:`parse_json_body` accepts, in milliseconds instead of the quarter of a second (holding the
    interpreter) that building and walking 200,000 values takes.
    """
    if body.count(b":") < MAX_BODY_VALUES:  # colons anywhere: more than the members
        return False
    compact = body.translate(None, b" \t\r\n")
    members = compact.count(b'":') - sum(compact.count(before + b'":') for before in (b"\\", b"{", b"[", b",", b":"))
    members -= compact.startswith(b'":')
    return 1 + members > MAX_BODY_VALUES


def parse_json_body(body: bytes) -> object:
    if _surely_too_many_values(body):
        raise BodyError(f"invalid JSON body: the body holds more than {MAX_BODY_VALUES:,} values")
    try:
        value = json.loads(body, parse_constant=_constant, parse_float=_number)
    except json.JSONDecodeError as exc:
        raise BodyError(f"invalid JSON body: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    except UnicodeDecodeError:
        raise BodyError("invalid JSON body: not UTF-8 text") from None
    except RecursionError:
        raise BodyError(f"invalid JSON body: nested more than {MAX_BODY_DEPTH} levels deep{_where(body)}") from None
    except BodyError:
        raise
    except ValueError:  # an integer past Python's 4,300-digit conversion limit
        raise BodyError(f"invalid JSON body: a number too large for JSON readers (over 1.8e308){_where(body)}") from None
    problem = value_problem(value, max_depth=MAX_BODY_DEPTH, max_values=MAX_BODY_VALUES)
    if problem is not None:
        where = problem.where if problem.path else "the body"
        raise BodyError(f"invalid JSON body: {where} {problem.message}")
    return value


class StrictJsonParser(Parser):
    def parse_body(self, request: HttpRequest) -> Any:
        return parse_json_body(request.body)
