"""API tokens and provider keys moved from the runtime app to accounts with a state-only migration: a
database made before the move keeps its tokens and keys, and they still work."""
from __future__ import annotations

import shutil

from tests.support.servers import base_env, manage


def test_a_token_and_a_key_made_before_the_move_still_work_after_migrating():
    env = base_env()
    try:
        manage(env, "migrate", "--noinput", "-v", "0")
        # Back to the schema before the move, then make the rows the old way: straight into the tables.
        manage(env, "migrate", "accounts", "zero", "--noinput", "-v", "0")
        manage(env, "shell", "-c", (
            "from django.contrib.auth import get_user_model; from django.db import connection;"
            "u = get_user_model().objects.create_user('old', password='pass-old-123');"
            "import hashlib;"
            "c = connection.cursor();"
            "c.execute(\"INSERT INTO runtime_apitoken (user_id, name, prefix, digest, created_at) VALUES (%s, 'cli', 'ld_x', %s, '2026-01-01')\","
            " [u.pk, hashlib.sha256(b'ld_before-the-move').hexdigest()]);"
            "c.execute(\"INSERT INTO runtime_providerkey (user_id, provider, base_url, encrypted_key, updated_at) VALUES (%s, 'openai', '', 'x', '2026-01-01')\", [u.pk])"
        ))
        manage(env, "migrate", "--noinput", "-v", "0")
        out = manage(env, "shell", "-c", (
            "from accounts.tokens import user_for_token; from accounts.models import ProviderKey;"
            "print(user_for_token('ld_before-the-move').username, ProviderKey.objects.get().provider)"
        ))
        assert out.strip().splitlines()[-1].split() == ["old", "openai"]
    finally:
        shutil.rmtree(env["DESIGNER_DATA_DIR"], ignore_errors=True)
