"""Zips in and out of workspaces: every upload rule, with zips built here byte by byte where a rule needs lying."""
import io
import os
import re
import stat
import struct
import tracemalloc
import warnings
import zipfile
import zlib
from pathlib import Path

import pytest

from common.archive import (
    ArchiveLimits,
    ArchiveRefused,
    check_zip,
    copy_capped,
    extract_zip,
    read_zip,
    zip_directory,
    zip_entries,
)


def make_zip(*entries: tuple[str | zipfile.ZipInfo, bytes]) -> bytes:
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about the duplicate names some tests build on purpose
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
            for name, content in entries:
                zf.writestr(name, content)
    return buffer.getvalue()


def make_bzip2(*entries: tuple[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_BZIP2) as zf:
        for name, content in entries:
            zf.writestr(name, content)
    return buffer.getvalue()


def info(name: str, mode: int) -> zipfile.ZipInfo:
    entry = zipfile.ZipInfo(name)
    entry.external_attr = mode << 16
    entry.compress_type = zipfile.ZIP_DEFLATED
    return entry


def headers_of_last(data: bytearray) -> tuple[int, int]:
    """Offsets of the last entry's central directory record and local header."""
    eocd = data.rindex(b"PK\x05\x06")
    count, _, cd_offset = struct.unpack_from("<HLL", data, eocd + 10)
    position = cd_offset
    for _ in range(count):  # walk the central directory to its last record
        record = position
        name_len, extra_len, comment_len = struct.unpack_from("<HHH", data, record + 28)
        position = record + 46 + name_len + extra_len + comment_len
    local = struct.unpack_from("<L", data, record + 42)[0]
    assert data[record:record + 4] == b"PK\x01\x02" and data[local:local + 4] == b"PK\x03\x04"
    return record, local


def lie_about_sizes(data: bytes, declared: int, crc: int | None = None) -> bytes:
    """The zip with its last entry's uncompressed size (and optionally CRC) rewritten in both headers."""
    data = bytearray(data)
    record, local = headers_of_last(data)
    struct.pack_into("<L", data, record + 24, declared)
    struct.pack_into("<L", data, local + 22, declared)
    if crc is not None:
        struct.pack_into("<L", data, record + 16, crc)
        struct.pack_into("<L", data, local + 14, crc)
    return bytes(data)


def listing(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*"))


@pytest.fixture
def dest(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    return root


def test_round_trip(dest, tmp_path):
    files = [("a.txt", b"A"), ("d/e/f.bin", bytes(range(256)) * 100), ("d/g.txt", "ünïcode".encode())]
    data = zip_entries(files)
    assert check_zip(data) == [("a.txt", 1), ("d/e/f.bin", 25600), ("d/g.txt", len("ünïcode".encode()))]
    assert extract_zip(data, dest) == ["a.txt", "d/e/f.bin", "d/g.txt"]
    assert {path: (dest / path).read_bytes() for path, _ in files} == dict(files)
    assert stat.S_IMODE((dest / "a.txt").stat().st_mode) == 0o644

    again = tmp_path / "again"
    again.mkdir()
    extract_zip(zip_directory(dest), again)
    assert listing(again) == listing(dest) == ["a.txt", "d", "d/e", "d/e/f.bin", "d/g.txt"]
    assert all((again / p).read_bytes() == c for p, c in files)


class _Unseekable(io.RawIOBase):
    """Where zipfile writes as a pipe: it cannot go back, so each entry's CRC-32 and sizes follow its data."""

    def __init__(self) -> None:
        self.data = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, b) -> int:
        self.data += b
        return len(b)


@pytest.mark.parametrize("method", [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA])
def test_every_method_and_layout_a_zip_tool_writes_is_read_whole(dest, method):
    # Every entry is read against its headers now: what real tools write must still pass, byte for byte.
    files = {"empty": b"", "text.txt": b"hello " * 20_000, "bytes.bin": bytes(range(256)) * 3000}
    seekable = io.BytesIO()
    with zipfile.ZipFile(seekable, "w", method) as zf:
        for name, content in files.items():
            zf.writestr(name, content)
        with zf.open("zip64.txt", "w", force_zip64=True) as out:  # sizes in a Zip64 field of both headers
            out.write(b"64" * 5000)
    pipe = _Unseekable()
    # Flag bit 3: the local header's CRC-32 and sizes are zeros, the real ones follow the data.
    with zipfile.ZipFile(pipe, "w", method) as zf, zf.open("described.txt", "w") as out:
        out.write(b"after the data " * 4000)
    expected = {**files, "zip64.txt": b"64" * 5000}
    assert check_zip(seekable.getvalue()) == [(name, len(content)) for name, content in expected.items()]
    assert read_zip(seekable.getvalue()) == expected
    assert extract_zip(seekable.getvalue(), dest) == list(expected)
    assert {name: (dest / name).read_bytes() for name in expected} == expected
    assert read_zip(bytes(pipe.data)) == {"described.txt": b"after the data " * 4000}


def test_a_bomb_is_never_held_whole_even_where_zipfile_would_expand_it_at_once(dest):
    # bzip2 expands a few hundred bytes to 64 MB in one call of zipfile's reader; here it is read a piece at a time.
    bomb = lie_about_sizes(make_bzip2(("zeros", bytes(64 * 2**20))), 10, crc=zlib.crc32(bytes(10)))
    assert len(bomb) < 4096
    tracemalloc.start()
    try:
        for read in (check_zip, read_zip, lambda data: extract_zip(data, dest)):
            with pytest.raises(ArchiveRefused, match="'zeros' unpacks to more than the 10 bytes"):
                read(bomb)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * 2**20, f"{peak / 2**20:.0f} MB held"
    assert listing(dest) == []


def test_executable_bits_survive_and_nothing_else_does(dest, tmp_path):
    data = make_zip((info("run.sh", stat.S_IFREG | 0o4777), b"#!/bin/sh\n"), (info("plain.txt", stat.S_IFREG | 0o666), b"x"))
    extract_zip(data, dest)
    assert stat.S_IMODE((dest / "run.sh").stat().st_mode) == 0o755  # no setuid, no world writing
    assert stat.S_IMODE((dest / "plain.txt").stat().st_mode) == 0o644
    again = tmp_path / "again"
    again.mkdir()
    extract_zip(zip_directory(dest), again)
    assert stat.S_IMODE((again / "run.sh").stat().st_mode) == 0o755


def test_directory_entries_are_made_but_are_not_files(dest):
    data = make_zip(("empty/", b""), ("d/x.txt", b"x"))
    assert check_zip(data) == [("d/x.txt", 1)]
    assert extract_zip(data, dest) == ["d/x.txt"]
    assert (dest / "empty").is_dir()
    # Folders do not count against max_files (they have their own cap, as many again).
    two = ArchiveLimits(max_files=2)
    assert len(check_zip(make_zip(("a/", b""), ("b/", b""), ("c.txt", b""), ("d.txt", b"")), two)) == 2
    with pytest.raises(ArchiveRefused, match=r"more than 2 folders .*'c/'"):
        check_zip(make_zip(("a/", b""), ("b/", b""), ("c/", b"")), two)


@pytest.mark.parametrize("name, rule", [
    ("../evil.txt", "points outside the workspace"),
    ("a/../../x", "points outside the workspace"),
    ("a/b/../../../x", "points outside the workspace"),
    ("..\\evil.txt", "points outside the workspace"),
    ("a\\..\\..\\x", "points outside the workspace"),
    ("/etc/x", "is an absolute path"),
    ("C:\\x", "is an absolute path"),
    ("c:/x", "is an absolute path"),
    ("\\\\server\\share\\x", "is an absolute path"),
    ("./", "has an empty name"),
])
def test_names_that_leave_the_workspace_are_refused(dest, name, rule):
    data = make_zip(("fine.txt", b"ok"), (name, b"evil"))
    with pytest.raises(ArchiveRefused, match=rule) as caught:
        check_zip(data)
    assert repr(name) in str(caught.value)  # the message names the entry
    with pytest.raises(ArchiveRefused, match=rule):
        extract_zip(data, dest)
    assert listing(dest) == []
    assert not (dest.parent / "evil.txt").exists() and not (dest.parent / "x").exists()


@pytest.mark.parametrize("mode, rule", [
    (stat.S_IFLNK | 0o777, "is a symbolic link"),
    (stat.S_IFCHR | 0o644, "is a device, pipe or socket"),
    (stat.S_IFBLK | 0o644, "is a device, pipe or socket"),
    (stat.S_IFIFO | 0o644, "is a device, pipe or socket"),
    (stat.S_IFSOCK | 0o644, "is a device, pipe or socket"),
])
def test_links_and_special_files_are_refused(dest, mode, rule):
    data = make_zip((info("link", mode), b"/etc/passwd"))
    with pytest.raises(ArchiveRefused, match=f"entry 'link' {rule}"):
        extract_zip(data, dest)
    assert listing(dest) == []


def test_encrypted_entries_are_refused():
    # zipfile cannot write encrypted entries: set the "encrypted" flag bit in both headers by hand.
    data = bytearray(make_zip(("secret.txt", b"x")))
    record, local = headers_of_last(data)
    data[record + 8] |= 0x1
    data[local + 6] |= 0x1
    with pytest.raises(ArchiveRefused, match=re.escape("entry 'secret.txt' is encrypted")):
        check_zip(bytes(data))


def test_not_a_zip_and_too_big_an_upload(dest):
    for data in (b"", b"hello", b"PK\x03\x04" + b"\0" * 100, make_zip(("a", b"a"))[:-30]):
        with pytest.raises(ArchiveRefused, match="the upload is not a zip file"):
            check_zip(data)
    data = make_zip(("a.txt", b"a"))
    with pytest.raises(ArchiveRefused, match="more than the limit"):
        extract_zip(data, dest, ArchiveLimits(max_upload_bytes=len(data) - 1))
    assert extract_zip(data, dest, ArchiveLimits(max_upload_bytes=len(data))) == ["a.txt"]


def test_too_many_files(dest):
    data = make_zip(*[(f"f{i}.txt", b"x") for i in range(4)])
    with pytest.raises(ArchiveRefused, match=r"more than 3 files .*'f3\.txt'"):
        extract_zip(data, dest, ArchiveLimits(max_files=3))
    assert listing(dest) == []
    assert len(check_zip(data, ArchiveLimits(max_files=4))) == 4


def test_declared_sizes_over_the_limits(dest):
    one = ArchiveLimits(max_file_bytes=100, max_total_bytes=150)
    with pytest.raises(ArchiveRefused, match="entry 'big' is 101 bytes uncompressed, more than the limit of 100 bytes"):
        check_zip(make_zip(("big", b"x" * 101)), one)
    with pytest.raises(ArchiveRefused, match=r"add up to more than .*150 bytes.*'b'"):
        check_zip(make_zip(("a", b"x" * 100), ("b", b"x" * 51)), one)
    assert check_zip(make_zip(("a", b"x" * 100), ("b", b"x" * 50)), one) == [("a", 100), ("b", 50)]


def test_a_zip_bomb_is_refused_and_leaves_nothing(dest):
    bomb = make_zip(("ok.txt", b"fine"), ("zeros", bytes(5 * 2**20)))
    assert len(bomb) < 10_000  # it really is a bomb: 5 MB in a few kB
    with pytest.raises(ArchiveRefused, match="'zeros'"):
        extract_zip(bomb, dest, ArchiveLimits(max_total_bytes=2**20))
    assert listing(dest) == []


def test_a_bomb_whose_headers_lie_is_stopped_and_cleaned_up(dest):
    (dest / "mine.txt").write_text("already here")
    bomb = lie_about_sizes(make_zip(("keep/a.txt", b"a"), ("keep/b/c.txt", b"c"), ("zeros", bytes(5 * 2**20))), 10)
    with pytest.raises(ArchiveRefused, match="'zeros' unpacks to more than the 10 bytes its header declares"):
        check_zip(bomb, ArchiveLimits(max_total_bytes=2**20))  # the headers say 10 bytes: read, it is more
    with pytest.raises(ArchiveRefused, match="'zeros'"):
        extract_zip(bomb, dest, ArchiveLimits(max_total_bytes=2**20))
    # What this call wrote (files and the folders it made) is gone; what was there stays.
    assert listing(dest) == ["mine.txt"]
    assert (dest / "mine.txt").read_text() == "already here"


def test_a_bomb_with_a_forged_checksum_is_refused_not_cut_to_its_declared_bytes(dest):
    # zipfile would hand over the first 10 bytes, whose checksum the forger put in the headers.
    bomb = lie_about_sizes(make_zip(("zeros", bytes(5 * 2**20))), 10, crc=zlib.crc32(bytes(10)))
    with pytest.raises(ArchiveRefused, match="'zeros' unpacks to more than the 10 bytes"):
        extract_zip(bomb, dest, ArchiveLimits(max_total_bytes=2**20))
    assert listing(dest) == []


def test_real_bytes_are_counted_whatever_was_declared():
    out = io.BytesIO()
    with pytest.raises(ArchiveRefused, match=r"entry 'zeros' is more than 1 MB uncompressed.*header said less"):
        copy_capped([bytes(5 * 2**20)], out, "zeros", ArchiveLimits(max_file_bytes=2**20))
    assert len(out.getvalue()) <= 2**20
    out = io.BytesIO()
    with pytest.raises(ArchiveRefused, match="add up to more than the limit of 1 MB"):
        copy_capped([bytes(600_000)], out, "half", ArchiveLimits(max_total_bytes=2**20), total_before=600_000)
    assert copy_capped([b"a", b"bc"], io.BytesIO(), "small", ArchiveLimits()) == 3


def test_corrupt_data_is_refused_and_cleaned_up(dest):
    data = bytearray(make_zip(("first.txt", b"1"), ("data.txt", b"hello world " * 1000)))
    start = data.index(b"data.txt") + len(b"data.txt")  # the local header's name, then the deflated bytes
    data[start + 5:start + 25] = b"\xff" * 20
    with pytest.raises(ArchiveRefused, match=re.escape("entry 'data.txt' is corrupt")):
        extract_zip(bytes(data), dest)
    assert listing(dest) == []


def test_duplicates_are_refused():
    with pytest.raises(ArchiveRefused, match=re.escape("entry 'x.txt' appears twice")):
        check_zip(make_zip(("x.txt", b"1"), ("x.txt", b"2")))
    with pytest.raises(ArchiveRefused, match=re.escape("entry 'd/./x.txt' appears twice")):
        check_zip(make_zip(("d/x.txt", b"1"), ("d/./x.txt", b"2")))


@pytest.mark.parametrize("entries", [
    [("a", b"file"), ("a/b.txt", b"inside")],
    [("a/b.txt", b"inside"), ("a", b"file")],
    [("a/", b""), ("a", b"file")],
    [("a", b"file"), ("a/", b"")],
])
def test_a_path_that_is_both_file_and_folder_is_refused(entries):
    with pytest.raises(ArchiveRefused, match="file"):
        check_zip(make_zip(*entries))


def test_extraction_never_follows_a_symlink_in_the_destination(dest, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (dest / "link").symlink_to(outside)
    (dest / "file.txt").symlink_to(outside / "target.txt")
    with pytest.raises(ArchiveRefused, match=re.escape("'link/x.txt' would be written through 'link'")):
        extract_zip(make_zip(("ok.txt", b"ok"), ("link/x.txt", b"evil")), dest)
    with pytest.raises(ArchiveRefused, match="'link/' would be written through 'link'"):
        extract_zip(make_zip(("link/", b"")), dest)
    with pytest.raises(ArchiveRefused, match=re.escape("'file.txt' is already in the workspace")):
        extract_zip(make_zip(("file.txt", b"evil")), dest)
    assert listing(outside) == []
    assert listing(dest) == ["file.txt", "link"]  # ok.txt, written before the refusal, was removed again


def test_existing_files_are_not_overwritten(dest):
    (dest / "a.txt").write_text("mine")
    with pytest.raises(ArchiveRefused, match=re.escape("'a.txt' is already in the workspace")):
        extract_zip(make_zip(("a.txt", b"theirs")), dest)
    assert (dest / "a.txt").read_text() == "mine"
    (dest / "sub").mkdir()
    assert extract_zip(make_zip(("sub/new.txt", b"new")), dest) == ["sub/new.txt"]  # existing folders are fine


def test_zip_directory_skips_symlinks_and_special_files(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("secret")
    root = tmp_path / "ws"
    (root / "d").mkdir(parents=True)
    (root / "d" / "real.txt").write_text("real")
    (root / "top.txt").write_text("top")
    (root / "file-link").symlink_to(outside / "secret.txt")
    (root / "dir-link").symlink_to(outside)
    (root / "d" / "dangling").symlink_to(tmp_path / "nowhere")
    os.mkfifo(root / "pipe")
    data = zip_directory(root)
    assert check_zip(data) == [("top.txt", 3), ("d/real.txt", 4)]
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        assert zf.read("d/real.txt") == b"real"


def test_zip_entries_is_a_deflated_zip():
    data = zip_entries([("a/b.txt", b"x" * 10_000), ("c.txt", b"")])
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        assert [(i.filename, i.compress_type, i.file_size) for i in zf.infolist()] == [
            ("a/b.txt", zipfile.ZIP_DEFLATED, 10_000), ("c.txt", zipfile.ZIP_DEFLATED, 0)]
    assert len(data) < 1000
