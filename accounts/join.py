"""/join/<token>/: an invitation link. Signed in, it joins the workspace; signed out, it leads to
sign-up (which the link opens, whatever SIGNUP says) or to sign-in and back."""
from __future__ import annotations

from urllib.parse import quote

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from accounts import invitations


def join(request: HttpRequest, token: str) -> HttpResponse:
    try:
        invitation = invitations.find(token)
    except invitations.InvitationInvalid as exc:
        return render(request, "join.html", {"problem": str(exc)}, status=410)
    if not request.user.is_authenticated:
        return render(request, "join.html", {"invitation": invitation, "token": token,
                                             "login_url": "/login/?next=" + quote(f"/join/{token}/")})
    if request.method == "POST":
        try:
            invitations.redeem(token, request.user)
        except invitations.InvitationInvalid as exc:
            return render(request, "join.html", {"problem": str(exc)}, status=410)
        return redirect(f"/?workspace={invitation.workspace_id}" if invitation.workspace_id else "/")
    return render(request, "join.html", {"invitation": invitation, "token": token, "signed_in": True})
