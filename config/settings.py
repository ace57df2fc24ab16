"""Settings read from the environment.

With nothing set, the app is the embedded default: SQLite in DESIGNER_DATA_DIR,
the in-memory channel layer and runs executed inside the server process.
DATABASE_URL switches to PostgreSQL; REDIS_URL switches to channels_redis and
Celery workers (RUNTIME_BACKEND may also be set explicitly).
"""
import contextlib
import json
import os
import secrets
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF, UNSAFE_INLINE

from common.env import ImproperlyConfiguredEnv, envbool, envfloat, envint, envstr

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(envstr("DESIGNER_DATA_DIR", str(BASE_DIR / "data"))).resolve()
DATA_DIR.mkdir(mode=0o700, parents=True, exist_ok=True)


def _private(folder: Path) -> None:
    """Others may not enter: a command run as the server's user can leave a setuid file in a workspace (as root: a
    setuid-root one), and the secret key, the database and every run's files are here. Made so at every start."""
    mode = folder.stat().st_mode & 0o777
    if mode & 0o077:
        with contextlib.suppress(PermissionError):  # not ours to change: docs/production.md says what it should be
            folder.chmod(mode & 0o700)


_private(DATA_DIR)


def _secret_key() -> str:
    given = envstr("SECRET_KEY")
    if given:
        return given
    # Generated once and kept, so sessions survive a restart of the embedded default.
    key_file = DATA_DIR / "secret_key"
    try:  # created private in one step: never readable by others, not even for a moment
        fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_urlsafe(50))
    return key_file.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = envbool("DEBUG", False)
ALLOWED_HOSTS = [h for h in envstr("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",") if h]
CSRF_TRUSTED_ORIGINS = [o for o in envstr("CSRF_TRUSTED_ORIGINS", "").split(",") if o]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    # Only for its static files: the API docs page loads Swagger UI from here, not from a CDN.
    "ninja",
    "channels",
    # Counts failed sign-ins, sign-ups and API tokens (see "sign-in limits" below).
    "axes",
    "accounts",
    "designer",
    "runtime",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.body_limit.RequestBodyLimit",
    # Static files with the security headers above (nosniff, HSTS under TLS).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # After WhiteNoise: pages get the policy; static files, which run nothing themselves, need none.
    "csp.middleware.CSPMiddleware",
    # Last, as axes asks: it turns a request marked as locked out into the 429 (see "sign-in limits").
    "axes.middleware.AxesMiddleware",
]

# ---------------------------------------------------------------- limits on what one request may cost

# Bodies over this are answered 413 naming the limit, on every route. A workflow is at most
# 1 MiB; JSON escaping (\u00e9 for é) can triple it, and a layout rides along.
REQUEST_MAX_BYTES = envint("REQUEST_MAX_BYTES", 4 * 1024 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = REQUEST_MAX_BYTES
# Reading, validating, rendering and importing documents run in these worker processes
# (common/offload.py), each task stopped past WORK_TIMEOUT_S; more than WORK_QUEUE at once wait no more: 503.
WORK_PROCESSES = envint("WORK_PROCESSES", min(2, os.cpu_count() or 1))
WORK_TIMEOUT_S = float(envstr("WORK_TIMEOUT_S", "10"))
WORK_QUEUE = envint("WORK_QUEUE", 16)
WORK_TASKS_PER_PROCESS = envint("WORK_TASKS_PER_PROCESS", 500)
# Requests a minute that an address not signed in may make to /validate, /render and /import.
ANON_RATE = envstr("ANON_RATE", "120/min")
# Reverse proxies in front of the server: their X-Forwarded-For and X-Forwarded-Proto are believed.
TRUSTED_PROXIES = envint("TRUSTED_PROXIES", 0)
NINJA_NUM_PROXIES = TRUSTED_PROXIES

# ---------------------------------------------------------------- TLS

# HTTPS=1 when users reach the server over TLS (directly or through a proxy): cookies are sent
# only over TLS, browsers are told to keep to HTTPS (HSTS), and plain HTTP is redirected.
# Off by default: the embedded default serves plain http on 127.0.0.1.
HTTPS = envbool("HTTPS", False)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", HTTPS)
SECURE_HSTS_SECONDS = envint("HSTS_SECONDS", 31_536_000 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = envbool("HSTS_PRELOAD", False)
if TRUSTED_PROXIES:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASE_URL = envstr("DATABASE_URL")
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60)}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(DATA_DIR / "designer.sqlite3"),
            # Runs write events from the server process while requests read them (WAL). With WAL,
            # synchronous=NORMAL keeps the database consistent and skips an fsync per commit;
            # a power cut can lose the last moments of a run, never corrupt the file.
            "OPTIONS": {"timeout": 20, "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                        "transaction_mode": "IMMEDIATE"},
            # A file, not shared-cache memory: runs write from other threads while tests read.
            # One file per test process, so concurrent test sessions never share it.
            "TEST": {"NAME": str(DATA_DIR / f"test-designer-{os.getpid()}.sqlite3")},
        }
    }

REDIS_URL = envstr("REDIS_URL")
CHANNEL_REDIS_READ_TIMEOUT_S = 30.0
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # redis-py 8 reads with a 5 s socket timeout by default, the same 5 s channels_redis blocks in BZPOPMIN
            # for a message: a consumer with nothing to receive for 5 s died with a TimeoutError and its websocket
            # closed with 1011 (django/channels_redis#422). The read may now outlast the pop, with room for a busy
            # machine; a connection that is really gone still fails within it.
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": CHANNEL_REDIS_READ_TIMEOUT_S}],
                       "capacity": envint("CHANNEL_CAPACITY", 1000)},
        }
    }
else:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer",
            "CONFIG": {"capacity": envint("CHANNEL_CAPACITY", 1000)},
        }
    }
# The cache holds rate-limit counts: shared by every server process when there is a Redis.
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}

RUNTIME_BACKEND = envstr("RUNTIME_BACKEND", "celery" if REDIS_URL else "inline")
if RUNTIME_BACKEND not in ("inline", "celery"):
    raise ImproperlyConfiguredEnv(f"RUNTIME_BACKEND={RUNTIME_BACKEND!r}: use inline or celery")

# Liveness of running runs: workers beat every RUN_HEARTBEAT_S; a run silent for RUN_LOST_AFTER_S has lost its
# worker. The server's reaper then resumes it from its last step or iteration boundary (runtime.durability.continuation), at
# most RUN_MAX_RESUMES times; with RESUME_LOST_RUNS=0 it is marked failed ("worker lost") as before.
RUN_HEARTBEAT_S = float(envstr("RUN_HEARTBEAT_S", "5"))
RUN_LOST_AFTER_S = float(envstr("RUN_LOST_AFTER_S", "30"))
RUN_REAPER_INTERVAL_S = float(envstr("RUN_REAPER_INTERVAL_S", "10"))
RESUME_LOST_RUNS = envbool("RESUME_LOST_RUNS", True)
RUN_MAX_RESUMES = envint("RUN_MAX_RESUMES", 3)
# A database out of reach (a restart, a failover) is waited for this long where a run needs it between its model
# calls (the permit checked before each call); past it the run fails with the reason in words.
RUN_DATABASE_WAIT_S = float(envstr("RUN_DATABASE_WAIT_S", "120"))
# A run's coordinator (runtime.coordinator) asks its model at most this many times (wake cycles), as upstream's
# default; past it, messages to it are dropped with max-wake-cycles.
COORDINATOR_MAX_WAKE_CYCLES = envint("COORDINATOR_MAX_WAKE_CYCLES", 100)
PROVIDER_KEYS_SECRET = envstr("PROVIDER_KEYS_SECRET")
# OpenTelemetry traces of runs (runtime/live/tracing.py): off unless an OTLP/HTTP endpoint is set. The SDK reads
# the other OTEL_EXPORTER_OTLP_* variables itself (headers, timeout, certificate) and OTEL_BSP_* (its queue).
OTEL_TRACES_ENDPOINT = envstr("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") or envstr("OTEL_EXPORTER_OTLP_ENDPOINT")
OTEL_SDK_DISABLED = envbool("OTEL_SDK_DISABLED", False)   # no traces at all, workspaces' own endpoints too
OTEL_TRACING = bool(OTEL_TRACES_ENDPOINT.strip()) and not OTEL_SDK_DISABLED
OTEL_SERVICE_NAME = envstr("OTEL_SERVICE_NAME", "loop-designer") or "loop-designer"
# Where the run page links a run's trace: a URL with {trace_id} in it (Jaeger: http://jaeger:16686/trace/{trace_id}).
OTEL_TRACE_LINK_TEMPLATE = envstr("OTEL_TRACE_LINK_TEMPLATE")
if OTEL_TRACE_LINK_TEMPLATE and "{trace_id}" not in OTEL_TRACE_LINK_TEMPLATE:
    raise ImproperlyConfiguredEnv(f"OTEL_TRACE_LINK_TEMPLATE={OTEL_TRACE_LINK_TEMPLATE!r} must contain {{trace_id}}")

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"

# Providers. Keys come from the environment or the user's stored keys, never documents.
DEFAULT_PROVIDER = envstr("DEFAULT_PROVIDER", "simulated")
OPENAI_BASE_URL = envstr("OPENAI_BASE_URL", "https://api.openai.com/v1")
OPENAI_API_KEY = envstr("OPENAI_API_KEY")
ANTHROPIC_BASE_URL = envstr("ANTHROPIC_BASE_URL", "https://api.anthropic.com")
ANTHROPIC_API_KEY = envstr("ANTHROPIC_API_KEY")
# The other providers by upstream's names (runtime/providers/catalog.py): the server's key is <NAME>_API_KEY
# and its base URL <NAME>_BASE_URL, read from each provider's usual environment variables.
GOOGLE_API_KEY = envstr("GEMINI_API_KEY") or envstr("GOOGLE_API_KEY")
GOOGLE_BASE_URL = envstr("GEMINI_BASE_URL")
VERTEX_API_KEY = envstr("VERTEX_API_KEY") or envstr("GOOGLE_CLOUD_API_KEY")
VERTEX_BASE_URL = envstr("VERTEX_BASE_URL")
# Bedrock: a Bedrock API key, or "ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN]" signed with SigV4.
BEDROCK_API_KEY = envstr("AWS_BEARER_TOKEN_BEDROCK") or (
    ":".join(filter(None, (envstr("AWS_ACCESS_KEY_ID"), envstr("AWS_SECRET_ACCESS_KEY"), envstr("AWS_SESSION_TOKEN"))))
    if envstr("AWS_ACCESS_KEY_ID") and envstr("AWS_SECRET_ACCESS_KEY") else "")
_AWS_REGION = envstr("AWS_REGION") or envstr("AWS_DEFAULT_REGION")
BEDROCK_BASE_URL = envstr("BEDROCK_BASE_URL") or (f"https://bedrock-runtime.{_AWS_REGION}.amazonaws.com" if _AWS_REGION else "")
AZURE_API_KEY = envstr("AZURE_OPENAI_API_KEY")
AZURE_BASE_URL = envstr("AZURE_OPENAI_ENDPOINT")
AZURE_OPENAI_API_VERSION = envstr("AZURE_OPENAI_API_VERSION", "2024-10-21")
MISTRAL_API_KEY = envstr("MISTRAL_API_KEY")
MISTRAL_BASE_URL = envstr("MISTRAL_BASE_URL")
GROQ_API_KEY = envstr("GROQ_API_KEY")
GROQ_BASE_URL = envstr("GROQ_BASE_URL")
DEEPSEEK_API_KEY = envstr("DEEPSEEK_API_KEY")
DEEPSEEK_BASE_URL = envstr("DEEPSEEK_BASE_URL")
OPENROUTER_API_KEY = envstr("OPENROUTER_API_KEY")
OPENROUTER_BASE_URL = envstr("OPENROUTER_BASE_URL")
OLLAMA_API_KEY = envstr("OLLAMA_API_KEY")
OLLAMA_BASE_URL = envstr("OLLAMA_BASE_URL") or (f"{envstr('OLLAMA_HOST').rstrip('/')}/v1" if envstr("OLLAMA_HOST") else "")
XAI_API_KEY = envstr("XAI_API_KEY")
XAI_BASE_URL = envstr("XAI_BASE_URL")
TOGETHER_API_KEY = envstr("TOGETHER_API_KEY")
TOGETHER_BASE_URL = envstr("TOGETHER_BASE_URL")
FIREWORKS_API_KEY = envstr("FIREWORKS_API_KEY")
FIREWORKS_BASE_URL = envstr("FIREWORKS_BASE_URL")
CEREBRAS_API_KEY = envstr("CEREBRAS_API_KEY")
CEREBRAS_BASE_URL = envstr("CEREBRAS_BASE_URL")
# Base URLs users set with their keys reach public addresses only, unless this is on (for a
# model server on this machine or the private network, e.g. Ollama or vLLM).
PROVIDER_URLS_ALLOW_PRIVATE = envbool("PROVIDER_URLS_ALLOW_PRIVATE", False)

# Agent tools (docs/tools.md). Each run's agents work in WORKSPACES_DIR/<run id>; `bash` runs under
# bubblewrap. AGENT_SANDBOX=off runs commands unsandboxed (every run page that used them says so);
# AGENT_NETWORK=1 lets sandboxed commands reach the network. Workspaces of runs older than
# WORKSPACE_RETENTION_DAYS are deleted from disk (0: kept until the run is deleted); their
# snapshots stay in the database with the run.
AGENT_SANDBOX = envstr("AGENT_SANDBOX", "bwrap")
if AGENT_SANDBOX not in ("bwrap", "off"):
    raise ImproperlyConfiguredEnv(f"AGENT_SANDBOX must be bwrap or off, not {AGENT_SANDBOX!r}")
AGENT_NETWORK = envbool("AGENT_NETWORK", False)
# What one command may use (0: no limit): CPU seconds and address space per process, the largest file it
# writes; and the workspace's size, past which the tools that write refuse until files are deleted.
AGENT_CPU_SECONDS = envint("AGENT_CPU_SECONDS", 600)
AGENT_MEMORY_MB = envint("AGENT_MEMORY_MB", 4096)
AGENT_FILE_MB = envint("AGENT_FILE_MB", 1024)
AGENT_WORKSPACE_MB = envint("AGENT_WORKSPACE_MB", 2048)
# A sandboxed command's private /tmp is a tmpfs: memory, not disk, so it has its own size (MB; 0: the kernel's
# default of half the RAM). Fresh for each command and gone when it ends.
AGENT_TMP_MB = envint("AGENT_TMP_MB", 256)
# auto: each run's workspace is a loop-mounted ext4 image of AGENT_WORKSPACE_MB, so the kernel refuses the
# write past it (bash and file tools alike) when the server runs as root with a loop device; where it cannot,
# the size is measured at each snapshot and the run says so. off: measured at snapshots only (docs/tools.md).
AGENT_WORKSPACE_DISK = envstr("AGENT_WORKSPACE_DISK", "auto")
if AGENT_WORKSPACE_DISK not in ("auto", "off"):
    raise ImproperlyConfiguredEnv(f"AGENT_WORKSPACE_DISK must be auto or off, not {AGENT_WORKSPACE_DISK!r}")
# Snapshots keep the contents of a run's files in the database (runtime.models.WorkspaceBlob) for the
# run page's file viewer, diffs and zip. Past RUN_SNAPSHOT_MB of contents for one run, or
# WORKSPACE_SNAPSHOT_MB over all the runs of one (team) workspace, new contents are not kept: the
# snapshots still list those files with their sizes and digests, and say why their contents are not
# there (0: no limit). Deleting runs returns their space; `manage.py reclaim_space` gives it back to
# the disk on SQLite (docs/production.md).
RUN_SNAPSHOT_MB = envint("RUN_SNAPSHOT_MB", 200)
WORKSPACE_SNAPSHOT_MB = envint("WORKSPACE_SNAPSHOT_MB", 2000)
# A workspace's daily token and cost limits are reserved when a run starts and settled when it ends, so runs
# started together never spend past the day. A run reserves its own budget (max_tokens, max_cost_usd); one
# without reserves these estimates, capped at what is left, and stops when it has spent them.
RUN_RESERVED_TOKENS = envint("RUN_RESERVED_TOKENS", 100_000)
RUN_RESERVED_COST_USD = envfloat("RUN_RESERVED_COST_USD", 1.0)
# MCP tool servers (docs/tools.md, "MCP servers"). MCP_SERVERS: the administrator's, as a JSON list of
# {"name", "command", "args", "env"} (stdio: started per run in the agent sandbox) or {"name", "url", "headers"}
# (streamable HTTP); users add their own on their account. Users' URLs reach public addresses only unless
# MCP_URLS_ALLOW_PRIVATE (default: as PROVIDER_URLS_ALLOW_PRIVATE). MCP_SANDBOX_PATHS: host folders a stdio
# server sees read-only (its interpreter and code), separated by ':'.
try:
    _mcp_servers = json.loads(envstr("MCP_SERVERS", "[]") or "[]")
except ValueError as _exc:
    raise ImproperlyConfiguredEnv(f"MCP_SERVERS is not valid JSON ({_exc})") from None
if not isinstance(_mcp_servers, list) or not all(
        isinstance(s, dict) and isinstance(s.get("name"), str) and (s.get("command") or s.get("url"))
        for s in _mcp_servers):
    raise ImproperlyConfiguredEnv('MCP_SERVERS must be a JSON list of {"name", "command", "args", "env"} or '
                                  '{"name", "url", "headers"} objects')
MCP_SERVERS = _mcp_servers
MCP_URLS_ALLOW_PRIVATE = envbool("MCP_URLS_ALLOW_PRIVATE", PROVIDER_URLS_ALLOW_PRIVATE)
# Whether a workspace's own traces endpoint (its settings, accounts/trace_settings.py) may reach private and local
# addresses; by default as PROVIDER_URLS_ALLOW_PRIVATE.
TRACE_URLS_ALLOW_PRIVATE = envbool("TRACE_URLS_ALLOW_PRIVATE", PROVIDER_URLS_ALLOW_PRIVATE)
MCP_SANDBOX_PATHS = [p for p in envstr("MCP_SANDBOX_PATHS").split(":") if p]
MCP_START_TIMEOUT = envfloat("MCP_START_TIMEOUT", 30)
MCP_CALL_TIMEOUT = envfloat("MCP_CALL_TIMEOUT", 120)
# What the account page's "check" calls to connect to a user's server (accounts never imports the runtime).
MCP_CHECKER = "runtime.tools.mcp.deployment.check_entry"
WORKSPACES_DIR = Path(envstr("WORKSPACES_DIR", str(DATA_DIR / "workspaces"))).resolve()
# Private like the data dir: runs' files are their workspace members' only, whatever the host's other accounts.
WORKSPACES_DIR.mkdir(mode=0o700, parents=True, exist_ok=True)
_private(WORKSPACES_DIR)
# Every user's stdio MCP server sees these folders: one that holds the data dir (the project folder, with ./data)
# would show them the secret key, the database and every run's files.
for _shown in MCP_SANDBOX_PATHS:
    _folder = Path(_shown).resolve()
    for _kept, _what in ((DATA_DIR, "the data dir"), (WORKSPACES_DIR, "the runs' workspaces")):
        if _kept == _folder or _kept.is_relative_to(_folder) or _folder.is_relative_to(_kept):
            raise ImproperlyConfiguredEnv(f"MCP_SANDBOX_PATHS: {_shown} shares {_what} ({_kept}) with every "
                                          "user's MCP server; list folders that hold only what servers need")
WORKSPACE_RETENTION_DAYS = envfloat("WORKSPACE_RETENTION_DAYS", 30)
WORKSPACE_UPLOAD_MAX_BYTES = envint("WORKSPACE_UPLOAD_MAX_BYTES", 50 * 2**20)
WORKSPACE_UPLOAD_MAX_FILES = envint("WORKSPACE_UPLOAD_MAX_FILES", 5000)
WORKSPACE_UNPACKED_MAX_BYTES = envint("WORKSPACE_UNPACKED_MAX_BYTES", 200 * 2**20)
# USD per million tokens: (prompt, completion). Unknown models cost 0.
MODEL_PRICES = {
    "gpt-4o": (2.5, 10.0),
    "gpt-4o-mini": (0.15, 0.6),
    "claude-sonnet-4-6": (3.0, 15.0),
    "claude-opus-4-6": (15.0, 75.0),
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
]
LOGIN_URL = "/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/login/"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = DATA_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)  # WhiteNoise warns at every start about a missing one
# Straight from frontend/dist and the apps' static folders: no collectstatic step to forget.
WHITENOISE_USE_FINDERS = True
# FRONTEND_DIST lets parallel work build and test its own copy without clobbering frontend/dist.
FRONTEND_DIST = Path(envstr("FRONTEND_DIST", str(BASE_DIR / "frontend" / "dist")))
STATICFILES_DIRS = [FRONTEND_DIST] if FRONTEND_DIST.exists() else []

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": envstr("LOG_LEVEL", "INFO")},
}

# ---------------------------------------------------------------- sign-in limits (django-axes)

# After LOGIN_FAILURE_LIMIT failed sign-ins for one username, or from one address, within
# LOGIN_COOLOFF_MINUTES (a fraction is fine: 0.1 is six seconds), further attempts are refused with
# 429 and how long to wait, even with the right password. Failed sign-ups and wrong API tokens count
# for their address. The policy (whose address, what a success forgets, the 429) is accounts/login_limits.py.
LOGIN_FAILURE_LIMIT = envint("LOGIN_FAILURE_LIMIT", 10)
LOGIN_COOLOFF_MINUTES = envfloat("LOGIN_COOLOFF_MINUTES", 15)
AUTHENTICATION_BACKENDS = [
    # First: refuses a locked-out sign-in before the password is checked. It needs the request, so
    # authenticate() (and the test client's login()) without one raises; use force_login in tests.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMIT
AXES_COOLOFF_TIME = timedelta(minutes=LOGIN_COOLOFF_MINUTES)
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_PARAMETERS = "accounts.login_limits.lockout_parameters"
AXES_HANDLER = "accounts.login_limits.AttemptsHandler"
AXES_CLIENT_IP_CALLABLE = "accounts.login_limits.client_address"
AXES_LOCKOUT_CALLABLE = "accounts.login_limits.lockout_response"
# The window runs from the failure that reached the limit; tries while locked out do not restart it,
# so the wait we announce holds and a script retrying with its now-correct token gets back in.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# No admin site here to read a log of every successful sign-in, which would only grow.
AXES_DISABLE_ACCESS_LOG = True
AXES_VERBOSE = False  # its "AXES: BEGIN" banner opened every manage.py command's output (invite's link among them)

# ---------------------------------------------------------------- Content-Security-Policy (django-csp)

# Only this server's own scripts, workers, connections and files: no inline script, no eval, nothing
# from another origin. Styles alone may be inline: CodeMirror 6 (the YAML and run-script editors) puts
# its styles in a <style> element it fills as editors mount, which 'self' would block (the editors
# come out unstyled and unusable; seen in Chromium). Its content varies, so no hash fits; a nonce
# would have to reach EditorView.cspNonce through the page shell. Inline styles cannot run code.
# React Flow's positions are set from script (element.style), which CSP does not govern either way.
# 'self' in connect-src covers the run websocket (ws: and wss: to the same host, CSP Level 3).
# data: images: the inline favicon and Swagger UI's stylesheet. tests/e2e/test_content_security_policy.py
# holds every page to no violation.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# ---------------------------------------------------------------- deployment checks

# `manage.py check --deploy` is clean with the environment of docs/production.md. Two HSTS choices are
# the operator's, so their warnings are silenced rather than decided here: includeSubDomains would bind
# every other site under this host name to HTTPS (HSTS_INCLUDE_SUBDOMAINS=1 opts in), and preloading
# is a request to browser vendors, only for the registrable domain and slow to undo (HSTS_PRELOAD=1).
SILENCED_SYSTEM_CHECKS = ["security.W005", "security.W021"]

# ---------------------------------------------------------------- who may join (accounts/invitations.py)

# Once the server's owner exists: closed (nobody new), invite (only with an invitation link) or open.
SIGNUP = envstr("SIGNUP", "invite")
if SIGNUP not in ("closed", "invite", "open"):
    raise ImproperlyConfiguredEnv(f"SIGNUP={SIGNUP!r} must be closed, invite or open")
# E-mail domains whose addresses may sign up without a link (comma-separated), e.g. example.com.
SIGNUP_DOMAINS = [d for d in envstr("SIGNUP_DOMAINS", "").split(",") if d.strip()]
# Where people reach the server: invitation links start with it (unset: the address the inviter used).
PUBLIC_URL = envstr("PUBLIC_URL", "")
