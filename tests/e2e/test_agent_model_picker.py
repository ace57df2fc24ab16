"""The agent inspector's model field offers the models of the providers the workspace can use, with their prices
(GET /models): none before a key is stored, Gemini's once a Gemini key is; a picked name is saved as typed. The run
dialog offers upstream's other providers once the workspace has their key."""
from __future__ import annotations

import time

from tests.support.browser import api
from tests.support.editor_page import open_writer_critic


def test_the_model_field_offers_the_workspaces_models_with_prices(page):
    workspace = next(w for w in api(page, "GET", "/workspaces") if w["personal"])
    api(page, "PUT", f"/workspaces/{workspace['id']}/keys", {"provider": "google", "api_key": "AIza-e2e-picker-key"})
    wf_id = open_writer_critic(page)
    page.get_by_role("tab", name="Agents").click()
    page.locator(".agent-chip", has_text="writer").click()
    field = page.locator("#f-model").first
    field.wait_for()
    page.wait_for_selector("[data-testid=agent-model-choices] option[value='google/gemini-2.5-flash']", state="attached")
    assert field.get_attribute("list") == "agent-model-choices"
    label = page.locator("[data-testid=agent-model-choices] option[value='google/gemini-2.5-flash']").get_attribute("label")
    assert "per M tokens" in label and "$" in label
    assert page.locator("[data-testid=agent-model-choices] option[value^='openai/']").count() == 0
    field.fill("google/gemini-2.5-flash")
    page.keyboard.press("Control+s")
    deadline = time.monotonic() + 15
    while True:
        agent = api(page, "GET", f"/workflows/{wf_id}")["document"]["agents"]["writer"]
        if agent.get("model") == "google/gemini-2.5-flash" or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert agent["model"] == "google/gemini-2.5-flash"


def test_the_run_dialog_offers_a_provider_once_the_workspace_has_its_key(page):
    workspace = next(w for w in api(page, "GET", "/workspaces") if w["personal"])
    open_writer_critic(page)
    page.get_by_test_id("run").click()
    dialog = page.get_by_role("dialog", name="Start a run")
    dialog.wait_for()
    assert dialog.locator("[data-testid=run-provider] option[value=bedrock]").count() == 0
    page.keyboard.press("Escape")
    api(page, "PUT", f"/workspaces/{workspace['id']}/keys", {"provider": "bedrock", "api_key": "AKIDE2E0000:secret-e2e"})
    page.get_by_test_id("run").click()
    dialog.wait_for()
    option = dialog.locator("[data-testid=run-provider] option[value=bedrock]")
    option.wait_for(state="attached")
    assert option.inner_text() == "Amazon Bedrock (workspace key)"
