from tortoise import migrations
from tortoise.migrations import operations as ops
from store.models import DepositStatus
from tortoise.fields.base import OnDelete
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('models', '0003_account_log_extra')]

    initial = False

    operations = [
        ops.CreateModel(
            name='CurrencyProtocol',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('currency', fields.ForeignKeyField('models.Currency', source_field='currency_id', db_constraint=True, to_field='id', related_name='protocols', on_delete=OnDelete.CASCADE)),
                ('chain_protocol', fields.CharField(max_length=16)),
                ('token_address', fields.CharField(default='', max_length=128)),
                ('uses_memo', fields.BooleanField(default=False)),
                ('sort', fields.IntField(default=0)),
            ],
            options={'table': 'currency_protocols', 'app': 'models', 'unique_together': (('currency', 'chain_protocol'),), 'pk_attr': 'id', 'table_description': 'A chain a currency moves on (USDT on ERC20 and TRC20), ``uses_memo`` chains share one address.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='ChainDeposit',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('tx_hash', fields.CharField(unique=True, max_length=128)),
                ('user', fields.ForeignKeyField('models.User', source_field='user_id', db_constraint=True, to_field='id', related_name='chain_deposits', on_delete=OnDelete.CASCADE)),
                ('currency', fields.ForeignKeyField('models.Currency', source_field='currency_id', db_constraint=True, to_field='id', related_name='chain_deposits', on_delete=OnDelete.CASCADE)),
                ('currency_protocol', fields.ForeignKeyField('models.CurrencyProtocol', source_field='currency_protocol_id', db_constraint=True, to_field='id', related_name='chain_deposits', on_delete=OnDelete.CASCADE)),
                ('address', fields.CharField(max_length=128)),
                ('memo', fields.CharField(default='', max_length=64)),
                ('amount', fields.DecimalField(max_digits=36, decimal_places=18)),
                ('confirmations', fields.IntField(default=0)),
                ('status', fields.IntEnumField(default=DepositStatus.CONFIRMING, description='CONFIRMING: 0\nCREDITED: 1\nBELOW_MINIMUM: 2', enum_type=DepositStatus, generated=False)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'chain_deposits', 'app': 'models', 'indexes': [Index(fields=['user_id', 'currency_id'])], 'pk_attr': 'id', 'table_description': 'A transfer seen on a chain to a deposit address, credited once, when confirmed (ref is the hash).'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='DepositAddress',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('user', fields.ForeignKeyField('models.User', source_field='user_id', db_constraint=True, to_field='id', related_name='deposit_addresses', on_delete=OnDelete.CASCADE)),
                ('currency_protocol', fields.ForeignKeyField('models.CurrencyProtocol', source_field='currency_protocol_id', db_constraint=True, to_field='id', related_name='deposit_addresses', on_delete=OnDelete.CASCADE)),
                ('address', fields.CharField(max_length=128)),
                ('memo', fields.CharField(default='', max_length=64)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'deposit_addresses', 'app': 'models', 'unique_together': (('user', 'currency_protocol'), ('address', 'memo')), 'pk_attr': 'id', 'table_description': 'A user deposit address on one currency protocol, made once by the chain gateway, then stable.'},
            bases=['Model'],
        ),
    ]
