"""The bash tool's sandbox, with real bubblewrap and real processes: what a command can see, write and reach,
and that nothing it starts outlives the call."""
import asyncio
import os
import socket
import subprocess
import time
import uuid
from pathlib import Path

import pytest

from runtime.tools.sandbox import (
    MAX_OUTPUT,
    TRUNCATION_NOTE,
    SandboxUnavailable,
    clamp_timeout,
    probe,
    run_command,
    sandbox_argv,
)


@pytest.fixture
def ws(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    return root


@pytest.fixture
def listener():
    """A loopback TCP listener; connections that reach it wait in its backlog to be counted."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    yield sock
    sock.close()


def accepted(sock: socket.socket) -> int:
    sock.setblocking(False)
    count = 0
    while True:
        try:
            conn, _ = sock.accept()
        except BlockingIOError:
            return count
        conn.close()
        count += 1


def running(marker: str, *, exact: bool = False) -> list[str]:
    """Pids of live processes whose command line contains ``marker`` (or is exactly it); pgrep leaves itself out.

    Containing it also matches bwrap and the shell that were given the whole command: all must be gone."""
    done = subprocess.run(["pgrep", "-fx" if exact else "-f", marker], capture_output=True, text=True, check=False)
    return done.stdout.split()


def zombie_children() -> list[int]:
    """This process's children that have exited and not been reaped."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] == "Z" and int(fields[1]) == os.getpid():
            found.append(int(entry.name))
    return found


def marker() -> str:
    # A sleep nobody else runs, so pgrep finds only ours: `sleep 1234.<random>`.
    return f"sleep 1234.{uuid.uuid4().int % 10**9}"


async def test_a_command_runs_in_the_workspace(ws):
    result = await run_command("echo hi; pwd", workspace=ws)
    assert result.output == "hi\n/workspace\n"
    assert (result.exit_code, result.timed_out, result.truncated) == (0, False, False)
    assert result.duration < 10


async def test_the_exit_code_is_the_commands(ws):
    result = await run_command("echo some; exit 3", workspace=ws)
    assert (result.output, result.exit_code) == ("some\n", 3)


async def test_writes_land_in_the_workspace_on_the_host(ws):
    result = await run_command("echo data > out.txt && mkdir -p d/e && printf x > /workspace/d/e/f.txt", workspace=ws)
    assert result.exit_code == 0, result.output
    assert (ws / "out.txt").read_text() == "data\n"
    assert (ws / "d" / "e" / "f.txt").read_text() == "x"


async def test_only_the_workspace_is_writable(ws):
    name = f"sandbox-probe-{uuid.uuid4().hex}"
    result = await run_command(f"for p in /usr/{name} /etc/{name} /{name} /bin/{name}; do "
                               f"  if touch $p 2>/dev/null; then echo wrote $p; else echo refused $p; fi; done; "
                               f"echo scratch > /tmp/{name} && cat /tmp/{name}", workspace=ws)
    assert result.output.splitlines() == [f"refused /usr/{name}", f"refused /etc/{name}", f"refused /{name}",
                                          f"refused /bin/{name}", "scratch"]
    # /tmp in the sandbox is its own: the host's stays untouched.
    assert not Path("/tmp", name).exists()
    assert not Path("/usr", name).exists() and not Path("/etc", name).exists()


async def test_no_network_by_default(ws, listener):
    port = listener.getsockname()[1]
    result = await run_command(f"echo > /dev/tcp/127.0.0.1/{port} && echo connected; "
                               f"if command -v curl >/dev/null; then curl -s -m 3 http://127.0.0.1:{port}/ "
                               f"&& echo curl-connected; echo curl-tried; fi", workspace=ws)
    assert "connected" not in result.output.replace("curl-connected", "")
    assert "curl-connected" not in result.output
    assert accepted(listener) == 0


async def test_network_when_allowed(ws, listener):
    port = listener.getsockname()[1]
    result = await run_command(f"echo > /dev/tcp/127.0.0.1/{port} && echo connected", workspace=ws, network=True)
    assert "connected" in result.output
    assert accepted(listener) == 1


async def test_the_servers_environment_is_invisible(ws, monkeypatch):
    monkeypatch.setenv("SECRET_PROBE", "s3cr3t")
    result = await run_command("env; echo ---; tr '\\0' '\\n' < /proc/1/environ", workspace=ws)
    assert "s3cr3t" not in result.output and "SECRET_PROBE" not in result.output
    mine, pid1 = result.output.split("---\n")
    assert sorted(line for line in mine.splitlines() if not line.startswith(("PWD=", "SHLVL=", "_="))) == [
        "HOME=/workspace", "LANG=C.UTF-8", "PATH=/usr/local/bin:/usr/bin:/bin", "TERM=dumb", "TMPDIR=/tmp"]
    # The sandbox's pid 1 (bwrap) was readable and was started with the scratch environment as well.
    assert "HOME=/workspace" in pid1.splitlines()


async def test_the_server_files_are_invisible(ws, tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("private")
    data_dir = os.environ["DESIGNER_DATA_DIR"]
    result = await run_command(f"ls /work; test -e {outside} && echo sees-outside; test -e {data_dir} && echo sees-data;"
                               f" test -e /root && echo sees-root; test -e {Path.cwd()} && echo sees-source; echo end",
                               workspace=ws)
    assert "No such file or directory" in result.output
    assert "sees-" not in result.output
    assert result.output.endswith("end\n")


async def test_a_timeout_kills_the_command_and_its_children(ws):
    sleep = marker()
    started = time.monotonic()
    result = await run_command(f"echo before; {sleep} & {sleep}", workspace=ws, timeout=1)
    assert time.monotonic() - started < 5
    assert result.timed_out and result.exit_code is None
    assert result.output == "before\n[killed: the command ran longer than 1s]"
    assert running(sleep) == []
    assert zombie_children() == []


@pytest.mark.parametrize("mode", ["bwrap", "off"])
async def test_cancelling_kills_the_command_and_its_children(ws, mode):
    sleep = marker()
    task = asyncio.create_task(run_command(f"{sleep} & {sleep}", workspace=ws, timeout=60, mode=mode))
    deadline = time.monotonic() + 60  # a sandbox's start takes seconds on a loaded machine (5 s ran out at load 8)
    while len(running(sleep, exact=True)) < 2 and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert len(running(sleep, exact=True)) == 2  # both sleeps really started
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert running(sleep) == []
    assert zombie_children() == []


async def test_output_is_capped(ws):
    result = await run_command("head -c 2000000 /dev/zero | tr '\\0' a; echo done >&2", workspace=ws)
    assert result.truncated and result.exit_code == 0
    assert len(result.output) == MAX_OUTPUT + len(TRUNCATION_NOTE)
    assert result.output.endswith("a" + TRUNCATION_NOTE)


async def test_the_cap_is_a_parameter_and_stderr_is_merged(ws):
    result = await run_command("echo out; echo err >&2", workspace=ws, max_output=6)
    assert result.output == "out\ner" + TRUNCATION_NOTE
    assert result.truncated


async def test_mode_off_runs_in_the_workspace_with_a_scratch_environment(ws, monkeypatch):
    monkeypatch.setenv("SECRET_PROBE", "s3cr3t")
    result = await run_command("pwd; echo $HOME; env", workspace=ws, mode="off")
    lines = result.output.splitlines()
    assert lines[:2] == [str(ws.resolve()), str(ws.resolve())]
    assert "s3cr3t" not in result.output
    assert "PATH=/usr/local/bin:/usr/bin:/bin" in lines and "TERM=dumb" in lines and "TMPDIR=/tmp" in lines


async def test_mode_off_still_kills_children_at_the_timeout(ws):
    sleep = marker()
    started = time.monotonic()
    result = await run_command(f"{sleep} & {sleep}", workspace=ws, timeout=1, mode="off")
    assert time.monotonic() - started < 5
    assert result.timed_out
    assert running(sleep) == []


async def test_mode_off_does_not_wait_for_background_jobs(ws):
    sleep = marker()
    result = await run_command(f"{sleep} & echo started", workspace=ws, timeout=30, mode="off")
    assert result.duration < 5 and not result.timed_out
    assert result.output == "started\n"
    assert running(sleep) == []


async def test_an_unknown_mode_is_refused(ws):
    with pytest.raises(ValueError, match="unknown sandbox mode"):
        await run_command("true", workspace=ws, mode="docker")


def test_probe_works_here_and_names_a_missing_bwrap():
    assert probe() is None
    reason = probe("/nonexistent/bwrap")
    assert reason is not None and "not installed" in reason
    failing = probe("/usr/bin/false")
    assert failing is not None and "could not start" in failing


async def test_a_missing_sandbox_says_so_and_names_the_way_out(ws):
    with pytest.raises(SandboxUnavailable, match="AGENT_SANDBOX=off") as caught:
        await run_command("echo hi", workspace=ws, bwrap="/nonexistent/bwrap")
    assert "bubblewrap" in str(caught.value)


async def test_bwrap_refusing_at_run_time_is_reported_as_unavailable(ws, tmp_path):
    # A bwrap that passes the probe (`true`) and then fails its own setup, as on a host that forbids namespaces.
    fake = tmp_path / "fake-bwrap"
    fake.write_text('#!/bin/sh\ncase "$*" in *"bash -c true") exit 0;; esac\n'
                    'echo "bwrap: Creating new namespace failed: Operation not permitted" >&2\nexit 1\n')
    fake.chmod(0o755)
    with pytest.raises(SandboxUnavailable, match=r"Creating new namespace failed.*AGENT_SANDBOX=off"):
        await run_command("echo hi", workspace=ws, bwrap=str(fake))


def test_the_argv_shares_the_network_only_when_asked(ws):
    closed = sandbox_argv("true", ws)
    opened = sandbox_argv("true", ws, network=True)
    assert "--unshare-all" in closed and "--share-net" not in closed
    assert "--share-net" in opened and "/etc/resolv.conf" in opened and "/etc/resolv.conf" not in closed
    assert closed[-3:] == ["bash", "-c", "true"]
    assert closed.index("--clearenv") < closed.index("--setenv")
    assert ["--bind", str(ws), "/workspace"] == closed[closed.index("--bind"):closed.index("--bind") + 3]


def test_timeouts_are_clamped():
    assert clamp_timeout(1000) == 300
    assert clamp_timeout(0) == clamp_timeout(-5) == clamp_timeout(float("nan")) == 30
    assert clamp_timeout(2.5) == 2.5
