from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0020_sales_and_p2p_limits')]

    initial = False

    operations = [
        ops.AddField(
            model_name='CurrencyMatch',
            name='impact_notional',
            field=fields.DecimalField(default=1000, db_default=1000, max_digits=36, decimal_places=18),
        ),
        ops.AddField(
            model_name='MarkTick',
            name='rule',
            field=fields.CharField(default='touch', db_default='touch', max_length=8),
        ),
        ops.AddField(
            model_name='MarkTick',
            name='version',
            field=fields.SmallIntField(default=1, db_default=1),
        ),
    ]
