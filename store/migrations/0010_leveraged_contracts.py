from tortoise import migrations
from tortoise.migrations import operations as ops
from store.models import LeverStatus
from tortoise.fields.base import OnDelete
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('models', '0009_backfill_pending_work')]

    initial = False

    operations = [
        ops.CreateModel(
            name='HouseLedger',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('kind', fields.CharField(max_length=16)),
                ('currency', fields.ForeignKeyField('models.Currency', source_field='currency_id', db_constraint=True, to_field='id', related_name='house', on_delete=OnDelete.CASCADE)),
                ('amount', fields.DecimalField(max_digits=36, decimal_places=18)),
                ('ref', fields.CharField(unique=True, max_length=128)),
                ('user_id', fields.IntField(null=True)),
                ('position_id', fields.BigIntField(null=True)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'house_ledger', 'app': 'models', 'indexes': [Index(fields=['kind', 'currency_id'])], 'pk_attr': 'id', 'table_description': "The house's side of leveraged contracts, append-only (no hot house row to contend on): fees"},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='LeverCursor',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('shard', fields.IntField()),
                ('currency_match_id', fields.IntField()),
                ('seq', fields.BigIntField(default=0)),
            ],
            options={'table': 'lever_cursors', 'app': 'models', 'unique_together': (('shard', 'currency_match_id'),), 'pk_attr': 'id', 'table_description': "How far a lever shard has processed each pair's mark ticks: on a restart it replays the ticks"},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='LeverPosition',
            fields=[
                ('id', fields.BigIntField(primary_key=True, unique=True, db_index=True)),
                ('user', fields.ForeignKeyField('models.User', source_field='user_id', db_constraint=True, to_field='id', related_name='lever_positions', on_delete=OnDelete.CASCADE)),
                ('currency_match', fields.ForeignKeyField('models.CurrencyMatch', source_field='currency_match_id', db_constraint=True, to_field='id', related_name='lever_positions', on_delete=OnDelete.CASCADE)),
                ('type', fields.SmallIntField()),
                ('status', fields.IntEnumField(description='ENTRUSTED: 0\nOPEN: 1\nCLOSING: 2\nCLOSED: 3\nCANCELLED: 4', enum_type=LeverStatus, generated=False)),
                ('share', fields.IntField()),
                ('multiple', fields.IntField()),
                ('share_num', fields.DecimalField(max_digits=36, decimal_places=18)),
                ('point_rate', fields.DecimalField(default=0, max_digits=36, decimal_places=18)),
                ('fee_rate', fields.DecimalField(default=0, max_digits=36, decimal_places=18)),
                ('overnight_rate', fields.DecimalField(default=0, max_digits=36, decimal_places=18)),
                ('target_price', fields.DecimalField(default=0, max_digits=36, decimal_places=18)),
                ('origin_price', fields.DecimalField(default=0, max_digits=36, decimal_places=18)),
                ('price', fields.DecimalField(default=0, max_digits=36, decimal_places=18)),
                ('caution_money', fields.DecimalField(default=0, max_digits=36, decimal_places=18)),
                ('origin_caution_money', fields.DecimalField(default=0, max_digits=36, decimal_places=18)),
                ('frozen', fields.DecimalField(default=0, max_digits=36, decimal_places=18)),
                ('trade_fee', fields.DecimalField(default=0, max_digits=36, decimal_places=18)),
                ('overnight_money', fields.DecimalField(default=0, max_digits=36, decimal_places=18)),
                ('target_profit_price', fields.DecimalField(default=0, max_digits=36, decimal_places=18)),
                ('stop_loss_price', fields.DecimalField(default=0, max_digits=36, decimal_places=18)),
                ('close_price', fields.DecimalField(default=0, max_digits=36, decimal_places=18)),
                ('profits', fields.DecimalField(default=0, max_digits=36, decimal_places=18)),
                ('close_reason', fields.CharField(default='', max_length=16)),
                ('armed_seq', fields.BigIntField(default=0)),
                ('stop_seq', fields.BigIntField(default=0)),
                ('open_tick_id', fields.BigIntField(default=0)),
                ('close_tick_id', fields.BigIntField(default=0)),
                ('overnight_day', fields.IntField(default=0)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('opened_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('closed_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'lever_positions', 'app': 'models', 'indexes': [Index(fields=['user_id', 'status']), Index(fields=['currency_match_id', 'status'])], 'pk_attr': 'id', 'table_description': 'A leveraged contract against the house: an entrustment, then an open position, then closed.'},
            bases=['Model'],
        ),
        ops.AddField(
            model_name='CurrencyMatch',
            name='lever_max_exposure',
            field=fields.DecimalField(default=10000000, db_default=10000000, max_digits=36, decimal_places=18),
        ),
        ops.AddField(
            model_name='CurrencyMatch',
            name='lever_max_hands',
            field=fields.IntField(default=100, db_default=100),
        ),
        ops.AddField(
            model_name='CurrencyMatch',
            name='lever_multiples',
            field=fields.CharField(default='5,10,20,50,100,200', db_default='5,10,20,50,100,200', max_length=64),
        ),
        ops.AddField(
            model_name='CurrencyMatch',
            name='lever_overnight_rate',
            field=fields.DecimalField(default=0, db_default=0, max_digits=36, decimal_places=18),
        ),
        ops.AddField(
            model_name='CurrencyMatch',
            name='lever_shares',
            field=fields.CharField(default='1,2,5,10,20,50', db_default='1,2,5,10,20,50', max_length=64),
        ),
    ]
