from django.apps import AppConfig


class DesignerConfig(AppConfig):
    name = "designer"
    default_auto_field = "django.db.models.BigAutoField"
