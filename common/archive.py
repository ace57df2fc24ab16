"""Zip files in and out of run workspaces and workflow folders, safely.

Users upload a zip to seed a run's workspace and download workspaces as zips.
An upload is untrusted: its names may climb out of the workspace (``../x``,
``/etc/x``, ``C:\\x``), its entries may be symlinks or devices, and its sizes
may lie (a zip bomb declares a few bytes and inflates to gigabytes). Every rule
is checked before anything is written; each entry is read by :func:`_contents`,
which decompresses at most one piece (64 KiB) past what its headers declare and
refuses it unless its real bytes are exactly what they declare; extraction never
goes through a symlink already in the destination, and a refusal part-way
removes what was written. An upload is read once in full when it arrives
(:func:`check_zip`), by the same code that unpacks it later, so whatever the
zip holds that would be refused then is refused at once. Refusals name the
entry and the rule, for the person who uploaded it.
"""
from __future__ import annotations

import bz2
import errno
import io
import lzma
import os
import re
import stat
import struct
import time
import unicodedata
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

_CHUNK = 1 << 16
# What reading a damaged entry raises, by decompressor (bz2 raises OSError); reads are from memory, so no OSError
# here is the disk's.
_CORRUPT = (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, NotImplementedError, zlib.error, lzma.LZMAError, OSError)
_READABLE = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA)
_DRIVE = re.compile(r"^[A-Za-z]:")
_NAME_MAX = 255     # bytes in one path component (Linux)
_PATH_MAX = 4000    # bytes in a whole relative path, below PATH_MAX with room for the workspace's own
# A local file header: signature, version, system, flags, method, time, date, CRC-32, compressed size, size,
# name length, extra field length.
_LOCAL = struct.Struct("<4s2B4HL2L2H")
_ZIP64_EXTRA = 0x0001
_FLAG_ENCRYPTED, _FLAG_EOS_MARKER, _FLAG_DESCRIPTOR, _FLAG_PATCHED, _FLAG_STRONG, _FLAG_UTF8 = 0x1, 0x2, 0x8, 0x20, 0x40, 0x800


class ArchiveRefused(ValueError):
    """The upload is refused; the message names the entry and the rule (e.g. "entry '../evil.txt' points outside the workspace")."""


@dataclass(frozen=True)
class ArchiveLimits:
    max_upload_bytes: int = 50 * 2**20      # the zip itself
    max_files: int = 5000
    max_total_bytes: int = 200 * 2**20      # uncompressed, all entries
    max_file_bytes: int = 50 * 2**20        # uncompressed, one entry


@dataclass(frozen=True)
class _Entry:
    path: str               # relative, posix, normalised
    info: zipfile.ZipInfo
    is_dir: bool

    @property
    def mode(self) -> int:
        # Only the executable bit is taken from the zip: no setuid, no group or world writing.
        return 0o755 if (self.info.external_attr >> 16) & 0o111 else 0o644


def _mib(size: int) -> str:
    return f"{size / 2**20:g} MB" if size >= 2**20 else f"{size} bytes"


def _control(ch: str) -> bool:
    # NUL, newline, escape, DEL and the C1 controls: zipfile cuts a name at its NUL, terminals act on the rest.
    return unicodedata.category(ch) == "Cc"


def _path_of(info: zipfile.ZipInfo) -> tuple[str, bool]:
    """The entry's relative posix path and whether it is a directory; refuse names that leave the workspace."""
    # orig_filename is the name as the zip holds it; zipfile's filename stops at a NUL ("a.txt\0.exe" -> "a.txt").
    if any(_control(ch) for ch in info.orig_filename):
        raise ArchiveRefused(f"entry {info.orig_filename!r} has a control character in its name (a NUL, a line "
                             "break or the like); rename it")
    raw = info.filename
    name = raw.replace("\\", "/")  # zips made on Windows may use backslashes: they separate there, so here too
    if not name.strip("/"):
        raise ArchiveRefused(f"entry {raw!r} has an empty name")
    if name.startswith("/") or _DRIVE.match(name):
        raise ArchiveRefused(f"entry {raw!r} is an absolute path; entries must be relative to the workspace")
    parts = [part for part in name.split("/") if part not in ("", ".")]
    if ".." in parts:
        raise ArchiveRefused(f"entry {raw!r} points outside the workspace")
    if not parts:
        raise ArchiveRefused(f"entry {raw!r} has an empty name")
    if any(len(part.encode()) > _NAME_MAX for part in parts) or len(name.encode()) > _PATH_MAX:
        raise ArchiveRefused(f"entry {raw!r} has a name too long for the file system")
    kind = stat.S_IFMT(info.external_attr >> 16)
    return "/".join(parts), name.endswith("/") or kind == stat.S_IFDIR


def _entries(zf: zipfile.ZipFile, limits: ArchiveLimits) -> list[_Entry]:
    """Every entry, checked against every rule that needs no decompression."""
    entries: list[_Entry] = []
    files: set[str] = set()
    dirs: set[str] = set()
    total = folders = 0
    for info in zf.infolist():
        raw = info.filename
        path, is_dir = _path_of(info)
        kind = stat.S_IFMT(info.external_attr >> 16)
        if kind == stat.S_IFLNK:
            raise ArchiveRefused(f"entry {raw!r} is a symbolic link; links are not allowed in uploads")
        if kind not in (0, stat.S_IFREG, stat.S_IFDIR):
            raise ArchiveRefused(f"entry {raw!r} is a device, pipe or socket; only files and folders are allowed")
        if info.flag_bits & 0x1:
            raise ArchiveRefused(f"entry {raw!r} is encrypted; upload a zip without a password")
        if not is_dir and info.compress_type not in _READABLE:
            raise ArchiveRefused(f"entry {raw!r} uses a compression method this server cannot read")
        parents = ["/".join(path.split("/")[:i]) for i in range(1, path.count("/") + 1)]
        if clash := next((p for p in parents if p in files), None):
            raise ArchiveRefused(f"entry {raw!r} needs a folder {clash!r}, but the zip also has a file {clash!r}")
        if is_dir:
            if path in files:
                raise ArchiveRefused(f"entry {raw!r} is both a file and a folder")
            dirs.update([*parents, path])
            folders += 1
            if folders > limits.max_files:
                raise ArchiveRefused(f"the zip has more than {limits.max_files} folders (at entry {raw!r})")
            entries.append(_Entry(path, info, True))
            continue
        if path in files:
            raise ArchiveRefused(f"entry {raw!r} appears twice in the zip")
        if path in dirs:
            raise ArchiveRefused(f"entry {raw!r} is both a file and a folder")
        files.add(path)
        dirs.update(parents)
        if len(files) > limits.max_files:
            raise ArchiveRefused(f"the zip has more than {limits.max_files} files (at entry {raw!r})")
        if info.file_size > limits.max_file_bytes:
            raise ArchiveRefused(f"entry {raw!r} is {_mib(info.file_size)} uncompressed, more than the limit of "
                                 f"{_mib(limits.max_file_bytes)} per file")
        total += info.file_size
        if total > limits.max_total_bytes:
            raise ArchiveRefused(f"the files add up to more than the limit of {_mib(limits.max_total_bytes)} "
                                 f"uncompressed (at entry {raw!r})")
        entries.append(_Entry(path, info, False))
    return entries


@contextmanager
def _open(data: bytes, limits: ArchiveLimits) -> Iterator[zipfile.ZipFile]:
    if len(data) > limits.max_upload_bytes:
        raise ArchiveRefused(f"the upload is {_mib(len(data))}, more than the limit of {_mib(limits.max_upload_bytes)}")
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError, OSError):
        raise ArchiveRefused("the upload is not a zip file") from None
    with zf:
        yield zf


def _local_sizes(extra: bytes, compressed: int, size: int) -> tuple[int, int] | None:
    """A local header's (compressed size, size) where 0xFFFFFFFF sends them to its Zip64 extra field (size first,
    then compressed size, each only when sent); None when that field is missing or short."""
    wanted = [which for which, value in (("size", size), ("compressed", compressed)) if value == 0xFFFFFFFF]
    if not wanted:
        return compressed, size
    at = 0
    while at + 4 <= len(extra):
        kind, length = struct.unpack_from("<HH", extra, at)
        if kind == _ZIP64_EXTRA:
            if length < 8 * len(wanted) or at + 4 + length > len(extra):
                return None
            values = dict(zip(wanted, struct.unpack_from(f"<{len(wanted)}Q", extra, at + 4), strict=True))
            return values.get("compressed", compressed), values.get("size", size)
        at += 4 + length
    return None


def _compressed(data: bytes, info: zipfile.ZipInfo) -> memoryview:
    """The entry's compressed bytes, where its local header says they start, once that header agrees with the
    zip's directory (name, method, encryption, and CRC-32 and sizes unless they come after the data)."""
    name = info.orig_filename
    at = info.header_offset
    if at < 0 or at + _LOCAL.size > len(data) or data[at:at + 4] != b"PK\x03\x04":
        raise ArchiveRefused(f"entry {name!r} is corrupt (its local header is not where the zip's directory says)")
    _, _, _, flags, method, _, _, crc, compressed, size, name_length, extra_length = _LOCAL.unpack_from(data, at)
    start = at + _LOCAL.size
    local_name = data[start:start + name_length].decode("utf-8" if flags & _FLAG_UTF8 else "cp437", errors="replace")
    extra = data[start + name_length:start + name_length + extra_length]
    if flags & (_FLAG_PATCHED | _FLAG_STRONG):
        raise ArchiveRefused(f"entry {name!r} uses a zip feature this server cannot read (patched data or strong "
                             "encryption)")
    disagree = []
    if local_name != name:
        disagree.append(f"name {local_name!r}")
    if method != info.compress_type:
        disagree.append(f"compression method {method}, not {info.compress_type}")
    if (flags ^ info.flag_bits) & _FLAG_ENCRYPTED:
        disagree.append("encryption")
    if not flags & _FLAG_DESCRIPTOR:  # else the local CRC-32 and sizes are zeros and the real ones follow the data
        sizes = _local_sizes(extra, compressed, size)
        if sizes is None:
            disagree.append("sizes (its Zip64 field is missing)")
        else:
            if sizes[1] != info.file_size:
                disagree.append(f"size {_mib(sizes[1])}, not {_mib(info.file_size)}")
            if sizes[0] != info.compress_size:
                disagree.append(f"compressed size {_mib(sizes[0])}, not {_mib(info.compress_size)}")
        if crc != info.CRC:
            disagree.append("CRC-32")
    if disagree:
        raise ArchiveRefused(f"entry {name!r} has a local header that disagrees with the zip's directory "
                             f"({'; '.join(disagree)}); the zip is damaged or forged")
    begin = start + name_length + extra_length
    if begin + info.compress_size > len(data):
        raise ArchiveRefused(f"entry {name!r} is corrupt (its data runs past the end of the zip)")
    return memoryview(data)[begin:begin + info.compress_size]


def _pieces(data: memoryview) -> Iterator[bytes]:
    for at in range(0, len(data), _CHUNK):
        yield bytes(data[at:at + _CHUNK])


def _lzma_decompressor(info: zipfile.ZipInfo, data: memoryview) -> tuple[lzma.LZMADecompressor, memoryview]:
    """A raw LZMA1 decompressor from the properties a zip puts before the stream, and the stream itself."""
    if len(data) < 4:
        raise ArchiveRefused(f"entry {info.orig_filename!r} is corrupt (its LZMA header is cut short)")
    length = struct.unpack_from("<H", data, 2)[0]
    if length != 5 or len(data) < 4 + length:
        raise ArchiveRefused(f"entry {info.orig_filename!r} is corrupt (its LZMA header is not 5 bytes of properties)")
    bits, dict_size = struct.unpack_from("<BL", data, 4)
    if bits >= 9 * 5 * 5:
        raise ArchiveRefused(f"entry {info.orig_filename!r} is corrupt (its LZMA properties are out of range)")
    # The dictionary is allocated whole: no bigger than what can be read from it (its declared size and one
    # chunk more), so a header asking for 4 GB gets what the entry can use.
    dict_size = max(4096, min(dict_size, info.file_size + 2 * _CHUNK))
    lzma1 = {"id": lzma.FILTER_LZMA1, "dict_size": dict_size, "lc": bits % 9, "lp": bits // 9 % 5, "pb": bits // 45}
    return lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=[lzma1]), data[4 + length:]


def _inflated(info: zipfile.ZipInfo, data: memoryview) -> Iterator[bytes]:
    """The entry's data decompressed, at most ``_CHUNK`` bytes a call: however far a piece would expand (a
    bomb), it is decompressed only as far as asked. Refused when the compressed stream is cut short or when
    the compressed size the headers give runs on past its end. Raises the decompressors' errors (``_CORRUPT``)."""
    name = info.orig_filename
    if info.compress_type == zipfile.ZIP_STORED:
        yield from _pieces(data)
        return
    ended: bool
    if info.compress_type == zipfile.ZIP_DEFLATED:
        feed = _pieces(data)
        inflater = zlib.decompressobj(-zlib.MAX_WBITS)
        while not inflater.eof:
            piece = inflater.unconsumed_tail or next(feed, b"")
            out = inflater.decompress(piece, _CHUNK)
            if out:
                yield out
            elif not piece:
                break  # nothing left to give it, nothing left in it
        ended, rest = inflater.eof, inflater.unused_data
    else:
        decompressor: bz2.BZ2Decompressor | lzma.LZMADecompressor
        if info.compress_type == zipfile.ZIP_BZIP2:
            decompressor = bz2.BZ2Decompressor()
        else:
            decompressor, data = _lzma_decompressor(info, data)
        feed = _pieces(data)
        while not decompressor.eof:
            piece = next(feed, b"") if decompressor.needs_input else b""
            if decompressor.needs_input and not piece:
                break
            out = decompressor.decompress(piece, _CHUNK)
            if out:
                yield out
        # LZMA without an end marker (flag bit 1 unset) ends where its compressed size does.
        ended = decompressor.eof or (info.compress_type == zipfile.ZIP_LZMA and not info.flag_bits & _FLAG_EOS_MARKER)
        rest = decompressor.unused_data
    if not ended:
        raise ArchiveRefused(f"entry {name!r} is corrupt (its compressed data ends before its stream does)")
    if rest or next(feed, b""):
        raise ArchiveRefused(f"entry {name!r} has a compressed size in its header larger than its compressed data; "
                             "the zip is damaged or forged")


def _contents(data: bytes, info: zipfile.ZipInfo) -> Iterator[bytes]:
    """An entry's real bytes, in pieces, refused (:class:`ArchiveRefused`) unless they are what its headers
    declare: the size the zip's directory gives (and its local header, the same), and its CRC-32.

    The declared size is never trusted to stop the reading: the entry is decompressed a piece (64 KiB at
    most) at a time and refused by the piece that takes it past that size, so a bomb is expanded no further
    (and its declared size is already within the limits, :func:`_entries`); an entry that ends short of it is
    refused too (zipfile would hand over the short file, or cut a long one to its declared size when the
    checksum is forged to match).
    """
    name = info.orig_filename
    pieces = _inflated(info, _compressed(data, info))
    size = crc = 0
    while True:
        try:
            piece = next(pieces, None)
        except _CORRUPT as exc:  # a broken deflate, bzip2 or LZMA stream
            raise ArchiveRefused(f"entry {name!r} is corrupt ({exc})") from None
        if piece is None:
            break
        size += len(piece)
        if size > info.file_size:
            raise ArchiveRefused(f"entry {name!r} unpacks to more than the {_mib(info.file_size)} its header declares; "
                                 "the zip is damaged or forged")
        crc = zlib.crc32(piece, crc)
        yield piece
    if size != info.file_size:
        raise ArchiveRefused(f"entry {name!r} unpacks to {_mib(size)}, not the {_mib(info.file_size)} its header "
                             "declares; the zip is damaged or forged")
    if crc != info.CRC:
        raise ArchiveRefused(f"entry {name!r} is corrupt (its CRC-32 does not match its contents)")


def check_zip(data: bytes, limits: ArchiveLimits = ArchiveLimits()) -> list[tuple[str, int]]:
    """Check everything without writing: returns [(relative posix path, size)] of the files. Raise ArchiveRefused.

    Every entry is read in full and its pieces dropped (:func:`_contents`: never a piece further than its
    declared size, which the limits bound), so an upload accepted here unpacks later, as long as the limits
    are the same and nothing in the destination is in the way."""
    with _open(data, limits) as zf:
        files = [e for e in _entries(zf, limits) if not e.is_dir]
        for entry in files:
            for _ in _contents(data, entry.info):
                pass
        return [(e.path, e.info.file_size) for e in files]


class _Extraction:
    """Writes under one open directory, component by component, never through a symlink; remembers what it made."""

    def __init__(self, root: Path) -> None:
        self.root_fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        self.made_dirs: list[str] = []
        self.written: list[str] = []
        self.total = 0

    def close(self) -> None:
        os.close(self.root_fd)

    def directory(self, parts: list[str], raw: str, *, create: bool = True) -> int:
        """An open fd of the folder at ``parts`` (made if missing); the caller closes it."""
        fd = os.dup(self.root_fd)
        try:
            for depth, part in enumerate(parts):
                if create:
                    try:
                        os.mkdir(part, 0o755, dir_fd=fd)
                        self.made_dirs.append("/".join(parts[:depth + 1]))
                    except FileExistsError:
                        pass
                try:
                    # O_NOFOLLOW: a symlink already in the destination (to /etc, say) is never gone through.
                    next_fd = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd)
                except OSError as exc:
                    if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                        where = "/".join(parts[:depth + 1])
                        raise ArchiveRefused(f"entry {raw!r} would be written through {where!r}, which is already in "
                                             "the workspace and is not a folder (a file or a symbolic link)") from None
                    raise
                os.close(fd)
                fd = next_fd
            return fd
        except BaseException:
            os.close(fd)
            raise

    def file(self, entry: _Entry, source: Iterable[bytes], limits: ArchiveLimits) -> None:
        parts = entry.path.split("/")
        parent = self.directory(parts[:-1], entry.info.filename)
        try:
            try:
                # O_EXCL: existing files are not overwritten, and with O_CREAT a symlink there is not followed.
                fd = os.open(parts[-1], os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600,
                             dir_fd=parent)
            except FileExistsError:
                raise ArchiveRefused(f"entry {entry.info.filename!r} is already in the workspace") from None
            self.written.append(entry.path)
            with os.fdopen(fd, "wb") as out:
                self.total += copy_capped(source, out, entry.info.filename, limits, self.total)
                os.fchmod(out.fileno(), entry.mode)
        finally:
            os.close(parent)

    def undo(self) -> None:
        """Remove what this extraction wrote: its files, then its folders, deepest first."""
        for path in self.written:
            self._remove(path, os.unlink)
        for path in reversed(self.made_dirs):
            self._remove(path, os.rmdir)  # a folder not empty: something else (not this call) wrote there meanwhile

    def _remove(self, path: str, remove: Callable[..., None]) -> None:
        parts = path.split("/")
        try:
            parent = self.directory(parts[:-1], path, create=False)
        except (ArchiveRefused, OSError):
            return
        try:
            remove(parts[-1], dir_fd=parent)
        except OSError:
            pass
        finally:
            os.close(parent)


def copy_capped(source: Iterable[bytes], out: IO[bytes], name: str, limits: ArchiveLimits, total_before: int = 0) -> int:
    """Copy the pieces of ``source`` to ``out`` counting the real bytes, refusing as soon as a cap is passed;
    returns the count.

    From a zip, ``source`` is :func:`_contents`, which already stops a piece past the declared size (within
    the caps, :func:`_entries`): the caps here hold whatever the source.
    """
    size = 0
    for chunk in source:
        size += len(chunk)
        if size > limits.max_file_bytes:
            raise ArchiveRefused(f"entry {name!r} is more than {_mib(limits.max_file_bytes)} uncompressed, the limit "
                                 "per file (its header said less)")
        if total_before + size > limits.max_total_bytes:
            raise ArchiveRefused(f"the files add up to more than the limit of {_mib(limits.max_total_bytes)} "
                                 f"uncompressed (at entry {name!r}, whose header said less)")
        out.write(chunk)
    return size


def extract_zip(data: bytes, dest: Path, limits: ArchiveLimits = ArchiveLimits()) -> list[str]:
    """Extract into ``dest`` (an existing directory, empty or not); returns the relative paths of the files written.

    Every rule that needs no decompression is checked first; then each entry is read as :func:`check_zip`
    reads it (:func:`_contents`, refused unless it is what its headers declare). Files already in ``dest``
    are never overwritten (the entry is refused). On a refusal part-way, what this call wrote is removed
    before :class:`ArchiveRefused` is raised.
    """
    with _open(data, limits) as zf:
        entries = _entries(zf, limits)
        extraction = _Extraction(Path(dest))
        try:
            for entry in entries:
                if entry.is_dir:
                    os.close(extraction.directory(entry.path.split("/"), entry.info.filename))
                    continue
                extraction.file(entry, _contents(data, entry.info), limits)
            return list(extraction.written)
        except BaseException:
            extraction.undo()
            raise
        finally:
            extraction.close()


def _utf8_names(zf: zipfile.ZipFile) -> None:
    # A name without the zip's UTF-8 flag is read as CP437: non-ASCII there means its real encoding is a guess.
    for info in zf.infolist():
        if not info.flag_bits & 0x800 and not info.orig_filename.isascii():
            raise ArchiveRefused(f"entry {info.filename!r} has a name that is not UTF-8; zip it again with UTF-8 names")


def read_zip(data: bytes, limits: ArchiveLimits = ArchiveLimits()) -> dict[str, bytes]:
    """Every file of a zip in memory, {relative posix path: content}, under the same rules as :func:`extract_zip`
    (names confined, no links, each entry exactly what its headers declare) and one more: names must be UTF-8."""
    with _open(data, limits) as zf:
        _utf8_names(zf)
        files: dict[str, bytes] = {}
        total = 0
        for entry in _entries(zf, limits):
            if entry.is_dir:
                continue
            out = io.BytesIO()
            total += copy_capped(_contents(data, entry.info), out, entry.info.filename, limits, total)
            files[entry.path] = out.getvalue()
        return files


def _zip_info(path: str, mode: int, mtime: float | None = None) -> zipfile.ZipInfo:
    # Zip timestamps start in 1980; anything older (or a clock at 0) would make zipfile raise.
    when = mtime if mtime is not None else time.time()
    stamp = time.localtime(min(max(when, 315532800 + 86400), 4102444800))[:6]  # 1980-01-02 .. 2100-01-01
    info = zipfile.ZipInfo(path, date_time=stamp)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = (stat.S_IFREG | mode) << 16
    return info


def _printable(text: str) -> str:
    # A name read from a Linux disk may hold any bytes but '/' and NUL: those that are not UTF-8 come as lone
    # surrogates (os.fsdecode's surrogateescape), which no zip can encode; control characters (a newline, an
    # escape sequence) would be read by whoever lists the zip. Each becomes a visible stand-in.
    return "".join("\ufffd" if 0xD800 <= ord(ch) <= 0xDFFF else "_" if _control(ch) else ch
                   for ch in text)


def download_name(path: str) -> str:
    """A workspace file's name as it goes into a download: what :func:`_path_of` would accept from an upload.

    An agent may name a file ``..\\..\\Users\\Public\\evil.bat`` (legal on Linux); extractors on Windows take
    ``\\`` as a separator. So, as for uploads, ``\\`` separates; then a drive letter, empty, ``.`` and ``..``
    parts are dropped, not refused: the file is still downloaded, beneath the folder it is unpacked into.
    """
    name = _printable(path).replace("\\", "/")
    parts = [part for part in name.split("/") if part not in ("", ".", "..")]
    while parts and _DRIVE.match(parts[0]):
        parts[0] = _DRIVE.sub("", parts[0], count=1)
        if parts[0] in ("", ".", ".."):
            parts.pop(0)
    return "/".join(parts) or "unnamed"


def _numbered(name: str, n: int) -> str:
    stem, dot, extension = name.rpartition(".")
    if not stem or not dot:  # no extension, or a dotfile (".env")
        return f"{name} ({n})"
    return f"{stem} ({n}).{extension}"


class _Names:
    """Download names given so far: a name cleaned into one already given (or into a folder's, or under a file's)
    gets a number, so no file silently replaces another in the zip."""

    def __init__(self) -> None:
        self.files: set[str] = set()
        self.folders: set[str] = set()

    def _free(self, path: str) -> bool:
        return path not in self.files and path not in self.folders

    def give(self, path: str) -> str:
        parts = download_name(path).split("/")
        for depth in range(len(parts) - 1):  # a folder named like a file already given: number the folder
            folder = "/".join(parts[:depth + 1])
            if folder in self.files:
                above, n = parts[:depth], 2
                while "/".join([*above, _numbered(parts[depth], n)]) in self.files:
                    n += 1
                parts[depth] = _numbered(parts[depth], n)
        name, n = "/".join(parts), 2
        while not self._free(name):
            name = "/".join([*parts[:-1], _numbered(parts[-1], n)])
            n += 1
        self.files.add(name)
        self.folders.update("/".join(parts[:i]) for i in range(1, len(parts)))
        return name


def zip_entries(entries: Iterable[tuple[str, bytes]]) -> bytes:
    """A zip (deflated) of (relative path, content) pairs, for downloads.

    Paths are workspace names, which anyone who ran an agent chose: each goes in as :func:`download_name` makes
    it (no ``\\``, drive, ``..`` or control characters; names that are not UTF-8 with U+FFFD where the bytes
    were), numbered ``name (2).ext`` when that clashes with a name already in the zip.
    """
    names = _Names()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for path, content in entries:
            zf.writestr(_zip_info(names.give(path), 0o644), content)
    return buffer.getvalue()


def zip_directory(root: Path) -> bytes:
    """A zip of every regular file under ``root`` (symlinks are neither followed nor included; relative posix paths)."""
    root = Path(root)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        # followlinks=False: a linked folder is listed but not entered (and, being a link, not included).
        for folder, dirnames, filenames in os.walk(root, followlinks=False):
            dirnames.sort()
            for name in sorted(filenames):
                full = os.path.join(folder, name)
                try:
                    # O_NOFOLLOW: a file swapped for a link since the listing is skipped, not followed.
                    fd = os.open(full, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
                except OSError:
                    continue  # a symlink, or gone since the listing
                with os.fdopen(fd, "rb") as source:
                    status = os.fstat(fd)
                    if not stat.S_ISREG(status.st_mode):
                        continue  # fifos, sockets, devices: not workspace content
                    mode = 0o755 if status.st_mode & 0o111 else 0o644
                    relative = Path(full).relative_to(root).as_posix()
                    with zf.open(_zip_info(relative, mode, status.st_mtime), "w") as out:
                        while chunk := source.read(_CHUNK):
                            out.write(chunk)
    return buffer.getvalue()
