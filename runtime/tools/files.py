"""The file tools: ``read``, ``write``, ``edit``, ``glob``, ``grep``, confined to the workspace.

Parameters and limits follow upstream's (see ``docs/tools.md``): reads and
outputs stop at 1 MB with a note saying so, ``grep`` matches a fixed string
unless ``regex`` is true and gives up after 30 s. Every path goes through
:meth:`Workspace.resolve`, and a file is checked again once opened (through
``/proc/self/fd``), so a symlink swapped in by a concurrent ``bash`` between
the check and the open still cannot lead outside.

``grep`` runs GNU grep as a process (argv, no shell; ``-r`` does not follow
symlinks): it can be killed at its time limit, and its regex engine does not
backtrack, so a hostile pattern cannot pin a server thread.
"""
from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path

from runtime.tools import Tool, ToolError, ToolResult, ToolSettings
from runtime.tools.sandbox import MAX_OUTPUT, TRUNCATION_NOTE
from runtime.tools.workspace import OutsideWorkspace, Workspace

GREP_TIMEOUT = 30.0
# Up to this size a read or write happens on the event loop: a worker-thread hop costs more than the I/O
# (a 10 kB file takes ~0.1 ms); bigger files go to a thread so that one agent cannot hold up the others.
INLINE_BYTES = 256 * 1024
MAX_GLOB_RESULTS = 5000


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


def _inside(workspace: Workspace, path: str, what: str = "path") -> Path:
    try:
        return workspace.resolve(path, what=what)
    except OutsideWorkspace as exc:
        raise ToolError(str(exc)) from None


def _check_fd(workspace: Workspace, fd: int, path: str) -> None:
    real = Path(os.readlink(f"/proc/self/fd/{fd}"))
    root = workspace.ensure()
    if real != root and root not in real.parents:
        raise ToolError(f"path {path!r} is outside the workspace; use a path relative to the workspace")


def cap(text: str, limit: int = MAX_OUTPUT) -> ToolResult:
    data = text.encode("utf-8", "replace")
    if len(data) <= limit:
        return ToolResult(text)
    return ToolResult(data[:limit].decode("utf-8", "ignore") + TRUNCATION_NOTE, truncated=True)


def read_file(workspace: Workspace, path: str) -> ToolResult:
    target = _inside(workspace, path)
    try:
        fd = os.open(target, os.O_RDONLY | os.O_NOFOLLOW)
    except FileNotFoundError:
        raise ToolError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ToolError(f"{path} is a directory; use glob to list it") from None
    except OSError as exc:
        raise ToolError(f"{path}: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as handle:
        _check_fd(workspace, fd, path)
        if not os.path.isfile(f"/proc/self/fd/{fd}"):
            raise ToolError(f"{path} is not a regular file")
        data = handle.read(MAX_OUTPUT + 1)
    if len(data) > MAX_OUTPUT:
        return ToolResult(data[:MAX_OUTPUT].decode("utf-8", "replace") + TRUNCATION_NOTE, truncated=True)
    return ToolResult(data.decode("utf-8", "replace"))


def write_file(workspace: Workspace, path: str, content: str) -> str:
    target = _inside(workspace, path)
    root = workspace.ensure()
    if target == root:
        raise ToolError("path names the workspace itself; give a file name")
    try:
        if not os.path.isdir(target.parent):
            target.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
    except IsADirectoryError:
        raise ToolError(f"{path} is a directory") from None
    except OSError as exc:
        raise ToolError(f"{path}: {exc.strerror or exc}") from None
    data = content.encode("utf-8")
    with os.fdopen(fd, "wb") as handle:
        # A parent swapped for a symlink since the check would have led the open outside: refuse, and take
        # back the file the open may have created there.
        real = Path(os.readlink(f"/proc/self/fd/{fd}"))
        if root not in real.parents:
            with contextlib.suppress(OSError):
                if os.fstat(fd).st_size == 0:
                    os.unlink(real)
            raise ToolError(f"path {path!r} is outside the workspace; use a path relative to the workspace")
        handle.write(data)
    return f"wrote {len(data)} bytes to {workspace.relative(target)}"


class ReadTool(Tool):
    name = "read"

    async def run(self, args: dict, workspace: Workspace, settings: ToolSettings) -> ToolResult:
        path = _string(args, "path")
        try:
            small = os.stat(workspace.ensure() / path).st_size <= INLINE_BYTES
        except (OSError, ValueError):
            small = True  # missing or odd: read_file says what is wrong, at once
        return read_file(workspace, path) if small else await asyncio.to_thread(read_file, workspace, path)


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


def glob_files(workspace: Workspace, pattern: str) -> ToolResult:
    if not pattern.strip():
        raise ToolError("`pattern` is empty")
    if Path(pattern).is_absolute() or ".." in Path(pattern).parts:
        raise ToolError(f"pattern {pattern!r} must stay inside the workspace (relative, without '..')")
    root = workspace.ensure()
    found: list[str] = []
    try:
        for match in root.glob(pattern):
            real = Path(os.path.realpath(match))
            if real != root and root not in real.parents:
                continue  # reached through a symlink pointing out: not the workspace's
            found.append(match.relative_to(root).as_posix())
            if len(found) > MAX_GLOB_RESULTS:
                break
    except (ValueError, NotImplementedError) as exc:
        raise ToolError(f"pattern {pattern!r}: {exc}") from None
    found.sort()
    note = ""
    if len(found) > MAX_GLOB_RESULTS:
        found, note = found[:MAX_GLOB_RESULTS], f"\n...[more than {MAX_GLOB_RESULTS} matches; narrow the pattern]"
    if not found:
        return ToolResult(f"no files match {pattern!r}")
    return cap("\n".join(found) + note)


class GlobTool(Tool):
    name = "glob"

    async def run(self, args: dict, workspace: Workspace, settings: ToolSettings) -> ToolResult:
        pattern = _string(args, "pattern")
        if "**" not in pattern and pattern.count("/") <= 2:
            return glob_files(workspace, pattern)  # a directory or two deep: cheaper than a thread hop
        return await asyncio.to_thread(glob_files, workspace, pattern)


async def grep_files(workspace: Workspace, pattern: str, path: str, regex: bool,
                     timeout: float = GREP_TIMEOUT) -> ToolResult:
    if not pattern:
        raise ToolError("`pattern` is empty")
    target = _inside(workspace, path or ".")
    root = workspace.ensure()
    rel = os.path.relpath(target, root)
    # With no operand, grep -r searches the working directory and names files without a "./" prefix.
    argv = ["grep", "-r", "-n", "-H", "-I", "--color=never", "-E" if regex else "-F", "-e", pattern]
    if rel != ".":
        argv += ["--", rel]
    process = await asyncio.create_subprocess_exec(
        *argv, cwd=root, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, env={"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"})
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
    if process.returncode == 1:
        return ToolResult(f"no matches for {pattern!r} in {path or '.'}")
    if process.returncode not in (0, None):
        message = err.decode("utf-8", "replace").strip().replace("grep: ", "")
        raise ToolError(message or f"grep failed (exit {process.returncode})")
    text = out.decode("utf-8", "replace")
    if len(out) > MAX_OUTPUT:
        return ToolResult(out[:MAX_OUTPUT].decode("utf-8", "ignore") + TRUNCATION_NOTE, truncated=True)
    return ToolResult(text.rstrip("\n"))


async def _read_capped(process: asyncio.subprocess.Process) -> tuple[bytes, bytes]:
    assert process.stdout is not None and process.stderr is not None
    stdout, stderr = process.stdout, process.stderr

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
