import functools
from json import dumps, loads

from tortoise import migrations
from tortoise.migrations import operations as ops
from store.models import AdStatus, MerchantStatus, P2PState
from tortoise.fields.base import OnDelete
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('models', '0013_earn_products')]

    initial = False

    operations = [
        ops.CreateModel(
            name='Merchant',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('user', fields.OneToOneField('models.User', source_field='user_id', db_constraint=True, to_field='id', related_name='merchant', on_delete=OnDelete.CASCADE)),
                ('nickname', fields.CharField(unique=True, max_length=32)),
                ('status', fields.IntField(default=MerchantStatus.PENDING)),
                ('reject_reason', fields.CharField(default='', max_length=255)),
                ('applied_ms', fields.BigIntField()),
                ('decided_ms', fields.BigIntField(null=True)),
                ('decided_by', fields.CharField(default='', max_length=64)),
            ],
            options={'table': 'p2p_merchants', 'app': 'models', 'pk_attr': 'id', 'table_description': "A user's application to be a merchant, approved by an operator (which sets ``is_seller``)."},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='P2PAd',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('merchant', fields.ForeignKeyField('models.User', source_field='merchant_id', db_constraint=True, to_field='id', related_name='p2p_ads', on_delete=OnDelete.CASCADE)),
                ('side', fields.IntField()),
                ('currency', fields.ForeignKeyField('models.Currency', source_field='currency_id', db_constraint=True, to_field='id', related_name='p2p_ads', on_delete=OnDelete.CASCADE)),
                ('fiat', fields.CharField(max_length=8)),
                ('price', fields.DecimalField(max_digits=36, decimal_places=18)),
                ('min_fiat', fields.DecimalField(max_digits=36, decimal_places=18)),
                ('max_fiat', fields.DecimalField(max_digits=36, decimal_places=18)),
                ('total', fields.DecimalField(max_digits=36, decimal_places=18)),
                ('stock', fields.DecimalField(max_digits=36, decimal_places=18)),
                ('methods', fields.JSONField(default=list, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('window_min', fields.IntField()),
                ('remarks', fields.CharField(default='', max_length=500)),
                ('status', fields.IntField(default=AdStatus.ONLINE)),
                ('listed', fields.BooleanField(default=False)),
                ('version', fields.IntField(default=0)),
                ('created_ms', fields.BigIntField()),
                ('updated_ms', fields.BigIntField()),
            ],
            options={'table': 'p2p_ads', 'app': 'models', 'indexes': [Index(fields=['listed', 'side', 'currency_id', 'fiat']), Index(fields=['merchant_id', 'status'])], 'pk_attr': 'id', 'table_description': "A merchant's ad. ``stock`` is what no order holds yet. On a sell ad it is locked in the merchant's"},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='P2POrder',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('ad', fields.ForeignKeyField('models.P2PAd', source_field='ad_id', db_constraint=True, to_field='id', related_name='orders', on_delete=OnDelete.CASCADE)),
                ('merchant_id', fields.IntField()),
                ('buyer_id', fields.IntField()),
                ('seller_id', fields.IntField()),
                ('side', fields.IntField()),
                ('currency_id', fields.IntField()),
                ('fiat', fields.CharField(max_length=8)),
                ('price', fields.DecimalField(max_digits=36, decimal_places=18)),
                ('amount', fields.DecimalField(max_digits=36, decimal_places=18)),
                ('total', fields.DecimalField(max_digits=36, decimal_places=18)),
                ('pay_method', fields.CharField(max_length=16)),
                ('pay_details', fields.JSONField(default=dict, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('state', fields.IntField(default=P2PState.UNPAID)),
                ('created_ms', fields.BigIntField()),
                ('deadline_ms', fields.BigIntField()),
                ('paid_ms', fields.BigIntField(null=True)),
                ('ended_ms', fields.BigIntField(null=True)),
                ('cancel_kind', fields.CharField(default='', max_length=8)),
                ('proof', fields.CharField(default='', max_length=255)),
                ('appeal_by', fields.IntField(null=True)),
                ('appeal_reason', fields.CharField(default='', max_length=500)),
                ('appeal_images', fields.JSONField(default=list, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('resolved_to', fields.CharField(default='', max_length=8)),
                ('resolved_by', fields.CharField(default='', max_length=64)),
            ],
            options={'table': 'p2p_orders', 'app': 'models', 'indexes': [Index(fields=['state', 'deadline_ms']), Index(fields=['buyer_id', 'state']), Index(fields=['seller_id', 'state']), Index(fields=['ad_id', 'buyer_id'])], 'pk_attr': 'id', 'table_description': "An order on an ad: ``amount`` of the coin held in escrow from the seller's legal account from its"},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='P2PEvent',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('order', fields.ForeignKeyField('models.P2POrder', source_field='order_id', db_constraint=True, to_field='id', related_name='events', on_delete=OnDelete.CASCADE)),
                ('seq', fields.IntField()),
                ('from_state', fields.IntField()),
                ('to_state', fields.IntField()),
                ('by', fields.CharField(max_length=8)),
                ('actor', fields.CharField(default='', max_length=64)),
                ('note', fields.CharField(default='', max_length=500)),
                ('at_ms', fields.BigIntField()),
            ],
            options={'table': 'p2p_order_events', 'app': 'models', 'unique_together': (('order_id', 'seq'),), 'pk_attr': 'id', 'table_description': "One transition of an order, written in its transaction: the order's journal."},
            bases=['Model'],
        ),
    ]
