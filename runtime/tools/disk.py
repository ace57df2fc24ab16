"""A run's workspace on a filesystem of its own size: the kernel refuses the byte past the quota.

``AGENT_WORKSPACE_MB`` must hold for ``bash`` (whatever a command writes, in
any number of files) as well as for the file tools, and at the moment of the
write, not at the next snapshot. So when the server may mount filesystems
(it runs as root with ``mount``, ``mkfs.ext4`` and a loop device; the
deployment leaves ``AGENT_WORKSPACE_DISK=auto``), each run gets a sparse ext4
image file of the quota's size (``<run>.disk/image``), loop-mounted at
``<run>.disk/mnt``; its folder ``files`` is bind-mounted as the run's
workspace (``WORKSPACES_DIR/<run>``) and its folder ``steps`` as the step
copies' (``<run>.steps``), so ``isolation: step`` copies count against the
same quota. A write past it fails with ``ENOSPC`` (No space left on device)
from the kernel, in the sandbox and in the server alike. docs/decisions/0013
says why this and not a tmpfs, a project quota or RLIMIT_FSIZE.

The image is on the data disk and holds the files between attempts: the
mounts go when the run ends (:meth:`Disk.detach`), the image is mounted again
when it resumes, and it is deleted with the workspace (:func:`remove`).
Where the kernel cannot be asked (not root, no loop device, no ``mkfs.ext4``,
a container without ``CAP_SYS_ADMIN``), :func:`attach` answers a Disk that is
not ``mounted`` and says why: the quota is then checked at each snapshot only
(:meth:`runtime.tools.session.RunTools.over_quota`), and the run says so.
"""
from __future__ import annotations

import contextlib
import logging
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

_COMMAND_TIMEOUT = 30.0
# ext4's own room beside the files: one 256-byte inode per 4 KB (a workspace of small files runs out of inodes
# long after it runs out of bytes), plus group descriptors and bitmaps. Added to the image so that about the
# quota itself (within a few per cent) is left for files. No journal: the image is scratch space, kept only between attempts.
_INODE_RATIO = 4096
_MKFS_OPTIONS = ("-q", "-F", "-O", "^has_journal", "-m", "0", "-i", str(_INODE_RATIO))
_MOUNT_OPTIONS = "loop,nosuid,nodev,noatime"
FULL_ERRNO_WORDS = ("No space left on device", "Disk quota exceeded", "File too large")


def image_bytes(mb: int) -> int:
    quota = mb * 2**20
    return quota + quota // 12 + 2**20


def quota_words(mb: int) -> str:
    return (f"the workspace is full: it holds at most {mb} MB (AGENT_WORKSPACE_MB), a limit the kernel enforces; "
            "delete files (bash: rm) before writing more")


@dataclass
class Disk:
    """The size-limited filesystem of one run's workspace, or why there is none (``reason``)."""

    root: Path                  # the run's workspace, WORKSPACES_DIR/<run>
    mb: int
    mounted: bool = False
    reason: str = ""            # why not mounted ("" when it is)

    @property
    def home(self) -> Path:
        return home_of(self.root)

    def detach(self) -> None:
        """Unmount the workspace, its step copies and the image (the files stay in the image)."""
        detach(self.root)

    def fallback_notice(self) -> str:
        return (f"the workspace's {self.mb} MB limit (AGENT_WORKSPACE_MB) is not enforced by the kernel on this "
                f"server ({self.reason}): it is measured at each snapshot only, so a command may write past it "
                "until then, and write and edit refuse once it is")


def home_of(root: Path) -> Path:
    return root.with_name(root.name + ".disk")


def steps_of(root: Path) -> Path:
    return root.with_name(root.name + ".steps")


def _run(*argv: str) -> str | None:
    """Run a system command; None when it succeeded, else what it said (its last line)."""
    try:
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=_COMMAND_TIMEOUT,  # noqa: S603 - fixed argv
                              check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{argv[0]} could not run ({exc})"
    if done.returncode == 0:
        return None
    said = (done.stderr or done.stdout).decode("utf-8", "replace").strip().splitlines()
    return said[-1] if said else f"{Path(argv[0]).name} exit code {done.returncode}"


def mounted(path: Path) -> bool:
    """Whether ``path`` is a mount point (os.path.ismount, which also knows bind mounts of one filesystem by
    /proc/self/mountinfo only: so that is read)."""
    target = os.path.realpath(path)
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as info:
            return any(_unescape(line.split()[4]) == target for line in info if len(line.split()) > 4)
    except OSError:
        return os.path.ismount(target)


def _unescape(field: str) -> str:
    return field.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\")


def unavailable_reason() -> str | None:
    """Why this process cannot mount a workspace filesystem, found without trying; None when it may try."""
    if os.geteuid() != 0:
        return "the server does not run as root, which mounting a filesystem needs"
    for tool in ("mount", "umount", "mkfs.ext4"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    if not os.path.exists("/dev/loop-control"):
        return "there is no loop device (/dev/loop-control)"
    return None


def attach(root: Path, mb: int) -> Disk:
    """Make ``root`` (and its step copies' folder) a filesystem of ``mb`` MB, or say why it cannot be.

    Idempotent: a workspace already mounted stays as it is; an image left by an earlier attempt is mounted again
    with its files. A workspace that already holds files on the data disk itself (made before this server limited
    workspaces) is left there, unlimited by the kernel: mounting over it would hide them."""
    root = Path(root)
    disk = Disk(root, mb)
    if mounted(root):
        disk.mounted = True
        return disk
    reason = unavailable_reason()
    if reason is None and os.path.isdir(root) and not os.path.exists(home_of(root) / "image") and any(os.scandir(root)):
        reason = "this run's workspace was made, with files, before it could be limited"
    if reason is None:
        reason = _mount(root, mb)
    if reason is not None:
        disk.reason = reason
        log.warning("workspace %s: no size-limited filesystem (%s)", root, reason)
        return disk
    disk.mounted = True
    return disk


def _mount(root: Path, mb: int) -> str | None:
    home = home_of(root)
    image, point = home / "image", home / "mnt"
    try:
        point.mkdir(parents=True, exist_ok=True)
        os.chmod(home, 0o700)
        if not image.exists():
            made = image.with_name("image.new")
            with open(made, "wb") as out:
                out.truncate(image_bytes(mb))  # sparse: the data disk gives blocks only as files are written
            said = _run(shutil.which("mkfs.ext4") or "mkfs.ext4", *_MKFS_OPTIONS,
                        "-E", f"root_owner={os.getuid()}:{os.getgid()}", str(made))
            if said is not None:
                made.unlink(missing_ok=True)
                return f"mkfs.ext4 failed: {said}"
            os.replace(made, image)
        if not mounted(point):
            said = _run("mount", "-t", "ext4", "-o", _MOUNT_OPTIONS, str(image), str(point))
            if said is not None:
                return f"the workspace image could not be mounted: {said}"
        for name, target in (("files", root), ("steps", steps_of(root))):
            (point / name).mkdir(mode=0o755, exist_ok=True)
            target.mkdir(parents=True, exist_ok=True)
            if not mounted(target):
                said = _run("mount", "--bind", str(point / name), str(target))
                if said is not None:
                    detach(root)
                    return f"the workspace could not be bound to its filesystem: {said}"
    except OSError as exc:
        detach(root)
        return f"the workspace image could not be made ({exc.strerror or exc})"
    return None


def detach(root: Path) -> None:
    """Unmount what :func:`attach` mounted (lazily: a process still in there keeps it until it leaves)."""
    root = Path(root)
    for path in (steps_of(root), root, home_of(root) / "mnt"):
        # A bind mounted twice (two attempts at once) shows twice: unmount until it is a plain folder.
        for _ in range(4):
            if not mounted(path):
                break
            said = _run("umount", "--lazy", str(path))
            if said is not None:
                log.warning("%s could not be unmounted: %s", path, said)
                break


def remove(root: Path) -> None:
    """Unmount and delete the workspace, its step copies and its image."""
    root = Path(root)
    detach(root)
    for path in (root, steps_of(root), home_of(root)):
        with contextlib.suppress(OSError):
            shutil.rmtree(path, ignore_errors=True)


def is_full(path: Path) -> bool:
    """Whether the filesystem holding ``path`` has no block left for an ordinary write."""
    try:
        found = os.statvfs(path)
    except OSError:
        return False
    return found.f_bavail * found.f_frsize < 64 * 1024
