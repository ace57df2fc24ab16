from django.apps import AppConfig


class RuntimeConfig(AppConfig):
    name = "runtime"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from runtime import signals  # noqa: PLC0415 - its handlers use models, not loaded when this module is

        signals.connect()
