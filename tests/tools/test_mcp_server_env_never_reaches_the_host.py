"""A stdio MCP server's own `env` reaches the sandboxed server and nothing on the host: not the processes that
start the sandbox (prlimit, bwrap run the host's loader, which would honour a user's LD_PRELOAD before any
namespace exists), not an argv anyone on the host can read in /proc; the env file it travels in goes with the
connection."""
from __future__ import annotations

import subprocess
from pathlib import Path

from runtime.tools import ToolSettings
from runtime.tools.mcp import ServerConfig
from runtime.tools.mcp.launch import Launch

TOKEN = "tok en=1\n'quoted' \"and\" $dollar"


def launched(tmp_path: Path, env: dict) -> tuple[Launch, subprocess.CompletedProcess]:
    server = ServerConfig("probe", "stdio", command="bash",
                          args=("-c", 'printf "%s" "$TOKEN" > token.txt; printf "%s" "${LD_DEBUG-}" > debug.txt'),
                          env=env, owner="user")
    launch = Launch(server, tmp_path, ToolSettings(cpu_seconds=60))
    parameters = launch.parameters()
    assert all(name not in parameters.env for name in env)
    assert not any(TOKEN in arg for arg in [parameters.command, *parameters.args])
    done = subprocess.run([parameters.command, *parameters.args], env=parameters.env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60, check=False)
    return launch, done


def test_the_servers_env_reaches_the_server_exactly(tmp_path):
    launch, done = launched(tmp_path, {"TOKEN": TOKEN})
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "token.txt").read_text() == TOKEN
    launch.close()


def test_a_loader_variable_in_the_env_is_never_seen_by_the_hosts_loader(tmp_path):
    # LD_DEBUG makes a loader name every program it loads: bwrap's and prlimit's would show if the host saw it.
    _, done = launched(tmp_path, {"LD_DEBUG": "files", "TOKEN": TOKEN})
    assert done.returncode == 0, done.stderr
    loaded_by = [line for line in done.stderr.splitlines() if "needed by" in line]
    assert loaded_by, "the sandboxed shell had LD_DEBUG (its own loader names what it loads)"
    assert not [line for line in loaded_by if "bwrap" in line or "prlimit" in line]
    assert (tmp_path / "debug.txt").read_text() == "files"


def test_the_env_file_is_private_and_goes_when_the_launch_is_closed(tmp_path):
    launch, _ = launched(tmp_path, {"TOKEN": TOKEN})
    scratch = Path(launch._scratch or "")
    assert scratch.is_dir() and (scratch.stat().st_mode & 0o777) == 0o700
    assert ((scratch / "env").stat().st_mode & 0o777) == 0o600
    launch.close()
    assert not scratch.exists()


def test_a_server_without_env_gets_no_file(tmp_path):
    launch = Launch(ServerConfig("probe", "stdio", command="true"), tmp_path, ToolSettings())
    parameters = launch.parameters()
    assert launch._scratch is None and "/run/mcp/env" not in parameters.args
