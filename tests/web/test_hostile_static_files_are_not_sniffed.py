"""Static files carry `X-Content-Type-Options: nosniff`, like every other answer.

Without it a browser may guess a type from the content and run as script what was served
as something else. The front end's files and the API docs' assets are served by WhiteNoise
inside the Django middleware chain, so the security headers apply to them too.
"""
from __future__ import annotations

import httpx
import pytest

from tests.support.servers import REPO, base_env, running_server


@pytest.fixture(scope="module")
def server():
    with running_server(base_env()) as s:
        yield s


def static_paths() -> list[str]:
    built = sorted((REPO / "frontend" / "dist" / "assets").glob("*.js"))[:1]
    return ["/static/ninja/swagger-ui.css", "/static/ninja/swagger-ui-bundle.js", *(f"/static/assets/{p.name}" for p in built)]


def test_static_files_are_served_with_nosniff(server):
    for path in static_paths():
        response = httpx.get(server.url + path, timeout=10)
        assert response.status_code == 200, path
        assert response.headers["X-Content-Type-Options"] == "nosniff", path


def test_a_missing_static_file_is_a_404_with_nosniff(server):
    response = httpx.get(server.url + "/static/no-such-file.js", timeout=10)
    assert response.status_code == 404 and response.headers["X-Content-Type-Options"] == "nosniff"


def test_a_body_over_the_limit_sent_to_a_static_path_is_answered_413(server):
    response = httpx.post(server.url + "/static/ninja/swagger-ui.css", content=b"x" * (4 * 1024 * 1024 + 1), timeout=30)
    assert response.status_code == 413
