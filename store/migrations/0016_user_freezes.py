from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0015_operators')]

    initial = False

    operations = [
        ops.AddField(
            model_name='User',
            name='login_frozen',
            field=fields.BooleanField(default=False, db_default=False),
        ),
        ops.AddField(
            model_name='User',
            name='withdraw_frozen',
            field=fields.BooleanField(default=False, db_default=False),
        ),
    ]
