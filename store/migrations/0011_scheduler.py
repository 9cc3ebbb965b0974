from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from json import dumps, loads
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0010_leveraged_contracts')]

    initial = False

    operations = [
        ops.CreateModel(
            name='SchedulerRun',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('job', fields.CharField(max_length=64)),
                ('day', fields.IntField()),
                ('done', fields.BooleanField(default=False)),
                ('attempts', fields.IntField(default=0)),
                ('result', fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('error', fields.TextField(default='', unique=False)),
                ('started_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('finished_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'scheduler_runs', 'app': 'models', 'unique_together': (('job', 'day'),), 'pk_attr': 'id', 'table_description': 'One run of a Scheduler job for one UTC day (actors/scheduler): written before the job runs and'},
            bases=['Model'],
        ),
    ]
