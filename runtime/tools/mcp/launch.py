"""How a stdio MCP server starts: in the run's bubblewrap sandbox, with the run's workspace.

The server runs like an agent's ``bash`` command (:mod:`runtime.tools.sandbox`):
an unprivileged user of its own user namespace with no capability (whoever
starts it; a user's server is started by any signed-in user's check), only the
workspace is writable (it is the working directory and ``$HOME``),
no network unless ``AGENT_NETWORK``, a scratch environment plus the server's
own ``env``, and the same per-process limits. The administrator may make more
host folders visible read-only (``MCP_SANDBOX_PATHS``: an interpreter, the
server's code); nothing else of the host is there.

A small shell around the command writes ``mcp-exit:<code>`` on stderr when the
server ends, so a server that dies is reported with its exit code and the last
line it wrote.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from mcp.client.stdio import StdioServerParameters

from common.redact import cap
from runtime.tools import ToolSettings
from runtime.tools.mcp.config import ServerConfig
from runtime.tools.sandbox import SANDBOX_WORKSPACE, ResourceLimits, SandboxUnavailable, environment, probe, sandbox_argv, unavailable_message

EXIT_MARK = "mcp-exit:"
LAST_LINE = 500   # characters of a server's last stderr line that a message shows (the rest is counted)
# What the SDK's stdio_client passes on of the server process's own environment (besides PATH, HOME and TERM,
# which the sandbox sets).
_SDK_INHERITED = ("LOGNAME", "SHELL", "USER")
_EXIT_LINE = re.compile(r"^mcp-exit:(-?\d+)$")
# Where the sandbox sees the server's env file, and the shell that exports it (values may hold any byte but NUL).
_ENV_INSIDE = "/run/mcp/env"
_LOAD_ENV = "while IFS= read -r -d '' kv; do export \"$kv\"; done <"


def wrapped(command: str, args: tuple[str, ...]) -> str:
    """``bash -c`` text that runs the server and then reports how it ended, keeping its exit code."""
    line = " ".join(shlex.quote(part) for part in (command, *args))
    return f'{line}; code=$?; printf "\\n{EXIT_MARK}%s\\n" "$code" >&2; exit $code'


def exit_status(stderr: str) -> tuple[int | None, str]:
    """(exit code, last other non-empty line) of a server's stderr; the code is None while it runs.

    The line is cut at LAST_LINE characters, saying how many more it had: give this stderr already redacted
    (``Connection._stderr``), so that the cut never keeps the start of a secret."""
    code = None
    last = ""
    for line in stderr.splitlines():
        line = line.strip()
        found = _EXIT_LINE.match(line)
        if found:
            code = int(found.group(1))
        elif line:
            last = line
    return code, cap(last, LAST_LINE)


@dataclass
class Launch:
    config: ServerConfig
    workspace: Path
    settings: ToolSettings
    extra_paths: tuple[str, ...] = ()   # MCP_SANDBOX_PATHS: host folders visible read-only at the same place
    _scratch: str | None = field(default=None, init=False, repr=False)

    def parameters(self) -> StdioServerParameters:
        """What the SDK's ``stdio_client`` starts; SandboxUnavailable when bubblewrap cannot run here."""
        workspace = self.workspace.resolve()
        workspace.mkdir(parents=True, exist_ok=True)
        text = wrapped(self.config.command, self.config.args)
        limits = ResourceLimits(self.settings.cpu_seconds, self.settings.memory_mb, self.settings.file_mb).argv()
        if self.settings.sandbox == "off":
            argv = [*limits, "env", *(f"--unset={key}" for key in _SDK_INHERITED if key not in self.config.env),
                    "bash", "-c", text]
            return StdioServerParameters(command=argv[0], args=argv[1:], cwd=str(workspace),
                                         env={**environment(str(workspace)), **self.config.env})
        reason = probe(self.settings.bwrap)
        if reason is not None:
            raise SandboxUnavailable(unavailable_message(reason))
        # The server's own variables (tokens, often) reach the sandboxed shell through a private file, never the
        # host processes that start it: prlimit and bwrap run the host's loader, which would honour a user's
        # LD_PRELOAD or GCONV_PATH before any namespace exists; nor an argv, which anyone on the host reads in /proc.
        env_file = self._env_file()
        if env_file is not None:
            text = f"{_LOAD_ENV} {shlex.quote(_ENV_INSIDE)}; {text}"
        argv = sandbox_argv(text, workspace, network=self.settings.network, bwrap=self.settings.bwrap,
                            tmp_mb=self.settings.tmp_mb)
        argv[0] = shutil.which(self.settings.bwrap) or self.settings.bwrap
        # Read-only folders go in before the workspace bind (the root is remounted read-only after it).
        at = argv.index("--bind")
        binds = [part for path in self.extra_paths if Path(path).exists()
                 for part in ("--ro-bind", str(Path(path).resolve()), str(Path(path).absolute()))]
        if env_file is not None:
            binds += ["--ro-bind", str(env_file), _ENV_INSIDE]
        argv[at:at] = binds
        argv = [*limits, *argv]
        return StdioServerParameters(command=argv[0], args=argv[1:], env=environment(SANDBOX_WORKSPACE))

    def _env_file(self) -> Path | None:
        """The server's ``env`` as NUL-separated ``NAME=value`` in a file only the server's user reads (None: none)."""
        if not self.config.env:
            return None
        self.close()
        self._scratch = tempfile.mkdtemp(prefix="mcp-env-")  # 0700
        path = Path(self._scratch) / "env"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            for name, value in self.config.env.items():
                out.write(f"{name}={value}".encode() + b"\0")
        return path

    def close(self) -> None:
        """Remove the env file, once the server is started or gone (the sandbox read it at its start)."""
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None
