"""What a run may read of its workflow's folder: the one confinement rule, enforced where the file is opened.

Context files, ``@`` prompts and instructions, and included workflows (at any depth) name files relative to the
file that names them (upstream's rule), and every one of them resolves inside the run's folder: the web app's
run workspace (where the stored folder was laid out) or, for the CLI, the workflow file's directory. Nothing
absolute, no ``..`` above the folder, no symbolic links anywhere on the path: the folder is also the agents'
workspace, and ``bash`` can plant a link to the server's secret key there between any check and the read. So
the check is the open itself (:func:`common.beneath.read_beneath`), and a refusal fails the step before any
provider call, naming the path and the rule, with nothing of the file read.
"""
from __future__ import annotations

from pathlib import Path

from common import beneath
from designer.folders import PathRefused, joined


class FolderRefused(Exception):
    """A reference that cannot be read; the message names the field, the path and the rule."""


class Missing(FolderRefused):
    """No such file in the folder (a web run's include may then name a saved workflow instead)."""


class RunFolder:
    """The directory a run's references resolve in; ``base_dir`` arguments are directories inside it."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root).absolute()

    def where(self, base_dir: Path | None, ref: str, what: str) -> str:
        """``ref`` seen from ``base_dir``, relative to the folder; refused when it would leave it."""
        base = self._base(base_dir, what, ref)
        try:
            return joined(base, ref)
        except PathRefused as exc:
            raise FolderRefused(f"{what}: {exc}; a run reads nothing outside its workflow's folder") from None

    def read(self, base_dir: Path | None, ref: str, what: str, *, max_bytes: int) -> tuple[str, bytes]:
        """(the file's path in the folder, its bytes)."""
        path = self.where(base_dir, ref, what)
        try:
            return path, beneath.read_beneath(self.root, path, max_bytes=max_bytes, symlinks="refuse")
        except beneath.Refused as exc:
            raise FolderRefused(f"{what}: {exc.strerror}; a run reads nothing outside its workflow's folder") from None
        except beneath.TooLarge:
            raise FolderRefused(f"{what}: {ref} is larger than {max_bytes // 2**20} MiB") from None
        except FileNotFoundError:
            looked = f" (looked for {path} in the folder)" if path != ref else ""
            raise Missing(f"{what}: {ref} not found next to the workflow{looked}") from None
        except OSError as exc:
            raise FolderRefused(f"{what}: cannot read {ref}: {exc.strerror or exc.__class__.__name__}") from None

    def directory(self, path: str) -> Path:
        """The directory of a file read through :meth:`read`: where its own references resolve from."""
        parent = path.rsplit("/", 1)[0] if "/" in path else ""
        return self.root / parent if parent else self.root

    def _base(self, base_dir: Path | None, what: str, ref: str) -> str:
        if base_dir is None:
            raise FolderRefused(f"{what}: {ref} cannot be read: the workflow has no folder (it is a single file)")
        try:
            relative = Path(base_dir).absolute().relative_to(self.root).as_posix()
        except ValueError:
            raise FolderRefused(f"{what}: {ref} cannot be read: {base_dir} is outside the run's folder") from None
        return "" if relative == "." else relative
