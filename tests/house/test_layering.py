"""Imports go one way: runtime -> designer -> accounts -> common. A lower layer never imports a higher one,
and the engine has no function-local imports holding an import circle together."""
from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ORDER = ["common", "accounts", "designer", "runtime"]


def imported_packages(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("package", ORDER[:-1])
def test_a_package_never_imports_a_layer_above_it(package):
    above = set(ORDER[ORDER.index(package) + 1:])
    offenders = {str(p.relative_to(REPO)): sorted(imported_packages(p) & above)
                 for p in (REPO / package).rglob("*.py") if imported_packages(p) & above}
    assert offenders == {}


@pytest.mark.parametrize("package, forbidden", [("common", ["accounts", "designer", "runtime"]),
                                                ("accounts", ["designer", "runtime"]),
                                                ("designer", ["runtime"])])
def test_importing_a_layer_loads_nothing_above_it(package, forbidden):
    # Loaded in a fresh interpreter with Django configured but no apps imported: what the layer pulls in itself.
    code = (
        "import os, sys, pkgutil, importlib\n"
        "os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings')\n"
        "import django\n"
        "from django.conf import settings\n"
        f"settings.INSTALLED_APPS = [a for a in settings.INSTALLED_APPS if a not in {forbidden!r}]\n"
        "django.setup()\n"
        f"pkg = importlib.import_module({package!r})\n"
        "for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "    if '.migrations' in m.name or '.management' in m.name or m.name.endswith('.tests'):\n"
        "        continue\n"
        "    importlib.import_module(m.name)\n"
        f"bad = sorted(n for n in sys.modules if n.split('.')[0] in {forbidden!r})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == ""


def function_local_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found += [f"{path.name}:{n.lineno} in {fn.name}" for n in ast.walk(fn) if isinstance(n, (ast.Import, ast.ImportFrom))]
    return found


def test_the_engine_has_no_function_local_imports():
    # The runner is passed in (ctx.run_scope / ctx.run_step), so loops and includes import nothing above them.
    engine = sorted((REPO / "runtime" / "engine").glob("*.py"))
    assert engine, "runtime/engine moved?"
    assert [hit for p in engine for hit in function_local_imports(p)] == []


def test_function_local_imports_are_found(tmp_path):
    # The check above must be able to fail: it sees an import inside an async function.
    sample = tmp_path / "sample.py"
    sample.write_text("async def f():\n    from os import path\n    return path\n")
    assert function_local_imports(sample) == ["sample.py:2 in f"]


# ---------------------------------------------------------------- runtime's rooms
# Each room imports only rooms listed before it (and the shared base: contract, events, models). The edges
# (api, signals, apps, management commands) sit above every room.
RUNTIME = REPO / "runtime"
ROOMS = ["messaging", "tools", "providers", "coordinator", "engine", "live", "durability", "execution", "runs", "evals"]
BASE = {"contract", "events", "models", "numbering"}
EDGES = {"api", "apps", "signals", "contract_ts", "management", "migrations", "schemas"}

# Function-local imports allowed in runtime/, each with its reason: Django's documented place to connect signals,
# and the MCP SDK, which takes about a second to import and is only needed by runs and checks with MCP servers.
ALLOWED_LOCAL_IMPORTS = {
    ("apps.py", "ready"),
    ("deployment.py", "check_entry"),
    ("session.py", "open"),
}


def room_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "runtime" or len(parts) < 2:
        return None
    return parts[1]


def room_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        found |= {r for r in map(room_of, names) if r}
    return found


def test_every_runtime_module_lives_in_a_room_or_is_base_or_edge():
    loose = sorted(p.stem for p in RUNTIME.glob("*.py") if p.stem not in BASE | EDGES | {"__init__"})
    folders = sorted(p.name for p in RUNTIME.iterdir() if p.is_dir() and (p / "__init__.py").exists())
    assert loose == []
    assert sorted(set(folders) - {"management", "migrations"}) == sorted(ROOMS)


@pytest.mark.parametrize("room", ROOMS)
def test_a_runtime_room_imports_only_rooms_below_it(room):
    allowed = set(ROOMS[:ROOMS.index(room) + 1]) | BASE
    offenders = {str(p.relative_to(REPO)): sorted(room_imports(p) - allowed)
                 for p in (RUNTIME / room).rglob("*.py") if room_imports(p) - allowed}
    assert offenders == {}


def test_the_base_imports_no_room():
    offenders = {p.name: sorted(room_imports(p) - BASE) for p in (RUNTIME.glob(f"{b}.py") for b in BASE) for p in p
                 if room_imports(p) - BASE}
    assert offenders == {}


def test_runtime_has_no_function_local_imports_but_the_named_ones():
    found = []
    for path in sorted(RUNTIME.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        found += [hit for hit in function_local_imports(path)
                  if (path.name, hit.split(" in ")[1]) not in ALLOWED_LOCAL_IMPORTS]
    assert found == []


def rooms_named_in_docs() -> dict[str, list[str]]:
    """The rooms each doc lists, in its order: README.md's "What is where" rows, CONTRIBUTING.md's list, and
    docs/architecture.md's picture (its chain of arrows, read from the bottom) and its list."""
    readme = (REPO / "README.md").read_text()
    contributing = (REPO / "CONTRIBUTING.md").read_text()
    architecture = (REPO / "docs" / "architecture.md").read_text()
    listed = re.search(r"in this list:((?:\s*`\w+`,?)+)", contributing)
    subgraph = re.search(r'subgraph runtime\["runtime/"\](.*?)^\s*end$', architecture, re.M | re.S)
    chain = re.search(r"^\s*edges --> (.*) --> base$", architecture, re.M)
    return {
        "README.md": re.findall(r"^\| `runtime/(\w+)/` \|", readme, re.M),
        "CONTRIBUTING.md": re.findall(r"`(\w+)`", listed.group(1)) if listed else [],
        "docs/architecture.md picture": chain.group(1).split(" --> ")[::-1] if chain else [],
        "docs/architecture.md boxes": re.findall(r'^\s+(\w+)\["\1/:', subgraph.group(1), re.M)[::-1] if subgraph else [],
        "docs/architecture.md list": re.findall(r"^- `runtime/(\w+)/`:", architecture, re.M),
    }


def test_the_docs_name_every_room_in_order():
    # A room added to runtime/ (coordinator/, evals/) was missing from the README, CONTRIBUTING.md and the
    # architecture's picture; a newcomer reading them would not know it was there.
    assert {doc: rooms for doc, rooms in rooms_named_in_docs().items() if rooms != ROOMS} == {}


def test_no_app_imports_config():
    # config sits above the apps (settings, ASGI, Celery); what the apps need from it lives in common/.
    offenders = {str(p.relative_to(REPO)) for package in ORDER for p in (REPO / package).rglob("*.py")
                 if "config" in imported_packages(p) and "migrations" not in p.parts}
    assert offenders == set()


def test_the_room_check_can_fail(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from runtime.runs.create import create_run\nimport runtime.live.recorder\n")
    assert room_imports(sample) == {"runs", "live"}
