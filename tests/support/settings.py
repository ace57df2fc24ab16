"""The settings the suite runs with: the app's own (config/settings.py), its data folder a temporary one.

pytest.ini names this module, not config.settings. pytest-django imports the settings before pytest loads any
conftest.py, and importing config/settings.py makes the data folder, its secret key, the runs' workspaces and the
static folder, so the data folder must be chosen here, before that import: chosen in tests/conftest.py it came too
late, and the suite wrote ./data/secret_key, its test database and the in-process runs' workspaces into the
checkout.

A session makes its own folder and removes it when it ends; a DESIGNER_DATA_DIR exported in the shell (a
developer's real one) is not used. Processes the session starts with its environment (manage.py commands) share
its folder; each xdist worker gets a folder inside it (tests use fixed names, such as the run "cli-1"); servers
started through tests/support/servers.base_env get one of their own.
tests/house/test_test_bench.py holds all this.
"""
import atexit
import os
import shutil
import tempfile

if not os.environ.get("DESIGNER_DATA_DIR") or os.environ["DESIGNER_DATA_DIR"] != os.environ.get("DESIGNER_TEST_DATA_DIR"):
    _made = tempfile.mkdtemp(prefix="designer-test-")
    os.environ["DESIGNER_DATA_DIR"] = os.environ["DESIGNER_TEST_DATA_DIR"] = _made
    atexit.register(shutil.rmtree, _made, True)
# Runs' workspaces on loop-mounted filesystems (AGENT_WORKSPACE_DISK=auto) only in the tests that say so
# (tests/tools/test_workspace_quota_is_enforced_by_the_kernel.py): a test killed mid-run would leave its mounts.
# Servers started with this environment inherit it.
os.environ.setdefault("AGENT_WORKSPACE_DISK", "off")
_worker = os.environ.get("PYTEST_XDIST_WORKER")
if _worker and os.path.basename(os.environ["DESIGNER_DATA_DIR"]) != _worker:
    _mine = os.path.join(os.environ["DESIGNER_DATA_DIR"], _worker)
    os.makedirs(_mine, mode=0o700, exist_ok=True)
    os.environ["DESIGNER_DATA_DIR"] = os.environ["DESIGNER_TEST_DATA_DIR"] = _mine

from django.conf import global_settings  # noqa: E402

from config.settings import *  # noqa: E402,F403

# The app hashes passwords with PBKDF2 at a million rounds (0.4-0.9 s a hash here): the fixtures create a user for
# most tests. The suite's users are throwaway, so it hashes their passwords the fast way, as Django's testing
# guide advises; tests/house/test_test_bench.py holds that the app itself keeps the slow hasher.
# The app's hashers stay after it: a password hashed by a process with the app's settings (a benchmark's user)
# is still checked.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", *global_settings.PASSWORD_HASHERS]
