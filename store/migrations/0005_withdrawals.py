from tortoise import migrations
from tortoise.migrations import operations as ops
from store.models import WithdrawalStatus
from tortoise.fields.base import OnDelete
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('models', '0004_deposits')]

    initial = False

    operations = [
        ops.CreateModel(
            name='WithdrawAddress',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('user', fields.ForeignKeyField('models.User', source_field='user_id', db_constraint=True, to_field='id', related_name='withdraw_addresses', on_delete=OnDelete.CASCADE)),
                ('currency', fields.ForeignKeyField('models.Currency', source_field='currency_id', db_constraint=True, to_field='id', related_name='withdraw_addresses', on_delete=OnDelete.CASCADE)),
                ('currency_protocol', fields.ForeignKeyField('models.CurrencyProtocol', source_field='currency_protocol_id', db_constraint=True, to_field='id', related_name='withdraw_addresses', on_delete=OnDelete.CASCADE)),
                ('address', fields.CharField(max_length=128)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'withdraw_addresses', 'app': 'models', 'unique_together': (('user', 'currency_protocol', 'address'),), 'pk_attr': 'id', 'table_description': 'A withdrawal address a user bound for one currency and chain (user/addr).'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Withdrawal',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('user', fields.ForeignKeyField('models.User', source_field='user_id', db_constraint=True, to_field='id', related_name='withdrawals', on_delete=OnDelete.CASCADE)),
                ('currency', fields.ForeignKeyField('models.Currency', source_field='currency_id', db_constraint=True, to_field='id', related_name='withdrawals', on_delete=OnDelete.CASCADE)),
                ('currency_protocol', fields.ForeignKeyField('models.CurrencyProtocol', source_field='currency_protocol_id', null=True, db_constraint=True, to_field='id', related_name='withdrawals', on_delete=OnDelete.CASCADE)),
                ('address', fields.CharField(max_length=128)),
                ('memo', fields.CharField(default='', max_length=64)),
                ('amount', fields.DecimalField(max_digits=36, decimal_places=18)),
                ('fee', fields.DecimalField(max_digits=36, decimal_places=18)),
                ('status', fields.IntEnumField(default=WithdrawalStatus.PENDING, description='PENDING: 1\nCOMPLETED: 2\nREJECTED: 3', enum_type=WithdrawalStatus, generated=False)),
                ('ref', fields.CharField(unique=True, max_length=64)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'withdrawals', 'app': 'models', 'indexes': [Index(fields=['user_id', 'status']), Index(fields=['status', 'id'])], 'pk_attr': 'id', 'table_description': 'A withdrawal request. Its amount is locked in the change account from the moment it exists (the'},
            bases=['Model'],
        ),
    ]
