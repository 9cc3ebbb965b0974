"""Settings, seed data and translations; importing the package installs the money decimal context
(``config.numeric``) in the importing process, before anything else computes with ``Decimal``."""

from config import numeric

numeric.install()
