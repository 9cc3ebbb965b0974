"""HD deposit addresses (issue 28): the per-family address table and index counter, and no more
addresses that no key controls.

- ``hd_addresses``/``hd_counters``: a user's address per chain family and the next index of each
  family (store/chain/keys.py derives the address from the family's xpub at that index).
- ``deposit_addresses`` loses its (address, memo) uniqueness: EVM protocols (USDT and ETH on ERC20,
  ETC, BEP20) share the family's one address, as TRON's do. Every row written before this migration
  is an HMAC digest shaped like an address, which no key controls: they are deleted, so the next
  ``wallet/wallet`` hands out a derived one. Chain deposits recorded against them keep their rows.
- Currencies whose only chains have no adapter yet (ADA, DOT, FIL, XRP, EOS) have deposits and
  withdrawals closed; the console can see them closed, and the seed keeps them so.
"""

from tortoise import fields, migrations
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.fields.base import OnDelete
from tortoise.indexes import Index
from tortoise.migrations import operations as ops

UNSUPPORTED = ("ADA", "DOT", "FIL", "XRP", "EOS")


async def forget_hmac_addresses_and_close_chains(apps: object, schema_editor: object) -> None:
    client: BaseDBAsyncClient = schema_editor.client  # type: ignore[attr-defined]
    chains = ", ".join(f"'{chain}'" for chain in UNSUPPORTED)
    await client.execute_script("DELETE FROM deposit_addresses")
    await client.execute_script(
        f"""
        UPDATE currencies SET open_recharge = FALSE, open_draw = FALSE
        WHERE id IN (SELECT currency_id FROM currency_protocols WHERE chain_protocol IN ({chains}))
          AND NOT EXISTS (SELECT 1 FROM currency_protocols p
                          WHERE p.currency_id = currencies.id AND p.chain_protocol NOT IN ({chains}))
        """
    )


class DropUniqueOnSqlite(ops.RemoveConstraint):
    """RemoveConstraint, but on SQLite, where the unique pair is part of the table's definition (no index
    to drop), the table is rebuilt without it, as SQLite's own ALTER TABLE advice says. The rebuild
    keeps no unique_together, so the one that stays, (user, currency_protocol), becomes a unique index."""

    async def database_forward(self, app_label, old_state, new_state, state_editor=None) -> None:
        if state_editor is not None and state_editor.client.capabilities.dialect == "sqlite":
            await state_editor._remake_table(new_state.apps.get_model(f"{app_label}.{self.model_name}"))
            await state_editor.client.execute_script(
                'CREATE UNIQUE INDEX "uid_deposit_add_user_id_d61333" ON "deposit_addresses" ("user_id", "currency_protocol_id")'
            )
            return
        await super().database_forward(app_label, old_state, new_state, state_editor)


class Migration(migrations.Migration):
    dependencies = [("models", "0021_robust_mark")]

    initial = False

    operations = [
        ops.RunPython(forget_hmac_addresses_and_close_chains, ops.RunPython.noop),
        ops.CreateModel(
            name="HdAddress",
            fields=[
                ("id", fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                (
                    "user",
                    fields.ForeignKeyField(
                        "models.User",
                        source_field="user_id",
                        db_constraint=True,
                        to_field="id",
                        related_name="hd_addresses",
                        on_delete=OnDelete.CASCADE,
                    ),
                ),
                ("family", fields.CharField(max_length=8)),
                ("index", fields.IntField()),
                ("address", fields.CharField(db_index=True, max_length=128)),
                ("key_id", fields.CharField(max_length=16)),
                ("created_at", fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={
                "table": "hd_addresses",
                "app": "models",
                "unique_together": (("user", "family"), ("family", "index")),
                "pk_attr": "id",
                "table_description": "A user's deposit address in one chain family (store/chain/keys.py): the receive child ``index``",
            },
            bases=["Model"],
        ),
        ops.CreateModel(
            name="HdCounter",
            fields=[
                ("family", fields.CharField(primary_key=True, unique=True, db_index=True, max_length=8)),
                ("next_index", fields.IntField(default=0)),
            ],
            options={
                "table": "hd_counters",
                "app": "models",
                "pk_attr": "family",
                "table_description": "The next unused address index of a chain family, raised in the transaction that stores the",
            },
            bases=["Model"],
        ),
        DropUniqueOnSqlite(model_name="DepositAddress", name=None, fields=["address", "memo"]),
        ops.AlterModelOptions(
            name="DepositAddress",
            options={
                "table": "deposit_addresses",
                "app": "models",
                "unique_together": (("user", "currency_protocol"),),
                "indexes": [Index(fields=["address", "memo"])],
                "pk_attr": "id",
                "table_description": "A user's deposit address on one currency protocol: its family's ``HdAddress`` (so USDT and ETH on",
            },
        ),
        ops.AddIndex(
            model_name="DepositAddress",
            index=Index(fields=["address", "memo"]),
        ),
    ]
