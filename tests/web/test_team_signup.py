"""Who may join a server whose owner exists: SIGNUP=invite (the default) asks for an invitation link,
closed refuses everyone new, open lets anyone in; SIGNUP_DOMAINS lets listed e-mail domains in.
An invitation works once and expires; `manage.py invite` prints one."""
from __future__ import annotations

import datetime as dt
import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from accounts import invitations
from accounts.models import AuditEntry, Invitation, Membership
from accounts.workspaces import create_team

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-pass-phrase-9"


def sign_up(client: Client, username: str, invite: str = "", email: str = ""):
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD, "email": email}
    if invite:
        data["invite"] = invite
    return client.post("/signup/" + (f"?invite={invite}" if invite else ""), data)


@pytest.fixture
def boss(db):
    client = Client()
    answer = sign_up(client, "boss")
    assert answer.status_code == 302
    return get_user_model().objects.get(username="boss")


def test_the_first_account_owns_the_server_without_a_link(boss):
    assert boss.is_superuser
    assert AuditEntry.objects.filter(action="signed_up", actor_name="boss").count() == 1


def test_after_the_owner_signing_up_needs_an_invitation(boss):
    client = Client()
    page = client.get("/signup/")
    assert page.status_code == 403
    assert "needs an invitation" in page.content.decode() and "Create an account" not in page.content.decode()
    refused = sign_up(client, "mallory")
    assert refused.status_code == 403
    assert not get_user_model().objects.filter(username="mallory").exists()


def test_an_invitation_signs_up_once_and_joins_its_workspace_with_its_role(boss):
    team = create_team(boss, "Team")
    _, token = invitations.create(boss, workspace=team, role="runner")
    client = Client()
    page = client.get(f"/signup/?invite={token}")
    assert page.status_code == 200 and "Team" in page.content.decode()
    joined = sign_up(client, "colleague", invite=token)
    assert joined.status_code == 302 and joined["Location"] == f"/?workspace={team.pk}"
    colleague = get_user_model().objects.get(username="colleague")
    assert Membership.objects.get(workspace=team, user=colleague).role == "runner"
    assert not colleague.is_superuser
    again = sign_up(Client(), "second", invite=token)
    assert again.status_code == 410 and "already been used" in again.content.decode()
    assert not get_user_model().objects.filter(username="second").exists()
    assert AuditEntry.objects.filter(workspace=team, action="invitation_used").count() == 1
    assert AuditEntry.objects.filter(workspace=team, action="member_added").count() == 1


def test_an_expired_invitation_is_refused_saying_so(boss):
    invitation, token = invitations.create(boss, role="editor")
    Invitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now() - dt.timedelta(seconds=1))
    answer = sign_up(Client(), "late", invite=token)
    assert answer.status_code == 410 and "expired" in answer.content.decode()
    assert Client().get(f"/join/{token}/").status_code == 410


def test_a_made_up_invitation_is_refused(boss):
    answer = sign_up(Client(), "guesser", invite="inv_not-a-real-token")
    assert answer.status_code == 410 and "not valid" in answer.content.decode()


def test_closed_refuses_everyone_new_even_with_a_link(boss, settings):
    settings.SIGNUP = "closed"
    _, token = invitations.create(boss, role="editor")
    assert sign_up(Client(), "newcomer", invite=token).status_code == 403
    assert "closed" in Client().get("/signup/").content.decode()


def test_open_lets_anyone_in(boss, settings):
    settings.SIGNUP = "open"
    assert sign_up(Client(), "anyone").status_code == 302
    assert get_user_model().objects.filter(username="anyone").exists()


def test_listed_domains_sign_up_without_a_link(boss, settings):
    settings.SIGNUP_DOMAINS = ["example.com"]
    assert sign_up(Client(), "alice", email="alice@Example.com").status_code == 302
    refused = sign_up(Client(), "bob", email="bob@other.org")
    assert refused.status_code == 403
    assert not get_user_model().objects.filter(username="bob").exists()


def test_someone_signed_in_joins_a_workspace_by_its_link(boss):
    team = create_team(boss, "Team")
    member = get_user_model().objects.create_user("member")
    _, token = invitations.create(boss, workspace=team, role="viewer")
    client = Client()
    client.force_login(member)
    assert "Join Team" in client.get(f"/join/{token}/").content.decode()
    answer = client.post(f"/join/{token}/")
    assert answer.status_code == 302 and answer["Location"] == f"/?workspace={team.pk}"
    assert Membership.objects.get(workspace=team, user=member).role == "viewer"
    assert client.post(f"/join/{token}/").status_code == 410


def test_manage_invite_prints_a_link_that_works(boss):
    team = create_team(boss, "Team")
    out = io.StringIO()
    call_command("invite", "friend@example.com", "--workspace", str(team.pk), "--role", "editor", stdout=out)
    link = out.getvalue().strip()
    token = re.fullmatch(r"http://\S+/join/(inv_[\w-]+)/", link).group(1)
    assert sign_up(Client(), "friend", invite=token).status_code == 302
    assert Membership.objects.get(workspace=team, user__username="friend").role == "editor"
    assert Invitation.objects.get().email == "friend@example.com"


def test_manage_invite_links_to_the_servers_own_address(boss, monkeypatch, settings):
    settings.PUBLIC_URL = ""
    monkeypatch.setenv("PORT", "8123")  # `make run PORT=8123`
    out = io.StringIO()
    call_command("invite", "a@example.com", stdout=out)
    assert out.getvalue().strip().startswith("http://127.0.0.1:8123/join/inv_")
    out = io.StringIO()
    call_command("invite", "b@example.com", "--url", "https://loops.example.org/", stdout=out)
    assert out.getvalue().strip().startswith("https://loops.example.org/join/inv_")


def test_manage_commands_print_no_login_limit_banner(settings):
    # django-axes announced itself ("AXES: BEGIN ...") above every command's output, the invite link's too.
    assert settings.AXES_VERBOSE is False


def test_an_invitation_made_for_an_address_fills_it_in(boss):
    team = create_team(boss, "Team")
    _, token = invitations.create(boss, workspace=team, role="editor", email="ada@example.org")
    page = Client().get(f"/signup/?invite={token}").content.decode()
    assert re.search(r'<input[^>]*name="email"[^>]*value="ada@example.org"', page)
    _, plain = invitations.create(boss, workspace=team, role="editor")
    assert 'value="ada@example.org"' not in Client().get(f"/signup/?invite={plain}").content.decode()
