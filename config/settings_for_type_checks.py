"""The settings mypy's Django plugin reads (mypy.ini): the app's own, made in a temporary data folder removed at once.

The plugin imports the settings module to learn the models' fields, and importing config/settings.py makes the
data folder (its secret key, the runs' workspaces, the static folder). With config.settings named and no
DESIGNER_DATA_DIR exported, every `mypy` run wrote ./data/secret_key into the checkout. The folder made here is
removed as soon as the settings are read: mypy ends with os._exit, so an atexit handler would never run, and the
plugin needs the settings' values, not the files. tests/house/test_test_bench.py holds this.
"""
import os
import shutil
import tempfile

_made = tempfile.mkdtemp(prefix="designer-typecheck-")
os.environ["DESIGNER_DATA_DIR"] = _made
os.environ.pop("WORKSPACES_DIR", None)  # a developer's real one: the workspaces go inside the folder above
try:
    from config.settings import *  # noqa: F403
finally:
    shutil.rmtree(_made, ignore_errors=True)
