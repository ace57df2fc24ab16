"""A real full disk under a real server: the data folder is a small tmpfs, filled to the last byte.

Saving a workflow then answers 507 in words (SQLite's own "database or disk is full", through daphne), the
workflow saved before is read back whole, and once space is freed saving works again. Mounting a tmpfs needs root,
which this suite's machine runs as; the mount is undone at the end whatever happens.
"""
from __future__ import annotations

import errno
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.servers import base_env, running_server

FLOW = {"name": "kept", "description": "Saved before the disk filled.", "steps": [{"id": "a", "instructions": "Write."}]}


@pytest.fixture
def small_disk() -> Iterator[Path]:
    where = Path(tempfile.mkdtemp(prefix="designer-full-"))
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m,mode=0700", "tmpfs", str(where)], check=True)
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)
        shutil.rmtree(where, ignore_errors=True)


def fill(disk: Path) -> Path:
    """A file that takes every free byte of ``disk``."""
    filler = disk / "filler"
    chunk = b"\0" * (1 << 20)
    with open(filler, "wb", buffering=0) as out:
        try:
            while True:
                out.write(chunk)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
        try:
            while True:
                out.write(b"\0" * 512)
        except OSError:
            pass
    return filler


def test_a_full_data_disk_answers_507_and_keeps_what_was_saved(small_disk):
    env = base_env()
    shutil.rmtree(env["DESIGNER_DATA_DIR"], ignore_errors=True)
    env.update({"DESIGNER_DATA_DIR": str(small_disk), "WORKSPACES_DIR": tempfile.mkdtemp(prefix="designer-full-ws-")})
    try:
        with running_server(env, users=("owner",)) as server, server.client("owner") as api:
            kept = api.post("/workflows", json={"document": FLOW})
            assert kept.status_code == 201, kept.text
            filler = fill(small_disk)

            refused = api.post("/workflows", json={"document": {**FLOW, "name": "new", "description": "x" * 500_000}})
            assert refused.status_code == 507, refused.text
            assert refused.json() == {"detail": "the server's disk is full: nothing was saved; ask the administrator to free space"}

            again = api.get(f"/workflows/{kept.json()['id']}")
            assert again.status_code == 200, again.text
            assert again.json()["document"]["description"] == FLOW["description"]

            os.unlink(filler)
            saved = api.post("/workflows", json={"document": {**FLOW, "name": "new"}})
            assert saved.status_code == 201, saved.text
            names = sorted(w["name"] for w in api.get("/workflows").json())
            assert names == ["kept", "new"]
    finally:
        shutil.rmtree(env["WORKSPACES_DIR"], ignore_errors=True)
