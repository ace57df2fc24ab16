"""A run whose uploaded zip is refused when its workspace is filled fails with the refusal's own words, never
"internal error: ArchiveRefused".

Uploads are read in full when they arrive now, so the zip here is put in the database as one kept before that
check was made (a forged entry size): starting a run from it is the only way left to that refusal.
"""
from __future__ import annotations

import io
import struct
import zipfile

import pytest

from runtime.models import WorkspaceUpload
from tests.support.api_calls import post, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

FLOW = """
version: 1
name: coder
agents:
  coder: {description: writes code}
steps:
  - id: build
    agent: coder
"""


@pytest.fixture(autouse=True)
def workspaces(settings, tmp_path):
    settings.WORKSPACES_DIR = tmp_path / "workspaces"
    return settings.WORKSPACES_DIR


def lying_zip() -> bytes:
    """README.md, then data.txt whose size reads 10 bytes in both headers (it is 1300)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("README.md", b"# seed\n")
        archive.writestr("data.txt", b"hello world, " * 100)
    data = bytearray(out.getvalue())
    local = data.rindex(b"PK\x03\x04")                     # data.txt's local header: the last one
    central = data.rindex(b"PK\x01\x02")                   # and its central directory record
    struct.pack_into("<L", data, local + 22, 10)
    struct.pack_into("<L", data, central + 24, 10)
    return bytes(data)


def test_a_run_from_an_upload_refused_at_its_start_fails_with_the_refusal(owner, owner_client, workspaces):
    flow = post(owner_client, "/api/v1/workflows", {"source": FLOW}).json()["id"]
    kept = WorkspaceUpload.objects.create(owner=owner, name="old.zip", data=lying_zip(), files=2, size=17)
    created = post(owner_client, "/api/v1/runs", {"workflow_id": flow, "workspace_upload": str(kept.id),
                                                  "script": {"replies": {"build": ["done"]}}})
    assert created.status_code == 201, created.content
    run = wait_for(owner_client, created.json()["id"])
    assert run["status"] == "failed"
    assert "internal error" not in run["reason"]
    assert run["reason"] == ("the run could not start: old.zip: entry 'data.txt' unpacks to more than the 10 bytes "
                             "its header declares; the zip is damaged or forged"), run["reason"]
    assert not (workspaces / run["id"] / "README.md").exists()  # what was unpacked before the refusal is gone
