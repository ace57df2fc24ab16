"""The sandbox gives a command nothing of the server's privileges, even when the server runs as root: real bubblewrap,
real processes, asked of the kernel from inside (through ``run_command`` and through the stdio MCP launch path).

Each attempt is made twice where a tool might refuse before the kernel does (util-linux ``mount`` refuses a
non-root caller by itself): with the shell tool a model would use, and as the bare system call, whose errno says
the kernel refused it."""
import asyncio
import os
import stat
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from runtime.tools import ToolSettings
from runtime.tools.bash import BashTool
from runtime.tools.mcp import ServerConfig
from runtime.tools.mcp.launch import Launch
from runtime.tools.mcp.servers import RunServers
from runtime.tools.sandbox import SANDBOX_GID, SANDBOX_UID, probe, run_command
from runtime.tools.workspace import Workspace
from tests.fixtures.mcp.servers import SANDBOX_PATHS, options

NO_CAPABILITY = "0000000000000000"
CAPABILITY_SETS = ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")

# Run inside the sandbox by /usr/bin/python3 (the host's system Python, bound read-only): each named attempt prints
# "<name>: ok" or "<name>: <errno name>". The MCP probe server below runs it too.
ATTEMPTS = r'''
import ctypes, errno, os, socket, sys

libc = ctypes.CDLL(None, use_errno=True)
CLONE_NEWUSER, CLONE_NEWNS = 0x10000000, 0x00020000
MS_RDONLY, MS_REMOUNT, MS_BIND, MNT_DETACH = 1, 32, 4096, 2
PTRACE_ATTACH, PTRACE_DETACH = 16, 17


def _checked(result):
    if result != 0:
        number = ctypes.get_errno()
        raise OSError(number, os.strerror(number))


def remount_usr_writable():
    _checked(libc.mount(None, b"/usr", None, MS_REMOUNT | MS_BIND, None))


def mount_tmpfs():
    os.makedirs("/tmp/x", exist_ok=True)
    _checked(libc.mount(b"none", b"/tmp/x", b"tmpfs", 0, None))


def unmount_usr():
    _checked(libc.umount2(b"/usr", MNT_DETACH))


def new_user_namespace():
    _checked(libc.unshare(CLONE_NEWUSER))


def new_mount_namespace():
    _checked(libc.unshare(CLONE_NEWNS))


def chroot():
    os.chroot("/")


def raw_socket():
    socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP).close()


def packet_socket():
    socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0).close()


def write_usr_bin():
    # Opened for writing only (nothing is written if it were allowed); not bash, which runs, so ETXTBSY would answer.
    open("/usr/bin/unshare", "r+b").close()


def open_for_writing(path):
    os.close(os.open(path, os.O_WRONLY))  # nothing is written, even if it were allowed


def ptrace(pid):
    result = libc.ptrace(ctypes.c_long(PTRACE_ATTACH), ctypes.c_long(int(pid)), None, None)
    if result == 0:
        libc.ptrace(ctypes.c_long(PTRACE_DETACH), ctypes.c_long(int(pid)), None, None)
    _checked(0 if result == 0 else -1)


def signal(pid):
    os.kill(int(pid), 0)


def attempt(name, *args):
    try:
        globals()[name](*args)
    except OSError as exc:
        return f"{name}: {errno.errorcode.get(exc.errno, exc.errno)}"
    return f"{name}: ok"


if __name__ == "__main__":
    name, *args = sys.argv[1:]
    print(attempt(name, *args))
'''

# A stdio MCP server (the SDK's, as the fixtures) that answers what its own process is and may do.
PROBE_SERVER = '''
import subprocess

from mcp.server.mcpserver import MCPServer

server = MCPServer("probe", log_level="ERROR")


@server.tool()
def status() -> str:
    """This server process's /proc/self/status."""
    with open("/proc/self/status") as handle:
        return handle.read()


@server.tool()
def attempt(name: str) -> str:
    """Try one of the attempts in a child process (the server has threads, and a threaded process may not
    unshare a user namespace at all: EINVAL would say nothing); its outcome."""
    done = subprocess.run(["python3", "/workspace/attempts.py", name], capture_output=True, text=True, check=False)
    return (done.stdout + done.stderr).strip()


if __name__ == "__main__":
    server.run()
'''


@pytest.fixture(autouse=True)
def real_sandbox():
    assert probe("bwrap") is None, "bubblewrap must work here (make sandbox)"


@pytest.fixture
def ws(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    (root / "attempts.py").write_text(ATTEMPTS)
    return root


def fields(status: str) -> dict[str, str]:
    """``Name:\\tvalue`` lines of a /proc/<pid>/status, by name."""
    return {name: value.strip() for name, _, value in (line.partition(":") for line in status.splitlines())}


async def inside(ws: Path, command: str, **kw) -> str:
    result = await run_command(command, workspace=ws, **kw)
    assert not result.timed_out, result.output
    return result.output


def outcome(output: str, name: str) -> str:
    """The errno name (or ``ok``) that attempt ``name`` printed."""
    found = [line.split(": ", 1)[1] for line in output.splitlines() if line.startswith(f"{name}: ")]
    assert len(found) == 1, output
    return found[0]


@pytest.mark.parametrize("network", [False, True])
async def test_a_command_holds_no_capability_at_all(ws, network):
    status = fields(await inside(ws, "cat /proc/self/status", network=network))
    assert {name: status[name] for name in CAPABILITY_SETS} == dict.fromkeys(CAPABILITY_SETS, NO_CAPABILITY)


async def test_a_command_is_an_ordinary_user_and_group_not_root(ws):
    output = await inside(ws, "id -u; id -g; cat /proc/self/status")
    uid, gid, status = output.split("\n", 2)
    assert (int(uid), int(gid)) == (SANDBOX_UID, SANDBOX_GID)
    assert SANDBOX_UID != 0 and SANDBOX_GID != 0
    # Real, effective, saved and filesystem ids alike.
    assert fields(status)["Uid"].split() == [str(SANDBOX_UID)] * 4
    assert fields(status)["Gid"].split() == [str(SANDBOX_GID)] * 4


async def test_a_command_can_never_gain_privileges(ws):
    assert fields(await inside(ws, "cat /proc/self/status"))["NoNewPrivs"] == "1"


async def test_a_command_cannot_remount_the_hosts_usr_writable(ws):
    name = f"sandbox-remount-{uuid.uuid4().hex}"
    output = await inside(ws, f"mount -o remount,bind,rw /usr; echo tool=$?; python3 attempts.py remount_usr_writable;"
                              f" touch /usr/{name} 2>/dev/null; echo touch=$?; grep ' /usr ' /proc/self/mountinfo")
    assert "tool=0" not in output and "touch=0" not in output
    assert outcome(output, "remount_usr_writable") == "EPERM"
    assert " ro," in output.split("touch=")[1]  # still mounted read-only
    assert not Path("/usr", name).exists()


async def test_a_command_cannot_mount_a_filesystem(ws):
    output = await inside(ws, "mkdir -p /tmp/x; mount -t tmpfs none /tmp/x; echo tool=$?; "
                              "python3 attempts.py mount_tmpfs; grep -c ' /tmp/x ' /proc/self/mountinfo")
    assert "tool=0" not in output
    assert outcome(output, "mount_tmpfs") == "EPERM"
    assert output.endswith("\n0\n")


async def test_a_command_cannot_unmount_the_hosts_filesystems(ws):
    output = await inside(ws, "umount -l /usr; echo tool=$?; python3 attempts.py unmount_usr; "
                              "test -x /usr/bin/bash && echo usr-still-there")
    assert "tool=0" not in output
    assert outcome(output, "unmount_usr") == "EPERM"
    assert output.endswith("usr-still-there\n")


async def test_a_command_cannot_make_a_user_namespace_to_be_root_in(ws):
    output = await inside(ws, "unshare -U true; echo user=$?; unshare -r true; echo root=$?; "
                              "python3 attempts.py new_user_namespace; python3 attempts.py new_mount_namespace")
    assert "user=0" not in output and "root=0" not in output
    # bwrap's --disable-userns leaves the namespace a limit of none: the kernel answers ENOSPC.
    assert outcome(output, "new_user_namespace") in ("ENOSPC", "EPERM")
    assert outcome(output, "new_mount_namespace") == "EPERM"


async def test_a_command_cannot_chroot(ws):
    output = await inside(ws, "/usr/sbin/chroot / true; echo tool=$?; python3 attempts.py chroot")
    assert "tool=0" not in output and "Operation not permitted" in output
    assert outcome(output, "chroot") == "EPERM"


@pytest.mark.parametrize("network", [False, True])
async def test_a_command_cannot_open_a_raw_socket(ws, network):
    output = await inside(ws, "python3 -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_RAW, "
                              "socket.IPPROTO_ICMP)' 2>&1 | tail -1; python3 attempts.py raw_socket; "
                              "python3 attempts.py packet_socket", network=network)
    assert output.startswith("PermissionError: [Errno 1] Operation not permitted\n")
    assert outcome(output, "raw_socket") == "EPERM"
    assert outcome(output, "packet_socket") == "EPERM"


async def test_a_command_cannot_write_to_usr_even_what_looks_like_its_own(ws):
    # With the server as root, /usr's files belong on the host to the very uid the command maps to: only the
    # read-only mount stands between them, and it must hold for new files, opened files and metadata alike.
    mode = stat.S_IMODE(os.stat("/usr/bin/bash").st_mode)
    name = f"sandbox-usr-{uuid.uuid4().hex}"
    output = await inside(ws, f"touch /usr/{name} /usr/bin/{name}; echo touch=$?; chmod {mode:o} /usr/bin/bash; "
                              f"echo chmod=$?; python3 attempts.py write_usr_bin")
    assert "touch=1" in output and "chmod=1" in output
    assert "Read-only file system" in output
    assert outcome(output, "write_usr_bin") == "EROFS"
    assert not Path("/usr", name).exists() and not Path("/usr/bin", name).exists()


async def test_a_command_cannot_change_the_kernels_settings(ws):
    # With the server as root the command is the host's uid 0 to the kernel, which lets that uid write sysctls
    # without any capability: kernel.core_pattern names a program the kernel runs as root on the next crash.
    sysctl = Path("/proc/sys/kernel/printk_ratelimit")
    before = sysctl.read_text()
    output = await inside(ws, f"cat {sysctl} > {sysctl}; echo rewrite=$?; "
                              f"python3 attempts.py open_for_writing /proc/sys/kernel/core_pattern; "
                              f"python3 attempts.py open_for_writing /proc/sys/vm/drop_caches")
    assert "rewrite=1" in output and "Read-only file system" in output
    assert [line for line in output.splitlines() if line.startswith("open_for_writing: ")] == [
        "open_for_writing: EROFS"] * 2
    assert sysctl.read_text() == before


async def test_a_command_cannot_see_the_hosts_private_keys_but_has_its_certificates(ws):
    if not Path("/etc/ssl/private").is_dir():
        pytest.skip("this host keeps no /etc/ssl/private")
    # Mode 0700 root: as root the server's command would read it as the owner; it must not be there at all.
    output = await inside(ws, "ls -d /etc/ssl/private; python3 -c 'import ssl; "
                              "print(len(ssl.create_default_context().get_ca_certs(binary_form=True)) > 0, "
                              "ssl.get_default_verify_paths().openssl_cafile)'")
    assert "No such file or directory" in output
    assert output.splitlines()[-1].startswith("True ")  # certificates there, wherever this OpenSSL keeps them


async def test_a_command_sees_no_process_but_its_own(ws):
    output = await inside(ws, f"ls /proc | grep -E '^[0-9]+$' | sort -n | tr '\\n' ' '; echo; "
                              f"tr '\\0' ' ' < /proc/1/cmdline; echo; python3 attempts.py signal {os.getpid()}")
    pids, pid1, signalled = output.splitlines()
    # A fresh pid namespace: bwrap is its pid 1, the shell and what it runs come next; the host's are absent.
    assert Path(pid1.split()[0]).name == "bwrap"
    assert max(int(pid) for pid in pids.split()) < 20
    assert str(os.getpid()) not in pids.split()
    assert outcome(signalled, "signal") == "ESRCH"


async def test_every_process_a_command_can_see_is_as_powerless_as_itself(ws):
    output = await inside(ws, "for status in /proc/[0-9]*/status; do grep -E '^(Uid|CapEff|CapPrm):' $status "
                              "| tr '\\n' ' '; echo; done")
    rows = [fields(row.replace(" Cap", "\nCap")) for row in output.splitlines()]
    assert len(rows) >= 2  # bwrap's pid 1 and the shell at least
    for row in rows:
        assert row["Uid"].split() == [str(SANDBOX_UID)] * 4
        assert row["CapEff"] == row["CapPrm"] == NO_CAPABILITY


async def test_the_bwrap_that_started_a_command_and_the_server_are_out_of_its_reach(ws):
    # The command waits for the test to tell it the host pids of the bwrap holding its namespaces (root with every
    # capability on the host, when the server is root) and of this server process, then tries to trace and signal.
    tag = f"reach-{uuid.uuid4().hex}"
    command = (f": {tag}; deadline=$((SECONDS + 25)); while [ ! -s targets ] && [ $SECONDS -lt $deadline ]; "
               f"do sleep 0.05; done; for pid in $(cat targets); do python3 attempts.py ptrace $pid; "
               f"python3 attempts.py signal $pid; done")
    task = asyncio.create_task(run_command(command, workspace=ws, timeout=60))
    deadline = time.monotonic() + 30
    bwrap = None
    while bwrap is None and time.monotonic() < deadline and not task.done():
        found = subprocess.run(["pgrep", "-P", str(os.getpid()), "-f", tag], capture_output=True, text=True)
        bwrap = int(found.stdout.split()[0]) if found.stdout.split() else None
        if bwrap is None:
            await asyncio.sleep(0.05)
    assert bwrap is not None, "the sandbox's bwrap never showed up"
    targets = ws / "targets"
    (ws / "targets.partial").write_text(f"{bwrap} {os.getpid()}\n")
    (ws / "targets.partial").rename(targets)
    result = await task
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines == ["ptrace: ESRCH", "signal: ESRCH"] * 2


async def test_what_a_command_writes_is_the_servers_to_read_change_and_delete(ws):
    output = await inside(ws, "mkdir -p made/deeper && echo from-the-command > made/deeper/note.txt && "
                              "chmod 600 made/deeper/note.txt && chmod 700 made made/deeper && echo done")
    assert output == "done\n"
    note = ws / "made" / "deeper" / "note.txt"
    for path in (ws / "made", note):
        info = path.stat()
        assert (info.st_uid, info.st_gid) == (os.getuid(), os.getgid())  # the server's own, not the sandbox's 1000
    assert note.read_text() == "from-the-command\n"
    note.write_text("from-the-server\n")  # as on resume
    assert note.read_text() == "from-the-server\n"
    note.unlink()
    (ws / "made" / "deeper").rmdir()
    (ws / "made").rmdir()
    assert not (ws / "made").exists()


async def test_what_the_server_wrote_is_the_commands_to_change_and_delete(ws):
    (ws / "kept").mkdir(mode=0o755)
    (ws / "kept" / "plan.txt").write_text("step one\n")
    (ws / "kept" / "plan.txt").chmod(0o644)
    (ws / "kept" / "old.txt").write_text("stale\n")
    (ws / "kept" / "old.txt").chmod(0o600)
    output = await inside(ws, "echo step two >> kept/plan.txt && echo new > kept/new.txt && rm kept/old.txt && "
                              "stat -c '%u:%g' kept && echo done")
    assert output == f"{SANDBOX_UID}:{SANDBOX_GID}\ndone\n"  # the server's files are the command's own in there
    assert (ws / "kept" / "plan.txt").read_text() == "step one\nstep two\n"
    assert (ws / "kept" / "new.txt").read_text() == "new\n"
    assert not (ws / "kept" / "old.txt").exists()


@pytest.mark.xfail(os.geteuid() == 0, strict=True,
                   reason="known gap: a server running as root maps the command to host uid 0, and bwrap binds the "
                          "host's own /dev/null, /dev/zero ... read-write: their owner may chmod them (run the server "
                          "as a service user; see docs/tools.md)")
async def test_a_command_cannot_change_the_hosts_device_nodes(ws):
    mode = stat.S_IMODE(os.stat("/dev/null").st_mode)  # set to what it is already: nothing changes if allowed
    output = await inside(ws, f"chmod {mode:o} /dev/null; echo chmod=$?")
    assert stat.S_IMODE(os.stat("/dev/null").st_mode) == mode
    assert "chmod=0" not in output


def launched(ws: Path, script: str, settings: ToolSettings | None = None) -> subprocess.CompletedProcess:
    """A stdio MCP server's command as the launch path starts it (sandbox, MCP_SANDBOX_PATHS, limits), run to its end."""
    server = ServerConfig("probe", "stdio", command="bash", args=("-c", script))
    parameters = Launch(server, ws, settings or ToolSettings(cpu_seconds=60), SANDBOX_PATHS).parameters()
    return subprocess.run([parameters.command, *parameters.args], env=parameters.env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60, check=False)


def test_a_stdio_mcp_servers_command_holds_nothing_either(ws):
    done = launched(ws, "cat /proc/self/status; for name in remount_usr_writable mount_tmpfs unmount_usr "
                        "new_user_namespace chroot raw_socket write_usr_bin; do python3 attempts.py $name; done")
    status = fields(done.stdout)
    assert {name: status[name] for name in CAPABILITY_SETS} == dict.fromkeys(CAPABILITY_SETS, NO_CAPABILITY)
    assert status["Uid"].split() == [str(SANDBOX_UID)] * 4 and status["Gid"].split() == [str(SANDBOX_GID)] * 4
    assert status["NoNewPrivs"] == "1"
    outcomes = {name: outcome(done.stdout, name) for name in ("remount_usr_writable", "mount_tmpfs", "unmount_usr",
                                                                "chroot", "raw_socket")}
    assert outcomes == dict.fromkeys(outcomes, "EPERM")
    assert outcome(done.stdout, "new_user_namespace") in ("ENOSPC", "EPERM")
    assert outcome(done.stdout, "write_usr_bin") == "EROFS"
    assert "mcp-exit:0" in done.stderr


def test_a_stdio_mcp_server_cannot_write_the_folders_it_is_shown(ws):
    # MCP_SANDBOX_PATHS (here the interpreter's) are bound read-only; its owner on the host may be the mapped uid.
    name = f"sandbox-mcp-{uuid.uuid4().hex}"
    target = Path(sys.prefix) / name
    mode = stat.S_IMODE(os.stat(sys.prefix).st_mode)  # set to what it is already: nothing changes if allowed
    done = launched(ws, f"touch {target}; echo touch=$?; chmod {mode:o} {sys.prefix}; echo chmod=$?")
    assert "touch=1" in done.stdout and "chmod=1" in done.stdout
    assert not target.exists()


async def test_a_stdio_mcp_server_speaking_mcp_is_no_root_and_may_not_mount(ws):
    (ws / "probe_server.py").write_text(PROBE_SERVER)
    config = ServerConfig("probe", "stdio", command=sys.executable, args=("/workspace/probe_server.py",))
    servers = RunServers([config], ws, ToolSettings(), options())
    try:
        tools = await servers.open(set())
        assert set(tools) >= {"status", "attempt"}, servers.notices
        status = fields((await tools["status"].run({}, None, None)).output)  # type: ignore[arg-type]
        said = [(await tools["attempt"].run({"name": name}, None, None)).output  # type: ignore[arg-type]
                for name in ("remount_usr_writable", "new_user_namespace", "raw_socket")]
    finally:
        await servers.close()
    assert {name: status[name] for name in CAPABILITY_SETS} == dict.fromkeys(CAPABILITY_SETS, NO_CAPABILITY)
    assert status["Uid"].split() == [str(SANDBOX_UID)] * 4 and status["NoNewPrivs"] == "1"
    assert said[0] == "remount_usr_writable: EPERM" and said[2] == "raw_socket: EPERM"
    assert said[1] in ("new_user_namespace: ENOSPC", "new_user_namespace: EPERM")


async def test_a_commands_private_tmp_holds_no_more_than_its_size(ws):
    # /tmp is a tmpfs, which is memory: past AGENT_TMP_MB the kernel says the disk is full, as for the workspace.
    output = await inside(ws, "head -c 3M /dev/zero > /tmp/fits; echo fits=$?; head -c 6M /dev/zero > /tmp/past; "
                              "echo past=$?; df -k /tmp | tail -1", tmp_mb=4)
    assert "fits=0" in output, output
    assert "No space left on device" in output and "past=1" in output, output
    assert output.split()[-5] == str(4 * 1024), output  # df: the tmpfs's own size in 1 kB blocks


async def test_the_bash_tool_and_mcp_servers_get_the_deployments_tmp_size(ws):
    result = await BashTool().run({"command": "df -k /tmp | tail -1"}, Workspace(ws), ToolSettings(tmp_mb=8))
    assert result.output.split()[1] == str(8 * 1024), result.output
    done = launched(ws, "df -k /tmp | tail -1", ToolSettings(cpu_seconds=60, tmp_mb=16))
    assert done.stdout.split()[1] == str(16 * 1024), done.stdout + done.stderr
