"""Routes open to anyone that answer more to someone signed in (POST /validate with `workflow_id`, GET /tools)
answer a bearer token's holder as they answer the same person's browser session."""
from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from accounts.models import McpServer
from accounts.tokens import create_token

pytestmark = pytest.mark.django_db(transaction=True)

SOURCE = "name: w\nsteps:\n  - {id: a, instructions: Go.}\n"


@pytest.fixture
def holder():
    user = get_user_model().objects.create_user("holder")
    return user, {"HTTP_AUTHORIZATION": f"Bearer {create_token(user)}"}


def test_validate_with_a_workflow_id_answers_a_token_holder(holder):
    _user, bearer = holder
    created = Client().post("/api/v1/workflows", data=json.dumps({"source": SOURCE}), content_type="application/json",
                            **bearer)
    assert created.status_code == 201, created.content
    body = json.dumps({"source": SOURCE, "workflow_id": created.json()["id"]})
    answer = Client().post("/api/v1/validate", data=body, content_type="application/json", **bearer)
    assert answer.status_code == 200, answer.content
    assert answer.json()["valid"] is True
    nobody = Client().post("/api/v1/validate", data=body, content_type="application/json")
    assert nobody.status_code == 404  # not signed in: the workflow is not theirs to read
    wrong = Client().post("/api/v1/validate", data=body, content_type="application/json",
                          HTTP_AUTHORIZATION="Bearer ld_not-a-token")
    assert wrong.status_code == 404


def test_the_tool_list_names_a_token_holders_mcp_tools(holder):
    user, bearer = holder
    McpServer.objects.create(user=user, name="mine", kind="http", url="https://tools.example.com/mcp",
                             checked_at=timezone.now(), tools=[{"name": "lookup", "description": "Looks up."}])
    listed = Client().get("/api/v1/tools", **bearer)
    assert listed.status_code == 200
    mine = [t for t in listed.json() if t.get("mcp_server") == "mine"]
    assert [t["name"] for t in mine] == ["lookup"], mine
    anonymous = Client().get("/api/v1/tools").json()
    assert not any(t.get("mcp_server") for t in anonymous)
