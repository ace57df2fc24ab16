from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported here: signal handlers use models, which are not loaded when this module is.
        from accounts.signals import connect  # noqa: PLC0415 - models load after this module

        connect()
