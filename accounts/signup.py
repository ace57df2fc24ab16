"""/signup/: who may make an account (accounts.invitations says; SIGNUP, SIGNUP_DOMAINS).

The first account of a fresh install owns the server. After that an invitation link
(``?invite=``) opens sign-up under SIGNUP=invite or open; listed e-mail domains need no
link; SIGNUP=closed refuses everyone new. Failed sign-ups count against the address
like failed sign-ins (accounts.login_limits).
"""
from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model, login, password_validation
from django.contrib.auth.forms import UserCreationForm
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from accounts import audit, invitations
from accounts.login_limits import address_failed, address_locked, lockout_response
from accounts.models import Invitation
from accounts.workspaces import make_personal

# The advisory lock's number (any constant; nothing else here takes advisory locks): "owner" in ASCII.
_FIRST_ACCOUNT_LOCK = 0x6F776E6572


class SignupForm(UserCreationForm):
    email = forms.EmailField(required=False, max_length=254)

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")


def _closed_reason(mode: str) -> str:
    if mode == "closed":
        return "Sign-up on this server is closed. Ask its owner for an account."
    return "Sign-up on this server needs an invitation link. Ask a member of the team you are joining for one."


def signup(request: HttpRequest) -> HttpResponse:
    return _signup(request)


def _signup(request: HttpRequest, *, lost_race: bool = False) -> HttpResponse:
    # lost_race: judged anew after another sign-up took the owner account first; whatever this answers is no
    # guess at a link or a domain, so it is not counted against the address.
    first_user = invitations.first_user()
    token = request.POST.get("invite") or request.GET.get("invite") or ""
    invitation = None
    mode = invitations.signup_mode()
    if token and not first_user:
        try:
            invitation = invitations.find(token)
        except invitations.InvitationInvalid as exc:
            return render(request, "join.html", {"problem": str(exc)}, status=410)
    by_link = invitation is not None and mode != "closed"
    email = request.POST.get("email", "") if request.method == "POST" else ""
    domains = mode != "closed" and invitations.domains_listed()
    by_domain = domains and bool(email) and invitations.allowed_domain(email)
    may_join = first_user or mode == "open" or by_link
    if not may_join and not (request.method == "POST" and by_domain):
        if request.method == "GET" and domains:
            return _form(request, SignupForm(), first_user, None, token, domains_only=True)
        if request.method == "POST" and not lost_race:
            address_failed(request, sender=signup)
        return render(request, "signup_closed.html", {"reason": _closed_reason(mode)}, status=403)
    if request.method != "POST":
        # An invitation made for an address fills it in (the person may still change it).
        initial = {"email": invitation.email} if invitation is not None and invitation.email else {}
        return _form(request, SignupForm(initial=initial), first_user, invitation, token)
    if address_locked(request):
        return lockout_response(request)
    form = SignupForm(request.POST)
    if not form.is_valid():
        if not lost_race:
            address_failed(request, sender=signup)
        return _form(request, form, first_user, invitation, token)
    with transaction.atomic():
        if first_user and not _still_first():
            # Someone else became the owner while this form was being checked: this is a second account now, let
            # in only as one would be (an invitation, SIGNUP=open, a listed domain), so the page is judged anew.
            retry = True
        else:
            retry = False
            user = form.save(commit=False)
            if first_user:
                user.is_staff = user.is_superuser = True
            user.save()
            audit.record(make_personal(user).pk, user, "signed_up",
                         **({"via": "invitation"} if by_link else {"via": "domain"} if by_domain and not may_join else {}))
            if by_link:
                try:
                    invitations.redeem(token, user)
                except invitations.InvitationInvalid as exc:  # used by someone else a moment ago
                    transaction.set_rollback(True)
                    return render(request, "join.html", {"problem": str(exc)}, status=410)
    if retry:
        return _signup(request, lost_race=True)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    if by_link and invitation is not None and invitation.workspace_id:
        return redirect(f"/?workspace={invitation.workspace_id}")
    return redirect("/")


def _still_first() -> bool:
    """Whether no account exists yet, asked inside the sign-up's transaction so that only one sign-up can hear yes.

    Two people opening a fresh install at once would both have been told "first" before either saved. On
    PostgreSQL a transaction-scoped advisory lock makes sign-ups that could be first wait for each other: the
    later one's count, a new statement after the lock, sees the earlier one's committed account. On SQLite every
    transaction begins IMMEDIATE (settings: ``transaction_mode``), holding the database's only write lock, so
    sign-ups already run one at a time (and were it DEFERRED, the second writer would fail, never both succeed).
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_FIRST_ACCOUNT_LOCK])
    return invitations.first_user()


def _form(request: HttpRequest, form: SignupForm, first_user: bool, invitation: Invitation | None, token: str,
          domains_only: bool = False) -> HttpResponse:
    # The password rules up front, from the same validators that judge the password.
    rules = password_validation.password_validators_help_texts()
    return render(request, "signup.html", {"form": form, "first_user": first_user, "password_rules": rules,
                                           "invitation": invitation, "invite": token, "domains_only": domains_only})
