"""A workspace download holds the names an agent chose: each is made safe to unpack anywhere (no backslash, drive,
'..' or control character; names that are not UTF-8 never fail the download), and two names cleaned alike are
both kept, the second numbered."""
import io
import os
import zipfile

import pytest

from common.archive import check_zip, extract_zip, zip_entries


def names_in(data: bytes) -> list[str]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return [info.filename for info in zf.infolist()]


def raw_names_in(data: bytes) -> list[bytes]:
    """The names as stored in the central directory, before zipfile decodes them."""
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return [info.orig_filename.encode("utf-8" if info.flag_bits & 0x800 else "cp437") for info in zf.infolist()]


@pytest.mark.parametrize(("name", "safe"), [
    ("..\\..\\Users\\Public\\evil.bat", "Users/Public/evil.bat"),
    ("C:\\Windows\\evil.dll", "Windows/evil.dll"),
    ("c:evil.txt", "evil.txt"),
    ("/etc/passwd", "etc/passwd"),
    ("a/../../b.txt", "a/b.txt"),
    ("./x/./y.txt", "x/y.txt"),
    ("line\nbreak\x1b[31m.txt", "line_break_[31m.txt"),
    ("bell\x07\x7f.txt", "bell__.txt"),
    ("..", "unnamed"),
])
def test_a_hostile_name_goes_into_the_zip_as_a_name_an_upload_would_accept(name, safe):
    data = zip_entries([(name, b"payload")])
    assert names_in(data) == [safe]
    assert b"\\" not in b"".join(raw_names_in(data))
    assert check_zip(data) == [(safe, 7)]  # the upload rules (no '..', nothing absolute) pass it as it is


def test_a_name_that_is_not_utf8_is_downloaded_with_replacement_characters_not_a_failure(tmp_path):
    raw = b"caf\xe9-\xff\xfe.txt"  # Latin-1 bytes, as a Windows tool in the sandbox might write them
    name = os.fsdecode(raw)  # what listing the workspace gives: lone surrogates where the bytes were
    data = zip_entries([(name, b"latin"), ("fine.txt", b"ok")])
    assert names_in(data) == ["caf\ufffd-\ufffd\ufffd.txt", "fine.txt"]
    assert raw_names_in(data)[0] == "caf\ufffd-\ufffd\ufffd.txt".encode()  # valid UTF-8, flagged as such
    assert extract_zip(data, tmp_path) == ["caf\ufffd-\ufffd\ufffd.txt", "fine.txt"]
    assert (tmp_path / "caf\ufffd-\ufffd\ufffd.txt").read_bytes() == b"latin"


def test_a_lone_surrogate_that_is_no_escaped_byte_is_replaced_too():
    assert names_in(zip_entries([("odd\ud800name.txt", b"")])) == ["odd\ufffdname.txt"]


def test_names_that_clean_alike_are_all_kept_the_later_ones_numbered():
    entries = [("a/b.txt", b"1"), ("a\\b.txt", b"2"), ("..\\a\\b.txt", b"3"), ("notes", b"4"), ("notes\n", b"5"),
               (".env", b"6"), (".env\x01", b"7")]
    data = zip_entries(entries)
    assert names_in(data) == ["a/b.txt", "a/b (2).txt", "a/b (3).txt", "notes", "notes_", ".env", ".env_"]
    entries = [("x", b"file"), ("x\\y.txt", b"under"), ("x/", b"again")]
    data = zip_entries(entries)
    assert names_in(data) == ["x", "x (2)/y.txt", "x (3)"]
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        assert [zf.read(n) for n in zf.namelist()] == [b"file", b"under", b"again"]


def test_a_file_named_like_a_folder_already_in_the_zip_is_numbered_not_merged(tmp_path):
    data = zip_entries([("d\\f.txt", b"in folder"), ("d", b"a file")])
    assert names_in(data) == ["d/f.txt", "d (2)"]
    assert sorted(extract_zip(data, tmp_path)) == ["d (2)", "d/f.txt"]  # unpacks: no file and folder both named d


def test_ordinary_names_go_in_unchanged():
    names = ["README.md", "src/main.py", "dir with spaces/ünïcode – ok.txt", "a.b.c/.hidden", "weird:colon.txt"]  # noqa: RUF001  a non-ASCII name on purpose
    assert names_in(zip_entries([(n, b"") for n in names])) == names
