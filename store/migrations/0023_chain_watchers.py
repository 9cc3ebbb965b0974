"""Chain watchers (issue 28, phase B): where each watcher is, and deposits keyed as chains key them.

- ``chain_blocks``: per chain the blocks its watcher processed, by height and hash. The highest is
  the cursor; the recent ones (store/chain/watch.py keeps ``KEEP_BLOCKS``) show a reorg, a stored
  hash the node no longer has at its height.
- ``chain_deposits`` is keyed by (chain, tx_hash, output_index), not by the hash alone: one transaction
  may pay several deposit addresses (a UTXO output each, an ERC20 log each). It gains where it was
  mined (block hash and height), how many of its credits were clawed back after reorgs
  (``reversals``) and what a clawback could not take (``owed``). Rows written before (reported by
  the operator's ``exchange chain-deposit``) get their protocol's chain and output 0.
"""

from tortoise import fields, migrations
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.indexes import Index
from tortoise.migrations import operations as ops
from tortoise.migrations.constraints import UniqueConstraint

from store.models.chain import DepositStatus


async def name_the_chains(apps: object, schema_editor: object) -> None:
    client: BaseDBAsyncClient = schema_editor.client  # type: ignore[attr-defined]
    await client.execute_script(
        "UPDATE chain_deposits SET chain = (SELECT chain_protocol FROM currency_protocols p"
        " WHERE p.id = chain_deposits.currency_protocol_id)"
    )


class AddUniqueOnSqlite(ops.AddConstraint):
    """AddConstraint, but on SQLite, where a unique pair is part of a table's definition and tortoise's
    ALTER adds none, as the unique index SQLite's own advice gives (0022's DropUniqueOnSqlite is the
    other half). Last in the migration: an AlterField after it rebuilds the SQLite table without it."""

    async def database_forward(self, app_label, old_state, new_state, state_editor=None) -> None:
        if state_editor is not None and state_editor.client.capabilities.dialect == "sqlite":
            await state_editor.client.execute_script(
                'CREATE UNIQUE INDEX "uid_chain_depos_chain_tx_output" ON "chain_deposits" '
                '("chain", "tx_hash", "output_index")'
            )
            return
        await super().database_forward(app_label, old_state, new_state, state_editor)


class Migration(migrations.Migration):
    dependencies = [("models", "0022_hd_addresses")]

    initial = False

    operations = [
        ops.CreateModel(
            name="ChainBlock",
            fields=[
                ("id", fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ("chain", fields.CharField(max_length=16)),
                ("height", fields.IntField()),
                ("hash", fields.CharField(max_length=128)),
                ("created_at", fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={
                "table": "chain_blocks",
                "app": "models",
                "unique_together": (("chain", "height"),),
                "pk_attr": "id",
                "table_description": "A block a chain watcher processed (store/chain/watch.py)",
            },
            bases=["Model"],
        ),
        ops.AddField(
            model_name="ChainDeposit",
            name="chain",
            field=fields.CharField(default="", db_default="", max_length=16),
        ),
        ops.AddField(
            model_name="ChainDeposit",
            name="output_index",
            field=fields.IntField(default=0, db_default=0),
        ),
        ops.AddField(model_name="ChainDeposit", name="block_hash", field=fields.CharField(null=True, max_length=128)),
        ops.AddField(model_name="ChainDeposit", name="block_height", field=fields.IntField(null=True)),
        ops.AddField(
            model_name="ChainDeposit",
            name="reversals",
            field=fields.SmallIntField(default=0, db_default=0),
        ),
        ops.AddField(
            model_name="ChainDeposit",
            name="owed",
            field=fields.DecimalField(default=0, db_default=0, max_digits=36, decimal_places=18),
        ),
        ops.RunPython(name_the_chains, ops.RunPython.noop),
        ops.AlterField(
            model_name="ChainDeposit",
            name="tx_hash",
            field=fields.CharField(db_index=True, max_length=128),
        ),
        ops.AlterModelOptions(
            name="ChainDeposit",
            options={
                "table": "chain_deposits",
                "app": "models",
                "indexes": [Index(fields=["user_id", "currency_id"]), Index(fields=["chain", "status"])],
                "pk_attr": "id",
                "table_description": "A transfer seen on a chain to a deposit address, credited once",
            },
        ),
        ops.AddIndex(model_name="ChainDeposit", index=Index(fields=["chain", "status"])),
        ops.AlterField(
            model_name="ChainDeposit",
            name="status",
            field=fields.IntEnumField(
                default=DepositStatus.CONFIRMING,
                description="CONFIRMING: 0\nCREDITED: 1\nBELOW_MINIMUM: 2\nDROPPED: 3\nABOVE_MAXIMUM: 4",
                enum_type=DepositStatus,
                generated=False,
            ),
        ),
        AddUniqueOnSqlite(
            model_name="ChainDeposit",
            constraint=UniqueConstraint(fields=("chain", "tx_hash", "output_index"), name=None),
        ),
    ]
