# Apart from the data migration before it: PostgreSQL refuses to alter a table with pending trigger events.
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("designer", "0002_workspaces"),
    ]

    operations = [
        migrations.AlterField(
            model_name="workflow",
            name="workspace",
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="workflows", to="accounts.workspace"),
        ),
    ]
