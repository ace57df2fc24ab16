"""Print (or --write) the API's OpenAPI document; with --write, also the front end's TypeScript types made from it.

``manage.py api_types --write`` writes ``frontend/src/api/openapi.json`` and runs ``npm run api-types`` (openapi-typescript)
in frontend/, which writes ``frontend/src/api/openapi.gen.ts`` beside it. Both are checked in; a test fails when
either is out of date (tests/house/test_generated_api_types.py).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import URLPattern, URLResolver, get_resolver
from ninja import NinjaAPI

REPO = Path(__file__).resolve().parents[3]
FRONTEND = REPO / "frontend"
TARGET_DIR = FRONTEND / "src" / "api"
DOCUMENT = "openapi.json"
TYPES = "openapi.gen.ts"


def mounted_api() -> NinjaAPI:
    """The NinjaAPI the URLconf serves (found through its OpenAPI view, which holds it): config is above the apps."""
    found: list[NinjaAPI] = []

    def walk(patterns: list[URLPattern | URLResolver]) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns)
            elif isinstance(pattern, URLPattern):
                api = getattr(pattern.callback, "keywords", {}).get("api")
                if isinstance(api, NinjaAPI) and api not in found:
                    found.append(api)

    walk(get_resolver().url_patterns)
    if len(found) != 1:
        raise CommandError(f"expected the URLconf to serve one NinjaAPI, found {len(found)}")
    return found[0]


def openapi_document() -> str:
    """The OpenAPI document the server serves at /api/v1/openapi.json, as stable text (its keys in their order)."""
    return json.dumps(mounted_api().get_openapi_schema(), indent=2, ensure_ascii=False) + "\n"


def write_files(directory: Path = TARGET_DIR) -> list[Path]:
    """Write the document and the TypeScript types into ``directory``; the types come from frontend's
    `npm run api-types`, so its node_modules must be installed (`make frontend`)."""
    directory.mkdir(parents=True, exist_ok=True)
    document = directory / DOCUMENT
    document.write_text(openapi_document())
    npm = shutil.which("npm")
    if npm is None:
        raise CommandError("npm is not on PATH: the TypeScript types are made by openapi-typescript (frontend/)")
    env = {**os.environ, "API_TYPES_DIR": str(directory.resolve())}
    done = subprocess.run([npm, "run", "--silent", "api-types"], cwd=FRONTEND, env=env, capture_output=True,  # noqa: S603  # npm, found above, with fixed arguments
                          text=True, timeout=300)
    if done.returncode != 0:
        raise CommandError(f"npm run api-types failed:\n{done.stdout}{done.stderr}")
    return [document, directory / TYPES]


class Command(BaseCommand):
    help = "The API's OpenAPI document (frontend/src/api/openapi.json) and the TypeScript types made from it (openapi.gen.ts)"

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--write", action="store_true",
                            help=f"write {DOCUMENT} and {TYPES} in frontend/src/api instead of printing the document")

    def handle(self, *args: Any, write: bool = False, **options: Any) -> None:
        if not write:
            self.stdout.write(openapi_document(), ending="")
            return
        for path in write_files():
            self.stdout.write(f"wrote {path.relative_to(REPO)}")
