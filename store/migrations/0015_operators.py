import functools
from json import dumps, loads

from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('models', '0014_p2p_market')]

    initial = False

    operations = [
        ops.CreateModel(
            name='AuditLog',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('operator', fields.CharField(max_length=128)),
                ('operator_id', fields.IntField(null=True)),
                ('role', fields.CharField(default='', max_length=16)),
                ('action', fields.CharField(max_length=64)),
                ('target', fields.CharField(default='', max_length=128)),
                ('before', fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('after', fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('reason', fields.CharField(default='', max_length=500)),
                ('address', fields.CharField(default='', max_length=128)),
                ('at_ms', fields.BigIntField()),
            ],
            options={'table': 'audit_log', 'app': 'models', 'indexes': [Index(fields=['action', 'at_ms']), Index(fields=['operator', 'at_ms']), Index(fields=['target', 'at_ms'])], 'pk_attr': 'id', 'table_description': 'One operator action: who (and the role it needed), what, on what, the values before and after,'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Operator',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('email', fields.CharField(unique=True, max_length=128)),
                ('password_hash', fields.CharField(max_length=255)),
                ('totp_secret', fields.CharField(max_length=64)),
                ('roles', fields.JSONField(default=list, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('active', fields.BooleanField(default=True)),
                ('password_is_temporary', fields.BooleanField(default=True)),
                ('created_ms', fields.BigIntField()),
                ('last_login_ms', fields.BigIntField(null=True)),
            ],
            options={'table': 'operators', 'app': 'models', 'pk_attr': 'id', 'table_description': 'An operator: e-mail, password, TOTP secret and roles (support, finance, risk, content, markets,'},
            bases=['Model'],
        ),
    ]
