"""The file tools: ``read``, ``write``, ``edit``, ``glob``, ``grep``, confined to the workspace.

Parameters and limits follow upstream's (see ``docs/tools.md``): reads and
outputs stop at 1 MB with a note saying so, ``grep`` matches a fixed string
unless ``regex`` is true and gives up after 30 s.

The workspace is written concurrently by the agents' ``bash``, which can turn
any name into a symlink to the server's files at any moment. So no tool opens
a path it checked: every file and directory is opened beneath a descriptor of
the root (:meth:`Workspace.open`, ``openat2`` with ``RESOLVE_BENEATH``), and
what follows works on that descriptor (``fstat``, ``read``, ``scandir``).
``write`` makes missing parents one at a time relative to their parent's
descriptor; ``glob`` walks directories it opened, never entering a link.

``grep`` runs GNU grep as a process (argv, no shell): it can be killed at its
time limit, and its regex engine does not backtrack, so a hostile pattern
cannot pin a server thread. It never gets a path the agent controls: a file is
opened here and given to grep as its standard input (``--label`` names it); a
directory is opened here and becomes grep's working directory through
``/proc/self/fd`` (a magic link: the child's ``chdir`` lands on the opened
directory itself, whatever its name now points to), searched as ``grep -r``
with no operand; ``-r`` opens what it finds below with ``O_NOFOLLOW``.
"""
from __future__ import annotations

import asyncio
import errno
import fcntl
import fnmatch
import os
import re
import stat
from contextlib import closing

from runtime.tools import Tool, ToolError, ToolResult, ToolSettings
from runtime.tools.sandbox import MAX_OUTPUT, TRUNCATION_NOTE
from runtime.tools.workspace import OutsideWorkspace, Workspace

GREP_TIMEOUT = 30.0
# Up to this size a read or write happens on the event loop: a worker-thread hop costs more than the I/O
# (a 10 kB file takes ~0.1 ms); bigger files go to a thread so that one agent cannot hold up the others.
INLINE_BYTES = 256 * 1024
MAX_GLOB_RESULTS = 5000
# O_NONBLOCK: opening a FIFO planted where a file was expected returns at once (and is then refused) instead of
# waiting for a writer; it changes nothing for a regular file. O_NOCTTY: a terminal never becomes ours.
READ_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY
WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NONBLOCK | os.O_NOCTTY


def _string(args: dict, name: str, *, required: bool = True) -> str:
    value = args.get(name)
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise ToolError(f"`{name}` is required and must be a string")
    return value


def _flag(args: dict, name: str) -> bool:
    value = args.get(name, False)
    if not isinstance(value, bool):
        raise ToolError(f"`{name}` must be true or false")
    return value


def cap(text: str, limit: int = MAX_OUTPUT) -> ToolResult:
    data = text.encode("utf-8", "replace")
    if len(data) <= limit:
        return ToolResult(text)
    return ToolResult(data[:limit].decode("utf-8", "ignore") + TRUNCATION_NOTE, truncated=True)


# -- opening, and what went wrong in words ------------------------------------------------------------------------

def _within(workspace: Workspace, path: str) -> str:
    try:
        return workspace.within(path)
    except OutsideWorkspace as exc:
        raise ToolError(str(exc)) from None


def _open(workspace: Workspace, rel: str, flags: int, *, missing: str = "no such file") -> int:
    try:
        return workspace.open(rel, flags)
    except OutsideWorkspace as exc:
        raise ToolError(str(exc)) from None
    except OSError as exc:
        raise ToolError(_words(workspace, rel, exc, missing)) from None


def _kind(mode: int) -> str:
    for test, words in ((stat.S_ISREG, "a file"), (stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
                        (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
                        (stat.S_ISBLK, "a block device"), (stat.S_ISLNK, "a symbolic link")):
        if test(mode):
            return words
    return "neither a file nor a directory"


def _kind_of(workspace: Workspace, rel: str) -> str:
    """What ``rel`` is, for an error message (opened ``O_PATH``: a FIFO or socket is not touched)."""
    try:
        fd = workspace.open(rel, os.O_PATH)
    except (OSError, OutsideWorkspace):
        return "gone, or neither a file nor a directory"
    try:
        return _kind(os.fstat(fd).st_mode)
    finally:
        os.close(fd)


def _not_a_directory(workspace: Workspace, rel: str) -> str | None:
    """The first parent of ``rel`` that is not a directory, and what it is instead, in words."""
    parts = rel.split("/")
    for i in range(1, len(parts)):
        prefix = "/".join(parts[:i])
        try:
            fd = workspace.open(prefix, os.O_PATH)
        except (OSError, OutsideWorkspace):
            return None
        try:
            mode = os.fstat(fd).st_mode
            if not stat.S_ISDIR(mode):
                return f"{prefix} is {_kind(mode)}"
        finally:
            os.close(fd)
    return None


def _words(workspace: Workspace, rel: str, exc: OSError, missing: str) -> str:
    if isinstance(exc, FileNotFoundError):
        return f"{rel}: {missing}"
    if isinstance(exc, IsADirectoryError):
        return f"{rel} is a directory"
    if isinstance(exc, NotADirectoryError):
        blocker = _not_a_directory(workspace, rel)
        return f"{blocker}, not a directory" if blocker else f"{rel}: a part of the path is not a directory"
    if isinstance(exc, PermissionError):
        return f"{rel}: permission denied"
    if exc.errno == errno.ENXIO:  # a FIFO opened for writing with no reader, or a socket
        return f"{rel} is {_kind_of(workspace, rel)}, not a regular file; the file tools work on regular files only"
    if exc.errno == errno.ELOOP:
        return f"{rel}: too many levels of symbolic links (a link that leads back to itself?)"
    if exc.errno == errno.ENAMETOOLONG:
        return f"{rel}: the path is too long"
    reason = exc.strerror or str(exc)
    return f"{rel}: {reason[:1].lower() + reason[1:]}"


def _regular(fd: int, rel: str, tool: str) -> os.stat_result:
    info = os.fstat(fd)
    if stat.S_ISREG(info.st_mode):
        return info
    if stat.S_ISDIR(info.st_mode):
        raise ToolError(f"{rel} is a directory" + ("; use glob to list it" if tool == "read" else ""))
    raise ToolError(f"{rel} is {_kind(info.st_mode)}, not a regular file; {tool} works on regular files only")


# -- read, write, edit --------------------------------------------------------------------------------------------

def _read_fd(fd: int) -> ToolResult:
    chunks, total = [], 0
    while total <= MAX_OUTPUT and (chunk := os.read(fd, MAX_OUTPUT + 1 - total)):
        chunks.append(chunk)
        total += len(chunk)
    data = b"".join(chunks)
    if len(data) > MAX_OUTPUT:
        return ToolResult(data[:MAX_OUTPUT].decode("utf-8", "replace") + TRUNCATION_NOTE, truncated=True)
    return ToolResult(data.decode("utf-8", "replace"))


def read_file(workspace: Workspace, path: str) -> ToolResult:
    rel = _within(workspace, path)
    fd = _open(workspace, rel, READ_FLAGS)
    try:
        _regular(fd, rel, "read")
        return _read_fd(fd)
    except OSError as exc:
        raise ToolError(_words(workspace, rel, exc, "no such file")) from None
    finally:
        os.close(fd)


def write_file(workspace: Workspace, path: str, content: str) -> str:
    rel = _within(workspace, path)
    if rel == ".":
        raise ToolError("path names the workspace itself; give a file name")
    data = content.encode("utf-8", "replace")  # before the open truncates anything
    try:
        try:
            fd = workspace.open(rel, WRITE_FLAGS, 0o644)
        except FileNotFoundError:
            parent = rel.rpartition("/")[0]
            if not parent:
                raise
            os.close(workspace.mkdirs(parent))
            fd = workspace.open(rel, WRITE_FLAGS, 0o644)
    except OutsideWorkspace as exc:
        raise ToolError(str(exc)) from None
    except OSError as exc:
        raise ToolError(_words(workspace, rel, exc, "no such file or directory")) from None
    try:
        _regular(fd, rel, "write")
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    except OSError as exc:
        raise ToolError(_words(workspace, rel, exc, "no such file or directory")) from None
    finally:
        os.close(fd)
    return f"wrote {len(data)} bytes to {rel}"


class ReadTool(Tool):
    name = "read"

    async def run(self, args: dict, workspace: Workspace, settings: ToolSettings) -> ToolResult:
        path = _string(args, "path")
        rel = _within(workspace, path)
        fd = _open(workspace, rel, READ_FLAGS)
        try:
            small = _regular(fd, rel, "read").st_size <= INLINE_BYTES
            if small:
                return _read_fd(fd)
        except OSError as exc:
            raise ToolError(_words(workspace, rel, exc, "no such file")) from None
        finally:
            os.close(fd)
        # A big file: read again in a thread that opens it itself (a descriptor handed to a thread that a
        # cancellation may never start would leak).
        return await asyncio.to_thread(read_file, workspace, path)


class WriteTool(Tool):
    name = "write"

    async def run(self, args: dict, workspace: Workspace, settings: ToolSettings) -> ToolResult:
        path, content = _string(args, "path"), _string(args, "content")
        if len(content) <= INLINE_BYTES:
            return ToolResult(write_file(workspace, path, content))
        return ToolResult(await asyncio.to_thread(write_file, workspace, path, content))


def edit_file(workspace: Workspace, path: str, old: str, new: str, replace_all: bool) -> str:
    if not old:
        raise ToolError("`old_string` is empty; use write to create a file")
    current = read_file(workspace, path)
    if current.truncated:
        raise ToolError(f"{path} is larger than 1 MB; edit works on smaller files")
    count = current.output.count(old)
    if count == 0:
        raise ToolError(f"`old_string` was not found in {path}")
    if count > 1 and not replace_all:
        raise ToolError(f"`old_string` occurs {count} times in {path}; give more context or set replace_all")
    updated = current.output.replace(old, new) if replace_all else current.output.replace(old, new, 1)
    write_file(workspace, path, updated)
    return f"replaced {count if replace_all else 1} occurrence(s) in {path}"


class EditTool(Tool):
    name = "edit"

    async def run(self, args: dict, workspace: Workspace, settings: ToolSettings) -> ToolResult:
        replace_all = _flag(args, "replace_all")
        return ToolResult(await asyncio.to_thread(edit_file, workspace, _string(args, "path"),
                                                  _string(args, "old_string"), _string(args, "new_string"),
                                                  replace_all))


# -- glob ---------------------------------------------------------------------------------------------------------

def _matches(name: str, part: str) -> bool:
    return fnmatch.fnmatchcase(name, part) if any(c in part for c in "*?[") else name == part


def _listable(workspace: Workspace, entry: os.DirEntry[str], rel: str) -> bool:
    """Everything is, but a link that leads out of the workspace (a dangling link inside still is)."""
    try:
        if not entry.is_symlink():
            return True
        os.close(workspace.open(rel, os.O_PATH))
    except OutsideWorkspace:
        return False
    except OSError:
        pass
    return True


def glob_files(workspace: Workspace, pattern: str) -> ToolResult:
    """Each component of ``pattern`` matched as fnmatch does (``*`` matches dotfiles too), ``**`` as any number of
    directories; walked on descriptors (:meth:`Workspace.walk`), so a directory reached through a link is never
    entered, and a link is listed only while it points inside."""
    if not pattern.strip():
        raise ToolError("`pattern` is empty")
    if pattern.startswith("/") or ".." in pattern.split("/"):
        raise ToolError(f"pattern {pattern!r} must stay inside the workspace (relative, without '..')")
    parts = [part for part in pattern.split("/") if part not in ("", ".")]
    if not parts:
        raise ToolError(f"pattern {pattern!r} names no file; try '*' or '**/*'")
    last = len(parts)

    def closure(indices: set[int]) -> frozenset[int]:
        # "**" may stand for no directory at all: where it is due, what follows it is due too.
        due, todo = set(indices), list(indices)
        while todo:
            i = todo.pop()
            if i < last and parts[i] == "**" and i + 1 not in due:
                due.add(i + 1)
                todo.append(i + 1)
        return frozenset(due)

    due_in: dict[str, frozenset[int]] = {"": closure({0})}
    found: set[str] = set()
    try:
        with closing(workspace.walk(".")) as walk:
            for rel_dir, _fd, entries in walk:
                due = due_in.pop(rel_dir, frozenset())
                if last in due:
                    found.add(rel_dir or ".")  # a pattern ending in "**" lists directories
                entered = []
                for entry in entries:
                    rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
                    below, hit = set(), False
                    for i in due:
                        if i == last:
                            continue
                        if parts[i] == "**":
                            below.add(i)
                        elif _matches(entry.name, parts[i]):
                            if i + 1 == last:
                                hit = True
                            else:
                                below.add(i + 1)
                    if hit and _listable(workspace, entry, rel):
                        found.add(rel)
                    if below and entry.is_dir(follow_symlinks=False):
                        due_in[rel] = closure(below)
                        entered.append(entry)
                entries[:] = entered
                if len(found) > MAX_GLOB_RESULTS:
                    break
    except OutsideWorkspace as exc:
        raise ToolError(str(exc)) from None
    except OSError as exc:
        raise ToolError(f"the workspace cannot be listed: {exc.strerror or exc}") from None
    listed = sorted(found)
    note = ""
    if len(listed) > MAX_GLOB_RESULTS:
        listed, note = listed[:MAX_GLOB_RESULTS], f"\n...[more than {MAX_GLOB_RESULTS} matches; narrow the pattern]"
    if not listed:
        return ToolResult(f"no files match {pattern!r}")
    return cap("\n".join(listed) + note)


class GlobTool(Tool):
    name = "glob"

    async def run(self, args: dict, workspace: Workspace, settings: ToolSettings) -> ToolResult:
        pattern = _string(args, "pattern")
        if "**" not in pattern and pattern.count("/") <= 2:
            return glob_files(workspace, pattern)  # a directory or two deep: cheaper than a thread hop
        return await asyncio.to_thread(glob_files, workspace, pattern)


# -- grep ---------------------------------------------------------------------------------------------------------

# grep's complaints about a file read "grep: NAME: <strerror>"; only those get the directory's path put before NAME.
_FILE_ERROR = re.compile("^(.+): (" + "|".join(sorted({re.escape(os.strerror(code)) for code in errno.errorcode},
                                                       key=len, reverse=True)) + ")$")


def _relabel(out: bytes, prefix: bytes) -> bytes:
    """grep's ``NAME\\0LINE:TEXT`` records (``--null``) as ``PREFIX NAME:LINE:TEXT``; a name may hold anything but
    NUL, even a newline, and a line anything but a newline."""
    lines, pos = [], 0
    while pos < len(out):
        nul = out.find(b"\0", pos)
        if nul < 0:
            lines.append(out[pos:])  # cut short at the output cap
            break
        end = out.find(b"\n", nul)
        end = len(out) if end < 0 else end
        lines.append(prefix + out[pos:nul] + b":" + out[nul + 1:end])
        pos = end + 1
    return b"\n".join(lines)


def _complaints(err: bytes, prefix: str) -> str:
    lines = []
    for line in err.decode("utf-8", "replace").splitlines():
        line = line.removeprefix("grep: ")
        if prefix and (match := _FILE_ERROR.match(line)):
            line = f"{prefix}{match.group(1)}: {match.group(2)}"
        lines.append(line)
    return "\n".join(lines)


async def grep_files(workspace: Workspace, pattern: str, path: str, regex: bool,
                     timeout: float = GREP_TIMEOUT) -> ToolResult:
    if not pattern:
        raise ToolError("`pattern` is empty")
    shown = path or "."
    rel = _within(workspace, shown)
    argv = ["grep", "-n", "-H", "-I", "--null", "--color=never", "-E" if regex else "-F", "-e", pattern]
    fd = _open(workspace, rel, READ_FLAGS, missing="no such file or directory")
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISREG(mode):
            argv.append(f"--label={rel}")
            stdin, cwd, prefix = fd, "/", ""
        elif stat.S_ISDIR(mode):
            if fd < 3:  # the child's stdio takes 0-2 before its chdir
                fd_high = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)
                os.close(fd)
                fd = fd_high
            # -D skip: a FIFO or device below is passed over, never opened.
            argv[1:1] = ["-r", "-D", "skip"]
            stdin, cwd, prefix = asyncio.subprocess.DEVNULL, f"/proc/self/fd/{fd}", "" if rel == "." else rel + "/"
        else:
            raise ToolError(f"{rel} is {_kind(mode)}; grep searches regular files and directories")
        try:
            process = await asyncio.create_subprocess_exec(
                *argv, cwd=cwd, stdin=stdin, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
                env={"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"})
        except OSError as exc:  # no grep, no /proc, no processes left: nothing the model did
            raise ToolError(f"grep could not be started on this server ({exc.strerror or exc}); use bash to search") from None
    except OSError as exc:
        raise ToolError(_words(workspace, rel, exc, "no such file or directory")) from None
    finally:
        os.close(fd)  # the child has its own: a dup as stdin, or its working directory
    try:
        out, err = await asyncio.wait_for(_read_capped(process), timeout)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise ToolError(f"grep took longer than {timeout:g}s; narrow the path or the pattern") from None
    except asyncio.CancelledError:
        process.kill()
        await process.wait()
        raise
    complaints = _complaints(err, prefix).strip() if process.returncode not in (0, 1) else ""
    if not out:
        if complaints:
            raise ToolError(complaints)
        if process.returncode not in (0, 1):
            raise ToolError(f"grep failed (exit {process.returncode})")
        return ToolResult(f"no matches for {pattern!r} in {shown}")
    text = _relabel(out[:MAX_OUTPUT] if len(out) > MAX_OUTPUT else out, prefix.encode())
    if len(out) > MAX_OUTPUT or len(text) > MAX_OUTPUT:
        return ToolResult(text[:MAX_OUTPUT].decode("utf-8", "ignore") + TRUNCATION_NOTE, truncated=True)
    result = text.decode("utf-8", "replace").rstrip("\n")
    if complaints:  # matches, and some files that could not be searched (one vanished, one was unreadable)
        result += "\n[some files could not be searched: " + "; ".join(complaints.splitlines()[:5]) + "]"
    return ToolResult(result)


async def _read_capped(process: asyncio.subprocess.Process) -> tuple[bytes, bytes]:
    stdout, stderr = process.stdout, process.stderr
    if stdout is None or stderr is None:  # started with stdout=PIPE, stderr=PIPE
        raise RuntimeError("the process was started without pipes to read")

    async def drain(stream: asyncio.StreamReader, limit: int) -> bytes:
        kept = bytearray()
        while chunk := await stream.read(65536):
            if len(kept) <= limit:  # keep reading past the cap so grep never blocks on a full pipe
                kept += chunk
        return bytes(kept)

    out, err = await asyncio.gather(drain(stdout, MAX_OUTPUT), drain(stderr, 65536))
    await process.wait()
    return out, err


class GrepTool(Tool):
    name = "grep"

    async def run(self, args: dict, workspace: Workspace, settings: ToolSettings) -> ToolResult:
        return await grep_files(workspace, _string(args, "pattern"), _string(args, "path", required=False),
                                _flag(args, "regex"))
