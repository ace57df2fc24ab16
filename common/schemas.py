"""What every API answer shares: the error body and the number type. Each app's answers are in its own schemas.py.

The API's answers are declared as ninja Schemas so that the OpenAPI document (and the front end's types, generated
from it: ``frontend/src/api/openapi.gen.ts``) says what each route returns. The wire stays what the views return:
a Schema keeps its fields in the order the services write them, and an open-ended part (a document, an event's
data) is ``dict[str, Any]`` or ``Any``, passed through as it is; an event or a diagnostic is such a dict, shown in the
document with the fields it is known to have (:class:`PassedThrough`).
"""
from __future__ import annotations

from typing import Any, Optional, Union

from ninja import Schema
from pydantic import GetJsonSchemaHandler, TypeAdapter
from pydantic.json_schema import CoreRef

# A JSON number that may be an int or a float: pydantic keeps which (a `float` field would write 0 as 0.0).
Number = Union[int, float]


class ErrorOut(Schema):
    """Every error answer (designer/errors.py maps each domain error once): `detail` says what is wrong in words;
    some carry more."""

    detail: str
    errors: Optional[list[dict[str, Any]]] = None       # 422 an invalid request: each problem of the body or query
    diagnostics: Optional[list[dict[str, Any]]] = None  # 422 an invalid document where a valid one is needed
    limit: Optional[str] = None                         # 429 the workspace limit that is used up
    retryAfterSeconds: Optional[int] = None             # 429 when it frees up (also the Retry-After header)


class PassedThrough:
    """``Annotated[dict[str, Any], PassedThrough(Shape)]``: an answer (or a part of one) checked and written as the plain
    dict the service made, every key in its order and at a dict's cost, and shown in the OpenAPI document as the named
    schema ``Shape`` (an event, a diagnostic: open-ended, with a known core)."""

    def __init__(self, shape: Any) -> None:
        self.shape = shape  # a model or a TypedDict (whose keys may be what no Python name can be: `class`)

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: GetJsonSchemaHandler) -> dict[str, Any]:
        own: Any = TypeAdapter(self.shape).core_schema
        shown = handler(own)
        ref = (own.get("schema", {}) if own["type"] == "definitions" else own).get("ref")
        generator = getattr(handler, "generate_json_schema", None)
        if ref is None or generator is None:  # pydantic changed: shown inline (the checked-in document then differs)
            return shown
        # Named, as a model is: a definition the OpenAPI document lists once, referred to where it is used.
        defs_ref, ref_schema = generator.get_cache_defs_ref_schema(CoreRef(ref))
        generator.definitions[defs_ref] = shown
        return ref_schema


def errors(*codes: int) -> dict[int, type[ErrorOut]]:
    """The error answers a route documents, for its ``response=``: ``{200: RunOut, **errors(401, 404)}``."""
    return {code: ErrorOut for code in codes}


def file_answer(media_type: str, what: str) -> dict[str, Any]:
    """``openapi_extra`` for a route that answers a file (a zip, a YAML download), not JSON."""
    return {"responses": {200: {"description": what,
                                "content": {media_type: {"schema": {"type": "string", "format": "binary"}}}}}}
