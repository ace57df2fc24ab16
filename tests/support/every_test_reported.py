"""A pytest plugin (tests/conftest.py loads it): a run spread over pytest-xdist workers fails when a test the workers
collected never came back with a result.

xdist's controller counts what its workers send; a test that never reports is not counted anywhere, and the run ends
green. It happened twice here: `--dist loadgroup` over tests/live and tests/e2e ended having reported 340 of its 481
tests, and `--dist loadfile` over tests/live reported 43 of 251 (the API fuzz's generated tests never came back).
Both exited 0; only the totals showed it. Runs on one process are not concerned: pytest reports every item it runs.
"""
from __future__ import annotations

import pytest

_collected: set[str] = set()
_reported: set[str] = set()


def pytest_xdist_node_collection_finished(node, ids) -> None:
    _collected.update(ids)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _reported.add(report.nodeid)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    if config.pluginmanager.getplugin("dsession") is None or config.option.collectonly:
        return  # not the controller of an xdist run
    if session.shouldstop or session.shouldfail or exitstatus in (pytest.ExitCode.INTERRUPTED, pytest.ExitCode.USAGE_ERROR):
        return  # stopped early on purpose (-x, --maxfail, Ctrl-C): the rest was never meant to run
    missing = sorted(_collected - _reported)
    if not missing:
        return
    terminal = config.pluginmanager.getplugin("terminalreporter")
    if terminal is not None:
        terminal.write_sep("=", f"{len(missing)} of the {len(_collected)} tests the workers collected never reported",
                           red=True, bold=True)
        for nodeid in missing[:20]:
            terminal.write_line(f"never reported: {nodeid}")
        if len(missing) > 20:
            terminal.write_line(f"... and {len(missing) - 20} more")
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
