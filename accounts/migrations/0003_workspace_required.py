# Apart from the data migration before it: PostgreSQL refuses to alter a table with pending trigger events.
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0002_workspaces"),
    ]

    operations = [
        migrations.AlterField(
            model_name="providerkey",
            name="workspace",
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="provider_keys", to="accounts.workspace"),
        ),
    ]
