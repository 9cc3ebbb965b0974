from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from json import dumps, loads
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('models', '0002_spot_orders')]

    initial = False

    operations = [
        ops.AddField(
            model_name='AccountLog',
            name='extra',
            field=fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads),
        ),
        ops.AddIndex(
            model_name='AccountLog',
            index=Index(fields=['user_id', 'account_type', 'currency_id']),
        ),
    ]
