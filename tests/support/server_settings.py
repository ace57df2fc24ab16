"""The settings of the servers, workers and commands the suite starts (``tests.support.servers.base_env``): the
app's own (config/settings.py), with its data folder the one base_env chose, and the suite's fast password hasher
(see tests/support/settings.py for why)."""
from django.conf import global_settings

from config.settings import *  # noqa: F403

# The app's hashers stay after it: a password hashed by a process with the app's settings (a benchmark's user)
# is still checked.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", *global_settings.PASSWORD_HASHERS]
