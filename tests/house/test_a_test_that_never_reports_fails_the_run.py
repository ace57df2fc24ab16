"""tests/support/every_test_reported.py: a pytest run over xdist workers, in a process of its own, where one test is
dropped on its worker without a word (its protocol hook claims it and reports nothing, as the lost tests did). With
the guard the run fails and names it; the same run without the drop passes."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

TESTS = """
def test_one():
    pass

def test_two_is_dropped():
    pass

def test_three():
    pass
"""

DROPPING = """
import os
import pytest

@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item, nextitem):
    if os.environ.get("DROP") and "dropped" in item.name:
        return True  # claimed, never run, never reported
"""


def run(folder: Path, drop: bool) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO), "DROP": "1" if drop else ""}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(folder / "pytest.ini"), "--rootdir", str(folder), "-p", "no:django",
         "-p", "no:cacheprovider", "-p", "tests.support.every_test_reported", "-n", "2", str(folder)],
        cwd=folder, env=env, capture_output=True, text=True, timeout=120)


def test_a_dropped_test_fails_the_run_and_is_named(tmp_path):
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "conftest.py").write_text(textwrap.dedent(DROPPING))
    (tmp_path / "test_some.py").write_text(textwrap.dedent(TESTS))

    dropped = run(tmp_path, drop=True)
    assert dropped.returncode == 1, dropped.stdout[-2000:] + dropped.stderr[-2000:]
    assert "2 passed" in dropped.stdout
    assert "1 of the 3 tests the workers collected never reported" in dropped.stdout
    assert "never reported: test_some.py::test_two_is_dropped" in dropped.stdout

    whole = run(tmp_path, drop=False)
    assert whole.returncode == 0, whole.stdout[-2000:] + whole.stderr[-2000:]
    assert "3 passed" in whole.stdout and "never reported" not in whole.stdout
