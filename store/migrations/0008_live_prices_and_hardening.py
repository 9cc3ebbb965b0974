from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('models', '0007_pair_pins')]

    initial = False

    operations = [
        ops.CreateModel(
            name='IdBlock',
            fields=[
                ('name', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=32)),
                ('next_id', fields.BigIntField()),
            ],
            options={'table': 'id_blocks', 'app': 'models', 'pk_attr': 'name', 'table_description': 'The next free id of a kind of row (``order``), handed out in blocks (``store.ids``): ids are'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='MarkTick',
            fields=[
                ('id', fields.BigIntField(primary_key=True, unique=True, db_index=True)),
                ('currency_match_id', fields.IntField()),
                ('seq', fields.BigIntField()),
                ('time_ms', fields.BigIntField()),
                ('price', fields.DecimalField(max_digits=36, decimal_places=18)),
                ('prev_hash', fields.CharField(max_length=64)),
                ('hash', fields.CharField(max_length=64)),
            ],
            options={'table': 'mark_ticks', 'app': 'models', 'unique_together': (('currency_match_id', 'seq'),), 'indexes': [Index(fields=['currency_match_id', 'time_ms'])], 'pk_attr': 'id', 'table_description': 'One mark-price tick of a pair: its durable, ordered, hash-chained price log.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='OrderHold',
            fields=[
                ('order_id', fields.BigIntField(primary_key=True, unique=True, db_index=True)),
                ('user_id', fields.IntField()),
                ('currency_id', fields.IntField()),
                ('amount', fields.DecimalField(max_digits=36, decimal_places=18)),
                ('created_at', fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'order_holds', 'app': 'models', 'pk_attr': 'order_id', 'table_description': 'Funds frozen for an order whose row has not landed yet: written with the freeze, deleted when'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='PendingRelease',
            fields=[
                ('order_id', fields.BigIntField(primary_key=True, unique=True, db_index=True)),
                ('currency_match_id', fields.IntField()),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'pending_releases', 'app': 'models', 'indexes': [Index(fields=['currency_match_id', 'order_id'])], 'pk_attr': 'order_id', 'table_description': 'A final order whose unused funds are not yet released: written when the pair stores the order as'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='PendingSettlement',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('trade_id', fields.BigIntField()),
                ('side', fields.SmallIntField()),
                ('currency_match_id', fields.IntField()),
            ],
            options={'table': 'pending_settlements', 'app': 'models', 'unique_together': (('trade_id', 'side'),), 'indexes': [Index(fields=['currency_match_id', 'trade_id'])], 'pk_attr': 'id', 'table_description': 'A trade side not yet settled: written with the trade, deleted by its settlement.'},
            bases=['Model'],
        ),
        ops.AddField(
            model_name='Currency',
            name='max_amount',
            field=fields.DecimalField(default=1000000000, db_default=1000000000, max_digits=36, decimal_places=18),
        ),
        ops.AddField(
            model_name='CurrencyMatch',
            name='max_open_orders',
            field=fields.IntField(default=200, db_default=200),
        ),
        ops.AddField(
            model_name='CurrencyMatch',
            name='max_price',
            field=fields.DecimalField(default=10000000, db_default=10000000, max_digits=36, decimal_places=18),
        ),
        ops.AddField(
            model_name='CurrencyMatch',
            name='max_quantity',
            field=fields.DecimalField(default=1000000000, db_default=1000000000, max_digits=36, decimal_places=18),
        ),
        ops.AddField(
            model_name='CurrencyMatch',
            name='min_notional',
            field=fields.DecimalField(default=1, db_default=1, max_digits=36, decimal_places=18),
        ),
        ops.AddField(
            model_name='CurrencyMatch',
            name='price_band',
            field=fields.DecimalField(default=5, db_default=5, max_digits=36, decimal_places=18),
        ),
        ops.AddField(
            model_name='User',
            name='security_changed_at',
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
    ]
