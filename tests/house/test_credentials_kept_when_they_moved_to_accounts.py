"""API tokens and provider keys moved from the runtime app to accounts with a state-only migration: a
database made before the move keeps its tokens and keys, and they still work. Its accounts get their
personal workspaces on the way, and each key moves into its owner's."""
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
            "from django.db import connection; import hashlib;"
            "c = connection.cursor();"
            "c.execute(\"INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email, is_staff,"
            " is_active, date_joined) VALUES ('!', false, 'old', '', '', '', false, true, '2026-01-01')\");"
            "c.execute(\"SELECT id FROM auth_user WHERE username = 'old'\"); uid = c.fetchone()[0];"
            "c.execute(\"INSERT INTO runtime_apitoken (user_id, name, prefix, digest, created_at) VALUES (%s, 'cli', 'ld_x', %s, '2026-01-01')\","
            " [uid, hashlib.sha256(b'ld_before-the-move').hexdigest()]);"
            "c.execute(\"INSERT INTO runtime_providerkey (user_id, provider, base_url, encrypted_key, updated_at)"
            " VALUES (%s, 'openai', '', 'x', '2026-01-01')\", [uid])"
        ))
        manage(env, "migrate", "--noinput", "-v", "0")
        out = manage(env, "shell", "-c", (
            "from accounts.tokens import user_for_token; from accounts.models import ProviderKey;"
            "k = ProviderKey.objects.get();"
            "print(user_for_token('ld_before-the-move').username, k.provider, k.workspace.personal_for.username,"
            " k.workspace.memberships.get().role)"
        ))
        assert out.strip().splitlines()[-1].split() == ["old", "openai", "old", "owner"]
    finally:
        shutil.rmtree(env["DESIGNER_DATA_DIR"], ignore_errors=True)
