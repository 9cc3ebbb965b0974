from tortoise import migrations
from tortoise.migrations import operations as ops
from store.models import OrderStatus
from tortoise.fields.base import OnDelete
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('models', '0001_initial')]

    initial = False

    operations = [
        ops.CreateModel(
            name='FeeLedger',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('trade_id', fields.BigIntField()),
                ('side', fields.SmallIntField()),
                ('currency', fields.ForeignKeyField('models.Currency', source_field='currency_id', db_constraint=True, to_field='id', related_name='fees', on_delete=OnDelete.CASCADE)),
                ('amount', fields.DecimalField(max_digits=36, decimal_places=18)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'fee_ledger', 'app': 'models', 'unique_together': (('trade_id', 'side'),), 'pk_attr': 'id', 'table_description': 'Fees collected, one append-only row per trade side (no hot house-account row to contend on).'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Kline',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('currency_match_id', fields.IntField()),
                ('period', fields.CharField(max_length=8)),
                ('start', fields.BigIntField()),
                ('open', fields.DecimalField(max_digits=36, decimal_places=18)),
                ('high', fields.DecimalField(max_digits=36, decimal_places=18)),
                ('low', fields.DecimalField(max_digits=36, decimal_places=18)),
                ('close', fields.DecimalField(max_digits=36, decimal_places=18)),
                ('volume', fields.DecimalField(max_digits=36, decimal_places=18)),
                ('amount', fields.DecimalField(default=0, max_digits=36, decimal_places=18)),
            ],
            options={'table': 'klines', 'app': 'models', 'unique_together': (('currency_match_id', 'period', 'start'),), 'pk_attr': 'id', 'table_description': 'One candle of one pair and period, upserted by the PairActor of the pair as trades arrive.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Order',
            fields=[
                ('id', fields.BigIntField(primary_key=True, unique=True, db_index=True)),
                ('user', fields.ForeignKeyField('models.User', source_field='user_id', db_constraint=True, to_field='id', related_name='orders', on_delete=OnDelete.CASCADE)),
                ('currency_match', fields.ForeignKeyField('models.CurrencyMatch', source_field='currency_match_id', db_constraint=True, to_field='id', related_name='orders', on_delete=OnDelete.CASCADE)),
                ('way', fields.SmallIntField()),
                ('kind', fields.SmallIntField(default=1)),
                ('price', fields.DecimalField(max_digits=36, decimal_places=18)),
                ('number', fields.DecimalField(max_digits=36, decimal_places=18)),
                ('budget', fields.DecimalField(default=0, max_digits=36, decimal_places=18)),
                ('frozen', fields.DecimalField(max_digits=36, decimal_places=18)),
                ('transacted_amount', fields.DecimalField(default=0, max_digits=36, decimal_places=18)),
                ('transacted_volume', fields.DecimalField(default=0, max_digits=36, decimal_places=18)),
                ('status', fields.IntEnumField(default=OrderStatus.OPEN, description='OPEN: 1\nPARTIAL: 2\nFILLED: 3\nCANCELLED: 4', enum_type=OrderStatus, generated=False)),
                ('seq', fields.BigIntField(default=0)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'orders', 'app': 'models', 'indexes': [Index(fields=['currency_match_id', 'status']), Index(fields=['user_id', 'status'])], 'pk_attr': 'id', 'table_description': 'A spot order. Ids come from the API (before funds are frozen), so the row may appear only when'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Trade',
            fields=[
                ('id', fields.BigIntField(primary_key=True, unique=True, db_index=True)),
                ('currency_match', fields.ForeignKeyField('models.CurrencyMatch', source_field='currency_match_id', db_constraint=True, to_field='id', related_name='trades', on_delete=OnDelete.CASCADE)),
                ('buy_order_id', fields.BigIntField()),
                ('sell_order_id', fields.BigIntField()),
                ('buyer_id', fields.IntField()),
                ('seller_id', fields.IntField()),
                ('taker_way', fields.SmallIntField()),
                ('price', fields.DecimalField(max_digits=36, decimal_places=18)),
                ('number', fields.DecimalField(max_digits=36, decimal_places=18)),
                ('volume', fields.DecimalField(max_digits=36, decimal_places=18)),
                ('buyer_fee', fields.DecimalField(default=0, max_digits=36, decimal_places=18)),
                ('seller_fee', fields.DecimalField(default=0, max_digits=36, decimal_places=18)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'trades', 'app': 'models', 'indexes': [Index(fields=['currency_match_id', 'created_at'])], 'pk_attr': 'id', 'table_description': 'A fill between a maker and a taker. A side is settled once its FeeLedger row exists.'},
            bases=['Model'],
        ),
        ops.AlterModelOptions(
            name='Quotation',
            options={'table': 'quotations', 'app': 'models', 'pk_attr': 'currency_match_id', 'table_description': 'The last 24 h ticker of a pair, kept by its PairActor (seeded until the engine runs).'},
        ),
    ]
