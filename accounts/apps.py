from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.contrib.auth.signals import user_logged_out

        from accounts.sockets import close_session_sockets

        user_logged_out.connect(close_session_sockets, dispatch_uid="accounts.close_session_sockets")
