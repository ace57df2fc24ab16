"""Zips built in memory, and uploaded as workflow bundles through the test client."""
from __future__ import annotations

import io
import zipfile

from django.core.files.uploadedfile import SimpleUploadedFile


def zip_bytes(entries: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return out.getvalue()


def zipped(files: dict[str, bytes], prefix: str = "") -> bytes:
    """A deflated zip of ``files``, each name under ``prefix``."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, data in files.items():
            archive.writestr(prefix + path, data)
    return buffer.getvalue()


def upload(client, data: bytes, name: str = "bundle.zip", **form):
    """POSTs ``data`` as a zip to the bundle import; ``form`` adds its other fields (``main=...``)."""
    return client.post("/api/v1/workflows/import-bundle", {"file": SimpleUploadedFile(name, data, content_type="application/zip"), **form})
