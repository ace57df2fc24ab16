"""Account pages: login and the account page (API tokens, the personal workspace's provider keys, the user's MCP
servers). Sign-up: accounts/signup.py."""
from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from django import forms
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from accounts import audit, mcp_servers
from accounts.forms import McpHttpForm, McpStdioForm, refused
from accounts.invitations import first_user
from accounts.models import ApiToken, ProviderKey
from accounts.provider_keys import PROVIDERS_WITH_KEYS, base_url_problem, shown_base_url, store_provider_key
from accounts.sockets import close_token_sockets
from accounts.tokens import create_token
from accounts.workspaces import personal
from common.addresses import AddressRefused, check_public_url
from common.errors import BadRequest
from common.types import AuthenticatedRequest

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def no_users() -> bool:
    """A fresh install: the first person to come signs up as its owner."""
    return first_user()


class DesignerLoginView(LoginView):
    template_name = "login.html"
    redirect_authenticated_user = True

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if no_users():
            return redirect("/signup/")
        return super().get(request, *args, **kwargs)


class KeyForm(forms.Form):
    provider = forms.ChoiceField(choices=[(p, p) for p in PROVIDERS_WITH_KEYS])
    api_key = forms.CharField(max_length=500)
    base_url = forms.URLField(required=False, max_length=300, assume_scheme="https")

    def clean_base_url(self) -> str:
        url = self.cleaned_data["base_url"]
        if url and (problem := base_url_problem(url)):
            raise forms.ValidationError(f"the base URL {problem}.")
        if url and not settings.PROVIDER_URLS_ALLOW_PRIVATE:
            try:
                check_public_url(url)
            except AddressRefused as exc:
                raise forms.ValidationError(
                    f"{exc}. Only public addresses are allowed; an administrator can allow private ones "
                    "(a model server on this machine or network) with PROVIDER_URLS_ALLOW_PRIVATE=1.") from None
        return url


def _add_mcp(user: User, form: McpStdioForm | McpHttpForm) -> bool:
    if not form.is_valid():
        return False
    data = form.cleaned_data
    try:
        if isinstance(form, McpStdioForm):
            mcp_servers.create(user, name=data["name"], command=data["command"], args=data["args"], env=data["env"])
        else:
            mcp_servers.create(user, name=data["name"], url=data["url"], headers=data["headers"])
    except BadRequest as exc:
        refused(form, exc)
        return False
    return True


def _check_answer(answer: dict) -> str:
    if not answer["ok"]:
        return answer["error"]
    names = [t["name"] for t in answer["server"]["tools"]]
    return f"found {len(names)} tool{'' if len(names) == 1 else 's'}: {', '.join(names)}" if names else "found no tools"


def _mcp_server_action(request: AuthenticatedRequest, action: str) -> dict | None:
    """Check or delete one of the user's servers: None when deleted, else a note on the server (or why not)."""
    server_id = request.POST.get("server_id", "")
    if not server_id.isdigit():
        return {"ok": False, "text": "no MCP server was named"}
    try:
        if action == "delete_mcp":
            mcp_servers.delete(request.user, int(server_id))
            return None
        answer = mcp_servers.check(request.user, int(server_id))
    except BadRequest as exc:
        return {"ok": False, "text": str(exc), "status": exc.status}
    return {"ok": answer["ok"], "text": f"{answer['server']['name']}: {_check_answer(answer)}",
            "server_id": answer["server"]["id"]}


def _shown(servers: list[dict]) -> list[dict]:
    """The API's descriptions with the check's time as a datetime, for the template's date filter."""
    return [{**s, "checked_at": datetime.fromisoformat(s["checked_at"]) if s.get("checked_at") else None}
            for s in servers]


@login_required
def account(request: AuthenticatedRequest) -> HttpResponse:
    new_token, key_error = None, None
    mcp_forms = {"stdio": McpStdioForm(), "http": McpHttpForm()}
    mcp_note, status = None, 200
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "create_token":
            new_token = create_token(request.user, request.POST.get("name", "").strip() or "token")
        elif action == "revoke":
            token_id = request.POST.get("token_id", "")
            if token_id.isdigit() and ApiToken.objects.filter(user=request.user, pk=int(token_id)).delete()[0]:
                close_token_sockets(int(token_id))
            return redirect("/account/")
        elif action == "set_key":
            form = KeyForm(request.POST)
            if form.is_valid():
                workspace = personal(request.user)
                with transaction.atomic():  # the key and its audit row, as the API's PUT .../keys writes them
                    store_provider_key(workspace, request.user, form.cleaned_data["provider"],
                                       form.cleaned_data["api_key"], form.cleaned_data["base_url"])
                    audit.record(workspace.pk, request.user, "key_stored", provider=form.cleaned_data["provider"])
                return redirect("/account/")
            key_error = "; ".join(f"{k}: {' '.join(str(e) for e in v)}" for k, v in form.errors.items())
        elif action == "delete_key":
            workspace, provider = personal(request.user), request.POST.get("provider", "")
            with transaction.atomic():
                if ProviderKey.objects.filter(workspace=workspace, provider=provider).delete()[0]:
                    audit.record(workspace.pk, request.user, "key_deleted", provider=provider)
            return redirect("/account/")
        elif action in ("add_mcp_stdio", "add_mcp_http"):
            kind = action.removeprefix("add_mcp_")
            mcp_form = (McpStdioForm if kind == "stdio" else McpHttpForm)(request.POST)
            if _add_mcp(request.user, mcp_form):
                return redirect("/account/#mcp-servers")
            mcp_forms[kind], status = mcp_form, 400
        elif action in ("check_mcp", "delete_mcp"):
            mcp_note = _mcp_server_action(request, action)
            if mcp_note is None:
                return redirect("/account/#mcp-servers")
            status = mcp_note.pop("status", 200)
    keys = {k.provider: k for k in ProviderKey.objects.filter(workspace=personal(request.user))}
    providers = [{"name": p, "set": p in keys, "base_url": shown_base_url(keys[p].base_url) if p in keys else ""} for p in PROVIDERS_WITH_KEYS]
    tokens = ApiToken.objects.filter(user=request.user).order_by("-created_at")
    return render(request, "account.html", {
        "tokens": tokens, "new_token": new_token, "providers": providers, "key_error": key_error,
        "mcp_servers": _shown(mcp_servers.list_for(request.user)), "mcp_forms": mcp_forms, "mcp_note": mcp_note,
    }, status=status)
