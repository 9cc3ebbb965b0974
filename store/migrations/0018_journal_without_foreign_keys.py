"""The journal (``account_logs``) and the house ledger keep no foreign-key constraints on PostgreSQL.

Each of their rows is written by the ledger in the transaction that holds the account (or order) naming
the same user and currency, which has the constraints: the checks repeated what is known, cost two thirds
of a settlement's inserts (a trigger per row and key) and took share locks on the users' and the
currency's rows, which every concurrent writer of that currency shares. And history must not go with a
deleted row (``ON DELETE CASCADE``).

On SQLite the constraints stay: SQLite drops one only by rebuilding the table, and its checks are an
index lookup, with no locks of their own.
"""

from tortoise import fields, migrations
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.fields.base import OnDelete
from tortoise.migrations import operations as ops

DROPPED = (("account_logs", "account_logs_user_id_fkey"), ("account_logs", "account_logs_currency_id_fkey"),
           ("house_ledger", "house_ledger_currency_id_fkey"))  # fmt: skip


async def drop_constraints(apps: object, schema_editor: object) -> None:
    client: BaseDBAsyncClient = schema_editor.client  # type: ignore[attr-defined]
    if client.capabilities.dialect != "postgres":
        return
    for table, constraint in DROPPED:
        await client.execute_script(f'ALTER TABLE "{table}" DROP CONSTRAINT IF EXISTS "{constraint}"')


class Migration(migrations.Migration):
    dependencies = [("models", "0017_p2p_appeal_reply")]

    initial = False

    operations = [
        ops.AlterField(
            model_name="AccountLog",
            name="currency",
            field=fields.ForeignKeyField("models.Currency", source_field="currency_id", db_constraint=False,
                                         to_field="id", related_name="account_logs", on_delete=OnDelete.CASCADE),
        ),
        ops.AlterField(
            model_name="AccountLog",
            name="user",
            field=fields.ForeignKeyField("models.User", source_field="user_id", db_constraint=False, to_field="id",
                                         related_name="account_logs", on_delete=OnDelete.CASCADE),
        ),
        ops.AlterField(
            model_name="HouseLedger",
            name="currency",
            field=fields.ForeignKeyField("models.Currency", source_field="currency_id", db_constraint=False,
                                         to_field="id", related_name="house", on_delete=OnDelete.CASCADE),
        ),
        ops.RunPython(drop_constraints, ops.RunPython.noop),
    ]
