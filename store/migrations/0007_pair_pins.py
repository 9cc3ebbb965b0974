from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.fields.base import OnDelete
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0006_personal_centre')]

    initial = False

    operations = [
        ops.CreateModel(
            name='PairPin',
            fields=[
                ('currency_match', fields.OneToOneField('models.CurrencyMatch', source_field='currency_match_id', primary_key=True, db_index=True, db_constraint=True, to_field='id', related_name='pin', on_delete=OnDelete.CASCADE)),
                ('node', fields.CharField(max_length=128)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'pair_pins', 'app': 'models', 'pk_attr': 'currency_match_id', 'table_description': "The node a pair's actor was moved to with `exchange pairs move`, kept across restarts."},
            bases=['Model'],
        ),
    ]
