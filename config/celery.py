import os

from celery import Celery
from celery.signals import worker_process_init

from config.memory import freeze_loaded_objects

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("loopdesigner")
app.config_from_object("django.conf:settings", namespace="CELERY")
# The run task lives in runtime's execution room (runtime/execution/tasks.py), not at an app's top.
app.autodiscover_tasks(lambda: ["runtime.execution"])


@worker_process_init.connect
def _freeze_loaded_objects(**_: object) -> None:
    freeze_loaded_objects()
