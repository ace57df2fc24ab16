"""Sign-up, login and the editor page."""
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

pytestmark = pytest.mark.django_db


def test_a_fresh_install_sends_the_first_visitor_to_create_the_owner_account(client):
    response = client.get("/")
    assert response.status_code == 302 and response["Location"] == "/signup/"
    page = client.get("/signup/").content.decode()
    assert "Create the owner account" in page
    created = client.post("/signup/", {"username": "boss", "password1": "a-long-pass-123", "password2": "a-long-pass-123"})
    assert created.status_code == 302
    boss = get_user_model().objects.get(username="boss")
    assert boss.is_superuser
    assert client.get("/").status_code == 200


def test_after_the_owner_exists_visitors_are_asked_to_log_in(client, owner):
    response = client.get("/workflows/12")
    assert response.status_code == 302 and response["Location"].startswith("/login/")
    assert "Create the owner account" not in client.get("/signup/").content.decode()


def test_login_with_a_wrong_password_says_so_and_a_right_one_opens_the_editor(client, owner):
    wrong = client.post("/login/", {"username": "owner", "password": "nope"})
    assert "did not match" in wrong.content.decode()
    right = client.post("/login/", {"username": "owner", "password": "owner-pass-123"})
    assert right.status_code == 302 and right["Location"] == "/"
    page = client.get("/runs/abc")
    assert page.status_code == 200 and "csrftoken" in page.cookies


def test_signup_errors_are_shown_by_field(client, owner, settings):
    settings.SIGNUP = "open"  # past the owner, sign-up needs a link by default (tests/web/test_team_signup.py)
    page = client.post("/signup/", {"username": "owner", "password1": "x", "password2": "y"}).content.decode()
    assert "already exists" in page


def test_sign_up_states_the_password_rule_before_anyone_fails_it(client, db):
    page = client.get("/signup/").content.decode()
    assert 'id="password-rules"' in page and "at least 8 characters" in page


def test_the_account_page_has_the_apps_top_bar_with_its_navigation(owner_client):
    page = owner_client.get("/account/").content.decode()
    assert 'class="topbar"' in page
    for link in ('href="/"', 'href="/runs"', 'href="/account/"'):
        assert link in page


def test_the_script_format_help_is_served_as_plain_text_from_docs(client):
    page = client.get("/help/simulated-scripts/")
    assert page.status_code == 200 and page["Content-Type"] == "text/plain; charset=utf-8"
    assert page.content.decode() == (settings.BASE_DIR / "docs" / "simulated-scripts.md").read_text(encoding="utf-8")
    assert "A key that names nothing is warned" in page.content.decode()
    assert client.get("/help/settings/").status_code == 404
