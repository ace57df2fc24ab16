"""The commit-msg hook (.githooks/commit-msg) holds what CONTRIBUTING.md asks of a commit message."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

HOOK = Path(__file__).resolve().parents[2] / ".githooks" / "commit-msg"


def check(message: str, tmp_path: Path) -> subprocess.CompletedProcess:
    path = tmp_path / "COMMIT_EDITMSG"
    path.write_text(message)
    return subprocess.run([str(HOOK), str(path)], capture_output=True, text=True, timeout=60)


def test_a_short_subject_with_a_body_passes(tmp_path):
    assert check("Room docstrings within the line length\n\nTwo docstrings ran past 160 columns.\n", tmp_path).returncode == 0


@pytest.mark.parametrize("message, words", [
    ("x" * 73 + "\n\nwhy\n", "73 characters"),
    ("A subject alone\n", "a body saying why"),
    ("A subject\nglued body\n", "a body saying why"),
    ("\n\n", "the subject is empty"),
])
def test_a_long_subject_or_a_missing_body_is_refused_with_the_reason(tmp_path, message, words):
    found = check(message, tmp_path)
    assert found.returncode == 1
    assert words in found.stderr


def test_comment_lines_git_adds_are_not_the_body(tmp_path):
    assert check("Subject\n\n# Please enter the commit message\n", tmp_path).returncode == 1
