from tortoise import migrations
from tortoise.migrations import operations as ops
from store.models import MicroStatus
from tortoise.fields.base import OnDelete
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('models', '0011_scheduler')]

    initial = False

    operations = [
        ops.CreateModel(
            name='MicroOrder',
            fields=[
                ('id', fields.BigIntField(primary_key=True, unique=True, db_index=True)),
                ('user', fields.ForeignKeyField('models.User', source_field='user_id', db_constraint=True, to_field='id', related_name='micro_orders', on_delete=OnDelete.CASCADE)),
                ('currency_match', fields.ForeignKeyField('models.CurrencyMatch', source_field='currency_match_id', db_constraint=True, to_field='id', related_name='micro_orders', on_delete=OnDelete.CASCADE)),
                ('currency', fields.ForeignKeyField('models.Currency', source_field='currency_id', db_constraint=True, to_field='id', related_name='micro_orders', on_delete=OnDelete.CASCADE)),
                ('type', fields.SmallIntField()),
                ('seconds', fields.IntField()),
                ('number', fields.DecimalField(max_digits=36, decimal_places=18)),
                ('profit_ratio', fields.DecimalField(max_digits=36, decimal_places=18)),
                ('fee_rate', fields.DecimalField(default=0, max_digits=36, decimal_places=18)),
                ('status', fields.IntEnumField(description='OPEN: 1\nCLOSED: 3', enum_type=MicroStatus, generated=False)),
                ('accepted_ms', fields.BigIntField()),
                ('outcome', fields.CharField(default='', max_length=8)),
                ('entry_tick_id', fields.BigIntField(null=True)),
                ('exit_tick_id', fields.BigIntField(null=True)),
                ('open_price', fields.DecimalField(null=True, max_digits=36, decimal_places=18)),
                ('end_price', fields.DecimalField(null=True, max_digits=36, decimal_places=18)),
                ('end_ms', fields.BigIntField(null=True)),
                ('payout', fields.DecimalField(default=0, max_digits=36, decimal_places=18)),
                ('fact_profits', fields.DecimalField(default=0, max_digits=36, decimal_places=18)),
                ('fee', fields.DecimalField(default=0, max_digits=36, decimal_places=18)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('settled_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'micro_orders', 'app': 'models', 'indexes': [Index(fields=['user_id', 'status']), Index(fields=['status', 'id']), Index(fields=['currency_match_id', 'seconds', 'status'])], 'pk_attr': 'id', 'table_description': "A second contract: up or down on a pair's mark over ``seconds``, against the house."},
            bases=['Model'],
        ),
        ops.AddField(
            model_name='Currency',
            name='micro_max',
            field=fields.DecimalField(default=10000, db_default=10000, max_digits=36, decimal_places=18),
        ),
        ops.AddField(
            model_name='Currency',
            name='micro_max_open',
            field=fields.DecimalField(default=50000, db_default=50000, max_digits=36, decimal_places=18),
        ),
        ops.AddField(
            model_name='Currency',
            name='micro_min',
            field=fields.DecimalField(default=1, db_default=1, max_digits=36, decimal_places=18),
        ),
        ops.AddField(
            model_name='Currency',
            name='micro_numbers',
            field=fields.CharField(default='', db_default='', max_length=128),
        ),
        ops.AddField(
            model_name='CurrencyMatch',
            name='micro_fee_rate',
            field=fields.DecimalField(default=0, db_default=0, max_digits=36, decimal_places=18),
        ),
        ops.AddField(
            model_name='CurrencyMatch',
            name='micro_max_exposure',
            field=fields.DecimalField(default=100000, db_default=100000, max_digits=36, decimal_places=18),
        ),
        ops.AddField(
            model_name='CurrencyMatch',
            name='micro_seconds',
            field=fields.CharField(default='30:80,60:85,120:90,300:90', db_default='30:80,60:85,120:90,300:90', max_length=128),
        ),
    ]
