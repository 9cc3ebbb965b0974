from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from json import dumps, loads
from store.models import ReviewStatus
from tortoise.fields.base import OnDelete
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('models', '0005_withdrawals')]

    initial = False

    operations = [
        ops.CreateModel(
            name='Feedback',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('user', fields.ForeignKeyField('models.User', source_field='user_id', db_constraint=True, to_field='id', related_name='feedback', on_delete=OnDelete.CASCADE)),
                ('content', fields.TextField(unique=False)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'feedback', 'app': 'models', 'pk_attr': 'id', 'table_description': 'A message a user sent from the personal centre, operators read it with `exchange feedback`.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='PayMethod',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('user', fields.ForeignKeyField('models.User', source_field='user_id', db_constraint=True, to_field='id', related_name='pay_methods', on_delete=OnDelete.CASCADE)),
                ('type', fields.CharField(max_length=16)),
                ('raw_data', fields.JSONField(encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'pay_methods', 'app': 'models', 'unique_together': (('user', 'type'),), 'pk_attr': 'id', 'table_description': 'A collection method of a user (alipay, wxpay or bank), ``raw_data`` holds the fields of spec 3.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='RealName',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('user', fields.OneToOneField('models.User', source_field='user_id', db_constraint=True, to_field='id', related_name='real_name', on_delete=OnDelete.CASCADE)),
                ('name', fields.CharField(max_length=64)),
                ('card_id', fields.CharField(max_length=32)),
                ('front_pic', fields.CharField(max_length=255)),
                ('reverse_pic', fields.CharField(max_length=255)),
                ('hand_pic', fields.CharField(max_length=255)),
                ('review_status', fields.IntEnumField(default=ReviewStatus.UNDER_REVIEW, description='NOT_SUBMITTED: 0\nUNDER_REVIEW: 1\nAPPROVED: 2', enum_type=ReviewStatus, generated=False)),
                ('reject_reason', fields.CharField(default='', max_length=255)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'real_names', 'app': 'models', 'pk_attr': 'id', 'table_description': 'A real-name (KYC) submission, one per user.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Upload',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('user', fields.ForeignKeyField('models.User', source_field='user_id', db_constraint=True, to_field='id', related_name='uploads', on_delete=OnDelete.CASCADE)),
                ('name', fields.CharField(unique=True, max_length=64)),
                ('content_type', fields.CharField(max_length=32)),
                ('size', fields.IntField()),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'uploads', 'app': 'models', 'pk_attr': 'id', 'table_description': 'An image a user uploaded (stored under the data directory), only its owner may attach it.'},
            bases=['Model'],
        ),
    ]
