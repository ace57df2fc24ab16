from django.apps import AppConfig


class DesignerConfig(AppConfig):
    name = "designer"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from designer import signals  # noqa: PLC0415 - its handlers use models, not loaded when this module is

        signals.connect()
