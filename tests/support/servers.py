"""Real processes for live tests: a daphne server, a Celery worker, a fresh PostgreSQL database.

Each helper starts its process with its own data folder and environment and
stops it (and its children) when the `with` block ends. A process also ends when the test process dies, however
it dies: one left behind (a Celery worker listening on a Redis database) took the tasks of the sessions after it.
"""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psycopg
import redis

REPO = Path(__file__).resolve().parents[2]
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/test"
REDIS = "redis://127.0.0.1:6379"


def outliving_nothing(argv: list[str]) -> list[str]:
    """``argv`` run so that it gets a SIGTERM when the test process dies, even by SIGKILL (Linux's parent-death
    signal, through util-linux's setpriv); as it is where setpriv is missing."""
    setpriv = shutil.which("setpriv")
    return [setpriv, "--pdeathsig", "TERM", "--", *argv] if setpriv else argv


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def base_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "REDIS_URL", "RUNTIME_BACKEND",
                                                                "DESIGNER_TEST_DATA_DIR")}
    env.update({"PYTHONUNBUFFERED": "1", "DESIGNER_DATA_DIR": tempfile.mkdtemp(prefix="designer-live-")})
    env.update({k: str(v) for k, v in extra.items()})
    return env


def manage(env: dict, *args: str) -> str:
    result = subprocess.run([sys.executable, "manage.py", *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=180)
    if result.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{result.stderr[-3000:]}")
    return result.stdout


@dataclass
class Server:
    url: str
    env: dict
    process: subprocess.Popen
    log: Path
    tokens: dict = field(default_factory=dict)

    @property
    def ws_url(self) -> str:
        return self.url.replace("http://", "ws://")

    def client(self, user: str) -> httpx.Client:
        return httpx.Client(base_url=self.url + "/api/v1", headers={"Authorization": f"Bearer {self.tokens[user]}"}, timeout=30)

    def headers(self, user: str) -> dict:
        return {"Authorization": f"Bearer {self.tokens[user]}"}


def password_for(username: str) -> str:
    return f"pass-{username}-123"


def create_user(env: dict, username: str) -> str:
    """Creates the user (password: ``password_for(username)``); answers an API token."""
    manage(env, "shell", "-c", "from django.contrib.auth import get_user_model; "
                               f"get_user_model().objects.create_user({username!r}, password={password_for(username)!r})")
    return manage(env, "create_api_token", username).strip()


@contextmanager
def running_server(env: dict, users=("owner", "stranger")):
    """A server on a fresh data folder and database: migrated, ``users`` made (``server.tokens``)."""
    manage(env, "migrate", "--noinput", "-v", "0")
    tokens = {u: create_user(env, u) for u in users}
    with server_process(env, tokens) as server:
        yield server


@contextmanager
def server_process(env: dict, tokens: dict):
    """A server on ``env``'s data folder and database as they are: a second one, or the first started again."""
    port = free_port()
    log = Path(env["DESIGNER_DATA_DIR"]) / f"server-{port}.log"
    with open(log, "w") as out:
        process = subprocess.Popen(outliving_nothing([sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"]), cwd=REPO,
                                   env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    server = Server(url=f"http://127.0.0.1:{port}", env=env, process=process, log=log, tokens=tokens)
    try:
        _wait_for(server)
        yield server
    finally:
        stop(process)


def _wait_for(server: Server, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"server exited:\n{server.log.read_text()[-3000:]}")
        try:
            httpx.get(server.url + "/api/v1/openapi.json", timeout=2)
            return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise RuntimeError(f"server did not start:\n{server.log.read_text()[-3000:]}")


def stop(process: subprocess.Popen, sig=signal.SIGTERM) -> None:
    """SIGTERM (or ``sig``) to the process and its children, as a deploy does; SIGKILL if they are not gone in 15 s."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=15)


@contextmanager
def celery_worker(env: dict, name: str = "w1"):
    log = Path(env["DESIGNER_DATA_DIR"]) / f"worker-{name}.log"
    with open(log, "w") as out:
        process = subprocess.Popen(
            outliving_nothing([sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel=INFO", "--concurrency=1", "--pool=prefork",
                               f"--hostname={name}@%h", "--without-gossip", "--without-mingle"]),
            cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )
    deadline = time.monotonic() + 180  # generous: a busy machine starts it slowly, an idle one at once
    while "ready" not in log.read_text():
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"celery worker did not start:\n{log.read_text()[-3000:]}")
        time.sleep(0.2)
    try:
        yield process
    finally:
        stop(process)


def kill_hard(process: subprocess.Popen) -> None:
    """A crash: SIGKILL to the worker and its children, no chance to clean up."""
    stop(process, signal.SIGKILL)


@contextmanager
def fresh_postgres():
    name = f"designer_live_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgresql://postgres@127.0.0.1:5432/{name}"
    finally:
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')


@contextmanager
def fresh_redis_db():
    """A Redis database (6..15) of this test alone, empty before and after. Taken with a lock key; one that someone
    is still connected to is passed over, as a worker left by a killed session would take this test's tasks."""
    for db in range(6, 16):
        client = redis.Redis.from_url(f"{REDIS}/{db}")
        me = str(client.client_id())
        if any(c["db"] == str(db) and c["id"] != me for c in client.client_list()):
            continue
        if client.set("designer-live-lock", "1", nx=True, ex=3600):
            client.flushdb()
            try:
                yield f"{REDIS}/{db}"
            finally:
                client.flushdb()
            return
    raise RuntimeError("no free Redis database (6..15) for a live test")
