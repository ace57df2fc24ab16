from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('runtime', '0015_run_permissions'),
    ]

    operations = [
        migrations.AddField(
            model_name='workspacesnapshot',
            name='links',
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
