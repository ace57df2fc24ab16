"""The workspace settings' Tracing section: an owner sends the workspace's traces to its own collector with a
header; the page shows the header by name with its value masked, never the value (nor after a reload), and a wrong
field is refused in words naming it. A team of its own: no run of another test is traced by it."""
from __future__ import annotations

from tests.support.browser import api

SECRET = "cGstbGYtZTJlOnNrLWxmLXNlY3JldA=="
ENDPOINT = "https://1.1.1.1/api/public/otel/v1/traces"  # an address literal: public without a name to resolve


def test_an_owner_sets_an_endpoint_and_sees_the_header_masked(page):
    team = api(page, "POST", "/workspaces", {"name": "Traced team"})["id"]
    page.goto(f"/workspaces/{team}")
    page.get_by_test_id("ws-tracing-form").wait_for()
    page.get_by_test_id("ws-tracing-mode-own").check()
    page.get_by_test_id("ws-tracing-endpoint").fill(ENDPOINT)
    page.get_by_test_id("ws-tracing-headers").fill(f"Authorization=Basic {SECRET}")
    page.get_by_test_id("ws-tracing-link-template").fill("https://cloud.langfuse.com/trace/")
    page.get_by_test_id("ws-tracing-save").click()
    error = page.get_by_test_id("ws-tracing-error")
    error.wait_for()
    assert error.inner_text().startswith("link_template:") and "{trace_id}" in error.inner_text()

    page.get_by_test_id("ws-tracing-link-template").fill("https://cloud.langfuse.com/trace/{trace_id}")
    page.get_by_test_id("ws-tracing-save").click()
    page.get_by_text("Tracing saved.").wait_for()
    assert page.get_by_test_id("ws-tracing-header").inner_text() == "Authorization=••••••"
    assert page.get_by_test_id("ws-tracing-headers").input_value() == ""  # the value typed in is not kept
    assert SECRET not in page.content()

    page.reload()
    page.get_by_test_id("ws-tracing-header").wait_for()
    assert page.get_by_test_id("ws-tracing-mode-own").is_checked()
    assert page.get_by_test_id("ws-tracing-endpoint").input_value() == ENDPOINT
    assert page.get_by_test_id("ws-tracing-header").inner_text() == "Authorization=••••••"
    assert SECRET not in page.content()
    assert api(page, "GET", f"/workspaces/{team}/tracing")["header_names"] == ["Authorization"]
