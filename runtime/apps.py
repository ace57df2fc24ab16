from django.apps import AppConfig


class RuntimeConfig(AppConfig):
    name = "runtime"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.contrib.auth.signals import user_logged_out

        from runtime.access import close_session_sockets

        user_logged_out.connect(close_session_sockets, dispatch_uid="runtime.close_session_sockets")
