"""Withdrawals leave on chains (issue 28, phase C): ``chain_sends`` holds the one transaction of each
approved withdrawal, its signed bytes and id stored before any broadcast (store/chain/sends.py).
``withdrawals.status`` gains APPROVED (4, being sent) and FAILED (5, refused by the chain, refunded):
an integer column already, so only the model's enum grows (no ALTER, which on SQLite would rebuild
the table).
"""

from tortoise import fields, migrations
from tortoise.fields.base import OnDelete
from tortoise.indexes import Index
from tortoise.migrations import operations as ops

from store.models.chain import SendState


class Migration(migrations.Migration):
    dependencies = [("models", "0024_sms_outbox")]

    initial = False

    operations = [
        ops.CreateModel(
            name="ChainSend",
            fields=[
                ("id", fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                (
                    "withdrawal",
                    fields.OneToOneField(
                        "models.Withdrawal",
                        source_field="withdrawal_id",
                        db_constraint=True,
                        to_field="id",
                        related_name="send",
                        on_delete=OnDelete.CASCADE,
                    ),
                ),
                ("chain", fields.CharField(max_length=16)),
                ("sender", fields.CharField(max_length=128)),
                ("nonce", fields.BigIntField(null=True)),
                ("txid", fields.CharField(unique=True, max_length=128)),
                ("raw_tx", fields.TextField(unique=False)),
                (
                    "state",
                    fields.IntEnumField(
                        default=SendState.SIGNED,
                        description="SIGNED: 1\nSENT: 2\nCONFIRMED: 3\nFAILED: 4",
                        enum_type=SendState,
                        generated=False,
                    ),
                ),
                ("attempts", fields.IntField(default=0)),
                ("error", fields.CharField(default="", max_length=255)),
                ("reason", fields.CharField(default="", max_length=255)),
                ("block_height", fields.IntField(null=True)),
                ("confirmations", fields.IntField(default=0)),
                ("created_at", fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ("updated_at", fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={
                "table": "chain_sends",
                "app": "models",
                "indexes": [Index(fields=["chain", "state"]), Index(fields=["chain", "sender", "nonce"])],
                "pk_attr": "id",
                "table_description": "The one transaction of an approved withdrawal",
            },
            bases=["Model"],
        ),
    ]
