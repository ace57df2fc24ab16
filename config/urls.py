from django.contrib.auth.views import LogoutView
from django.urls import path, re_path

from accounts import join, signup
from accounts import pages as account_pages
from config.api import api
from designer import pages

urlpatterns = [
    path("api/v1/", api.urls),
    path("login/", account_pages.DesignerLoginView.as_view(), name="login"),
    path("logout/", LogoutView.as_view(next_page="/login/"), name="logout"),
    path("signup/", signup.signup, name="signup"),
    path("join/<str:token>/", join.join, name="join"),
    path("account/", account_pages.account, name="account"),
    path("help/<slug:name>/", pages.help_doc, name="help"),
    re_path(r"^(?:workflows(?:/.*)?|runs(?:/.*)?|workspaces(?:/.*)?)?$", pages.index, name="index"),
]

# A full disk or a read-only database answers 507/503 in words (config/errors.py), never a bare 500.
handler500 = "config.errors.server_error"
