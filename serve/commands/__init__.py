"""Groups of `exchange` commands, one module each, registered by ``serve.cli``."""
