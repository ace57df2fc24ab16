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
from django.db import transaction
from django.shortcuts import redirect, render

from accounts import audit, invitations
from accounts.login_limits import address_failed, address_locked, lockout_response
from accounts.workspaces import make_personal


class SignupForm(UserCreationForm):
    email = forms.EmailField(required=False, max_length=254)

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")


def _closed_reason(mode: str) -> str:
    if mode == "closed":
        return "Sign-up on this server is closed. Ask its owner for an account."
    return "Sign-up on this server needs an invitation link. Ask a member of the team you are joining for one."


def signup(request):
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
        if request.method == "POST":
            address_failed(request, sender=signup)
        return render(request, "signup_closed.html", {"reason": _closed_reason(mode)}, status=403)
    if request.method != "POST":
        return _form(request, SignupForm(), first_user, invitation, token)
    if address_locked(request):
        return lockout_response(request)
    form = SignupForm(request.POST)
    if not form.is_valid():
        address_failed(request, sender=signup)
        return _form(request, form, first_user, invitation, token)
    with transaction.atomic():
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
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    if by_link and invitation is not None and invitation.workspace_id:
        return redirect(f"/?workspace={invitation.workspace_id}")
    return redirect("/")


def _form(request, form, first_user: bool, invitation, token: str, domains_only: bool = False):
    # The password rules up front, from the same validators that judge the password.
    rules = password_validation.password_validators_help_texts()
    return render(request, "signup.html", {"form": form, "first_user": first_user, "password_rules": rules,
                                           "invitation": invitation, "invite": token, "domains_only": domains_only})
