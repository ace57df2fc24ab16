from django.apps import AppConfig


class RuntimeConfig(AppConfig):
    name = "runtime"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from runtime import signals

        signals.connect()
