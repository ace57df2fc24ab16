"""Run an agent's shell command contained: bubblewrap, or (when the administrator says so) nothing.

The ``bash`` tool runs whatever a model writes, so the command must not see
the server: its environment (API keys, ``SECRET_KEY``, ``DATABASE_URL``), its
files (the data folder, the project source, other runs' workspaces) or, unless
the deployment allows it, the network. Nor may it gain anything the server has:
the server may run as root, and a command that is root in its sandbox can
remount the host's ``/usr`` writable. In ``"bwrap"`` mode the command runs in
a bubblewrap sandbox where only the run's workspace is writable (at
``/workspace``), the system directories are read-only, ``/tmp`` is private,
every namespace is fresh, and the command is an ordinary user of its own user
namespace with no capability, no way to gain one and no way to make a nested
namespace. ``AGENT_SANDBOX=off`` (mode ``"off"``) is the administrator's way
out on hosts where bubblewrap cannot run: the command then runs directly in the
workspace, as the server's own user, with the same scratch environment; none of
the above holds.

Either way the output is capped, the time is bounded, and nothing the command
started outlives the call: not at the timeout, not when the engine cancels the
step.
"""
from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

MAX_OUTPUT = 1_000_000          # bytes of combined stdout+stderr kept
TRUNCATION_NOTE = "\n...[output truncated at 1MB]"
DEFAULT_TIMEOUT = 30.0
MAX_TIMEOUT = 300.0

PATH = "/usr/local/bin:/usr/bin:/bin"
SANDBOX_WORKSPACE = "/workspace"
# After the command itself has ended, how long to wait for whatever still holds its output pipe.
_DRAIN_GRACE = 2.0
_PROBE_TIMEOUT = 10.0

# Top-level names that are symlinks into /usr on merged-/usr systems (directories on older ones).
_SYSTEM_LINKS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
# The read-only /etc a shell and common tools need: nothing with accounts, hosts' secrets or configuration.
# Of /etc/ssl only the certificates and OpenSSL's configuration: beside them /etc/ssl/private holds the host's TLS
# keys, mode 0700 root, and when the server is root the command reads as the owner.
_ETC = ("alternatives", "ld.so.cache", "localtime", "ssl/certs", "ssl/openssl.cnf", "ca-certificates")
_ETC_NETWORK = ("resolv.conf", "hosts", "nsswitch.conf")

# Who the command is inside its user namespace. Not 0, so nothing in there takes it for root; not 65534, the
# kernel's overflow id, which is how every host owner the namespace does not map shows up, so st_uid still tells
# the command's own files from the host's. bwrap maps it to the server's own uid (the one mapping it can make):
# on the host, what the command writes in the workspace is the server's, to read, change and delete.
SANDBOX_UID = 1000
SANDBOX_GID = 1000
# bwrap started by root only *tries* a user namespace under --unshare-all, and skips it: the command was root with
# every capability. --unshare-user insists; as a non-zero uid in it the command keeps no capability (--cap-drop ALL
# empties the bounding set as well, whoever started bwrap); --disable-userns refuses it the nested namespace in
# which it would be root again. bwrap always sets no_new_privs, so no setuid file gives any of it back.
_UNPRIVILEGED = ("--unshare-user", "--disable-userns", "--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_GID),
                 "--cap-drop", "ALL")


class SandboxUnavailable(Exception):
    """bwrap is missing or refuses to start; the message says so in words a user understands.

    It also names ``AGENT_SANDBOX=off``, the administrator's way out.
    """


@dataclass
class CommandResult:
    output: str            # combined stdout+stderr, capped at MAX_OUTPUT bytes (+ TRUNCATION_NOTE), plus a kill note
    exit_code: int | None  # None when killed at the timeout
    timed_out: bool
    truncated: bool
    duration: float


def environment(home: str) -> dict[str, str]:
    """The command's whole environment, built from scratch: nothing of the server's reaches it."""
    # /tmp is the sandbox's own tmpfs (sandbox_argv's --tmpfs /tmp), not the host's.
    return {"PATH": PATH, "HOME": home, "LANG": "C.UTF-8", "TERM": "dumb", "TMPDIR": "/tmp"}  # noqa: S108 - see above


def unavailable_message(reason: str) -> str:
    return (f"the sandbox (bubblewrap) is not available on this server: {reason}. Ask the administrator to install "
            "bubblewrap, or to set AGENT_SANDBOX=off to run commands unsandboxed")


def sandbox_argv(command: str, workspace: Path, *, network: bool = False, bwrap: str = "bwrap",
                 tmp_mb: int | None = None) -> list[str]:
    """The argv that runs ``bash -c command`` in the sandbox (exposed for tests and for the docs).

    Only what is bound exists inside: anything not named here (the data folder, the project source,
    ``/root``, other workspaces) is simply absent.
    """
    argv = [bwrap, "--unshare-all", *_UNPRIVILEGED]
    if network:
        argv.append("--share-net")
    argv += ["--die-with-parent", "--new-session", "--ro-bind", "/usr", "/usr"]
    for name in _SYSTEM_LINKS:
        host = Path("/", name)
        if host.is_symlink():
            argv += ["--symlink", os.readlink(host), str(host)]
        elif host.is_dir():
            argv += ["--ro-bind", str(host), str(host)]
    # /proc read-only: the kernel lets the host's uid 0 write sysctls (kernel.core_pattern: a program run as root on
    # the next crash) without asking for any capability, and when the server is root the command's uid 1000 is the
    # host's 0. bwrap covers /proc/sys only when the directory itself is writable, which it never is.
    argv += ["--proc", "/proc", "--remount-ro", "/proc", "--dev", "/dev"]
    if tmp_mb:
        # A tmpfs is memory: without a size a command could fill half the host's RAM through /tmp.
        argv += ["--size", str(tmp_mb * 2**20)]
    argv += ["--tmpfs", "/tmp"]  # noqa: S108 - mounted fresh in the sandbox
    for name in _ETC + (_ETC_NETWORK if network else ()):
        host = Path("/etc", name)
        if host.exists():
            argv += ["--ro-bind", str(host), str(host)]
    argv += ["--bind", str(workspace), SANDBOX_WORKSPACE, "--chdir", SANDBOX_WORKSPACE,
             # The root is bwrap's own tmpfs, writable by default: without this `touch /etc/x` would succeed.
             "--remount-ro", "/", "--clearenv"]
    for key, value in environment(SANDBOX_WORKSPACE).items():
        argv += ["--setenv", key, value]
    return [*argv, "bash", "-c", command]


@functools.cache
def probe(bwrap: str = "bwrap") -> str | None:
    """None when bwrap works here (runs ``true`` once in the sandbox), else the reason in words. Cached per bwrap path."""
    executable = shutil.which(bwrap)
    if executable is None:
        return f"bubblewrap is not installed ({bwrap!r} was not found)"
    with tempfile.TemporaryDirectory(prefix="sandbox-probe-") as scratch:
        argv = [executable, *sandbox_argv("true", Path(scratch), bwrap=bwrap)[1:]]
        try:
            # An argv list (no shell): bwrap with the sandbox's own arguments, running `true`.
            done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, env=environment(scratch),  # noqa: S603 - see above
                                  timeout=_PROBE_TIMEOUT, check=False)
        except subprocess.TimeoutExpired:
            return f"{bwrap} did not start a test sandbox within {_PROBE_TIMEOUT:g} seconds"
        except OSError as exc:
            return f"{bwrap} could not be started ({exc.strerror or exc})"
    if done.returncode != 0:
        said = (done.stderr or done.stdout).decode("utf-8", errors="replace").strip().splitlines()
        return f"{bwrap} could not start a test sandbox ({said[-1] if said else f'exit code {done.returncode}'})"
    return None


def clamp_timeout(timeout: float) -> float:
    """Into (0, MAX_TIMEOUT]: nonsense (zero, negative, NaN) means the default rather than an instant kill."""
    if not timeout > 0:  # also catches NaN
        return DEFAULT_TIMEOUT
    return min(float(timeout), MAX_TIMEOUT)


class _Output(asyncio.SubprocessProtocol):
    """Collects the merged output as it arrives; past the cap it keeps reading (so the command never blocks on a
    full pipe) but keeps nothing."""

    def __init__(self, loop: asyncio.AbstractEventLoop, limit: int) -> None:
        self.limit = max(0, limit)
        self.chunks: list[bytes] = []
        self.kept = 0
        self.truncated = False
        self.exited: asyncio.Future[None] = loop.create_future()
        self.closed: asyncio.Future[None] = loop.create_future()

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        room = self.limit - self.kept
        if len(data) > room:
            self.truncated = True
            data = data[:room]
        if data:
            self.chunks.append(data)
            self.kept += len(data)

    def process_exited(self) -> None:
        if not self.exited.done():
            self.exited.set_result(None)

    def connection_lost(self, exc: Exception | None) -> None:
        # The process has exited and every pipe is closed: nothing more will arrive.
        for future in (self.exited, self.closed):
            if not future.done():
                future.set_result(None)

    def text(self) -> str:
        text = b"".join(self.chunks).decode("utf-8", errors="replace")
        return text + TRUNCATION_NOTE if self.truncated else text


def _kill_group(pgid: int) -> None:
    # start_new_session made the command its group's leader, so the group id is its pid. In the sandbox this kills
    # bwrap, and --die-with-parent then takes the sandbox's pid 1 and with it every process in the namespace.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


async def _settle(future: asyncio.Future[None], seconds: float) -> None:
    """Wait for ``future`` a bounded time, without cancelling it."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.shield(future), seconds)


def _bwrap_refused(output: str, exit_code: int | None) -> bool:
    """bwrap's own setup failure: exit 1 and nothing but ``bwrap:`` lines (the command never ran)."""
    lines = [line for line in output.splitlines() if line.strip()]
    return exit_code == 1 and bool(lines) and all(line.startswith("bwrap:") for line in lines)


@dataclass(frozen=True)
class ResourceLimits:
    """Per-process limits for a command and everything it starts (setrlimit, through util-linux ``prlimit``):
    CPU seconds, address space and the largest file it may write. None: no limit."""

    cpu_seconds: int | None = None
    memory_mb: int | None = None
    file_mb: int | None = None

    def argv(self) -> list[str]:
        flags = []
        if self.cpu_seconds:
            flags.append(f"--cpu={self.cpu_seconds}")
        if self.memory_mb:
            flags.append(f"--as={self.memory_mb * 2**20}")
        if self.file_mb:
            flags.append(f"--fsize={self.file_mb * 2**20}")
        prlimit = shutil.which("prlimit")
        if not flags or prlimit is None:
            return []
        return [prlimit, *flags, "--"]


async def run_command(command: str, *, workspace: Path, timeout: float = DEFAULT_TIMEOUT, network: bool = False,
                      mode: str = "bwrap", bwrap: str = "bwrap", max_output: int = MAX_OUTPUT,
                      limits: ResourceLimits | None = None, tmp_mb: int | None = None) -> CommandResult:
    """Run ``bash -c command`` in ``workspace`` and return its combined output.

    Raises :class:`SandboxUnavailable` in ``"bwrap"`` mode when bubblewrap cannot run here; a cancelled call
    kills what it started before the cancellation propagates.
    """
    timeout = clamp_timeout(timeout)
    workspace = Path(workspace).resolve()
    if not workspace.is_dir():
        raise NotADirectoryError(f"the workspace {str(workspace)!r} is not a directory")
    cwd: Path | None
    if mode == "bwrap":
        reason = probe(bwrap)
        if reason is not None:
            raise SandboxUnavailable(unavailable_message(reason))
        argv = sandbox_argv(command, workspace, network=network, bwrap=bwrap, tmp_mb=tmp_mb)
        argv[0] = shutil.which(bwrap) or bwrap  # looked up on the server's PATH: bwrap itself gets the scratch one
        # bwrap gets the scratch environment too: its pid 1 in the sandbox keeps the environment it was started
        # with, readable there as /proc/1/environ, whatever --clearenv does for the command.
        env, cwd = environment(SANDBOX_WORKSPACE), None
    elif mode == "off":
        argv, env, cwd = ["bash", "-c", command], environment(str(workspace)), workspace
    else:
        raise ValueError(f"unknown sandbox mode {mode!r} (expected 'bwrap' or 'off')")

    if limits is not None:
        argv = limits.argv() + argv  # prlimit sets them, then execs: the group and pid stay the command's
    loop = asyncio.get_running_loop()
    started = time.monotonic()
    # loop.subprocess_exec (what create_subprocess_exec wraps) with our protocol: it says when the command itself
    # exits, where Process.wait() also waits for the pipe, which a background job can hold open indefinitely.
    transport, output = await loop.subprocess_exec(
        lambda: _Output(loop, max_output), *argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, cwd=cwd, env=env, start_new_session=True)
    pid = transport.get_pid()
    timed_out = False
    try:
        try:
            await asyncio.wait_for(asyncio.shield(output.exited), timeout)
        except TimeoutError:
            timed_out = True
        # Whatever the command left running in its group goes too (in the sandbox it died with the namespace).
        _kill_group(pid)
        await _settle(output.exited, _DRAIN_GRACE)
        await _settle(output.closed, _DRAIN_GRACE)
    except asyncio.CancelledError:
        _kill_group(pid)
        with contextlib.suppress(asyncio.CancelledError):
            await _settle(output.exited, _DRAIN_GRACE)
        raise
    finally:
        transport.close()
    duration = time.monotonic() - started

    exit_code = None if timed_out else transport.get_returncode()
    text = output.text()
    if mode == "bwrap" and _bwrap_refused(text, exit_code):
        raise SandboxUnavailable(unavailable_message(text.strip().splitlines()[-1]))
    if timed_out:
        text += ("\n" if text and not text.endswith("\n") else "") + f"[killed: the command ran longer than {timeout:g}s]"
    return CommandResult(output=text, exit_code=exit_code, timed_out=timed_out, truncated=output.truncated,
                         duration=duration)
