# The tables were created by runtime's 0001 migration; this one only tells Django's state that
# accounts owns them now (runtime 0003 removes them from runtime's state), so no data moves.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("runtime", "0002_run_unpriced_models"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="ApiToken",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("name", models.CharField(max_length=100)),
                        ("prefix", models.CharField(max_length=12)),
                        ("digest", models.CharField(max_length=64, unique=True)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("last_used_at", models.DateTimeField(blank=True, null=True)),
                        ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="api_tokens", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={"db_table": "runtime_apitoken"},
                ),
                migrations.CreateModel(
                    name="ProviderKey",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("provider", models.CharField(max_length=40)),
                        ("base_url", models.CharField(blank=True, default="", max_length=300)),
                        ("encrypted_key", models.TextField()),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                        ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="provider_keys", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        "db_table": "runtime_providerkey",
                        "constraints": [models.UniqueConstraint(fields=("user", "provider"), name="unique_user_provider_key")],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
