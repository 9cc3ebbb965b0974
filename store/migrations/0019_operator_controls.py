"""Manual credits (docs/decisions.md "Operator controls over money"): an operator's credit under a unique
reference, pending until a second finance operator approves it when it is worth more than the
two-operator threshold."""

from tortoise import fields, migrations
from tortoise.fields.base import OnDelete
from tortoise.indexes import Index
from tortoise.migrations import operations as ops

from store.models.wallet import AccountType, ManualCreditStatus


class Migration(migrations.Migration):
    dependencies = [("models", "0018_journal_without_foreign_keys")]

    initial = False

    operations = [
        ops.CreateModel(
            name="ManualCredit",
            fields=[
                ("id", fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ("ref", fields.CharField(unique=True, max_length=128)),
                ("user", fields.ForeignKeyField("models.User", source_field="user_id", db_constraint=True, to_field="id",
                                                related_name="manual_credits", on_delete=OnDelete.CASCADE)),
                ("currency", fields.ForeignKeyField("models.Currency", source_field="currency_id", db_constraint=True,
                                                    to_field="id", related_name="manual_credits",
                                                    on_delete=OnDelete.CASCADE)),
                ("account_type", fields.IntEnumField(default=AccountType.CHANGE,
                                                     description="CHANGE: 1\nLEGAL: 2\nLEVER: 3\nMICRO: 4\nFINANCIAL: 5",
                                                     enum_type=AccountType, generated=False)),
                ("amount", fields.DecimalField(max_digits=36, decimal_places=18)),
                ("usd_value", fields.DecimalField(max_digits=36, decimal_places=18)),
                ("status", fields.IntEnumField(default=ManualCreditStatus.PENDING,
                                               description="PENDING: 1\nCREDITED: 2\nREJECTED: 3",
                                               enum_type=ManualCreditStatus, generated=False)),
                ("reason", fields.CharField(default="", max_length=500)),
                ("requested_by", fields.CharField(max_length=128)),
                ("requested_by_id", fields.IntField(null=True)),
                ("decided_by", fields.CharField(default="", max_length=128)),
                ("decided_by_id", fields.IntField(null=True)),
                ("decision_reason", fields.CharField(default="", max_length=500)),
                ("created_ms", fields.BigIntField()),
                ("decided_ms", fields.BigIntField(null=True)),
            ],
            options={"table": "manual_credits", "app": "models",
                     "indexes": [Index(fields=["status", "id"]), Index(fields=["user_id", "id"])], "pk_attr": "id",
                     "table_description": "An operator's manual credit (a bank wire, a transfer to a wrong memo), "
                                          "under the operator's"},
            bases=["Model"],
        ),  # fmt: skip
    ]
