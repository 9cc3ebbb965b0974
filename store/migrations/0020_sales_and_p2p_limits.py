from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    """The least a token-sale subscription and a listing application lock (issue 27): 1 of the accepted
    asset (USDT) unless the operator sets another, also for the sales and projects already there."""

    dependencies = [("models", "0019_operator_controls")]

    initial = False

    operations = [
        ops.AddField(
            model_name="TokenSale",
            name="min_amount",
            field=fields.DecimalField(default=1, db_default=1, max_digits=36, decimal_places=18),
        ),
        ops.AddField(
            model_name="ListingProject",
            name="min_amount",
            field=fields.DecimalField(default=1, db_default=1, max_digits=36, decimal_places=18),
        ),
    ]
