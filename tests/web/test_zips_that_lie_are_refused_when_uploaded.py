"""A zip whose headers lie about an entry's size, or whose entry names hold a NUL or another control character,
is refused when it is posted (`POST /api/v1/uploads` and `POST /api/v1/workflows/import-bundle` alike): a 400
naming the entry, and nothing stored. Before, such an upload was kept and its run failed at its start with
"internal error: ArchiveRefused", and a NUL cut the name short ("invoice.pdf\\0.exe" became "invoice.pdf").

The zips are made here with zipfile and then forged with struct: the size in the local header, in the central
directory or in both, smaller or larger than the data really unpacks to. A bomb that declares 10 bytes is
read no further than that: the check never holds its real size in memory.
"""
from __future__ import annotations

import io
import struct
import tracemalloc
import zipfile
import zlib
from collections.abc import Callable

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from designer.models import FileBlob, Workflow
from runtime.models import WorkspaceUpload

pytestmark = pytest.mark.django_db

FLOW = b"name: flow\nsteps:\n  - id: a\n    instructions: hi\n"
DATA = b"hello world, " * 100  # 1300 bytes, deflated to far fewer
UPLOADS, BUNDLES = "/api/v1/uploads", "/api/v1/workflows/import-bundle"


def build(last: str = "data.txt", data: bytes = DATA, method: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A good zip: a workflow, then ``last``, the entry each test forges."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as archive:
        archive.writestr("main.yaml", FLOW)
        archive.writestr(last, data)
    return out.getvalue()


def headers_of_last(data: bytes | bytearray) -> tuple[int, int]:
    """Offsets of the last entry's central directory record and of its local header."""
    end = data.rindex(b"PK\x05\x06")
    count, directory = struct.unpack_from("<H", data, end + 10)[0], struct.unpack_from("<L", data, end + 16)[0]
    record = at = directory
    for _ in range(count):
        record = at
        assert data[record:record + 4] == b"PK\x01\x02"
        name, extra, comment = struct.unpack_from("<HHH", data, record + 28)
        at = record + 46 + name + extra + comment
    local = struct.unpack_from("<L", data, record + 42)[0]
    assert data[local:local + 4] == b"PK\x03\x04"
    return record, local


def forged(data: bytes, *, size: int | None = None, compressed: int | None = None, crc: int | None = None,
           central: bool = True, local: bool = True) -> bytes:
    """``data`` with its last entry's size, compressed size or CRC-32 rewritten in the headers named."""
    data = bytearray(data)
    record, header = headers_of_last(data)
    # Central record: CRC-32 at 16, compressed size at 20, size at 24; local header: 14, 18, 22.
    for value, central_at, local_at in ((crc, 16, 14), (compressed, 20, 18), (size, 24, 22)):
        if value is None:
            continue
        if central:
            struct.pack_into("<L", data, record + central_at, value)
        if local:
            struct.pack_into("<L", data, header + local_at, value)
    return bytes(data)


def named(name: str) -> bytes:
    """A zip whose last entry is really named ``name`` (zipfile would cut a NUL off when writing): written under a
    stand-in of the same length, then renamed in both headers."""
    stand_in = "".join("_" if ord(ch) < 32 or ch == "\x7f" else ch for ch in name)
    data = build(stand_in)
    assert data.count(stand_in.encode()) == 2
    return data.replace(stand_in.encode(), name.encode())


def post(client, url: str, data: bytes):
    return client.post(url, {"file": SimpleUploadedFile("files.zip", data, content_type="application/zip")})


def stored() -> tuple[int, int, int]:
    return WorkspaceUpload.objects.count(), Workflow.objects.count(), FileBlob.objects.count()


SIZES: dict[str, tuple[Callable[[], bytes], str]] = {
    "declared smaller in both headers": (
        lambda: forged(build(), size=10), "'data.txt' unpacks to more than the 10 bytes its header declares"),
    "declared smaller, its checksum forged for the bytes declared": (
        lambda: forged(build(), size=10, crc=zlib.crc32(DATA[:10])),
        "'data.txt' unpacks to more than the 10 bytes its header declares"),
    "declared larger in both headers": (
        lambda: forged(build(), size=5000), "'data.txt' unpacks to 1300 bytes, not the 5000 bytes its header declares"),
    "declared larger, stored uncompressed": (
        lambda: forged(build(method=zipfile.ZIP_STORED), size=5000),
        "'data.txt' unpacks to 1300 bytes, not the 5000 bytes its header declares"),
    "declared smaller in the local header only": (
        lambda: forged(build(), size=10, central=False), "'data.txt' has a local header that disagrees"),
    "declared larger in the local header only": (
        lambda: forged(build(), size=5000, central=False), "'data.txt' has a local header that disagrees"),
    "declared smaller in the central directory only": (
        lambda: forged(build(), size=10, local=False), "'data.txt' has a local header that disagrees"),
    "declared larger in the central directory only": (
        lambda: forged(build(), size=5000, local=False), "'data.txt' has a local header that disagrees"),
    "a compressed size past the end of its stream": (
        lambda: forged(build(), compressed=len(zlib.compress(DATA)) + 40),
        "'data.txt' has a compressed size in its header larger than its compressed data"),
}

NAMES = {
    "a NUL": "invoice.pdf\x00.exe",
    "a line break": "notes\nREADME.md",
    "an escape sequence": "\x1b[2Jclear.txt",
    "a DEL": "del\x7f.txt",
}


@pytest.mark.parametrize("url", [UPLOADS, BUNDLES])
def test_the_good_zip_these_are_forged_from_is_accepted(owner_client, url):
    answer = post(owner_client, url, build())
    assert answer.status_code == 201, answer.content
    if url == UPLOADS:
        assert answer.json()["files"] == 2 and answer.json()["bytes"] == len(FLOW) + len(DATA)


@pytest.mark.parametrize("url", [UPLOADS, BUNDLES])
@pytest.mark.parametrize("case", list(SIZES))
def test_an_entry_whose_declared_size_is_not_its_real_size_is_refused_naming_it(owner_client, url, case):
    make, words = SIZES[case]
    answer = post(owner_client, url, make())
    assert answer.status_code == 400, answer.content
    assert words in answer.json()["detail"], answer.json()["detail"]
    assert stored() == (0, 0, 0)


@pytest.mark.parametrize("url", [UPLOADS, BUNDLES])
@pytest.mark.parametrize("case", list(NAMES))
def test_an_entry_name_with_a_control_character_is_refused_naming_it_in_full(owner_client, url, case):
    name = NAMES[case]
    answer = post(owner_client, url, named(name))
    assert answer.status_code == 400, answer.content
    detail = answer.json()["detail"]
    assert f"entry {name!r} has a control character in its name" in detail, detail  # the whole name, escaped
    assert stored() == (0, 0, 0)


@pytest.mark.parametrize("url", [UPLOADS, BUNDLES])
def test_a_bomb_that_declares_ten_bytes_is_refused_without_being_unpacked(owner_client, url):
    # 64 MB of zeros in a few hundred bytes of bzip2: zipfile's own reader expands a read's worth of it at once.
    data = build("zeros.bin", bytes(64 * 2**20), method=zipfile.ZIP_BZIP2)
    assert len(data) < 4096
    bomb = forged(data, size=10, crc=zlib.crc32(bytes(10)))
    tracemalloc.start()
    try:
        answer = post(owner_client, url, bomb)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert answer.status_code == 400, answer.content
    assert "'zeros.bin' unpacks to more than the 10 bytes its header declares" in answer.json()["detail"]
    assert peak < 16 * 2**20, f"{peak / 2**20:.0f} MB held while checking a 10-byte entry"
    assert stored() == (0, 0, 0)
