import os

from celery import Celery
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("loopdesigner")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
def _freeze_loaded_objects(**_):
    from config.memory import freeze_loaded_objects

    freeze_loaded_objects()
