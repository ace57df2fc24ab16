"""The settings of the servers, workers and commands the suite starts (``tests.support.servers.base_env``): the
app's own (config/settings.py), with its data folder the one base_env chose, and the suite's fast password hasher
(see tests/support/settings.py for why)."""
from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
