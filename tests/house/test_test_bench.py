"""A test bench a newcomer trusts.

What tests share lives where its name says: no module under tests/ imports a test module (test_*.py) or a
conftest.py; helpers are modules of tests/support (each listed in its __init__.py), fakes of outside services are in
tests/fakes, files tests read or run in tests/fixtures, fixtures in a conftest.py.

A run leaves the checkout as it found it: the data folder (secret key, test database, runs' workspaces) of the
session, of the processes it starts and of a fresh session is a temporary one outside the checkout, and so is
Hypothesis's example database. So is the one of the settings mypy's Django plugin reads (`make lint-python`).

The coverage floor `make test` holds the suite to (.coveragerc) only rises.
"""
from __future__ import annotations

import ast
import configparser
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from django.conf import global_settings, settings
from hypothesis.configuration import storage_directory

import config.settings as app_settings
from tests.support import server_settings
from tests.support.servers import base_env

REPO = Path(__file__).resolve().parents[2]
TESTS = REPO / "tests"
# Where modules that are neither tests nor conftest.py may live (see the module docstring).
HELPER_HOMES = ("support", "fakes", "fixtures")
# Modules kept elsewhere for code outside tests/ that still imports them there, each with that code. Each stays
# only while that code still names it (test_each_module_kept_for_outside_code_is_still_needed).
KEPT_FOR = {"live/runs.py": REPO / "bench" / "durable.py"}
# The lowest coverage floor .coveragerc may hold: raised with it, so lowering the floor takes a test edit too.
FLOOR = 85


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path, root: Path) -> list[tuple[int, str]]:
    """(line, module) for every import in ``path``, at any depth (function-local ones too), relative ones resolved;
    ``from package import name`` counts as an import of ``package.name`` as well, which may be a module."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = module_name(path, root)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def imports_of_tests_or_conftests(root: Path) -> list[str]:
    """Where a module under ``root`` imports a test module or a conftest.py of ``root``."""
    modules = {module_name(p, root) for p in root.rglob("*.py")}
    offenders = []
    for path in sorted(root.rglob("*.py")):
        for line, target in imported_modules(path, root):
            last = target.rpartition(".")[2]
            if target in modules and (last.startswith("test_") or last == "conftest"):
                offenders.append(f"{path.relative_to(root)}:{line} imports {target}")
    return offenders


def misplaced_helpers(root: Path) -> list[str]:
    """Modules under ``root`` that are not tests, conftest.py or __init__.py, outside the helpers' homes."""
    return sorted(
        str(p.relative_to(root)) for p in root.rglob("*.py")
        if not (p.name.startswith("test_") or p.name in ("conftest.py", "__init__.py"))
        and p.relative_to(root).parts[0] not in HELPER_HOMES
    )


# ---------------------------------------------------------------- where helpers live


def test_no_module_imports_a_test_module_or_a_conftest():
    assert imports_of_tests_or_conftests(TESTS) == [], "move what they share to tests/support (or a fixture)"


def test_helper_modules_live_in_support_fakes_or_fixtures():
    assert [p for p in misplaced_helpers(TESTS) if p not in KEPT_FOR] == [], "move them to tests/support"


def test_each_module_kept_for_outside_code_is_still_needed():
    for kept, user in KEPT_FOR.items():
        name = module_name(TESTS / kept, TESTS)
        assert (TESTS / kept).exists() and name in user.read_text(), (
            f"{user.relative_to(REPO)} no longer imports {name}: delete tests/{kept} and its KEPT_FOR entry")


def test_the_support_package_lists_each_of_its_modules():
    listed = (TESTS / "support" / "__init__.py").read_text()
    missing = [p.stem for p in sorted((TESTS / "support").glob("*.py"))
               if p.name != "__init__.py" and not re.search(rf"^{p.stem}\s", listed, re.M)]
    assert missing == [], "say in tests/support/__init__.py what each holds"


def test_imports_of_tests_and_conftests_are_found_at_any_depth(tmp_path):
    # The checks above must be able to fail: a relative import of a test module, an absolute one of a conftest
    # inside a function, a module imported by name from its package, and a helper outside tests/support.
    root = tmp_path / "tests"
    files = {
        "__init__.py": "",
        "conftest.py": "",
        "web/__init__.py": "",
        "web/test_runs.py": "def post():\n    pass\n",
        "web/test_forks.py": "from .test_runs import post\n",
        "web/helpers.py": "def f():\n    from tests.conftest import SPEC\n",
        "view/__init__.py": "",
        "view/test_view.py": "from tests.web import test_runs\nfrom tests.support.documents import judge_loop\n",
        "support/__init__.py": "",
        "support/documents.py": "import tests.fakes\n",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    assert imports_of_tests_or_conftests(root) == [
        "view/test_view.py:1 imports tests.web.test_runs",
        "web/helpers.py:2 imports tests.conftest",
        "web/test_forks.py:1 imports tests.web.test_runs",
    ]
    assert misplaced_helpers(root) == ["web/helpers.py"]


# ---------------------------------------------------------------- nothing written into the checkout


def outside_the_checkout(path) -> bool:
    return not Path(path).resolve().is_relative_to(REPO)


def test_the_sessions_data_folder_is_outside_the_checkout():
    database = settings.DATABASES["default"]
    places = {"DATA_DIR": settings.DATA_DIR, "WORKSPACES_DIR": settings.WORKSPACES_DIR, "STATIC_ROOT": settings.STATIC_ROOT}
    if database["ENGINE"].endswith("sqlite3"):
        places.update(database=database["NAME"], test_database=database["TEST"]["NAME"])
    assert {k: str(v) for k, v in places.items() if not outside_the_checkout(v)} == {}
    # Processes started with the session's environment (manage.py commands, xdist workers) use the same folder.
    assert Path(os.environ["DESIGNER_DATA_DIR"]).resolve() == settings.DATA_DIR


def test_hypothesis_keeps_its_examples_outside_the_checkout():
    assert outside_the_checkout(storage_directory("examples", intent_to_write=False).path)


def data_dir_of_a_command(env: dict) -> Path:
    shown = subprocess.run([sys.executable, "manage.py", "shell", "-c", "from django.conf import settings; print(settings.DATA_DIR)"],
                           cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert shown.returncode == 0, shown.stderr[-2000:]
    return Path(shown.stdout.strip().splitlines()[-1])


def test_commands_and_servers_the_tests_start_keep_out_of_the_checkout():
    assert data_dir_of_a_command(dict(os.environ)) == settings.DATA_DIR
    server = base_env()
    try:
        assert server["DJANGO_SETTINGS_MODULE"] == "tests.support.server_settings"
        assert outside_the_checkout(server["DESIGNER_DATA_DIR"])
        assert data_dir_of_a_command(server) == Path(server["DESIGNER_DATA_DIR"]).resolve()
    finally:
        shutil.rmtree(server["DESIGNER_DATA_DIR"], ignore_errors=True)


def test_a_fresh_session_makes_its_own_data_folder_and_removes_it(tmp_path):
    # As a newcomer starts it: a shell with a data folder of its own exported, which the suite must not use.
    theirs = tmp_path / "developers-data"
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "DESIGNER_TEST_DATA_DIR")}
    env["DESIGNER_DATA_DIR"] = str(theirs)
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-p", "no:cacheprovider", "tests/house/test_test_bench.py"],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    used = re.search(r"^data folder \(removed at the end\): (.+)$", done.stdout, re.M)
    assert used, done.stdout[-2000:]
    folder = Path(used.group(1))
    assert outside_the_checkout(folder) and folder != theirs.resolve()
    assert not folder.exists() and not theirs.exists()


def test_only_the_suite_hashes_passwords_the_fast_way():
    theirs = getattr(app_settings, "PASSWORD_HASHERS", global_settings.PASSWORD_HASHERS)
    assert theirs[0] == "django.contrib.auth.hashers.PBKDF2PasswordHasher"
    fast = "django.contrib.auth.hashers.MD5PasswordHasher"
    assert [settings.PASSWORD_HASHERS[0], server_settings.PASSWORD_HASHERS[0]] == [fast, fast]
    assert fast not in theirs


def test_mypys_django_plugin_reads_settings_that_leave_nothing_behind():
    # The plugin imports the settings named in mypy.ini to type the models; config.settings itself, with no data
    # folder exported (as `make lint-python` runs), made ./data and its secret key in the checkout. Read here as the
    # plugin reads them, by its own function, with no DESIGNER_DATA_DIR.
    ini = configparser.ConfigParser()
    ini.read(REPO / "mypy.ini")
    module = ini["mypy.plugins.django-stubs"]["django_settings_module"]
    env = {k: v for k, v in os.environ.items()
           if k not in ("DESIGNER_DATA_DIR", "DESIGNER_TEST_DATA_DIR", "DJANGO_SETTINGS_MODULE", "WORKSPACES_DIR")}
    read = subprocess.run(
        [sys.executable, "-c", "import sys\nfrom mypy_django_plugin.django.context import initialize_django\n"
         "apps, settings = initialize_django(sys.argv[1])\nprint(settings.DATA_DIR, settings.WORKSPACES_DIR)", module],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert read.returncode == 0, read.stderr[-2000:]
    folders = [Path(p) for p in read.stdout.split()[-2:]]
    assert [str(f) for f in folders if not outside_the_checkout(f)] == [], f"{module} keeps its data in the checkout"
    assert [str(f) for f in folders if f.exists()] == [], f"{module} leaves its data folder behind"


# ---------------------------------------------------------------- the coverage floor


def test_the_coverage_floor_never_falls():
    coverage = configparser.ConfigParser()
    coverage.read(REPO / ".coveragerc")
    assert float(coverage["report"]["fail_under"]) >= FLOOR, "the floor only rises (see .coveragerc)"
