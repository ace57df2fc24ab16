"""The front end's API types are generated from the OpenAPI document (every route's answer a ninja Schema) and checked
in: frontend/src/api/openapi.json and openapi.gen.ts never drift from the API (`make api-types` regenerates them)."""
from __future__ import annotations

import json
from typing import Any

from runtime.management.commands.api_types import DOCUMENT, TARGET_DIR, TYPES, openapi_document, write_files

STALE = "is out of date: run `make api-types` (manage.py api_types --write)"


def test_the_checked_in_openapi_document_is_the_one_the_api_makes():
    assert (TARGET_DIR / DOCUMENT).read_text() == openapi_document(), f"frontend/src/api/{DOCUMENT} {STALE}"


def test_the_checked_in_typescript_types_are_what_openapi_typescript_makes_of_it(tmp_path):
    # The same steps as `make api-types` (frontend's `npm run api-types`, its openapi-typescript), into a temp dir.
    write_files(tmp_path)
    assert (tmp_path / TYPES).read_text() == (TARGET_DIR / TYPES).read_text(), f"frontend/src/api/{TYPES} {STALE}"


# ---------------------------------------------------------------- every answer says what it is

FILE = {"type": "string", "format": "binary"}


def _named(schema: dict[str, Any], components: dict[str, Any]) -> bool:
    """A reference to a component with fields, an array of them, or one of several."""
    if "$ref" in schema:
        target = components.get(schema["$ref"].rsplit("/", 1)[-1], {})
        return bool(target.get("properties"))
    if schema.get("type") == "array":
        return _named(schema.get("items", {}), components)
    if "anyOf" in schema:
        return all(_named(s, components) for s in schema["anyOf"])
    return False


def untyped_answers(document: dict[str, Any]) -> list[str]:
    """Each route whose success answer is not a named schema with fields (a JSON answer) or a file (binary)."""
    components = document.get("components", {}).get("schemas", {})
    found = []
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            where = f"{method.upper()} {path}"
            ok = {code: answer for code, answer in operation["responses"].items() if str(code).startswith("2")}
            if not ok:
                found.append(f"{where}: no success answer")
            for code, answer in ok.items():
                content = answer.get("content") or {}
                if str(code) == "204":
                    found += [f"{where} {code}: a body"] if content else []
                    continue
                if not content:
                    found.append(f"{where} {code}: no body")
                for media, body in content.items():
                    schema = body.get("schema", {})
                    typed = _named(schema, components) if media == "application/json" else schema == FILE
                    found += [] if typed else [f"{where} {code} {media}: {json.dumps(schema)[:120]}"]
    return found


def test_every_route_answers_a_named_schema():
    assert untyped_answers(json.loads(openapi_document())) == []


def test_an_untyped_answer_is_found():
    # The check above can fail: a bare object, a list of them, a schema without fields, a missing body.
    document = {
        "paths": {
            "/a": {"get": {"responses": {"200": {"content": {"application/json": {"schema": {"type": "object", "additionalProperties": True}}}}}}},
            "/b": {"get": {"responses": {"200": {"content": {"application/json": {"schema": {"type": "array", "items": {"type": "object"}}}}}}}},
            "/c": {"post": {"responses": {"201": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Open"}}}}}}},
            "/d": {"get": {"responses": {"200": {"description": "OK"}}}},
            "/e": {"get": {"responses": {"200": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Fine"}}}}}}},
            "/f": {"get": {"responses": {"200": {"content": {"application/zip": {"schema": FILE}}}}}},
        },
        "components": {"schemas": {"Open": {"type": "object", "additionalProperties": True},
                                   "Fine": {"type": "object", "properties": {"a": {"type": "integer"}}}}},
    }
    assert [line.split(":")[0] for line in untyped_answers(document)] == [
        "GET /a 200 application/json", "GET /b 200 application/json", "POST /c 201 application/json", "GET /d 200"]
