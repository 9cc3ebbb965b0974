"""Live push: the subscription registry (pure) and the Fanout actor that serves ``/ws``."""
