from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('runtime', '0016_snapshot_links'),
    ]

    operations = [
        migrations.AddField(
            model_name='run',
            name='thinking',
            field=models.CharField(blank=True, default='', max_length=10),
        ),
    ]
