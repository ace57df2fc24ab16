"""Real processes for live tests: a daphne server, a Celery worker, a fresh PostgreSQL database.

Each helper starts its process with its own data folder and environment and
stops it (and its children) when the `with` block ends. A process also ends when the test process dies, however
it dies: one left behind (a Celery worker listening on a Redis database) took the tasks of the sessions after it.
"""
from __future__ import annotations

import atexit
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterable
from contextlib import closing, contextmanager
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
    env.update({"PYTHONUNBUFFERED": "1", "DESIGNER_DATA_DIR": tempfile.mkdtemp(prefix="designer-live-"),
                "DJANGO_SETTINGS_MODULE": "tests.support.server_settings"})
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
    return create_users(env, (username,))[username]


def create_users(env: dict, usernames: Iterable[str]) -> dict[str, str]:
    """Creates the users (passwords: ``password_for``) in one process, not two per user (each starts Django: seconds
    on a loaded machine); answers each one's API token."""
    names = list(usernames)
    if not names:
        return {}
    script = ("import json; from django.contrib.auth import get_user_model; from accounts.tokens import create_token; "
              f"made = {{n: get_user_model().objects.create_user(n, password=p) for n, p in {[(n, password_for(n)) for n in names]!r}}}; "
              "print(json.dumps({n: create_token(u, 'cli') for n, u in made.items()}))")
    out = manage(env, "shell", "-v", "0", "-c", script)
    return json.loads(out.strip().splitlines()[-1])


# Migrating a new database takes a Django process and ten seconds or more on a loaded machine, and nearly every
# live test starts a server on a new one: each pytest process migrates one template per kind of database and
# copies it (a file for SQLite, CREATE DATABASE ... TEMPLATE for PostgreSQL). Removed when the process ends.
# Making a server's users takes another Django process (2-3 s of CPU): a SQLite template is kept per set of users,
# made once from the empty one, with the tokens its users were given (tokens are stored as plain digests, good in
# any copy).
_templates: dict[str, str] = {}
_sqlite_templates: dict[tuple[str, ...], tuple[Path, dict[str, str]]] = {}
_migrated_urls: set[str] = set()


def _sqlite_template(users: tuple[str, ...] = ()) -> tuple[Path, dict[str, str]]:
    """The folder of a migrated SQLite database holding ``users`` (none: the empty template), and their tokens."""
    if users not in _sqlite_templates:
        env = base_env()
        data = Path(env["DESIGNER_DATA_DIR"])
        atexit.register(shutil.rmtree, data, True)
        if users:
            _copy_sqlite(_sqlite_template()[0], data)
            _sqlite_templates[users] = (data, create_users(env, users))
        else:
            manage(env, "migrate", "--noinput", "-v", "0")
            _sqlite_templates[users] = (data, {})
    return _sqlite_templates[users]


def _copy_sqlite(source: Path, data: Path) -> None:
    # SQLite's backup, not a file copy: what a process wrote may still sit in the -wal file beside the database.
    for db in source.glob("*.sqlite3"):
        with closing(sqlite3.connect(db)) as src, closing(sqlite3.connect(data / db.name)) as dst:
            src.backup(dst)


def _postgres_template() -> str:
    if "postgres" not in _templates:
        name = f"designer_template_{os.getpid()}_{uuid.uuid4().hex[:6]}"
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        manage(base_env(DATABASE_URL=f"postgresql://postgres@127.0.0.1:5432/{name}"), "migrate", "--noinput", "-v", "0")
        _templates["postgres"] = name
        atexit.register(_drop_database, name)
    return _templates["postgres"]


def _drop_database(name: str) -> None:
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')


def migrated(env: dict) -> None:
    """``env``'s database, migrated: a copy of the template when it is new, else ``manage.py migrate``."""
    if _fresh_sqlite(env):
        _copy_sqlite(_sqlite_template()[0], Path(env["DESIGNER_DATA_DIR"]))
    elif env.get("DATABASE_URL", "") not in _migrated_urls:
        manage(env, "migrate", "--noinput", "-v", "0")


def _fresh_sqlite(env: dict) -> bool:
    return not env.get("DATABASE_URL") and not any(Path(env["DESIGNER_DATA_DIR"]).glob("*.sqlite3"))


@contextmanager
def running_server(env: dict, users=("owner", "stranger")):
    """A server on a fresh data folder and database: migrated, ``users`` made (``server.tokens``)."""
    users = tuple(users)
    if _fresh_sqlite(env):
        template, made = _sqlite_template(users)
        _copy_sqlite(template, Path(env["DESIGNER_DATA_DIR"]))
        tokens = dict(made)
    else:
        migrated(env)
        tokens = create_users(env, users)
    with server_process(env, tokens) as server:
        yield server


@contextmanager
def server_allowing_private_urls(username: str):
    """A server of a test's own whose workspaces' provider keys may point at a loopback address (a fake server on
    this machine), with ``username`` made; its data folder removed after: the server's base URL."""
    env = base_env(PROVIDER_URLS_ALLOW_PRIVATE="1")
    try:
        with running_server(env, users=(username,)) as live:
            yield live.url
    finally:
        shutil.rmtree(env["DESIGNER_DATA_DIR"], ignore_errors=True)


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
def celery_worker(env: dict, name: str = "w1", concurrency: int = 1):
    log = Path(env["DESIGNER_DATA_DIR"]) / f"worker-{name}.log"
    with open(log, "w") as out:
        process = subprocess.Popen(
            outliving_nothing([sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel=INFO", f"--concurrency={concurrency}", "--pool=prefork",
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
    """A new PostgreSQL database of this test alone, already migrated (a copy of the process's template)."""
    name = f"designer_live_{uuid.uuid4().hex[:10]}"
    template = _postgres_template()
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    url = f"postgresql://postgres@127.0.0.1:5432/{name}"
    _migrated_urls.add(url)
    try:
        yield url
    finally:
        _migrated_urls.discard(url)
        _drop_database(name)


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
