"""`manage.py check --deploy` is clean with the production environment docs/production.md documents,
and the same check still warns without it (so a clean answer means the settings, not a blind check)."""
from __future__ import annotations

import re
import secrets
import subprocess
import sys
from pathlib import Path

from tests.support.servers import base_env

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "production.md"


def documented_environment() -> dict[str, str]:
    """The variables of the example block in docs/production.md, with a real secret in place of the placeholder."""
    block = re.search(r"```sh\n# production environment\n(.*?)```", DOC.read_text(), re.S)
    assert block, "docs/production.md has no ```sh block starting with '# production environment'"
    env = dict(re.findall(r"^export (\w+)=(\S*)$", block.group(1), re.M))
    assert {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "HTTPS"} <= env.keys(), env
    env["SECRET_KEY"] = secrets.token_urlsafe(50)
    # The check needs no database or broker; the embedded ones keep the test to this machine.
    return {k: v for k, v in env.items() if k not in ("DATABASE_URL", "REDIS_URL")}


def deploy_check(env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=120)


def test_the_deploy_check_is_clean_with_the_documented_environment():
    result = deploy_check(base_env(**documented_environment()))
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]
    assert "no issues" in result.stdout


def test_without_it_the_deploy_check_warns():
    result = deploy_check(base_env(DEBUG="1"))
    assert result.returncode != 0
    assert "security.W018" in result.stderr  # DEBUG on
    assert "security.W012" in result.stderr  # session cookie over plain http
