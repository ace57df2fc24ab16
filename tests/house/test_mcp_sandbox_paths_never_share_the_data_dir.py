"""MCP_SANDBOX_PATHS are shown to every user's stdio MCP server: a folder that holds the data dir (the secret key,
the database) or the runs' workspaces is refused when the settings load, naming it."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile

import pytest

from tests.support.servers import REPO


def settings_with(**env) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "WORKSPACES_DIR")}
    return subprocess.run([sys.executable, "-c", "import django; django.setup()"], cwd=REPO, capture_output=True,
                          text=True, timeout=120, env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", **env})


@pytest.mark.parametrize("shown", ["{data}/..", "{data}", "{data}/workspaces", "{data}/workspaces/some-run"])
def test_a_folder_holding_or_inside_the_data_dir_is_refused(shown):
    data = tempfile.mkdtemp(prefix="designer-paths-")
    done = settings_with(DESIGNER_DATA_DIR=data, MCP_SANDBOX_PATHS=f"/usr/lib:{shown.format(data=data)}")
    assert done.returncode != 0
    assert "MCP_SANDBOX_PATHS" in done.stderr and shown.format(data=data) in done.stderr


def test_folders_apart_from_the_data_dir_are_accepted():
    data = tempfile.mkdtemp(prefix="designer-paths-")
    done = settings_with(DESIGNER_DATA_DIR=data, MCP_SANDBOX_PATHS=f"/usr/lib:{sys.base_prefix}")
    assert done.returncode == 0, done.stderr[-2000:]
