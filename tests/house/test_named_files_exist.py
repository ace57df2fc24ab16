"""A file named in a comment, a docstring or a doc is a file that exists.

After the runtime moved into rooms (runtime/live/, runtime/runs/, ...), comments kept pointing at modules that were
gone, and a newcomer following one found nothing. Decision records are history and may name what has since been
deleted; everything else names what is there now.
"""
from __future__ import annotations

import os
import re
from fnmatch import fnmatch
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# What the code and docs are written in; frontend paths are named from the repository root or from frontend/src.
READ = ("*.py", "*.ts", "*.tsx", "*.md", "*.toml", "*.ini", "*.css", "Makefile")
SKIP_DIRS = {".venv", "node_modules", "dist", "data", ".git", "migrations", "__pycache__"}
HISTORY = REPO / "docs" / "decisions"
NAMED = re.compile(r"\b(?:designer|runtime|accounts|common|config|tests|bench|docs|frontend)/[A-Za-z0-9_./-]+\.(?:py|tsx?|md)\b")
BASES = (REPO, REPO / "frontend", REPO / "frontend" / "src")


def read_files() -> list[Path]:
    found: list[Path] = []
    for folder, dirs, files in os.walk(REPO):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and Path(folder, d) != HISTORY]
        found += [Path(folder, name) for name in files if any(fnmatch(name, pattern) for pattern in READ)]
    return sorted(path for path in found if path != Path(__file__))


def checked_lines(path: Path) -> list[tuple[int, str]]:
    """The lines to check: a front-end test's code holds made-up paths as data, so only its comments count."""
    lines = list(enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1))
    if re.search(r"\.test\.tsx?$", path.name):
        return [(n, line) for n, line in lines if line.lstrip().startswith(("//", "*", "/*"))]
    return lines


def test_every_named_file_exists():
    missing = []
    for path in read_files():
        for number, line in checked_lines(path):
            for named in NAMED.findall(line):
                if "*" in named or any((base / named).exists() for base in BASES):
                    continue
                missing.append(f"{path.relative_to(REPO)}:{number} names {named}")
    assert not missing, "files named but not there:\n" + "\n".join(missing)


def test_the_check_sees_a_missing_file(tmp_path):
    line = "# The folds live in runtime/view/state.py (gone) and runtime/live/view/state.py (there)."
    named = NAMED.findall(line)
    assert named == ["runtime/view/state.py", "runtime/live/view/state.py"]
    assert [n for n in named if not any((base / n).exists() for base in BASES)] == ["runtime/view/state.py"]
