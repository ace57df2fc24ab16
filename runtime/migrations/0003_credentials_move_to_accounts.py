# API tokens and provider keys belong to the accounts app now. Their tables stay as they are
# (accounts' models keep the table names); only runtime's migration state forgets them.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("runtime", "0002_run_unpriced_models"),
        ("accounts", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="ApiToken"),
                migrations.DeleteModel(name="ProviderKey"),
            ],
            database_operations=[],
        ),
    ]
