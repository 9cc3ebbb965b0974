"""The back office's store: operators, their roles, sessions and two-factor codes (``operators``), and
the append-only audit trail (``audit``)."""
