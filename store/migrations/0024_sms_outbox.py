"""SMS delivery off the request path (issue 30): ``sms_messages``, the durable queue the SMS sender
actor drains, with each message's state (queued, sending, sent, delivered, failed), the provider that
took it and why it failed. Only the new table: the other differences makemigrations reports are older
drift, not this change's."""

from tortoise import fields, migrations
from tortoise.indexes import Index
from tortoise.migrations import operations as ops

from store.models.sms import SmsState


class Migration(migrations.Migration):
    dependencies = [('models', '0023_chain_watchers')]

    initial = False

    operations = [
        ops.CreateModel(
            name='SmsMessage',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('to', fields.CharField(max_length=20)),
                ('region', fields.CharField(max_length=2)),
                ('purpose', fields.SmallIntField()),
                ('body', fields.TextField(unique=False)),
                ('redacted', fields.TextField(unique=False)),
                ('state', fields.CharEnumField(default=SmsState.QUEUED, description='QUEUED: queued\nSENDING: sending\nSENT: sent\nDELIVERED: delivered\nFAILED: failed', enum_type=SmsState, max_length=12)),
                ('rounds', fields.SmallIntField(default=0)),
                ('provider', fields.CharField(default='', max_length=16)),
                ('provider_ref', fields.CharField(null=True, max_length=80)),
                ('parts', fields.SmallIntField(default=0)),
                ('error', fields.TextField(default='', unique=False)),
                ('next_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('expires_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('sent_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('done_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'sms_messages', 'app': 'models', 'indexes': [Index(fields=['state', 'next_at']), Index(fields=['provider', 'provider_ref']), Index(fields=['to', 'created_at'])], 'pk_attr': 'id', 'table_description': 'One text to one phone. ``body`` holds the text only while it may still be sent: once the message'},
            bases=['Model'],
        ),
    ]
