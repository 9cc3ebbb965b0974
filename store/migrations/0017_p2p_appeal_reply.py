import functools
from json import dumps, loads

from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    """The other side's answer to a P2P appeal (issue 16: both sides' evidence before the operator)."""

    dependencies = [('models', '0016_user_freezes')]

    initial = False

    operations = [
        ops.AddField(
            model_name='P2POrder',
            name='reply_reason',
            field=fields.CharField(default='', db_default='', max_length=500),
        ),
        ops.AddField(
            model_name='P2POrder',
            name='reply_images',
            field=fields.JSONField(default=list, null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads),
        ),
        ops.AddField(
            model_name='P2POrder',
            name='reply_ms',
            field=fields.BigIntField(null=True),
        ),
    ]
