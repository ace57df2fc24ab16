"""Request bodies: JSON as the standard defines it, so nothing a body holds fails later.

Python's json module accepts NaN, Infinity and numbers too large for a float (they
become inf); none of them is JSON, and storing or re-emitting them fails deep inside
a save or a render. Refused here, with the reason, as a 400.
"""
from __future__ import annotations

import json
import math

from ninja.parser import Parser


class BodyError(ValueError):
    """Why a request body is not acceptable JSON (shown to the client as it is)."""


def _constant(name: str):
    raise BodyError(f"invalid JSON body: {name} is not a JSON number")


def _number(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BodyError(f"invalid JSON body: the number {text[:40]} is out of range")
    return value


class StrictJsonParser(Parser):
    def parse_body(self, request):
        try:
            return json.loads(request.body, parse_constant=_constant, parse_float=_number)
        except json.JSONDecodeError as exc:
            raise BodyError(f"invalid JSON body: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
        except UnicodeDecodeError:
            raise BodyError("invalid JSON body: not UTF-8 text") from None
