"""Moved to tests/support/live_runs.py: kept only while bench/durable.py imports it from here. Once the bench
imports tests.support.live_runs, delete this file; tests/house/test_test_bench.py says when."""
from tests.support.live_runs import collect, script, start_run, wait_status  # noqa: F401
