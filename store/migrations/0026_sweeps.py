"""Sweeps (issue 28): a credited deposit whose address has been swept to the hot wallet is marked
``swept_at``, so the Signer looks only at addresses that received something since
(store/chain/sweeps.py)."""

from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0025_chain_sends")]

    initial = False

    operations = [
        ops.AddField(model_name="ChainDeposit", name="swept_at", field=fields.DatetimeField(null=True)),
    ]
