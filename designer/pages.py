"""The single-page editor's shell: the built front end, behind login; and the user docs the editor links to."""
from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect
from django.views.decorators.csrf import ensure_csrf_cookie

from accounts.pages import no_users

PLACEHOLDER = """<!doctype html><html><head><meta charset="utf-8"><title>Loop Designer</title></head>
<body style="font-family: system-ui; margin: 3rem; color: #222">
<h1>Loop Designer</h1>
<p>The editor has not been built yet. Run <code>make run</code>, which builds <code>frontend/</code>.</p>
<p>The API is up: <a href="/api/v1/docs">/api/v1/docs</a>.</p></body></html>"""


@ensure_csrf_cookie
def index(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponseBase:
    if not request.user.is_authenticated:
        if no_users():
            return redirect("/signup/")
        return redirect(f"/login/?next={request.path}")
    built = settings.FRONTEND_DIST / "index.html"
    if built.exists():
        return HttpResponse(built.read_text(), content_type="text/html; charset=utf-8")
    return HttpResponse(PLACEHOLDER, content_type="text/html; charset=utf-8")


# The docs a page links to, by the name in its address: served as they are written (plain text: no markdown
# renderer in the stack, and text can carry no script), so the link and docs/ never disagree.
HELP_DOCS = {"simulated-scripts": "simulated-scripts.md"}


def help_doc(request: HttpRequest, name: str) -> HttpResponse:
    file = HELP_DOCS.get(name)
    if file is None:
        raise Http404(f"no help page {name!r} (known: {', '.join(HELP_DOCS)})")
    return HttpResponse((settings.BASE_DIR / "docs" / file).read_text(encoding="utf-8"), content_type="text/plain; charset=utf-8")
